"""descend and plot: gradient descent, and pictures of f and f'."""
from __future__ import annotations

import os
import sys


from .. import options
from ..errors import UsageError
from ..inputs import read_source
from ..output.streams import emit, output_format, warn
from ..output.streams import stderr as _stderr
from ..output.writers import formats_of, write, write_warned
from .app import (CONTEXT, GradcliCommand, click_options, expression_options, main, output_options)


@main.command("descend", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.DESCEND)
@output_options("descend")
def descend_command(expr, file, at, lr, steps, wrt, data_file, tol, momentum, every, decimals,
                    fmt, precision, debug):
    """Minimise EXPR by gradient descent from the point given with --at.

    Step k measures the loss at the parameters left by step k-1, then updates
    them; each printed row is that loss and the parameters after the update.
    Divergence (the loss or gradient no longer finite) stops with exit 3.

    \b
    Example: one sigmoid neuron with mean squared error, data in neuron.csv (x1,x2,y):
      $ gradcli descend "mean((sigmoid(w1*x1 + w2*x2 + b) - y)**2)" --data neuron.csv \\
          --at w1=0.1,w2=-0.2,b=0 --lr 0.1 --steps 2 --round 4
    """
    from .. import api
    from ..tasks.descend import Diverged, descend, load_data
    text = read_source(expr, file)
    start = api.parse_bindings(at)
    wrt_names = api.split_top_level(wrt) if wrt else None
    data = None
    if data_file is not None:
        if data_file == "-" and file == "-":
            raise UsageError("stdin cannot hold both the expression (-f -) and the data (--data -)")
        data = load_data(data_file)
    numbers = {"lr": api.constant_value(lr, "--lr"),
               "momentum": api.constant_value(momentum, "--momentum"),
               "tol": api.constant_value(tol, "--tol") if tol is not None else None}
    fmt = output_format(fmt)
    bar = None
    if fmt == "table" and sys.stderr.isatty() and steps >= 500:
        from ..output.render import progress_bar
        bar = progress_bar(steps, "descending")
    error = None
    try:
        result = descend(text, start, wrt_names, steps=steps, data=data,
                         on_step=bar.update if bar is not None else None, **numbers)
    except Diverged as exc:
        result, error = exc.result, exc
    finally:
        if bar is not None:
            bar.stop()
    write_warned("descend", result, fmt, precision, every=every, decimals=decimals,
                 **({"error": error} if fmt == "json" else {}))
    if error is not None:
        # -o json: the record just written holds the error ("diverged"); one object only
        error.on_stdout = fmt == "json"
        raise error


@main.command("plot", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.PLOT + options.plot_output_options(formats_of("plot", "plot2d")))
def plot_command(expr, file, over, at, points, output, width, height, fmt, debug):
    """Plot f and its derivative df/dx over a range of x, or f(x, y) as a contour map.

    Evaluated at every point in one vectorised pass. Points where f is
    undefined are left as gaps; points where the derivative is a convention
    (kinks, such as abs at 0) are marked. With two ranges: contour lines, the
    gradient field as arrows (in a PNG or SVG) and the critical points marked
    by kind; in the terminal each level is a letter, L H S mark a minimum, a
    maximum and a saddle point.

    \b
    Examples:
      $ gradcli plot "relu(x) - x**2/4" --over x=-2:3
      $ gradcli plot "sin(a*x)" --over "x=0:2*pi" --at a=2 --output sin.png
      $ gradcli plot "x^2 - y^2" --over x=-2:2,y=-2:2 --at x=1,y=0.5
    """
    import shutil
    from .. import api
    from ..tasks.plot2d import ranges
    text = read_source(expr, file)
    bindings = api.parse_bindings(at)
    if len(ranges(over)) == 2:
        _plot_2d(text, over, bindings, points, output, width, height, fmt)
        return
    from ..output.plot import save_plot, terminal_plot
    from ..tasks.plot import sample
    data = sample(text, over, bindings, 201 if points is None else points)
    warn(data.warnings)
    if output is not None:
        kind = save_plot(data, output, width or 800, height or 600)
        _stderr(f"wrote {output} ({kind.upper()}, {width or 800}x{height or 600})")
    elif fmt in ("json", "csv"):
        write("plot", data, fmt)
    else:
        size = shutil.get_terminal_size((80, 24))
        color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        emit(terminal_plot(data, width or size.columns,
                           height or max(16, min(size.lines - 2, 40)), color))


def _plot_2d(text, over, bindings, points, output, width, height, fmt):
    """`plot` over two ranges: a contour map in the terminal or a file, or the grid as data."""
    import shutil
    from .. import api
    from ..output.plot2d import label_width, map_shape, save_plot, terminal_map
    from ..tasks.plot2d import parse_box, sample
    shape = None
    if output is None and fmt == "plot":
        size = shutil.get_terminal_size((80, 24))
        columns = width or size.columns
        rows = height or max(24, min(size.lines, 50) - 4)
        box = parse_box(over)
        shape = map_shape(box, columns, rows, label_width(box))
        if points is not None:
            warn(["--points is not used by the terminal map (one sample per character)"])
    data = sample(text, over, bindings, points, shape=shape, evaluate=api.evaluate)
    warn(data.warnings)
    if output is not None:
        w, h = width or 800, height or 700
        kind = save_plot(data, output, w, h)
        _stderr(f"wrote {output} ({kind.upper()}, {w}x{h})")
    elif fmt in ("json", "csv"):
        write("plot2d", data, fmt)
    else:
        emit(terminal_map(data, columns))
