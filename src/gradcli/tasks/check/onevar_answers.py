"""Reading the answers of the one-variable kinds (`--increasing`, `--relative-max`,
`--abs-max`, ...) as a book prints them, and comparing their numbers exactly.

Intervals join with `U`, `∪` or commas: `(-inf, -1) U (1, inf)`; `[` may stand
for `(`. Several points join with `and`, `;` or commas, `±` stands for both
signs; a point is `x = -1`, `-1` or `(1, 3)`; `none` is an empty answer.
A number is any constant expression (`2/3`, `√3`, `pi/4`, `e^2`); one typed
as a decimal of 3 or more significant digits is right by the digits rule
(§3.5), anything else must be the exact number.
"""
from __future__ import annotations

import re

from ...errors import GradcliError, UsageError
from ...inputs import split_top_level
from .verdict import grade_number

NONE_WORDS = {"none", "∅", "{}", "no", "nowhere", "never", "empty", "-", "dne",
              "does not exist", "no interval", "no intervals", "no point", "no points"}
_INF = {"inf": 1, "+inf": 1, "∞": 1, "+∞": 1, "oo": 1, "infinity": 1,
        "-inf": -1, "-∞": -1, "-oo": -1, "-infinity": -1}
_UNION = re.compile(r"(?<=[)\]])\s*(?:U|∪|u|or|and|,|;)\s*(?=[(\[])")


class Typed:
    """A number of an answer: its text, its exact SymPy value (±oo for infinities)."""

    __slots__ = ("text", "value")

    def __init__(self, text, value):
        self.text = text
        self.value = value

    def __repr__(self):
        return f"Typed({self.text!r})"


# "the absolute maximum value is", "max =", "min of" before an extremum's answer
EXTREMUM_WORDS = re.compile(r"^\s*(?:the\s+)?(?:absolute\s+|abs\.?\s+|global\s+)?"
                            r"(?:max(?:imum)?|min(?:imum)?)(?:\s+value)?\s*(?:is|=|:|of)?\s*",
                            re.I)


def value_and_where(text: str, starts_point: str) -> tuple:
    """'5 at x = 3' -> ('5', 'x = 3'); without ' at ', a text that starts like a point
    (the pattern `starts_point`) is all point, any other all value."""
    value_text, at, where = text.partition(" at ")
    if at:
        return value_text, where
    return ("", text) if re.match(starts_point, text) else (text, "")


def is_none(text: str) -> bool:
    return text.strip().lower().rstrip(".") in NONE_WORDS


def read_number(text: str, option: str, variable: str = "x") -> Typed:
    """A constant of an answer, exactly."""
    import sympy as S

    from ...language.parser import parse
    from ..sympyform import to_sympy
    t = text.strip()
    if t.lower() in _INF:
        return Typed(t, S.oo * _INF[t.lower()])
    try:
        program = parse(t)
        value, _ = to_sympy(program.statements[-1].expr, "\0", option)
    except GradcliError as exc:
        raise UsageError(f"{option}: '{t}' is not a number",
                         hint=_HINTS.get(option, "")) from exc
    if value.free_symbols or value.is_real is False:
        raise UsageError(f"{option}: '{t}' is not a number", hint=_HINTS.get(option, ""))
    return Typed(t, value)


_HINTS = {"--increasing": 'for example --increasing "(-inf, -1) U (1, inf)"',
          "--decreasing": 'for example --decreasing "(-1, 1)"',
          "--concave-up": 'for example --concave-up "(0, inf)"',
          "--concave-down": 'for example --concave-down "(-inf, 0)"',
          "--relative-max": 'for example --relative-max "x = -1"',
          "--relative-min": 'for example --relative-min "x = 1 and x = 3"',
          "--inflection": 'for example --inflection "x = 0" (or "none")',
          "--abs-max": 'for example --abs-max "5 at x = 3"',
          "--abs-min": 'for example --abs-min "-4 at x = 1 and x = -2"'}


def read_intervals(text: str, option: str) -> list:
    """'(-inf, -1) U [1, inf)' -> [(open?, Typed a, Typed b, open?)] (True: '(' or ')')."""
    if is_none(text):
        return []
    parts = split_top_level(_UNION.sub(",", text.strip()))
    out = []
    for part in parts:
        m = re.fullmatch(r"([(\[])(.*)([)\]])", part.strip())
        pieces = split_top_level(m.group(2)) if m else []
        if not m or len(pieces) != 2:
            raise UsageError(f"{option}: '{part}' is not an interval (a, b)",
                             hint=_HINTS.get(option, ""))
        a, b = (read_number(p, option) for p in pieces)
        if not a.value < b.value:
            raise UsageError(f"{option}: the interval '{part}' is empty",
                             hint="write the smaller end first: (a, b) with a < b")
        out.append((m.group(1) == "(", a, b, m.group(3) == ")"))
    return out


def _expand_pm(item: str) -> list:
    if "±" not in item and "+-" not in item:
        return [item]
    return [item.replace("±", s, 1).replace("+-", s, 1) for s in ("+", "-")]


def read_points(text: str, option: str, variable: str) -> list:
    """'x = -1 and x = 2', '-1, 2', '(1, 3)', 'f(1) = 3', 'x = ±√2' -> [(Typed x, Typed value or None)]."""
    if is_none(text):
        return []
    items = []
    for chunk in re.split(r"\band\b|;", text):
        for piece in split_top_level(chunk):
            items.extend(_expand_pm(piece))
    out = []
    for item in items:
        t = item.strip()
        # Books print an extremum as its value at the point: "f(0) = 5" is the point (0, 5).
        called = re.fullmatch(r"[A-Za-z]\w*\s*\((.+)\)\s*=\s*(.+)", t)
        if called:
            out.append((read_number(called.group(1), option), read_number(called.group(2), option)))
            continue
        m = re.fullmatch(r"\(\s*(.*)\)", t)
        if m:
            pair = split_top_level(m.group(1))
            if len(pair) != 2:
                raise UsageError(f"{option}: '{t}' is not a point (x, f(x))",
                                 hint=_HINTS.get(option, ""))
            out.append((read_number(pair[0], option), read_number(pair[1], option)))
            continue
        t = re.sub(rf"^\s*{re.escape(variable)}\s*=\s*", "", t)
        out.append((read_number(t, option), None))
    return out


def same_number(typed: Typed, exact) -> bool:
    """Whether the typed number is the exact one: by the digits rule for a decimal of 3 or
    more significant digits, else exactly (to 30 digits, beyond any textbook slip)."""
    import sympy as S
    v, e = typed.value, exact
    if v in (S.oo, -S.oo) or e in (S.oo, -S.oo):
        return v == e
    fe = e.evalf(40)
    if typed.value.is_Rational and not typed.value.is_Integer and re.fullmatch(
            r"[+-]?\d*\.\d+(?:[eE][+-]?\d+)?", typed.text.strip()):
        graded = grade_number(typed.text.strip(), float(v), float(fe))
        if graded is not None:
            return bool(graded["ok"])
    return abs(v.evalf(40) - fe) <= S.Float("1e-25") * (1 + abs(fe))
