"""Critical points proven complete: by algebra where f is rational, by intervals elsewhere.

`prove_critical` reads f exactly (SymPy) and tries, in order:

- algebra (critical_algebra.py): every real solution of ∇f = 0 as an exact
  number (1/√2, a root of a quartic), and the curves on which every point is
  critical; it works on a box or on the whole space;
- intervals (critical_interval.py), in a finite box: every zero of ∇f
  enclosed in a small box where it is proven the only one, and the rest of
  the box proven free of zeros. Each zero's exact form (π/2, ln(2)) is
  guessed from its digits and kept only where ∇f vanishes there exactly and
  the form lies in the zero's proven box.

Each exact point is classified exactly: the Hessian's leading principal
minors decide a minimum or maximum (Sylvester's criterion), a nonzero
determinant otherwise a saddle; a zero determinant is left to the caller's
higher-order test. None when neither method closes the proof (the caller
searches from a grid and says so). Imports SymPy.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import sympy as S

from ..errors import GradcliError


@dataclass
class ProvenPoint:
    """One critical point: its coordinates, their exact forms where known, its kind."""

    point: dict                 # name -> float
    exact: dict | None          # name -> SymPy number, or None when only the digits are known
    value: object = None        # f there, exactly (None when not exact)
    kind: str | None = None     # decided exactly; None: singular Hessian, or not exact
    hessian: list | None = None  # the exact Hessian's entries as floats
    exact_hessian: list | None = None  # ... and as SymPy numbers, where the point is exact


@dataclass
class Proof:
    """The critical points of f in a box and how their completeness is proven."""

    method: str                 # "algebra" or "interval"
    points: list
    sets: list = field(default_factory=list)   # SymPy expressions h: every point of h = 0
    boxes: int = 0
    inner: object = None        # u where f = g(u) was solved as a composite
    kinds: dict = field(default_factory=dict)   # a set's kind where the proof knows it


def prove_critical(text: str, box: dict, bindings: dict):
    """A Proof for the scalar `text` over `box` (name -> (lo, hi); infinite ends allowed
    for algebra only), the other inputs fixed by `bindings`; None when unproven."""
    from ..symbolic.realforms import symbol
    from .exactinput import read_sympy
    try:
        f, _, _ = read_sympy(text, list(box) + list(bindings))
    except (GradcliError, TypeError, ValueError, RecursionError):
        return None
    f = f.subs({symbol(k): S.Rational(repr(float(v))) for k, v in bindings.items()})
    syms = [symbol(n) for n in box]
    if f.free_symbols - set(syms):
        return None
    from .critical_algebra import solve_gradient
    try:
        solved = solve_gradient(f, syms, box)
    except (S.PolynomialError, S.GeneratorsNeeded, NotImplementedError, TypeError, ValueError):
        solved = None
    if solved is not None:
        points = [_exact_point(f, syms, dict(zip(syms, c))) for c in solved.points]
        sets = [h for h in solved.sets if _meets(h, syms, box)]
        return Proof("algebra", points, sets)
    # f = g(u): curves of critical points (x y + e^(-x y)), which intervals cannot close;
    # where it has none, the interval proof is tried first, as for any other f
    composite = _composite(f, syms, box)
    if composite is not None and composite.sets:
        return composite
    if all(math.isfinite(v) for lo_hi in box.values() for v in lo_hi):
        proof = _by_intervals(f, syms, box)
        if proof is not None:
            return proof
    return composite


def _composite(f, syms, box):
    from .critical_composite import solve_composite
    try:
        composite = solve_composite(f, syms, box)
    except (S.PolynomialError, S.GeneratorsNeeded, NotImplementedError, TypeError, ValueError):
        return None
    if composite is None:
        return None
    solved, inner, kinds = composite
    points = [_exact_point(f, syms, dict(zip(syms, c))) for c in solved.points]
    return Proof("algebra", points, [h for h in solved.sets if _meets(h, syms, box)],
                 inner=inner, kinds=kinds)


def _by_intervals(f, syms, box):
    from .critical_interval import prove_zeros
    if f.has(S.Abs, S.sign, S.Piecewise, S.floor, S.ceiling, S.Heaviside):
        return None
    grad = [S.diff(f, s) for s in syms]
    hess = [[S.diff(g, s) for s in syms] for g in grad]
    # A factored component names each variable fewer times: its interval is tighter.
    grad = [_factored(g) for g in grad]
    hess = [[_factored(e) for e in row] for row in hess]
    try:
        zeros = prove_zeros(grad, hess, syms, box)
    except (TypeError, ValueError, ArithmeticError, AttributeError):
        return None
    if zeros is None:
        return None
    points = []
    for enclosure, approx in zeros:
        if not all(_within(v, *box[str(s)]) for v, s in zip(approx, syms)):
            continue    # in the hair the search widens the box by, not in the box
        exact = _guess(grad, syms, enclosure, approx)
        if exact is not None:
            points.append(_exact_point(f, syms, dict(zip(syms, exact))))
        else:
            points.append(ProvenPoint(dict(zip(map(str, syms), approx)), None))
    return Proof("interval", points, [], len(points))


def _within(v, lo, hi) -> bool:
    """lo ≤ v ≤ hi with the slack the grid search and the algebra allow at an edge."""
    return lo - 1e-12 * max(1, abs(lo)) <= v <= hi + 1e-12 * max(1, abs(hi))


def _factored(e):
    """e with its common factors pulled out (y e^u - x^2 y e^u -> y(1 - x^2)e^u); not
    SymPy's factor, which expands e^(-1000(x - 2)^2) into powers past any use."""
    try:
        out = S.factor_terms(e)
    except (TypeError, ValueError, RecursionError):
        return e
    return out if S.count_ops(out) <= 2 * S.count_ops(e) + 4 else e


def _forms(v: float, lo: float, hi: float) -> list:
    """Short exact numbers within [lo, hi] whose digits are v's: p/q, p/q·π, p/q·√k,
    √(p/q), p/q·ln(k), with small p and q (the coordinates of textbook points)."""
    from fractions import Fraction
    out = []

    def keep(c):
        if c not in out and lo <= float(S.N(c, 30)) <= hi:
            out.append(c)
    tol = 1e-9 * max(1.0, abs(v))
    for unit, exact in ((1.0, S.Integer(1)), (math.pi, S.pi), (math.sqrt(2), S.sqrt(2)),
                        (math.sqrt(3), S.sqrt(3)), (math.sqrt(5), S.sqrt(5)),
                        (math.sqrt(6), S.sqrt(6)), (math.log(2), S.log(2)),
                        (math.log(3), S.log(3)), (math.e, S.E)):
        r = Fraction(v / unit).limit_denominator(36)
        if abs(float(r) * unit - v) <= tol:
            keep(S.Rational(r.numerator, r.denominator) * exact)
    if v > 0:
        r = Fraction(v * v).limit_denominator(100)
        if abs(math.sqrt(float(r)) - v) <= tol:
            keep(S.sqrt(S.Rational(r.numerator, r.denominator)))
        r = Fraction(math.log(v)).limit_denominator(12)
        if abs(math.exp(float(r)) - v) <= tol:
            keep(S.exp(S.Rational(r.numerator, r.denominator)))
    elif v < 0:
        out += [-c for c in _forms(-v, -hi, -lo) if -c not in out]
    return out


def _guess(grad, syms, enclosure, approx):
    """Exact coordinates inside `enclosure` where every component of grad is exactly 0,
    guessed from the digits of `approx`; None when none is found."""
    import itertools
    tries = []
    for v, (lo, hi) in zip(approx, enclosure):
        options = _forms(v, lo, hi)
        if not options:
            return None
        tries.append(options)
    for combo in itertools.islice(itertools.product(*tries), 27):
        at = dict(zip(syms, combo))
        try:
            if all(_is_zero(g.subs(at)) for g in grad):
                return combo
        except (TypeError, ValueError, RecursionError):
            continue
    return None


def _is_zero(v) -> bool:
    """Whether an exact number is 0: a value that keeps its digits as the working
    precision doubles is not (e^-8000 is tiny, not 0); simplify decides the rest."""
    if v == 0:
        return True
    a, b = S.N(v, 30), S.N(v, 60)
    if a != 0 and abs(a - b) <= S.Float(10) ** -20 * abs(b):
        return False
    return S.simplify(v) == 0


def _exact_point(f, syms, at):
    point = {str(s): float(S.N(v, 20)) for s, v in at.items()}
    exact = {str(s): v for s, v in at.items()}
    rooted = any(v.has(S.CRootOf) for v in at.values())
    try:
        # A root of a quintic substituted exactly makes determinants of huge algebraic
        # numbers: such a point is classified on its value to 60 digits instead.
        value = None if rooted else f.subs(at)
        h = S.hessian(f, syms).subs({s: S.N(v, 60) for s, v in at.items()} if rooted else at)
        kind = _kind(h, len(syms))
        floats = [[float(S.N(h[i, j], 20)) for j in range(len(syms))]
                  for i in range(len(syms))]
        entries = None if rooted else [[h[i, j] for j in range(len(syms))]
                                       for i in range(len(syms))]
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        value, kind, floats, entries = None, None, None, None
    if value is not None and value.has(S.CRootOf):
        value = None
    return ProvenPoint(point, exact, value, kind, floats, entries)


def _sign(x) -> int:
    """The sign of an exact real number (0 only when it is exactly 0), or of a number
    known to 60 digits (0 when it is below their reach)."""
    v = S.N(x, 50)
    if abs(v) > S.Float(10) ** -40:
        return 1 if v > 0 else -1
    if x.has(S.Float) or S.simplify(x) == 0:
        return 0
    return 1 if S.N(x, 200) > 0 else -1


def _kind(h, n) -> str | None:
    """Sylvester's criterion on the exact Hessian h (n × n); None where it is singular."""
    minors = [_sign(h[:k, :k].det()) for k in range(1, n + 1)]
    if minors[-1] == 0:
        return None
    if all(m > 0 for m in minors):
        return "local minimum"
    if all(m == (-1) ** k for k, m in enumerate(minors, start=1)):
        return "local maximum"
    return "saddle point"


def _meets(h, syms, box) -> bool:
    """Whether the set h = 0 has a point in the box: h takes both signs (or 0) on a grid
    over it (over -100..100 for an infinite side)."""
    import numpy as np
    fn = S.lambdify(syms, h, "numpy")
    axes = []
    for s in syms:
        lo, hi = box[str(s)]
        lo, hi = max(lo, -100.0), min(hi, 100.0)
        axes.append(np.linspace(lo, hi, 201 if len(syms) <= 2 else 41))
    grid = np.meshgrid(*axes, indexing="ij")
    with np.errstate(all="ignore"):
        values = np.asarray(fn(*grid), dtype=float) * np.ones_like(grid[0])
    values = values[np.isfinite(values)]
    return values.size > 0 and values.min() <= 0 <= values.max()


def set_text(h, syms) -> str:
    """A set of critical points as a book writes it: y = x, x^2 + y^2 = 1, x = 0."""
    from ..closedtext import printed_text
    for s in syms:
        if S.degree(h, s) == 1:
            rest = S.solve(h, s)
            if len(rest) == 1:
                return f"{s} = {printed_text(rest[0])}"
    lhs, rhs = h, S.Integer(0)
    const = S.Add(*[t for t in S.Add.make_args(h) if not t.free_symbols])  # 1, or π/2
    if const != 0:
        lhs, rhs = h - const, -const
    return f"{printed_text(lhs)} = {printed_text(rhs)}"


def on_set(sets, names, values) -> str | None:
    """The equation of the first set (equation text, kind) through the point `values`."""
    from .exactinput import read_sympy
    from ..symbolic.realforms import symbol
    at = {symbol(n): S.Rational(repr(float(v))) for n, v in zip(names, values)}
    for equation, _ in sets:
        lhs, _, rhs = equation.partition(" = ")
        try:
            h = read_sympy(f"({lhs}) - ({rhs})", names)[0]
        except (GradcliError, TypeError, ValueError):
            continue
        size = 1 + sum(abs(float(S.N(t.subs(at), 20))) for t in S.Add.make_args(S.expand(h)))
        if abs(float(S.N(h.subs(at), 30))) <= 1e-9 * size:
            return equation
    return None
