"""Whether f attains its max and min on an unbounded constraint set (Lagrange, `extrema
--subject-to`), and why not when it does not.

A curve (two variables and one constraint, or three and two) is solved for all
variables but one, p, branch by branch; the ends of the curve are p -> ±inf and
the poles of a branch. The limits of f at the ends decide: a side f runs off
to ±inf on has no extremum; a finite limit beyond every candidate's value is
approached but never reached; otherwise the best candidate is the extremum
(a continuous f on a closed curve that is not beaten at the ends attains it).

A surface (three variables, one constraint that is linear in some variable)
is that variable solved and substituted: f becomes a polynomial P(u, w) on the
whole plane, and the leading part of P decides: positive in some direction,
f grows without bound; negative in every direction, P has a maximum, found
among the candidates. Anything else is refused rather than guessed.
"""
from __future__ import annotations

import math

from .onevar import NotExact
from .regions import Side, _eq


def decide_sides(result, f, region, symbols) -> None:
    """Set result.max / result.min to a Side with `why` where the extremum is not attained."""
    gs = [p.g for p in region.pieces]
    if len(symbols) - len(gs) == 1:
        ends = _curve_ends(f, gs, symbols)
        for key, sign in (("max", 1), ("min", -1)):
            _decide_curve(result, key, sign, ends)
    else:
        _decide_surface(result, f, gs, symbols)


def _curve_ends(f, gs, symbols):
    """[(limit of f, description of the end)] at every end of the curve at infinity."""
    import sympy as S
    for p in reversed(symbols):
        others = [s for s in symbols if s != p]
        try:
            branches = S.solve(gs, others, dict=True)
        except (NotImplementedError, ValueError):
            continue
        if not branches or any(set(b) != set(others) or b_free(b) - {p} for b in branches):
            continue
        ends = []
        for b in branches:
            curve = ", ".join(f"{s.name} = {_eq(b[s])}" for s in others)
            F = S.simplify(f.subs(b))
            for end, side in _branch_ends(b, p):
                try:
                    L = S.limit(F, p, end, side) if side else S.limit(F, p, end)
                except Exception as exc:  # SymPy's limit gives up: no guess
                    raise NotExact("SymPy cannot find the limit of f at an end of the "
                                   "constraint set", hint="decide by hand") from exc
                if not (L.is_extended_real and (L.is_finite or L in (S.oo, -S.oo))):
                    raise NotExact("f has no limit at an end of the constraint set; gradcli "
                                   "cannot decide whether its max and min are attained")
                where = (f"{p.name} → {'∞' if end == S.oo else '-∞'}" if end in (S.oo, -S.oo)
                         else f"{p.name} → {_eq(end)}{'⁺' if side == '+' else '⁻'}")
                ends.append((L, f"{where} on {curve}"))
        return ends
    raise NotExact("gradcli cannot parametrise the unbounded constraint set to decide "
                   "whether the max and min are attained")


def b_free(branch) -> set:
    out = set()
    for v in branch.values():
        out |= v.free_symbols
    return out


def _branch_ends(branch, p):
    """(end, direction) pairs: p -> ±inf where the branch is real, and both sides of a pole."""
    import sympy as S
    ends = []
    for end, probe in ((S.oo, 1e7), (-S.oo, -1e7)):
        if _real_at(branch, p, probe):
            ends.append((end, None))
    poles = set()
    for v in branch.values():
        den = S.fraction(S.together(v))[1]
        if den.free_symbols and den.is_polynomial(p):
            poles |= {r for r in S.Poly(den, p).real_roots()}
    for r in poles:
        for side, step in (("+", 1e-9), ("-", -1e-9)):
            if _real_at(branch, p, float(r) + step):
                ends.append((r, side))
    return ends


def _real_at(branch, p, value) -> bool:
    try:
        values = [complex(v.subs(p, value).evalf(30)) for v in branch.values()]
    except (TypeError, ValueError):
        return False
    return all(abs(c.imag) < 1e-12 * (1 + abs(c.real)) and math.isfinite(c.real) for c in values)


def _decide_curve(result, key, sign, ends) -> None:
    import sympy as S
    side = getattr(result, key)
    word = "maximum" if key == "max" else "minimum"
    runaway = [(L, where) for L, where in ends if L == sign * S.oo]
    if runaway:
        L, where = runaway[0]
        setattr(result, key, Side(why=f"f → {'∞' if sign > 0 else '-∞'} as {where}: "
                                      f"no {word} on the constraint set"))
        return
    finite = [(L, where) for L, where in ends if L.is_finite]
    if not finite:
        return
    L, where = max(finite, key=lambda e: sign * float(e[0].evalf(30)))
    if side.value is None or sign * float((L - side.value).evalf(30)) > 1e-25:
        setattr(result, key, Side(why=f"f approaches {_eq(L)} as {where} but never reaches "
                                      f"it: no {word} on the constraint set"))


def _decide_surface(result, f, gs, symbols) -> None:
    import sympy as S
    g = gs[0]
    for v in symbols:
        coeff = S.diff(g, v)
        if S.degree(g, v) == 1 and not coeff.free_symbols:
            rest = [s for s in symbols if s != v]
            P = S.expand(f.subs(v, S.solve(g, v)[0]))
            break
    else:
        raise NotExact("gradcli decides an unbounded constraint surface only when the "
                       "constraint is linear in one variable", hint="decide by hand")
    if not P.is_polynomial(*rest):
        raise NotExact("f is not a polynomial on the constraint surface: gradcli cannot "
                       "decide whether its max and min are attained")
    u, w = rest
    if P.free_symbols == set():
        return
    poly = S.Poly(P, u, w)
    n = poly.total_degree()
    top = S.Add(*[c * u ** a * w ** b for (a, b), c in poly.terms() if a + b == n])
    fn = S.lambdify((u, w), top, "math")
    # the axes and diagonals first: a witness a book would write
    nice = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    samples = [(fn(a, b), f"{a}, {b}") for a, b in nice] + [
        (fn(math.cos(k * math.pi / 360), math.sin(k * math.pi / 360)),
         f"{math.cos(k * math.pi / 360):.3g}, {math.sin(k * math.pi / 360):.3g}")
        for k in range(720)]
    for key, sign in (("max", 1), ("min", -1)):
        word = "maximum" if key == "max" else "minimum"
        hit = next((d for value, d in samples if sign * value > 1e-9), None)
        if hit is not None:
            setattr(result, key, Side(
                why=f"f → {'∞' if sign > 0 else '-∞'} along the constraint as "
                    f"({u.name}, {w.name}) = t({hit}), t → ∞: no {word}"))
        elif not _definite(top, u, w):
            raise NotExact(f"gradcli cannot decide whether f has a {word} on the unbounded "
                           "constraint set (its leading part vanishes in some direction)")


def _definite(top, u, w) -> bool:
    """top(u, w) has no real zero but (0, 0): f -> -sign(top)·∞ uniformly far out."""
    import sympy as S
    if top.subs({u: 0, w: 1}) == 0:
        return False
    s = S.Symbol("s")
    along = S.Poly(top.subs({u: 1, w: s}), s)
    return along.degree() <= 0 or not along.real_roots()
