"""Root finding: `gradcli newton`, the iteration table from a start, or every root in a range."""
from __future__ import annotations

from .. import options
from ..errors import UsageError
from ..inputs import parse_over, read_source
from ..output.writers import write_warned
from .app import CONTEXT, GradcliCommand, click_options, expression_options, main, output_options


@main.command("newton", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.NEWTON)
@output_options("newton", "newton-roots")
def newton_command(expr, file, at, over, steps, digits, wrt, fmt, precision, debug):
    """Newton's method for EXPR = 0: the iteration table from --at, or every root in --over.

    From x0 (--at x=1.5) the iterates x_{n+1} = x_n - f(x_n)/f'(x_n) are
    computed with 40 significant digits and printed to --digits decimal places
    (default 6): --steps N of them (--iterations is the same option), or,
    without --steps, until two successive iterates agree to those places. A zero
    derivative, iterates that leave f's domain or run away, and a cycle are
    said plainly ("converged": false). With --over x=A:B instead, every root
    found in the range: sign changes on a grid and Newton from each local
    minimum of |f|; a sampled search never claims there are no others.

    \b
    Example (the square root of 2, from x0 = 1):
      $ gradcli newton "x^2 - 2" --at x=1 --digits 7 -o plain
      x0      1.0000000
      x1      1.5000000
      x2      1.4166667
      x3      1.4142157
      x4      1.4142136
      x5      1.4142136
      root    1.4142136
      converged       yes
      why     x4 and x5 agree to 7 decimal places

    \b
    Every root in a range, and a cycle said plainly:
      $ gradcli newton "x^3 - 2x" --over x=-3:3 -o plain
      $ gradcli newton "x^3 - 2x + 2" --at x=0 --steps 4
    """
    from .. import api
    from ..tasks.newton import newton, roots
    text = read_source(expr, file)
    start = _start(at, wrt, api)
    if over is not None:
        if steps is not None:
            raise UsageError("--steps counts the iterations from a start (--at x=...); --over "
                             "searches a range for every root",
                             hint="give one of them: --at x=1.5 --steps 3, or --over x=-3:3")
        if start is not None:
            raise UsageError(f"--at {start[0]}=... is a starting point and --over a range to "
                             "search: give one of them",
                             hint="--at x=1.5 for the iteration table, --over x=-3:3 for every "
                                  "root")
        name, low, high = parse_over(over)
        if wrt is not None and wrt.strip() != name:
            raise UsageError(f"--wrt {wrt.strip()} and --over {name}=... name different "
                             "variables")
        params = api.parse_bindings(at)
        write_warned("newton-roots", roots(text, low, high, digits=digits, variable=name,
                                           bindings=params), fmt, precision)
        return
    if start is None:
        raise UsageError("newton needs a starting point (--at x=1.5) or a range to search "
                         "(--over x=-3:3)",
                         hint='for example: gradcli newton "x^2 - 2" --at x=1')
    name, value, typed, params = start
    write_warned("newton", newton(text, value, steps=steps, digits=digits, variable=name,
                                  bindings=params, start_text=typed), fmt, precision)


def _start(at, wrt, api):
    """(variable, x0, x0 as typed, the other inputs' values) from --at, or None when --at
    gives no value to the variable (only parameters, or nothing)."""
    if not at:
        return None
    bindings = api.parse_bindings(at)
    typed = {}
    for spec in at:
        for item in api.split_top_level(spec):
            name, _, value = item.partition("=")
            typed[name.strip()] = value.strip()
    if wrt is not None:
        name = wrt.strip()
        if name not in bindings:
            return None
    elif len(bindings) == 1:
        name = next(iter(bindings))
    else:
        raise UsageError("--at gives several values: which is the variable of f(x) = 0?",
                         hint="name it with --wrt (the others are parameters): --wrt x")
    value = bindings[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)) and \
            type(value).__name__ != "Fraction":
        raise UsageError(f"the starting point {name} = {typed.get(name)} must be a number")
    params = {k: v for k, v in bindings.items() if k != name}
    return name, float(value), typed.get(name, str(value)), params
