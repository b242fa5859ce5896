"""The theorem commands: mvt (the mean value theorem and Rolle's)."""
from __future__ import annotations

from .. import options
from ..inputs import read_source
from ..output.writers import write_warned
from .app import CONTEXT, GradcliCommand, click_options, expression_options, main, output_options


@main.command("mvt", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.MVT)
@output_options("mvt")
def mvt_command(expr, file, over, steps, fmt, precision, debug):
    """The mean value theorem for EXPR on [A, B]: does it apply, and every c.

    It applies when f is continuous on [A, B] and differentiable on (A, B);
    then f'(c) = (f(B) - f(A))/(B - A) for every c listed, exact (Rolle's
    theorem when f(A) = f(B)).

    \b
    Example (OpenStax Calculus Vol. 1, 4.4, example 4.13):
      $ gradcli mvt "x^3 - 3x" --over x=-2:2 -o plain
      mean value theorem      applies
      secant slope    1
      c       c = -2√3/3 and c = 2√3/3
      c ≈     -1.1547005383792515, 1.1547005383792515

    \b
    Where it does not apply, it says why:
      $ gradcli mvt "x^(2/3)" --over x=-1:8
    """
    from ..tasks.mvt import mean_value
    result = mean_value(read_source(expr, file), over)
    result.show_steps = steps
    write_warned("mvt", result, fmt, precision)
