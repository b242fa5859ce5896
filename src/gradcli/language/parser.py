"""Text -> Program. The only module that reads the grammar; no lark type leaks out.

The LALR tables of grammar/gradcli.lark are generated at development time into
_lalr_tables.py and driven by lalr.py, which builds the AST while it parses,
bottom-up, so 100,000 nested parentheses cost no recursion. When those tables
do not match the grammar file (an edited grammar), Lark itself parses, through
its public API. A post-lexer between the lexer and the rules reads math as it
is printed (SPEC 1.2a): function names, glued letters, bare function
arguments, powers of functions, absolute-value bars and juxtaposition. Every
failure becomes a ParseError with a position, the expected input in words, and
a suggestion.
"""
from __future__ import annotations

import _thread
import os
import re

from .. import limits, ops
from ..errors import LimitError, ParseError, UnknownName, UsageError, nearest
from .expr import Apply, Call, Const, Expr, Name, Num, Program, Statement, Vector, free_names, postorder

_BINARY = {"+": "add", "-": "sub", "*": "mul", "/": "div", "@": "matmul", "**": "pow", "^": "pow"}
_PREFIX = {"-": "neg", "+": "pos"}

# Look-alike characters read as their ASCII meaning, because nothing else could
# be meant; one character for one, so positions stay those of the source.
ACCEPTED = str.maketrans({
    "\u2212": "-",   # minus sign
    "\u00d7": "*",   # multiplication sign
    "\u22c5": "*",   # dot operator
    "\u00b7": "*",   # middle dot
    "\u2219": "*",   # bullet operator
    "\u2217": "*",   # asterisk operator
    "\u00f7": "/",   # division sign
    "\u2215": "/",   # division slash
    "\u2032": "'",   # prime, as in f′(x)
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
    "\u2018": ("a curly quote", _QUOTE),
    "\u2019": ("a curly quote", _QUOTE),
    "\u201c": ("a curly quote", _QUOTE),
    "\u201d": ("a curly quote", _QUOTE),
    "\u00ab": ("a guillemet", _QUOTE),
    "\u00bb": ("a guillemet", _QUOTE),
    "`": ("a backquote", _QUOTE),
    "'": ("a quote", _QUOTE),
    '"': ("a double quote", _QUOTE),
    "$": ("a dollar sign, as around LaTeX math", "remove it: write plain text such as x**2"),
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
_WORDS = {
    "NUMBER": "a number", "NAME": "a name", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['",
    "RSQB": "']'", "LBRACE": "'{'", "RBRACE": "'}'", "COMMA": "','", "EQUAL": "'='",
    "PLUS": "'+'", "MINUS": "'-'", "TIMES": "'*'", "DIVIDE": "'/'", "MATMUL": "'@'",
    "POW": "'**'", "SUP": "a superscript", "_SEP": "';' (or a new line)",
    "$END": "the end of the input", "IMPLICIT": "a factor", "FJUX": "a function",
    "FUNC": "a function", "BAR": "'|'", "BAR_CLOSE": "a closing '|'",
}
_OPERAND = {"NUMBER", "NAME", "LPAR", "LSQB", "MINUS", "PLUS", "FUNC", "LBRACE", "BAR"}
_OPERATOR = {"PLUS", "MINUS", "TIMES", "DIVIDE", "MATMUL", "POW"}

_OPENERS = frozenset({"LPAR", "LSQB", "LBRACE"})
_CLOSERS = frozenset({"RPAR", "RSQB", "RBRACE"})
# What ends a factor and what starts one: two of them side by side multiply.
_ENDS_FACTOR = frozenset({"NUMBER", "NAME", "RPAR", "RSQB", "RBRACE", "BAR_CLOSE", "SUP"})
_STARTS_FACTOR = frozenset({"NUMBER", "NAME", "LPAR", "LSQB", "LBRACE", "BAR", "FUNC"})
# What may follow a function name without parentheses (its argument's first token).
_STARTS_ARGUMENT = frozenset({"NUMBER", "NAME", "LPAR", "LSQB", "LBRACE", "BAR", "FUNC",
                              "MINUS", "PLUS"})

# Greek letters' names are names, never glued letters (SPEC 1.2a rule 5).
GREEK_NAMES = frozenset({"mu", "xi", "eta", "rho", "tau", "phi", "chi", "psi", "nu"})
# `sin^-1 x` is the inverse function (with a warning), for these functions only.
INVERSES = {"sin": "asin", "cos": "acos", "tan": "atan", "sec": "asec", "csc": "acsc",
            "cot": "acot", "sinh": "asinh", "cosh": "acosh", "tanh": "atanh", "sech": "asech",
            "csch": "acsch", "coth": "acoth"}
# Python's keywords: never glued letters (`for` is not f*o*r), never read as names.
_PYTHON_WORDS = frozenset({
    "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
    "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield", "None", "True", "False"})
_ROOTS = {"\u221a": "sqrt", "\u221b": "cbrt"}
_SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUPERSCRIPTS = str.maketrans(_SUPERSCRIPT_DIGITS + "⁻⁺", "0123456789-+")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
# A statement's defined name: at the start of the text or after ';' or a line end.
_DEFINED = re.compile(r"(?:^|[;\n])[ \t\f]*([^\W\d]\w*)[ \t\f]*=(?!=)")
# A statement's defined function: f(x) = ..., g(x, y) = ...
_DEFINES_FUNCTION = re.compile(r"(?:^|[;\n])[ \t\f]*([^\W\d]\w*)[ \t\f]*\(([^()]*)\)[ \t\f]*=(?!=)")
_PRIMES = "'\u2033"
MAX_PRIMES = 10
_LOG_BASE = re.compile(r"log_(?:(\d+(?:\.\d+)?)([^\W\d]\w*)?|([^\W\d_]))$")

# LaTeX commands: what to type instead. \frac and \sqrt are rewritten whole below.
_LATEX = {
    "cdot": "*", "times": "*", "ast": "*", "div": "/", "pi": "pi", "left": "(", "right": ")",
    "cdotp": "*", "pm": "+ or -", "infty": "a large number such as 1e300",
    "exp": "exp(x)", "ln": "ln(x)", "log": "ln(x)", "sin": "sin(x)", "cos": "cos(x)",
    "tan": "tan(x)", "sqrt": "sqrt(x)", "frac": "(a)/(b)", "partial": "nothing: "
    "gradcli computes the derivatives itself", "mathrm": "the plain name", "operatorname":
    "the plain name", "tanh": "tanh(x)", "sinh": "sinh(x)", "cosh": "cosh(x)",
    "arcsin": "asin(x)", "arccos": "acos(x)", "arctan": "atan(x)", "max": "max(a, b)",
    "min": "min(a, b)", "sigma": "a name such as sigma", "theta": "a name such as theta",
}


def _grammar_path() -> str:
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../gradcli
    for candidate in (os.path.join(package, "grammar", "gradcli.lark"),  # installed wheel
                      os.path.join(os.path.dirname(os.path.dirname(package)), "grammar",
                                   "gradcli.lark")):  # source checkout: src/gradcli/..
        if os.path.isfile(candidate):
            return candidate
    raise FileNotFoundError("gradcli.lark is missing from the installation")


class _Span:
    """Helpers for node positions: (start, end) character offsets in the source."""

    @staticmethod
    def of(item):
        if isinstance(item, Expr):
            return item.span
        return (item.start_pos, item.end_pos)

    @staticmethod
    def join(first, last):
        start = first.span[0] if isinstance(first, Expr) else first.start_pos
        return (start, last.span[1] if isinstance(last, Expr) else last.end_pos)


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

    `names` are the input's own names (from --at, --wrt, columns, the question);
    a program's defined names are added per parse. `warn` receives each reading
    that another tool would take differently.
    """

    always_accept = ("_SEP",)

    def __init__(self):
        self.names = frozenset()
        self.functions = {}  # the program's own functions: name -> parameters
        self.warnings = None
        self._pending_function = None

    def process(self, stream):
        return self._juxtapose(self._classify(self._statements(stream)))

    # -- stage 1: limits, blank statements
    def _statements(self, stream):
        from .lalr import Token
        prev = None
        pending_sep = None
        count = 0
        depth = 0
        for tok in stream:
            if type(tok) is not Token:  # Lark's, when it parses: ours carry `extra`
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
        from .lalr import Token
        toks = _Lookahead(stream)
        names = self.names
        for tok in toks:
            ttype = tok.type
            if ttype == "FUNC":  # √ or ∛
                yield _func_token(Token, tok, _Function(ops.lookup_function(_ROOTS[str(tok)])))
                continue
            if ttype != "NAME":
                yield tok
                continue
            text = str(tok)
            if text[-1] in _PRIMES:
                yield self._function(Token, tok, self._primed(tok, text), toks)
                continue
            user = self._user_function(tok, text) if self.functions else None
            if user is not None:
                yield self._function(Token, tok, user, toks)
                continue
            if text in _PYTHON_WORDS and text not in names:
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
                yield self._function(Token, tok, op, toks)
                continue
            base = _LOG_BASE.match(text)
            if base or (text == "log_" and _is(toks.peek(), "LBRACE")):
                yield self._log_base(Token, tok, base, toks)
                continue
            if (len(text) > 1 and _is(toks.peek(), "LPAR")
                    and not all(ch in names for ch in text)
                    and (_glued(text) or _meant_function(text))) \
                    or (text in _BOOK_ALIASES and text not in names):
                # A name written against its '(' that is not a product of this input's
                # variables is meant as a function: say which, never ask for its letters.
                raise _unknown_function_name(text, (tok.start_pos, tok.end_pos))
            if _glued(text):
                self._pending_function = None
                yield from self._split(Token, tok, text)
                if self._pending_function is not None:
                    toks.push(self._pending_function)  # classified as a function next
                continue
            tok.extra = len(text) == 1
            yield tok

    def _primed(self, tok, text):
        """f', f'', f″: a derivative of a one-parameter function the program defines."""
        base = text.rstrip(_PRIMES)
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
        if order > MAX_PRIMES:
            raise ParseError(f"'{text}': at most {MAX_PRIMES} primes", span=span,
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

    def _function(self, Token, tok, op, toks):
        """A function name, with a power (sin^2, sin²) or inverse (sin^-1, sin⁻¹) glued on."""
        nxt = toks.peek()
        if nxt is None or nxt.type not in ("POW", "SUP"):
            return _func_token(Token, tok, _Function(op))
        toks.next()
        name = str(tok) if str(tok) != "σ" else "sigmoid"
        if nxt.type == "SUP":
            text, end = str(nxt).translate(_SUPERSCRIPTS), nxt
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
                _function_power_error(name, tok, cur or end)
            if group:
                close = toks.next()
                if not _is(close, "RPAR" if first.type == "LPAR" else "RBRACE"):
                    _function_power_error(name, tok, close or end)
                end = close
            text = "".join(parts)
        span = (tok.start_pos, end.end_pos)
        if text in ("-1", "-1.0"):
            inverse = INVERSES.get(op.name)
            target = ops.lookup_function(inverse) if inverse else None
            if target is None:
                raise ParseError(f"'{_source[span[0]:span[1]]}': {name} has no inverse "
                                 "written this way", span=span,
                                 hint=_inverse_hint(op.name))
            fn = _Function(target, inverse_of=op.name)
        elif text.isdigit() and int(text) > 0 and op.accepts(1):
            fn = _Function(op, power=int(text))
        else:
            _function_power_error(name, tok, end)
        merged = Token("FUNC", str(tok), tok.start_pos, span[1])
        merged.extra = fn
        return merged

    def _log_base(self, Token, tok, match, toks):
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

    def _split(self, Token, tok, text):
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
        from .lalr import Token
        toks = _Lookahead(stream)
        prev = None
        open_bars = 0
        bars_left = _source.count("|")
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
                glue = _juxtaposition(prev, tok)
                if glue is not None:
                    yield Token(glue[0], glue[1], tok.start_pos, tok.start_pos)
            if ttype == "FUNC":
                nxt = toks.peek()
                if str(tok) in _ROOTS and _is(nxt, "NUMBER"):
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
                _check_argument(tok, nxt)
            yield tok
            prev = tok

    def _warn(self, message):
        if self.warnings is not None and message not in self.warnings:
            self.warnings.append(message)


def _bracketed_exponent(power) -> bool:
    """Whether the exponent of `power` (an Apply built from '^') was typed in brackets."""
    exponent = power.args[-1]
    if exponent.span is None or power.span is None:
        return True
    between = _source[power.span[0]:exponent.span[0]]
    return between.rstrip().endswith(("(", "{", "[")) or \
        _source[exponent.span[0]:exponent.span[0] + 1] in "({["


def _glued_to_letter(left, right) -> bool:
    """`right` starts with a letter right where `left` ends (no space, no operator)."""
    if left.span is None or right.span is None or left.span[1] != right.span[0]:
        return False
    first = _source[right.span[0]:right.span[0] + 1]
    return first.isalpha() or first in "√∛"


def _ambiguous_exponent(left, right) -> None:
    """e^2x, 10^-2x, e^xy: a book means e^(2x), a calculator e^2*x; refuse to guess."""
    if type(left) is not Apply:
        return
    if left.op == "exp" and len(left.args) == 1:
        base_text = "e"
    elif left.op == "pow" and type(left.args[0]) is Num:
        base_text = _source[left.args[0].span[0]:left.args[0].span[1]] \
            if left.args[0].span else repr(left.args[0].value)
    else:
        return
    exponent = left.args[-1]
    if type(exponent) is Apply and exponent.op in ("neg", "pos"):
        exponent = exponent.args[0]  # e^-xy is as ambiguous as e^xy
    if exponent.span is None or not isinstance(exponent, (Num, Name)) \
            or _bracketed_exponent(left) or left.args[-1].span[1] != left.span[1]:
        return  # (2^3)t: the bracket closes the power
    if _source[exponent.span[0]:exponent.span[0] + 1] in _SUPERSCRIPT_DIGITS + "⁻⁺":
        return  # e²x: a printed superscript visibly ends before the x
    exponent = left.args[-1]
    if left.op == "exp" and not _source[left.span[0]:left.span[0] + 1] == "e":
        return  # exp(…) written as a call
    exp_text = _source[exponent.span[0]:exponent.span[1]]
    glued = _source[right.span[0]:right.span[1]]
    if len(glued) > 12:
        glued = glued[:12] + "…"
    typed = _source[left.span[0]:right.span[0]] + glued
    raise ParseError(f"'{typed}' is ambiguous: the exponent is glued to more letters",
                     span=(left.span[0], right.span[1]),
                     hint=f"write {base_text}^({exp_text}{glued}) for {base_text} to the power "
                          f"{exp_text}{glued} (as books mean it), or {base_text}^{exp_text}*"
                          f"{glued} (with '*' or a space) for {base_text}^{exp_text} times "
                          f"{glued}")


def _last_factor(node):
    """The factor that ends a product: 3e^2 and x^2 e^-2 end with a power of e, so that
    3e^2x is as ambiguous as e^2x; a bracket ends the search ((3e^2)x ends with a group)."""
    while type(node) is Apply and node.op in ("mul", "div", "matmul", "neg", "pos") \
            and node.span is not None and node.args[-1].span is not None \
            and node.args[-1].span[1] == node.span[1]:
        node = node.args[-1]
    return node


def _unit_power_over_integer(left, right) -> bool:
    """x^1/2, x^-1/2: a power of ±1 divided by a whole number, typed without brackets."""
    if type(left) is not Apply or left.op != "pow" or type(right) is not Num:
        return False
    exponent = left.args[1]
    if type(exponent) is not Num or exponent.value not in (1, -1) or _bracketed_exponent(left) \
            or exponent.span is None or exponent.span[1] != left.span[1]:
        return False  # (x^1)/2 is bracketed as meant
    return isinstance(right.value, int) and right.value > 1 and right.span is not None \
        and _source[left.span[1]:right.span[0]].strip() == "/"


def _perfect_square(text: str) -> bool:
    """1, 4, 9, …: a root nobody writes for itself, so what follows was meant under it."""
    if not text.isdigit():
        return False
    n = int(text)
    return int(n ** 0.5) ** 2 == n


def _is(tok, ttype) -> bool:
    return tok is not None and tok.type == ttype


def _func_token(Token, tok, fn):
    out = Token("FUNC", str(tok), tok.start_pos, tok.end_pos)
    out.extra = fn
    return out


def _glued(text: str) -> bool:
    """Two or three letters that are no name of the input: a product of letters (rule 5)."""
    return 2 <= len(text) <= 3 and text.isalpha() and text not in GREEK_NAMES


def _base_node(text: str, span):
    if text[0].isdigit():
        value = float(text) if "." in text else int(text)
        return Num(value, span)
    if text in ops.CONSTANTS:
        return Const(text, span)
    return Name(text, span)


def _juxtaposition(prev, tok):
    """The token to put between two factors side by side, or None (the rules decide)."""
    ptype, ttype = prev.type, tok.type
    if ttype == "FUNC":
        return ("FJUX", ptype)
    if ttype == "NUMBER" and ptype in ("NUMBER", "SUP"):
        return None  # 2 3: two numbers side by side stay an error
    if ttype == "LSQB" and ptype != "NUMBER":
        span = (prev.start_pos, tok.end_pos)
        raise ParseError(f"'{_source[prev.start_pos:tok.end_pos]}' looks like indexing, which "
                         "gradcli does not have", span=span,
                         hint=f"write {str(prev)}*[…] to multiply by a group, or use a "
                              "function such as sum or dot on a vector")
    if ttype == "LPAR" and ptype == "NAME":
        if not prev.extra:
            return None  # an unknown function: the call rule reports it
        return ("FJUX", "NAME(" + str(prev))  # ends a bare argument: cos x(x + 1)
    return ("IMPLICIT", ptype)


def _check_argument(tok, nxt):
    """A function name must have something to apply to; two-argument ones need parentheses."""
    fn = tok.extra
    name = _source[tok.start_pos:tok.end_pos]
    if nxt is not None and nxt.type in ("LPAR", "LSQB", "LBRACE"):
        return
    if fn.base is None and not fn.op.accepts(1):
        raise ParseError(f"{fn.op.name} takes {fn.op.arity_text()} arguments, so it needs "
                         "parentheses", span=(tok.start_pos, tok.end_pos),
                         hint=f"write {_call_example(fn.op)}")
    if nxt is None or nxt.type not in _STARTS_ARGUMENT:
        raise ParseError(f"'{name}' has nothing to apply to", span=(tok.start_pos, tok.end_pos),
                         hint=f"write {name}(x), or {name} x, with its argument")


def _call_example(op) -> str:
    examples = {"atan2": "atan2(y, x)", "pow": "pow(x, y)", "dot": "dot(a, b)",
                "max": "max(a, b)", "min": "min(a, b)"}
    return examples.get(op.name, f"{op.name}(…)")


def _inverse_hint(name: str) -> str:
    if name == "exp":
        return "the inverse of exp is ln: write ln(x); for 1/exp(x) write exp(-x)"
    if name in ("log", "ln"):
        return "the inverse of ln is exp: write exp(x); for 1/ln(x) write 1/ln(x)"
    return f"for the reciprocal write 1/{name}(x)"


def _function_power_error(name, tok, last):
    end = last.end_pos if last is not None else tok.end_pos
    shown = _source[tok.start_pos:end]
    raise ParseError(f"'{shown}': a power on a function name must be a positive whole number "
                     f"({name}^2 x is {name}(x)^2) or -1 for the inverse", span=(tok.start_pos, end),
                     hint=f"for another power of the value write {name}(x)^y")


_parser = None


def _get_parser():
    global _parser
    if _parser is None:
        from .lalr import Transformer

        class Builder(Transformer):
            """Reduce callbacks: each builds one AST node as the parser reduces."""

            def __init__(self):
                super().__init__()
                self.warnings = []
                self.skipped = 0
                self.bracket_groups = {}

            def _warn(self, message):
                if message in self.warnings:
                    return
                if len(self.warnings) >= limits.MAX_WARNINGS:
                    self.skipped += 1
                    return
                self.warnings.append(message)

            def start(self, children):
                return children

            def assign(self, c):
                name, _, expr = c
                _check_name(name)
                return Statement(str(name), expr, _Span.join(name, expr), _Span.of(name))

            def define(self, c):
                head, _, items, _, _, body = c
                op = head.extra.op
                name = str(head)
                if not isinstance(op, UserFunction):
                    raise ParseError(f"'{name}' is a built-in function and cannot be defined "
                                     "again", span=_Span.of(head),
                                     hint="choose another name, such as f, g or h")
                if op.wrt or head.extra.power is not None:
                    raise ParseError(f"'{_source[head.start_pos:head.end_pos]}' cannot be "
                                     "defined: define the function itself and gradcli takes "
                                     "its derivatives", span=_Span.of(head),
                                     hint=f"for example {op.function}(x) = x^2 sin x; "
                                          f"{op.function}'(2)")
                params = []
                for item in items:
                    if not isinstance(item, Name):
                        raise ParseError(f"the parameters of {name}(…) must be names",
                                         span=item.span,
                                         hint=f"for example {name}(x) = x^2 or "
                                              f"{name}(x, y) = x*y; then {name}(2)")
                    if item.id in params:
                        raise ParseError(f"the parameter '{item.id}' is listed twice",
                                         span=item.span, hint="give each parameter its own name")
                    params.append(item.id)
                return Statement(name, body, _Span.join(head, body), _Span.of(head),
                                 params=tuple(params))

            def _e_notation(self, left, right):
                typed = _source[left.span[0]:left.span[1]]
                mantissa, _, exponent = typed.lower().partition("e")
                sign = "-" if exponent.startswith("-") else "+"
                self._warn(f"'{typed}{_source[right.span[0]:right.span[1]]}' is read as "
                           f"{typed} (= {left.value!r}) times "
                           f"{_source[right.span[0]:right.span[1]]}: {typed} is scientific "
                           f"notation; write {mantissa}e {sign} {exponent.lstrip('+-')}"
                           f"{_source[right.span[0]:right.span[1]]} (with spaces) for "
                           f"{mantissa}·e {sign} {exponent.lstrip('+-')}·"
                           f"{_source[right.span[0]:right.span[1]]}")

            def binary(self, c):
                left, tok, right = c
                power = _last_factor(left) if tok.type == "DIVIDE" else None
                if power is not None and _unit_power_over_integer(power, right):
                    typed = _source[left.span[0]:right.span[1]]
                    exponent = _source[power.args[1].span[0]:power.args[1].span[1]]
                    self._warn(f"'{typed}' is read as ({typed.rsplit('/', 1)[0]})/"
                               f"{_source[right.span[0]:right.span[1]]}: a power binds "
                               f"tighter than '/'; a root is written with brackets, as "
                               f"{_source[power.args[0].span[0]:power.args[0].span[1]]}^"
                               f"({exponent}/{_source[right.span[0]:right.span[1]]})")
                if tok.type == "POW" and isinstance(left, Const) and left.id == "e":
                    return Apply("exp", (right,), _Span.join(left, right))  # e^u is exp(u)
                return Apply(_BINARY[tok.value], (left, right), _Span.join(left, right))

            def superscript(self, c):
                base, sup = c
                text = str(sup).translate(_SUPERSCRIPTS)
                power = Num(int(text), _Span.of(sup))
                if isinstance(base, Const) and base.id == "e":
                    return Apply("exp", (power,), _Span.join(base, sup))
                return Apply("pow", (base, power), _Span.join(base, sup))

            def implicit(self, c):
                left, tok, right = c
                node = Apply("mul", (left, right), _Span.join(left, right))
                last = _last_factor(left)
                if _glued_to_letter(last, right):
                    _ambiguous_exponent(last, right)
                    if type(last) is Num and "e" in _source[last.span[0]:last.span[1]].lower():
                        self._e_notation(last, right)
                if isinstance(left, Apply) and left.op == "div" and tok.type == "IMPLICIT" \
                        or tok.value.startswith("NAME(") and isinstance(left, Apply) \
                        and left.op == "div":
                    if len(self.warnings) >= limits.MAX_WARNINGS:
                        self.skipped += 1  # counted, not built: each costs the node's size
                        return node
                    from .printer import quoted
                    other = Apply("div", (left.args[0], Apply("mul", (left.args[1], right))))
                    self._warn(
                        f"'{limits.quote(_source[node.span[0]:node.span[1]])}' is read as "
                        f"{quoted(node, clarify=True)}: juxtaposition binds like '*', left to "
                        f"right; write {quoted(other)} if you meant that")
                elif tok.value.startswith("NAME(") and len(self.warnings) < limits.MAX_WARNINGS:
                    from .printer import quoted
                    self._warn(
                        f"'{limits.quote(_source[node.span[0]:node.span[1]])}' is read as "
                        f"{quoted(node, clarify=True)}: '{tok.value[5:]}' "
                        "is a variable here, not a function")
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
                head, open_, args, close = c
                args = tuple(args or ())
                span = _Span.join(head, close)
                if head.type == "NAME":
                    _check_name(head)
                    raise _unknown_function(str(head), _Span.of(head), args,
                                            _source[open_.end_pos:close.start_pos])
                return self._apply(head, args, span)

            def bare(self, c):
                head, arg = c
                return self._apply(head, (arg,), _Span.join(head, arg))

            def _apply(self, head, args, span):
                fn = head.extra
                op = fn.op
                shown = _source[head.start_pos:head.end_pos]
                if isinstance(op, UserFunction):
                    return self._call(fn, op, shown, args, span)
                if fn.base is not None:
                    if len(args) != 1:
                        raise ParseError(f"{shown}(…) takes one argument, the base is "
                                         f"already given", span=span,
                                         hint=f"write {shown}(x)")
                    args = args + (fn.base,)
                if not op.accepts(len(args)):
                    plural = "" if op.arity == 1 else "s"
                    raise ParseError(
                        f"{shown} takes {op.arity_text()} argument{plural}, "
                        f"but {len(args)} {'was' if len(args) == 1 else 'were'} given",
                        span=span, hint=f"see `gradcli functions` for {op.name}")
                node = Apply(op.name, args, span)
                if op.name == "log" and fn.base is None and len(args) == 1 \
                        and str(head) == "log":
                    # Many calculus books write log for base 10 (Stewart, OpenStax).
                    self._warn("log is the natural logarithm ln, as in Python, NumPy, SymPy "
                               "and PyTorch; for base 10 write log10(x) or log_10(x)")
                if fn.power is not None:
                    node = Apply("pow", (node, Num(fn.power)), span)
                if fn.inverse_of is not None:
                    self._warn(f"'{shown}' is read as {op.name}, the inverse function "
                               f"(not 1/{fn.inverse_of}); write 1/{fn.inverse_of}(x) or "
                               f"{fn.inverse_of}(x)^-1 for the reciprocal")
                return node

            def _call(self, fn, op, shown, args, span):
                if not op.accepts(len(args)):
                    params = ", ".join(op.params)
                    raise ParseError(
                        f"{shown} takes {op.arity} argument{'s' * (op.arity != 1)}, as in "
                        f"{op.function}({params}), but {len(args)} "
                        f"{'was' if len(args) == 1 else 'were'} given", span=span,
                        hint=f"write {op.name}(…) with one argument" if op.arity == 1 else
                        f"write {op.name}(…) with {op.arity} arguments, one for each of {params}")
                node = Call(op.function, op.wrt, op.name, args, span)
                if fn.power is not None:
                    node = Apply("pow", (node, Num(fn.power)), span)
                return node

            def group(self, c):
                c[1].span = _Span.join(c[0], c[2])
                return c[1]

            def absolute(self, c):
                return Apply("abs", (c[1],), _Span.join(c[0], c[2]))

            def vector(self, c):
                open_, close = c[0], c[-1]
                items = c[1] if len(c) > 2 else []
                span = _Span.join(open_, close)
                groups = self.bracket_groups
                if len(c) == 3 and len(items) == 1 and not isinstance(items[0], Vector) \
                        and id(items[0]) not in groups:
                    # [x] groups like (x) (SPEC 1.2a rule 7), unless it turns out to be a
                    # row of a matrix such as [[1], [2]]: kept aside for that case.
                    node = items[0]
                    groups[id(node)] = (node, Vector((node,), span))
                    node.span = span
                    return node
                if groups:
                    items = [groups[id(x)][1] if id(x) in groups else x for x in items]
                return Vector(tuple(items), span)

            def items(self, c):
                if len(c) == 1:
                    return [c[0]]
                c[0].append(c[2])
                return c[0]

        builder = Builder()
        _parser = (_Runtime(PostLex(), builder), builder)
    return _parser


class _Runtime:
    """lalr.py over the generated tables; Lark itself when they do not match the grammar.

    Both raise lalr.Unexpected and lalr.NoToken, so the error messages never
    depend on which one ran.
    """

    def __init__(self, postlex, builder):
        from . import lalr
        self.postlex = postlex
        self._builder = builder
        with open(_grammar_path(), encoding="utf-8") as f:
            self._grammar = f.read()
        self._lark = None
        self._fast = None
        try:
            from ._lalr_tables import TABLES
            if TABLES.get("format") == lalr.FORMAT and TABLES.get("grammar") == self._grammar:
                self._fast = lalr.Parser(TABLES, postlex, builder)
        except Exception:  # missing or unreadable tables: Lark reads the grammar itself
            self._fast = None

    def parse(self, text):
        if self._fast is not None:
            return self._fast.parse(text)
        return self._lark_call(lambda lk: lk.parse(text))

    def lex(self, text):
        """The tokens after the post-lexer, up to the first failure (for error messages)."""
        if self._fast is not None:
            return self.postlex.process(self._fast.lex(text))
        return self._lark_call(lambda lk: list(lk.lex(text)))

    def _lark_call(self, work):
        from lark.exceptions import UnexpectedCharacters, UnexpectedToken
        from . import lalr
        if self._lark is None:
            from lark import Lark
            self._lark = Lark(self._grammar, parser="lalr", lexer="basic",
                              postlex=self.postlex, transformer=self._builder,
                              maybe_placeholders=True)
        try:
            return work(self._lark)
        except UnexpectedCharacters as exc:
            raise lalr.NoToken(exc.pos_in_stream) from None
        except UnexpectedToken as exc:
            raise lalr.Unexpected(exc.token, set(exc.expected)) from None


_source = ""
# One parse at a time: the builder and _source hold the current parse's state.
# (_thread, not threading, which would add to every start-up.)
_one_at_a_time = _thread.RLock()


def parse(text: str, names=()) -> Program:
    """Parse a program (or a single expression) into a validated Program (thread-safe).

    `names` are the input's variables known from elsewhere (--at, --wrt, columns,
    the question of an answer): they are read whole, never as glued letters, and
    `name(` after one of them multiplies.
    """
    with _one_at_a_time:
        return _parse(text, names)


def _parse(text: str, names=()) -> Program:
    global _source
    from . import lalr
    runtime, builder = _get_parser()

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
    builder.bracket_groups = {}
    postlex = runtime.postlex
    functions = _defined_functions(plain, text)
    postlex.functions = functions
    postlex.names = frozenset(names) | {m.group(1) for m in _DEFINED.finditer(plain)} \
        | {p for params in functions.values() for p in params}
    postlex.warnings = builder.warnings
    try:
        statements = runtime.parse(plain)
    except lalr.NoToken as exc:
        raise _character_error(text, exc.pos) from None
    except lalr.Unexpected as exc:
        raise _token_error(plain, exc, text) from None
    except (ParseError, UnknownName, LimitError) as exc:
        exc.source = text
        raise
    finally:
        postlex.warnings = None
        builder.bracket_groups = {}
    program = Program(tuple(s if isinstance(s, Statement) else Statement(None, s, s.span)
                            for s in statements), text)
    program.warnings = list(builder.warnings)
    if builder.skipped:
        program.warnings.append(limits.more_warnings(builder.skipped))
    _validate(program, bool(functions))
    return program


def _defined_functions(plain: str, text: str) -> dict:
    """name -> parameters of each function the program defines (f(x) = ...), found before
    parsing, so that the post-lexer reads its name as a function everywhere."""
    functions = {}
    for m in _DEFINES_FUNCTION.finditer(plain):
        name = m.group(1)
        if ops.lookup_function(name) is None and name not in functions:
            params = tuple(p.strip() for p in m.group(2).split(","))
            if name in params:
                same = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", m.group(2))
                start = m.start(2) + same.start()
                raise ParseError(f"the parameter '{name}' has its function's own name",
                                 source=text, span=(start, start + len(name)),
                                 hint=f"name the parameter otherwise: {name}(x) = …")
            functions[name] = tuple(p for p in params if p.isidentifier())
    if functions:
        for m in _DEFINED.finditer(plain):
            if m.group(1) in functions:
                raise ParseError(f"'{m.group(1)}' is defined twice, as a function and as a "
                                 "value", source=text, span=m.span(1),
                                 hint="a program's names are defined once each; use another "
                                      "name for one of them")
    return functions


def given_names(*groups) -> frozenset:
    """The names an input gets from elsewhere: --at bindings, --wrt lists, columns.

    Each group may be a dict (its keys), a string (comma-separated names) or any
    iterable of names; None is skipped.
    """
    out = set()
    for group in groups:
        if not group:
            continue
        if isinstance(group, str):
            group = group.split(",")
        out.update(str(n).strip() for n in group)
    out.discard("")
    for name in out:
        if ops.lookup_function(name) is not None:
            # Function names are reserved: `--wrt sin` would turn sin(x) into sin*x.
            raise UsageError(f"'{name}' is a function, not a variable: --wrt, --at and "
                             "--over take the expression's variables",
                             hint="`gradcli functions` lists the reserved names")
    return frozenset(out)


def parse_expr(text: str, names=()):
    """Parse text that must be a single expression (no assignments)."""
    program = parse(text, names)
    if len(program.statements) != 1 or program.statements[0].name is not None:
        raise ParseError("expected a single expression here, not a program",
                         source=text, span=(0, len(text)))
    return program.result


# Names some books print for a function gradcli spells otherwise.
_BOOK_ALIASES = {"cosec": "csc", "arccosec": "acsc", "cosech": "csch", "tg": "tan",
                 "ctg": "cot", "cotg": "cot", "arctg": "atan", "sen": "sin"}


def _meant_function(name: str):
    """The function `name` stands for in a book's spelling, another case or one edit away."""
    meant = _BOOK_ALIASES.get(name) or _BOOK_ALIASES.get(name.lower())
    if meant is None and ops.lookup_function(name.lower()) is not None:
        meant = ops.lookup_function(name.lower()).name
    if meant is None:
        meant = _one_edit(name.lower(), ops.function_names())
    return meant


def _unknown_function_name(name: str, span) -> UnknownName:
    """The error for `name(`: the function meant (another case, one edit away), else unknown."""
    meant = _meant_function(name)
    if meant is not None:
        return UnknownName(f"unknown function '{name}'", span=span,
                           hint=f"did you mean {meant}?")
    return UnknownName(f"unknown function '{name}'", span=span,
                       hint="`gradcli functions` lists the functions; to multiply, put '*' "
                            f"between {name} and the bracket")


def _one_edit(word: str, choices):
    """A choice one deletion, insertion, substitution or swap away from `word`, if any."""
    for c in sorted(choices, key=len):
        if abs(len(c) - len(word)) > 1 or c == word:
            continue
        if len(c) == len(word):
            diff = [i for i in range(len(c)) if c[i] != word[i]]
            if len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and c[diff[0]] == word[diff[1]] and c[diff[1]] == word[diff[0]]):
                return c
        else:
            long, short = (c, word) if len(c) > len(word) else (word, c)
            if any(long[:i] + long[i + 1:] == short for i in range(len(long))):
                return c
    return None


def _unknown_function(name, span, args, inner_text=""):
    functions = ops.function_names()
    close = nearest(name, functions) or nearest(name.lower(), functions)
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


def _validate(program: Program, calls: bool) -> None:
    """Names: no redefinition, no use before definition, no assigning constants or functions.

    `calls`: the program may call functions it defines (the post-lexer found some).
    """
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
        params = stmt.params or ()
        for used in free_names(stmt.expr) if later else ():
            if used in later and used not in defined and used not in params:
                node_span = _first_use(stmt.expr, used)
                what = ("is used in its own definition" if later[used] is stmt
                        else "is used before it is defined")
                raise ParseError(f"'{used}' {what}", source=program.source, span=node_span,
                                 hint="define each name on an earlier line than its uses")
        for node in postorder(stmt.expr) if calls else ():
            if isinstance(node, Call) and node.name not in defined:
                if later.get(node.name) is stmt:
                    what, hint = ("is used in its own definition",
                                  "gradcli has no recursive functions: write the formula out")
                elif node.name in later:
                    what, hint = ("is used before it is defined",
                                  "define each function on an earlier line than its uses")
                else:
                    what, hint = "is not defined", f"define it: {node.name}(x) = …"
                raise ParseError(f"'{node.name}' {what}", source=program.source,
                                 span=node.span, hint=hint)
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
    """The token stream (for error explanations), stopping at the first failure."""
    runtime, _ = _get_parser()
    out = []
    try:
        for tok in runtime.lex(text):
            out.append(tok)
    except Exception:  # the error being explained, or another one after it
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
        if group.type == "LPAR" and not (before and before[-1].type in ("NAME", "FUNC")):
            return ParseError("',' inside parentheses that are not a call: a group holds "
                              "one expression", source=source, span=span,
                              hint="write [a, b] for a vector, or f(a, b) to call a function")
        if prev is not None and prev.type in ("COMMA", "LPAR", "LSQB"):
            return ParseError(f"an item is missing before this ',' (after '{prev}')",
                              source=source, span=span,
                              hint="put a value there, or remove the ','")
    if tok.type == "EQUAL" and prev is not None and prev.type == "RPAR":
        return ParseError("'=' after ')': a statement defines a name or a function, and "
                          "starts with it", source=source, span=span,
                          hint="write name = expression, such as a = x**2 + 1, or define "
                               "a function: f(x) = x**2 + 1")
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
