"""Numbers and intervals of the one-variable answers, as a book prints them.

A SymPy number in its closed form (closedtext), `-inf` and `inf` at the ends
of intervals, an interval `(-inf, -1)`, a union `(-inf, -1) U (1, inf)`, an
empty answer `none`. Both the writers and `check`'s reasons print with these.
"""
from __future__ import annotations

from .numbers import number_text


def point_text(v) -> str:
    """A SymPy number as the book prints it; -inf and inf at the ends of intervals."""
    import sympy as S
    if v == S.oo:
        return "inf"
    if v == -S.oo:
        return "-inf"
    if v.is_Float:
        return number_text(float(v))
    from .closedtext import closed_text
    return closed_text(v)


def interval_text(pair) -> str:
    return f"({point_text(pair[0])}, {point_text(pair[1])})"


def union_text(pairs) -> str:
    return " U ".join(interval_text(p) for p in pairs) or "none"
