"""f and df/dx over a range: sampled in one vectorised pass, drawn in the terminal or to a file.

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

Drawing is separate: plotext for the terminal (a dependency), matplotlib for
PNG/SVG (the optional `plot` extra); both are imported only here, only when used.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .. import limits, ops
from ..autodiff.lower import missing_input
from ..errors import DomainError, GradcliError, LimitError, ShapeError, UsageError
from ..inputs import inputs_of, parse_over, unused_bindings
from ..kinks import kink_text
from ..language.expr import Apply, Vector, first_span, postorder, size
from ..reading import given_names, read_program
from ..language.printer import carets, read_as
from ..numbers import HUMAN_DIGITS, number_text

# matplotlib is the `plot` extra (pyproject.toml); NumPy and plotext are always installed.
INSTALL_HINT = "pip install 'gradcli[plot]'"


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
        return f"∂f/∂{self.var}"


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
    from ..arrays import evaluate_arrays

    xs = np.linspace(lo, hi, points)
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
MAX_JUMP_SEGMENTS = 1_000
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

    from ..arrays import evaluate_arrays
    found = {"f": [], "df": []}
    if var not in (wrt or []):
        return found  # f is constant in the plotted variable
    seg, panel = [], []
    for p, ys in enumerate((f, df)):
        finite = ys[np.isfinite(ys)]
        if finite.size < 2:
            continue
        view = _view(ys)
        # Past a double's range the span is inf, and no segment stands out.
        span = view[1] - view[0] if view else float(finite.max() - finite.min())
        change = np.abs(np.diff(ys))
        # Rounding is not a jump: a change must also stand out from the values' last digits.
        floor = 1e-12 * np.maximum(np.abs(ys[:-1]), np.abs(ys[1:]))
        look = np.isfinite(change) & (change > JUMP_SHARE * span) & (change > floor)
        idx = np.flatnonzero(look)
        if idx.size > MAX_JUMP_SEGMENTS:
            idx = np.sort(idx[np.argsort(change[idx])[-MAX_JUMP_SEGMENTS:]])
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



# ------------------------------------------------------------------ drawing

def _kink_marks(data):
    """(xs, ys) of the samples on a kink whose derivative is finite: the convention used."""
    import numpy as np
    xs, ys = [], []
    for x in dict.fromkeys(data.kinks):
        i = int(np.argmin(np.abs(data.xs - x)))
        if np.isfinite(data.df[i]):
            xs.append(float(data.xs[i]))
            ys.append(float(data.df[i]))
    return xs, ys


def _finite(values):
    import numpy as np
    out = np.array(values, dtype=float)
    out[~np.isfinite(out)] = np.nan
    return out


def _view(ys):
    """A y-range that ignores a few huge spikes (1/x near 0), or None to fit all values."""
    import numpy as np
    finite = ys[np.isfinite(ys)]
    if finite.size < 10:
        return None
    lo, hi = float(finite.min()), float(finite.max())
    q_lo, q_hi = (float(v) for v in np.percentile(finite, [2, 98]))
    spread = q_hi - q_lo
    # A spread in the last digits of the values is rounding, not a shape worth zooming into.
    if spread <= 1e-12 * max(abs(q_lo), abs(q_hi)) or hi - lo <= 8 * spread:
        return None
    pad = 0.15 * spread
    return q_lo - pad, q_hi + pad


def title(data: PlotData) -> str:
    return title_of(data.read_as, data.at)


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


def title_of(formula: str, at: dict) -> str:
    """`f = sin(a*x)  at a = 2`: the formula and the fixed values of the other inputs."""
    text = f"f = {carets(formula)}"
    if at:
        text += "  at " + ", ".join(f"{k} = {number_text(v, HUMAN_DIGITS)}"
                                    for k, v in at.items())
    return text


def _ticks(lo: float, hi: float, count: int = 5, outer: bool = False) -> list[float]:
    """About `count` round numbers from lo to hi (steps of 1, 2, 2.5 or 5 times a power of 10);
    `outer`: from the last round number at or below lo to the first at or above hi."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return []
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / max(1, count - 1)
    try:
        power = 10.0 ** math.floor(math.log10(raw))
        step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw * (1 - 1e-9))
        first = math.floor(lo / step + 1e-9) if outer else math.ceil(lo / step - 1e-9)
    except (OverflowError, ValueError, ZeroDivisionError, StopIteration):
        return []  # a range near the ends of the doubles: plotext's own ticks
    if not all(math.isfinite(v) for v in (step, first * step, hi + step)):
        return []
    last = hi + (step * (1 - 1e-9) if outer else step * 1e-9)
    ticks = []
    k = first
    while k * step <= last and len(ticks) < 4 * count:
        ticks.append(k * step)
        k += 1
    return ticks


def _tick_label(v: float) -> str:
    return number_text(0.0 if abs(v) < 1e-300 else float(v), 4)


def _y_range(ys, view):
    """The y-range a panel shows: its zoomed view, or the range of its finite values."""
    import numpy as np
    if view is not None:
        return view
    finite = ys[np.isfinite(ys)]
    if not finite.size:
        return None
    return float(finite.min()), float(finite.max())


def terminal_plot(data: PlotData, width: int = 80, height: int = 24, color: bool = False) -> str:
    """f above ∂f/∂x, as text of the given size (plotext); gaps where values are undefined."""
    import numpy as np
    import plotext

    if width * height > limits.MAX_PLOT_CELLS:
        raise LimitError(f"a terminal plot of {width} x {height} characters is over the limit "
                         f"of {limits.MAX_PLOT_CELLS:,} characters",
                         hint="choose a smaller --width or --height, or write an image with "
                              "--output plot.png")
    # The caller chose the size (the CLI from the real terminal): no clipping to plotext's guess.
    plotext.terminal.limit(False, False)
    fig = plotext.figure
    fig.clear()
    fig.plot_size(max(20, width), max(10, height))
    fig.subplots(2, 1)
    # Both panels' y labels padded to one width, so that f and f' put the same x in the
    # same column (plotext sizes each panel's label margin by its own labels).
    labels = {}
    for row, values in ((1, data.f), (2, data.df)):
        view = _view(_finite(values))
        span = _y_range(_finite(values), view)
        if span is not None:
            # Without a zoomed view the panel runs from round number to round number.
            ticks = _ticks(*span, outer=view is None)
            labels[row] = (ticks, [_tick_label(t) for t in ticks])
    pad = max((len(s) for _, texts in labels.values() for s in texts), default=0)
    for row, (values, title_text, jumps) in enumerate(
            ((data.f, title(data), data.jumps["f"]),
             (data.df, data.label, data.jumps["df"])), start=1):
        panel = fig.subplot(row, 1)
        ys = _finite(values)
        keep = np.isfinite(ys)
        with np.errstate(over="ignore"):
            overflowing = keep.any() and not np.isfinite(np.max(ys[keep]) - np.min(ys[keep]))
        if overflowing:
            raise DomainError(f"{title_text} spans more than a double can hold "
                              f"(from {_fmt(np.min(ys[keep]))} to {_fmt(np.max(ys[keep]))}) "
                              "and cannot be drawn",
                              hint="narrow --over, or print the samples with -o csv")
        view = _view(ys)
        if view is not None:
            # plotext walks a segment point by point even far past the limits: a spike
            # 10^14 rows away made it allocate hundreds of gigabytes and abort. Beyond a
            # span past the limits a segment leaves the panel as steeply, so clip there.
            span = view[1] - view[0]
            ys = np.clip(ys, view[0] - span, view[1] + span)
        if keep.any():
            sig = panel.signal(data.xs[keep].tolist(), ys[keep].tolist())
            sig.lines()
            # A gap: no segment into a point whose predecessor was dropped, or across a jump.
            positions = np.flatnonzero(keep)
            after_jump = np.isin(positions - 1, jumps)
            for i in np.flatnonzero((np.diff(positions) > 1) | after_jump[1:]) + 1:
                sig.line(int(i), False)
            panel.draw(sig)
        marks = _kink_marks(data) if row == 2 else ([], [])
        if marks[0]:
            panel.draw(panel.signal(*marks, marker="x"))
        panel.ruler("x").lim(data.lo, data.hi)
        if view is not None:
            panel.ruler("y").lim(*view)
        if row in labels:
            ticks, texts = labels[row]
            if view is None and len(ticks) > 1:
                panel.ruler("y").lim(ticks[0], ticks[-1])
            panel.ruler("y").ticks(ticks, [t.rjust(pad) for t in texts])
        panel.title(title_text)
        panel.legend(active=False)
        if row == 2:
            panel.label(data.var, "x")
    if not color:
        fig.theme("colorless")
    # plotext prints its own notes, coloured, straight to stdout/stderr ("values too
    # close together"); they would corrupt the output and carry escape codes.
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        text = fig.build().string(colorless=not color)
    fig.clear()
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


FILE_TYPES = ("png", "svg")


def _broken(xs, ys, jumps):
    """xs, ys with a nan point inside each jumping segment, where matplotlib lifts the pen."""
    import numpy as np
    if not jumps:
        return xs, ys
    at = np.asarray(jumps) + 1
    return np.insert(xs, at, (xs[at - 1] + xs[at]) / 2), np.insert(ys, at, np.nan)


def save_plot(data: PlotData, path: str, width: int = 800, height: int = 600) -> str:
    """Write f and ∂f/∂x to a PNG or SVG of width x height pixels (100 per inch); return the type."""
    kind = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if kind not in FILE_TYPES:
        raise UsageError(f"--output {path}: the file name must end in .png or .svg")
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise UsageError("--output needs matplotlib, which is not installed",
                         hint=f"{INSTALL_HINT}  (or: pip install matplotlib)") from None
    fig = Figure(figsize=(width / 100, height / 100), dpi=100)
    top, bottom = fig.subplots(2, 1, sharex=True)
    top.plot(*_broken(data.xs, _finite(data.f), data.jumps["f"]), color="tab:blue",
             linewidth=1.5)
    top.set_ylabel("f")
    top.set_title(title(data), fontsize=10)
    df = _finite(data.df)
    bottom.plot(*_broken(data.xs, df, data.jumps["df"]), color="tab:orange", linewidth=1.5)
    kx, ky = _kink_marks(data)
    if kx:
        bottom.plot(kx, ky, "x", color="tab:red", label="kink (value used, as PyTorch)")
        bottom.legend(loc="best", fontsize=8)
    bottom.set_ylabel(data.label)
    bottom.set_xlabel(data.var)
    for ax, values in ((top, data.f), (bottom, df)):
        view = _view(_finite(values))
        if view is not None:
            ax.set_ylim(*view)
        ax.set_xlim(data.lo, data.hi)
        ax.grid(True, alpha=0.3)
        ax.axhline(0, color="0.6", linewidth=0.6)
    return write_figure(fig, path, kind)


def write_figure(fig, path: str, kind: str) -> str:
    """Save a matplotlib figure as PNG or SVG; a file that cannot be written is bad input."""
    fig.tight_layout()
    try:
        fig.savefig(path, format=kind, dpi=100)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    return kind


__all__ = ["PlotData", "parse_over", "sample", "terminal_plot", "save_plot", "INSTALL_HINT"]
