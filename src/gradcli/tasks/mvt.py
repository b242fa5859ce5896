"""The mean value theorem (and Rolle's) for f on [A, B]: does it apply, and every c.

The theorem applies when f is continuous on [A, B] and differentiable on (A, B);
then some c in (A, B) has f'(c) = (f(B) - f(A))/(B - A), the secant's slope
(Rolle's theorem is the case f(A) = f(B), slope 0). Everything is exact (SymPy,
real odd roots as SPEC §3.11 reads them): continuity and differentiability are
decided piece by piece between the points where an |.| or a real root's base
changes sign, and at those points by the one-sided limits of f and f'. Every c
comes from solveset on the open interval; a numeric search beside it catches a
root the solver missed, and where no closed form exists the c are decimals,
said in a warning. Nothing here prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import InexactError, UsageError
from ..inputs import split_top_level

GRID = 600         # samples per piece in the numeric search for c
SAME_ROOT = 1e-7   # a numeric root this close to an exact one is that root


@dataclass
class MeanValue:
    """The theorem's hypotheses on [a, b] and, when they hold, every c (SymPy numbers)."""

    expression: str
    read_as: str
    x: str
    a: object
    b: object
    fa: object = None
    fb: object = None
    slope: object = None
    derivative: object = None          # f'(x) where f is smooth
    applies: bool = False
    failure: str | None = None         # "continuous" or "differentiable"
    where: list = field(default_factory=list)   # the points where it fails
    spans: list = field(default_factory=list)   # intervals where it fails (sqrt(x) on [-1, 0))
    rolle: bool = False
    c: list = field(default_factory=list)       # exact c, or floats where no closed form
    exact: bool = True
    every: bool = False                # f' = slope on all of (a, b): f is linear
    steps: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    show_steps: bool = False           # --steps: the writers print the method too
    pieces: list = field(default_factory=list)  # [(lo, hi, f' there)], for graders

    def derivative_at(self, c):
        """f'(c) for an exact c inside (a, b) where f is smooth, else None."""
        import sympy as S
        x = S.Symbol(self.x, real=True)
        for lo, hi, d in self.pieces:
            if bool(lo < c) and bool(c < hi):
                v = d.subs(x, c)
                return v if _finite(v) else None
        return None

    @property
    def reason(self) -> str | None:
        """Why the theorem does not apply, as a book says it."""
        if self.applies:
            return None
        from ..closedtext import printed_text as closed_text
        where = " and ".join(self.where_texts())
        if self.failure == "continuous":
            return (f"f is not continuous on [{closed_text(self.a)}, {closed_text(self.b)}]"
                    + (f": not {where}" if where else ""))
        return (f"f is not differentiable on ({closed_text(self.a)}, {closed_text(self.b)})"
                + (f": not {where}" if where else ""))

    def where_texts(self) -> list:
        """'at x = 0' for each point where the hypothesis fails, 'on [-1, 0)' for each
        interval."""
        from ..closedtext import printed_text as closed_text
        starts = {lo for lo, _, _, _ in self.spans}
        return ([f"at {self.x} = {closed_text(p)}" for p in self.where if p not in starts]
                + [f"on {'(' if lo_open else '['}{closed_text(lo)}, {closed_text(hi)}"
                   f"{')' if hi_open else ']'}" for lo, hi, lo_open, hi_open in self.spans])


def parse_interval(over: str, variables):
    """`x=A:B` -> (name, A, B) as exact SymPy numbers, A < B."""
    from .exactinput import constant
    name, eq, rest = over.partition("=")
    name = name.strip()
    if not eq or not name:
        raise UsageError(f"--over expects NAME=A:B, got '{over}'", hint="for example --over x=0:2")
    bounds = split_top_level(rest, ":", keep_empty=True)
    if len(bounds) != 2 or not all(b.strip() for b in bounds):
        raise UsageError(f"--over {name}= expects an interval A:B, got '{rest}'",
                         hint=f"for example --over {name}=0:2")
    if variables and name not in variables:
        raise UsageError(f"--over names '{name}', which is not the function's variable "
                         f"({', '.join(variables)})", hint=f"for example --over {variables[0]}=0:2")
    a = constant(bounds[0], f"--over {name} (start)")
    b = constant(bounds[1], f"--over {name} (end)")
    if not bool(a < b):
        raise UsageError(f"--over {name}: the interval must go from the smaller number to the "
                         f"larger, got {bounds[0].strip()}:{bounds[1].strip()}")
    return name, a, b


def exact_point(specs) -> dict:
    """--at x=3,y=pi/4 (repeatable) with each value an exact SymPy number."""
    from .exactinput import constant
    point = {}
    for spec in specs:
        for item in split_top_level(spec):
            name, eq, value = item.partition("=")
            if not eq or not name.strip() or not value.strip():
                raise UsageError(f"--at expects NAME=VALUE, got '{item}'",
                                 hint="for example --at x=3,y=4")
            point[name.strip()] = constant(value, f"--at {name.strip()}")
    return point


def _points(missing) -> tuple[list, list]:
    """The points of a set where f fails, and the intervals (lo, hi, open?, open?) where it
    fails throughout."""
    import sympy as S
    if missing.is_empty:
        return [], []
    if isinstance(missing, S.FiniteSet):
        return sorted(missing, key=float), []
    found, stack, whole = [], [missing], []
    while stack:
        s = stack.pop()
        if isinstance(s, S.Union):
            stack.extend(s.args)
        elif isinstance(s, S.FiniteSet):
            found.extend(s)
        elif isinstance(s, S.Interval):
            whole.append((s.start, s.end, s.left_open, s.right_open))
            found.append(s.start)
        else:
            raise InexactError("could not decide where f is defined on the interval")
    return sorted(set(found), key=float), whole


def _zeros(expr, x, interval) -> list:
    import sympy as S
    got = S.solveset(expr, x, interval)
    if isinstance(got, S.FiniteSet):
        return list(got)
    if got.is_empty:
        return []
    raise InexactError(f"could not find where {expr} changes sign on the interval",
                       hint="gradcli decides continuity exactly and could not here")


def _finite(v) -> bool:
    return v.is_real is True and v.is_finite is True


def _same(u, v) -> bool:
    """Two exact real numbers equal: to 60 digits (simplify costs a quarter second)."""
    import sympy as S
    d = (u - v).evalf(60)
    return d == 0 or abs(d) < S.Float("1e-50")


def _tidy(v):
    """An exact number in a book's shape: one fraction, no root in a denominator."""
    import sympy as S
    return S.radsimp(S.cancel(v))


def _pieces(f, x, a, b):
    """[(lo, hi, f there)] between the points where an |.| or a real root's base vanishes."""
    import sympy as S
    from ..symbolic.realforms import kink_arguments, piece
    cuts = set()
    for arg in kink_arguments(f):
        cuts.update(_zeros(arg, x, S.Interval.open(a, b)))
    edges = [a, *sorted(cuts, key=float), b]
    return [(lo, hi, piece(f, x, (lo + hi) / 2)) for lo, hi in zip(edges, edges[1:])]


def _hypotheses(out: MeanValue, f, x, pieces) -> None:
    """Continuity on [a, b], then differentiability on (a, b): out.failure and out.where."""
    import sympy as S
    from sympy.calculus.util import continuous_domain
    broken, whole = [], []
    for lo, hi, form in pieces:
        dom = continuous_domain(form, x, S.Interval(lo, hi))
        pts, w = _points(S.Interval(lo, hi) - dom)
        broken += pts
        whole += w
    for (_, k, left), (_, _, right) in zip(pieces, pieces[1:]):
        value = f.subs(x, k)
        sides = (S.limit(left, x, k, "-"), S.limit(right, x, k, "+"))
        if not (_finite(value) and all(_finite(s) and _same(s, value) for s in sides)):
            broken.append(k)
    if broken or whole:
        out.failure, out.where = "continuous", sorted(set(broken), key=float)
        out.spans = whole
        return
    slopes = [S.diff(form, x) for _, _, form in pieces]
    out.pieces = [(lo, hi, d) for (lo, hi, _), d in zip(pieces, slopes)]
    out.derivative = slopes[0] if len(slopes) == 1 else None
    rough = []
    for (lo, hi, _), d in zip(pieces, slopes):
        pts, w = _points(S.Interval.open(lo, hi) - continuous_domain(d, x, S.Interval.open(lo, hi)))
        rough += pts
        whole += w
    for (_, k, _), dl, dr in zip(pieces, slopes, slopes[1:]):
        sides = (S.limit(dl, x, k, "-"), S.limit(dr, x, k, "+"))
        if not (all(_finite(s) for s in sides) and _same(*sides)):
            rough.append(k)
    if rough or whole:
        out.failure, out.where = "differentiable", sorted(set(rough), key=float)
        out.spans = whole
        return
    out.applies = True


def _numeric_roots(g, x, lo, hi) -> list:
    """Where g (a smooth function on (lo, hi)) changes sign, by bisection, as floats."""
    import sympy as S
    fn = S.lambdify(x, g, modules="math")
    a, b = float(lo), float(hi)
    width = (b - a) / GRID

    def value(t):
        try:
            v = float(fn(t))
        except (ArithmeticError, ValueError, TypeError):
            return math.nan
        return v if math.isfinite(v) else math.nan

    roots = []
    ts = [a + width * (i + 0.5) for i in range(GRID)]
    vs = [value(t) for t in ts]
    for (t0, v0), (t1, v1) in zip(zip(ts, vs), zip(ts[1:], vs[1:])):
        if math.isnan(v0) or math.isnan(v1):
            continue
        if v0 == 0:
            roots.append(t0)
            continue
        if v0 * v1 < 0:
            for _ in range(200):
                mid = (t0 + t1) / 2
                vm = value(mid)
                if math.isnan(vm) or mid in (t0, t1):
                    break
                if (vm < 0) == (v0 < 0):
                    t0, v0 = mid, vm
                else:
                    t1 = mid
            roots.append((t0 + t1) / 2)
    return roots


def _solve(out: MeanValue, x, pieces) -> None:
    """Every c in (a, b) with f'(c) = slope: exact where solveset gives a finite set."""
    import sympy as S
    exact, decimals = [], []
    for lo, hi, form in pieces:
        g = S.diff(form, x) - out.slope
        if S.cancel(S.expand(g)) == 0:
            out.every = True
            return
        interval = S.Interval.open(lo, hi)
        try:
            got = S.solveset(g, x, interval)
        except (NotImplementedError, ValueError, TypeError):
            got = None
        found = []
        if isinstance(got, S.FiniteSet):
            found = [_tidy(c) for c in got]
            found = [c for c in found if abs(complex(g.subs(x, c).evalf(30))) < 1e-12]
        numeric = _numeric_roots(g, x, lo, hi)
        if got is not None and got.is_empty and not numeric:
            continue
        missed = [t for t in numeric
                  if all(abs(t - float(c)) > SAME_ROOT * max(1.0, abs(t)) for c in found)]
        if not isinstance(got, S.FiniteSet) or missed:
            decimals += missed
        exact += found
    if decimals:
        out.exact = False
        out.warnings.append(f"no closed form for every c: {len(decimals)} value"
                            f"{'s' if len(decimals) > 1 else ''} of c found numerically "
                            "(decimals)")
    out.c = sorted(exact + decimals, key=float)


def mean_value(text: str, over: str) -> MeanValue:
    """The mean value theorem for the function `text` of one variable on --over x=A:B."""
    import sympy as S
    from ..closedtext import printed_text as closed_text
    from ..language.printer import read_as
    from .exactinput import read_sympy
    f, variables, program = read_sympy(text)
    if len(variables) > 1:
        raise UsageError(f"the mean value theorem is for a function of one variable; this one "
                         f"has {len(variables)} ({', '.join(variables)})",
                         hint="bind the others to numbers in the expression itself")
    name, a, b = parse_interval(over, variables)
    x = S.Symbol(name, real=True)
    out = MeanValue(text, read_as(program), name, a, b, warnings=list(program.warnings))
    try:
        pieces = _pieces(f, x, a, b)
        _hypotheses(out, f, x, pieces)
    except (NotImplementedError, TypeError, ValueError) as exc:
        # SymPy could not decide where f is continuous: no verdict rather than a guess
        raise InexactError(f"could not decide whether f is continuous and differentiable "
                           f"on the interval ({exc})",
                           hint="the theorem is decided exactly, and SymPy could not here")
    if out.failure is None and not out.applies:
        raise InexactError("could not decide the theorem's hypotheses")
    A, B = closed_text(a), closed_text(b)
    if out.failure == "continuous":
        out.steps.append(out.reason + "; the theorem needs continuity on the closed interval")
        return out
    out.fa, out.fb = _tidy(f.subs(x, a)), _tidy(f.subs(x, b))
    out.slope = _tidy((out.fb - out.fa) / (b - a))
    out.rolle = _same(out.fa, out.fb)
    out.steps.append(f"f is continuous on [{A}, {B}]")
    if out.derivative is not None:
        out.steps.append(f"f'({name}) = {closed_text(S.factor_terms(out.derivative))}")
    if not out.applies:
        out.steps.append(out.reason + "; the theorem needs a derivative at every point inside")
        return out
    out.steps.append(f"f is differentiable on ({A}, {B})")
    out.steps.append(f"f({A}) = {closed_text(out.fa)}, f({B}) = {closed_text(out.fb)}")
    if out.rolle:
        out.steps.append(f"f({A}) = f({B}): Rolle's theorem, so f'(c) = 0 for some c")
    out.steps.append(f"the secant's slope: (f({B}) - f({A}))/({B} - ({A})) = "
                     f"{closed_text(out.slope)}" if a.could_extract_minus_sign() else
                     f"the secant's slope: (f({B}) - f({A}))/({B} - {A}) = "
                     f"{closed_text(out.slope)}")
    _solve(out, x, pieces)
    solved = f"solve f'(c) = {closed_text(out.slope)} for c in ({A}, {B})"
    if out.every:
        out.steps.append(solved + ": every c works (f is linear there)")
    else:
        out.steps.append(solved + ": " + (" and ".join(f"c = {c_text(c)}" for c in out.c)
                                          or "no solution"))
    return out


def c_text(c) -> str:
    """One c as a book prints it (2√3/3), or a decimal where it has no closed form."""
    if isinstance(c, float):
        return f"{c:.10g}"
    from ..closedtext import printed_text
    return printed_text(c)
