"""`gradcli extrema EXPR --where "x^2 + y^2 + z^2 <= 1"` (or a box --over x=..,y=..,z=..):
the absolute maximum and minimum of a polynomial f(x, y, z) on a closed, bounded solid.

A solid is inequalities g >= 0 (regionshape.py). On it f's extremes are among
the points where f restricted to some piece of the boundary is critical, the
pieces being the interior (no g active), each face (one g = 0), each edge (two)
and each corner (three), so every such set of active constraints is solved
exactly: the planar ones (g of degree 1) are solved for as many coordinates and
put into f and the others, and what is left is grad F = 0 (nothing curved
active), the Lagrange condition with λ eliminated (every maximal minor of the
matrix of grad F and the curved faces' gradients is 0, which holds at their
singular points too) with the faces' equations, or the equations alone. Each
system is solved by Gröbner bases (critical_algebra.real_solutions: every real
root of each eliminant tried), and each solution is kept where every inequality holds (strictly, for the interior). So the list is complete;
where a system has a whole curve of solutions (f critical along a curve inside a
face) gradcli claims nothing (exit 3), unless f is constant on the whole piece,
which one point of it then stands for (`along`).

Bounded is proven, never sampled: a box is; a solid with a face whose top-degree
part is a negative definite quadratic form (a ball, an ellipsoid) is; a solid of
planes alone is when its recession cone {d : a·d >= 0 for each face} is {0}
(every vertex of that cone cut by the cube |d_i| <= 1 is 0). Others are refused.
Nothing here prints.
"""
from __future__ import annotations

from itertools import combinations

from ..errors import UsageError
from .onevar import NotExact
from .regions import (Point, RegionExtrema, _eq, _inside, _same_point, _solve, _unique,
                      _value, extreme, read_objective)

SOURCES = {0: "interior", 1: "boundary", 2: "boundary", 3: "corner"}


def solid_extrema(text: str, region, over: str | None) -> RegionExtrema:
    """The absolute max and min of `text` on the solid `region` (three variables)."""
    import sympy as S
    f, read, program = read_objective(text, region.names)
    symbols = region.symbols
    objective, monotone = f, None
    if not f.is_polynomial(*symbols):
        from .monotone import polynomial_inside
        monotone = polynomial_inside(f, symbols)
        if monotone is None:
            raise NotExact(
                "extrema on a solid needs f to be a polynomial, or a monotone function of "
                "one (e^p, ln p, sqrt(p), 1/p, atan p): for any other f SymPy's solutions "
                "of the systems may be incomplete, so gradcli claims nothing",
                hint="solve each piece in two variables: put a face's equation into f and "
                     "run gradcli extrema on that face with --where; gradcli critical "
                     "--over x=A:B,y=C:D,z=E:F finds the interior's critical points "
                     "numerically")
        f = monotone[0]   # the candidates are p's; their values are f's (below)
    if not over and not _bounded(region, symbols):
        raise UsageError(f"--where {region.text}: gradcli cannot prove this solid bounded "
                         "(a box, a ball or ellipsoid, or planes that close it are)",
                         hint='for example --where "x >= 0, y >= 0, z >= 0, '
                              'x + y + z <= 3"')
    pieces = region.pieces
    gs = [p.g for p in pieces]
    grad = [S.diff(f, s) for s in symbols]
    systems = [("interior: grad f = 0", [f"{_eq(d)} = 0" for d in grad])]
    curves, near = [], {}         # near: the points found so far, by their rounded place
    found, constant_on = [], []   # the active sets f is constant on: their sub-pieces add
    for k in range(0, 4):         # nothing (an edge of a face where f is constant)
        for active in combinations(range(len(pieces)), k):
            if any(set(c) <= set(active) for c in constant_on):
                continue
            what = " and ".join(pieces[i].text for i in active) or "the interior"
            # in a fixed order: which point stands for a whole piece is the same on every run
            found_here = _candidates(f, [gs[i] for i in active], symbols, what,
                                     systems if k == 1 else None, gs)
            found_here = sorted(found_here, key=lambda c: [] if isinstance(c, Curves) else
                                [float(v.evalf(20)) for v in c[0].values()])
            curves += [c for c in found_here if isinstance(c, Curves)]
            found_here = [c for c in found_here if not isinstance(c, Curves)]
            for at, along in found_here:
                if not _inside(gs, at, strict=(k == 0)):
                    continue
                curve_text = what if along == "all" else along
                if along == "all":   # f constant on the whole piece
                    if active in constant_on:
                        continue
                    constant_on.append(active)
                elif along and any(q.along == curve_text for q in found):
                    continue         # the same curve of solutions, another point of it
                elif not along and any(not q.along and _same_point(at, q.at)
                                       for q in near.get(_key(at), ())):
                    continue
                found.append(Point(at, _value(f, at), SOURCES[k], "" if k == 0 else what,
                                   along=curve_text,
                                   curve=gs[active[0]] if along == "all" and active else None))
                near.setdefault(_key(at), []).append(found[-1])
    if len(pieces) > 1:
        systems.append(("edges and corners", ["each pair and triple of faces solved the "
                                              "same way, with f restricted to them"]))
    points = _unique(found)
    if not points:
        raise UsageError(f"--where {region.text}: no point satisfies every inequality (the "
                         "solid is empty)" if not over else f"--over {region.text}: empty")
    _between(curves, points)
    if monotone:
        _monotone_values(monotone, points, systems)
        grad = [S.diff(objective, s) for s in symbols]
    order = {"interior": 0, "boundary": 1, "corner": 2}
    points.sort(key=lambda c: (order[c.source], [float(c.at[n].evalf(20))
                                                 for n in region.names]))
    return RegionExtrema(text, read, region.names, "over" if over else "where", region.text,
                         [p.text for p in pieces], [_eq(d) for d in grad], points,
                         extreme(points, max), extreme(points, min), systems,
                         box=region.box, complete=True, warnings=list(program.warnings))


def _monotone_values(monotone, points, systems) -> None:
    """f = a + b·h(p): p's candidates, exact and complete, are f's (h strictly monotone
    keeps or reverses the order of p's values), once h is proven defined at p's minimum."""
    from .monotone import domain_holds
    p, needs, outer = monotone
    lowest = min((c.value for c in points), key=lambda v: float(v.evalf(30)))
    if not domain_holds(needs, lowest):
        raise NotExact(f"f is a function of p = {_eq(p)}, which is defined only where p "
                       f"{'> 0' if needs == 'positive' else '>= 0'}; p's minimum on the "
                       f"solid is {_eq(lowest)}, so f is not defined (or not continuous) on "
                       "all of it", hint="choose a solid where f is defined")
    for c in points:   # f's value from p's exact one: simplifying f at each point is slow
        c.value = outer(c.value)
    systems[:] = [(title.replace("grad f", "grad p"), lines) for title, lines in systems]
    systems.insert(0, (f"f is a strictly monotone function of p = {_eq(p)}",
                       ["its max and min on the solid are where p has its own, so the "
                        "candidates are p's"]))


def _key(at: dict) -> tuple:
    """Where a point is, to 8 digits: the same point always has the same key, so only
    points with one key are compared exactly."""
    return tuple(round(float(v.evalf(20)), 8) + 0.0 for v in at.values())


def _between(curves, points) -> None:
    """A curve of candidates matters only if f's value on it could be an extreme: each value
    strictly between the other candidates' min and max is proven not to be; any other is no
    case gradcli studies (whether that curve meets the solid is not decided here)."""
    if not curves:
        return
    values = [float(c.value.evalf(30)) for c in points]
    lo, hi = min(values), max(values)
    for c in curves:
        for v in c.values:
            if not lo < float(v.evalf(30)) < hi:
                raise NotExact(f"on {c.what} a whole curve of candidates has f = "
                               f"{_eq(v)}, which could be an extreme value; gradcli does not "
                               "study this case", hint="check that piece by hand")


def _candidates(f, active, symbols, what, systems, gs):
    """[(point, along)] where f restricted to {g = 0 for g in active} is critical; along is
    "all" for a point standing for the whole piece, where f is constant on it."""
    import sympy as S

    from .critical_algebra import real_solutions
    planes = [g for g in active if S.Poly(g, *symbols).total_degree() == 1]
    curved = [g for g in active if S.Poly(g, *symbols).total_degree() > 1]
    sub = {}
    if planes:
        solved = S.linsolve(planes, symbols)
        if solved == S.EmptySet:
            return []
        (values,) = tuple(solved)
        sub = {s: v for s, v in zip(symbols, values) if v != s}
        if len(sub) < len(planes):
            return []   # dependent planes: the same face twice, solved where it is alone
    free = [s for s in symbols if s not in sub]
    F = S.expand(f.xreplace(sub))
    N = [S.expand(g.xreplace(sub)) for g in curved]
    if not free:
        return [(_point(sub, {}, symbols), "")] if all(n == 0 for n in N) else []
    if len(N) >= len(free):
        conditions = []          # as many curved faces as coordinates left: points
    elif not N:
        conditions = [S.diff(F, s) for s in free]
    else:
        # grad F in the span of the faces' gradients (the Lagrange condition, λ eliminated):
        # every maximal minor of the matrix of gradients is 0; where the faces' own
        # gradients are dependent (a singular point) they vanish too
        rows = S.Matrix([[S.diff(e, s) for s in free] for e in [F] + N])
        conditions = [S.expand(rows[:, list(cols)].det())
                      for cols in combinations(range(len(free)), len(N) + 1)]
    if systems is not None:
        systems.append((f"boundary {what}", [f"{_eq(e)} = 0" for e in conditions + N
                                             if e != 0] or ["f is constant on it"]))
    if len(N) < len(free) and all(c == 0 for c in conditions):
        return _constant_on_piece(F, N, sub, free, symbols, gs, what)
    equations = [e for e in conditions + N if e != 0]
    try:
        found = _linear(equations, free)
        if found is False:
            found = real_solutions(equations, free, {str(s): (-S.oo, S.oo) for s in free})
    except (S.PolynomialError, S.DomainError, NotImplementedError, ValueError) as exc:
        raise NotExact(f"the system of {what} has no exact solution gradcli can prove "
                       "complete") from exc
    if found is None:
        found = _off_the_piece(equations, free, sub, [g for g in gs if g not in active], F,
                               what)
        if isinstance(found, Curves):
            return [found]
    return [(_point(sub, dict(zip(free, c)), symbols), "") for c in found]


def _linear(equations, free):
    """The solutions of a linear system (a quadratic f on a box): [] or [the point], None
    for a line or plane of them, False where the system is not linear."""
    import sympy as S
    if any(S.Poly(e, *free).total_degree() > 1 for e in equations):
        return False
    solved = S.linsolve(equations, free)
    if solved == S.EmptySet:
        return []
    (values,) = tuple(solved)
    if any(v.free_symbols & set(free) for v in values):
        return None
    return [tuple(values)]


class Curves:
    """A whole curve (or surface) of candidates on a piece: f is constant on each part of
    it, and these are every value it can take there (the real roots of an eliminant)."""

    def __init__(self, values, what):
        self.values, self.what = values, what


def _off_the_piece(equations, free, sub, others, F, what):
    """The solutions of a system with a whole curve or surface of them (the axes, for
    grad(x y z) = 0). The parts on the other faces' planes are left to those pieces:
    saturation by their product (t·Πg - 1 added, t eliminated, as Rabinowitsch) removes
    them. What is left, if finite, is solved; else its Curves, every value F can take on
    it (F is constant along each part of a set of critical points)."""
    import sympy as S

    from .critical_algebra import real_solutions
    product = S.expand(S.Mul(*[g.xreplace(sub) for g in others]))
    left = equations
    if product.free_symbols:
        t = S.Dummy("t")
        basis = S.groebner(equations + [t * product - 1], t, *free, order="lex")
        if list(basis.exprs) == [1]:
            return []
        left = [b for b in basis.exprs if t not in b.free_symbols]
    everywhere = {str(s): (-S.oo, S.oo) for s in free}
    found = real_solutions(left, free, everywhere) if left else None
    if found is not None:
        return found
    w = S.Dummy("w")
    basis = S.groebner(list(left) + [w - F], *free, w, order="lex")
    eliminant = [b for b in basis.exprs if not (b.free_symbols & set(free))]
    if not eliminant:
        raise NotExact(f"on {what} the candidates form a whole curve or surface whose "
                       "values of f gradcli cannot bound", hint="check that piece by hand")
    return Curves(S.Poly(eliminant[0], w).real_roots(), what)


def _constant_on_piece(F, N, sub, free, symbols, gs, what) -> list:
    """F has no critical variation on the piece: constant on it where the curved faces
    reduce F - c to 0; one point of it in the solid then stands for all of it."""
    import sympy as S

    from .critical_algebra import real_solutions
    if not N:
        found = _somewhere(sub, free, symbols, gs)
    else:
        # points of the curved piece: where one coordinate is extreme along it
        found = []
        for v in free:
            rows = S.Matrix([[S.diff(e, s) for s in free if s is not v] for e in N])
            extra = [S.expand(rows[:, list(c)].det()) for c in
                     combinations(range(len(free) - 1), len(N))] if len(free) > len(N) else []
            sols = real_solutions([e for e in N + extra if e != 0], free,
                                  {str(s): (-S.oo, S.oo) for s in free}) or []
            found += [_point(sub, dict(zip(free, c)), symbols) for c in sols]
        found = [p for p in found if _inside(gs, p)]
        if found:
            at = {s: found[0][s.name] for s in free}
            c = F.xreplace(at)
            if S.reduced(F - c, N, *free)[1] != 0:
                raise NotExact(f"f is constant on each part of {what} but not the same on "
                               "all of them; gradcli does not study this case")
    if not found:
        raise NotExact(f"f is constant on {what}, and gradcli found no point of it in the "
                       "solid to stand for it")
    return [(p, "all") for p in found[:1]]


def _somewhere(sub, free, symbols, gs) -> list:
    """Points of the flat piece {sub} inside the solid, from a small grid of its free
    coordinates (a face meets a bounded solid in a polygon with rational corners, so a
    grid this fine finds one of them at least)."""
    import sympy as S
    steps = sorted({S.Rational(a, b) for a in range(-12, 13) for b in (1, 2, 4)},
                   key=lambda v: (abs(v), v))[:40 if len(free) == 1 else 12]
    from itertools import product
    for values in product(steps, repeat=len(free)):
        at = _point(sub, dict(zip(free, values)), symbols)
        if _inside(gs, at):
            return [at]
    return []


def _point(sub, values, symbols) -> dict:
    import sympy as S
    from .exactsolve import clean
    out = {}
    for s in symbols:
        v = S.sympify(values[s] if s in values else S.sympify(sub.get(s, s)).xreplace(values))
        out[s.name] = clean(S.nsimplify(v) if v.has(S.Float) else v)
    return out


def _bounded(region, symbols) -> bool:
    import sympy as S
    for p in region.pieces:
        poly = S.Poly(p.g, *symbols)
        if poly.total_degree() == 2:
            top = S.Add(*[c * S.Mul(*[s ** e for s, e in zip(symbols, m)])
                          for m, c in poly.terms() if sum(m) == 2])
            hessian = S.hessian(-top, symbols)
            if all(hessian[:k, :k].det() > 0 for k in range(1, len(symbols) + 1)):
                return True   # -g grows like a positive definite form: a ball, an ellipsoid
    linear = [p.g for p in region.pieces if S.Poly(p.g, *symbols).total_degree() == 1]
    if len(linear) != len(region.pieces):
        return False
    # the recession cone: a . d >= 0 for each face's linear part, cut by the unit cube
    d = symbols
    faces = [S.Poly(g, *symbols).as_expr() - S.Poly(g, *symbols).coeff_monomial(1)
             for g in linear] + [1 - s for s in d] + [1 + s for s in d]
    for three in combinations(faces, 3):
        solved = S.linsolve(list(three), d)
        if solved == S.EmptySet:
            continue
        (v,) = tuple(solved)
        if any(c.free_symbols for c in v):
            continue
        point = dict(zip(d, v))
        if all(g.xreplace(point) >= 0 for g in faces) and any(c != 0 for c in v):
            return False
    return True
