"""Critical points of f = g(u), u a polynomial: `x y + e^(-x y)` is g(u) = u + e^(-u), u = x y.

Then ∇f = g'(u) ∇u, which is zero exactly where g'(u) = 0 or ∇u = 0. The first
is an equation in one unknown: each real root c (solved exactly over the range
u takes on the box, an interval bound) makes the level set u = c a set of
critical points, one curve for each factor of u − c; the second is u's own
critical points, solved by critical_algebra (Gröbner bases). Both are exact and
complete, so the list is a proof, where grid search would report a cloud of
points along a curve. g must be differentiable on u's whole range (continuous
g'), else None: the caller falls back as before. Imports SymPy.
"""
from __future__ import annotations

import sympy as S

from .critical_algebra import AlgebraSolution, solve_gradient

MAX_ROOTS = 50  # level sets u = c past this are no textbook answer


def inner_polynomial(f, syms):
    """(u, g(U), U) with f = g(u), u a non-constant polynomial in every one of syms
    not itself f, or None."""
    U = S.Dummy("u", real=True)
    seen = set()
    candidates = []
    for node in S.preorder_traversal(f):
        if node in seen or node == f or not isinstance(node, (S.Add, S.Mul, S.Pow)):
            continue
        seen.add(node)
        if node.free_symbols == set(syms) and node.is_polynomial(*syms):
            candidates.append(node)
    # the widest inner polynomial first, as written with a positive lead (x^2 + y^2, not
    # -x^2 - y^2 from inside e^(-(x^2 + y^2)))
    candidates = [-u if S.Poly(u, *syms).LC() < 0 else u for u in candidates]
    for u in sorted(dict.fromkeys(candidates), key=S.count_ops, reverse=True):
        g = f.subs(u, U)
        if not (g.free_symbols & set(syms)) and g.has(U):
            return u, g, U
    return None


def solve_composite(f, syms, box) -> tuple | None:
    """(AlgebraSolution, u, {level set: its kind}) for f = g(u) over the box, or None where
    f is not such a composite this module proves complete."""
    found = inner_polynomial(f, syms)
    if found is None:
        return None
    u, g, U = found
    span = _range(u, syms, box)
    if span is None:
        return None
    dg = S.diff(g, U)
    from sympy.calculus.util import continuous_domain
    try:
        if continuous_domain(dg, U, span) != span or continuous_domain(g, U, span) != span:
            return None
        roots = S.solveset(dg, U, span)
    except (NotImplementedError, ValueError, TypeError):
        return None
    if not isinstance(roots, S.FiniteSet) or len(roots) > MAX_ROOTS:
        return None
    sets, kinds = [], {}
    for c in roots:
        # over the rationals u - c splits into its curves (x y = 0: x = 0 and y = 0)
        pieces = [fac for fac, _ in S.factor_list(u - c, *syms)[1]
                  if S.Poly(fac, *syms).total_degree() > 0] if c.is_Rational else [u - c]
        kind = _kind_of_level(dg, U, c)
        for h in pieces:
            sets.append(h)
            kinds[h] = kind
    try:
        inner = solve_gradient(u, syms, box)
    except (S.PolynomialError, S.GeneratorsNeeded, NotImplementedError, TypeError,
            ValueError):
        return None
    if inner is None:
        return None
    points = list(inner.points)
    sets += [h for h in inner.sets if not any(S.simplify(h - k) == 0 for k in sets)]
    on_sets = [S.Poly(h, *syms) for h in sets]
    points = [c for c in points
              if not any(p.eval(dict(zip(syms, c))) == 0 for p in on_sets)]
    return AlgebraSolution(points, sets), u, kinds


def _kind_of_level(dg, U, c, most: int = 8) -> str | None:
    """What f does across the level set u = c, where ∇u ≠ 0: what g does at c, by its
    first derivative not zero there (even order: a minimum or maximum, not strict along
    the set; odd: neither). None where no derivative up to `most` settles it."""
    d = dg
    for order in range(2, most + 1):
        d = S.diff(d, U)
        v = S.simplify(d.subs(U, c))
        if v == 0:
            continue
        if not v.is_real:
            return None
        if order % 2:
            return "neither (not an extremum)"
        return "minimum (not strict)" if v > 0 else "maximum (not strict)"
    return None


def _range(u, syms, box):
    """An interval holding every value of u on the box (interval arithmetic), or the
    real line where a side is infinite."""
    ends = [box[str(s)] for s in syms]
    if not all(abs(v) != float("inf") for lo_hi in ends for v in lo_hi):
        return S.Reals
    bounds = {s: S.AccumBounds(S.Rational(repr(lo)), S.Rational(repr(hi)))
              for s, (lo, hi) in zip(syms, ends)}
    try:
        b = u.xreplace(bounds)
    except (TypeError, ValueError):
        return None
    if isinstance(b, S.AccumBounds):
        return S.Interval(b.min, b.max)
    return S.FiniteSet(b) if b.is_number else None
