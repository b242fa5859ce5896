"""f(x, y) over a box: contour lines, the gradient field and the critical points.

`sample` binds both plotted variables to the flattened grid and lowers the
expression once; one backward pass with a seed of ones gives ∂f/∂x and ∂f/∂y
at every grid point (f acts element-wise, as in the one-variable plot, see
plot.py). Points where f is undefined become nan and are left blank.

The critical points come from the critical-points search (critical.py), run
over the same box; the optional point given with --at is evaluated on its own
so that its value and gradient are exact, not read off the grid.

Drawing is output/plot2d.py's (the terminal map in characters, or filled
contours with the gradient arrows through matplotlib); this module returns the
grid (PlotData2D) and imports neither.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .. import limits
from ..autodiff.lower import missing_input
from ..errors import GradcliError, LimitError, UsageError
from ..inputs import inputs_of, split_top_level, unused_bindings
from ..language.expr import first_span
from ..language.printer import read_as
from ..numbers import decimal_grid
from ..plotscale import INSTALL_HINT, human, point_text
from ..reading import given_names, read_program
from .plot import _check_pointwise, parse_over, undefined_points

DEFAULT_POINTS = 81        # per axis: 6,561 points, smooth contours, a JSON still readable


@dataclass
class AtPoint:
    """The --at point: where, f there and ∇f there."""

    at: dict
    value: float
    gradient: dict


@dataclass
class PlotData2D:
    """f and ∇f on a grid over the box; f[i, j] is at (xs[j], ys[i]), nan where undefined."""

    expression: str
    read_as: str
    names: tuple           # (x, y): the plotted variables, in the order of --over
    box: dict              # name -> (low, high)
    params: dict           # the other inputs' values (--at)
    xs: object
    ys: object
    f: object
    gradient: dict         # name -> array shaped like f
    critical: list = field(default_factory=list)   # critical.CriticalPoint
    critical_note: str = ""
    point: AtPoint | None = None
    warnings: list = field(default_factory=list)


def ranges(over: str) -> list[str]:
    """The ranges of --over: one for a curve, two for a contour map."""
    parts = split_top_level(over, ",")
    if len(parts) > 2:
        names = ", ".join(p.partition("=")[0].strip() for p in parts)
        raise UsageError(f"plot draws f of one or two variables, but --over gives {len(parts)} "
                         f"ranges ({names})",
                         hint="keep two ranges and fix the others with --at, for example "
                              "--over x=-2:2,y=-2:2 --at z=0")
    return parts


def parse_box(over: str) -> dict:
    """'x=A:B,y=C:D' -> {'x': (A, B), 'y': (C, D)}, each bound a constant expression."""
    parts = ranges(over)
    if len(parts) != 2:
        raise UsageError("a contour map needs two ranges, for example --over x=-2:2,y=-2:2")
    (xn, xlo, xhi), (yn, ylo, yhi) = (parse_over(p) for p in parts)
    if xn == yn:
        raise UsageError(f"--over gives '{xn}' twice", hint="for example --over x=-2:2,y=-2:2")
    return {xn: (xlo, xhi), yn: (ylo, yhi)}


def sample(text: str, over: str, bindings=None, points: int | None = None, *,
           shape: tuple | None = None, evaluate=None, program=None) -> PlotData2D:
    """f and ∇f on a grid over the two ranges of `over` ('x=A:B,y=C:D').

    `points` per axis, or `shape` = (columns, rows) for a grid of another shape
    (the terminal map samples one point per character cell, at its centre).
    `bindings` hold the other inputs and, optionally, the point (both plotted
    names) to mark; `evaluate` (evaluation.evaluate) finds the critical points
    and the point's gradient; without it neither is computed.
    """
    parts = ranges(over)
    box = parse_box(over)
    names = tuple(box)
    (xn, yn), ((xlo, xhi), (ylo, yhi)) = names, box.values()
    cells = shape is not None
    if shape is None:
        n = DEFAULT_POINTS if points is None else points
        if isinstance(n, bool) or not isinstance(n, int) or n < 2:
            raise UsageError(f"--points must be a whole number of at least 2, got {n!r}")
        shape = (n, n)
    if shape[0] * shape[1] > limits.MAX_PLOT_GRID:
        raise LimitError(f"a grid of {shape[0]} x {shape[1]} points is over the limit of "
                         f"{limits.MAX_PLOT_GRID:,}",
                         hint=f"--points {int(math.isqrt(limits.MAX_PLOT_GRID))} or fewer")
    bindings = dict(bindings or {})
    given = [n for n in names if n in bindings]
    if len(given) == 1:
        other = names[1 - names.index(given[0])]
        raise UsageError(f"--at gives {given[0]} but not {other}: the point to mark needs both",
                         hint=f"for example --at {xn}=1,{yn}=1")
    point_at = {n: bindings.pop(n) for n in given}
    for name, value in point_at.items():
        if getattr(value, "ndim", 0) or isinstance(value, list):
            raise UsageError(f"--at {name}: the point to mark needs a number, got a vector")
    program = program or read_program(text, given_names(bindings, list(names)))
    variables = inputs_of(program)
    lacking = [n for n in names if n not in variables]
    if lacking:
        kept = [p for p, n in zip(parts, names) if n in variables]
        raise UsageError(f"--over gives a range for {' and '.join(lacking)}, which the "
                         "expression does not use",
                         hint=(f"plot it over one variable: --over {kept[0]}" if kept else
                               "the expression uses neither plotted name"))
    warnings = list(program.warnings)
    for name in variables:
        if name not in names and name not in bindings:
            raise missing_input(name, program, first_span(program, name),
                                bound=set(bindings) | set(names))
    warnings.extend(unused_bindings(bindings, variables))
    params = {k: v for k, v in bindings.items() if k in variables}
    for name, value in params.items():
        if getattr(value, "ndim", 0) or isinstance(value, list):
            raise UsageError(f"--at {name}: plot needs a number for every input but "
                             f"{xn} and {yn}")
    for name in names:
        _check_pointwise(program, name)
    import numpy as np
    from ..data.evaluate import evaluate_arrays

    cols, rows = shape
    xs, ys = _axis(xlo, xhi, cols, cells), _axis(ylo, yhi, rows, cells)
    gx, gy = np.meshgrid(xs, ys)
    with np.errstate(all="ignore"):
        res = evaluate_arrays(program, {xn: gx.ravel(), yn: gy.ravel()}, params,
                              wrt=list(names))
    f = np.asarray(res.value, dtype=float).reshape(gx.shape)
    gradient = {n: np.asarray(res.gradient[n], dtype=float).reshape(gx.shape) for n in names}
    where = f"{xn} = {human(xlo)}:{human(xhi)}, {yn} = {human(ylo)}:{human(yhi)}"
    warnings += undefined_points(res, gx.size, where, "box", "grid points", "left blank")
    data = PlotData2D(expression=text, read_as=read_as(program), names=names, box=box,
                      params=params, xs=xs, ys=ys, f=f, gradient=gradient, warnings=warnings)
    if evaluate is not None:
        _critical(data, text, evaluate)
        if point_at:
            at = {n: float(point_at[n]) for n in names}
            r = evaluate(text, {**params, **at})
            data.point = AtPoint(at, float(r.value),
                                 {n: float(r.gradient[n]) for n in names})
            outside = [n for n in names if not box[n][0] <= at[n] <= box[n][1]]
            if outside:
                data.warnings.append(f"the point {point_text(at)} is outside the box; it is "
                                     "listed but not drawn")
    return data


def _axis(lo, hi, n, cells: bool):
    """n samples from lo to hi: the ends included, or (`cells`) the centres of n cells."""
    import numpy as np
    if cells:
        step = (hi - lo) / n
        return lo + step * (np.arange(n) + 0.5)
    return np.array(decimal_grid(lo, hi, n))  # the decimals a person means


def _critical(data: PlotData2D, text: str, evaluate) -> None:
    """The critical points in the box; a search that cannot run leaves a warning, not an error."""
    from .critical import critical_points
    try:
        found = critical_points(text, dict(data.box), dict(data.params), evaluate=evaluate)
    except GradcliError as exc:
        data.warnings.append(f"no critical points marked: {exc.message}")
        return
    data.critical = list(found.points)
    data.critical_note = found.note


__all__ = ["PlotData2D", "AtPoint", "ranges", "sample", "parse_box", "DEFAULT_POINTS"]
