"""f and df/dx over a range, sampled in one vectorised pass (output/plot.py draws them).

`sample` binds the plotted variable to a NumPy vector of points and lowers the
expression once; backward with a seed of ones gives df/dx at every point at
once (f acts element-wise, so each point's derivative is its own). Where f is
undefined at some points the engine's domain check names them (the error's
mask); those points become gaps and the rest are evaluated again, so a plot of
log(x) over -1:1 is half a curve, not a crash.

A pole or a step between two samples (tan near pi/2, 1/x, sign(x)) would be drawn
as a vertical line. Each segment whose ends differ a lot is looked at more
closely with a few more evaluations: a continuous function's change shrinks
with the interval, a discontinuity's does not; such a segment is a jump and is
left undrawn.

Drawing is output/plot.py's (plotext for the terminal, matplotlib for PNG and
SVG); this module returns the samples (PlotData) and imports neither.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import limits, ops, plotscale
from ..autodiff.lower import missing_input
from ..errors import DomainError, GradcliError, ShapeError, UsageError
from ..inputs import inputs_of, parse_over, unused_bindings
from ..kinks import kink_text
from ..language.expr import Apply, Vector, first_span, postorder, size
from ..language.printer import read_as
from ..numbers import decimal_grid, number_text
from ..plotscale import INSTALL_HINT
from ..reading import given_names, read_program


@dataclass
class PlotData:
    """Samples of f and df/dx; nan marks a point where the value is undefined."""

    expression: str
    read_as: str
    var: str
    lo: float
    hi: float
    at: dict
    xs: object
    f: object
    df: object
    kinks: list = field(default_factory=list)  # the x of every sample on a kink
    # Per panel ("f", "df"): each i whose segment i -> i+1 jumps (a pole or a step).
    jumps: dict = field(default_factory=lambda: {"f": [], "df": []})
    warnings: list = field(default_factory=list)

    @property
    def label(self) -> str:
        """The derivative's name as a book writes it: f'(x) for a function of x alone, the
        partial ∂f/∂x where other inputs are held at their --at values."""
        return f"∂f/∂{self.var}" if self.at else f"f'({self.var})"


def _fmt(v) -> str:
    return number_text(v)


def sample(text: str, over: str, bindings=None, points: int = 201, program=None) -> PlotData:
    """f and df/d(var) at `points` evenly spaced points of the range `over` ('x=A:B')."""
    var, lo, hi = parse_over(over)
    if isinstance(points, bool) or not isinstance(points, int) or points < 2:
        raise UsageError(f"--points must be a whole number of at least 2, got {points!r}")
    if points > 1_000_000:
        raise UsageError(f"--points {points} is too many; at most 1000000")
    program = program or read_program(text, given_names(bindings, [var]))
    bindings = dict(bindings or {})
    if var in bindings:
        raise UsageError(f"'{var}' is the plotted variable (--over); do not also bind it with --at")
    variables = inputs_of(program)
    warnings = list(program.warnings)
    for name in variables:
        if name != var and name not in bindings:
            raise missing_input(name, program, first_span(program, name),
                                bound=set(bindings) | {var})
    warnings.extend(unused_bindings(bindings, variables))
    for name, value in bindings.items():
        if name in variables and getattr(value, "ndim", 0):
            raise UsageError(f"--at {name}: plot needs a number for every input but {var}")
    _check_pointwise(program, var)
    if var not in variables:
        warnings.append(f"the expression does not depend on {var}: f is constant and "
                        f"∂f/∂{var} is 0")
    import numpy as np
    from ..data.evaluate import evaluate_arrays

    xs = np.array(decimal_grid(lo, hi, points))  # 0.3, not 0.30000000000000004
    used = {k: v for k, v in bindings.items() if k in variables}
    wrt = [var] if var in variables else None
    with np.errstate(all="ignore"):
        res = evaluate_arrays(program, {var: xs}, used, wrt=wrt)
    f = np.broadcast_to(np.asarray(res.value, dtype=float), xs.shape).copy()
    if var in variables:
        df = np.asarray(res.gradient[var], dtype=float).copy()
    else:
        df = np.where(res.undefined, np.nan, 0.0)
    warnings += undefined_points(res, points, f"{var} = {_fmt(lo)}:{_fmt(hi)}", "range",
                                 "points", "left as gaps")
    nonfinite = int((~res.undefined & ~np.isfinite(df)).sum())
    if nonfinite:
        warnings.append(f"∂f/∂{var} is infinite or undefined at {nonfinite} point"
                        f"{'s' * (nonfinite != 1)}; they are left as gaps in the derivative")
    with np.errstate(all="ignore"):  # values near a double's limits: inf differences are fine
        jumps = _jumps(program, var, used, wrt, xs, f, df)
    if jumps["f"]:
        warnings.append(f"f jumps (a pole or a step) {_between(xs, jumps['f'], var)}; "
                        "the line is not drawn across")
    kinks = []
    for kink, on in res.kinked:
        if not on.any():
            continue
        at = ", ".join(_fmt(float(x)) for x in xs[on][:5])
        more = f" and {int(on.sum()) - 5} more" if on.sum() > 5 else ""
        warnings.append(f"{kink_text(kink)} (at {var} = {at}{more})")
        kinks.extend(float(x) for x in xs[on])
    return PlotData(expression=text, read_as=read_as(program), var=var, lo=lo, hi=hi,
                    at=bindings, xs=xs, f=f, df=df, kinks=kinks, jumps=jumps,
                    warnings=warnings)


JUMP_SHARE = 0.02       # a segment is looked at when its ends differ by this share of the panel
JUMP_PASSES = 4         # each pass looks up to 64 times closer: 64**4 is about 1.7e7
JUMP_WORK = 2_000_000   # nodes x points of one pass, so a huge formula costs no more than its plot


def _jumps(program, var, bindings, wrt, xs, f, df) -> dict:
    """The segments of each panel across which the function jumps (see the module doc).

    Each pass evaluates a finer grid inside every segment still in question and
    keeps the piece with the largest change. A continuous function's change
    shrinks with the piece; one that stays at least half of what it was after
    JUMP_PASSES passes, or meets an undefined point, is a pole or a step.
    """
    import numpy as np

    from ..data.evaluate import evaluate_arrays
    found = {"f": [], "df": []}
    if var not in (wrt or []):
        return found  # f is constant in the plotted variable
    seg, panel = [], []
    for p, ys in enumerate((f, df)):
        finite = ys[np.isfinite(ys)]
        if finite.size < 2:
            continue
        view = plotscale.view(ys)
        # Past a double's range the span is inf, and no segment stands out.
        span = view[1] - view[0] if view else float(finite.max() - finite.min())
        change = np.abs(np.diff(ys))
        # Rounding is not a jump: a change must also stand out from the values' last digits.
        floor = 1e-12 * np.maximum(np.abs(ys[:-1]), np.abs(ys[1:]))
        look = np.isfinite(change) & (change > JUMP_SHARE * span) & (change > floor)
        idx = np.flatnonzero(look)
        if idx.size > limits.MAX_JUMP_SEGMENTS:
            idx = np.sort(idx[np.argsort(change[idx])[-limits.MAX_JUMP_SEGMENTS:]])
        seg.append(idx)
        panel.append(np.full(idx.size, p))
    if not sum(s.size for s in seg):
        return found
    seg, panel = np.concatenate(seg), np.concatenate(panel)
    ya = np.where(panel == 0, f[seg], df[seg])
    yb = np.where(panel == 0, f[seg + 1], df[seg + 1])
    a, b = xs[seg].astype(float), xs[seg + 1].astype(float)
    start = np.abs(yb - ya)
    jump = np.zeros(seg.size, dtype=bool)
    alive = np.ones(seg.size, dtype=bool)
    nodes = sum(size(stmt.expr) for stmt in program.statements)
    budget = max(xs.size, JUMP_WORK // max(nodes, 1))
    for _ in range(JUMP_PASSES):
        live = np.flatnonzero(alive)
        if not live.size:
            break
        pieces = int(min(64, max(2, budget // live.size)))
        inner = np.linspace(0.0, 1.0, pieces + 1)[1:-1]
        grid = a[live, None] + (b[live] - a[live])[:, None] * inner
        try:
            res = evaluate_arrays(program, {var: grid.ravel()}, bindings, wrt=wrt)
        except GradcliError:
            return {"f": [], "df": []}  # no closer look than the samples: draw them as they are
        n = grid.size
        ym = np.where(np.repeat(panel[live], inner.size) == 0,
                      np.broadcast_to(np.asarray(res.value, dtype=float), (n,)),
                      np.broadcast_to(np.asarray(res.gradient[var], dtype=float), (n,))
                      ).reshape(grid.shape)
        undefined = ~np.isfinite(ym).all(axis=1)
        jump[live[undefined]] = True
        alive[live[undefined]] = False
        ok = ~undefined
        live, grid, ym = live[ok], grid[ok], ym[ok]
        x_all = np.column_stack((a[live], grid, b[live]))
        y_all = np.column_stack((ya[live], ym, yb[live]))
        steps = np.abs(np.diff(y_all, axis=1))
        k = np.argmax(steps, axis=1)
        rows = np.arange(live.size)
        a[live], b[live] = x_all[rows, k], x_all[rows, k + 1]
        ya[live], yb[live] = y_all[rows, k], y_all[rows, k + 1]
        alive[live[steps[rows, k] < start[live] / 4]] = False
    jump |= alive & (np.abs(yb - ya) >= start / 2)
    for p, name in enumerate(("f", "df")):
        found[name] = sorted(int(i) for i in seg[jump & (panel == p)])
    return found


def _between(xs, segments, var) -> str:
    places = [f"between {var} = {float(xs[i]):.6g} and {float(xs[i + 1]):.6g}"
              for i in segments[:5]]
    more = f" and {len(segments) - 5} more" if len(segments) > 5 else ""
    return ", ".join(places) + more


def _check_pointwise(program, var):
    """Each x is its own point: a reduction (sum, mean, dot, @) would mix them."""
    for stmt in program.statements:
        for node in postorder(stmt.expr):
            if isinstance(node, Vector) or (isinstance(node, Apply)
                                            and ops.TABLE[node.op].vjp is not None):
                what = "a vector literal" if isinstance(node, Vector) else \
                    (ops.TABLE[node.op].symbol or node.op)
                raise ShapeError(f"plot evaluates f at each {var} on its own, but {what} would "
                                 f"combine the points (it reduces over {var})",
                                 source=program.source, span=node.span,
                                 hint="plot the expression inside the reduction")


def undefined_points(res, total: int, where: str, region: str, points: str, left: str) -> list:
    """The warning for the samples where f is undefined; undefined at every one (nothing to
    draw), the error, as `eval` gives it."""
    undefined = int(res.undefined.sum())
    if undefined == total:
        first = res.problems[0][1] if res.problems else f"f is undefined over the whole {region}"
        raise DomainError(f"{first}, and so at every point of {where}")
    if not undefined:
        return []
    example = f" (at the first: {res.problems[0][1]})" if res.problems else ""
    return [f"f is undefined at {undefined} of {total} {points}{example}; they are {left}"]


__all__ = ["PlotData", "parse_over", "sample", "undefined_points", "INSTALL_HINT"]
