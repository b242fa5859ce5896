"""Newton's method in one variable: the iteration table from a start.

`newton(text, start)` iterates x_{n+1} = x_n - f(x_n)/f'(x_n) as a book does:
either a given number of steps (the book's "find x1, x2 and x3") or until two
successive iterates agree to K decimal places (the book's "correct to six
decimal places"). The iterates are computed in mpmath at 40 significant digits
from the expression's own graph (f and f' by the op table's value and
derivative rules), so that every decimal printed is the iterate's own, never
a double's rounding noise. What stops the iteration is said plainly: a zero
derivative (the tangent is horizontal, no next iterate), a point where f is
undefined, iterates that run away, a cycle (x^3 - 2x + 2 from 0: 0, 1, 0, ...).

f and f' come from curve.py. Nothing here prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ...errors import UsageError
from .curve import DEFAULT_DIGITS, WORK_DPS, Curve, Undefined, check_digits, decimal_text, short

MAX_STEPS = 100
AUTO_STEPS = 50        # without --steps: give up after this many iterations
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
                          # no-convergence, no-root
    why: str
    root_text: str | None = None
    root_value: float | None = None
    cycle: list | None = None
    warnings: list = field(default_factory=list)

    @property
    def iterates(self) -> list:
        return self.rows[1:]


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
    digits = check_digits(digits)
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
            except Undefined:
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
                why = (f"the iterates run away: |x{n + 1}| = {short(abs(nxt))}, growing at "
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
            except Undefined:
                pass
        run = NewtonRun(text, curve.read_as, v, start_text or short(x0), digits, steps, rows,
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
    """The repeating block (as printed) when the last iterates repeat a block of
    2..LONGEST_CYCLE values to 12 digits, or None. The values decide, never their rounding:
    iterates that close in on a root from alternate sides may print alike at few places."""
    xs = [r.x for r in rows]

    def same(a, b) -> bool:
        return abs(a - b) <= 1e-12 * max(1, abs(a))
    if len(xs) < 4 or same(xs[-1], xs[-2]):
        return None
    for p in range(2, LONGEST_CYCLE + 1):
        if len(xs) < 2 * p:
            break
        block = xs[-p:]
        if all(same(xs[-i], xs[-i - p]) for i in range(1, p + 1)) and not any(
                same(block[i], block[j]) for i in range(p) for j in range(i + 1, p)):
            first = len(xs) - 2 * p  # the cycle as it first came round
            while first > 0 and same(xs[first - 1], xs[first - 1 + p]):
                first -= 1
            return [rows[i].text for i in range(first, first + p)]
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
        except Undefined:
            break
        if fx == 0 or dfx == 0:
            break
        step = fx / dfx
        x = x - step
        if abs(step) <= mp.mpf(10) ** (-WORK_DPS + 5) * max(1, abs(x)):
            break
    try:
        reached = abs(curve.value(x))
    except Undefined:
        reached = None
    scale = max([1.0] + [abs(r.fx) for r in run.rows if r.fx is not None and
                         math.isfinite(r.fx)])
    if reached is None or reached > mp.mpf(10) ** -30 * scale:
        # Agreeing iterates are the book's test; a root is f = 0, and f stays away from 0.
        run.converged, run.stop = False, "no-root"
        run.why = (f"{run.why}, but f does not reach 0 there (|f| stays near "
                   f"{short(reached) if reached is not None else 'an undefined value'}): no "
                   "root where the iterates settle")
        return
    text = decimal_text(x, run.digits)
    run.root_text, run.root_value = text, float(x)
    last = run.rows[-1].text
    if text != last:
        run.warnings.append(f"x{run.rows[-1].n} = {last}, but the root it converges to "
                            f"rounds to {text}: the convergence is slow here (a multiple "
                            "root), so the root's own rounding is given")
