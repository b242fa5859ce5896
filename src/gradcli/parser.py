"""Text -> Program. The only module that imports lark; no lark type leaks out.

The LALR parser is built once per process from grammar/gradcli.lark (cached on
disk by lark between processes) and builds the AST while it parses, bottom-up,
so 100,000 nested parentheses cost no recursion. Lark's failures become
ParseError with a position, the expected input in words, and a suggestion.
"""
from __future__ import annotations

import _thread
import os

from . import limits, ops
from .errors import LimitError, ParseError, UnknownName, nearest
from .expr import Apply, Const, Name, Num, Program, Statement, Vector, free_names

_BINARY = {"+": "add", "-": "sub", "*": "mul", "/": "div", "@": "matmul", "**": "pow", "^": "pow"}
_PREFIX = {"-": "neg", "+": "pos"}

# Look-alike characters read as their ASCII meaning, because nothing else could
# be meant; one character for one, so positions stay those of the source.
ACCEPTED = str.maketrans({
    "\u2212": "-",   # minus sign
    "\u00d7": "*",   # multiplication sign
    "\u22c5": "*",   # dot operator
    "\u00b7": "*",   # middle dot
    "\u2217": "*",   # asterisk operator
    "\u00f7": "/",   # division sign
    "\u2215": "/",   # division slash
    "\u00a0": " ",   # no-break space and the other spaces pasted from documents
    "\u2002": " ", "\u2003": " ", "\u2009": " ", "\u200a": " ", "\u200b": " ",
    "\u202f": " ", "\u205f": " ", "\u3000": " ", "\ufeff": " ",
})
CONSTANT_ALIASES = {"\u03c0": "pi"}  # π

_QUOTE = "remove it: quotes are not part of expressions (only the shell's plain ' or \" " \
         "around the whole expression)"
# Characters people paste that gradcli does not read: what they are, what to type.
LOOKALIKES = {
    "\u2013": ("an en dash (U+2013)", "type - for minus"),
    "\u2014": ("an em dash (U+2014)", "type - for minus"),
    "\u2010": ("a hyphen (U+2010)", "type - for minus"),
    "\u207b": ("a superscript minus", "type **-1 for x⁻¹, e.g. x**-1"),
    "\u207a": ("a superscript plus", "remove it"),
    "\u221a": ("the square root sign", "type sqrt(x) for √x"),
    "\u221b": ("the cube root sign", "type cbrt(x) for ∛x"),
    "\u2018": ("a curly quote", _QUOTE),
    "\u2019": ("a curly quote", _QUOTE),
    "\u201c": ("a curly quote", _QUOTE),
    "\u201d": ("a curly quote", _QUOTE),
    "\u00ab": ("a guillemet", _QUOTE),
    "\u00bb": ("a guillemet", _QUOTE),
    "`": ("a backquote", _QUOTE),
    "'": ("a quote", _QUOTE),
    '"': ("a double quote", _QUOTE),
    "{": ("a brace, as in LaTeX", "use parentheses ( ) to group"),
    "}": ("a brace, as in LaTeX", "use parentheses ( ) to group"),
    "$": ("a dollar sign, as around LaTeX math", "remove it: write plain text such as x**2"),
    "|": ("a vertical bar", "type abs(x) for |x|"),
    "%": ("a percent sign", "there is no modulo or percent operator: write x/100 for x%"),
    "!": ("an exclamation mark", "factorials and 'not' are not part of the language"),
    "\u2264": ("a less-or-equal sign", "comparisons are not part of the language"),
    "\u2265": ("a greater-or-equal sign", "comparisons are not part of the language"),
    "<": ("a less-than sign", "comparisons are not part of the language"),
    ">": ("a greater-than sign", "comparisons are not part of the language"),
    "&": ("an ampersand", "logic operators are not part of the language"),
    "~": ("a tilde", "there is no such operator: type - for minus"),
    "\u00b1": ("a plus-minus sign", "compute the two cases separately with + and -"),
    "\u221e": ("the infinity sign", "infinity is not a value here: use a large number such as 1e300"),
    "\u00b0": ("a degree sign", "angles are in radians: type x*pi/180 for x°"),
    "\u2202": ("a partial-derivative sign", "write the function itself: gradcli computes "
               "its derivatives (gradcli diff prints them)"),
    "\u2211": ("a summation sign", "type sum([...]) over a vector"),
    "\u2248": ("an approximately-equal sign", "comparisons are not part of the language"),
    "\uff08": ("a full-width parenthesis", "type ( instead"),
    "\uff09": ("a full-width parenthesis", "type ) instead"),
    "\uff0b": ("a full-width plus sign", "type + instead"),
    "\uff0d": ("a full-width minus sign", "type - instead"),
    "\uff0a": ("a full-width asterisk", "type * instead"),
    "\uff0f": ("a full-width slash", "type / instead"),
    "\uff1d": ("a full-width equals sign", "type = instead"),
    "\uff0c": ("a full-width comma", "type , instead"),
}
_SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUPERSCRIPTS = str.maketrans(_SUPERSCRIPT_DIGITS, "0123456789")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")

# LaTeX commands: what to type instead. \frac and \sqrt are rewritten whole below.
_LATEX = {
    "cdot": "*", "times": "*", "ast": "*", "div": "/", "pi": "pi", "left": "(", "right": ")",
    "cdotp": "*", "pm": "+ or -", "infty": "a large number such as 1e300",
    "exp": "exp(x)", "ln": "log(x)", "log": "log(x)", "sin": "sin(x)", "cos": "cos(x)",
    "tan": "tan(x)", "sqrt": "sqrt(x)", "frac": "(a)/(b)", "partial": "nothing: "
    "gradcli computes the derivatives itself", "mathrm": "the plain name", "operatorname":
    "the plain name", "tanh": "tanh(x)", "sinh": "sinh(x)", "cosh": "cosh(x)",
    "arcsin": "asin(x)", "arccos": "acos(x)", "arctan": "atan(x)", "max": "max(a, b)",
    "min": "min(a, b)", "sigma": "a name such as sigma", "theta": "a name such as theta",
}

_WORDS = {
    "NUMBER": "a number", "NAME": "a name", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['",
    "RSQB": "']'", "COMMA": "','", "EQUAL": "'='", "PLUS": "'+'", "MINUS": "'-'",
    "TIMES": "'*'", "DIVIDE": "'/'", "MATMUL": "'@'", "POW": "'**'", "_SEP": "';' (or a new line)",
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
                count = 0
                depth = 0
                for tok in stream:
                    count += 1
                    if count > limits.MAX_TOKENS:
                        raise limits.too_many_tokens((tok.start_pos, tok.end_pos))
                    if tok.type in ("LPAR", "LSQB"):
                        depth += 1
                        if depth > limits.MAX_NESTING:
                            raise limits.too_deep((tok.start_pos, tok.end_pos))
                    elif tok.type in ("RPAR", "RSQB"):
                        depth -= 1
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
                self.skipped = 0

            def start(self, children):
                return children

            def assign(self, c):
                name, _, expr = c
                _check_name(name)
                return Statement(str(name), expr, _Span.join(name, expr), _Span.of(name))

            def binary(self, c):
                left, tok, right = c
                return Apply(_BINARY[str(tok)], (left, right), _Span.join(left, right))

            def implicit(self, c):
                left, tok, right = c
                node = Apply("mul", (left, right), _Span.join(left, right))
                if tok.value == "NUMBER" and isinstance(left, Apply) and left.op == "div":
                    if len(self.warnings) >= limits.MAX_WARNINGS:
                        self.skipped += 1  # counted, not built: each costs the node's size
                        return node
                    from .printer import quoted
                    other = Apply("div", (left.args[0], Apply("mul", (left.args[1], right))))
                    self.warnings.append(
                        f"'{limits.quote(_source[node.span[0]:node.span[1]])}' is read as "
                        f"{quoted(node, clarify=True)}: implicit multiplication "
                        f"binds like '*', left to right; write {quoted(other)} "
                        "if you meant that")
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
                _check_name(tok)
                if tok in ops.CONSTANTS:
                    return Const(str(tok), _Span.of(tok))
                if tok in CONSTANT_ALIASES:
                    return Const(CONSTANT_ALIASES[tok], _Span.of(tok))
                return Name(str(tok), _Span.of(tok))

            def call(self, c):
                name, _, args, close = c
                _check_name(name)
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
                self._builder.skipped = 0
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
# One parse at a time: the builder and _source hold the current parse's state.
# (_thread, not threading, which would add to every start-up.)
_one_at_a_time = _thread.RLock()


def parse(text: str) -> Program:
    """Parse a program (or a single expression) into a validated Program (thread-safe)."""
    with _one_at_a_time:
        return _parse(text)


def _parse(text: str) -> Program:
    global _source
    lark, builder = _get_parser()

    if len(text) > limits.MAX_INPUT_CHARS:
        raise limits.input_too_large(len(text))
    if not text.strip():
        raise ParseError("the expression is empty", source=text, span=(0, 0),
                         hint='try for example: gradcli eval "x**2" --at x=3')
    _source = text
    # Unambiguous look-alike operators are read as their ASCII meaning, one
    # character for one, so every position in an error still points at the source.
    plain = text.translate(ACCEPTED)
    builder.warnings = []
    builder.skipped = 0
    try:
        statements = lark.parse(plain)
    except lark.UnexpectedCharacters as exc:
        raise _character_error(text, exc.pos_in_stream) from None
    except lark.UnexpectedToken as exc:
        raise _token_error(plain, exc, text) from None
    except lark.UnexpectedInput as exc:  # pragma: no cover - other lark input errors
        raise ParseError("cannot read the input here", source=text,
                         span=(getattr(exc, "pos_in_stream", 0) or 0,) * 2) from None
    except (ParseError, UnknownName, LimitError) as exc:
        exc.source = text
        raise
    program = Program(tuple(s if isinstance(s, Statement) else Statement(None, s, s.span)
                            for s in statements), text)
    program.warnings = list(builder.warnings)
    if builder.skipped:
        program.warnings.append(limits.more_warnings(builder.skipped))
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
            if stmt.name in ops.CONSTANTS or stmt.name in CONSTANT_ALIASES:
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
    span = (pos, pos + 1)
    if ch == "\\":
        return _latex_error(text, pos)
    if ch in LOOKALIKES:
        what, hint = LOOKALIKES[ch]
        return ParseError(f"{what} ({ch}) cannot be read here", source=text, span=span,
                          hint=hint)
    if not ch.isprintable():
        import unicodedata
        name = unicodedata.name(ch, "")
        what = f"U+{ord(ch):04X}" + (f" {name}" if name else "")
        return ParseError(f"an invisible or control character ({what}) is in the input",
                          source=text, span=span, hint="remove it")
    return ParseError(f"unexpected character '{ch}'", source=text, span=span,
                      hint="expressions use numbers, names, + - * / ** ^ @, "
                           "parentheses, brackets and commas")


def _latex_error(text: str, pos: int) -> ParseError:
    """A backslash: LaTeX pasted in. Name the command and what to type instead."""
    import re

    rest = text[pos:pos + 400]
    frac = re.match(r"\\[dt]?frac\s*\{([^{}\\]*)\}\s*\{([^{}\\]*)\}", rest)
    sqrt = re.match(r"\\sqrt\s*\{([^{}\\]*)\}", rest)
    command = re.match(r"\\([A-Za-z]+)", rest)
    if frac:
        instead = f"({frac.group(1).strip()})/({frac.group(2).strip()})"
        span = (pos, pos + frac.end())
    elif sqrt:
        instead = f"sqrt({sqrt.group(1).strip()})"
        span = (pos, pos + sqrt.end())
    elif command:
        word = command.group(1)
        instead = _LATEX.get(word.lstrip("dt") if word.endswith("frac") else word)
        span = (pos, pos + command.end())
        if instead is None:
            return ParseError(f"'\\{word}' is a LaTeX command, which gradcli does not read",
                              source=text, span=span,
                              hint="write plain text: sqrt(x), (a)/(b), x**2, a*b, pi")
        return ParseError(f"'\\{word}' is a LaTeX command, which gradcli does not read",
                          source=text, span=span, hint=f"type {instead} instead")
    else:
        return ParseError("'\\' is a backslash, which is not part of the language",
                          source=text, span=(pos, pos + 1),
                          hint="write plain text: sqrt(x), (a)/(b), x**2, a*b, pi")
    shown = text[span[0]:span[1]]
    return ParseError(f"'{shown}' is LaTeX, which gradcli does not read", source=text,
                      span=span, hint=f"type {instead} instead")


def _check_name(tok) -> None:
    """A name must be an identifier: superscripts and other number signs are not letters."""
    name = str(tok)
    if name.isidentifier():
        return
    for i, ch in enumerate(name):
        if not ("a" + ch).isidentifier():
            break
    start = tok.start_pos + i
    run = ch
    if ch in _SUPERSCRIPT_DIGITS:
        j = i + 1
        while j < len(name) and name[j] in _SUPERSCRIPT_DIGITS:
            j += 1
        run = name[i:j]
    span = (start, start + len(run))
    if ch in _SUPERSCRIPT_DIGITS:
        base = name[:i]
        if not base:
            import re
            before = re.search(r"[\w.)\]]*$", _source[:tok.start_pos])
            base = before.group(0) if before and before.group(0) else "x"
        power = run.translate(_SUPERSCRIPTS)
        raise ParseError(f"'{run}' is a superscript, which gradcli does not read as a power",
                         span=span, hint=f"type {base}**{power} for {base}{run}")
    if ch in "₀₁₂₃₄₅₆₇₈₉":
        digit = ch.translate(_SUBSCRIPTS)
        raise ParseError(f"'{ch}' is a subscript digit, which cannot be part of a name",
                         span=span, hint=f"type {name[:i]}{digit} or {name[:i]}_{digit}")
    raise ParseError(f"'{ch}' cannot be part of a name", span=span,
                     hint="names are letters, digits and _, starting with a letter or _")


def _expected_words(expected) -> str:
    """Lark's expected terminals in words: 'a number, a name, '(' or ')'' (never a symbol)."""
    expected = set(expected)
    parts = []
    if expected & _OPERAND:
        parts += ["a number", "a name", "'('"]
        expected -= _OPERAND | {"LSQB"}
    if expected & _OPERATOR:
        parts.append("an operator")
        expected -= _OPERATOR
    for key in ("RPAR", "RSQB", "COMMA", "_SEP", "$END"):
        if key in expected:
            parts.append(_WORDS[key])
            expected.discard(key)
    # Anything else is named only when it has words; a terminal's own name never shows.
    parts.extend(sorted(_WORDS[e] for e in expected
                        if e in _WORDS and e not in ("IMPLICIT", "EQUAL", "LPAR")))
    if not parts:
        return "more input"
    return ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1]


def _token_error(text: str, exc, source: str | None = None) -> ParseError:
    """An unexpected token, explained from the tokens around it."""
    source = text if source is None else source
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
                              source=source, span=(opener.start_pos, opener.end_pos),
                              hint=f"add '{closer}' at the end")
        last = toks[-1] if toks else None
        if not [t for t in toks if t.type != "_SEP"]:
            return ParseError("there is no expression, only comments or blank lines",
                              source=source, span=(pos, pos + 1),
                              hint='write an expression such as x**2')
        if last is not None and last.type in _OPERATOR | {"EQUAL", "COMMA"}:
            return ParseError(f"the input ends after '{last}': expected {expected} after it",
                              source=source, span=(last.start_pos, last.end_pos),
                              hint=f"complete the expression after '{last}' or remove it")
        return ParseError(f"the input ends too early: expected {expected}",
                          source=source, span=(pos, pos + 1))
    pos = tok.start_pos
    span = (pos, tok.end_pos if tok.end_pos and tok.end_pos > pos else pos + 1)
    prev = None
    for t in toks:
        if t.start_pos >= pos:
            break
        if t.type != "IMPLICIT":
            prev = t
    if prev is not None and prev.type == "NUMBER" and tok.type == "NUMBER" \
            and str(tok).startswith(".") and "." in str(prev):
        return ParseError(f"'{prev}{tok}' is not a number: a number has one decimal point "
                          "at most", source=source, span=(prev.start_pos, tok.end_pos),
                          hint="remove the extra '.'")
    if tok.type == "IMPLICIT":
        return ParseError("a factor cannot follow here", source=source, span=span,
                          hint="write the multiplication with '*'")
    if tok.type == "_SEP":
        word = "';'" if str(tok) == ";" else "the end of the line"
        return ParseError(f"the statement stops at {word}: expected {expected}", source=source,
                          span=span, hint="complete the expression before it")
    if prev is not None and prev.type in ("NAME", "NUMBER", "RPAR", "RSQB") \
            and tok.type in ("NAME", "NUMBER", "LSQB", "LPAR"):
        a, b = str(prev), str(tok)
        if prev.type == "NAME" and tok.type == "NAME":
            return ParseError(f"two names side by side: '{a} {b}'", source=source,
                              span=(prev.start_pos, tok.end_pos),
                              hint=f"write {a}*{b} to multiply")
        if prev.type in ("RPAR", "RSQB"):
            return ParseError(f"'{b}' cannot follow '{a}' directly", source=source,
                              span=(prev.start_pos, tok.end_pos),
                              hint=f"put an operator such as '*' between '{a}' and '{b}'")
        return ParseError(f"'{b}' cannot follow '{a}' directly", source=source,
                          span=(prev.start_pos, tok.end_pos),
                          hint=f"write {a}*{b} to multiply, or add the missing operator")
    openers = _open_brackets(toks, pos)
    if tok.type in ("RPAR", "RSQB"):
        closer, opener = str(tok), "(" if tok.type == "RPAR" else "["
        if not openers:
            return ParseError(f"unmatched '{closer}': there is no '{opener}' for it",
                              source=source, span=span,
                              hint=f"remove it, or add '{opener}' where the group begins")
        if str(openers[-1]) != opener:
            other = openers[-1]
            want = ")" if other.type == "LPAR" else "]"
            return ParseError(f"'{closer}' cannot close the '{other}' opened here; "
                              f"expected '{want}'", source=source,
                              span=(other.start_pos, other.end_pos),
                              hint=f"close '{other}' with '{want}' before '{closer}'")
        if prev is not None and prev.type == "LPAR":
            return ParseError("empty parentheses: there is nothing inside '()'", source=source,
                              span=(prev.start_pos, tok.end_pos),
                              hint="put an expression inside, or remove them")
    if tok.type == "COMMA":
        if not openers:
            return ParseError("',' separates the arguments of a call or the items of "
                              "[...]; here it is outside them", source=source, span=span,
                              hint="separate statements with ';' or a new line")
        group = openers[-1]
        before = [t for t in toks if t.end_pos <= group.start_pos and t.type != "IMPLICIT"]
        if group.type == "LPAR" and not (before and before[-1].type == "NAME"):
            return ParseError("',' inside parentheses that are not a call: a group holds "
                              "one expression", source=source, span=span,
                              hint="write [a, b] for a vector, or f(a, b) to call a function")
        if prev is not None and prev.type in ("COMMA", "LPAR", "LSQB"):
            return ParseError(f"an item is missing before this ',' (after '{prev}')",
                              source=source, span=span,
                              hint="put a value there, or remove the ','")
    if tok.type == "EQUAL" and prev is not None and prev.type == "RPAR":
        return ParseError("'=' after ')': functions cannot be defined, only names",
                          source=source, span=span,
                          hint="a statement is name = expression, such as f = x**2 + 1")
    if tok.type == "EQUAL":
        if prev is not None and prev.type == "EQUAL":
            return ParseError("'==' is not an operator here", source=source, span=span,
                              hint="a statement is name = expression")
        return ParseError("'=' can only follow a name at the start of a statement",
                          source=source, span=span,
                          hint="a statement is name = expression; put each on its own line")
    shown = str(tok)
    what = f"'{shown}'"
    if prev is not None and prev.type in _OPERATOR | {"LPAR", "COMMA", "EQUAL", "LSQB"} \
            and tok.type in _OPERATOR - {"MINUS", "PLUS"} | {"RPAR", "COMMA", "RSQB"}:
        return ParseError(f"unexpected {what} after '{prev}': expected {expected}",
                          source=source, span=span,
                          hint=f"put an operand between '{prev}' and '{shown}'")
    hint = None
    if tok.type in _OPERATOR and (prev is None or prev.type == "_SEP"):
        hint = f"put an operand before '{shown}', or remove it"
    return ParseError(f"unexpected {what}: expected {expected}", source=source, span=span,
                      hint=hint)


def _open_brackets(toks, pos: int) -> list:
    """The '(' and '[' still open before position `pos`, innermost last."""
    stack = []
    for t in toks:
        if t.start_pos >= pos:
            break
        if t.type in ("LPAR", "LSQB"):
            stack.append(t)
        elif t.type in ("RPAR", "RSQB") and stack:
            stack.pop()
    return stack
