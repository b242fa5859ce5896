"""A plot's scales and labels: what the plot tasks and their drawing both read.

tasks/plot.py and tasks/plot2d.py sample f (the mathematics); output/plot.py and
output/plot2d.py draw it. Both need the y-range worth showing (the jump search
measures a change against it; the drawing zooms to it), the install hint of the
`plot` extra, and the way numbers are written in titles and warnings.
"""
from __future__ import annotations

import math

from .numbers import HUMAN_DIGITS, number_text

INSTALL_HINT = "pip install 'gradcli[plot]'"


def view(ys):
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


def ticks(lo: float, hi: float, count: int = 5, outer: bool = False) -> list[float]:
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


def human(v) -> str:
    """A number at the digits people read (HUMAN_DIGITS), for titles, legends and warnings."""
    return number_text(float(v), HUMAN_DIGITS)


def point_text(at: dict) -> str:
    """(x, y) of a point, its numbers as `human` writes them."""
    return "(" + ", ".join(human(v) for v in at.values()) + ")"
