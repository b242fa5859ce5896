"""Grading a tangent line or plane (`check --tangent`).

Under the digits rule the answer is graded by exact algebra first
(tangentproof.py: degree 1, height and slopes each on its own, each rounded
decimal matched to what it stands for); what follows is the sampling that
decides where SymPy cannot read the question or the answer, or where
--rtol/--atol were given. A tangent is a formula: it must be the linearisation identically. Being linear,
it is fixed by its value at the point and its slopes, read off the answer at
the point and one step along each axis; at PROBES more points (the same on
every run) it must be a plane (else `not-linear`). Then: `not-centred` (the
slopes multiply x, not x - a), `tangent-value`, `slopes-swapped`,
`tangent-slope`. The correct tangent is the tangent task's own result: its
value and gradient at the point, never its printed equation read back.
"""
from __future__ import annotations

import math

from ...errors import UsageError
from ..evaluation import evaluate
from ...inputs import inputs_of
from ...language.expr import Apply, Program, Statement
from ..tangent import tangent as tangent_of
from .formula import parse_answer
from .probes import rounded_literals, rounding_slack
from .shared import PROBES, Graded, close_to, maybe_value, names_a_function_of, random_step, \
    scalar_point, seeded_rng, split_sides, where_text
from .tangentnames import name_mistake
from .tangentproof import exact_tangent
from .verdict import FORMULA_RTOL_FLOOR, Answer, num

OPTION = "tangent"


def prepare(question, given, context):
    """(the tangent task's result, the student's plane, the answer as typed); for a level
    surface F = k (no program of its own), surfacetangent.py's."""
    if question.program is None:
        from .surfacetangent import prepare as prepare_surface
        return ("surface", prepare_surface(question, given, context))
    point = scalar_point(question.at, question.variables, "--tangent")
    t = tangent_of(question.text, point, evaluate=evaluate)
    answer = given["tangent"]
    return t, _prepare_tangent(answer, question.program, question.variables, t.lhs), answer


def grade(question, prepared, context) -> Graded:
    if prepared[0] == "surface":
        from .surfacetangent import grade as grade_surface
        return grade_surface(question, prepared[1], context)
    t, plane, answer = prepared
    graded = None
    if context.digits_rule:
        graded = exact_tangent(question, plane, answer, t, context)
    if graded is None:
        graded = _grade_tangent(question.text, answer, plane, t, context.rtol, context.atol,
                                context.digits_rule)
        graded.decided_by = "sampling"
    return Graded([graded], list(t.warnings))


class _Plane:
    """The student's tangent as a function of the inputs: z = RHS, or solved from G = 0."""

    def __init__(self, explicit: Program | None, implicit: Program | None, dep: str,
                 literals=(), sides=()):
        self.explicit, self.implicit, self.dep = explicit, implicit, dep
        self.literals = list(literals)  # its rounded decimals, for the digits rule
        self.sides = tuple(sides)  # the programs as read, each with its own source

    def moved(self, program: Program) -> "_Plane":
        """The same kind of plane from another program (a rounded decimal moved)."""
        if self.explicit is not None:
            return _Plane(program, None, self.dep)
        return _Plane(None, program, self.dep)

    @property
    def program(self) -> Program:
        return self.explicit if self.explicit is not None else self.implicit

    def at(self, point):
        """(z, scale) at the point, or None where the answer is undefined."""
        if self.explicit is not None:
            return maybe_value(self.explicit, point)
        g = [maybe_value(self.implicit, {**point, self.dep: float(z)}) for z in (0, 1, 2)]
        if any(v is None for v in g):
            return None
        (g0, m0), (g1, m1), (g2, m2) = g
        scale = max(m0, m1, m2, abs(g0), abs(g1), abs(g2))
        if abs(g2 - 2 * g1 + g0) > 1e-9 * scale + 1e-12:
            raise UsageError(f"the answer for the tangent is not solved for {self.dep}, and "
                             f"{self.dep} appears in it other than linearly",
                             hint=f"write it as {self.dep} = ... (or give the right-hand "
                                  "side alone)")
        c = g1 - g0
        if c == 0:
            return None
        return -g0 / c, scale


def _prepare_tangent(answer: str, program, variables, dep: str) -> _Plane:
    what = "the tangent"
    example = f"{dep} = 3 + 4*(x - 1) + 2*(y - 1)" if len(variables) > 1 \
        else f"{dep} = 2 + 0.25*({variables[0] if variables else 'x'} - 4)"
    left, right = split_sides(answer, what, example)
    if left is not None and (left == dep or names_a_function_of(left, variables)):
        left = None
    if left is None:
        rhs = parse_answer(right, program, variables, what)
        if dep in inputs_of(rhs) and dep not in variables:
            raise UsageError(f"the answer for the tangent has {dep} on the right-hand side",
                             source=answer, hint=f"write it as {dep} = ... with {dep} on the left")
        return _Plane(rhs, None, dep, rounded_literals(rhs), (rhs,))
    allowed = list(variables) + ([dep] if dep not in variables else [])
    sides = [parse_answer(part, program, allowed, what) for part in (left, right)]
    if not any(dep in inputs_of(s) for s in sides):
        raise UsageError(f"the answer for the tangent is an equation without {dep}, the "
                         "graph's own coordinate", source=answer,
                         hint=f"write it as {dep} = ..., for example {example}")
    f = Apply("sub", (sides[0].result, sides[1].result))
    named = tuple(s for s in program.statements if s.name is not None)
    return _Plane(None, Program(named + (Statement(None, f),), answer), dep,
                  rounded_literals(sides[0]) + rounded_literals(sides[1]), sides)


def _plane_quantities(plane, point, names) -> list:
    """The plane's height at the point and its slope along each input."""
    base = plane.at(point)
    if base is None:
        return [math.nan] * (1 + len(names))
    out = [base[0]]
    for n in names:
        step = plane.at({**point, n: point[n] + 1.0})
        out.append(math.nan if step is None else step[0] - base[0])
    return out


def _plane_slack(plane, point, names) -> list:
    """How far rounding the typed decimals may move the height and each slope."""
    if not plane.literals:
        return [0.0] * (1 + len(names))
    return rounding_slack(plane.program,
                          lambda p: _plane_quantities(plane.moved(p), point, names),
                          plane.literals)


def _grade_tangent(text, answer, plane, t, rtol, atol, digits_rule=False) -> Answer:
    names = list(t.at)
    a = Answer("tangent", "tangent", answer.strip(), key="tangent", expected=t.equation,
               expected_to=t.equation_to)
    a.correct = t.equation
    point = {n: float(v) for n, v in t.at.items()}
    fa = float(t.value)
    grad = [float(t.gradient[n]) for n in names]
    base = plane.at(point)
    where = where_text(point)
    if base is None:
        a.reason = f"your answer is undefined at the point {where}, where f = {num(fa)}"
        a.mistake = "tangent-value"
        return a
    z0, m0 = base
    slopes = []
    for n in names:
        step = plane.at({**point, n: point[n] + 1.0})
        if step is None:
            a.reason = f"your answer is undefined at {where_text({**point, n: point[n] + 1})}: " \
                       "a tangent is defined everywhere"
            a.mistake = "not-linear"
            return a
        slopes.append(step[0] - z0)
    rng = seeded_rng(text, answer)
    for _ in range(PROBES):
        p = {n: float(f"{point[n] + random_step(rng):.3g}") for n in names}
        got = plane.at(p)
        linear = z0 + sum(s * (p[n] - point[n]) for s, n in zip(slopes, names))
        terms = [abs(s * (p[n] - point[n])) for s, n in zip(slopes, names)]
        if got is None or not close_to(got[0], linear, 1e-9, atol, got[1], m0, *terms):
            a.mistake = "not-linear"
            a.counterexample = {"at": p, "yours": None if got is None else got[0],
                                "correct": fa + sum(g * (p[n] - point[n])
                                                    for g, n in zip(grad, names))}
            what = "line" if len(names) == 1 else "plane"
            a.reason = (f"your answer is not linear in {', '.join(names)}: a tangent {what} "
                        f"is; at {where_text(p)} it is "
                        + ("undefined" if got is None else num(got[0]))
                        + f", off the {what} through the point with the same slopes")
            return a
    tol = max(rtol, FORMULA_RTOL_FLOOR)
    # Scales from the question (f and its gradient at the point), never from numbers
    # inside the answer; rounded decimals may move each quantity by their half unit.
    q_scale = max([abs(fa), *map(abs, grad)])
    slack = _plane_slack(plane, point, names) if digits_rule else [0.0] * (1 + len(names))
    # Where a quantity carries rounded decimals, their digits decide, not --rtol's default.
    value_ok = close_to(z0, fa, FORMULA_RTOL_FLOOR if slack[0] else tol, atol + slack[0], q_scale)
    slope_ok = [close_to(s, g, FORMULA_RTOL_FLOOR if sl else tol, atol + sl, q_scale)
                for s, g, sl in zip(slopes, grad, slack[1:])]
    a.computed = None
    if value_ok and all(slope_ok):
        a.ok = True
        return a
    return name_mistake(a, plane.dep, point, names, fa, grad, z0, slopes, value_ok, slope_ok,
                        tol, atol, q_scale)
