"""The one-variable calculus commands: analyze (sign charts) and extrema (closed interval)."""
from __future__ import annotations

from .. import options
from ..inputs import read_source
from ..output.writers import write_warned
from .app import CONTEXT, GradcliCommand, click_options, expression_options, main, output_options


@main.command("analyze", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.ANALYZE)
@output_options("analyze")
def analyze_command(expr, file, over, steps, fmt, precision, debug):
    """Where f increases, decreases and is concave up or down; relative extrema and
    inflection points, exactly, by the sign charts of f' and f''.

    \b
    Example (OpenStax Calculus Vol. 1, 4.5: f(x) = x^3 - 3x^2 - 9x + 1):
      $ gradcli analyze "x^3 - 3x^2 - 9x + 1" -o plain
      critical numbers        x = -1, x = 3
      increasing      (-inf, -1) U (3, inf)
      decreasing      (-1, 3)
      relative max    x = -1 (f = 6)
      relative min    x = 3 (f = -26)
      concave up      (1, inf)
      concave down    (-inf, 1)
      inflection      x = 1 (f = -10)
    """
    from ..tasks.analyze import analyze
    text = read_source(expr, file)
    write_warned("analyze", analyze(text, over), fmt, precision, steps=steps)


@main.command("extrema", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.EXTREMA)
@output_options("extrema", "extrema-region")
def extrema_command(expr, file, over, steps, fmt, precision, debug, where=None,
                    subject_to=()):
    """The absolute maximum and minimum of f on a closed interval, a rectangle, a closed
    region or a constraint set, exactly, with every point where each is attained.

    \b
    Example (Stewart 4.1, example 8: f(x) = x^3 - 3x^2 + 1 on [-1/2, 4]):
      $ gradcli extrema "x^3 - 3x^2 + 1" --over x=-1/2:4 -o plain
      on      -1/2 ≤ x ≤ 4
      absolute max    17 at x = 4
      absolute min    -3 at x = 2

    \b
    Several variables (Stewart 14.7 example 7; 14.8 example 2):
      $ gradcli extrema "x^2 - 2x y + 2y" --over x=0:3,y=0:2 -o plain
      on      0 ≤ x ≤ 3, 0 ≤ y ≤ 2
      absolute max    9 at (3, 0)
      absolute min    0 at (0, 0) and (2, 2)
      $ gradcli extrema "x^2 + 2y^2" --subject-to "x^2 + y^2 = 1" -o plain
      subject to      x^2 + y^2 = 1
      absolute max    2 at (0, -1) and (0, 1)
      absolute min    1 at (-1, 0) and (1, 0)
    """
    from .multiextrema import run_extrema
    text = read_source(expr, file)
    run_extrema(text, over, where, subject_to, fmt, precision, steps)
