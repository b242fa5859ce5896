"""The post-lexer: between the lexer and the grammar rules, reads math as it is printed.

Three stages over the token stream, each a generator: statements (limits,
blank statements dropped), classify (a name becomes a function, a constant, a
variable or glued letters; powers and inverses of functions, log bases, a
program's own functions and their derivative marks) and juxtapose (absolute-
value bars, the IMPLICIT and FJUX tokens between factors side by side, a bare
function's argument). docs/language.md describes each reading. Everything a
parse needs to know lives in its ParseContext, created per parse.
"""
from __future__ import annotations

from .. import limits, ops
from ..errors import ParseError, UnknownName
from .chars import (BOOK_ALIASES, CONSTANT_ALIASES, GREEK_NAMES, LOG_BASE, PRIMES,
                    PYTHON_WORDS, ROOTS, SUPERSCRIPTS)
from .expr import Const, Name, Num
from .explain import call_example, inverse_hint, meant_function, unknown_function_name
from .lalr import Token

_OPENERS = frozenset({"LPAR", "LSQB", "LBRACE"})
_CLOSERS = frozenset({"RPAR", "RSQB", "RBRACE"})
# What ends a factor and what starts one: two of them side by side multiply.
_ENDS_FACTOR = frozenset({"NUMBER", "NAME", "RPAR", "RSQB", "RBRACE", "BAR_CLOSE", "SUP"})
_STARTS_FACTOR = frozenset({"NUMBER", "NAME", "LPAR", "LSQB", "LBRACE", "BAR", "FUNC"})
# What may follow a function name without parentheses (its argument's first token).
_STARTS_ARGUMENT = frozenset({"NUMBER", "NAME", "LPAR", "LSQB", "LBRACE", "BAR", "FUNC",
                              "MINUS", "PLUS"})

class ParseContext:
    """One parse's state: the source as typed, the names the input knows, the
    functions the program defines and the warnings so far.

    Created by each parse() call and handed to its post-lexer and builder, so
    that parses share nothing and need no lock.
    """

    __slots__ = ("source", "names", "functions", "warnings", "skipped", "bracket_groups")

    def __init__(self, source: str, names=frozenset(), functions=None):
        self.source = source
        self.names = names
        self.functions = functions if functions is not None else {}
        self.warnings = []
        self.skipped = 0         # warnings counted past limits.MAX_WARNINGS, not kept
        self.bracket_groups = {}  # the builder's [x] groups that may turn out to be rows


class _Function:
    """What the post-lexer learnt about a function name: the op, a power, a log base."""

    __slots__ = ("op", "power", "base", "inverse_of")

    def __init__(self, op, power=None, base=None, inverse_of=None):
        self.op = op
        self.power = power          # sin^2 x -> 2
        self.base = base            # log_2 x -> Num(2)
        self.inverse_of = inverse_of  # tan^-1 x -> "tan" (op is atan)


class UserFunction:
    """A function the program defines, where the post-lexer puts an op-table record.

    `wrt` lists the parameters a derivative mark differentiates by (f'' is (x, x)
    for f(x); g_xy is (x, y)); `name` is the mark as typed, for messages.
    """

    def __init__(self, function, params, wrt, label):
        self.function = function
        self.params = params
        self.wrt = wrt
        self.name = label
        self.arity = len(params)

    def accepts(self, n: int) -> bool:
        return n == self.arity

    def arity_text(self) -> str:
        return str(self.arity)


class _Lookahead:
    """A token iterator that can look one token ahead and take tokens back."""

    __slots__ = ("_it", "_back")

    def __init__(self, it):
        self._it = iter(it)
        self._back = []

    def next(self):
        if self._back:
            return self._back.pop()
        return next(self._it, None)

    def __iter__(self):
        """Each token, taken-back ones first: what the stages loop over (a generator is
        cheaper per token than a call of next())."""
        back, pull = self._back, self._it.__next__
        while True:
            if back:
                yield back.pop()
            else:
                try:
                    yield pull()
                except StopIteration:
                    return

    def peek(self):
        tok = self.next()
        if tok is not None:
            self._back.append(tok)
        return tok

    def push(self, tok):
        self._back.append(tok)


class PostLex:
    """Between the lexer and the rules: reads names, functions and juxtaposition as printed.

    One per parse. The context's `names` are the input's own names (from --at,
    --wrt, columns, the question) and the program's defined names; `functions`
    the program's own functions (name -> parameters). `warn` puts each reading
    that another tool would take differently into the context's warnings
    (unless they are None: a second pass that explains an error warns nothing).
    """

    # Lark's own parser (the reference the tests compare with) asks for this.
    always_accept = ("_SEP",)

    def __init__(self, ctx: ParseContext):
        self.ctx = ctx
        self.names = ctx.names
        self.functions = ctx.functions
        self.warnings = ctx.warnings
        self._pending_function = None

    def process(self, stream):
        return self._juxtapose(self._classify(self._statements(stream)))

    # -- stage 1: limits, blank statements
    def _statements(self, stream):
        prev = None
        pending_sep = None
        count = 0
        depth = 0
        for tok in stream:
            if type(tok) is not Token:  # Lark's (the tests' reference): ours carry `extra`
                tok = Token(tok.type, str(tok), tok.start_pos, tok.end_pos)
            count += 1
            if count > limits.MAX_TOKENS:
                raise limits.too_many_tokens((tok.start_pos, tok.end_pos))
            ttype = tok.type
            if ttype in _OPENERS:
                depth += 1
                if depth > limits.MAX_NESTING:
                    raise limits.too_deep((tok.start_pos, tok.end_pos))
            elif ttype in _CLOSERS:
                depth -= 1
            if ttype == "_SEP":
                if prev is not None and pending_sep is None:
                    pending_sep = tok
                continue
            if pending_sep is not None:
                yield pending_sep
                pending_sep = None
            yield tok
            prev = tok

    # -- stage 2: names -> functions, constants, variables or glued letters
    def _classify(self, stream):
        toks = _Lookahead(stream)
        names = self.names
        for tok in toks:
            ttype = tok.type
            if ttype == "FUNC":  # √ or ∛
                yield _func_token(tok, _Function(ops.lookup_function(ROOTS[str(tok)])))
                continue
            if ttype != "NAME":
                yield tok
                continue
            text = str(tok)
            if text[-1] in PRIMES:
                yield self._function(tok, self._primed(tok, text), toks)
                continue
            user = self._user_function(tok, text) if self.functions else None
            if user is not None:
                yield self._function(tok, user, toks)
                continue
            if text in PYTHON_WORDS and text not in names:
                raise ParseError(f"'{text}' is a word of Python, which gradcli does not run",
                                 span=(tok.start_pos, tok.end_pos),
                                 hint="write a formula such as x**2 + 1; bind a variable of "
                                      f"that name with --at {text}=… to use it as one")
            if text in names or text in ops.CONSTANTS or text in CONSTANT_ALIASES:
                tok.extra = True  # a variable: `x(` multiplies
                yield tok
                continue
            op = ops.lookup_function(text)
            if op is None and text == "σ" and _is(toks.peek(), "LPAR"):
                op = ops.lookup_function("sigmoid")
            if op is not None:
                yield self._function(tok, op, toks)
                continue
            base = LOG_BASE.match(text)
            if base or (text == "log_" and _is(toks.peek(), "LBRACE")):
                yield self._log_base(tok, base, toks)
                continue
            if (len(text) > 1 and _is(toks.peek(), "LPAR")
                    and not all(ch in names for ch in text)
                    and (_glued(text) or meant_function(text))) \
                    or (text in BOOK_ALIASES and text not in names):
                # A name written against its '(' that is not a product of this input's
                # variables is meant as a function: say which, never ask for its letters.
                raise unknown_function_name(text, (tok.start_pos, tok.end_pos))
            if _glued(text):
                self._pending_function = None
                yield from self._split(tok, text)
                if self._pending_function is not None:
                    toks.push(self._pending_function)  # classified as a function next
                continue
            tok.extra = len(text) == 1
            yield tok

    def _primed(self, tok, text):
        """f', f'', f″: a derivative of a one-parameter function the program defines."""
        base = text.rstrip(PRIMES)
        order = text.count("'") + 2 * text.count("\u2033")
        span = (tok.start_pos, tok.end_pos)
        params = self.functions.get(base)
        if params is None:
            if ops.lookup_function(base) is not None:
                hint = (f"name it first: g(x) = {base}(x); g'(x) (or run gradcli diff "
                        f"\"{base}(x)\" for its derivative)")
            else:
                hint = f"define it first, for example {base}(x) = x^2 sin x; {base}'(2)"
            raise ParseError(f"'{text}': a prime marks the derivative of a function the "
                             f"program defines, and {base} is not one", span=span, hint=hint)
        if len(params) != 1:
            listed = ", ".join(params)
            raise ParseError(f"'{text}': {base}({listed}) has {len(params)} parameters, so a "
                             "prime does not say which derivative is meant", span=span,
                             hint=f"write {base}_{params[0]}(…) for the partial derivative by "
                                  f"{params[0]} ({base}_{params[0]}{params[-1]}(…) for a second one)")
        if order > limits.MAX_PRIMES:
            raise ParseError(f"'{text}': at most {limits.MAX_PRIMES} primes", span=span,
                             hint="gradcli diff --order N takes higher derivatives")
        return UserFunction(base, params, (params[0],) * order, text)

    def _user_function(self, tok, text):
        """f, or a partial derivative g_x, g_xy, g_x_y of a function the program defines."""
        params = self.functions.get(text)
        if params is not None:
            return UserFunction(text, params, (), text)
        i = text.find("_", 1)
        while i > 0:
            head, suffix = text[:i], text[i + 1:]
            params = self.functions.get(head)
            if params is not None and suffix and text not in self.names:
                pieces = suffix.split("_")
                if all(p in params for p in pieces):
                    return UserFunction(head, params, tuple(pieces), text)
                if all(c in params for c in suffix):
                    return UserFunction(head, params, tuple(suffix), text)
                if suffix.isalpha():
                    raise ParseError(f"'{text}': {suffix} is not a parameter of "
                                     f"{head}({', '.join(params)})",
                                     span=(tok.start_pos, tok.end_pos),
                                     hint=f"write {head}_{params[0]}(…) for the partial "
                                          f"derivative by {params[0]}")
            i = text.find("_", i + 1)
        return None

    def _function(self, tok, op, toks):
        """A function name, with a power (sin^2, sin²) or inverse (sin^-1, sin⁻¹) glued on."""
        nxt = toks.peek()
        if nxt is None or nxt.type not in ("POW", "SUP"):
            return _func_token(tok, _Function(op))
        toks.next()
        name = str(tok) if str(tok) != "σ" else "sigmoid"
        if nxt.type == "SUP":
            text, end = str(nxt).translate(SUPERSCRIPTS), nxt
        else:
            parts = []
            end = nxt
            first = toks.next()
            group = _is(first, "LPAR") or _is(first, "LBRACE")
            cur = toks.next() if group else first
            if _is(cur, "MINUS") or _is(cur, "PLUS"):
                parts.append(str(cur))
                end = cur
                cur = toks.next()
            if _is(cur, "NUMBER"):
                parts.append(str(cur))
                end = cur
            else:
                _function_power_error(self.ctx.source, name, tok, cur or end)
            if group:
                close = toks.next()
                if not _is(close, "RPAR" if first.type == "LPAR" else "RBRACE"):
                    _function_power_error(self.ctx.source, name, tok, close or end)
                end = close
            text = "".join(parts)
        span = (tok.start_pos, end.end_pos)
        if text in ("-1", "-1.0"):
            # `sin^-1 x` is asin (with a warning): the op table says; a defined f has none
            inverse = getattr(op, "inverse", None)
            target = ops.lookup_function(inverse) if inverse else None
            if target is None:
                raise ParseError(f"'{self.ctx.source[span[0]:span[1]]}': {name} has no inverse "
                                 "written this way", span=span,
                                 hint=inverse_hint(op.name))
            fn = _Function(target, inverse_of=op.name)
        elif text.isdigit() and int(text) > 0 and op.accepts(1):
            fn = _Function(op, power=int(text))
        else:
            _function_power_error(self.ctx.source, name, tok, end)
        merged = Token("FUNC", str(tok), tok.start_pos, span[1])
        merged.extra = fn
        return merged

    def _log_base(self, tok, match, toks):
        """log_2 x, log_b(x), log_{10} x: the natural log's second argument is the base."""
        start = tok.start_pos
        rest = None
        if match is None:  # log_{...}
            toks.next()
            inner = toks.next()
            close = toks.next()
            if inner is None or inner.type not in ("NUMBER", "NAME") or not _is(close, "RBRACE"):
                raise ParseError("a logarithm's base in braces is one number or name",
                                 span=(start, (close or inner or tok).end_pos),
                                 hint="write log_{2}(x), log_2(x) or log(x, b)")
            base = _base_node(str(inner), (inner.start_pos, inner.end_pos))
            end = close.end_pos
        else:
            digits, tail, letter = match.groups()
            text = digits or letter
            base_start = start + 4
            base = _base_node(text, (base_start, base_start + len(text)))
            end = base_start + len(text)
            if tail:
                rest = Token("NAME", tail, end, end + len(tail))
        merged = Token("FUNC", "log", start, end)
        merged.extra = _Function(ops.lookup_function("log"), base=base)
        if rest is not None:
            toks.push(rest)
        return merged

    def _split(self, tok, text):
        """A glued name such as xy or 2ex: the product of its letters and constants."""
        if text.startswith("ln") and len(text) == 3:
            raise UnknownName(f"'{text}' is not a name gradcli reads", span=(tok.start_pos,
                              tok.end_pos), hint=f"write ln({text[2]}) for the natural log "
                                                 f"of {text[2]}, or bind {text} with --at")
        parts, i, function = [], 0, None
        while i < len(text):
            if i and ops.lookup_function(text[i:]) is not None:  # xln x is x*ln(x)
                function = text[i:]
                break
            step = 2 if text.startswith("pi", i) else 1
            parts.append(text[i:i + step])
            i += step
        shown = "*".join(parts) + (f"*{function}(…)" if function else "")
        what = "its letters" + (f" and {function}" if function else "")
        self._warn(f"'{text}' is read as {shown}, the product of {what}; to use "
                   f"{text} as one name, give it a value with --at {text}=…")
        pos = tok.start_pos
        for k, part in enumerate(parts):
            if k:
                yield Token("IMPLICIT", "NAME", pos, pos)
            piece = Token("NAME", part, pos, pos + len(part))
            piece.extra = True
            yield piece
            pos += len(part)
        if function:
            head = Token("NAME", function, pos, tok.end_pos)
            self._pending_function = head

    # -- stage 3: bars, juxtaposition, functions' arguments
    def _juxtapose(self, stream):
        toks = _Lookahead(stream)
        prev = None
        open_bars = 0
        bars_left = self.ctx.source.count("|")
        for tok in toks:
            ttype = tok.type
            if ttype == "_SEP":
                prev = None
                yield tok
                continue
            if ttype == "BAR":
                bars_left -= 1
                ends = prev is not None and prev.type in _ENDS_FACTOR
                if ends and open_bars:
                    nxt = toks.peek()
                    if nxt is not None and nxt.type in _STARTS_FACTOR \
                            and bars_left >= open_bars + 1:
                        raise ParseError("this '|' could close the absolute value before it "
                                         "or open a new one", span=(tok.start_pos, tok.end_pos),
                                         hint="write abs(…) for at least one of them, or put "
                                              "'*' between the factors")
                    open_bars -= 1
                    tok = Token("BAR_CLOSE", "|", tok.start_pos, tok.end_pos)
                else:
                    open_bars += 1
                ttype = tok.type
            if prev is not None and prev.type in _ENDS_FACTOR and ttype in _STARTS_FACTOR:
                glue = _juxtaposition(prev, tok, self.ctx.source)
                if glue is not None:
                    yield Token(glue[0], glue[1], tok.start_pos, tok.start_pos)
            if ttype == "FUNC":
                nxt = toks.peek()
                if str(tok) in ROOTS and _is(nxt, "NUMBER"):
                    # A radical before a number takes that number alone: √2 x is √2·x,
                    # as printed in books; brackets made here say so to the grammar.
                    number = toks.next()
                    yield tok
                    yield Token("LPAR", "(", number.start_pos, number.start_pos)
                    yield number
                    prev = Token("RPAR", ")", number.end_pos, number.end_pos)
                    yield prev
                    after = toks.peek()
                    if after is not None and after.type in ("PLUS", "MINUS") \
                            and _perfect_square(str(number)):
                        self._warn(f"'{tok}{number}' takes only {number} under the root: "
                                   f"{tok}{number} {after} … is {tok}({number}) {after} …; "
                                   f"write {tok}({number} {after} …) with brackets for the "
                                   "root of the whole")
                    continue
                _check_argument(tok, nxt, self.ctx.source)
            yield tok
            prev = tok

    def _warn(self, message):
        if self.warnings is not None and message not in self.warnings:
            self.warnings.append(message)


def _perfect_square(text: str) -> bool:
    """1, 4, 9, …: a root nobody writes for itself, so what follows was meant under it."""
    if not text.isdigit():
        return False
    n = int(text)
    return int(n ** 0.5) ** 2 == n


def _is(tok, ttype) -> bool:
    return tok is not None and tok.type == ttype


def _func_token(tok, fn):
    out = Token("FUNC", str(tok), tok.start_pos, tok.end_pos)
    out.extra = fn
    return out


def _glued(text: str) -> bool:
    """Two or three letters that are no name of the input: a product of letters
    (docs/language.md, "Glued letters")."""
    return 2 <= len(text) <= 3 and text.isalpha() and text not in GREEK_NAMES


def _base_node(text: str, span):
    if text[0].isdigit():
        value = float(text) if "." in text else int(text)
        return Num(value, span)
    if text in ops.CONSTANTS:
        return Const(text, span)
    return Name(text, span)


def _juxtaposition(prev, tok, source: str):
    """The token to put between two factors side by side, or None (the rules decide)."""
    ptype, ttype = prev.type, tok.type
    if ttype == "FUNC":
        return ("FJUX", ptype)
    if ttype == "NUMBER" and ptype in ("NUMBER", "SUP"):
        return None  # 2 3: two numbers side by side stay an error
    if ttype == "LSQB" and ptype != "NUMBER":
        span = (prev.start_pos, tok.end_pos)
        raise ParseError(f"'{source[prev.start_pos:tok.end_pos]}' looks like indexing, which "
                         "gradcli does not have", span=span,
                         hint=f"write {str(prev)}*[…] to multiply by a group, or use a "
                              "function such as sum or dot on a vector")
    if ttype == "LPAR" and ptype == "NAME":
        if not prev.extra:
            return None  # an unknown function: the call rule reports it
        return ("FJUX", "NAME(" + str(prev))  # ends a bare argument: cos x(x + 1)
    return ("IMPLICIT", ptype)


def _check_argument(tok, nxt, source: str):
    """A function name must have something to apply to; two-argument ones need parentheses."""
    fn = tok.extra
    name = source[tok.start_pos:tok.end_pos]
    if nxt is not None and nxt.type in ("LPAR", "LSQB", "LBRACE"):
        return
    if fn.base is None and not fn.op.accepts(1):
        raise ParseError(f"{fn.op.name} takes {fn.op.arity_text()} arguments, so it needs "
                         "parentheses", span=(tok.start_pos, tok.end_pos),
                         hint=f"write {call_example(fn.op)}")
    if nxt is None or nxt.type not in _STARTS_ARGUMENT:
        raise ParseError(f"'{name}' has nothing to apply to", span=(tok.start_pos, tok.end_pos),
                         hint=f"write {name}(x), or {name} x, with its argument")


def _function_power_error(source: str, name, tok, last):
    end = last.end_pos if last is not None else tok.end_pos
    shown = source[tok.start_pos:end]
    raise ParseError(f"'{shown}': a power on a function name must be a positive whole number "
                     f"({name}^2 x is {name}(x)^2) or -1 for the inverse", span=(tok.start_pos, end),
                     hint=f"for another power of the value write {name}(x)^y")
