"""Which `extrema` a command line asks for: an interval, a rectangle or region, or Lagrange."""
from __future__ import annotations

from ..output.writers import write_warned


def run_extrema(text, over, where, subject_to, fmt, precision, steps) -> None:
    from ..tasks.several import solve
    result = solve(text, over, where, subject_to)
    kind = "extrema" if type(result).__name__ == "Extrema" else "extrema-region"
    write_warned(kind, result, fmt, precision, steps=steps)
