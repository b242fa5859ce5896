"""`gradcli plot` over one range drawn: f above df/dx, in the terminal (plotext) or to a file.

tasks/plot.py samples f and df/dx (PlotData: the values, the kinks, the jumps,
nan where f is undefined); this module draws them and does no mathematics.
plotext draws the terminal plot (a dependency), matplotlib the PNG or SVG
file (the optional `plot` extra); each is imported only when it draws.
output/plot2d.py draws the contour map of two ranges with `write_figure` and
`title_of` from here.
"""
from __future__ import annotations

from .. import limits, plotscale
from ..errors import DomainError, LimitError, UsageError
from ..language.printer import carets
from ..numbers import HUMAN_DIGITS, number_text
from ..plotscale import INSTALL_HINT


def _fmt(v) -> str:
    return number_text(v)


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


def title(data) -> str:
    """The title of a plot: f(x) = the formula as typed, and the values the other inputs
    are fixed at."""
    return title_of(data.read_as, data.at, data.expression, (data.var,))


def title_of(formula: str, at: dict, typed: str | None = None, names=()) -> str:
    """`f(x) = x^2 sin x`, `f(x) = sin(a x)  at a = 2`: the formula in the book's notation
    the user typed it in (read_as brackets what no one typed: (x^2)*sin(x)), and the fixed
    values of the other inputs. A program (statements, a file) shows its read-as form."""
    one_line = typed is not None and not any(c in typed for c in ";\n=") and len(typed) <= 80
    shown = " ".join(typed.split()) if one_line else formula
    text = (f"f({', '.join(names)})" if names and one_line else "f") + f" = {carets(shown)}"
    if at:
        text += "  at " + ", ".join(f"{k} = {number_text(v, HUMAN_DIGITS)}"
                                    for k, v in at.items())
    return text


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


def terminal_plot(data, width: int = 80, height: int = 24, color: bool = False) -> str:
    """f above ∂f/∂x, as text of the given size (plotext); gaps where values are undefined."""
    import plotext
    import numpy as np

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
        view = plotscale.view(_finite(values))
        span = _y_range(_finite(values), view)
        if span is not None:
            # Without a zoomed view the panel runs from round number to round number.
            ticks = plotscale.ticks(*span, outer=view is None)
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
        view = plotscale.view(ys)
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


def save_plot(data, path: str, width: int = 800, height: int = 600) -> str:
    """Write f and f' to a PNG or SVG of width x height pixels (100 per inch); return the type."""
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
    top.set_ylabel(f"f({data.var})" if not data.at else "f")
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
        view = plotscale.view(_finite(values))
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


__all__ = ["terminal_plot", "save_plot", "write_figure", "title_of"]
