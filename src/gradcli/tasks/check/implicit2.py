"""Grading d²y/dx² of an implicit curve (`check "F = G" --implicit ANSWER --order 2`).

The answer is a formula in x and y, or with --at a number. A formula is right
when it equals the implicit task's y'' on the curve, which is proved exactly
where it can be: the two agree identically, or (F a polynomial) the numerator
of their difference is a multiple of F, so that a formula simplified with the
curve's equation (-25/y³ for x² + y² = 25) is right. Where no proof is at hand,
they are compared at points of the curve. A number is graded at the point by
the digits rule. Named: `sign`, `first-derivative` (dy/dx given for d²y/dx²),
and where neither fits, the point of the curve where they differ.
"""
from __future__ import annotations

import math
import re

from ...errors import DomainError, GradcliError, UsageError
from .shared import Graded, random_step, seeded_rng, short, where_text
from .verdict import FORMULA_RTOL_FLOOR, Answer, grade_number

CURVE_POINTS = 10  # points of the curve where an unproved formula is compared
_LEFT = re.compile(r"^\s*(y''|y''\(x\)|d\^?2y/dx\^?2|d²y/dx²|y_xx)\s*=\s*")


def _answer_text(answer: str, x: str, y: str) -> str:
    compact = answer.replace(" ", "")
    if "=" not in compact:
        return answer
    left, _, right = answer.partition("=")
    left = left.replace(" ", "").replace("**", "^")
    if left in (f"{y}''", f"{y}''({x})", f"d2{y}/d{x}2", f"d^2{y}/d{x}^2", f"d²{y}/d{x}²",
                f"{y}_{x}{x}"):
        return right
    raise UsageError(f"the answer for d²{y}/d{x}² has '{left}' on the left of '='",
                     source=answer, hint=f"give the formula alone, or as {y}'' = ...")


def _curve_points(F, X, Y, seed_parts) -> list:
    """Up to CURVE_POINTS (x, y) of F = 0, by Newton in y from random starts."""
    import sympy as S
    f = S.lambdify((X, Y), F, modules="math")
    fy = S.lambdify((X, Y), S.diff(F, Y), modules="math")
    rng = seeded_rng(*seed_parts)
    found = []
    for _ in range(200):
        if len(found) >= CURVE_POINTS:
            break
        px, py = float(f"{random_step(rng):.3g}"), random_step(rng)
        try:
            for _ in range(60):
                v, d = f(px, py), fy(px, py)
                if d == 0:
                    break
                py -= v / d
                if abs(v) <= 1e-13 * max(1.0, abs(px), abs(py)):
                    found.append((px, py))
                    break
        except (ArithmeticError, ValueError, TypeError):
            continue
    return found


def _rounded_agreement(formula, names, points, truth, X, Y):
    """Where the answer has decimals of 3+ digits (the digits rule): the number of curve
    points where it is within their rounding of the true y'', or None when it is off at
    one of them or has no such decimals."""
    import sympy as S
    from ...reading import read_program
    from .probes import rounded_literals, rounding_slack
    from .shared import maybe_value
    program = read_program(formula, names)
    literals = rounded_literals(program)
    if not literals:
        return None
    truth_f = S.lambdify((X, Y), truth, modules="math")
    agreed = 0
    for px, py in points:
        point = {names[0]: px, names[1]: py}
        got = maybe_value(program, point)
        try:
            t = float(truth_f(px, py))
        except (ArithmeticError, ValueError, TypeError):
            continue
        if got is None or not math.isfinite(t):
            continue
        slack = rounding_slack(program, lambda p: [(maybe_value(p, point) or (math.nan,))[0]],
                               literals)[0]
        if abs(got[0] - t) > slack + 1e-9 * abs(t):
            return None
        agreed += 1
    return agreed


def grade_second(text, at, answer, wrt, of, context) -> Graded:
    import sympy as S
    from ..implicit import _sides_sympy, implicit_second
    from ...symbolic.realforms import as_real, symbol
    from ..exactinput import read_sympy
    result = implicit_second(text, wrt, of, None)
    f = result.first
    X, Y = symbol(f.x), symbol(f.y)
    formula = _answer_text(answer, f.x, f.y)
    try:
        mine, names, _ = read_sympy(formula, (f.x, f.y), real_roots=False)
    except GradcliError as exc:
        exc.message = f"the answer for d²{f.y}/d{f.x}² does not parse: {exc.message}"
        raise
    stray = [n for n in names if n not in (f.x, f.y)]
    if stray:
        raise UsageError(f"the answer for d²{f.y}/d{f.x}² names {', '.join(stray)}, which "
                         f"is not in the equation", hint=f"write it in {f.x} and {f.y}")
    a = Answer("implicit", f.y, answer.strip(), key=f"d²{f.y}/d{f.x}²")
    from ...closedtext import printed_text
    a.expected = a.correct = printed_text(result.formula)
    F = _sides_sympy(text, (f.x, f.y))
    truth = result.raw
    if at:
        point = {X: S.nsimplify(at[f.x], rational=True), Y: S.nsimplify(at[f.y], rational=True)}
        off = as_real(F).subs(point).evalf(30)
        if abs(complex(off)) > 1e-9:
            raise UsageError(f"the point {where_text(at)} is not on the curve: the two sides "
                             f"differ by {float(off):.6g} there",
                             hint="give a point of the curve with --at")
        if as_real(S.diff(F, Y)).subs(point).evalf(30) == 0:
            raise DomainError(f"∂F/∂{f.y} is 0 at {where_text(at)}, so d²{f.y}/d{f.x}² is "
                              "undefined there")
        if not names:
            expected = as_real(truth).subs(point)
            a.expected = printed_text(S.radsimp(S.cancel(expected)))
            value = float(as_real(mine).evalf(30))
            a.computed = value
            graded = grade_number(formula.strip(), value, float(expected)) \
                if context.digits_rule else None
            if graded is not None:
                a.ok, a.digits, a.rounded, a.reason = (graded["ok"], graded["digits"],
                                                       graded["rounded"], graded["reason"])
            else:
                a.ok = abs(value - float(expected)) <= context.atol + max(
                    context.rtol, FORMULA_RTOL_FLOOR) * abs(float(expected))
            if not a.ok:
                a.reason = a.reason or (f"at {where_text(at)} d²{f.y}/d{f.x}² is "
                                        f"{a.expected}, not {short(value)}")
                _name(a, as_real(mine).subs(point), expected,
                      as_real(S.cancel(-S.diff(F, X) / S.diff(F, Y))).subs(point), f)
            return Graded([a], list(result.warnings), read_as=f.read_as, at=dict(at))
    diff_num = S.fraction(S.cancel(S.together(mine - truth)))[0]
    if S.expand(diff_num) == 0:
        a.ok, a.note = True, "equal to the implicit second derivative identically"
        return Graded([a], list(result.warnings), read_as=f.read_as, at={})
    polynomial = F.is_polynomial(X, Y) and diff_num.is_polynomial(X, Y)
    if polynomial:
        _, rest = S.reduced(S.expand(diff_num), [S.expand(F)], X, Y)
        if rest == 0:
            a.ok = True
            a.note = "equal on the curve (the difference is a multiple of the curve's equation)"
            return Graded([a], list(result.warnings), read_as=f.read_as, at={})
    points = _curve_points(as_real(F), X, Y, (text, answer))
    if context.digits_rule:
        rounded = _rounded_agreement(formula, (f.x, f.y), points, as_real(truth), X, Y)
        if rounded is not None and rounded >= 3:
            a.ok, a.points = True, rounded
            a.note = (f"right to the digits given: within the rounding of its decimals of "
                      f"d²{f.y}/d{f.x}² at {rounded} points of the curve")
            return Graded([a], list(result.warnings), read_as=f.read_as, at={})
    mine_f = S.lambdify((X, Y), as_real(mine), modules="math")
    truth_f = S.lambdify((X, Y), as_real(truth), modules="math")
    rows = []
    for px, py in points:
        try:
            s, t = float(mine_f(px, py)), float(truth_f(px, py))
        except (ArithmeticError, ValueError, TypeError):
            continue
        if math.isfinite(s) and math.isfinite(t):
            rows.append((px, py, s, t))
    irreducible = polynomial and len(S.factor_list(F)[1]) == 1 \
        and S.factor_list(F)[1][0][1] == 1
    agree = [abs(s - t) <= 1e-9 * max(abs(s), abs(t), 1e-300) for _, _, s, t in rows]
    if len(rows) >= 3 and all(agree) and not irreducible:
        a.ok, a.points = True, len(rows)
        a.note = f"equal to d²{f.y}/d{f.x}² at {len(rows)} points of the curve"
        return Graded([a], list(result.warnings), read_as=f.read_as, at={})
    shown = next((r for r, ok in zip(rows, agree) if not ok), rows[0] if rows else None)
    if shown is None:
        a.reason = "no point of the curve was found where both are defined"
        return Graded([a], list(result.warnings), read_as=f.read_as, at={})
    px, py, s, t = shown
    a.counterexample = {"at": {f.x: px, f.y: py}, "yours": s, "correct": t}
    a.reason = (f"at {f.x} = {short(px)}, {f.y} = {short(py)} (on the curve) your answer "
                f"gives {short(s)}, but d²{f.y}/d{f.x}² is {short(t)}")
    first = S.cancel(-S.diff(F, X) / S.diff(F, Y))
    _name(a, as_real(mine).subs({X: px, Y: py}), t, as_real(first).subs({X: px, Y: py}), f)
    return Graded([a], list(result.warnings), read_as=f.read_as, at={})


def _name(a, yours, correct, first, f) -> None:
    """The usual mistakes, from the values at one point of the curve."""
    yours, correct, first = (float(v) for v in (yours, correct, first))

    def same(u, v):
        return abs(u - v) <= 1e-9 * max(abs(u), abs(v), 1e-300)
    if correct != 0 and same(yours, -correct):
        a.mistake, a.note = "sign", "the sign is wrong"
    elif same(yours, first) and not same(first, correct):
        a.mistake = "first-derivative"
        a.note = (f"this is d{f.y}/d{f.x} = {f.formula}; differentiate it once more, "
                  f"with d{f.y}/d{f.x} put back in")
