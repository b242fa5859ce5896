"""`gradcli plot` over two ranges drawn: the contour map in the terminal, or to a file.

tasks/plot2d.py samples f and ∇f on a grid (PlotData2D, with the critical
points and the --at point); this module draws them and does no mathematics.
`terminal_map` writes a contour map in characters (one letter per level, the
level changing between two neighbouring cells is drawn there); `map_shape`
says how many cells a terminal of a given size holds, so that the task samples
one point per cell. `save_plot` draws filled contours, the gradient arrows and
the marks through matplotlib (the optional `plot` extra, imported only there).
"""
from __future__ import annotations

import math

from .. import limits, plotscale
from ..errors import LimitError, UsageError
from ..numbers import number_text
from ..plotscale import INSTALL_HINT, human, point_text
from .plot import title_of, write_figure
from .linebreaks import break_line

KINDS = {"local minimum": "L", "local maximum": "H", "saddle point": "S", "inconclusive": "?"}
CELL_ASPECT = 2.1          # a terminal cell is about twice as tall as it is wide
# By octant of the gradient's direction, counter-clockwise from east.
ARROWS = "→↗↑↖←↙↓↘"
# Each cell and its neighbour to the right, each cell and its neighbour below.
NEIGHBOURS = (((slice(None), slice(None, -1)), (slice(None), slice(1, None))),
              ((slice(None, -1), slice(None)), (slice(1, None), slice(None))))


def title(data) -> str:
    """The title of a contour map: f(x, y) = the formula as typed, and the values the other
    inputs are fixed at."""
    return title_of(data.read_as, data.params, data.expression, data.names)


def levels(f, count: int = 10) -> list[float]:
    """Round values between f's smallest and largest (a few spikes ignored), for contours."""
    import numpy as np
    finite = f[np.isfinite(f)]
    if not finite.size:
        return []
    view = plotscale.view(finite.ravel())
    lo, hi = view if view is not None else (float(finite.min()), float(finite.max()))
    if not hi > lo:
        return []
    return [v for v in plotscale.ticks(lo, hi, count) if lo < v < hi]


# ------------------------------------------------------------------ the terminal map

def map_shape(data_box: dict, width: int, height: int, label_width: int = 6) -> tuple:
    """(columns, rows) of map cells for a terminal of width x height characters.

    The map keeps the box's proportions (a cell is about twice as tall as wide)
    unless one side is more than four times the other; the other lines (title,
    axis, legend) take about ten rows.
    """
    (xlo, xhi), (ylo, yhi) = data_box.values()
    cols = max(10, width - label_width - 2)
    room = max(6, height - 10)
    ratio = (yhi - ylo) / (xhi - xlo)
    if not 0.25 <= ratio <= 4:
        return cols, room
    rows = max(6, round(cols * ratio / CELL_ASPECT))
    if rows > room:
        rows = room
        cols = max(10, min(cols, round(rows * CELL_ASPECT / ratio)))
    return cols, rows


def label_width(box: dict) -> int:
    (ylo, yhi) = list(box.values())[1]
    return max(len(_tick_text(t)) for t in (plotscale.ticks(ylo, yhi, 5) or [ylo, yhi])) + 1


def _tick_text(v: float) -> str:
    return number_text(0.0 if abs(v) < 1e-300 else float(v), 4)


def _letter(k: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[k % 26]


def _cell(data, at: dict):
    """(row, column) of the map cell holding the point, or None outside the box."""
    (xlo, xhi), (ylo, yhi) = data.box.values()
    x, y = (at[n] for n in data.names)
    if not (xlo <= x <= xhi and ylo <= y <= yhi):
        return None
    rows, cols = data.f.shape
    c = min(cols - 1, int((x - xlo) / (xhi - xlo) * cols))
    r = min(rows - 1, int((yhi - y) / (yhi - ylo) * rows))
    return r, c


def _arrow(gx: float, gy: float) -> str:
    """The arrow character nearest the direction of (gx, gy); '·' for a zero gradient."""
    if not (math.isfinite(gx) and math.isfinite(gy)) or gx == gy == 0:
        return "·"
    return ARROWS[round(math.atan2(gy, gx) / (math.pi / 4)) % 8]


def terminal_map(data, width: int = 80) -> str:
    """The contour map as text at most `width` columns wide (data sampled one point per cell).

    Each level between two neighbouring cells is drawn as its letter; L, H and
    S mark a local minimum, a local maximum and a saddle point, @ the --at
    point with an arrow along its gradient, and * the level curve through it.
    """
    import numpy as np
    if data.f.size > limits.MAX_PLOT_CELLS:
        raise LimitError(f"a terminal map of {data.f.size:,} characters is over the limit of "
                         f"{limits.MAX_PLOT_CELLS:,}", hint="choose a smaller --width or --height")
    f = data.f
    rows, cols = f.shape
    marks = levels(f)
    grid = np.full((rows, cols), " ", dtype="<U1")
    defined = np.isfinite(f)
    band = np.searchsorted(marks, np.where(defined, f, np.nan), side="right")
    letters = np.array([_letter(k) for k in range(len(marks) + 1)])
    # A level runs between two neighbouring cells whose bands differ; it is drawn in the
    # cell on its lower side, so that each crossing is one character wide. (Basic slices
    # of grid are views: assigning into them draws on the map.)
    for a, b in NEIGHBOURS:
        differ = defined[a] & defined[b] & (band[a] != band[b])
        lower = np.minimum(band[a], band[b])
        for cell, own in ((a, band[a] < band[b]), (b, band[b] < band[a])):
            on = differ & own
            grid[cell][on] = letters[lower[on]]
    legend = []
    if marks:
        legend.append("levels of f: " + ", ".join(f"{_letter(k)} {_tick_text(v)}"
                                                  for k, v in enumerate(marks)))
    point = data.point
    if point is not None:
        above = defined & (f > point.value)
        for a, b in NEIGHBOURS:
            cross = defined[a] & defined[b] & (above[a] != above[b])
            grid[a][cross & ~above[a]] = "*"
            grid[b][cross & ~above[b]] = "*"
    for cp in data.critical:
        cell = _cell(data, cp.point)
        if cell is not None:
            grid[cell] = KINDS.get(cp.kind, "?")
    if point is not None:
        gx, gy = (point.gradient[n] for n in data.names)
        cell = _cell(data, point.at)
        if cell is not None:
            r, c = cell
            grid[r, c] = "@"
            arrow = _arrow(gx, gy)
            dr = -round(math.sin(math.atan2(gy, gx))) if arrow != "·" else 0
            dc = round(math.cos(math.atan2(gy, gx))) if arrow != "·" else 0
            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols:
                grid[r + dr, c + dc] = arrow
    return _frame(data, grid, width) + _legend(data, legend, width)


def _frame(data, grid, width: int) -> str:
    """The map with a border, y ticks on the left, x ticks below and the title above."""
    rows, cols = grid.shape
    (xn, yn) = data.names
    (xlo, xhi), (ylo, yhi) = data.box.values()
    pad = label_width(data.box)
    left = [" " * pad] * rows
    for t in plotscale.ticks(ylo, yhi, max(3, min(7, rows // 4))):
        r = min(rows - 1, max(0, int((yhi - t) / (yhi - ylo) * rows)))
        left[r] = _tick_text(t).rjust(pad - 1) + " "
    lines = break_line(title(data), width)
    lines.append(yn.rjust(pad - 1))
    lines.append(" " * pad + "┌" + "─" * cols + "┐")
    for r in range(rows):
        lines.append(left[r] + "│" + "".join(grid[r]) + "│")
    bottom = list("─" * cols)
    labels = [" "] * (cols + 2 + 2 * pad)
    last = -1
    for t in plotscale.ticks(xlo, xhi, max(3, min(9, cols // 8))):
        c = min(cols - 1, max(0, int((t - xlo) / (xhi - xlo) * cols)))
        bottom[c] = "┬"
        text = _tick_text(t)
        start = pad + 1 + c - len(text) // 2
        if start <= last + 1 or start + len(text) > width:
            continue
        labels[start:start + len(text)] = list(text)
        last = start + len(text)
    lines.append(" " * pad + "└" + "".join(bottom) + "┘")
    axis = "".join(labels).rstrip()
    name_at = max(len(axis) + 2, pad + 1 + cols - len(xn) + 1)
    if name_at + len(xn) <= width:
        axis = axis.ljust(name_at) + xn
    else:
        axis = axis + "\n" + (xn.rjust(pad + 1 + cols))
    lines.append(axis)
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _legend(data, head: list, width: int) -> str:
    names = data.names
    items = list(head)
    for cp in data.critical[:12]:
        items.append(f"{KINDS.get(cp.kind, '?')} {cp.kind} at {point_text(cp.point)}, "
                     f"f = {human(cp.value)}")
    if len(data.critical) > 12:
        items.append(f"and {len(data.critical) - 12} more critical points (-o json lists all)")
    if not data.critical and data.critical_note:
        items.append("no critical point found in the box")
    if data.point is not None:
        p = data.point
        grad = "(" + ", ".join(human(p.gradient[n]) for n in names) + ")"
        items.append(f"@ {', '.join(f'{n} = {human(p.at[n])}' for n in names)}: "
                     f"f = {human(p.value)}, ∇f = {grad} "
                     f"({_arrow(*(p.gradient[n] for n in names))} its direction); "
                     f"* the level curve f = {human(p.value)}")
    out = []
    for item in items:
        out.extend(break_line(item, width) if item else [""])
    return "\n".join(out) + ("\n" if out else "")


# ------------------------------------------------------------------ PNG and SVG

STYLE = {"local minimum": ("o", "tab:blue"), "local maximum": ("^", "tab:red"),
         "saddle point": ("X", "tab:purple"), "inconclusive": ("D", "0.4")}
ARROWS_PER_AXIS = 17


def save_plot(data, path: str, width: int = 800, height: int = 700) -> str:
    """Write the contour map with gradient arrows and marks to a PNG or SVG; return the type."""
    kind = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if kind not in ("png", "svg"):
        raise UsageError(f"--output {path}: the file name must end in .png or .svg")
    try:
        from matplotlib.figure import Figure
        from matplotlib.lines import Line2D
    except ImportError:
        raise UsageError("--output needs matplotlib (the 'plot' extra), which is not "
                         "installed", hint=f"{INSTALL_HINT}  (or: pip install matplotlib)"
                         ) from None
    import numpy as np

    xn, yn = data.names
    (xlo, xhi), (ylo, yhi) = data.box.values()
    gx, gy = np.meshgrid(data.xs, data.ys)
    f = np.ma.masked_invalid(data.f)
    fig = Figure(figsize=(width / 100, height / 100), dpi=100)
    ax = fig.subplots()
    marks = levels(data.f, 15)
    handles = []
    if marks:
        # Filled bands under the lines; values beyond the outer levels share the end colours.
        # The bands run from f's least value to its greatest (the colour bar covers the whole
        # range, down to the minimum); only values a spike took past the view extend it.
        bounds, extend = _bands(data.f, marks)
        fill = ax.contourf(gx, gy, f, levels=bounds, extend=extend, cmap="viridis",
                           alpha=0.45)
        # Solid whatever the sign (matplotlib dashes negative levels of one colour): dashes
        # are kept for the level curve through the --at point.
        lines = ax.contour(gx, gy, f, levels=marks, colors="0.25", linewidths=0.8,
                           linestyles="solid")
        spots = _label_spots(lines, data.box)
        for label in ax.clabel(lines, fontsize=9, fmt=_tick_text, inline_spacing=3,
                               manual=spots or False):
            label.set_bbox({"facecolor": "white", "alpha": 0.6, "edgecolor": "none",
                            "pad": 0.6})
            label.set_rotation(0)  # read level, as a map's heights are
        bar = fig.colorbar(fill, ax=ax, shrink=0.85, pad=0.02)
        bar.set_label("f")
        ticks = _bar_ticks(bounds, marks)
        bar.set_ticks(ticks)
        bar.set_ticklabels([_tick_text(v) for v in ticks])
    _arrows(ax, data, gx, gy)
    handles.append(Line2D([], [], color="0.15", marker=r"$\rightarrow$", linestyle="none",
                          markersize=10, label="∇f (longer where steeper)"))
    shown = set()
    for cp in data.critical:
        marker, colour = STYLE.get(cp.kind, STYLE["inconclusive"])
        ax.plot(cp.point[xn], cp.point[yn], marker, color=colour, markersize=10,
                markeredgecolor="white", markeredgewidth=1.2, zorder=5)
        if cp.kind not in shown:
            shown.add(cp.kind)
            handles.append(Line2D([], [], marker=marker, color=colour, linestyle="none",
                                  markeredgecolor="white", markersize=9, label=cp.kind))
    if data.point is not None:
        _mark_point(ax, data, gx, gy, f, handles, Line2D)
    ax.set_xlim(xlo, xhi)
    ax.set_ylim(ylo, yhi)
    ratio = (yhi - ylo) / (xhi - xlo)
    if 0.25 <= ratio <= 4:
        ax.set_aspect("equal")
    ax.set_xlabel(xn)
    ax.set_ylabel(yn, rotation=0, labelpad=10)
    ax.set_title(title(data), fontsize=10)
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.1),
              ncol=min(3, len(handles)), fontsize=8, frameon=False)
    return write_figure(fig, path, kind)


def _bands(f, marks) -> tuple:
    """The filled bands' boundaries, from f's least value to its greatest (or the view's
    ends where a few spikes go past them), and which ends extend beyond them."""
    import numpy as np
    finite = f[np.isfinite(f)]
    lo, hi = float(finite.min()), float(finite.max())
    view = plotscale.view(finite.ravel())
    low, high = (max(lo, view[0]), min(hi, view[1])) if view is not None else (lo, hi)
    bounds = [low] + [m for m in marks if low < m < high] + [high]
    extend = {(True, True): "both", (True, False): "min", (False, True): "max",
              (False, False): "neither"}[(lo < low, hi > high)]
    return bounds, extend


def _bar_ticks(bounds, marks) -> list:
    """The colour bar's ticks: the levels, and f's least and greatest values at its ends
    where they are not crowded by a level (half a step or more from it)."""
    step = marks[1] - marks[0] if len(marks) > 1 else abs(bounds[-1] - bounds[0])
    ticks = list(marks)
    if marks[0] - bounds[0] >= step / 2:
        ticks.insert(0, bounds[0])
    if bounds[-1] - marks[-1] >= step / 2:
        ticks.append(bounds[-1])
    return ticks


LABEL_MARGIN = 0.06  # a contour label this far (a fraction of the box) from every edge
LABEL_GAP = 0.07     # ... and this far from any other label


def _label_spots(lines, box) -> list:
    """One place per contour line for its label: the point of the line farthest from the
    box's edges, so that no label is cut off at the border (matplotlib's own choice
    often sits on the edge), and not crowding another label. Lines that touch the border
    all along get none."""
    import numpy as np
    (xlo, xhi), (ylo, yhi) = box.values()
    w, h = xhi - xlo, yhi - ylo
    spots = []
    for segments in lines.allsegs:
        for seg in segments:
            if len(seg) < 5:
                continue
            x, y = seg[:, 0], seg[:, 1]
            margin = np.minimum.reduce([(x - xlo) / w, (xhi - x) / w, (y - ylo) / h,
                                        (yhi - y) / h])
            k = int(np.argmax(margin))
            spot = (float(x[k]), float(y[k]))
            # nested rings (a peak) would stack their labels: one per crowded place
            if margin[k] >= LABEL_MARGIN and all(
                    math.hypot((spot[0] - a) / w, (spot[1] - b) / h) >= LABEL_GAP
                    for a, b in spots):
                spots.append(spot)
    return spots


def _arrows(ax, data, gx, gy) -> None:
    """The gradient field on a coarse grid: lengths in proportion to |∇f|, the longest
    (past the 95th percentile, so one steep corner does not shrink the rest) cut to
    nine tenths of the spacing."""
    import numpy as np
    xn, yn = data.names
    rows, cols = data.f.shape
    sr, sc = max(1, math.ceil(rows / ARROWS_PER_AXIS)), max(1, math.ceil(cols / ARROWS_PER_AXIS))
    pick = (slice(sr // 2, None, sr), slice(sc // 2, None, sc))
    u, v = data.gradient[xn][pick], data.gradient[yn][pick]
    x, y = gx[pick], gy[pick]
    ok = np.isfinite(u) & np.isfinite(v)
    if not ok.any():
        return
    size = np.hypot(u, v)
    top = float(np.percentile(size[ok], 95))
    if top == 0:
        return
    spacing = min(abs(data.xs[sc] - data.xs[0]) if cols > sc else 1.0,
                  abs(data.ys[sr] - data.ys[0]) if rows > sr else 1.0)
    longest = 0.9 * spacing
    with np.errstate(all="ignore"):
        scale = np.minimum(size, top) / top * longest / np.where(size > 0, size, 1)
    ax.quiver(x[ok], y[ok], (u * scale)[ok], (v * scale)[ok], angles="xy",
              scale_units="xy", scale=1, color="0.15", width=0.0035, headwidth=4,
              headlength=4.5, zorder=3)


def _mark_point(ax, data, gx, gy, f, handles, Line2D) -> None:
    """The --at point, its gradient arrow and the level curve through it."""
    xn, yn = data.names
    p = data.point
    x, y = p.at[xn], p.at[yn]
    (xlo, xhi), (ylo, yhi) = data.box.values()
    ax.contour(gx, gy, f, levels=[p.value], colors="crimson", linewidths=1.6,
               linestyles="--")
    handles.append(Line2D([], [], color="crimson", linestyle="--",
                          label=f"level f = {human(p.value)}"))
    u, v = p.gradient[xn], p.gradient[yn]
    norm = math.hypot(u, v)
    if norm > 0 and math.isfinite(norm):
        length = 0.18 * min(xhi - xlo, yhi - ylo)
        ax.annotate("", xy=(x + u / norm * length, y + v / norm * length), xytext=(x, y),
                    arrowprops={"arrowstyle": "-|>", "color": "crimson", "lw": 2},
                    zorder=6)
    ax.plot(x, y, "*", color="crimson", markersize=15, markeredgecolor="white", zorder=7)
    grad = ", ".join(human(p.gradient[n]) for n in data.names)
    handles.append(Line2D([], [], marker="*", color="crimson", linestyle="none",
                          markersize=12, markeredgecolor="white",
                          label=f"({human(x)}, {human(y)}): ∇f = ({grad})"))


__all__ = ["terminal_map", "map_shape", "label_width", "save_plot", "levels"]
