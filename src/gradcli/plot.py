"""f and df/dx over a range: sampled in one vectorised pass, drawn in the terminal or to a file.

`sample` binds the plotted variable to a NumPy vector of points and lowers the
expression once; backward with a seed of ones gives df/dx at every point at
once (f acts element-wise, so each point's derivative is its own). Where f is
undefined at some points the engine's domain check names them (the error's
mask); those points become gaps and the rest are evaluated again, so a plot of
log(x) over -1:1 is half a curve, not a crash.

Drawing is separate: plotext for the terminal (a dependency), matplotlib for
PNG/SVG (the optional `plot` extra); both are imported only here, only when used.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .api import constant_value, inputs_of, kink_text, split_top_level, unused_bindings
from .errors import DomainError, LimitError, ShapeError, UsageError
from .expr import first_span
from .lower import missing_input
from .parser import parse
from .printer import read_as

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
    warnings: list = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"∂f/∂{self.var}"


def parse_over(text: str):
    """`x=A:B` -> ('x', A, B), with A and B constant expressions such as -pi or 2*pi."""
    name, eq, rest = text.partition("=")
    name = name.strip()
    if not eq or not name:
        raise UsageError(f"--over expects NAME=A:B, got '{text}'", hint="for example --over x=-3:3")
    if not name.isidentifier():
        raise UsageError(f"--over: '{name}' is not a valid name")
    bounds = split_top_level(rest, ":", keep_empty=True)
    if len(bounds) != 2 or not all(bounds):
        raise UsageError(f"--over {name}= expects a range A:B, got '{rest}'",
                         hint=f"for example --over {name}=-pi:pi")
    lo = _bound(bounds[0], f"--over {name} (start)")
    hi = _bound(bounds[1], f"--over {name} (end)")
    if not lo < hi:
        raise UsageError(f"--over {name}: the range must go from a smaller to a larger number, "
                         f"got {_fmt(lo)}:{_fmt(hi)}")
    if not math.isfinite(hi - lo):
        raise UsageError(f"--over {name}: the range {_fmt(lo)}:{_fmt(hi)} is wider than a "
                         "double can hold (about 1.8e308)", hint="narrow the range")
    return name, lo, hi


def _bound(text, what) -> float:
    value = constant_value(text.strip(), what)
    if getattr(value, "ndim", 0) or isinstance(value, list):
        raise UsageError(f"{what}: expected a number, got a vector")
    value = float(value)
    if not math.isfinite(value):
        raise UsageError(f"{what}: expected a finite number, got {_fmt(value)}")
    return value


def _fmt(v) -> str:
    from .formats import number_text
    return number_text(v)


def sample(text: str, over: str, bindings=None, points: int = 201, program=None) -> PlotData:
    """f and df/d(var) at `points` evenly spaced points of the range `over` ('x=A:B')."""
    var, lo, hi = parse_over(over)
    if isinstance(points, bool) or not isinstance(points, int) or points < 2:
        raise UsageError(f"--points must be a whole number of at least 2, got {points!r}")
    if points > 1_000_000:
        raise UsageError(f"--points {points} is too many; at most 1000000")
    program = program or parse(text)
    bindings = dict(bindings or {})
    if var in bindings:
        raise UsageError(f"'{var}' is the plotted variable (--over); do not also bind it with --at")
    variables = inputs_of(program)
    warnings = list(program.warnings)
    for name in variables:
        if name != var and name not in bindings:
            raise missing_input(name, program, first_span(program, name))
    warnings.extend(unused_bindings(bindings, variables))
    for name, value in bindings.items():
        if name in variables and getattr(value, "ndim", 0):
            raise UsageError(f"--at {name}: plot needs a number for every input but {var}")
    _check_pointwise(program, var)
    if var not in variables:
        warnings.append(f"the expression does not depend on {var}: f is constant and "
                        f"∂f/∂{var} is 0")
    try:
        import numpy as np
        from .batch import evaluate_arrays
    except ImportError:
        raise UsageError("plot needs NumPy, which is not installed", hint=INSTALL_HINT) from None

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
    undefined = int(res.undefined.sum())
    if undefined == points:
        # Undefined everywhere: nothing to draw, so this is the error, as `eval` gives it.
        first = res.problems[0][1] if res.problems else "f is undefined over the whole range"
        raise DomainError(f"{first}, and so at every point of {var} = {_fmt(lo)}:{_fmt(hi)}")
    if undefined:
        example = f" (at the first: {res.problems[0][1]})" if res.problems else ""
        warnings.append(f"f is undefined at {undefined} of {points} points{example}; "
                        "they are left as gaps")
    nonfinite = int((~res.undefined & ~np.isfinite(df)).sum())
    if nonfinite:
        warnings.append(f"∂f/∂{var} is infinite or undefined at {nonfinite} point"
                        f"{'s' * (nonfinite != 1)}; they are left as gaps in the derivative")
    kinks = []
    for kink, on in res.kinked:
        if not on.any():
            continue
        at = ", ".join(_fmt(float(x)) for x in xs[on][:5])
        more = f" and {int(on.sum()) - 5} more" if on.sum() > 5 else ""
        warnings.append(f"{kink_text(kink)} (at {var} = {at}{more})")
        kinks.extend(float(x) for x in xs[on])
    return PlotData(expression=text, read_as=read_as(program), var=var, lo=lo, hi=hi,
                    at=bindings, xs=xs, f=f, df=df, kinks=kinks, warnings=warnings)


def _check_pointwise(program, var):
    """Each x is its own point: a reduction (sum, mean, dot, @) would mix them."""
    from . import ops
    from .expr import Apply, Vector, postorder
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
    if spread <= 0 or hi - lo <= 8 * spread:
        return None
    pad = 0.15 * spread
    return q_lo - pad, q_hi + pad


def terminal_plot(data: PlotData, width: int = 80, height: int = 24, color: bool = False) -> str:
    """f above ∂f/∂x, as text of the given size (plotext); gaps where values are undefined."""
    try:
        import plotext
    except ImportError:
        raise UsageError("the terminal plot needs plotext, which is not installed",
                         hint=f"{INSTALL_HINT}  (or: pip install plotext)") from None
    import numpy as np

    from . import limits
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
    for row, (values, title) in enumerate(((data.f, f"f = {data.read_as}"),
                                           (data.df, data.label)), start=1):
        panel = fig.subplot(row, 1)
        ys = _finite(values)
        keep = np.isfinite(ys)
        with np.errstate(over="ignore"):
            overflowing = keep.any() and not np.isfinite(np.max(ys[keep]) - np.min(ys[keep]))
        if overflowing:
            raise DomainError(f"{title} spans more than a double can hold "
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
            # A gap: no segment into a point whose predecessor was dropped.
            positions = np.flatnonzero(keep)
            for i in np.flatnonzero(np.diff(positions) > 1) + 1:
                sig.line(int(i), False)
            panel.draw(sig)
        marks = _kink_marks(data) if row == 2 else ([], [])
        if marks[0]:
            panel.draw(panel.signal(*marks, marker="x"))
        panel.ruler("x").lim(data.lo, data.hi)
        if view is not None:
            panel.ruler("y").lim(*view)
        panel.title(title)
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
    top.plot(data.xs, _finite(data.f), color="tab:blue", linewidth=1.5)
    top.set_ylabel("f")
    top.set_title(f"f = {data.read_as}", fontsize=10)
    df = _finite(data.df)
    bottom.plot(data.xs, df, color="tab:orange", linewidth=1.5)
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
    fig.tight_layout()
    try:
        fig.savefig(path, format=kind, dpi=100)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    return kind


__all__ = ["PlotData", "parse_over", "sample", "terminal_plot", "save_plot", "INSTALL_HINT"]
