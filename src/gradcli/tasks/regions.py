"""`gradcli extrema EXPR --over x=A:B,y=C:D` or `--where "..."`: the absolute maximum
and minimum of f(x, y) on a closed, bounded region, exactly, as a book finds them.

The candidates are (1) the critical points of f strictly inside, from grad f = 0;
(2) on each boundary curve g = 0 the points where f restricted to it has a
critical point, from g = 0 and f_x g_y - f_y g_x = 0 (for a side x = a this is
f_y(a, y) = 0, the side's own one-variable problem; for a circle, the
Lagrange condition with λ eliminated), kept where the other inequalities
hold; (3) the corners, where two boundary curves meet. Each system is solved
by SymPy (solve; polynomial systems by Groebner bases), so the list is
complete wherever the solutions are. The extremes are the largest and
smallest candidate values, each with every point where it is attained; where f
is constant along a whole boundary piece, that piece is the answer's `along`.
Nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError
from .exactsolve import equation_text as _eq, is_real as _real, solve_real as _solve
from .onevar import NotExact

WHAT = "extrema"


@dataclass
class Point:
    """A candidate: its coordinates, f there, where it comes from, and its multipliers."""

    at: dict                    # name -> SymPy number
    value: object
    source: str                 # interior, boundary, corner; lagrange, singular
    piece: str = ""             # the boundary curve or constraint it lies on
    multipliers: dict = field(default_factory=dict)   # "lambda"/"mu" -> SymPy number
    along: str = ""             # f takes this value along the whole piece
    curve: object = None        # ... that piece's g, whose zeros the points on it are


@dataclass
class Side:
    """The max (or min): its value and points, or None with the reason it is not attained."""

    value: object = None
    at: list = field(default_factory=list)      # [dict]
    along: list = field(default_factory=list)   # [str]: whole curves of attainment
    why: str = ""


@dataclass
class RegionExtrema:
    """The absolute extrema of f on a region or a constraint set."""

    expression: str
    read_as: str
    names: list
    kind: str                   # "over", "where", "subject-to"
    region_text: str
    pieces: list                # [str]: boundary curves or constraints
    gradient: list              # [str]: f_x, f_y, ...
    candidates: list            # [Point]
    max: Side
    min: Side
    systems: list = field(default_factory=list)   # [(what, [equation texts])] for --steps
    box: dict = field(default_factory=dict)
    complete: bool = True
    warnings: list = field(default_factory=list)


def read_objective(text: str, names: list):
    """(f as SymPy, read_as, program) of the expression, its variables among `names`."""
    from ..language.printer import read_as
    from .exactinput import read_sympy
    f, variables, program = read_sympy(text)
    extra = [v for v in variables if v not in names]
    if extra:
        raise UsageError(f"extrema: '{extra[0]}' is not a variable of the region "
                         f"({', '.join(names)})",
                         hint="name every variable of f in --over, --where or --subject-to")
    return f, read_as(program), program


def region_extrema(text: str, over: str | None = None, where: str | None = None
                   ) -> RegionExtrema:
    """The absolute max and min of `text` on the rectangle --over or the region --where."""
    import sympy as S

    from .regionshape import directions_to_infinity, read_box, read_where
    if over and where:
        raise UsageError("extrema takes the region once: --over (a rectangle) or --where",
                         hint='for example --where "x >= 0, y >= 0, x + y <= 8"')
    region = read_box(over) if over else read_where(where)
    if where:
        from .exactinput import read_sympy
        region.names = sorted(set(region.names) | set(read_sympy(text)[1]))
    if len(region.names) != 2:
        raise UsageError(f"extrema on a region works in the plane: two variables, got "
                         f"{len(region.names)} ({', '.join(region.names)})",
                         hint="for one variable: --over x=A:B; a solid: three variables")
    f, read, program = read_objective(text, region.names)
    symbols = region.symbols
    if where and directions_to_infinity(region):
        raise UsageError(f"--where {region.text}: the region is not bounded, so f may have "
                         "no maximum or minimum on it",
                         hint='close it, for example --where "y >= x^2, y <= 4"')
    x, y = symbols
    fx, fy = S.diff(f, x), S.diff(f, y)
    gs = [p.g for p in region.pieces]
    systems = [("interior: grad f = 0", [f"{_eq(fx)} = 0", f"{_eq(fy)} = 0"])]
    found = []
    polynomial = f.is_polynomial(x, y)
    for sol in _solve([fx, fy], symbols, "grad f = 0", families=True):
        if isinstance(sol, tuple):
            if any(S.expand(g.subs(sol[1])) == 0 for g in gs):
                continue  # a curve of critical points along a side: the side's own study
            inside = _family_inside(f, sol[1], gs, symbols)
            if inside is not None:
                found.append(inside)
                continue
            raise NotExact("f has a whole curve of critical points inside; gradcli does not "
                           "study such a function on a region",
                           hint="check the curve of critical points by hand")
        if _inside(gs, sol, strict=True):
            found.append(Point(sol, _value(f, sol), "interior"))
    corners = []
    for i, pi in enumerate(region.pieces):
        for pj in region.pieces[i + 1:]:
            for sol in _solve([pi.g, pj.g], symbols, "corners"):
                if sol is not None and _inside(gs, sol) and not any(
                        _same_point(sol, c.at) for c in corners):
                    corners.append(Point(sol, _value(f, sol), "corner",
                                         f"{pi.text} and {pj.text}"))
    for p in region.pieces:
        gx, gy = S.diff(p.g, x), S.diff(p.g, y)
        tangency = S.expand(S.numer(S.together(fx * gy - fy * gx)))
        systems.append((f"boundary {p.text}", _piece_steps(f, p, symbols, tangency)))
        if tangency == 0:
            found += [a for a in [_along(f, p, gs, corners, symbols)] if a is not None]
            continue
        for sol in _solve([p.g, tangency], symbols, f"the boundary {p.text}"):
            if sol is None:
                found += [a for a in [_along(f, p, gs, corners, symbols)] if a is not None]
                break
            if _inside(gs, sol) and not any(_same_point(sol, c.at) for c in corners):
                found.append(Point(sol, _value(f, sol), "boundary", p.text))
    points = _unique(found) + corners
    if not points:
        # a nonempty closed bounded region has a max, hence a candidate: none, no region
        raise UsageError(f"--where {region.text}: no point satisfies every inequality "
                         "(the region is empty)" if where else
                         f"--over {region.text}: the rectangle is empty")
    _continuous(f, points, symbols, region)
    points.sort(key=lambda c: ({"interior": 0, "boundary": 1, "corner": 2}[c.source],
                               [float(c.at[n].evalf(20)) for n in region.names]))
    result = RegionExtrema(text, read, region.names, "over" if over else "where", region.text,
                           [p.text for p in region.pieces], [_eq(fx), _eq(fy)], points,
                           extreme(points, max), extreme(points, min), systems,
                           box=region.box, complete=polynomial,
                           warnings=list(program.warnings))
    if not polynomial:
        _sampled_check(f, result, region, symbols)
        result.warnings.append("f is not a polynomial: SymPy's solutions of the systems "
                               "are taken as complete (a dense sample of the region agrees)")
    return result


def _sampled_check(f, result, region, symbols) -> None:
    """For a transcendental f SymPy may return some solutions only (cos x = 0 has
    infinitely many): a dense sample of the region that beats the max or min refutes
    the list of candidates, and nothing is claimed."""
    import numpy as np
    import sympy as S
    xs = [float(c.at[symbols[0].name].evalf(20)) for c in result.candidates]
    ys = [float(c.at[symbols[1].name].evalf(20)) for c in result.candidates]
    (x0, x1), (y0, y1) = (min(xs), max(xs)), (min(ys), max(ys))
    gx, gy = np.meshgrid(np.linspace(x0, x1, 301), np.linspace(y0, y1, 301))
    keep = np.ones_like(gx, dtype=bool)
    for p in region.pieces:
        keep &= S.lambdify(symbols, p.g, "numpy")(gx, gy) * np.ones_like(gx) >= 0
    with np.errstate(all="ignore"):
        values = (S.lambdify(symbols, f, "numpy")(gx, gy) * np.ones_like(gx))[keep]
    values = values[np.isfinite(values)]
    hi, lo = float(result.max.value.evalf(20)), float(result.min.value.evalf(20))
    scale = 1e-9 * (1 + max(abs(hi), abs(lo)))
    refuted = values.size and (values.max() > hi + scale or values.min() < lo - scale)
    # ... or the sample comes close to an extreme value far from every point listed
    points = np.stack([gx[keep], gy[keep]], axis=1)[np.isfinite(
        (S.lambdify(symbols, f, "numpy")(gx, gy) * np.ones_like(gx))[keep])]
    step = 0.1 * max(x1 - x0, y1 - y0)  # a tenth of the region: another hump, not this one
    for side, best in ((result.max, hi), (result.min, lo)):
        if side.along or refuted:
            continue
        listed = np.array([[float(at[s.name].evalf(20)) for s in symbols] for at in side.at])
        near = points[np.abs(values - best) < 1e-4 * (1 + abs(best))]
        if len(near) and np.max(np.min(np.linalg.norm(
                near[:, None, :] - listed[None, :, :], axis=2), axis=1)) > step:
            refuted = True
    if refuted:
        raise NotExact("SymPy's solutions miss some critical points of f on the region "
                       "(a sample of the region finds the max or min elsewhere)",
                       hint="a smaller region, or gradcli critical --over to search numerically")


def _family_inside(f, family: dict, gs, symbols):
    """A curve of critical points (grad f = 0 along it, so f is constant there): one
    candidate inside the region stands for it; None when no point of it inside is found
    (then the caller refuses rather than guesses)."""
    import sympy as S
    free = sorted(set().union(*[v.free_symbols for v in family.values()])
                  | {s for s in symbols if s not in family}, key=str)
    if len(free) != 1:
        return None
    t = free[0]
    value = S.simplify(f.subs(family))
    if value.free_symbols:
        return None
    for k in sorted(range(-400, 401), key=abs):
        at = {s.name: S.nsimplify(S.sympify(family.get(s, s)).subs(t, S.Rational(k, 20)))
              for s in symbols}
        if all(_real(v) and not v.has(S.zoo, S.nan) for v in at.values()) and \
                _inside(gs, at, strict=True):
            solved = next(iter(family))
            curve = S.numer(S.together(solved - family[solved]))
            return Point(at, value, "interior", along=f"{solved.name} = {_eq(family[solved])} "
                         "(inside the region)", curve=curve)
    return None


def _piece_steps(f, piece, symbols, tangency) -> list:
    """The book's study of one boundary piece: a side y = φ(x) (or x = φ(y)) as f of one
    variable and its derivative; a curve by f_x g_y - f_y g_x = 0 (λ eliminated)."""
    import sympy as S
    for solved, free in (symbols[::-1], symbols):
        if S.degree(piece.g, solved) == 1 and not S.diff(piece.g, solved).free_symbols:
            phi = S.expand(solved - piece.g / S.diff(piece.g, solved))
            restricted = S.expand(f.subs(solved, phi))
            return [f"{solved.name} = {_eq(phi)}",
                    f"f = {_eq(restricted)}",
                    f"d/d{free.name}: {_eq(S.diff(restricted, free))} = 0"]
    return [piece.text, f"f_x g_y - f_y g_x: {_eq(tangency)} = 0"]


def _value(f, at: dict):
    import sympy as S
    v = f.subs({S.Symbol(n, real=True): val for n, val in at.items()})
    if not v.free_symbols and not v.has(S.CRootOf):  # a CRootOf form stays as it is
        v = S.radsimp(S.simplify(v))
    if not (v.is_real is not False and v.is_finite is not False) or not _real(v):
        raise NotExact(f"f is not defined at ({', '.join(_eq(a) for a in at.values())})",
                       hint="choose a region where f is continuous")
    return v


def _sign(v) -> int:
    import sympy as S
    n = v.evalf(50)
    if abs(n) > 1e-40:
        return 1 if n > 0 else -1
    if v.has(S.CRootOf):
        # a point poly_points found on this curve: it holds there to 50 digits, as its
        # roots were accepted, and SymPy's simplify of such forms takes minutes
        return 0
    return 0 if S.simplify(v) == 0 else (1 if n > 0 else -1)


def _inside(gs, at: dict, strict: bool = False) -> bool:
    import sympy as S
    bindings = {S.Symbol(n, real=True): v for n, v in at.items()}
    for g in gs:
        s = _sign(g.subs(bindings))
        if s < 0 or (strict and s == 0):
            return False
    return True


def same_value(a, b) -> bool:
    import sympy as S
    from .extrema import same_value as same
    if a.has(S.CRootOf) or b.has(S.CRootOf):
        # no simplify for roots without radicals (minutes): equal to 45 digits is equal
        return abs((a - b).evalf(50)) < S.Float("1e-45") * (1 + abs(a.evalf(50)))
    return same(a, b)


def _same_point(a: dict, b: dict) -> bool:
    return all(same_value(a[n], b[n]) for n in a)


def _unique(points) -> list:
    out = []
    for p in points:
        if p.along or not any(not q.along and _same_point(p.at, q.at) for q in out):
            out.append(p)
    return out


def _along(f, piece, gs, corners, symbols):
    """f is constant along the boundary piece: one candidate stands for the whole curve."""
    import sympy as S
    on = [c for c in corners if _sign(piece.g.subs(
        {S.Symbol(n, real=True): v for n, v in c.at.items()})) == 0]
    if on:
        at = dict(on[0].at)
    else:
        if S.Poly(piece.g, *symbols).total_degree() == 1:
            return None  # a line meets a bounded region in a segment with corners: not here
        # a closed curve has no corners but has points where its tangent is vertical or
        # horizontal: g = 0 with g_y = 0 (or g_x = 0)
        x, y = symbols
        found = [p for d in (y, x) for p in _solve([piece.g, S.diff(piece.g, d)], symbols,
                                                   piece.text) if p is not None]
        at = next((p for p in found if _inside(gs, p)), None)
        if at is None:
            if found:
                return None  # the curve is wholly outside the region: nothing here
            raise NotExact(f"f is constant along {piece.text}, and gradcli found no point of "
                           "it in the region")
    text = piece.text
    if len(on) >= 2 and S.Poly(piece.g, *symbols).total_degree() == 1:
        # a side of a polygon: the segment between its two corners
        var = max(symbols, key=lambda s: abs(float((on[0].at[s.name] - on[-1].at[s.name])
                                                   .evalf(20))))
        ends = sorted((c.at[var.name] for c in on), key=lambda v: float(v.evalf(20)))
        text = f"{piece.text}, {_eq(ends[0])} <= {var.name} <= {_eq(ends[-1])}"
    return Point(at, _value(f, at), "boundary", piece.text, along=text, curve=piece.g)


def _continuous(f, points, symbols, region):
    """A rational f whose denominator vanishes in the region has no extreme value theorem."""
    import sympy as S
    denominator = S.fraction(S.together(f))[1]
    if not denominator.free_symbols:
        return
    if not denominator.is_polynomial(*symbols):
        return
    from .regionshape import Region
    # the denominator's own extremes on the region bracket its values there
    trial = region_values(denominator, Region(region.names, region.pieces, region.text),
                          symbols)
    if min(trial) <= 0 <= max(trial) or any(_sign(v) == 0 for v in trial):
        raise NotExact(f"f is not continuous on the region ({_eq(denominator)} = 0 meets it): "
                       "the extreme value theorem does not apply",
                       hint="choose a region where f is continuous")


def region_values(f, region, symbols) -> list:
    """The values of a polynomial at its candidates on the region (no printing, no along)."""
    import sympy as S
    x, y = symbols
    gs = [p.g for p in region.pieces]
    pts = [s for s in _solve([S.diff(f, x), S.diff(f, y)], symbols, "grad") if s]
    for i, p in enumerate(region.pieces):
        t = S.expand(S.diff(f, x) * S.diff(p.g, y) - S.diff(f, y) * S.diff(p.g, x))
        pts += [s for s in _solve([p.g, t], symbols, p.text) if s]
        for q in region.pieces[i + 1:]:
            pts += [s for s in _solve([p.g, q.g], symbols, "corners") if s]
    return [f.subs({S.Symbol(n, real=True): v for n, v in s.items()}).evalf(30)
            for s in pts if _inside(gs, s)] or [S.Integer(1)]


def extreme(points, pick) -> Side:
    """The largest (pick=max) or smallest value among the candidates, with every point."""
    if not points:
        return Side(why="there are no candidates")
    best = pick(points, key=lambda c: float(c.value.evalf(30))).value
    hits = sorted((c for c in points if same_value(c.value, best)),
                  key=lambda c: [float(v.evalf(20)) for v in c.at.values()])
    curves = [c.curve for c in hits if c.along and c.curve is not None]
    import sympy as S

    def on_curve(at):
        return any(_sign(g.subs({S.Symbol(n, real=True): v for n, v in at.items()})) == 0
                   for g in curves)
    return Side(best, [c.at for c in hits if not c.along and not on_curve(c.at)],
                [c.along for c in hits if c.along])


def point_tuple(at: dict, precision=None) -> str:
    return "(" + ", ".join(number_text_of(v, precision) for v in at.values()) + ")"


def side_text(side, precision=None) -> str:
    """'9 at (3, 0) and (0, 0)', '4 along x^2 + y^2 = 4', or 'none (why)'."""
    if side.value is None:
        return f"none ({side.why})"
    value = number_text_of(side.value, precision)
    where = [point_tuple(at, precision) for at in side.at] + [f"along {a}" for a in side.along]
    return f"{value} at " + " and ".join(where) if not side.along else (
        f"{value} " + " and ".join(("at " + w) if w.startswith("(") else w for w in where))


def number_text_of(v, precision=None, json: bool = False) -> str:
    """A number as the book prints it; a root with no form in radicals (CRootOf) as a
    decimal, the only form it has (to `precision` significant digits if given)."""
    import sympy as S
    from ..intervals import point_text
    if v.has(S.CRootOf):
        from ..numbers import number_text
        return number_text(float(v.evalf(30)), precision)
    return point_text(v, json)
