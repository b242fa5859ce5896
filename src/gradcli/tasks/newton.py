"""Newton's method in one variable: the iteration table from a start, and every root in a range.

`newton(text, start)` iterates x_{n+1} = x_n - f(x_n)/f'(x_n) as a book does:
either a given number of steps (the book's "find x1, x2 and x3") or until two
successive iterates agree to K decimal places (the book's "correct to six
decimal places"). The iterates are computed in mpmath at 40 significant digits
from the expression's own graph (f and f' by the op table's value and
derivative rules), so that every decimal printed is the iterate's own, never
a double's rounding noise. What stops the iteration is said plainly: a zero
derivative (the tangent is horizontal, no next iterate), a point where f is
undefined, iterates that run away, a cycle (x^3 - 2x + 2 from 0: 0, 1, 0, ...).

`roots(text, low, high)` finds the roots in [low, high]: sign changes of f on a
grid of samples (each bracket narrowed by bisection, then Newton in mpmath), and
Newton's method from every local minimum of |f| on the grid where f does not
change sign (a root of even multiplicity, where f touches 0). A sampled search
cannot prove that there are no other roots, and the result never claims it.
Nothing here prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal, localcontext

from ..errors import DomainError, GradcliError, UsageError
from ..language.expr import inputs_of
from ..reading import given_names, read_program

DEFAULT_DIGITS = 6     # Stewart's "correct to six decimal places"
MAX_DIGITS = 12        # every decimal printed is the iterate's own (literals are doubles)
MAX_STEPS = 100
AUTO_STEPS = 50        # without --steps: give up after this many iterations
WORK_DPS = 40          # the iterates' working precision, in significant digits
GRID = 800             # intervals of the root search's grid
RUNAWAY = 1e6          # |x_n| beyond this times max(1, |x0|), and growing: they run away
LONGEST_CYCLE = 6
HUGE = 1e300           # an iterate beyond this ends the iteration, --steps or not


@dataclass
class Row:
    """One row of the iteration table: x_n, f(x_n) and f'(x_n) (None where undefined)."""

    n: int
    x: object             # the iterate in mpmath
    text: str             # rounded to the digits asked
    fx: float | None = None
    dfx: float | None = None

    @property
    def value(self) -> float:
        return float(self.x)


@dataclass
class NewtonRun:
    """The iteration from one start, and how it ended."""

    expression: str
    read_as: str
    variable: str
    start_text: str
    digits: int
    steps: int | None     # the number of iterations asked for, or None (until they agree)
    rows: list            # x0, x1, ...
    converged: bool
    stop: str             # converged, steps, zero-derivative, undefined, runaway, cycle,
                          # no-convergence
    why: str
    root_text: str | None = None
    root_value: float | None = None
    cycle: list | None = None
    warnings: list = field(default_factory=list)

    @property
    def iterates(self) -> list:
        return self.rows[1:]


@dataclass
class Root:
    """A root found in the range: rounded, its double, and whether f changes sign there."""

    text: str
    value: float
    crossing: bool
    precise: object = None   # the root in mpmath


@dataclass
class RootSearch:
    """Every root found in [low, high], and how the search was done."""

    expression: str
    read_as: str
    variable: str
    low: float
    high: float
    digits: int
    roots: list
    note: str
    rejected: list = field(default_factory=list)   # sign changes that are not roots
    complete: bool = False
    warnings: list = field(default_factory=list)


# ---------------------------------------------------------------- f and f' of one variable

class Curve:
    """f and f' of a program in one variable (other inputs bound), in mpmath and in doubles."""

    def __init__(self, text: str, variable: str | None, bindings: dict | None, where: str):
        self.text = text
        self.bindings = {k: float(v) for k, v in (bindings or {}).items()}
        names = given_names(self.bindings, {variable: 0} if variable else {})
        self.program = _read_equation(text, names)
        inputs = inputs_of(self.program)
        free = [v for v in inputs if v not in self.bindings]
        if variable is None:
            if len(free) != 1:
                listed = ", ".join(free) if free else "none"
                raise UsageError("Newton's method solves f(x) = 0 in one variable; "
                                 f"this expression has {len(free)} without a value "
                                 f"({listed})",
                                 hint=f"{where} names the variable; give the others values "
                                      "with --at (x=1.5,a=2)" if free else
                                 "write a function of one variable, such as x^3 - 2x - 5")
            variable = free[0]
        elif variable not in inputs and len(free) == 1:
            raise UsageError(f"the expression has no variable {variable}; its variable is "
                             f"{free[0]}", hint=f"give {where} {free[0]}=...")
        elif free != [variable] and free:
            others = [v for v in free if v != variable]
            raise UsageError(f"Newton's method solves f({variable}) = 0 in {variable}; give "
                             f"{', '.join(others)} a value with --at",
                             hint=f"for example --at {variable}=1," + ",".join(
                                 f"{o}=2" for o in others))
        self.variable = variable
        self.read_as = None
        self._graph = None

    # A graph's shape does not depend on the point: lowered once, walked at every iterate.
    def lower_at(self, x: float):
        """The graph, lowered at x the first time (where f must be defined)."""
        if self._graph is None:
            from ..autodiff.lower import lower
            from ..autodiff.engine import graph_nodes, topo_order
            from ..language.printer import read_as
            graph = lower(self.program, {**self.bindings, self.variable: float(x)},
                          wrt={self.variable})
            if getattr(graph.output.data, "shape", ()) != ():
                raise UsageError("Newton's method needs a function with one number for a value",
                                 hint="sum(...) a vector result, or solve one element at a time")
            self._graph = graph
            self._nodes = graph_nodes(graph.output)
            self._order = list(reversed(topo_order(graph.output)))
            self.read_as = read_as(self.program)
        return self._graph

    def value(self, x):
        """f(x) alone in mpmath (defined where f' may not be: sqrt at 0)."""
        return self.precise(x, derivative=False)[0]

    def precise(self, x, derivative: bool = True):
        """(f(x), f'(x)) in mpmath at the current precision; ArithmeticError where undefined."""
        import mpmath as mp
        from ..autodiff.engine import numeric_d
        from ..autodiff.precise import precise_backend
        graph = self._graph
        leaf = graph.inputs.get(self.variable)
        B = precise_backend()
        D = numeric_d(B)
        value = {}
        try:
            for node in self._nodes:
                if node is leaf:
                    value[id(node)] = mp.mpf(x)
                elif node._op is None:
                    value[id(node)] = mp.mpf(node.data)
                else:
                    value[id(node)] = _real(node._op.value(B, *[value[id(p)]
                                                                for p in node._parents]))
            if not derivative:
                fx = value[id(graph.output)]
                if not mp.isfinite(fx):
                    raise _Undefined("not finite")
                return fx, None
            grad = {id(graph.output): mp.mpf(1)}
            for node in self._order:
                op = node._op
                g = grad.get(id(node))
                if op is None or g is None:
                    continue
                args = [value[id(p)] for p in node._parents]
                cache = {}
                for i, p in enumerate(node._parents):
                    if p.requires_grad:
                        d = _real(op.numeric_partial(B, D, i, value[id(node)], args, cache))
                        grad[id(p)] = grad.get(id(p), 0) + g * d
        except (ValueError, TypeError, ZeroDivisionError, OverflowError, DomainError) as exc:
            raise _Undefined(str(exc)) from None
        fx = value[id(graph.output)]
        dfx = grad.get(id(leaf), mp.mpf(0)) if leaf is not None else mp.mpf(0)
        if not (mp.isfinite(fx) and mp.isfinite(dfx)):
            raise _Undefined("not finite")
        return fx, dfx

    def doubles(self, xs):
        """f and f' at many points as float arrays, nan where undefined."""
        import numpy as np
        from ..autodiff.lower import lower
        xs = np.asarray(xs, dtype=float)
        try:
            with np.errstate(all="ignore"):
                graph = lower(self.program, {**self.bindings, self.variable: xs},
                              wrt={self.variable})
                out = graph.output
                if out.requires_grad:
                    out.backward(gradient=np.ones_like(xs))
                leaf = graph.inputs.get(self.variable)
                f = np.broadcast_to(np.asarray(out.data, dtype=float), xs.shape).copy()
                g = leaf.grad if leaf is not None and leaf.grad is not None else 0.0
                df = np.broadcast_to(np.asarray(g, dtype=float), xs.shape).copy()
            return f, df
        except (GradcliError, ArithmeticError, ValueError):
            pass
        # A point outside f's domain spoils the batch: one point at a time, nan there (and
        # f' nan alone where f is defined but f' is not, as sqrt at 0).
        f, df = np.full(xs.shape, np.nan), np.full(xs.shape, np.nan)
        for i, x in enumerate(xs):
            try:
                graph = lower(self.program, {**self.bindings, self.variable: float(x)},
                              wrt={self.variable})
                f[i] = float(graph.output.data)
                graph.output.backward()
                leaf = graph.inputs.get(self.variable)
                df[i] = float(leaf.grad) if leaf is not None and leaf.grad is not None else 0.0
            except (GradcliError, ArithmeticError, ValueError, TypeError):
                continue
        return f, df


def _read_equation(text: str, names):
    """The program of f; an equation as a book prints it is read as its difference."""
    return read_program(as_difference(text, names), names)


def as_difference(text: str, names=()) -> str:
    """`cos x = x` -> `(cos x) - (x)`: an equation as a book prints it, as f(x) = 0; any
    text that reads as a program (`f(x) = x^2 - 2` is a definition) is left as it is."""
    try:
        read_program(text, names)
        return text
    except GradcliError:
        pass
    depth, found = 0, []
    for i, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "=" and depth == 0:
            found.append(i)
    if len(found) != 1 or "\n" in text or ";" in text:
        return text
    left, right = text[:found[0]].strip(), text[found[0] + 1:].strip()
    return f"({left}) - ({right})" if left and right else text


class _Undefined(ArithmeticError):
    """f or f' has no real finite value at the point."""


def _real(v):
    import mpmath as mp
    if isinstance(v, mp.mpc):
        if v.imag != 0:
            raise ValueError("not real")
        return v.real
    return v


def decimal_text(x, digits: int) -> str:
    """x (mpmath or float) rounded to `digits` decimal places, as a book prints it."""
    import mpmath as mp
    d = Decimal(mp.nstr(mp.mpf(x), WORK_DPS, strip_zeros=False, min_fixed=-math.inf,
                        max_fixed=math.inf)) if not isinstance(x, float) else Decimal(x)
    with localcontext() as ctx:  # room for every digit of a large iterate
        ctx.prec = max(60, d.adjusted() + digits + 5)
        q = d.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)
    if q == 0:
        q = abs(q)
    return format(q, "f")


def _check_digits(digits: int) -> int:
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= MAX_DIGITS:
        raise UsageError(f"--digits must be a whole number of decimal places from 0 to "
                         f"{MAX_DIGITS}, got {digits}")
    return digits


def _short(x) -> str:
    from ..numbers import format_number
    return format_number(float(f"{float(x):.6g}"))


# ---------------------------------------------------------------- the iteration

def newton(text: str, start, *, steps: int | None = None, digits: int = DEFAULT_DIGITS,
           variable: str | None = None, bindings: dict | None = None,
           start_text: str | None = None, sign: int = -1) -> NewtonRun:
    """Newton's method on f = `text` from x0 = `start` (see the module doc).

    `steps`: exactly that many iterations (fewer only where the iteration cannot
    go on); None: until x_n and x_{n+1} agree to `digits` decimal places (at most
    AUTO_STEPS). `sign=+1` iterates the usual slip x_{n+1} = x_n + f/f' (check
    names that mistake by computing it).

    >>> [r.text for r in newton("x^2 - 2", 1, steps=3, digits=7).iterates]
    ['1.5000000', '1.4166667', '1.4142157']
    """
    import mpmath as mp
    digits = _check_digits(digits)
    if steps is not None and (isinstance(steps, bool) or not isinstance(steps, int)
                              or not 1 <= steps <= MAX_STEPS):
        raise UsageError(f"--steps must be a whole number of iterations from 1 to "
                         f"{MAX_STEPS}, got {steps}")
    curve = Curve(text, variable, bindings, "--at")
    x0 = float(start)
    if not math.isfinite(x0):
        raise UsageError(f"the starting point x0 must be a finite number, got {start}")
    curve.lower_at(x0)
    v = curve.variable
    limit = steps if steps is not None else AUTO_STEPS
    with mp.workdps(WORK_DPS):
        x = mp.mpf(x0)
        rows = [Row(0, x, decimal_text(x, digits))]
        stop, why, cycle, converged = "", "", None, False
        while True:
            row = rows[-1]
            n = row.n
            try:
                fx, dfx = curve.precise(row.x)
            except _Undefined:
                stop = "undefined"
                why = (f"f is undefined at x{n} = {row.text}: the iteration has left f's "
                       "domain" if n else f"f is undefined at the start x0 = {row.text}")
                break
            row.fx, row.dfx = float(fx), float(dfx)
            if fx == 0 and dfx == 0:
                converged, stop = True, "converged"
                why = (f"f(x{n}) = 0: x{n} is a root (f'(x{n}) = 0 too, so the iteration "
                       "stops there)")
                break
            if n >= limit:
                break
            if dfx == 0:
                stop = "zero-derivative"
                why = (f"f'(x{n}) = 0 at x{n} = {row.text}: the tangent there is horizontal "
                       f"and never meets the x-axis, so there is no x{n + 1}; start from "
                       "another point")
                break
            nxt = row.x + sign * fx / dfx
            if abs(nxt) > HUGE:
                stop = "runaway"
                why = (f"the iterates run away: |x{n + 1}| would exceed {HUGE:g}, beyond any "
                       "double; Newton's method diverges from this start")
                break
            rows.append(Row(n + 1, nxt, decimal_text(nxt, digits)))
            if steps is None and rows[-1].text == row.text:
                converged, stop = True, "converged"
                why = (f"x{n} and x{n + 1} agree to {digits} decimal place"
                       f"{'s' if digits != 1 else ''}")
                break
            if steps is None and _runs_away(rows, x0):
                stop = "runaway"
                why = (f"the iterates run away: |x{n + 1}| = {_short(abs(nxt))}, growing at "
                       "every step; Newton's method diverges from this start")
                break
            cycle = _cycle(rows)
            if cycle is not None and steps is None:
                stop = "cycle"
                break
        if stop in ("", "cycle"):
            cycle = _cycle(rows)
            if cycle is not None:
                stop = "cycle"
                why = (f"the iterates cycle: {', '.join(cycle)}, {cycle[0]}, ... "
                       f"(period {len(cycle)}); they never converge from this start")
        if stop == "":
            if steps is not None:
                stop = "steps"
                last, before = rows[-1], rows[-2]
                converged = last.text == before.text
                why = (f"{steps} iteration{'s' if steps != 1 else ''} as asked; x{last.n - 1} "
                       f"and x{last.n} " + ("agree" if converged else "do not yet agree")
                       + f" to {digits} decimal place{'s' if digits != 1 else ''}")
            else:
                stop = "no-convergence"
                why = (f"no two successive iterates agreed to {digits} decimal places in "
                       f"{AUTO_STEPS} iterations")
        last = rows[-1]
        if last.fx is None and stop != "undefined":
            try:  # the table shows f and f' at the last iterate too
                fx, dfx = curve.precise(last.x)
                last.fx, last.dfx = float(fx), float(dfx)
            except _Undefined:
                pass
        run = NewtonRun(text, curve.read_as, v, start_text or _short(x0), digits, steps, rows,
                        converged, stop, why, cycle=cycle)
        if converged and sign < 0:
            _settle_root(run, curve)
    return run


def _runs_away(rows, x0: float) -> bool:
    """|x_n| far beyond the start and growing by half again or more at each of the last
    five steps."""
    if len(rows) < 6 or abs(rows[-1].x) <= RUNAWAY * max(1.0, abs(x0)):
        return False
    sizes = [abs(r.x) for r in rows[-6:]]
    return all(b >= 1.5 * a for a, b in zip(sizes, sizes[1:]))


def _cycle(rows) -> list | None:
    """The repeating block when the last iterates repeat a block of 2..LONGEST_CYCLE (as
    rounded), or None."""
    texts = [r.text for r in rows]
    if len(texts) < 4 or texts[-1] == texts[-2]:
        return None
    for p in range(2, LONGEST_CYCLE + 1):
        if len(texts) >= 2 * p and texts[-p:] == texts[-2 * p:-p] \
                and len(set(texts[-p:])) == p:
            first = len(texts) - 2 * p  # the cycle as it first came round
            while first > 0 and texts[first - 1] == texts[first - 1 + p]:
                first -= 1
            return texts[first:first + p]
    return None


def _settle_root(run: NewtonRun, curve: Curve) -> None:
    """The root to the digits asked, from the iteration carried on to full precision.

    Two iterates that agree to K places are the book's answer; where the root is
    multiple (slow, linear convergence) the root itself may round otherwise, and
    then the root's own rounding is given, with a warning."""
    import mpmath as mp
    x = run.rows[-1].x
    for _ in range(200):
        try:
            fx, dfx = curve.precise(x)
        except _Undefined:
            break
        if fx == 0 or dfx == 0:
            break
        step = fx / dfx
        x = x - step
        if abs(step) <= mp.mpf(10) ** (-WORK_DPS + 5) * max(1, abs(x)):
            break
    text = decimal_text(x, run.digits)
    run.root_text, run.root_value = text, float(x)
    last = run.rows[-1].text
    if text != last:
        run.warnings.append(f"x{run.rows[-1].n} = {last}, but the root it converges to "
                            f"rounds to {text}: the convergence is slow here (a multiple "
                            "root), so the root's own rounding is given")


# ---------------------------------------------------------------- every root in a range

def roots(text: str, low: float, high: float, *, digits: int = DEFAULT_DIGITS,
          variable: str | None = None, bindings: dict | None = None,
          samples: int = GRID) -> RootSearch:
    """Every root of f = `text` found in [low, high] (see the module doc)."""
    import mpmath as mp
    import numpy as np
    digits = _check_digits(digits)
    curve = Curve(text, variable, bindings, "--over")
    xs = np.linspace(low, high, samples + 1)
    f, df = curve.doubles(xs)
    defined = np.flatnonzero(np.isfinite(f))
    if not defined.size:
        raise DomainError(f"f is undefined at every sampled point of [{_short(low)}, "
                          f"{_short(high)}]")
    curve.lower_at(float(xs[defined[0]]))
    found, rejected = [], []
    with mp.workdps(WORK_DPS):
        scale = float(np.max(np.abs(f[defined]))) or 1.0
        for i in range(samples + 1):
            if f[i] == 0:
                _add(found, _polish(curve, xs[i], low, high) or mp.mpf(float(xs[i])),
                     crossing=None)
        for i in range(samples):
            a, b = f[i], f[i + 1]
            if np.isfinite(a) and np.isfinite(b) and a * b < 0:
                r = _bisect(curve, xs[i], xs[i + 1], a)
                if r is None:
                    rejected.append(f"f changes sign between {_short(xs[i])} and "
                                    f"{_short(xs[i + 1])} without a root (a jump, or a point "
                                    "where f is undefined)")
                    continue
                _add(found, r, crossing=True)
        # f touches 0 without crossing (a root of even multiplicity) near a local minimum of |f|
        size = np.abs(f)
        for i in range(samples + 1):
            if not np.isfinite(size[i]) or f[i] == 0:
                continue
            left = size[i - 1] if i > 0 else math.inf
            right = size[i + 1] if i < samples else math.inf
            if not (size[i] <= left and size[i] <= right):
                continue
            if (i > 0 and f[i - 1] * f[i] < 0) or (i < samples and f[i] * f[i + 1] < 0):
                continue
            r = _newton_from(curve, xs[i], low, high, scale)
            if r is not None:
                _add(found, r, crossing=None)
        # Two roots within one step of the grid hide each other: look beside each root
        # found for another, by Newton on f(x)/(x - r).
        spacing = (high - low) / samples
        for r, _ in list(found):
            for side in (-1, 1):
                other = _deflated(curve, r, r + side * spacing / 2, low, high, spacing, scale)
                if other is not None:
                    _add(found, other, crossing=None)
        out = []
        for r, crossing in sorted(found, key=lambda t: t[0]):
            if crossing is None:
                crossing = _crosses(curve, r)
            out.append(Root(decimal_text(r, digits), float(r), crossing, r))
    count = f"{len(out)} root{'s' if len(out) != 1 else ''}"
    note = (f"{count} found from sign changes of f at {samples + 1} evenly spaced points "
            f"(spacing {_short(spacing)}), Newton's method from each local minimum of |f| "
            "there and beside each root found; a sampled search cannot prove that there are no others (two roots closer "
            "than the spacing, or a touch of 0 between samples, can hide)")
    gaps = np.flatnonzero(~np.isfinite(f))
    if gaps.size:
        note += (f"; f is undefined at {gaps.size} of the sampled points (the first at "
                 f"{curve.variable} = {_short(xs[gaps[0]])}), where no root is looked for")
    search = RootSearch(text, curve.read_as or text, curve.variable, float(low), float(high),
                        digits, out, note, rejected)
    for r in out:
        if not r.crossing:
            search.warnings.append(f"f touches 0 at {curve.variable} ≈ {r.text} without "
                                   "changing sign (a root of even multiplicity)")
    return search


def _add(found: list, r, crossing) -> None:
    import mpmath as mp
    if r is None:
        return
    for i, (q, c) in enumerate(found):
        if abs(q - r) <= mp.mpf("1e-12") * max(1, abs(r)):
            if crossing and not c:
                found[i] = (q, True)
            return
    found.append((r, crossing))


def _crosses(curve, r) -> bool:
    """Whether f has opposite signs just left and right of the root r."""
    import mpmath as mp
    h = max(mp.mpf("1e-15"), abs(r) * mp.mpf("1e-15"))
    try:
        left = curve.value(r - h)
        right = curve.value(r + h)
    except _Undefined:
        return True
    return left * right < 0


def _polish(curve, x, low, high, bracket=None):
    """Newton in mpmath from x; the root (kept inside `bracket` when given), or x itself."""
    import mpmath as mp
    x = mp.mpf(float(x))
    best = x
    try:
        best_f = abs(curve.value(x))
    except _Undefined:
        return None
    for _ in range(80):
        try:
            fx, dfx = curve.precise(x)
        except _Undefined:
            break
        if abs(fx) < best_f:
            best, best_f = x, abs(fx)
        if fx == 0 or dfx == 0:
            break
        step = fx / dfx
        x = x - step
        if bracket is not None and not bracket[0] <= x <= bracket[1]:
            break
        if not low <= x <= high:
            break
        if abs(step) <= mp.mpf(10) ** (-WORK_DPS + 3) * max(1, abs(x)):
            try:
                if abs(curve.value(x)) < best_f:
                    best = x
            except _Undefined:
                pass
            break
    return best


def _bisect(curve, a: float, b: float, fa: float):
    """The root in the bracket [a, b] where f changes sign, or None for a jump or a pole."""
    import mpmath as mp
    import numpy as np
    # Narrowed in doubles first, on finer grids inside the bracket (cheap), then in mpmath.
    for _ in range(3):
        xs = np.linspace(a, b, 65)
        f, _ = curve.doubles(xs)
        change = np.flatnonzero(np.isfinite(f[:-1]) & np.isfinite(f[1:]) & (f[:-1] * f[1:] <= 0))
        if not change.size or not np.all(np.isfinite(f)):
            break
        i = int(change[0])
        if f[i] == 0:
            a = b = float(xs[i])
            break
        a, b, fa = float(xs[i]), float(xs[i + 1]), float(f[i])
    lo, hi, flo = mp.mpf(float(a)), mp.mpf(float(b)), fa
    if lo == hi:
        return _polish(curve, lo, lo, hi)
    quick = _polish(curve, (lo + hi) / 2, float(a), float(b), bracket=(lo, hi))
    if quick is not None:
        try:
            if abs(curve.value(quick)) <= mp.mpf(10) ** (-WORK_DPS // 2) * max(1, abs(fa)):
                return quick
        except _Undefined:
            pass
    for _ in range(60):
        mid = (lo + hi) / 2
        try:
            fm = curve.value(mid)
        except _Undefined:
            return None
        if fm == 0:
            return mid
        if (fm < 0) == (flo < 0):
            lo, flo = mid, fm
        else:
            hi = mid
    r = _polish(curve, (lo + hi) / 2, float(a), float(b), bracket=(mp.mpf(float(a)),
                                                                   mp.mpf(float(b))))
    if r is None:
        return None
    try:
        fr = abs(curve.value(r))
    except _Undefined:
        return None
    # A root: |f| there is at the level of the working precision. A jump or a pole: it is not.
    return r if fr <= mp.mpf(10) ** (-WORK_DPS // 2) * max(1, abs(fa)) else None


def _deflated(curve, r, x, low, high, spacing, scale):
    """A root other than r within a grid step of it: Newton on g(x) = f(x)/(x - r), whose
    derivative is (f'(x)(x - r) - f(x))/(x - r)^2; None when there is none."""
    import mpmath as mp
    x = mp.mpf(x)
    for _ in range(60):
        try:
            fx, dfx = curve.precise(x)
        except _Undefined:
            return None
        d = x - r
        if d == 0:
            return None
        g, dg = fx / d, (dfx * d - fx) / d ** 2
        if dg == 0:
            return None
        step = g / dg
        x = x - step
        if not (low <= x <= high) or abs(x - r) > 2 * spacing:
            return None
        if abs(step) <= mp.mpf(10) ** (-WORK_DPS + 5) * max(1, abs(x)):
            break
    try:
        fx = abs(curve.value(x))
    except _Undefined:
        return None
    if abs(x - r) <= mp.mpf("1e-12") * max(1, abs(r)):
        return None
    return x if fx <= mp.mpf(10) ** (-WORK_DPS + 12) * max(1.0, scale) else None


def _newton_from(curve, x, low, high, scale):
    """A root where f touches 0, from a local minimum of |f|: Newton (slow, linear, at a
    multiple root) in mpmath; None unless f reaches 0 to the working precision."""
    import mpmath as mp
    x = mp.mpf(float(x))
    for _ in range(400):
        try:
            fx, dfx = curve.precise(x)
        except _Undefined:
            return None
        if fx == 0:
            break
        if dfx == 0:
            return None
        step = fx / dfx
        x = x - step
        if not low <= x <= high:
            return None
        if abs(step) <= mp.mpf(10) ** (-WORK_DPS + 3) * max(1, abs(x)):
            break
    try:
        fx = abs(curve.value(x))
    except _Undefined:
        return None
    return x if fx <= mp.mpf(10) ** (-WORK_DPS + 12) * max(1.0, scale) else None
