"""Why a text does not parse, in words: the position, what was expected, a suggestion.

A character no token matches (a look-alike, LaTeX, an invisible character), a
token the grammar has no rule for (explained from the tokens around it: an
unclosed bracket, two names side by side, a stray ','), an unknown function
(a book's spelling, another case, one edit away). Plain functions of the text
and its tokens: the parser hands in the tokens it read, so this module knows
nothing of the lexer or the grammar's runtime.
"""
from __future__ import annotations

import re

from .. import ops
from ..errors import ParseError, UnknownName, nearest
from .chars import BOOK_ALIASES, LOOKALIKES

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


# LaTeX commands that are no function: what to type instead. \frac and \sqrt are
# rewritten whole below; a function's command (\sin, \ln, \arcsin) is `_latex_function`'s.
_LATEX = {
    "cdot": "*", "times": "*", "ast": "*", "div": "/", "pi": "pi", "left": "(", "right": ")",
    "cdotp": "*", "pm": "+ or -", "infty": "a large number such as 1e300",
    "frac": "(a)/(b)", "partial": "nothing: "
    "gradcli computes the derivatives itself", "mathrm": "the plain name", "operatorname":
    "the plain name", "sigma": "a name such as sigma", "theta": "a name such as theta",
}


def _latex_function(word: str) -> str | None:
    r"""The call to type for `\word` where `word` names a function that LaTeX has a command
    for (its `latex` in the op table is one: \sin, \log for ln, \arcsin for asin)."""
    op = ops.lookup_function(word)
    if op is None or not op.latex or not op.latex[1:].isalpha():
        return None
    return call_example(op)


def meant_function(name: str):
    """The function `name` stands for in a book's spelling, another case or one edit away."""
    meant = BOOK_ALIASES.get(name) or BOOK_ALIASES.get(name.lower())
    if meant is None and ops.lookup_function(name.lower()) is not None:
        meant = ops.lookup_function(name.lower()).name
    if meant is None:
        meant = _one_edit(name.lower(), ops.function_names())
    return meant


def unknown_function_name(name: str, span) -> UnknownName:
    """The error for `name(`: the function meant (another case, one edit away), else unknown."""
    meant = meant_function(name)
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


def unknown_function(name, span, args, inner_text=""):
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



def call_example(op) -> str:
    """A call of `op` as a user types it, with the table's argument names: atan2(y, x),
    ln(x) (one argument where one will do), max(a, b)."""
    names = op.arg_names()
    if op.accepts(1) and isinstance(op.arity, tuple) and op.arity[1] is not None:
        names = names[:1]  # log(x, b): ln(x)
    if op.is_operator:  # pow(x, y)
        return f"{op.extra['call_name']}({', '.join(names)})"
    from .expr import Apply, Name
    from .printer import to_text
    return to_text(Apply(op.name, tuple(Name(n) for n in names)))


def inverse_hint(name: str) -> str:
    if name == "exp":
        return "the inverse of exp is ln: write ln(x); for 1/exp(x) write exp(-x)"
    if name in ("log", "ln"):
        return "the inverse of ln is exp: write exp(x); for 1/ln(x) write 1/ln(x)"
    return f"for the reciprocal write 1/{name}(x)"


def character_error(text: str, pos: int) -> ParseError:
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
        instead = _LATEX.get(word.lstrip("dt") if word.endswith("frac") else word) \
            or _latex_function(word)
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


def token_error(text: str, exc, toks: list, source: str | None = None) -> ParseError:
    """An unexpected token, explained from the tokens around it.

    `text` is what was lexed, `toks` the tokens the post-lexer made of it up to
    the failure, `source` the text as typed (positions are the same).
    """
    source = text if source is None else source
    tok = exc.token
    expected = _expected_words(exc.expected)
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
