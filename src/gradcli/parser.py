"""Text -> Program. The only module that imports lark; no lark type leaks out.

The LALR parser is built once per process from grammar/gradcli.lark (cached on
disk by lark between processes) and builds the AST while it parses, bottom-up,
so 100,000 nested parentheses cost no recursion. Lark's failures become
ParseError with a position, the expected input in words, and a suggestion.
"""
from __future__ import annotations

import os

from . import ops
from .errors import ParseError, UnknownName, nearest
from .expr import Apply, Const, Name, Num, Program, Statement, Vector, free_names

_BINARY = {"+": "add", "-": "sub", "*": "mul", "/": "div", "@": "matmul", "**": "pow", "^": "pow"}
_PREFIX = {"-": "neg", "+": "pos"}

# Characters people paste that look like operators: what they are, what to type.
LOOKALIKES = {
    "\u2212": ("the Unicode minus sign (U+2212)", "-"),
    "\u00a0": ("a non-breaking space (U+00A0)", "a plain space"),
    "\u2009": ("a thin space (U+2009)", "a plain space"),
    "\u2013": ("an en dash (U+2013)", "-"),
    "\u2014": ("an em dash (U+2014)", "-"),
    "\u00d7": ("the multiplication sign × (U+00D7)", "*"),
    "\u22c5": ("the dot operator ⋅ (U+22C5)", "*"),
    "\u00b7": ("a middle dot · (U+00B7)", "*"),
    "\u2217": ("the asterisk operator ∗ (U+2217)", "*"),
    "\u00f7": ("the division sign ÷ (U+00F7)", "/"),
    "\u2215": ("the division slash ∕ (U+2215)", "/"),
    "\u00b2": ("a superscript two ²", "**2"),
    "\u00b3": ("a superscript three ³", "**3"),
    "\u221a": ("the square root sign √", "sqrt(...)"),
    "\u2018": ("a curly quote ‘", "nothing: quotes are not part of expressions"),
    "\u2019": ("a curly quote ’", "nothing: quotes are not part of expressions"),
    "\u201c": ("a curly quote “", "nothing: quotes are not part of expressions"),
    "\u201d": ("a curly quote ”", "nothing: quotes are not part of expressions"),
    "'": ("a quote", "nothing: quotes are not part of expressions"),
    '"': ("a double quote", "nothing: quotes are not part of expressions"),
    "\\": ("a backslash, as in LaTeX", r"plain text: sqrt(x) for \sqrt{x}, (a)/(b) for \frac{a}{b}"),
    "{": ("a brace, as in LaTeX", "parentheses ( )"),
    "}": ("a brace, as in LaTeX", "parentheses ( )"),
    "\u2264": ("≤", "nothing: comparisons are not part of the language"),
    "!": ("'!'", "nothing: factorials are not part of the language"),
}

_WORDS = {
    "NUMBER": "a number", "NAME": "a name", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['",
    "RSQB": "']'", "COMMA": "','", "EQUAL": "'='", "PLUS": "'+'", "MINUS": "'-'",
    "TIMES": "'*'", "DIVIDE": "'/'", "MATMUL": "'@'", "POW": "'**'", "_SEP": "a new line or ';'",
    "$END": "the end of the input", "IMPLICIT": "a factor",
}
_OPERAND = {"NUMBER", "NAME", "LPAR", "LSQB", "MINUS", "PLUS"}
_OPERATOR = {"PLUS", "MINUS", "TIMES", "DIVIDE", "MATMUL", "POW"}


def _grammar_path() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "grammar", "gradcli.lark"),
                      os.path.join(os.path.dirname(os.path.dirname(here)), "grammar",
                                   "gradcli.lark")):
        if os.path.isfile(candidate):
            return candidate
    raise FileNotFoundError("gradcli.lark is missing from the installation")


class _Span:
    """Helpers for node positions: (start, end) character offsets in the source."""

    @staticmethod
    def of(item):
        if hasattr(item, "start_pos"):
            return (item.start_pos, item.end_pos)
        return item.span

    @staticmethod
    def join(first, last):
        a, b = _Span.of(first), _Span.of(last)
        return (a[0], b[1])


_parser = None


def _get_parser():
    global _parser
    if _parser is None:
        from .lalr import Token, Transformer

        class PostLex:
            """Drops blank statements and inserts IMPLICIT multiplication tokens."""

            always_accept = ("_SEP",)

            def process(self, stream):
                prev = None
                pending_sep = None
                for tok in stream:
                    if tok.type == "_SEP":
                        if prev is not None and pending_sep is None:
                            pending_sep = tok
                        continue
                    if pending_sep is not None:
                        yield pending_sep
                        pending_sep = None
                        prev = None
                    if prev is not None and (
                            (prev.type == "NUMBER" and tok.type in ("NAME", "LPAR"))
                            or (prev.type == "RPAR" and tok.type == "LPAR")):
                        yield Token("IMPLICIT", prev.type, start_pos=tok.start_pos,
                                    end_pos=tok.start_pos, line=tok.line, column=tok.column)
                    yield tok
                    prev = tok

        class Builder(Transformer):
            """Reduce callbacks: each builds one AST node as the parser reduces."""

            def __init__(self):
                super().__init__()
                self.warnings = []

            def start(self, children):
                return children

            def assign(self, c):
                name, _, expr = c
                return Statement(str(name), expr, _Span.join(name, expr), _Span.of(name))

            def binary(self, c):
                left, tok, right = c
                return Apply(_BINARY[str(tok)], (left, right), _Span.join(left, right))

            def implicit(self, c):
                left, tok, right = c
                node = Apply("mul", (left, right), _Span.join(left, right))
                if tok.value == "NUMBER" and isinstance(left, Apply) and left.op == "div":
                    from .printer import to_text
                    other = Apply("div", (left.args[0], Apply("mul", (left.args[1], right))))
                    self.warnings.append(
                        f"'{_source[node.span[0]:node.span[1]]}' is read as "
                        f"{to_text(node, clarify=True)}: implicit multiplication binds like "
                        f"'*', left to right; write {to_text(other)} if you meant that")
                return node

            def prefix(self, c):
                tok, arg = c
                if tok == "-" and isinstance(arg, Num):
                    return Num(-arg.value, _Span.join(tok, arg))
                return Apply(_PREFIX[str(tok)], (arg,), _Span.join(tok, arg))

            def number(self, c):
                (tok,) = c
                text = str(tok)
                if text.isdigit() and len(text) <= 15:
                    value = int(text)
                else:
                    value = float(text)
                    if value == float("inf"):
                        raise ParseError(f"the number {text[:20]}{'…' if len(text) > 20 else ''} "
                                         "is too large for a double (the limit is about 1.8e308)",
                                         span=_Span.of(tok))
                    if value.is_integer() and abs(value) < 2 ** 53 and "." not in text \
                            and "e" not in text.lower():
                        value = int(value)
                return Num(value, _Span.of(tok))

            def name(self, c):
                (tok,) = c
                if tok in ops.CONSTANTS:
                    return Const(str(tok), _Span.of(tok))
                return Name(str(tok), _Span.of(tok))

            def call(self, c):
                name, _, args, close = c
                args = tuple(args or ())
                span = _Span.join(name, close)
                op = ops.lookup_function(str(name))
                if op is None:
                    raise _unknown_function(str(name), _Span.of(name), args,
                                            _source[c[1].end_pos:close.start_pos])
                if not op.accepts(len(args)):
                    plural = "" if op.arity == 1 else "s"
                    raise ParseError(
                        f"{name} takes {op.arity_text()} argument{plural}, "
                        f"but {len(args)} {'was' if len(args) == 1 else 'were'} given",
                        span=span, hint=f"see `gradcli functions` for {name}")
                return Apply(op.name, args, span)

            def group(self, c):
                c[1].span = _Span.join(c[0], c[2])
                return c[1]

            def vector(self, c):
                open_, items, close = c
                return Vector(tuple(items or ()), _Span.join(open_, close))

            def args(self, c):
                return [x for x in c if not hasattr(x, "type")]

        builder = Builder()
        lark = _TwoStage(PostLex(), builder)
        _parser = (lark, builder)
    return _parser


class _TwoStage:
    """The small LALR runtime (lalr.py) for text it reads; Lark itself for the rest.

    Lark's tables, computed from the grammar, drive both. Text the runtime
    cannot read (a syntax error, most likely) is parsed again by Lark, whose
    exceptions (`UnexpectedToken`, ... as attributes here, imported only then)
    carry what the error messages need.
    """

    def __init__(self, postlex, builder):
        from . import lalr
        self._postlex = postlex
        self._builder = builder
        self._lark = None
        self._unreadable = lalr.Unreadable
        with open(_grammar_path(), encoding="utf-8") as f:
            self._grammar = f.read()
        try:
            self._fast = lalr.Parser(lalr.tables(self._grammar, _lalr_tables), postlex, builder)
        except lalr.Unreadable:  # a grammar beyond the runtime: Lark does everything
            self._fast = None

    def parse(self, text):
        if self._fast is not None:
            try:
                return self._fast.parse(text)
            except self._unreadable:
                self._builder.warnings = []
        return self.full().parse(text)

    def lex(self, text, dont_ignore=False):
        return self.full().lex(text, dont_ignore=dont_ignore)

    def full(self):
        """Lark's own parser for the grammar (cached on disk by lark between processes)."""
        if self._lark is None:
            from lark import Lark
            self._lark = Lark(self._grammar, parser="lalr", lexer="basic",
                              postlex=self._postlex, transformer=self._builder,
                              maybe_placeholders=True, cache=True)
        return self._lark

    @property
    def UnexpectedCharacters(self):
        from lark.exceptions import UnexpectedCharacters
        return UnexpectedCharacters

    @property
    def UnexpectedToken(self):
        from lark.exceptions import UnexpectedToken
        return UnexpectedToken

    @property
    def UnexpectedInput(self):
        from lark.exceptions import UnexpectedInput
        return UnexpectedInput


def _lalr_tables(grammar: str) -> dict:
    """The lexer and LALR tables Lark computes for `grammar`, as plain data for lalr.py."""
    import functools

    import lark

    from . import lalr
    from lark.parse_tree_builder import (ChildFilterLALR, ChildFilterLALR_NoPlaceholders,
                                         maybe_create_child_filter)
    from lark.parsers.lalr_analysis import Shift

    lk = lark.Lark(grammar, parser="lalr", lexer="basic", maybe_placeholders=True)
    lexer = lk.parser.lexer
    scanner = lexer.scanner
    if lexer.callback or lexer.user_callbacks:
        raise lalr.Unreadable("the grammar needs lexer callbacks this runtime does not have")
    patterns = tuple((str(m.pattern), int(m.flags)) for m in scanner._mres)
    table = lk.parser.parser.parser.parse_table
    rules, index = [], {}

    def rule_id(rule):
        if id(rule) not in index:
            opts = rule.options
            made = maybe_create_child_filter(rule.expansion, opts.keep_all_tokens, False,
                                             opts.empty_indices)
            if made is None:
                include, append_none = None, 0
            else:
                assert isinstance(made, functools.partial)
                if made.func is ChildFilterLALR:
                    include = tuple((int(i), bool(x), int(n)) for i, x, n in made.args[0])
                    append_none = int(made.args[1])
                elif made.func is ChildFilterLALR_NoPlaceholders:
                    include = tuple((int(i), bool(x), 0) for i, x in made.args[0])
                    append_none = 0
                else:
                    raise lalr.Unreadable(f"unexpected child filter {made.func}")
            name = str(rule.alias or opts.template_source or rule.origin.name)
            rules.append((str(rule.origin.name), len(rule.expansion), name,
                          bool(opts.expand1 and not rule.alias), include, append_none))
            index[id(rule)] = len(rules) - 1
        return index[id(rule)]

    states = {}
    for state, actions in table.states.items():
        row = {}
        for symbol, (action, arg) in actions.items():
            row[str(symbol)] = (0, int(arg)) if action is Shift else (1, rule_id(arg))
        states[int(state)] = row
    return {
        "format": lalr.FORMAT,
        "grammar": grammar,
        "patterns": patterns,
        "ignore": tuple(sorted(str(t) for t in lexer.ignore_types)),
        "newline": tuple(sorted(str(t) for t in lexer.newline_types)),
        "states": states,
        "rules": tuple(rules),
        "start": int(table.start_states["start"]),
        "end": int(table.end_states["start"]),
    }


_source = ""


def parse(text: str) -> Program:
    """Parse a program (or a single expression) into a validated Program."""
    global _source
    lark, builder = _get_parser()

    if not text.strip():
        raise ParseError("the expression is empty", source=text, span=(0, 0),
                         hint='try for example: gradcli eval "x**2" --at x=3')
    _source = text
    builder.warnings = []
    try:
        statements = lark.parse(text)
    except lark.UnexpectedCharacters as exc:
        raise _character_error(text, exc.pos_in_stream) from None
    except lark.UnexpectedToken as exc:
        raise _token_error(text, exc) from None
    except lark.UnexpectedInput as exc:  # pragma: no cover - other lark input errors
        raise ParseError(f"cannot read the input here: {exc}", source=text,
                         span=(getattr(exc, "pos_in_stream", 0) or 0,) * 2) from None
    except (ParseError, UnknownName) as exc:
        exc.source = text
        raise
    program = Program(tuple(s if isinstance(s, Statement) else Statement(None, s, s.span)
                            for s in statements), text)
    program.warnings = list(builder.warnings)
    _validate(program)
    return program


def parse_expr(text: str):
    """Parse text that must be a single expression (no assignments)."""
    program = parse(text)
    if len(program.statements) != 1 or program.statements[0].name is not None:
        raise ParseError("expected a single expression here, not a program",
                         source=text, span=(0, len(text)))
    return program.result


def _unknown_function(name, span, args, inner_text=""):
    close = nearest(name, ops.function_names())
    if close:
        return UnknownName(f"unknown function '{name}'", span=span,
                           hint=f"did you mean {close}?")
    # x(y+1) -> suggest x*(y+1) with the user's own text, when it is short.
    if len(args) != 1:
        return UnknownName(f"'{name}' is not a function", span=span,
                           hint="`gradcli functions` lists the functions")
    inner = inner_text.strip() if len(inner_text.strip()) <= 40 else "…"
    return UnknownName(f"'{name}' is not a function", span=span,
                       hint=f"to multiply, write {name}*({inner}); "
                            "`gradcli functions` lists the functions")


def _validate(program: Program) -> None:
    """Names: no redefinition, no use before definition, no assigning constants or functions."""
    defined = {}
    later = {s.name: s for s in program.statements if s.name is not None}
    for stmt in program.statements:
        if stmt.name is not None:
            span = stmt.name_span
            if stmt.name in ops.CONSTANTS:
                raise ParseError(f"'{stmt.name}' is a constant and cannot be assigned",
                                 source=program.source, span=span,
                                 hint="choose another name")
            if ops.lookup_function(stmt.name) is not None:
                raise ParseError(f"'{stmt.name}' is a function and cannot be assigned",
                                 source=program.source, span=span,
                                 hint="choose another name")
            if stmt.name in defined:
                raise ParseError(f"'{stmt.name}' is defined twice",
                                 source=program.source, span=span,
                                 hint="a program's names are defined once each; "
                                      f"use a new name such as {stmt.name}2")
        for used in free_names(stmt.expr):
            if used in later and used not in defined:
                node_span = _first_use(stmt.expr, used)
                what = ("is used in its own definition" if later[used] is stmt
                        else "is used before it is defined")
                raise ParseError(f"'{used}' {what}", source=program.source, span=node_span,
                                 hint="define each name on an earlier line than its uses")
        if stmt.name is not None:
            defined[stmt.name] = stmt


def _first_use(root, name):
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Name) and node.id == name:
            return node.span
        stack.extend(reversed(node.children()))
    return root.span


def _tokens(text: str):
    """The token stream (for error explanations), stopping at the first bad character."""
    lark, _ = _get_parser()
    out = []
    try:
        for tok in lark.lex(text, dont_ignore=False):
            out.append(tok)
    except Exception:
        pass
    return out


def _character_error(text: str, pos: int) -> ParseError:
    ch = text[pos]
    if ch in LOOKALIKES:
        what, instead = LOOKALIKES[ch]
        return ParseError(f"'{ch}' is {what}", source=text, span=(pos, pos + 1),
                          hint=f"type {instead} instead" if not instead.startswith(("nothing", "plain"))
                          else f"use {instead}")
    if not ch.isprintable():
        return ParseError(f"unreadable character {ch!r} (U+{ord(ch):04X})", source=text,
                          span=(pos, pos + 1), hint="remove it")
    return ParseError(f"unexpected character '{ch}'", source=text, span=(pos, pos + 1),
                      hint="expressions use numbers, names, + - * / ** ^ @, "
                           "parentheses, brackets and commas")


def _expected_words(expected) -> str:
    expected = set(expected)
    if _OPERAND & expected and len(expected - _OPERAND - {"LSQB", "IMPLICIT"}) == 0:
        return "a number, a name or '('"
    parts = []
    if expected & _OPERAND and "NAME" in expected:
        parts.append("a number, a name or '('")
        expected -= _OPERAND
    if expected & _OPERATOR:
        parts.append("an operator")
        expected -= _OPERATOR
    for key in ("RPAR", "RSQB", "COMMA", "_SEP", "$END"):
        if key in expected:
            parts.append(_WORDS[key])
            expected.discard(key)
    parts.extend(sorted(_WORDS.get(e, e) for e in expected if e not in ("IMPLICIT", "EQUAL")))
    return ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1] if parts else "more input"


def _token_error(text: str, exc) -> ParseError:
    tok = exc.token
    expected = _expected_words(exc.expected)
    toks = [t for t in _tokens(text)]
    if tok.type == "$END":
        pos = len(text.rstrip())
        depth_stack = []
        for t in toks:
            if t.type in ("LPAR", "LSQB"):
                depth_stack.append(t)
            elif t.type in ("RPAR", "RSQB") and depth_stack:
                depth_stack.pop()
        if depth_stack and ("RPAR" in exc.expected or "RSQB" in exc.expected):
            opener = depth_stack[-1]
            closer = ")" if opener.type == "LPAR" else "]"
            return ParseError(f"missing '{closer}': the '{opener}' here is never closed",
                              source=text, span=(opener.start_pos, opener.end_pos),
                              hint=f"add '{closer}' at the end")
        last = toks[-1] if toks else None
        if last is not None and last.type in _OPERATOR | {"EQUAL", "COMMA"}:
            return ParseError(f"the input ends after '{last}': expected {expected} after it",
                              source=text, span=(last.start_pos, last.end_pos),
                              hint=f"complete the expression after '{last}' or remove it")
        return ParseError(f"the input ends too early: expected {expected}",
                          source=text, span=(pos, pos + 1))
    pos = tok.start_pos
    span = (pos, tok.end_pos if tok.end_pos and tok.end_pos > pos else pos + 1)
    prev = None
    for t in toks:
        if t.start_pos >= pos:
            break
        if t.type != "IMPLICIT":
            prev = t
    if tok.type == "IMPLICIT":
        return ParseError("a factor cannot follow here", source=text, span=span,
                          hint="write the multiplication with '*'")
    if tok.type == "_SEP":
        word = "';'" if str(tok) == ";" else "the end of the line"
        return ParseError(f"the statement stops at {word}: expected {expected}", source=text,
                          span=span, hint="complete the expression before it")
    if prev is not None and prev.type in ("NAME", "NUMBER", "RPAR", "RSQB") \
            and tok.type in ("NAME", "NUMBER", "LSQB", "LPAR"):
        a, b = str(prev), str(tok)
        if prev.type == "NAME" and tok.type == "NAME":
            return ParseError(f"two names side by side: '{a} {b}'", source=text,
                              span=(prev.start_pos, tok.end_pos),
                              hint=f"write {a}*{b} to multiply")
        return ParseError(f"'{b}' cannot follow '{a}' directly", source=text,
                          span=(prev.start_pos, tok.end_pos),
                          hint=f"write {a}*{b} to multiply, or add the missing operator")
    if tok.type == "RPAR":
        depth = 0
        for t in toks:
            if t.start_pos > pos:
                break
            depth += t.type == "LPAR"
            depth -= t.type == "RPAR"
        if depth < 0:
            return ParseError("unmatched ')': there is no '(' for it", source=text, span=span,
                              hint="remove it, or add '(' where the group begins")
    if tok.type == "EQUAL":
        if prev is not None and prev.type == "EQUAL":
            return ParseError("'==' is not an operator here", source=text, span=span,
                              hint="a statement is name = expression")
        return ParseError("'=' can only follow a name at the start of a statement",
                          source=text, span=span,
                          hint="a statement is name = expression; put each on its own line")
    shown = str(tok)
    what = f"'{shown}'"
    if prev is not None and prev.type in _OPERATOR | {"LPAR", "COMMA", "EQUAL", "LSQB"} \
            and tok.type in _OPERATOR - {"MINUS", "PLUS"} | {"RPAR", "COMMA", "RSQB"}:
        return ParseError(f"unexpected {what} after '{prev}': expected {expected}",
                          source=text, span=span,
                          hint=f"put an operand between '{prev}' and '{shown}'")
    hint = None
    if tok.type in _OPERATOR and (prev is None or prev.type == "_SEP"):
        hint = f"put an operand before '{shown}', or remove it"
    return ParseError(f"unexpected {what}: expected {expected}", source=text, span=span,
                      hint=hint)
