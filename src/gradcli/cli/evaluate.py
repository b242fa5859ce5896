"""`gradcli eval`: the value and every partial derivative, at a point or at every row of a file."""
from __future__ import annotations

from .. import options
from ..errors import UsageError
from ..inputs import keep_typed, read_source
from ..output.streams import warn
from ..output.writers import write
from .app import (CONTEXT, GradcliCommand, _check_points_output, _exactly, _exit, _points_guard,
                  click_options, expression_options, main, output_options)


@main.command("eval", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.EVAL)
@output_options(*options.EVAL_KINDS)
def eval_command(expr, file, at, wrt, show_all, hessian, exact, gradcheck, seed, jacobian,
                 direction, points, chunk_rows, output, fmt, precision, debug):
    """Print the value of EXPR and all its partial derivatives at a point.

    \b
    Example:
      $ gradcli eval "(w*x+b)**2" --at w=3,x=2,b=1 -o plain
      f       49
      df/dw   28
      df/dx   42
      df/db   14

    \b
    Second derivatives, and exact fractions:
      $ gradcli eval "x**3/3 + x*y" --at x=1/2,y=2 --exact --hessian -o plain

    \b
    Vectors, and a batch of points (one row each):
      $ gradcli eval "sum(x*w)" --at "x=[1,2,3],w=[0.5,1,1.5]"
      $ gradcli eval "x**2" --at "x=[1,2,3]" --jacobian
      $ gradcli eval "(w*x+b)**2" --at b=1 --points points.csv -o csv
      $ gradcli eval "(w*x+b)**2" --at b=1 --points points.parquet --output out.parquet

    \b
    The directional derivative (Stewart 14.6, example 2: D_u f(1, 2) = (13 - 3*sqrt(3))/2):
      $ gradcli eval "x^3 - 3x y + 4y^2" --at x=1,y=2 --direction "cos(pi/6),sin(pi/6)"

    \b
    Functions with names: f', f'' and partials such as g_x (see `gradcli help language`):
      $ gradcli eval "f(x) = x^2 sin x; f'(2)"
      $ gradcli eval "g(x, y) = x^2 y + y^3; g_x(1, 2)"
    """
    from .. import api
    text = read_source(expr, file)
    bindings = _exactly(lambda mode: api.parse_bindings(at, exact=mode), exact)
    wrt_names = api.split_top_level(wrt) if wrt else None
    _check_points_output(output, points, fmt, precision)
    if points is not None:
        if seed is not None or jacobian or show_all or gradcheck or hessian or exact:
            raise UsageError("--points cannot be combined with --seed, --jacobian, --all, "
                             "--check, --hessian or --exact")
        _points_guard(file, points, fmt, "writes one point", "eval-points")
        _eval_points(text, bindings, wrt_names, points, chunk_rows, fmt, precision, output)
        return
    def compute(mode):
        point = api.parse_bindings(at, exact=mode) if mode else bindings
        seed_value = api.constant_value(seed, "--seed", mode) if seed is not None else None
        result = api.evaluate(text, point, wrt=wrt_names, intermediates=show_all,
                              seed=seed_value, jacobian=jacobian, exact=mode, hessian=hessian,
                              numerics=True)
        along = note = None
        if direction is not None:
            from ..tasks.tangent import direction_texts, direction_vector, directional
            order, parts, note = direction_vector(direction, result.inputs, list(point), mode)
            along = directional({n: result.gradient[n] for n in order}, parts, exact=mode)
            texts = direction_texts(direction, order)
            if not mode and (result.exact_point or not all(map(api.is_decimal, texts))):
                from ..autodiff import typedpoint
                typedpoint.directional(result, along, order, texts)
        return result, along, note

    result, along, note = _exactly(compute, exact)
    result.at = keep_typed(bindings, result.at)  # the `at` line shows x = π/2 as typed
    warn(result.warnings)
    checks = None
    if gradcheck:
        from ..tasks.gradcheck import finite_differences
        checks = finite_differences(result)
    if along is not None:
        warn([note] if note else [])
        if along.normalised:
            from ..numbers import number_text
            warn([f"--direction normalised to the unit vector u = "
                  f"[{', '.join(number_text(v, 6) for v in along.unit)}]"])
    if along is not None:
        write("eval-direction", (result, along), fmt, precision, checks=checks)
    else:
        write("eval", result, fmt, precision, checks=checks)


def _eval_points(text, bindings, wrt_names, points, chunk_rows, fmt, precision, output=None):
    """eval --points: stream the batch, one output row per point; exit 2 or 3 at the end."""
    from ..data.sinks import open_sink
    from ..data.textlines import column_lines
    from ..output import points as streamed
    from ..tasks import batch
    program = batch.points_program(text, points, bindings, wrt_names)
    warn(program.warnings)
    job = batch.run(program, points, bindings, wrt_names, chunk_rows or batch.CHUNK_ROWS)
    _exit(streamed.eval_points(job, fmt, precision, output, open_sink, column_lines))
