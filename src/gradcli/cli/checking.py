"""`gradcli check`: a student's answers marked right or wrong."""
from __future__ import annotations

import click

from .. import options
from ..errors import UsageError
from ..inputs import read_source
from ..output.writers import write_warned
from .app import (CONTEXT, GradcliCommand, _exit, _points_guard, click_options, expression_options,
                  main, output_options)


@main.command("check", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.CHECK)
@output_options("check", "check-points")
def check_command(expr, file, at, value, grad, derivative, wrt, rtol, atol, points, chunk_rows,
                  tangent, directional, direction, critical, over, taylor, order, implicit, of,
                  newton, roots, mvt, normal, with_, fmt, precision, debug, div=None,
                  curl=None, laplacian=None, jacobian_det=None, partial=(), **one_variable):
    """Check your answers: value, partial derivatives, symbolic derivatives.

    Each answer is marked right or wrong; a wrong one shows the correct value
    or formula and, for a formula, a point where yours differs.

    Numbers: one typed with 3 or more significant digits is right when it is
    the true value correctly rounded to those digits (3.1677 for 3.16770632...;
    3.1678 and the cut-off 2.9092 for 2.909297... are wrong; trailing zeros
    typed count; an exact tie may be rounded either way). Fewer digits, or an
    expression such as 1/3, must match within --rtol/--atol. Giving --rtol or
    --atol turns the digits rule off.

    Formulas are compared numerically at the given point and at 16 random
    points (both signs, magnitudes 0.1 to 3; the same points on every run)
    where both are defined; a point where both are 0 within the tolerance is
    not counted. A wrong formula gets its mistake named: chain-rule,
    product-rule, quotient-rule, power-rule, sign, constant-kept,
    wrong-variable, exp-power-rule, exponential-ln-lost, log-base-lost,
    trig-square-lost, inverse-trig-formula, sqrt-half-lost, exponent-raised,
    reciprocal-rule, chain-factor-divided, derivative-inside,
    constant-differentiated, antiderivative, constant-offset, constant-factor
    or partial-domain (JSON "mistake", with "mistake_detail"). Exit 0 when every answer is right, 1
    when any is wrong, 2 for bad input.

    \b
    Example:
      $ gradcli check "(w*x+b)**2" --at w=3,x=2,b=1 --grad w=28,x=40 \\
          --derivative "2*x*(w*x+b)" --wrt w -o plain
      df/dw   right   28      28
      df/dx   wrong   40      42      the correct value is 42
      d/dw    right   2*x*(w*x+b)     2*x*(w*x+b)     decided by proof: the difference simplifies to 0

    \b
    At every row of a file (answers as constants or as columns value, grad_w, ...):
      $ gradcli check "(w*x+b)**2" --at b=1 --points answers.csv -o plain

    Homework answers, graded against what gradcli tangent, eval --direction,
    critical, taylor and implicit compute, each with its mistake named: a
    tangent (--tangent, a formula: the linearisation identically), a
    directional derivative (--directional V --direction A,B: not-normalised
    when V is the dot product with the direction as given), critical points
    and their kinds (--critical "(0,0) saddle; (1,1) min" --over BOX: a point
    found by gradcli's search and missing from the list is wrong, and the
    search never claims to have found every point), a Taylor polynomial
    (--taylor P --order N: compared coefficient by coefficient, a forgotten
    factorial named), dy/dx of an equation (--implicit FORMULA, compared with
    -F_x/F_y as formulas in x and y, and on the curve; with --order 2,
    d²y/dx², right when equal on the curve), the c of the mean value theorem
    (--mvt "c = 1 and c = 3" or "does not apply", with --over x=A:B: a c
    outside (A, B) or missed, named), a normal line (--normal EQUATION with
    --at: the tangent or slope 1/f'(a) given instead, named), absolute extrema
    (--abs-max "9 at (3, 0)" --abs-min ... with --over x=A:B, a rectangle
    --over x=A:B,y=C:D, a region --where or constraints --subject-to: a
    forgotten boundary piece or corner, a missed Lagrange point, λ given as
    the value, max and min swapped, named).

    \b
    OpenStax Calculus Vol. 3, sections 4.4 and 4.6: the tangent plane of
    2x^2 - 3xy + 8y^2 + 2x - 4y + 4 at (2, -1) is z = 13x - 26y - 18, and
    D_u f(-1, 2) = 8 for x^2 - xy + 3y^2 along 3i + 4j (40 is not-normalised):
      $ gradcli check "2x^2 - 3x y + 8y^2 + 2x - 4y + 4" --at x=2,y=-1 \\
          --tangent "z = 13x - 26y - 18" -o plain
      tangent right   z = 13x - 26y - 18      z = 34 + 13*(x - 2) - 26*(y + 1)
      $ gradcli check "x^2 - x y + 3y^2" --at x=-1,y=2 --directional 8 \\
          --direction 3,4 -o plain
      D_u f   right   8       8

    \b
    More (OpenStax Vol. 3 4.7, Vol. 2 6.3, Vol. 1 3.8):
      $ gradcli check "x^3/3 + y^2 + 2x y - 6x - 3y + 4" --over x=-4:4,y=-4:4 \\
          --critical "(-1, 5/2) saddle; (3, -3/2) min"
      $ gradcli check "e^x" --at x=0 --order 2 --taylor "1 + x + x^2"
      $ gradcli check "x^2 + y^2 = 25" --implicit "-x/y"

    \b
    Newton's method (--newton: iterates from --at, each read at the decimal places
    of the others; --roots with --over: every root in the range):
      $ gradcli check "x^3 + x - 1" --at x=1 --newton "0.75, 0.6860465, 0.6823396"
      $ gradcli check "x^3 - 2x" --over x=-3:3 --roots "±1.414, 0"
      $ gradcli check "x^3 - 4x" --over x=-2:2 --mvt "c = ±2/√3"
      $ gradcli check "x^2" --at x=2 --normal "y = -(x - 2)/4 + 4"

    \b
    Div, curl, Laplacian, Jacobian determinant, higher partials (decided by SymPy):
      $ gradcli check "[x*y, y*z, z*x]" --div "x + y + z" --curl "[-y, -z, -x]"
      $ gradcli check "x^3 y^2" --partial "xyy = 6x^2" --partial "yx = 6x^2 y"

    \b
    The chain rule (--with; the mixed or the substituted form):
      $ gradcli check "x^2 + y^2" --with "x = s cos t, y = s sin t" \\
          --derivative "2x cos t + 2y sin t" --wrt s
    """
    from .. import api
    from ..tasks.check import check, derivative_names
    from ..inputs import parse_answers
    text = read_source(expr, file)
    bindings = api.parse_bindings(at)
    grads = parse_answers(grad)
    # extrema in several variables: --where and --subject-to (repeatable) go with --abs-max
    one_variable["subject_to"] = tuple(one_variable.get("subject_to") or ()) or None
    homework = {"tangent": tangent, "directional": directional, "direction": direction,
                "critical": critical, "over": over, "taylor": taylor, "order": order,
                "implicit": implicit, "of": of, "newton": newton, "roots": roots, "mvt": mvt,
                "normal": normal, **one_variable}
    homework.update(div=div, curl=curl, laplacian=laplacian, jacobian_det=jacobian_det,
                    partial=list(partial) or None)
    given = {k: v for k, v in homework.items() if v is not None}
    fields = [k for k in ("div", "curl", "laplacian", "jacobian_det") if k in given]
    if fields and not derivative:
        # A field's variables, in order: --wrt says them as diff --div reads them.
        given["field_wrt"] = [n for spec in wrt for n in api.split_top_level(spec)] or None
        wrt = ()
    if with_ is not None:
        from .chainrule import check_with
        verdict = check_with(text, at, bindings, with_, derivative, wrt,
                             dict(given, value=value, grad=grads), points,
                             {k: v for k, v in (("rtol", rtol), ("atol", atol))
                              if v is not None})
        write_warned("check", verdict, fmt, precision)
        if not verdict.ok:
            click.get_current_context().exit(1)
        return
    if implicit is not None and derivative:
        raise UsageError("--implicit grades dy/dx of an equation; --derivative needs an "
                         "expression: check them in two runs")
    if implicit is not None:
        # The question is an equation: --wrt names its independent variable.
        wrt_names = [n for spec in wrt for n in api.split_top_level(spec)]
        if len(wrt_names) > 1:
            raise UsageError("--implicit takes one --wrt, the independent variable",
                             hint='for example: --implicit "-x/y" --wrt x')
        given["wrt"] = wrt_names[0] if wrt_names else None
        names = []
    else:
        names = derivative_names(text, bindings, grads, wrt, derivative)
    tolerances = {k: v for k, v in (("rtol", rtol), ("atol", atol)) if v is not None}
    if points is not None and given:
        raise UsageError(f"--points checks values and derivatives at every row; "
                         f"--{next(iter(given))} is checked at one point",
                         hint="leave --points out, and give the point with --at")
    if points is not None:
        _points_guard(file, points, fmt, "writes one point", "check-points")
        from ..tasks.check import check_points
        from ..output import points as streamed
        job = check_points(text, points, bindings, value, grads, list(zip(names, derivative)),
                           chunk_rows=chunk_rows, **tolerances)
        _exit(streamed.check_points(job, fmt, precision))
        return
    if given:
        from ..tasks.check import check_homework
        verdict = check_homework(text, bindings, value=value, grad=grads,
                                 derivatives=list(zip(names, derivative)), **given, **tolerances)
    else:
        verdict = check(text, bindings, value=value, grad=grads,
                        derivatives=list(zip(names, derivative)), **tolerances)
    write_warned("check", verdict, fmt, precision)
    if not verdict.ok:
        click.get_current_context().exit(1)
