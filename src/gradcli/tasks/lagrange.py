"""`gradcli extrema EXPR --subject-to "g = c"` (one or two constraints, 2 or 3 variables):
the absolute maximum and minimum of f on the constraint set, by Lagrange multipliers.

The candidates are the real solutions of grad f = λ grad g (+ μ grad h), g = 0
(h = 0), solved by SymPy, and the points of the set where the constraints'
gradients are dependent (there the method says nothing, so they are kept as
`singular` candidates). On a bounded set (regionshape.directions_to_infinity)
the largest and smallest candidate values are the max and min. On an unbounded
one each side is decided by how f behaves far out along the set (unbounded.py):
a side f runs off to ±inf on, or only approaches, is `none` with the reason.
Nothing here prints.
"""
from __future__ import annotations

from ..errors import UsageError
from .onevar import NotExact
from .regions import (Point, RegionExtrema, Side, _eq, _real, _same_point, _solve,
                      _value, extreme, read_objective)


def lagrange_extrema(text: str, constraints) -> RegionExtrema:
    """The absolute max and min of `text` subject to the equations `constraints`."""
    import sympy as S

    from .exactinput import read_sympy
    from .regionshape import directions_to_infinity, read_constraints
    constraints = list(constraints)
    if len(constraints) > 2:
        raise UsageError("extrema takes one or two --subject-to constraints",
                         hint='for example --subject-to "x + y + z = 1" --subject-to '
                              '"x^2 + y^2 = 1"')
    region = read_constraints(constraints)
    region.names = sorted(set(region.names) | set(read_sympy(text)[1]))
    n = len(region.names)
    if n not in (2, 3) or n <= len(constraints):
        raise UsageError(f"Lagrange multipliers here take 2 or 3 variables and fewer "
                         f"constraints than variables; got {n} variable(s) and "
                         f"{len(constraints)} constraint(s)",
                         hint='for example: gradcli extrema "x y" --subject-to "x + y = 10"')
    f, read, program = read_objective(text, region.names)
    symbols = region.symbols
    import sympy as S
    if not f.is_rational_function(*symbols):
        # a transcendental f (sin, e^x) makes the system transcendental, of whose infinitely
        # many or hard solutions SymPy may return some: no answer rather than a partial one
        raise NotExact("Lagrange multipliers here need f to be a polynomial or a quotient of "
                       "polynomials: for a transcendental f SymPy's solutions of the system "
                       "may be incomplete, so gradcli claims nothing",
                       hint="parametrise the constraint and use extrema --over t=A:B")
    denominator = S.fraction(S.together(f))[1]
    if denominator.free_symbols:
        # a real pole on the set, or a family of them (None), breaks the method
        if _solve([denominator] + [q.g for q in region.pieces], symbols,
                  "where f is undefined"):
            raise NotExact(f"f is not defined everywhere on the constraint set "
                           f"({_eq(denominator)} = 0 meets it)",
                           hint="a constraint set where f is continuous")
    names = ["lambda", "mu"][:len(region.pieces)]
    multipliers = [S.Symbol(m, real=True) for m in names]
    gs = [p.g for p in region.pieces]
    grad = [S.diff(f, s) for s in symbols]
    equations = [S.expand(grad[i] - S.Add(*[m * S.diff(g, s) for m, g in zip(multipliers, gs)]))
                 for i, s in enumerate(symbols)]
    letters = {"lambda": "λ", "mu": "μ"}
    shown = [f"{_eq(grad[i])} = " + " + ".join(
        f"{letters[m]}({_eq(S.diff(g, s))})" for m, g in zip(names, gs))
        for i, s in enumerate(symbols)] + [p.text for p in region.pieces]
    systems = [("Lagrange: grad f = " + " + ".join(
        f"{letters[m]} grad {'gh'[k]}" for k, m in enumerate(names)), shown)]
    points, along = [], []
    solutions = _plane_curve(f, gs, symbols)
    if solutions is None:
        solutions = _solve_lagrange(equations + gs, symbols + multipliers)
    for sol in solutions:
        if sol is None:
            along.append(None)
            continue
        at = {s.name: sol[s.name] for s in symbols}
        if any(_same_point(at, p.at) for p in points):
            continue
        points.append(Point(at, _value(f, at), "lagrange", region.text,
                            {m: sol[m] for m in names}))
    points += _singular(f, region, symbols, points)
    if along:
        points += _constant_along(f, region, symbols, points)
    if not points and not directions_to_infinity(region):
        raise UsageError(f"--subject-to {region.text}: no real point satisfies the "
                         "constraints (the set is empty)")
    points.sort(key=lambda c: [float(c.at[nm].evalf(20)) for nm in region.names])
    result = RegionExtrema(text, read, region.names, "subject-to", region.text,
                           [p.text for p in region.pieces], [_eq(g) for g in grad], points,
                           extreme(points, max), extreme(points, min), systems,
                           complete=f.is_polynomial(*symbols),
                           warnings=list(program.warnings))
    if directions_to_infinity(region):
        from .unbounded import decide_sides
        decide_sides(result, f, region, symbols)
    from .constraintsample import refute
    refute(f, gs, symbols, result)
    if not result.complete:
        result.warnings.append("f is not a polynomial: SymPy's solutions of the Lagrange "
                               "system are taken as complete")
    return result


def _plane_curve(f, gs, symbols):
    """One constraint in the plane: λ eliminated (f_x g_y = f_y g_x) and the polynomial
    system solved completely by regions.poly_points; λ = f_x/g_x (or f_y/g_y) after.
    None where this does not apply (SymPy's solve then)."""
    import sympy as S

    from .exactsolve import poly_points
    if len(symbols) != 2 or len(gs) != 1:
        return None
    x, y = symbols
    g = gs[0]
    fx, fy, gx, gy = S.diff(f, x), S.diff(f, y), S.diff(g, x), S.diff(g, y)
    tangency = S.numer(S.together(fx * gy - fy * gx))
    if not (S.expand(tangency).is_polynomial(x, y)) or S.expand(tangency) == 0:
        return None
    found = poly_points(S.expand(g), S.expand(tangency), x, y)
    if found is None:
        return None
    out = []
    for at in found:
        bind = {x: at[x.name], y: at[y.name]}
        for a, b in ((fx, gx), (fy, gy)):
            if abs(b.subs(bind).evalf(50)) > 1e-30:
                ratio = (a / b).subs(bind)
                out.append({**at, "lambda": ratio if ratio.has(S.CRootOf)
                            else S.radsimp(S.simplify(ratio))})
                break
    return out


def _solve_lagrange(equations, unknowns):
    import sympy as S
    from .exactsolve import SOLVE_SECONDS, deadline
    check = not all(e.is_polynomial(*unknowns) for e in equations)
    try:
        with deadline(SOLVE_SECONDS if check else None):
            found = S.solve(equations, unknowns, dict=True, check=check)
    except (NotImplementedError, ValueError, TimeoutError) as exc:
        raise NotExact("SymPy cannot solve the Lagrange system exactly",
                       hint="try a constraint or function SymPy can solve") from exc
    out = []
    for sol in found:
        if any(u not in sol for u in unknowns) or any(v.free_symbols for v in sol.values()):
            out.append(None)
            continue
        if all(_real(sol[u]) for u in unknowns):
            from .exactsolve import clean as _clean
            out.append({u.name: _clean(sol[u]) for u in unknowns})
    return out


def _singular(f, region, symbols, known) -> list:
    """Points of the set where the constraints' gradients are dependent."""
    import sympy as S
    gs = [p.g for p in region.pieces]
    jac = S.Matrix([[S.diff(g, s) for s in symbols] for g in gs])
    if len(gs) == 1:
        degenerate = list(jac)
    else:
        degenerate = [jac[:, [i, j]].det() for i in range(len(symbols))
                      for j in range(i + 1, len(symbols))]
    out = []
    for sol in _solve([S.expand(e) for e in gs + degenerate], symbols, "the singular points"):
        if sol is None:
            raise NotExact("the constraints are degenerate along a whole curve",
                           hint="write each constraint as one smooth curve or surface")
        if not any(_same_point(sol, p.at) for p in known + out):
            out.append(Point(sol, _value(f, sol), "singular", region.text))
    return out


def _constant_along(f, region, symbols, known) -> list:
    """A family of Lagrange solutions: f must be constant on the set for it to stand."""
    import sympy as S
    if len(region.pieces) == 1 and len(symbols) == 2:
        x, y = symbols
        g = region.pieces[0].g
        for x0 in (0, 1, -1, 2, -2, S.Rational(1, 2), 3, -3):
            for sol in _solve([g.subs(x, x0)], [y], region.text):
                if sol is not None:
                    at = {x.name: S.Integer(x0) if isinstance(x0, int) else x0, **sol}
                    value = _value(f, at)
                    free = S.simplify(f - value)
                    if all(abs(free.subs({x: p.at[x.name], y: p.at[y.name]}).evalf(30)) < 1e-25
                           for p in known) and _constant_on(f, g, symbols, value):
                        return [Point(at, value, "lagrange", region.text, along=region.text, curve=g)]
    raise NotExact("the Lagrange system has a whole family of solutions; gradcli does not "
                   "study this case", hint="check the family by hand")


def _constant_on(f, g, symbols, value) -> bool:
    import sympy as S
    x, y = symbols
    for sol in S.solve(g, y, dict=True):
        if S.simplify(f.subs(y, sol[y]) - value) != 0:
            return False
    return True


__all__ = ["lagrange_extrema", "Side"]
