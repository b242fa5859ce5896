"""Grading a level surface's tangent plane (`check "x^2 + y^2 + z^2 = 14" --at x=1,y=2,z=3
--tangent "2(x - 1) + 4(y - 2) + 6(z - 3) = 0"`).

The answer is any equation of a plane, read exactly (SymPy): the point-normal
form, the expanded one (`x + 2y + 3z = 14`), a multiple, or solved for a
coordinate (`z = (14 - x - 2y)/3`). Written as G(X) = 0, it is a polynomial of
degree 1 whose coefficients N are its normal. It is right when N is a non-zero
multiple of ∇F(a) and G(a) = 0, both decided by algebra: the ratios N_i/N_k and
G(a)/N_k against ∇F's own, k the largest component of ∇F(a). A rounded decimal
in the answer stands for one such number and must be its correct rounding (the
digits rule, digits.judge), never a tolerance.

Named mistakes: `not-a-plane` (a term of degree 2, or no variable at all),
`normal-line-for-plane` (a line given), `normal-sign` (one component of ∇F
with the wrong sign), `missing-term` (a component of ∇F left out),
`gradient-at-wrong-point` (∇F at the point with its coordinates swapped),
`point-as-normal` (the point's coordinates used as the normal), `plane-normal`
(any other normal), `not-centred` (∇F(a)·X = 0, through the origin instead of
the point), `plane-point` (the right normal, the plane misses the point).
"""
from __future__ import annotations

from itertools import permutations

import sympy as S

from ...errors import UsageError
from ..implicit import top_equals
from .digits import judge, shown_places, with_unknowns
from .shared import Graded
from .surfacenormal import read_line, surface_of, vector_groups
from .verdict import Answer

EXAMPLE = '--tangent "2(x - 1) + 4(y - 2) + 6(z - 3) = 0"'


def is_graph_statement(text: str, at) -> bool:
    """`z = x^2 + y^2` with --at x=1,y=2: a graph z = f(x, y) defined by a statement, whose
    tangent is graded as a function's (tangent.py), not as a level surface's."""
    marks = top_equals(text)
    if len(marks) != 1:
        return False
    left = text[:marks[0]].strip()
    return left.isidentifier() and left not in at


def prepare(question, given, context):
    """(the surface, the answer as typed, the plane read or a line's reason)."""
    s = surface_of(question, given)
    answer = given["tangent"].strip()
    marks = top_equals(answer)
    if len(marks) != 1 or "," in answer:
        line = None
        try:
            line = read_line(answer, s.names)
        except (UsageError, ValueError, TypeError):
            pass
        if line is not None and not isinstance(line, str):
            return s, answer, "line"
        vector_groups(answer)   # an unclosed bracket is said as such
        raise UsageError("a tangent plane is one equation in " + ", ".join(s.names),
                         source=answer, hint=f"for example {EXAMPLE}")
    sides = [answer[:marks[0]].strip(), answer[marks[0] + 1:].strip()]
    if not all(sides):
        raise UsageError("a side of the tangent plane's equation is empty", source=answer,
                         hint=f"for example {EXAMPLE}")
    from ...inputs import inputs_of
    from ...reading import read_program
    programs = [read_program(side, s.names) for side in sides]
    extra = sorted({n for p in programs for n in inputs_of(p)} - set(s.names))
    if extra:
        raise UsageError(f"the tangent plane is an equation in {', '.join(s.names)}; this one "
                         f"has {', '.join(extra)}", source=answer, hint=f"for example {EXAMPLE}")
    shows = shown_places(_literals(programs))
    point = dict(zip(s.names, s.point))
    read = [with_unknowns(p, point, shows, prefix=f"_p{i}") for i, p in enumerate(programs)]
    g = S.expand(read[0][0] - read[1][0])
    return s, answer, (g, read[0][1] + read[1][1])


def _literals(programs) -> list:
    from ...language.expr import Num, postorder
    out = []
    for p in programs:
        for node in postorder(p.statements[-1].expr):
            if type(node) is Num and node.span is not None:
                out.append((p.source or "")[node.span[0]:node.span[1]])
    return out


def grade(question, prepared, context) -> Graded:
    s, answer, plane = prepared
    a = Answer("tangent", "tangent", answer, key="tangent plane", expected=s.plane)
    a.correct, a.computed, a.decided_by = f"{s.plane}, or {s.plane_expanded}", None, "proof"
    if plane == "line":
        a.mistake = "normal-line-for-plane"
        a.reason = ("this is a line (the normal line?); the tangent plane is one equation: "
                    f"{s.plane}")
        return Graded([a], list(s.warnings))
    from ...symbolic.realforms import symbol
    g, unknowns = plane
    xs = [symbol(n) for n in s.names]
    typed = {u: v for u, _, v in unknowns}
    try:
        poly = S.Poly(g, *xs)
    except S.PolynomialError:
        poly = None
    if poly is None or any(sum(m) > 1 and S.simplify(c.xreplace(typed)) != 0
                           for m, c in poly.terms()):
        a.mistake = "not-a-plane"
        a.reason = (f"your answer is not linear in {', '.join(s.names)}, so it is not a plane; "
                    f"the tangent plane is {s.plane}")
        return Graded([a], list(s.warnings))
    normal = [poly.coeff_monomial(x) for x in xs]
    at_point = g.xreplace(dict(zip(xs, s.point)))
    if all(S.simplify(c.xreplace(typed)) == 0 for c in normal):
        a.mistake = "not-a-plane"
        a.reason = f"your answer has no {', '.join(s.names)} in it: it is not a plane"
        return Graded([a], list(s.warnings))
    grad = list(s.direction)
    k = max(range(len(grad)), key=lambda i: abs(S.N(grad[i], 30)))
    others = [i for i in range(len(grad)) if i != k]
    if S.simplify(normal[k].xreplace(typed)) == 0:
        oks, notes = [False] * len(others) + [False], []
    else:
        judged = judge([normal[i] / normal[k] for i in others] + [at_point / normal[k]],
                       [grad[i] / grad[k] for i in others] + [S.Integer(0)], unknowns)
        oks, notes, a.decided_by = judged.oks, judged.notes, judged.decided_by
    if all(oks):
        a.ok = True
        return Graded([a], list(s.warnings))
    n = [S.nsimplify(c.xreplace(typed)) for c in normal]
    if not all(oks[:-1]):
        _name_normal(a, s, n)
    else:
        through_origin = S.simplify(g.xreplace(typed).xreplace({x: 0 for x in xs})) == 0
        a.mistake = "not-centred" if through_origin else "plane-point"
        a.reason = (f"the normal is right, but the plane misses the point {_tuple(s.point)}"
                    + (": ∇F(a)·X = 0 passes through the origin; the plane is "
                       "∇F(a)·(X − a) = 0" if through_origin else
                       f": there left − right = {_book(S.nsimplify(at_point.xreplace(typed)))}, "
                       "not 0") + f"; the tangent plane is {s.plane_expanded}")
    if notes:
        a.reason += "; " + "; ".join(notes)
    return Graded([a], list(s.warnings))


def _name_normal(a: Answer, s, n) -> None:
    grad, names = list(s.direction), s.names
    shown = "∇F(a) = " + _tuple(grad)
    for j in range(len(grad)):
        if grad[j] != 0 and parallel(n, [-v if i == j else v for i, v in enumerate(grad)]):
            a.mistake, a.mistake_detail = "normal-sign", names[j]
            a.reason = (f"the {names[j]} component of your normal has the wrong sign: "
                        f"the normal is {shown}")
            return
    for j in range(len(grad)):
        if grad[j] != 0 and n[j] == 0 and \
                parallel(n, [S.Integer(0) if i == j else v for i, v in enumerate(grad)]):
            a.mistake, a.mistake_detail = "missing-term", names[j]
            a.reason = (f"the {names[j]} term is missing: ∂F/∂{names[j]} at the point is "
                        f"{_book(grad[j])}, not 0 ({shown})")
            return
    wrong = _gradient_elsewhere(s, n)
    if wrong is not None:
        a.mistake = "gradient-at-wrong-point"
        a.reason = (f"your normal is ∇F at {_tuple(wrong)}, not at the point "
                    f"{_tuple(s.point)}: {shown}")
        return
    if any(v != 0 for v in s.point) and parallel(n, s.point):
        a.mistake = "point-as-normal"
        a.reason = f"your normal is the point's own coordinates; the normal is {shown}"
        return
    a.mistake = "plane-normal"
    a.reason = f"your plane's normal {_tuple(n)} is not a multiple of {shown}"


def _gradient_elsewhere(s, n):
    """The point with its coordinates swapped where ∇F is the student's normal, or None."""
    from ...symbolic.realforms import symbol
    if s.kind != "level":
        return None
    from ..exactinput import read_sympy
    from ..implicit import split_equation
    from ...symbolic.realforms import as_real
    left, right = split_equation(s.expression)
    F = as_real(read_sympy(left)[0] - read_sympy(right)[0])
    xs = [symbol(v) for v in s.names]
    for b in dict.fromkeys(permutations(s.point)):
        if list(b) == list(s.point):
            continue
        try:
            there = [S.simplify(S.diff(F, x).xreplace(dict(zip(xs, b)))) for x in xs]
        except (TypeError, ValueError):
            continue
        if all(v.is_finite for v in there) and not parallel(there, s.direction) \
                and parallel(n, there):
            return list(b)
    return None


def parallel(a, b) -> bool:
    """a is a non-zero multiple of b (b non-zero)."""
    if all(S.simplify(v) == 0 for v in a) or all(S.simplify(v) == 0 for v in b):
        return False
    return all(S.simplify(a[i] * b[j] - a[j] * b[i]) == 0
               for i in range(len(a)) for j in range(i + 1, len(a)))


def _book(v) -> str:
    from ...closedtext import closed_text
    return closed_text(v)


def _tuple(values) -> str:
    return "(" + ", ".join(_book(v) for v in values) + ")"
