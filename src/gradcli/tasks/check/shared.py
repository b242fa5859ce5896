"""What the homework graders share: their one interface, and the helpers they all use.

Every homework grader (tangent.py, directional.py, critical.py, taylor.py,
implicit.py) is a module with the same two functions, which homework.py reads
from one table:

- `prepare(question, given, context)`: reads the answer (and its companion
  options) and raises GradcliError for bad input, before any grading, so that
  bad input (exit 2) comes first whatever else is wrong;
- `grade(question, prepared, context) -> Graded`: the Answers, and the warnings
  the homework task gave.

`given` is the dict of check_homework's keyword arguments. Nothing here prints.
"""
from __future__ import annotations

import math
import random
import re
import zlib
from dataclasses import dataclass, field
from fractions import Fraction

from ...autodiff.lower import lower
from ...errors import DomainError, ParseError, UsageError
from ..implicit import top_equals
from ...language.expr import Program
from .verdict import magnitude, num

PROBES = 8            # points besides the given one where a tangent must be a plane


@dataclass
class Question:
    """The question every answer is graded against."""

    text: str
    at: dict
    program: Program | None = None  # None for an equation (dy/dx)
    variables: list = field(default_factory=list)


@dataclass
class Context:
    """How strictly: the tolerances, and whether typed digits decide (the digits rule)."""

    rtol: float
    atol: float
    digits_rule: bool


@dataclass
class Graded:
    """What one grader found: its answers, the task's warnings, and for an equation (which
    has no expression to print) how it reads and the point."""

    answers: list
    warnings: list = field(default_factory=list)
    read_as: str | None = None
    at: dict | None = None


def split_sides(text: str, what: str, example: str):
    """(left, right) of an answer `left = right`, or (None, text) without '='."""
    found = top_equals(text)
    if not found:
        return None, text
    if len(found) > 1:
        raise ParseError(f"the answer for {what} has more than one '='", source=text,
                         span=(found[1], found[1] + 1), hint=f"for example: {example}")
    i = found[0]
    left, right = text[:i].strip(), text[i + 1:].strip()
    if not left or not right:
        raise ParseError(f"a side of the answer for {what} is empty", source=text,
                         span=(i, i + 1), hint=f"for example: {example}")
    return left, right


_CALL = re.compile(r"^\s*[^\W\d]\w*\s*\(([^()]*)\)\s*$")


def names_a_function_of(left: str, variables) -> bool:
    """'L(x, y)', 'f(x)', 'T_2(x)': a name applied to the question's variables."""
    m = _CALL.match(left)
    return bool(m) and [a.strip() for a in m.group(1).split(",")] == list(variables)


def value_at(program: Program, point: dict):
    """(value, scale) of a formula at a point, scale the largest |node| (its rounding's size).

    DomainError where the formula is undefined there."""
    g = lower(program, point, wrt=set())
    data = g.output.data
    if getattr(data, "shape", ()) != ():
        raise UsageError("the answer is a vector or matrix; this answer is one number at "
                         "each point")
    return float(data), magnitude(g.output)


def maybe_value(program, point):
    """value_at, or None where undefined or not finite."""
    try:
        v, s = value_at(program, point)
    except (DomainError, ArithmeticError):
        return None
    return (v, s) if math.isfinite(v) else None


def close_to(a: float, b: float, rtol: float, atol: float, *scales) -> bool:
    """Equal within the tolerance relative to the magnitudes involved."""
    scale = max([abs(a), abs(b), *scales])
    return abs(a - b) <= atol + rtol * scale


def short(x: float) -> str:
    """A number found by a search, as a person writes it: 6 digits, rounding noise as 0."""
    x = float(x)
    return num(0.0 if abs(x) < 1e-9 else float(f"{x:.6g}"))


def pt_text(names, values) -> str:
    return "(" + ", ".join(short(v) for v in values) + ")" if len(names) > 1 \
        else short(values[0])


def shifted_text(name: str, a: float) -> str:
    """'x - 2', 'x + 1' or 'x': the factor a Taylor or tangent term is written in."""
    if not a:
        return name
    return f"{name} {'-' if a > 0 else '+'} {num(abs(float(a)))}"


def where_text(point: dict) -> str:
    return ", ".join(f"{k} = {num(float(v))}" for k, v in point.items())


def seeded_rng(*parts) -> random.Random:
    return random.Random(zlib.crc32("\0".join(parts).encode()))


def random_step(rng) -> float:
    """A well-scaled step: both signs, |d| in 0.1..3 (as check's random points)."""
    return rng.choice((-1, 1)) * 10 ** rng.uniform(-1, math.log10(3))


def scalar_point(at: dict, names, option: str) -> dict:
    point = {}
    for n in names:
        if n not in at:
            raise UsageError(f"{option} needs the point: no value for {n}",
                             hint="add --at " + ",".join(f"{v}=…" for v in names))
        v = at[n]
        if isinstance(v, bool) or not isinstance(v, (int, float, Fraction)):
            raise UsageError(f"{option} is checked at a point of numbers; '{n}' is not one")
        point[n] = float(v)
    from ...inputs import keep_typed
    return keep_typed(at, point)
