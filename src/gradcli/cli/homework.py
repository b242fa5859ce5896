"""The homework commands: tangent, taylor, critical, implicit."""
from __future__ import annotations

import math

from .. import options
from ..errors import UsageError
from ..inputs import read_source
from ..output.writers import write_warned
from .app import (CONTEXT, GradcliCommand, _exactly, click_options, expression_options, main,
                  output_options)



@main.command("tangent", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.TANGENT)
@output_options("tangent", "normal", "surface")
def tangent_command(expr, file, at, estimate, exact, normal, fmt, precision, debug):
    """The tangent line or plane of EXPR at a point, and the linear approximation.

    \b
    Example (Stewart 14.4, example 1: the tangent plane of 2x^2 + y^2 at (1, 1, 3)):
      $ gradcli tangent "2x^2 + y^2" --at x=1,y=1 -o plain
      tangent z = 3 + 4*(x - 1) + 2*(y - 1)
      expanded        z = 4x + 2y - 3
      f       3
      df/dx   4
      df/dy   2

    \b
    The linear approximation beside the true value:
      $ gradcli tangent "sqrt(x)" --at x=4 --estimate x=4.1

    \b
    The normal line (Stewart 3.1: y = x^2 at (2, 4)):
      $ gradcli tangent "x^2" --at x=2 --normal --exact -o plain

    \b
    A level surface's tangent plane and normal line (Stewart 14.6), and a graph's:
      $ gradcli tangent "x^2 + y^2 + z^2 = 14" --at x=1,y=2,z=3 -o plain
      $ gradcli tangent "4 - x^2 - y^2" --at x=1,y=1 --normal -o plain
    """
    from .. import api
    from ..tasks.tangent import tangent
    text = read_source(expr, file)
    from ..tasks.surfaceinput import is_level_surface
    if is_level_surface(text, _at_names(at)) or (normal and _two_variables(text)):
        from .surfaces import tangent_surface
        return tangent_surface(text, at, estimate, fmt, precision)
    if normal:
        from ..tasks.normal import normal as normal_line
        if estimate:
            raise UsageError("--estimate is the tangent's linear approximation; leave it out "
                             "with --normal")
        write_warned("normal", _exactly(lambda mode: normal_line(
            text, api.parse_bindings(at, exact=mode), exact=mode, evaluate=api.evaluate),
            exact), fmt, precision)
        return

    def compute(mode):
        bindings = api.parse_bindings(at, exact=mode)
        near = api.parse_bindings([estimate], exact=mode) if estimate else None
        return tangent(text, bindings, exact=mode, estimate=near, evaluate=api.evaluate)
    write_warned("tangent", _exactly(compute, exact), fmt, precision)


def _at_names(at) -> list:
    from ..inputs import split_top_level
    return [item.partition("=")[0].strip() for spec in at or () for item in split_top_level(spec)]


def _two_variables(text) -> bool:
    from ..reading import read_program
    from ..inputs import inputs_of
    return len(inputs_of(read_program(text))) == 2


@main.command("taylor", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.TAYLOR)
@output_options("taylor")
def taylor_command(expr, file, at, order, wrt, exact, fmt, precision, debug):
    """The Taylor polynomial of EXPR about a point, in one or more variables.

    \b
    Example (the Maclaurin polynomial of e^x):
      $ gradcli taylor "e^x" --at x=0 --order 4 -o plain
      T4      1 + x + x^2/2 + x^3/6 + x^4/24
      remainder       O(|x|^5)
    """
    from .. import api
    from ..tasks.taylor import taylor
    text = read_source(expr, file)
    names = api.split_top_level(wrt) if wrt else None
    note = None
    if not at:  # SPEC §3: without --at, the Maclaurin polynomial (about 0), said in a note
        from ..reading import read_program
        at = [",".join(f"{v}=0" for v in api.inputs_of(read_program(text)))]
        if at[0]:
            note = (f"no --at given: the Maclaurin polynomial, about "
                    f"{at[0].replace('=', ' = ').replace(',', ', ')}")

    def compute(mode):
        return taylor(text, api.parse_bindings(at, exact=mode), order, exact=mode, wrt=names)
    result = _exactly(compute, exact)
    if note:
        result.warnings.insert(0, note)
    write_warned("taylor", result, fmt, precision)


# Textbook critical points lie within a few units of the origin.
DEFAULT_HALF_WIDTH = 5


@main.command("critical", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.CRITICAL)
@output_options("critical")
def critical_command(expr, file, over, at, fmt, precision, debug):
    """The critical points of EXPR in a box, each classified by the second-derivative test.

    \b
    Example (Stewart 14.7, example 3: a saddle at (0, 0), minima at (1, 1) and (-1, -1)):
      $ gradcli critical "x^4 + y^4 - 4x y + 1" --over x=-3:3,y=-3:3
    """
    from .. import api
    from ..tasks.critical import critical_points, parse_box
    text = read_source(expr, file)
    bindings = api.parse_bindings(at)
    note, result = None, None
    if over is None:  # SPEC §3: the whole space where algebra proves the list, else a box
        from ..reading import read_program
        searched = [v for v in api.inputs_of(read_program(text)) if v not in bindings]
        if searched:
            whole = {v: (-math.inf, math.inf) for v in searched}
            result = critical_points(text, whole, bindings, evaluate=api.evaluate)
        if result is None:
            over = ",".join(f"{v}=-{DEFAULT_HALF_WIDTH}:{DEFAULT_HALF_WIDTH}"
                            for v in searched)
            note = ("no --over given: searched " + ", ".join(
                f"-{DEFAULT_HALF_WIDTH} ≤ {v} ≤ {DEFAULT_HALF_WIDTH}" for v in searched))
    if result is None:
        box = parse_box(over, api.split_top_level)
        result = critical_points(text, box, bindings, evaluate=api.evaluate)
    if note:
        result.warnings.insert(0, note)
    if not result.points and not result.sets:
        raise UsageError("no critical point " + ("in the box" if result.complete
                                                 else "found in the box"),
                         hint="widen --over, or check that the function has one; "
                              + result.note)
    write_warned("critical", result, fmt, precision)


@main.command("implicit", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.IMPLICIT)
@output_options("implicit")
def implicit_command(expr, file, wrt, of, at, order, fmt, precision, debug):
    """dy/dx of a curve given implicitly, F(x, y) = G(x, y), as -F_x/F_y.

    \b
    Example (Stewart 3.5, example 1: the circle):
      $ gradcli implicit "x^2 + y^2 = 25" --wrt x --at x=3,y=4 -o plain
      dy/dx   -x/y
      dy/dx at x = 3, y = 4   -0.75

    \b
    The second derivative, simplified with the curve's equation:
      $ gradcli implicit "x^2 + y^2 = 25" --order 2 -o plain
    """
    from .. import api
    from ..tasks.implicit import implicit
    text = read_source(expr, file)
    if order == 2:
        from ..tasks.implicit import implicit_second
        from ..tasks.mvt import exact_point
        point = exact_point(at) if at else None
        write_warned("implicit2", implicit_second(text, wrt.strip() if wrt else None,
                                                  of.strip() if of else None, point),
                     fmt, precision)
        return
    bindings = api.parse_bindings(at) if at else None
    write_warned("implicit", implicit(text, wrt.strip() if wrt else None,
                                      of.strip() if of else None, bindings), fmt, precision)
