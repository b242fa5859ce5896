"""Grading dy/dx of an implicit curve (`check "F = G" --implicit ANSWER`).

dy/dx is compared as a formula in x and y with -F_x/F_y (the implicit task's
own formula) at random points; where the two differ there, again at points of
the curve (an answer simplified with the curve's own equation is right on it).
A number given with --at is the slope at that point of the curve. Named:
`sign`, `reciprocal`, `missing-denominator`, `constant-factor`.
"""
from __future__ import annotations

import math

from ...autodiff.lower import lower
from ...errors import DomainError, GradcliError, UsageError
from ..implicit import implicit as implicit_of
from ..implicit import split_equation
from ...inputs import inputs_of
from ...language.expr import Apply, Program, Statement
from ...reading import given_names, read_program
from .formula import parse_answer
from .shared import Graded, close_to, maybe_value, random_step, seeded_rng, short, \
    split_sides, value_at, where_text
from .verdict import FORMULA_RTOL_FLOOR, Answer, grade_number, num, told_apart

OPTION = "implicit"
IMPLICIT_SAMPLES = 16  # random points where dy/dx is compared
CURVE_POINTS = 8      # points of the curve, when the random ones disagree


def prepare(question, given, context):
    """The answer, --wrt, --of and --order; the equation is read when graded, as the task
    reads it."""
    return given["implicit"], given["wrt"], given["of"], given.get("order")


def grade(question, prepared, context) -> Graded:
    answer, wrt, of, order = prepared
    if order == 2:
        from .implicit2 import grade_second
        return grade_second(question.text, question.at or None, answer, wrt, of, context)
    a, result = _grade_implicit(question.text, question.at or None, answer, wrt, of,
                                context.rtol, context.atol, context.digits_rule)
    return Graded([a], list(result.warnings), read_as=result.read_as,
                  at=dict(result.at or {}))


def _implicit_answer_text(answer: str, x: str, y: str) -> str:
    left, right = split_sides(answer, f"d{y}/d{x}", "-x/y")
    if left is None:
        return right
    compact = left.replace(" ", "")
    if compact in (f"d{y}/d{x}", f"{y}'", f"{y}'({x})", f"d{y}/d{x}({x})", f"{y}_{x}"):
        return right
    raise UsageError(f"the answer for d{y}/d{x} has '{left}' on the left of '='",
                     source=answer, hint=f"give the formula alone, or as d{y}/d{x} = ...")


def _equation(text):
    """(F program for 'left = right', both sides read, the variables)."""
    left, right = split_equation(text)
    sides = [read_program(part) for part in (left, right)]
    f = Apply("sub", (sides[0].result, sides[1].result))
    program = Program((Statement(None, f),), text)
    return program, inputs_of(program)


def _on_curve(F: Program, x, y, variables, rng, fixed):
    """A point of the curve F = 0 near a random x (Newton in y), or None."""
    point = {v: fixed.get(v, float(f"{random_step(rng):.3g}")) for v in variables}
    for _ in range(60):
        try:
            g = lower(F, point, wrt={y})
            out = g.output
            out.backward()
            f, fy = float(out.data), float(g.inputs[y].grad)
        except (GradcliError, ArithmeticError, TypeError, ValueError):
            return None
        if not (math.isfinite(f) and math.isfinite(fy)) or fy == 0:
            return None
        if abs(f) <= 1e-13 * max(1.0, *(abs(v) for v in point.values())):
            return point
        point[y] -= f / fy
        if abs(point[y]) > 1e6:
            return None
    return None


def _grade_slope_at(a, F, truth, answer, answer_program, result, variables, x, y, tol_rtol,
                    atol, digits_rule) -> Answer:
    """A number given for dy/dx at a point of the curve, as books ask it: graded there."""
    point = {v: float(result.at[v]) for v in variables}
    f_here = maybe_value(F, point)
    if f_here is None or abs(f_here[0]) > 1e-9 * max(1.0, f_here[1]):
        shown = where_text(point)
        value = "undefined" if f_here is None else num(f_here[0])
        raise UsageError(f"the point {shown} is not on the curve: the two sides differ by "
                         f"{value} there", hint="give a point of the curve with --at")
    t = maybe_value(truth, point)
    if t is None:
        raise DomainError(f"d{y}/d{x} = -F_{x}/F_{y} is undefined at {where_text(point)}")
    a.expected = t[0]
    a.computed = value_at(answer_program, point)[0]
    a.points = 1
    graded = grade_number(answer.strip(), a.computed, t[0]) if digits_rule else None
    if graded is not None:
        a.ok, a.digits, a.rounded = graded["ok"], graded["digits"], graded["rounded"]
        a.reason = graded["reason"]
    else:
        a.ok = close_to(a.computed, t[0], tol_rtol, atol, t[1])
    if not a.ok and not a.reason:
        a.reason = (f"at {where_text(point)} d{y}/d{x} = -F_{x}/F_{y} is {short(t[0])}, "
                    f"not {short(a.computed)}")
    a.note = f"the slope of the curve at {where_text(point)}, from {result.formula}"
    return a


def _grade_implicit(text, at, answer, wrt, of, rtol, atol,
                    digits_rule=True) -> tuple[Answer, object]:
    F, variables = _equation(text)
    x = wrt
    if len(variables) < 2:
        raise UsageError(f"the equation has {len(variables)} variable"
                         f"{'' if len(variables) == 1 else 's'}"
                         f" ({', '.join(variables) or 'none'}): dy/dx needs two, x and y",
                         source=text, hint='for example: gradcli check "x^2 + y^2 = 25" '
                                           '--implicit "-x/y"')
    if x is None:
        if "x" in variables and len(variables) == 2:
            x = "x"
        else:
            raise UsageError("--implicit needs --wrt X, the independent variable: the "
                             f"equation's variables are {', '.join(variables) or 'none'}",
                             hint='for example: --implicit "-x/y" --wrt x')
    result = implicit_of(text, x, of, None)
    y = result.y
    formula = _implicit_answer_text(answer, x, y)
    side = read_program(split_equation(text)[0])
    answer_program = parse_answer(formula, side, variables, f"d{y}/d{x}")
    if at is not None:
        result = implicit_of(text, x, of, at)  # the point: F_y = 0 there is exit 3
    names = given_names(variables)
    truth = read_program(result.formula, names)
    fx = read_program(result.fx, names)
    a = Answer("implicit", y, answer.strip(), key=f"d{y}/d{x}", expected=result.formula)
    a.correct = result.formula
    tol_rtol = max(rtol, FORMULA_RTOL_FLOOR)
    if at is not None and not inputs_of(answer_program):
        return _grade_slope_at(a, F, truth, answer, answer_program, result, variables, x, y,
                               tol_rtol, atol, digits_rule), result

    def compare(point):
        t, s = maybe_value(truth, point), maybe_value(answer_program, point)
        if t is None or s is None:
            return None
        ok = close_to(s[0], t[0], tol_rtol, atol, t[1])  # the scale of the question alone
        if ok and abs(s[0]) <= atol and abs(t[0]) <= atol:
            return None  # both 0: proves nothing
        return point, s[0], t[0], ok

    rows = []
    given = None
    if result.at is not None:
        given = compare({v: float(result.at[v]) for v in variables})
        if given is not None:
            rows.append(given)
            a.computed = given[1]
    rng = seeded_rng(text, x, y)
    tries = 0
    while len(rows) < IMPLICIT_SAMPLES and tries < 120:
        tries += 1
        row = compare({v: float(f"{random_step(rng):.3g}") for v in variables})
        if row is not None:
            rows.append(row)
    curve = []
    if any(not r[3] for r in rows):
        fixed = {}
        tries = 0
        while len(curve) < CURVE_POINTS and tries < 200:
            tries += 1
            p = _on_curve(F, x, y, variables, rng, fixed)
            if p is not None:
                row = compare(p)
                if row is not None:
                    curve.append(row)
        if len(curve) >= 3 and all(r[3] for r in curve) and (given is None or given[3]):
            a.ok = True
            a.points = len(curve)
            a.note = (f"equal to -F_{x}/F_{y} at {len(curve)} points of the curve (the two "
                      "differ off the curve, where the equation does not hold)")
            return a, result
    if not rows and not curve:
        a.reason = "no point was found where both your answer and -F_x/F_y are defined"
        return a, result
    a.points = len(rows)
    wrong = [r for r in (curve if curve else rows) if not r[3]] or [r for r in rows if not r[3]]
    if not wrong:
        a.ok = True
        return a, result
    shown = given if given is not None and not given[3] else wrong[0]
    a.counterexample = {"at": dict(shown[0]), "yours": shown[1], "correct": shown[2]}
    if shown in curve:
        where = ", ".join(f"{k} = {short(v)}" for k, v in shown[0].items()) + " (on the curve)"
    else:
        where = where_text(shown[0])
    yours, correct = told_apart(float(shown[1]), float(shown[2]))
    a.reason = (f"at {where} your answer gives {yours}, but "
                f"d{y}/d{x} = -F_{x}/F_{y} is {correct}")
    base = curve if len(curve) >= 3 else rows
    sample = [r for r in base if r[2] != 0]
    if len(sample) >= 3:
        def fits(model):
            out = []
            for p, s, t, _ in sample:
                m = model(p, t)
                if m is None:
                    return False
                out.append(close_to(s, m, tol_rtol, atol))
            return all(out)

        def minus_fx(p, t):
            got = maybe_value(fx, p)
            return None if got is None else -got[0]

        ratios = [s / t for _, s, t, _ in sample]
        if fits(lambda p, t: -t):
            a.mistake = "sign"
            a.note = f"the sign is wrong: d{y}/d{x} = -F_{x}/F_{y}, and your answer is F_{x}/F_{y}"
        elif fits(lambda p, t: 1 / t):
            a.mistake = "reciprocal"
            a.note = (f"upside down: your answer is -F_{y}/F_{x} = d{x}/d{y}, not "
                      f"d{y}/d{x} = -F_{x}/F_{y}")
        elif fits(lambda p, t: -1 / t):
            a.mistake = "reciprocal"
            a.note = (f"upside down and the sign: your answer is F_{y}/F_{x}; "
                      f"d{y}/d{x} = -F_{x}/F_{y}")
        elif fits(minus_fx):
            a.mistake = "missing-denominator"
            a.note = f"your answer is -F_{x} = -({result.fx}): divide by F_{y} = {result.fy}"
        elif all(abs(q - ratios[0]) <= 1e-7 * abs(ratios[0]) for q in ratios):
            a.mistake, a.mistake_detail = "constant-factor", num(ratios[0])
            a.note = (f"off by a factor: your answer is {told_apart(ratios[0], 1.0)[0]} times "
                      f"d{y}/d{x}")
    return a, result
