"""f and df/dx over a range: sampled in one vectorised pass, drawn in the terminal or to a file.

`sample` binds the plotted variable to a NumPy vector of points and lowers the
expression once; backward with a seed of ones gives df/dx at every point at
once (f acts element-wise, so each point's derivative is its own). Where f is
undefined at some points the engine's domain check names them (the error's
mask); those points become gaps and the rest are evaluated again, so a plot of
log(x) over -1:1 is half a curve, not a crash.

Drawing is separate: plotext for the terminal, matplotlib for PNG/SVG. Both are
optional (`pip install 'gradcli[plot]'`) and imported only here, only when used.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .api import constant_value, inputs_of
from .errors import DomainError, ShapeError, UsageError
from .lower import lower, missing_input
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
    kinks: list = field(default_factory=list)  # (x, message)
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
    depth, cut = 0, -1
    for i, ch in enumerate(rest):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == ":" and depth == 0:
            if cut >= 0:
                cut = -2
                break
            cut = i
    if cut < 0 or not rest[:cut].strip() or not rest[cut + 1:].strip():
        raise UsageError(f"--over {name}= expects a range A:B, got '{rest}'",
                         hint=f"for example --over {name}=-pi:pi")
    lo = _bound(rest[:cut], f"--over {name} (start)")
    hi = _bound(rest[cut + 1:], f"--over {name} (end)")
    if not lo < hi:
        raise UsageError(f"--over {name}: the range must go from a smaller to a larger number, "
                         f"got {_fmt(lo)}:{_fmt(hi)}")
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
            from .expr import Name, postorder
            span = next((n.span for s in program.statements for n in postorder(s.expr)
                         if isinstance(n, Name) and n.id == name), None)
            raise missing_input(name, program, span)
    for name in bindings:
        if name not in variables:
            warnings.append(f"--at binds '{name}', which the expression does not use")
    if var not in variables:
        warnings.append(f"the expression does not depend on {var}: f is constant and "
                        f"∂f/∂{var} is 0")
    try:
        import numpy as np
    except ImportError:
        raise UsageError("plot needs NumPy, which is not installed", hint=INSTALL_HINT) from None

    xs = np.linspace(lo, hi, points)
    f = np.full(points, np.nan)
    df = np.full(points, np.nan)
    alive = np.ones(points, dtype=bool)
    used = {k: v for k, v in bindings.items() if k in variables}
    undefined = []  # (sub-expression, reason, count)
    kinks = []
    while alive.any():
        idx = np.flatnonzero(alive)
        point = dict(used)
        point[var] = xs[idx]
        try:
            with np.errstate(all="ignore"):
                graph = lower(program, point, wrt={var})
        except DomainError as exc:
            mask = _point_mask(exc.mask, idx.shape)
            if mask is None:
                raise  # undefined whatever x is: nothing to draw
            alive[idx[mask]] = False
            undefined.append((_sub_text(exc), exc.reason or "undefined", int(mask.sum()),
                              xs[idx[mask]]))
            continue
        out = graph.output
        value = np.asarray(out.data, dtype=float)
        if value.shape not in ((), idx.shape):
            raise ShapeError(f"plot needs f to give one number per {var}, but it gives an array "
                             f"of shape {value.shape}")
        if value.shape == () and var in variables:
            raise ShapeError(f"plot needs f to act on each {var} separately, but this expression "
                             f"reduces over {var} (sum, mean, dot) to one number",
                             hint=f"plot the expression inside the reduction")
        f[idx] = value
        if var in variables and out.requires_grad:
            kinked = []

            def on_kink(node, kink, kinked=kinked):
                kinked.append((node, kink))

            with np.errstate(all="ignore"):
                out.backward(seed=np.ones(idx.shape), on_kink=on_kink)
            g = np.broadcast_to(np.asarray(graph.inputs[var].grad, dtype=float), idx.shape)
            df[idx] = g
            kinks = _kink_points(kinked, xs[idx], var)
        else:
            df[idx] = 0.0
        break
    if undefined:
        total = int((~alive).sum())
        parts = "; ".join(f"{sub}: {reason}" if sub else reason for sub, reason, _, _ in undefined)
        warnings.append(f"f is undefined at {total} of {points} points ({parts}); "
                        "they are left as gaps")
    nonfinite = int((alive & ~np.isfinite(df)).sum())
    if nonfinite:
        warnings.append(f"∂f/∂{var} is infinite or undefined at {nonfinite} point"
                        f"{'s' * (nonfinite != 1)}; they are left as gaps in the derivative")
    for x, message in kinks:
        warnings.append(f"{message} (at {var} = {_fmt(float(x))})")
    return PlotData(expression=text, read_as=read_as(program), var=var, lo=lo, hi=hi,
                    at=bindings, xs=xs, f=f, df=df, kinks=kinks, warnings=warnings)


def _point_mask(mask, shape):
    """The failing points, when the error's mask is one flag per sample (else None)."""
    import numpy as np
    if mask is None or np.ndim(mask) != 1 or np.shape(mask) != shape:
        return None
    mask = np.asarray(mask, dtype=bool)
    return mask if mask.any() else None


def _sub_text(exc) -> str:
    if exc.source is not None and exc.span is not None:
        return exc.source[exc.span[0]:exc.span[1]]
    return ""


def _kink_points(kinked, xs, var):
    """(x, message) for every sample that sits exactly on a kink, first few per kink."""
    import numpy as np
    from .engine import backend_for
    found = []
    seen = set()
    for node, kink in kinked:
        datas = [p.data for p in node._parents]
        hit = np.broadcast_to(np.asarray(kink.where(backend_for(datas), *datas)), xs.shape)
        message = kink.message.format_map(_Blank())
        for x in xs[hit][:5]:
            key = (message, float(x))
            if key not in seen:
                seen.add(key)
                found.append((float(x), message))
    return found


class _Blank(dict):
    """Kink messages may name argument values ({x}); over many points there is no one value."""

    def __missing__(self, key):
        return key


# ------------------------------------------------------------------ drawing

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
    q1, q99 = (float(v) for v in np.percentile(finite, [1, 99]))
    spread = q99 - q1
    if spread <= 0 or hi - lo <= 20 * spread:
        return None
    pad = 0.1 * spread
    return q1 - pad, q99 + pad


def terminal_plot(data: PlotData, width: int = 80, height: int = 24, color: bool = False) -> str:
    """f above ∂f/∂x, as text of the given size (plotext); gaps where values are undefined."""
    try:
        import plotext
    except ImportError:
        raise UsageError("the terminal plot needs plotext, which is not installed",
                         hint=f"{INSTALL_HINT}  (or: pip install plotext)") from None
    import numpy as np
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
        if keep.any():
            sig = panel.signal(data.xs[keep].tolist(), ys[keep].tolist())
            sig.lines()
            # A gap: no segment into a point whose predecessor was dropped.
            positions = np.flatnonzero(keep)
            for i in np.flatnonzero(np.diff(positions) > 1) + 1:
                sig.line(int(i), False)
            panel.draw(sig)
        if row == 2 and data.kinks:
            kx = [x for x, _ in data.kinks]
            ky = [float(np.interp(x, data.xs, np.nan_to_num(_finite(data.df)))) for x in kx]
            mark = panel.signal(kx, ky, marker="x")
            panel.draw(mark)
        panel.ruler("x").lim(data.lo, data.hi)
        view = _view(ys)
        if view is not None:
            panel.ruler("y").lim(*view)
        panel.title(title)
        panel.legend(active=False)
        if row == 2:
            panel.label(data.var, "x")
    if not color:
        fig.theme("colorless")
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
    import numpy as np
    fig = Figure(figsize=(width / 100, height / 100), dpi=100)
    top, bottom = fig.subplots(2, 1, sharex=True)
    top.plot(data.xs, _finite(data.f), color="tab:blue", linewidth=1.5)
    top.set_ylabel("f")
    top.set_title(f"f = {data.read_as}", fontsize=10)
    df = _finite(data.df)
    bottom.plot(data.xs, df, color="tab:orange", linewidth=1.5)
    if data.kinks:
        kx = np.array([x for x, _ in data.kinks])
        bottom.plot(kx, np.interp(kx, data.xs, np.nan_to_num(df)), "x", color="tab:red",
                    label="kink")
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
