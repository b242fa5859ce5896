"""Naming what is wrong in a tangent line or plane, from its height and slopes.

Shared by the exact grading (tangentproof.py) and the sampling one (tangent.py):
`not-centred` (the slopes multiply x, not x - a), `tangent-value`,
`slopes-swapped`, `tangent-slope`.
"""
from __future__ import annotations

from .shared import close_to, shifted_text, where_text
from .verdict import Answer, num, shown, told_apart


def name_mistake(a, dep, point, names, fa, grad, z0, slopes, value_ok, slope_ok, tol, atol,
                 q_scale) -> Answer:
    """The mistake of a tangent whose height at the point or some slope is wrong."""
    m0 = q_scale
    problems = []
    f_at = f"f({', '.join(num(point[n]) for n in names)})"
    if all(slope_ok) and any(g * point[n] != 0 for g, n in zip(grad, names)):
        shifted = fa + sum(g * point[n] for g, n in zip(grad, names))
        if close_to(z0, shifted, tol, atol, q_scale,
                    *(abs(g * point[n]) for g, n in zip(grad, names))):
            n = next(n for g, n in zip(grad, names) if g * point[n] != 0)
            g = grad[names.index(n)]
            a.mistake, a.mistake_detail = "not-centred", n
            yours, right = told_apart(z0, fa)
            a.reason = (f"the slopes are right, but they multiply {n} instead of "
                        f"{shifted_text(n, point[n])}: write "
                        f"{shown(g)}*({shifted_text(n, point[n])}), "
                        f"not {shown(g)}*{n} (at the point your {dep} is {yours}, "
                        f"but {f_at} = {right})")
            return a
    if not value_ok:
        a.mistake = "tangent-value"
        yours, right = told_apart(z0, fa)
        problems.append(f"at the point {where_text(point)} your {dep} is {yours}, but "
                        f"{f_at} = {right}: a tangent passes through the point of tangency")
    if len(names) == 2 and not any(slope_ok) and grad[0] != grad[1] \
            and all(close_to(s, g, tol, atol, m0) for s, g in zip(slopes, reversed(grad))):
        a.mistake = a.mistake or "slopes-swapped"
        problems.append(f"the slopes are swapped: the slope in {names[0]} is ∂f/∂{names[0]} = "
                        f"{shown(grad[0])} and in {names[1]} ∂f/∂{names[1]} = {shown(grad[1])}")
    else:
        for n, s, g, ok in zip(names, slopes, grad, slope_ok):
            if ok:
                continue
            if a.mistake is None:
                a.mistake, a.mistake_detail = "tangent-slope", n
            which = f"∂f/∂{n}" if len(names) > 1 else "f'"
            yours, right = told_apart(s, g)
            problems.append(f"the slope in {n} is {yours}, but {which}"
                            f"({', '.join(num(point[m]) for m in names)}) = {right}")
    a.reason = "; ".join(problems)
    return a
