"""Grading the normal line of y = f(x) (`check EXPR --at x=2 --normal "y = -(x - 2)/4 + 4"`).

The answer is any linear equation in x and y (`y = ...`, `x = 2`, `x + 4y = 18`,
or the right-hand side alone). Being a line G(x, y) = 0, it is fixed by G at
the point (a, f(a)) and its two slopes, read off at the point and one step
along each axis; at PROBES more points it must be linear (else `not-linear`).
The correct line is the normal task's own. Typed decimals may move the line by
half a unit in their last digit (the digits rule). Named: `tangent-for-normal`
(the tangent given), `reciprocal-without-sign` (slope 1/m, not -1/m),
`negative-not-reciprocal` (slope -m), `normal-point` (not through the point),
`normal-slope`. A surface's normal line (a level surface F = k, or z = f(x, y)) is
graded by surfacenormal.py.
"""
from __future__ import annotations

import math

from ...errors import UsageError
from ..evaluation import evaluate
from ...inputs import inputs_of
from ...language.expr import Apply, Program, Statement
from ..normal import normal as normal_of
from .formula import parse_answer
from .probes import rounded_literals, rounding_slack
from .shared import PROBES, Graded, close_to, maybe_value, random_step, scalar_point, \
    seeded_rng, split_sides
from .verdict import FORMULA_RTOL_FLOOR, Answer, num, shown, told_apart

OPTION = "normal"


def prepare(question, given, context):
    """(the normal task's result, the student's line as G(x, y) = 0, the answer as typed);
    for a surface (an equation, or z = f(x, y)), surfacenormal.py's."""
    if question.program is None or len(question.variables) == 2:
        from .surfacenormal import prepare as prepare_surface
        return ("surface", prepare_surface(question, given, context))
    if len(question.variables) != 1:
        raise UsageError("--normal grades the normal line of y = f(x), a function of one "
                         f"variable; this one has {len(question.variables)} "
                         f"({', '.join(question.variables) or 'none'})")
    point = scalar_point(question.at, question.variables, "--normal")
    n = _exact_normal(question.text, point) or normal_of(question.text, point,
                                                          evaluate=evaluate)
    answer = given["normal"]
    return n, _line(answer, question.program, n.x, n.lhs), answer


def _exact_normal(text, point):
    """The normal line in exact numbers where the point is one: y = 4 - (x - 2)/4 in
    rationals at a whole or decimal point (no SymPy), and at a closed form such as π/4
    (SymPy), where x = 3π/2 for sin x is vertical though the double of f' is -1.8e-16."""
    from fractions import Fraction
    from ...errors import GradcliError, InexactError
    if all(float(v) == float(Fraction(repr(float(v)))) and len(repr(float(v))) <= 8
           for v in point.values()):
        try:
            return normal_of(text, {k: Fraction(repr(float(v))) for k, v in point.items()},
                             exact=True, evaluate=evaluate)
        except InexactError:
            pass  # e^x at 1: the closed form needs e, below
        except (GradcliError, TypeError, ValueError):
            return None
    import sympy as S
    exact = {}
    for k, v in point.items():
        guess = S.nsimplify(v, [S.pi], rational=False, tolerance=1e-15)
        if abs(float(guess) - float(v)) > 4 * math.ulp(float(v)):  # pi/3 typed, as a double
            return None
        exact[k] = guess
    try:
        return normal_of(text, exact, exact="closed", evaluate=evaluate)
    except (GradcliError, TypeError, ValueError):
        return None


def _line(answer: str, program, x: str, dep: str) -> Program:
    example = f"{dep} = 4 - ({x} - 2)/4"
    left, right = split_sides(answer, "the normal line", example)
    allowed = [x, dep]
    what = "the normal line"
    if left is None:
        rhs = parse_answer(right, program, allowed, what)
        if dep in inputs_of(rhs):
            raise UsageError(f"the answer for the normal line has {dep} on the right-hand "
                             "side and no '='", source=answer,
                             hint=f"write it as an equation, for example {example}")
        sides = [parse_answer(dep, program, allowed, what), rhs]
    else:
        sides = [parse_answer(part, program, allowed, what) for part in (left, right)]
    used = set(inputs_of(sides[0])) | set(inputs_of(sides[1]))
    if not used:
        raise UsageError("the answer for the normal line has no variable", source=answer,
                         hint=f"for example {example}")
    f = Apply("sub", (sides[0].result, sides[1].result))
    named = tuple(s for s in program.statements if s.name is not None)
    return Program(named + (Statement(None, f),), answer)


def _g(line, x, dep, px, py):
    got = maybe_value(line, {x: px, dep: py})
    return None if got is None else got[0]


def _shape(line, x, dep, a, fa):
    """(G at the point, dG/dx, dG/dy) of the line, or None where it is undefined."""
    g0 = _g(line, x, dep, a, fa)
    gx = _g(line, x, dep, a + 1.0, fa)
    gy = _g(line, x, dep, a, fa + 1.0)
    if None in (g0, gx, gy):
        return None
    return g0, gx - g0, gy - g0


def _quantities(line, x, dep, a, fa) -> list:
    """[the line's y at x = a, its slope], or [its x, inf] for a vertical line."""
    shape = _shape(line, x, dep, a, fa)
    if shape is None:
        return [math.nan, math.nan]
    g0, gx, gy = shape
    if gy == 0:
        return [a - g0 / gx if gx else math.nan, math.inf]
    return [fa - g0 / gy, -gx / gy]


def grade(question, prepared, context) -> Graded:
    if prepared[0] == "surface":
        from .surfacenormal import grade as grade_surface
        return grade_surface(question, prepared[1], context)
    n, line, answer = prepared
    a_ = Answer("normal", "normal", answer.strip(), key="normal", expected=n.equation)
    a_.correct = n.equation
    x, dep = n.x, n.lhs
    a, fa = float(n.a), float(n.value)
    shape = _shape(line, x, dep, a, fa)
    if shape is None or (shape[1] == 0 and shape[2] == 0):
        a_.mistake = "not-linear"
        a_.reason = "your answer is not a line through the neighbourhood of the point"
        return Graded([a_], list(n.warnings))
    g0, gx, gy = shape
    rng = seeded_rng(question.text, answer)
    for _ in range(PROBES):
        px, py = a + random_step(rng), fa + random_step(rng)
        got = _g(line, x, dep, px, py)
        linear = g0 + gx * (px - a) + gy * (py - fa)
        if got is None or not close_to(got, linear, 1e-9, context.atol, abs(g0),
                                       abs(gx * (px - a)), abs(gy * (py - fa))):
            a_.mistake = "not-linear"
            a_.reason = (f"your answer is not linear in {x} and {dep}: a normal line is "
                         f"(at {x} = {num(px)}, {dep} = {num(py)} it is off the line)")
            return Graded([a_], list(n.warnings))
    literals = rounded_literals(line) if context.digits_rule else []
    slack = rounding_slack(line, lambda p: _quantities(p, x, dep, a, fa), literals) \
        if literals else [0.0, 0.0]
    here, slope = _quantities(line, x, dep, a, fa)
    m = None if n.slope is None else float(n.slope)
    want = n.normal_slope
    tol = max(context.rtol, FORMULA_RTOL_FLOOR) if not literals else FORMULA_RTOL_FLOOR
    scale = max(abs(fa), abs(a), 1.0 if m is None else abs(m),
                0.0 if want is None else abs(float(want)))
    # The scales come from the question alone: the normal's slope for the slope, f(a)
    # and the slope's reach over |a| for the height at a (§3.5).
    w = None if want is None else float(want)
    height_scale = max(abs(fa), abs(a) * (1.0 if w is None else abs(w)))
    problems = []
    if math.isinf(slope):  # a vertical line x = here
        point_ok = abs(here - a) <= context.atol + slack[0] + tol * abs(a)
    else:
        point_ok = abs(here - fa) <= context.atol + slack[0] + tol * height_scale
    if w is None:          # the normal is x = a
        slope_ok = math.isinf(slope)
    else:
        slope_ok = not math.isinf(slope) and \
            abs(slope - w) <= context.atol + slack[1] + tol * abs(w)
    a_.ok = slope_ok and point_ok
    if a_.ok:
        return Graded([a_], list(n.warnings))
    if not slope_ok:
        if m is not None and m != 0 and not math.isinf(slope) \
                and close_to(slope, m, tol, context.atol + slack[1], scale):
            a_.mistake = "tangent-for-normal"
            problems.append(f"this is the tangent's slope {shown(m)}: the normal is "
                            f"perpendicular to the tangent, slope -1/f'(a) = {shown(float(want))}")
        elif m == 0 and not math.isinf(slope) and slope == 0:
            a_.mistake = "tangent-for-normal"
            problems.append(f"this is the tangent, horizontal since f'({num(a)}) = 0; the "
                            f"normal is vertical: {x} = {num(a)}")
        elif m is not None and m != 0 and not math.isinf(slope) \
                and close_to(slope, 1 / m, tol, context.atol + slack[1], scale):
            a_.mistake = "reciprocal-without-sign"
            problems.append(f"the slope is 1/f'(a) = {shown(1 / m)}; the normal's is -1/f'(a) "
                            f"= {shown(-1 / m)}")
        elif m is not None and m not in (0, 1, -1) and not math.isinf(slope) \
                and close_to(slope, -m, tol, context.atol + slack[1], scale):
            a_.mistake = "negative-not-reciprocal"
            problems.append(f"the slope is -f'(a) = {shown(-m)}; the normal's is -1/f'(a) = "
                            f"{shown(-1 / m)}")
        else:
            a_.mistake = "normal-slope"
            yours, right = ("vertical" if math.isinf(slope) else shown(slope),
                            "vertical" if want is None else shown(float(want)))
            if yours == right and want is not None:
                yours, right = told_apart(slope, float(want))
            problems.append(f"the slope of your line is {yours}, but the normal's is {right}")
    if not point_ok:
        a_.mistake = a_.mistake or "normal-point"
        problems.append(f"your line does not pass through the point ({num(a)}, {num(fa)})")
    a_.reason = "; ".join(problems)
    return Graded([a_], list(n.warnings))
