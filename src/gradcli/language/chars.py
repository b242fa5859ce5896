"""The characters and words the language knows before any grammar rule runs.

Look-alike characters read as ASCII, pasted characters explained, Greek names,
inverse functions, Python's keywords, radicals, superscripts and subscripts,
book spellings of function names, and the one pattern that spots a statement
defining a name or a function (the parser and the REPL both use it), with
`defined_names`, which reads a program's definitions before it is parsed.
Mostly plain data, so that the post-lexer, the builder and the error
explanations share one copy; docs/language.md shows each reading.
"""
from __future__ import annotations

import re

from .. import ops
from ..errors import ParseError

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


# Greek letters' names are names, never glued letters (docs/language.md, "Glued letters").
GREEK_NAMES = frozenset({"mu", "xi", "eta", "rho", "tau", "phi", "chi", "psi", "nu"})
# Python's keywords: never glued letters (`for` is not f*o*r), never read as names.
PYTHON_WORDS = frozenset({
    "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
    "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield", "None", "True", "False"})
ROOTS = {"\u221a": "sqrt", "\u221b": "cbrt"}
SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
SUPERSCRIPTS = str.maketrans(SUPERSCRIPT_DIGITS + "⁻⁺", "0123456789-+")
SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
# A statement that defines a name (`a = …`, group 2 None) or a function
# (`f(x, y) = …`, group 2 its parameters), where the text or a statement
# (after ';' or a line end) starts; `a == b` is no definition. Zero-width, so
# that finditer sees every statement start: a parameter list may hold a ';'.
# Group 3 is the '=', so the right side starts at m.end(3).
DEFINITION = re.compile(r"(?:^|(?<=[;\n]))(?=[ \t\f]*([^\W\d]\w*)[ \t\f]*"
                        r"(?:\(([^()]*)\)[ \t\f]*)?(=)(?!=))")
PRIMES = "'\u2033"
LOG_BASE = re.compile(r"log_(?:(\d+(?:\.\d+)?)([^\W\d]\w*)?|([^\W\d_]))$")


# Names some books print for a function gradcli spells otherwise.
BOOK_ALIASES = {"cosec": "csc", "arccosec": "acsc", "cosech": "csch", "tg": "tan",
                 "ctg": "cot", "cotg": "cot", "arctg": "atan", "sen": "sin"}


def defined_names(plain: str, text: str, names=()) -> tuple:
    """(the names the program knows, its functions: name -> parameters), found before
    parsing, so that the post-lexer reads a defined function's name as a function
    everywhere and a defined name whole.

    `plain` is the text with look-alikes made ASCII, `text` as typed (for errors);
    `names` are the input's variables known from elsewhere.
    """
    functions, values = {}, []
    for m in DEFINITION.finditer(plain):
        if m.group(2) is None:
            values.append(m)
            continue
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
        for m in values:
            if m.group(1) in functions:
                raise ParseError(f"'{m.group(1)}' is defined twice, as a function and as a "
                                 "value", source=text, span=m.span(1),
                                 hint="a program's names are defined once each; use another "
                                      "name for one of them")
    known = frozenset(names) | {m.group(1) for m in values} \
        | {p for params in functions.values() for p in params}
    return known, functions
