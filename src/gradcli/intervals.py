"""Numbers and intervals of the one-variable answers, as a book prints them.

A SymPy number in its closed form (closedtext), `-inf` and `inf` at the ends
of intervals, an interval `(-inf, -1)`, a union `(-inf, -1) U (1, inf)`, an
empty answer `none`. Both the writers and `check`'s reasons print with these;
JSON (`json=True`) spells a closed form in ASCII (`-sqrt(2)/2`, not `-√2/2`), as every
command's JSON does.
"""
from __future__ import annotations

from .numbers import number_text

# A closed form longer than this is shown to a person by its digits, as a book shows a
# root of a cubic: Cardano's radicals are exact, and no reader can use them. JSON keeps
# the exact form.
LONG_CLOSED_FORM = 40
# A number of more operations than this (Cardano's root has 19, (1 + √5)/2 has 5) is not
# simplified for JSON, nor is f's value at it: simplify only lengthens such a form
LONG_FORM_OPS = 12


def is_long(v) -> bool:
    """Whether a person is shown `v`'s digits rather than its closed form."""
    if v.is_Float or not v.is_finite:
        return False
    from .closedtext import closed_text
    return len(closed_text(v)) > LONG_CLOSED_FORM


def equals_sign(v) -> str:
    """'≈' before a number shown by its digits (is_long), else '='."""
    return "≈" if is_long(v) else "="


def point_text(v, json: bool = False, digits=None) -> str:
    """A SymPy number as the book prints it; -inf and inf at the ends of intervals; a
    number known only by its digits (a Float) to `digits` significant digits (None: all)."""
    import sympy as S
    if v == S.oo:
        return "inf"
    if v == -S.oo:
        return "-inf"
    if v.is_Float:
        return number_text(float(v), None if json else digits)
    if json:
        from .closedtext import simplified
        from .symbolic.realforms import json_text
        return json_text(v if S.count_ops(v) > LONG_FORM_OPS else simplified(v))
    from .closedtext import closed_text
    text = closed_text(v)
    if len(text) > LONG_CLOSED_FORM:
        return number_text(float(v.evalf(30)), digits or 6)
    return text


def interval_text(pair, json: bool = False, digits=None) -> str:
    return f"({point_text(pair[0], json, digits)}, {point_text(pair[1], json, digits)})"


def union_text(pairs, digits=None) -> str:
    return " U ".join(interval_text(p, digits=digits) for p in pairs) or "none"
