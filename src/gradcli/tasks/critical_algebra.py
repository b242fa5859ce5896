"""Every critical point of a polynomial or rational function, exactly, by elimination.

The numerators of ∇f are polynomials with rational coefficients. Their
greatest common divisor h, where it is not a constant, is a curve (a surface,
...) on which every point is critical: it is reported as a set, never as
points. The rest of the system, the numerators divided by h, is solved by
Gröbner bases: when the basis is zero-dimensional (the solutions are finitely
many), a lexicographic basis with the variable v last holds a polynomial in v
alone whose real roots include v's coordinate of every real solution. The
real roots of those eliminants, found exactly (SymPy's real_roots: rationals,
radicals, or CRootOf isolated by exact arithmetic), give a finite grid of
candidates that holds every critical point; each candidate is kept where the
numerators vanish (to 60 digits, far below any gap between the algebraic
numbers involved) and no denominator does. That is a proof that the list is
complete. Imports SymPy: loaded only on the exact path.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import sympy as S

# Past this many candidate combinations the system is not a textbook one: the
# caller falls back to the interval search rather than spend seconds here.
MAX_CANDIDATES = 4000
MAX_DEGREE = 40
DIGITS = 60


@dataclass
class AlgebraSolution:
    """The critical points (tuples of exact SymPy numbers) and the sets of them."""

    points: list
    sets: list = field(default_factory=list)    # SymPy polynomials h: every point of h = 0


def _numerators(f, syms):
    """(numerators, denominators) of ∇f as Polys over QQ, or None when f is not rational
    with rational coefficients."""
    nums, dens = [], []
    for s in syms:
        num, den = S.fraction(S.together(S.diff(f, s)))
        if not (num.is_polynomial(*syms) and den.is_polynomial(*syms)):
            return None
        try:
            pn, pd = S.Poly(num, *syms), S.Poly(den, *syms)
        except S.PolynomialError:
            return None
        if not (pn.domain.is_QQ or pn.domain.is_ZZ) or not (pd.domain.is_QQ or pd.domain.is_ZZ):
            return None
        if pn.total_degree() > MAX_DEGREE or pd.total_degree() > MAX_DEGREE:
            return None
        nums.append(pn)
        dens.append(pd)
    return nums, dens


def _inside(value, lo, hi) -> bool:
    """lo ≤ value ≤ hi, with the relative slack the grid search also allows at an edge."""
    v = float(S.N(value, 30))
    return lo - 1e-12 * max(1, abs(lo)) <= v <= hi + 1e-12 * max(1, abs(hi))


def _real_roots(q, v, lo, hi) -> list:
    roots = []
    for r in set(S.Poly(q, v).real_roots()):
        if _inside(r, lo, hi):
            roots.append(r)
    return sorted(roots, key=lambda r: float(S.N(r, 30)))


def _vanishes(poly, point) -> bool:
    value = poly.as_expr().evalf(DIGITS, subs=dict(point))
    size = sum(abs(c) for c in poly.coeffs()) * max(
        [1] + [abs(float(S.N(v, 20))) for v in point.values()]) ** poly.total_degree()
    return abs(value) <= S.Float(10) ** (20 - DIGITS) * size


def solve_gradient(f, syms, box) -> AlgebraSolution | None:
    """The exact critical points of f inside `box` (name -> (lo, hi), infinite ends allowed)
    and the sets of critical points, or None when f is not a rational function this
    method proves complete."""
    if f.has(S.Abs, S.sign, S.Piecewise, S.floor, S.ceiling, S.Heaviside):
        return None
    found = _numerators(f, syms)
    if found is None:
        return None
    nums, dens = found
    if all(p.is_zero for p in nums):
        return None     # f is constant: every point is critical
    h = None
    for p in nums:
        if not p.is_zero:
            h = p if h is None else h.gcd(p)
    sets = []
    # In one variable the common factor's zeros are points, solved below with the rest.
    if h.total_degree() > 0 and len(syms) > 1:
        sets = [fac.as_expr() for fac, _ in h.factor_list()[1] if fac.total_degree() > 0]
        nums = [p.quo(h) if not p.is_zero else p for p in nums]
    rest = [p.as_expr() for p in nums if not p.is_zero]
    found = real_solutions(rest, syms, box)
    if found is None:
        return None
    points = [c for c in found if not any(_vanishes(d, dict(zip(syms, c))) for d in dens)]
    # A point of a set is reported with the set, not again as a point.
    on_sets = [S.Poly(h_, *syms) for h_ in sets]
    points = [c for c in points if not any(_vanishes(p, dict(zip(syms, c))) for p in on_sets)]
    return AlgebraSolution(points, sets)


def real_solutions(equations, syms, box) -> list | None:
    """Every real solution (a tuple of exact numbers) of the polynomial equations, with
    rational coefficients, inside `box`; None when the solutions are not finitely many (or
    past MAX_CANDIDATES combinations). Each candidate coordinate is a real root of an
    eliminant of a lexicographic Gröbner basis, and each combination is kept where every
    equation vanishes: the list is complete."""
    points = []
    basis = S.groebner(equations, *syms, order="lex")
    if list(basis.exprs) == [1]:
        return points
    if not basis.is_zero_dimensional:
        return None
    coordinates = []
    for i, v in enumerate(syms):
        order = [s for s in syms if s is not v] + [v]
        lex = basis if i == len(syms) - 1 else S.groebner(equations, *order, order="lex")
        eliminant = lex.exprs[-1]
        if eliminant.free_symbols - {v}:
            return None
        lo, hi = box[str(v)]
        coordinates.append(_real_roots(eliminant, v, lo, hi))
    if _count(coordinates) > MAX_CANDIDATES:
        return None
    polys = [S.Poly(p, *syms) for p in equations]
    for combo in itertools.product(*coordinates):
        if all(_vanishes(p, dict(zip(syms, combo))) for p in polys):
            points.append(combo)
    return points


def _count(coordinates) -> int:
    n = 1
    for c in coordinates:
        n *= len(c)
    return n
