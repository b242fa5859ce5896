"""`gradcli extrema EXPR --where "x^2 + y^2 + z^2 <= 1"` (or a box --over x=..,y=..,z=..):
the absolute maximum and minimum of a polynomial f(x, y, z) on a closed, bounded solid.

A solid is inequalities g >= 0 (regionshape.py). On it f's extremes are among
the points where f restricted to some piece of the boundary is critical, the
pieces being the interior (no g active), each face (one g = 0), each edge (two)
and each corner (three), so every such set of active constraints is solved
exactly: the planar ones (g of degree 1) are solved for as many coordinates and
put into f and the others, and what is left is grad F = 0 (nothing curved
active), the Lagrange system grad F = λ grad N with N = 0 and its singular
points (a curved face), or the equations alone. Each solution is kept where
every inequality holds (strictly, for the interior). The list is complete
wherever SymPy's solutions of these polynomial systems are, as in the plane.

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
    if not f.is_polynomial(*symbols):
        raise NotExact("extrema on a solid needs f to be a polynomial: for any other f "
                       "SymPy's solutions of the systems may be incomplete, so gradcli "
                       "claims nothing", hint="gradcli critical --over finds the interior's "
                                              "critical points numerically")
    if not over and not _bounded(region, symbols):
        raise UsageError(f"--where {region.text}: gradcli cannot prove this solid bounded "
                         "(a box, a ball or ellipsoid, or planes that close it are)",
                         hint='for example --where "x >= 0, y >= 0, z >= 0, '
                              'x + y + z <= 3"')
    pieces = region.pieces
    gs = [p.g for p in pieces]
    grad = [S.diff(f, s) for s in symbols]
    systems = [("interior: grad f = 0", [f"{_eq(d)} = 0" for d in grad])]
    found, constant_on = [], []   # the active sets f is constant on: their sub-pieces add
    for k in range(0, 4):         # nothing (an edge of a face where f is constant)
        for active in combinations(range(len(pieces)), k):
            if any(set(c) <= set(active) for c in constant_on):
                continue
            what = " and ".join(pieces[i].text for i in active) or "the interior"
            # in a fixed order: which point stands for a whole piece is the same on every run
            found_here = sorted(_candidates(f, [gs[i] for i in active], symbols, what,
                                            systems if k == 1 else None, gs),
                                key=lambda c: [float(v.evalf(20)) for v in c[0].values()])
            for at, along in found_here:
                if not _inside(gs, at, strict=(k == 0)):
                    continue
                text = what if along == "all" else along
                if along == "all":   # f constant on the whole piece
                    if active in constant_on:
                        continue
                    constant_on.append(active)
                elif along and any(q.along == text for q in found):
                    continue         # the same curve of solutions, another point of it
                elif not along and any(not q.along and _same_point(at, q.at) for q in found):
                    continue
                found.append(Point(at, _value(f, at), SOURCES[k], "" if k == 0 else what,
                                   along=text,
                                   curve=gs[active[0]] if along == "all" and active else None))
    if len(pieces) > 1:
        systems.append(("edges and corners", ["each pair and triple of faces solved the "
                                              "same way, with f restricted to them"]))
    points = _unique(found)
    if not points:
        raise UsageError(f"--where {region.text}: no point satisfies every inequality (the "
                         "solid is empty)" if not over else f"--over {region.text}: empty")
    order = {"interior": 0, "boundary": 1, "corner": 2}
    points.sort(key=lambda c: (order[c.source], [float(c.at[n].evalf(20))
                                                 for n in region.names]))
    return RegionExtrema(text, read, region.names, "over" if over else "where", region.text,
                         [p.text for p in pieces], [_eq(d) for d in grad], points,
                         extreme(points, max), extreme(points, min), systems,
                         box=region.box, complete=True, warnings=list(program.warnings))


def _candidates(f, active, symbols, what, systems, gs):
    """[(point, along)] where f restricted to {g = 0 for g in active} is critical; along is
    "all" for a point standing for the whole piece, where f is constant on it."""
    import sympy as S
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
    multipliers = [S.Symbol(m, real=True) for m in ("λ", "μ", "ν")[:len(N)]]
    if not N:
        equations, unknowns = [S.diff(F, s) for s in free], free
    elif len(N) < len(free):
        equations = [S.expand(S.diff(F, s) - S.Add(*[m * S.diff(n, s)
                                                     for m, n in zip(multipliers, N)]))
                     for s in free] + N
        unknowns = free + multipliers
    else:
        equations, unknowns = N, free
    if systems is not None:
        systems.append((f"boundary {what}", [f"{_eq(e)} = 0" for e in equations]))
    if all(e == 0 for e in equations):
        # F is constant on the piece: one point of it in the solid stands for all of it
        found = _somewhere(sub, free, symbols, gs)
        if not found and not N:
            raise NotExact(f"f is constant on {what}, and gradcli found no point of it in "
                           "the solid to stand for it")
        return [(p, "all") for p in found]
    out = []
    for sol in _solve([e for e in equations if e != 0], unknowns, what, families=True):
        if isinstance(sol, tuple):
            out += _family(f, sub, sol[1], free, symbols, N, what)
        elif sol is not None:
            out.append((_point(sub, {s: sol[s.name] for s in free}, symbols), ""))
    if N and len(N) < len(free):
        out += [(p, "") for p in _singular(N, free, sub, symbols, what)]
    return out


def _singular(N, free, sub, symbols, what) -> list:
    """Points of the curved constraints where their gradients are dependent (λ says
    nothing there)."""
    import sympy as S
    jac = S.Matrix([[S.diff(n, s) for s in free] for n in N])
    if len(N) == 1:
        degenerate = list(jac)
    else:
        degenerate = [jac[:, list(cols)].det() for cols in combinations(range(len(free)),
                                                                         len(N))]
    out = []
    for sol in _solve([S.expand(e) for e in N + degenerate if e != 0], free, what):
        if sol is None:
            raise NotExact(f"{what} is degenerate along a whole curve",
                           hint="write each face as one smooth surface")
        out.append(_point(sub, {s: sol[s.name] for s in free}, symbols))
    return out


def _family(f, sub, family, free, symbols, N, what) -> list:
    """A curve or surface of solutions, f constant on it: points of it standing for all of
    it, marked "all" where it is the whole piece (f constant on every point of the curved
    faces' intersection, by reduction modulo them), else marked with its equations."""
    import sympy as S
    params = sorted({p for v in family.values() for p in v.free_symbols} |
                    {s for s in free if s not in family}, key=str)
    whole = {**{s: family.get(s, s) for s in free}}
    F = S.expand(f.xreplace(sub))
    value = S.simplify(F.xreplace(whole))
    if value.free_symbols & set(params):
        raise NotExact("a whole curve of points solves one of the systems and f is not "
                       "constant on it; gradcli does not study this case",
                       hint="check that piece of the boundary by hand")
    mark = "all" if N and S.reduced(F - value, N, *free)[1] == 0 else (
        ", ".join(f"{s} = {_eq(S.sympify(sub.get(s, s)).xreplace(whole))}" for s in symbols
                  if S.sympify(sub.get(s, s)).xreplace(whole) != s)
        + (f" on {what}" if what != "the interior" else " (inside the solid)"))
    out = []
    for t in (0, 1, -1, S.Rational(1, 2), -S.Rational(1, 2), 2, -2, S.Rational(1, 4)):
        at = {s: S.sympify(S.sympify(v).xreplace({p: S.sympify(t) for p in params}))
              for s, v in whole.items()}
        if all(v.is_real for v in at.values()):
            out.append((_point(sub, at, symbols), mark))
    return out


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
