"""Numbers as text: the shortest round-trip form, rounding to significant digits, JSON numbers.

At the bottom of the package (imports nothing of gradcli): the engine's error
messages, the parser, the printer and every writer format numbers the same way.
"""
from __future__ import annotations

import math
from fractions import Fraction


def is_closed(value) -> bool:
    """A SymPy number: a closed form of --exact (√3/2, π/3, e)."""
    return type(value).__module__.startswith("sympy")


def format_number(value) -> str:
    """The shortest text that reads back as the same number (28, not 28.0)."""
    if type(value) is float:  # the common case first: every number of every output
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if is_closed(value):  # a closed form of --exact
        from .closedtext import closed_text
        return closed_text(value)
    if getattr(value, "ndim", 0):
        # NumPy 2.3+ refuses float() of a one-element array; older NumPy (all
        # there is for Python 3.10) only warned and gave the element.
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    text = repr(float(value))
    if text.endswith(".0"):
        text = text[:-2]
    return text


def noise_free(x: float) -> str:
    """A computed double shown to 12 significant digits: its last digits are rounding noise
    (0.5, not 0.5000000000000001), in the sentences of check and eval --check."""
    return format_number(float(f"{x:.12g}"))


def non_finite_text(value: float) -> str:
    """nan, inf or -inf as text (JSON has no literal for them)."""
    if math.isnan(value):
        return "nan"
    return "inf" if value > 0 else "-inf"


class Digits(int):
    """The default precision of a human format: an int that counts the numbers it shortens,
    so that one output can say once that its numbers were rounded. Each output takes its
    own (display_precision), so the count is that output's and nothing is global."""

    def __new__(cls, digits: int):
        self = super().__new__(cls, digits)
        self.rounded = 0
        return self


HUMAN_DIGITS = 6
# Formats a script reads keep every digit by default; every other format is read by people.
RAW_FORMATS = frozenset({"plain", "json", "csv"})


def display_precision(fmt: str | None, precision: int | None) -> int | None:
    """`--precision N` if given; else every digit for plain/json/csv and a fresh
    Digits(HUMAN_DIGITS) (6 significant digits, counting what it rounds) for the formats
    people read: table, markdown, latex, the graph's tree, DOT, Mermaid and pictures."""
    if precision is not None or fmt in RAW_FORMATS:
        return precision
    return Digits(HUMAN_DIGITS)


def digits_note(precision=HUMAN_DIGITS) -> str:
    """The one line a human output adds when the default precision rounded a number."""
    return f"numbers to {int(precision)} significant digits; --precision 17 for all"


def number_text(value, precision: int | None = None) -> str:
    """A number (or nested list/array of numbers) as display text."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(number_text(v, precision) for v in value) + "]"
    if isinstance(value, Fraction) or is_closed(value):
        return format_number(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return non_finite_text(value)
        if precision is not None:
            text = f"{value:.{precision}g}"
            if type(precision) is Digits and float(text) != value:
                precision.rounded += 1
            return format_number(float(text)) if "e" not in text else text
    return format_number(value)


SUMMARY_AT = 1000  # NumPy's print threshold: longer arrays show their ends only
EDGE_ITEMS = 3


def summary_text(value, precision: int | None = None) -> str:
    """number_text, but an array of more than SUMMARY_AT elements is cut to its first
    and last EDGE_ITEMS along each axis, `[1, 2, 3, ..., 8, 9, 10]`, as NumPy prints it."""
    if getattr(value, "size", 0) <= SUMMARY_AT:
        return number_text(value, precision)

    def cut(a) -> str:  # depth is the number of axes, which limits.py bounds
        if a.ndim == 0:
            return number_text(a.item(), precision)
        if len(a) > 2 * EDGE_ITEMS:
            items = [cut(x) for x in a[:EDGE_ITEMS]] + ["..."] \
                + [cut(x) for x in a[-EDGE_ITEMS:]]
        else:
            items = [cut(x) for x in a]
        return "[" + ", ".join(items) + "]"
    return cut(value)


def json_number(value, precision: int | None = None):
    """A number in JSON: floats stay floats, nan/inf become strings, fractions strings."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [json_number(v, precision) for v in value]
    if isinstance(value, Fraction):
        return format_number(value) if value.denominator != 1 else value.numerator
    if is_closed(value):
        return format_number(value) if not value.is_Integer else int(value)
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return non_finite_text(value)
        if precision is not None:
            return float(f"{value:.{precision}g}")
    return value


def decimal_grid(lo: float, hi: float, n: int) -> list:
    """n evenly spaced points from lo to hi, each the double nearest the decimal a person
    means (0.3 on 0:1 in 11 points, not linspace's 0.30000000000000004): the ends are read
    back as the decimals they print as, and each point is computed exactly between them."""
    from fractions import Fraction
    if n < 2:
        return [float(lo)][:n]
    a, b = Fraction(repr(float(lo))), Fraction(repr(float(hi)))
    return [float(a + (b - a) * i / (n - 1)) for i in range(n)]
