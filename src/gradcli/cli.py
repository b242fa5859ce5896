"""The click application: options, calling the facade, choosing a writer, exit codes. The only click importer.

Commands parse options (eval's from the table in options.py), call the
library (api and the tasks), and hand results to a writer in output/
(formats for plain/JSON/CSV, writeup for Markdown/LaTeX, render for rich
tables, points for --points streams). Library errors become a message, a
caret line and an exit code in one place, output/streams.report_failure,
which launch.py's fast path uses too.
"""
from __future__ import annotations

import os
import re
import sys

import click

from . import __version__, options
from .errors import UsageError
from .inputs import read_source
from .output.streams import emit, output_format, report_failure, warn
from .output.streams import stderr as _stderr

FORMATS = ("table", "plain", "json", "csv")
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class GradcliCommand(click.Command):
    """A command whose expression may start with '-' and whose errors exit cleanly."""

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, _expression_first(self.get_params(ctx), args))
        except click.ClickException as exc:
            from .errors import clean
            exc.message = clean(exc.message)  # option values are user text too
            if "unexpected extra argument" in exc.message:
                hint = _comma_hint(args)
                if hint:
                    exc.message += "\n" + hint
            raise

    def get_help(self, ctx):
        from .output.streams import fit_help, terminal_width
        return fit_help(super().get_help(ctx), terminal_width(sys.stdout))

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as exc:  # input errors, and bugs said plainly: output/streams.py
            debug = ctx.params.get("debug") or os.environ.get("GRADCLI_DEBUG")
            if debug and not isinstance(exc, MemoryError):
                raise
            ctx.exit(report_failure(exc))


def _comma_hint(args) -> str | None:
    """`--at x=1 y=2`: the shell split the bindings at the space; say to join them with commas."""
    import re
    import shlex
    binding = re.compile(r"^[^\W\d]\w*=\S")
    for i, arg in enumerate(args[:-2]):
        if arg in ("--at", "--grad") and binding.match(args[i + 1]):
            extra = []
            for more in args[i + 2:]:
                if not binding.match(more):
                    break
                extra.append(more)
            if extra:
                joined = ",".join([args[i + 1], *extra])
                return (f"hint: {arg} takes its bindings joined by commas, not spaces: "
                        f"{arg} {shlex.quote(joined)}")
    return None


_OPTION_LIKE = re.compile(r"--[A-Za-z][A-Za-z0-9-]+\Z")


def _expression_first(params, args):
    """Let an expression such as "-x**2" through as the argument, not an unknown option."""
    known = set()
    takes_value = set()
    for p in params:
        if isinstance(p, click.Option):
            names = list(p.opts) + list(p.secondary_opts)
            known.update(names)
            if not p.is_flag and not p.count:
                takes_value.update(p.opts)
    out, moved, skip, skip_next = [], [], False, False
    for i, arg in enumerate(args):
        if skip_next:
            skip_next = False
            continue
        if skip:
            out.append(arg)
            skip = False
            continue
        if arg == "--":
            # Everything after `--` is an argument, as in every Unix tool; options
            # may still follow the expression (`eval -- -x --at x=2`), so keep parsing.
            if i + 1 < len(args):
                moved.append(args[i + 1])
                skip_next = True
            continue
        if arg.startswith("-") and len(arg) > 1:
            head = arg.split("=", 1)[0]
            if head not in known and _OPTION_LIKE.match(head) and not moved:
                # --att is a mistyped option, not an expression: say which one was meant.
                import difflib
                close = difflib.get_close_matches(head, sorted(k for k in known
                                                               if k.startswith("--")), n=1)
                raise click.NoSuchOption(head, possibilities=close)
            if head in known or arg[:2] in known:
                out.append(arg)
                skip = head in takes_value and "=" not in arg and len(arg) <= 2 or arg in takes_value
                continue
            moved.append(arg)
            continue
        out.append(arg)
    if moved:
        if "--" in out:
            out.extend(moved)
        else:
            out.extend(["--", *moved])
    return out


def print_rich(renderable) -> None:
    from .output.render import console
    console().print(renderable)


def expression_options(f):
    """EXPR or -f FILE, shared by every command that reads an expression."""
    f = click.option("-f", "--file", "file", metavar="FILE",
                     help="Read the expression or program from FILE ('-' for stdin).")(f)
    f = click.argument("expr", required=False, metavar="EXPR")(f)
    return f


class Rounding:
    """The precision of one output, and the note it ends with when the default rounded.

    Human formats round to formats.HUMAN_DIGITS unless --precision is given, and
    then say so once: a dim line under a table, a line of Markdown, a comment in
    LaTeX, DOT or Mermaid. Nothing is said when no number lost a digit.
    """

    NOTES = {"markdown": "\n_{}_\n", "latex": "% {}\n", "dot": "// {}\n",
             "mermaid": "%% {}\n"}

    def __init__(self, fmt, precision):
        from .output.formats import display_precision, rounded_count
        self.precision = display_precision(fmt, precision)
        self.mark = rounded_count()

    @property
    def rounded(self) -> bool:
        from .output.formats import rounded_count
        return rounded_count() > self.mark

    def note(self, kind: str) -> str:
        """The note in the syntax of `kind`, or '' when nothing was rounded."""
        from .output.formats import digits_note
        return self.NOTES[kind].format(digits_note()) if self.rounded else ""

    def print_note(self) -> None:
        """Under a rich table: the note as a dim line."""
        if self.rounded:
            from .output import render
            from .output.formats import digits_note
            print_rich(render.dim_line("\n" + digits_note()))


def click_options(records):
    """Click options from option records (options.py), in the order given."""
    def decorate(f):
        for r in reversed(records):
            kw = {"help": r.help, "metavar": r.metavar}
            if not r.takes_value:
                kw["is_flag"] = True
            if r.multiple:
                kw["multiple"] = True
            if r.choices is not None:
                kw["type"] = click.Choice(r.choices)
            elif r.int_range is not None:
                kw["type"] = click.IntRange(*r.int_range)
            f = click.option(*r.flags, r.dest, **kw)(f)
        return f
    return decorate


def output_options(formats=FORMATS):
    """-o/--format, --precision and --debug (options.output_options)."""
    return click_options(options.output_options(formats))


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, "-V", "--version", prog_name="gradcli")
def main():
    """gradcli: value and every partial derivative of an expression, by reverse-mode autodiff.

    \b
    Example:
      gradcli eval "(w*x+b)**2" --at w=3,x=2,b=1
    """


@main.command("eval", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.EVAL)
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
    from . import api
    from .output import formats
    text = read_source(expr, file)
    bindings = _exactly(lambda mode: api.parse_bindings(at, exact=mode), exact)
    wrt_names = api.split_top_level(wrt) if wrt else None
    _check_points_output(output, points, fmt)
    if points is not None:
        if seed is not None or jacobian or show_all or gradcheck or hessian or exact:
            raise UsageError("--points cannot be combined with --seed, --jacobian, --all, "
                             "--check, --hessian or --exact")
        if file == "-" and points == "-":
            raise UsageError("the expression (-f -) and the points (--points -) cannot both "
                             "come from stdin")
        _eval_points(text, bindings, wrt_names, points, chunk_rows, fmt, precision, output)
        return
    if fmt in ("markdown", "latex"):
        if points is not None:
            raise UsageError(f"-o {fmt} writes one point; with --points use csv, json, plain "
                             "or table")
    def compute(mode):
        point = api.parse_bindings(at, exact=mode) if mode else bindings
        seed_value = api.constant_value(seed, "--seed", mode) if seed is not None else None
        result = api.evaluate(text, point, wrt=wrt_names, intermediates=show_all,
                              seed=seed_value, jacobian=jacobian, exact=mode, hessian=hessian,
                              numerics=True)
        along = note = None
        if direction is not None:
            from .tangent import direction_vector, directional
            order, parts, note = direction_vector(direction, result.inputs, list(point), mode)
            along = directional({n: result.gradient[n] for n in order}, parts, exact=mode)
        return result, along, note

    result, along, note = _exactly(compute, exact)
    warn(result.warnings)
    checks = None
    if gradcheck:
        from .gradcheck import finite_differences
        checks = finite_differences(result)
    if along is not None:
        warn([note] if note else [])
        if along.normalised:
            from .numbers import number_text
            warn([f"--direction normalised to the unit vector u = "
                  f"[{', '.join(number_text(v, 6) for v in along.unit)}]"])
    fmt = output_format(fmt)
    rounding = Rounding(fmt, precision)
    precision = rounding.precision
    if along is not None:
        _eval_with_direction(result, along, checks, fmt, precision, rounding)
        return
    if fmt in ("markdown", "latex"):
        from .output import writeup
        write = writeup.eval_markdown if fmt == "markdown" else writeup.eval_latex
        body = write(result, precision, checks)
        emit(body + rounding.note(fmt))
    elif fmt == "json":
        record = formats.eval_record(result, precision)
        if checks is not None:
            record["check"] = formats.gradcheck_record(checks, precision)
        emit(formats.dumps(record) + "\n")
    elif fmt in ("csv", "plain"):
        rows = formats.eval_rows(result, precision)
        if checks is not None:
            rows = formats.gradcheck_rows(rows, result, checks, precision)
        emit(formats.eval_csv(result, precision, rows) if fmt == "csv" else formats.plain(rows))
    else:
        from .output import render
        print_rich(render.eval_table(result, precision, checks=checks))
        rounding.print_note()


def _eval_with_direction(result, along, checks, fmt, precision, rounding):
    from .output import formats, homework
    rows = formats.eval_rows(result, precision) + homework.directional_rows(along, precision)
    if fmt == "json":
        record = formats.eval_record(result, precision)
        record["directional"] = homework.directional_record(along, precision)
        emit(formats.dumps(record) + "\n")
    elif fmt == "csv":
        emit(formats.eval_csv(result, precision, rows))
    elif fmt == "plain":
        emit(formats.plain(rows))
    elif fmt in ("markdown", "latex"):
        from .output import writeup
        write = writeup.eval_markdown if fmt == "markdown" else writeup.eval_latex
        extra = "\n".join(f"{'- ' if fmt == 'markdown' else '% '}{k}: {v}"
                          for k, v in homework.directional_rows(along, precision))
        emit(write(result, precision, checks) + extra + "\n" + rounding.note(fmt))
    else:
        from .output import render
        print_rich(render.eval_table(result, precision, checks=checks))
        print_rich(render.rows_table(homework.directional_rows(along, precision)))
        rounding.print_note()


HOMEWORK_FORMATS = ("table", "plain", "json", "markdown", "latex")


def _emit_homework(obj, kind, fmt, precision):
    """One homework result in the chosen format (the writers live in homework.py)."""
    from .output import formats, homework
    fmt = output_format(fmt)
    rounding = Rounding(fmt, precision)
    precision = rounding.precision
    warn(getattr(obj, "warnings", []))
    if fmt == "json":
        emit(formats.dumps(getattr(homework, f"{kind}_record")(obj, precision)) + "\n")
    elif fmt == "plain":
        emit(formats.plain(getattr(homework, f"{kind}_rows")(obj, precision)))
    elif fmt in ("markdown", "latex"):
        write = getattr(homework, f"{kind}_{fmt}", None)
        if write is None:
            raise UsageError(f"-o {fmt} is not available here; use table, plain, json or "
                             "markdown")
        emit(write(obj, precision) + rounding.note(fmt))
    else:
        from .output import render
        print_rich(render.rows_table(getattr(homework, f"{kind}_rows")(obj, precision)))
        rounding.print_note()


@main.command("tangent", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click.option("--at", "at", multiple=True, metavar="NAME=VALUE,...",
              help="The point of tangency (every input).")
@click.option("--estimate", metavar="NAME=VALUE,...",
              help="Also the linear approximation at this point, beside the true value.")
@click.option("--exact", is_flag=True, help="Exact rational arithmetic where possible.")
@output_options(HOMEWORK_FORMATS)
def tangent_command(expr, file, at, estimate, exact, fmt, precision, debug):
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
    """
    from . import api
    from .tangent import tangent
    text = read_source(expr, file)

    def compute(mode):
        bindings = api.parse_bindings(at, exact=mode)
        near = api.parse_bindings([estimate], exact=mode) if estimate else None
        return tangent(text, bindings, exact=mode, estimate=near, evaluate=api.evaluate)
    _emit_homework(_exactly(compute, exact), "tangent", fmt, precision)


def _exactly(run, exact):
    """run(mode) for --exact: rationals first; where a value has none, closed forms in π,
    roots and e (SymPy, loaded only then); without --exact, doubles."""
    if not exact:
        return run(False)
    from .errors import InexactError
    try:
        return run(True)
    except InexactError:
        return run("closed")


@main.command("taylor", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click.option("--at", "at", multiple=True, metavar="NAME=VALUE,...",
              help="The point to expand about (every input).")
@click.option("--order", type=click.IntRange(0, 20), default=2, show_default=True,
              help="The highest total degree.")
@click.option("--wrt", metavar="A,B", help="Expand in these inputs only (the others fixed).")
@click.option("--exact", is_flag=True, help="Exact rational coefficients where possible.")
@output_options(HOMEWORK_FORMATS)
def taylor_command(expr, file, at, order, wrt, exact, fmt, precision, debug):
    """The Taylor polynomial of EXPR about a point, in one or more variables.

    \b
    Example (the Maclaurin polynomial of e^x):
      $ gradcli taylor "e^x" --at x=0 --order 4 -o plain
      T4      1 + x + x^2/2 + x^3/6 + x^4/24
      remainder       O(|x|^5)
    """
    from . import api
    from .taylor import taylor
    text = read_source(expr, file)
    names = api.split_top_level(wrt) if wrt else None

    def compute(mode):
        return taylor(text, api.parse_bindings(at, exact=mode), order, exact=mode, wrt=names)
    _emit_homework(_exactly(compute, exact), "taylor", fmt, precision)


@main.command("critical", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click.option("--over", "over", required=True, metavar="NAME=LOW:HIGH,...",
              help="The box to search: a range for every input.")
@click.option("--at", "at", multiple=True, metavar="NAME=VALUE,...",
              help="Values for parameters that are not searched.")
@output_options(("table", "plain", "json", "markdown"))
def critical_command(expr, file, over, at, fmt, precision, debug):
    """The critical points of EXPR in a box, each classified by the second-derivative test.

    \b
    Example (Stewart 14.7, example 3: a saddle at (0, 0), minima at (1, 1) and (-1, -1)):
      $ gradcli critical "x^4 + y^4 - 4x y + 1" --over x=-3:3,y=-3:3
    """
    from . import api
    from .critical import critical_points, parse_box
    text = read_source(expr, file)
    box = parse_box(over, api.split_top_level)
    result = critical_points(text, box, api.parse_bindings(at), evaluate=api.evaluate)
    if not result.points:
        raise UsageError("no critical point found in the box",
                         hint="widen --over, or check that the function has one; "
                              + result.note)
    _emit_homework(result, "critical", fmt, precision)


@main.command("implicit", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click.option("--wrt", metavar="X", help="The independent variable (default: x, when the "
              "equation's variables are x and one other).")
@click.option("--of", "of", metavar="Y",
              help="The dependent variable (default: the equation's other variable).")
@click.option("--at", "at", multiple=True, metavar="NAME=VALUE,...",
              help="Also the value of the derivative at this point of the curve.")
@output_options(HOMEWORK_FORMATS)
def implicit_command(expr, file, wrt, of, at, fmt, precision, debug):
    """dy/dx of a curve given implicitly, F(x, y) = G(x, y), as -F_x/F_y.

    \b
    Example (Stewart 3.5, example 1: the circle):
      $ gradcli implicit "x^2 + y^2 = 25" --wrt x --at x=3,y=4 -o plain
      dy/dx   -x/y
      dy/dx at x = 3, y = 4   -0.75
    """
    from . import api
    from .implicit import implicit
    text = read_source(expr, file)
    bindings = api.parse_bindings(at) if at else None
    _emit_homework(implicit(text, wrt.strip() if wrt else None, of.strip() if of else None,
                            bindings),
                   "implicit", fmt, precision)


@main.command("help", cls=GradcliCommand, context_settings=CONTEXT)
@click.argument("topic", required=False, metavar="TOPIC")
@click.pass_context
def help_command(ctx, topic):
    """Help on a topic: the language, numbers, exit-codes, or a command (eval, trace, ...).

    \b
    Examples:
      $ gradcli help language
      $ gradcli help eval
      $ gradcli help exit-codes
    """
    from .output.topics import ALIASES, TOPICS
    group = ctx.parent.command
    commands = [c for c in group.list_commands(ctx) if c != "help"]
    from .output.streams import fit, terminal_width
    width = terminal_width(sys.stdout) or 80  # in a pipe, lines a pager or a file holds
    if topic is None:
        emit(fit("gradcli help TOPIC\n\ntopics:   " + ", ".join(TOPICS) + "\ncommands: "
                 + ", ".join(commands), width) + "\n\n" + group.get_help(ctx.parent) + "\n")
        return
    name = ALIASES.get(topic.lower(), topic.lower())
    if name in TOPICS:
        emit(fit(TOPICS[name], width, hang=0, paragraphs=True))
        return
    command = group.get_command(ctx, name)
    if command is None or name == "help":
        import difflib
        near = difflib.get_close_matches(name, [*TOPICS, *commands], n=1)
        raise UsageError(f"no help topic '{topic}'",
                         hint=(f"did you mean {near[0]}? " if near else "")
                         + "topics: " + ", ".join([*TOPICS, *commands]))
    with click.Context(command, info_name=name, parent=ctx.parent) as sub:
        emit(command.get_help(sub) + "\n")


@main.command("functions", cls=GradcliCommand, context_settings=CONTEXT)
@output_options(("table", "plain", "json"))
def functions_command(fmt, precision, debug):
    """List every function and operator: arity, derivative rule and domain.

    The derivative rules are printed from the same table the engine uses.

    \b
    Example:
      $ gradcli functions -o plain | grep sigmoid
      sigmoid(x)      1       d/dx = sigmoid(x)*(1 - sigmoid(x))      all reals
      softplus(x)     1       d/dx = sigmoid(x)       all reals
    """
    from .output import formats
    records = formats.functions_records()
    fmt = output_format(fmt)
    if fmt == "json":
        emit(formats.dumps(records) + "\n")
    elif fmt == "plain":
        emit("".join(f"{r['form']}\t{r['arity']}\t{r['derivative']}\t{r['domain']}\n"
                     for r in records))
    else:
        from .output import render
        print_rich(render.functions_table(records))


@main.command("trace", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click.option("--at", "at", multiple=True, metavar="NAME=VALUE,...",
              help="Bind inputs (repeatable). VALUE is a constant expression: 3, -1e-3, pi/4.")
@click.option("--wrt", metavar="A,B", help="Only these inputs get gradients.")
@output_options(("table", "plain", "markdown", "latex", "json"))
def trace_command(expr, file, at, wrt, fmt, precision, debug):
    """Show the chain rule step by step: the forward pass, then the backward pass.

    The forward table lists each node (inputs by their names, operations as
    v1, v2, ..., a program's names as they are) with its value. The backward
    table goes from the output back: each node's upstream gradient, the local
    derivative of each input (the op table's rule, at the point, as a number),
    the contribution upstream x local, and the input's running total where a
    value is used more than once. -o markdown / -o latex export the ledger.

    \b
    Example:
      $ gradcli trace "x*x + x" --at x=3 -o plain
      read as x*x + x
      forward x       input   3
      forward v1      x*x     9
      forward f       v1 + x  12
      backward        f       1       v1      1       1       1       1       1
      backward        f       1       x       1       1       1       1       1
      backward        v1      1       x       x       3       3       3       4
      backward        v1      1       x       x       3       3       3       7
      f       12
      df/dx   7
      $ gradcli trace "(w*x+b)**2" --at w=3,x=2,b=1 -o markdown
    """
    from . import api
    from .output import ledger
    text = read_source(expr, file)
    bindings = api.parse_bindings(at)
    wrt_names = api.split_top_level(wrt) if wrt else None
    t = api.trace(text, bindings, wrt=wrt_names)
    warn(t.warnings)
    fmt = output_format(fmt)
    rounding = Rounding(fmt, precision)
    precision = rounding.precision
    if fmt == "json":
        from .output import formats
        emit(formats.dumps(ledger.record(t, precision)) + "\n")
    elif fmt == "plain":
        emit(ledger.plain(t, precision))
    elif fmt == "markdown":
        body = ledger.markdown(t, precision)
        emit(body + rounding.note(fmt))
    elif fmt == "latex":
        body = ledger.latex(t, precision)
        emit(body + rounding.note(fmt))
    else:
        from .output import render
        print_rich(render.trace_tables(t, precision))
        rounding.print_note()


@main.command("graph", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click.option("--at", "at", multiple=True, metavar="NAME=VALUE,...",
              help="Bind inputs (repeatable). VALUE is a constant expression: 3, -1e-3, pi/4.")
@click.option("--wrt", metavar="A,B", help="Only these inputs get gradients.")
@click.option("--output", "output", metavar="FILE",
              help="Write the graph to FILE: .svg, .png or .pdf (drawn by Graphviz's dot), "
                   ".dot/.gv, .mmd (Mermaid) or .json.")
@output_options(("tree", "dot", "mermaid", "json"))
def graph_command(expr, file, at, wrt, output, fmt, precision, debug):
    """Show the computation graph: each node's operation, value and gradient.

    A tree on the terminal (the output at the root; a shared sub-graph is shown
    once and then referred to by name), Graphviz DOT (-o dot), Mermaid
    (-o mermaid) or JSON. --output g.svg draws it with Graphviz's dot program.

    \b
    Example:
      $ gradcli graph "x*x + x" --at x=3
      read as x*x + x
      at      x = 3

    \b
      f = v1 + x   value 12   grad 1
      ├── v1 = x*x   value 9   grad 1
      │   ├── x   value 3   grad 7
      │   └── x   value 3   grad 7
      └── x   value 3   grad 7
      $ gradcli graph "(w*x+b)**2" --at w=3,x=2,b=1
      $ gradcli graph "(w*x+b)**2" --at w=3,x=2,b=1 --output graph.svg
    """
    from . import api
    from .output import graphviz
    kind = graphviz.output_kind(output) if output else None
    if kind and fmt and fmt != kind and not (fmt == "dot" and kind in ("svg", "png", "pdf")):
        raise UsageError(f"-o {fmt} and --output {output} ask for different formats",
                         hint="--output picks the format from the file's extension; drop -o")
    text = read_source(expr, file)
    bindings = api.parse_bindings(at)
    wrt_names = api.split_top_level(wrt) if wrt else None
    t = api.trace(text, bindings, wrt=wrt_names)
    warn(t.warnings)
    fmt = kind or fmt or "tree"
    rounding = Rounding(fmt, precision)
    precision = rounding.precision
    if fmt in ("svg", "png", "pdf"):
        graphviz.render(graphviz.to_dot(t, precision), output, fmt)
        _stderr(f"wrote {output} ({fmt.upper()}, {_node_count(t)})"
                + (f"; {_digits_note()}" if rounding.rounded else ""))
        return
    if fmt == "dot":
        body = graphviz.to_dot(t, precision)
        body += rounding.note("dot")
    elif fmt == "mermaid":
        body = graphviz.to_mermaid(t, precision)
        body += rounding.note("mermaid")
    elif fmt == "json":
        from .output import formats
        body = formats.dumps(graphviz.record(t, precision)) + "\n"
    else:
        from .output import render
        print_rich(render.graph_tree(t, precision))
        rounding.print_note()
        return
    if output:
        try:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(body)
        except OSError as exc:
            raise UsageError(f"cannot write {output}: {exc.strerror}") from None
        _stderr(f"wrote {output} ({'Mermaid' if fmt == 'mermaid' else fmt.upper()}, "
                f"{_node_count(t)})")
    else:
        emit(body)


def _node_count(t) -> str:
    n = sum(1 for node in t.forward if node.kind != "literal")
    return f"{n} node{'s' * (n != 1)}"


def _digits_note() -> str:
    from .output.formats import digits_note
    return digits_note()


@main.command("check", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click.option("--at", "at", multiple=True, metavar="NAME=VALUE,...",
              help="The point (repeatable). Optional when only --derivative answers are given.")
@click.option("--value", "value", metavar="V", help="Your value of the expression.")
@click.option("--grad", "grad", multiple=True, metavar="NAME=V,...",
              help="Your partial derivatives at the point (repeatable).")
@click.option("--derivative", "derivative", multiple=True, metavar="FORMULA",
              help="Your symbolic derivative (repeatable); the i-th goes with the i-th --wrt.")
@click.option("--wrt", "wrt", multiple=True, metavar="NAME",
              help="The variable of each --derivative, in order (repeat it, or list: --wrt w,x). "
                   "Optional when the expression has one variable.")
@click.option("--rtol", type=float, metavar="R",
              help="Relative tolerance: right when |answer - expected| <= atol + "
                   "rtol*|expected|. Default 1e-6. Given, it overrides the digits rule.")
@click.option("--atol", type=float, metavar="A",
              help="Absolute tolerance. Default 1e-9. Given, it overrides the digits rule.")
@click.option("--points", metavar="FILE",
              help="Check at every row of FILE (CSV with a header, or JSON Lines; '-' for "
                   "stdin). Answers may be columns: value (or f) and grad_NAME (or df/dNAME).")
@click.option("--chunk", "chunk_rows", type=click.IntRange(1, 10_000_000), default=None,
              metavar="N", help="With --points: rows per vectorised pass (default 65536).")
@click.option("--tangent", metavar="EQUATION",
              help="Your tangent line or plane at --at: z = ... (y = ... for one variable), "
                   "any linear equation in z, or the right-hand side alone.")
@click.option("--directional", metavar="V",
              help="Your directional derivative at --at along --direction.")
@click.option("--direction", metavar="A,B,...",
              help="The direction of --directional, one number per input in the order of "
                   "--at, or named (x=3,y=4); normalised, as eval --direction does.")
@click.option("--critical", metavar="POINTS",
              help='Your critical points and their kinds in the box --over: "(0,0) saddle; '
                   '(1,1) min" (coordinates in the order of --over; or "none").')
@click.option("--over", metavar="NAME=LOW:HIGH,...",
              help="The box gradcli searches for the critical points of --critical.")
@click.option("--taylor", metavar="POLYNOMIAL",
              help="Your Taylor polynomial about --at, of degree --order.")
@click.option("--order", type=click.IntRange(0, 20), metavar="N",
              help="The order of the Taylor polynomial of --taylor.")
@click.option("--implicit", metavar="FORMULA",
              help="Your dy/dx for the curve EXPR (an equation F = G), as a formula in x and "
                   "y; --wrt names x when the equation has other variables.")
@click.option("--of", "of", metavar="Y",
              help="With --implicit: the dependent variable (default: the other one).")
@output_options(("table", "plain", "json", "markdown", "latex"))
def check_command(expr, file, at, value, grad, derivative, wrt, rtol, atol, points, chunk_rows,
                  tangent, directional, direction, critical, over, taylor, order, implicit, of,
                  fmt, precision, debug):
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
    wrong-variable, constant-offset, constant-factor or partial-domain (JSON
    "mistake", with "mistake_detail"). Exit 0 when every answer is right, 1
    when any is wrong, 2 for bad input.

    \b
    Example:
      $ gradcli check "(w*x+b)**2" --at w=3,x=2,b=1 --grad w=28,x=40 \\
          --derivative "2*x*(w*x+b)" --wrt w -o plain
      df/dw   right   28      28
      df/dx   wrong   40      42      the correct value is 42
      d/dw    right   2*x*(w*x+b)     2*x*(w*x+b)

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
    -F_x/F_y as formulas in x and y, and on the curve).

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
    """
    from . import api
    from .check import check, derivative_names
    from .inputs import parse_answers
    from .output import formats
    text = read_source(expr, file)
    bindings = api.parse_bindings(at)
    grads = parse_answers(grad)
    homework = {"tangent": tangent, "directional": directional, "direction": direction,
                "critical": critical, "over": over, "taylor": taylor, "order": order,
                "implicit": implicit, "of": of}
    given = {k: v for k, v in homework.items() if v is not None}
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
        if fmt in ("markdown", "latex"):
            raise UsageError(f"-o {fmt} writes one point; with --points use json, plain or "
                             "table")
        if file == "-" and points == "-":
            raise UsageError("the expression (-f -) and the points (--points -) cannot both "
                             "come from stdin")
        from .check import check_points
        from .output import points as streamed
        job = check_points(text, points, bindings, value, grads, list(zip(names, derivative)),
                           chunk_rows=chunk_rows, **tolerances)
        _exit(streamed.check_points(job, fmt, precision))
        return
    if given:
        from .check import check_homework
        verdict = check_homework(text, bindings, value=value, grad=grads,
                                 derivatives=list(zip(names, derivative)), **given, **tolerances)
    else:
        verdict = check(text, bindings, value=value, grad=grads,
                        derivatives=list(zip(names, derivative)), **tolerances)
    warn(verdict.warnings)
    fmt = output_format(fmt)
    rounding = Rounding(fmt, precision)
    precision = rounding.precision
    if fmt == "json":
        emit(formats.dumps(formats.check_record(verdict, precision)) + "\n")
    elif fmt == "plain":
        emit(formats.check_lines(verdict, precision))
    elif fmt in ("markdown", "latex"):
        from .output import writeup
        write = writeup.check_markdown if fmt == "markdown" else writeup.check_latex
        body = write(verdict, precision)
        emit(body + rounding.note(fmt))
    else:
        from .output import render
        print_rich(render.check_table(verdict, precision))
        rounding.print_note()
    if not verdict.ok:
        click.get_current_context().exit(1)


@main.command("diff", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click.option("--wrt", metavar="A,B", help="Differentiate by these variables (default: all).")
@click.option("--order", type=int, default=1, show_default=True, metavar="N",
              help="Order of the derivatives: 2 gives every second partial (xx, xy, yy).")
@click.option("--at", "at", multiple=True, metavar="NAME=VALUE,...",
              help="Also evaluate each derivative at this point (repeatable).")
@click.option("--points", metavar="FILE",
              help="Evaluate each derivative at every row of FILE (CSV with a header, "
                   "JSON Lines, or with the data extra Parquet and Arrow IPC; '-' for "
                   "stdin), vectorised, one output row per point.")
@click.option("--chunk", "chunk_rows", type=click.IntRange(1, 10_000_000), default=None,
              metavar="N", help="With --points: rows per vectorised pass (default 65536).")
@click.option("--steps", is_flag=True,
              help="Show the derivation one rule at a time (sum, product, quotient, chain, "
                   "...), then diff's answer.")
@click.option("--output", "output", metavar="FILE", help=options.OUTPUT_HELP)
@output_options(("table", "plain", "json", "csv", "markdown", "latex"))
def diff_command(expr, file, wrt, order, at, points, chunk_rows, steps, output, fmt, precision,
                 debug):
    """Print the symbolic partial derivatives of EXPR, simplified, in the language itself.

    The output pasted back into `gradcli eval` gives the same numbers. A derivative
    that would repeat a large sub-expression is printed as a small program with
    named intermediates (u1 = ...). abs, relu, max and min differentiate to sign
    and step forms (d/dx abs(x) is sign(x)), which take PyTorch's value at a kink.

    \b
    Example:
      $ gradcli diff "(w*x+b)**2" --wrt w -o plain
      df/dw   2*x*(w*x + b)
      $ gradcli diff "x**2*y**3" --order 2 --at x=1,y=2 -o plain
      d2f/dx2 2*y^3   16
      d2f/dxdy        6*x*y^2 24
      d2f/dy2 6*x^2*y 12
      $ gradcli diff "x**2*y**3" --order 2 --points points.csv -o csv
      $ gradcli diff "x^2 sin x" --steps
    """
    from . import api
    from .output import formats
    text = read_source(expr, file)
    wrt_names = api.split_top_level(wrt) if wrt else None
    if steps:
        return _diff_steps(text, wrt_names, order, at, points, output, fmt)
    bindings = api.parse_bindings(at) if at else None
    _check_points_output(output, points, fmt)
    if points is not None:
        if fmt in ("markdown", "latex"):
            raise UsageError(f"-o {fmt} prints formulas; with --points use csv, json, plain "
                             "or table")
        if file == "-" and points == "-":
            raise UsageError("the expression (-f -) and the points (--points -) cannot both "
                             "come from stdin")
        _diff_points(text, wrt_names, order, bindings, points, chunk_rows, fmt, precision,
                     output)
        return
    if fmt == "csv":
        raise UsageError("-o csv is for --points (one row per point)",
                         hint="use -o plain or -o json for the formulas")
    result = api.diff(text, wrt_names, order, bindings)
    warn(result.warnings)
    fmt = output_format(fmt)
    rounding = Rounding(fmt, precision)
    precision = rounding.precision
    if fmt == "json":
        emit(formats.dumps(formats.diff_record(result, precision)) + "\n")
    elif fmt in ("markdown", "latex"):
        from .output import writeup
        body = (writeup.diff_markdown(result, precision) if fmt == "markdown"
                else formats.diff_latex(result, precision))
        emit(body + rounding.note(fmt))
    elif fmt == "plain":
        emit("".join("\t".join(row) + "\n" for row in formats.diff_rows(result, precision)))
    else:
        from .output import render
        print_rich(render.diff_table(result, precision))
        rounding.print_note()


@main.command("descend", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click.option("--at", "at", multiple=True, metavar="NAME=VALUE,...",
              help="Starting values of the parameters (repeatable).")
@click.option("--lr", required=True, metavar="R", help="Learning rate (a positive number).")
@click.option("--steps", required=True, type=int, metavar="N", help="Number of steps (epochs).")
@click.option("--wrt", metavar="A,B",
              help="Parameters to train (default: the --at inputs that are not data columns).")
@click.option("--data", "data_file", metavar="FILE",
              help="CSV with a header row (or JSON Lines); each column becomes a vector input "
                   "('-' for stdin).")
@click.option("--tol", metavar="T", help="Stop when the gradient norm falls below T.")
@click.option("--momentum", default="0", metavar="M", show_default=True,
              help="Momentum, as torch.optim.SGD applies it.")
@click.option("--every", type=click.IntRange(min=1), metavar="K",
              help="Print every K-th step (default: about 10 rows; json/csv: every step).")
@click.option("--round", "decimals", type=click.IntRange(0, 17), metavar="D",
              help="Round losses and parameters to D decimals in the output.")
@output_options()
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
    from . import api
    from .output import formats
    from .descend import Diverged, descend, load_data
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
        from .output.render import progress_bar
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
    warn(result.warnings)
    if fmt == "json":
        emit(formats.dumps(formats.descend_record(result, every, decimals, precision,
                                                  error)) + "\n")
    elif fmt == "csv":
        emit(formats.descend_csv(result, every, decimals, precision))
    elif fmt == "plain":
        emit(formats.descend_plain(result, every, decimals, precision))
    else:
        from .output import render
        print_rich(render.descend_table(result, every, decimals, precision))
    if error is not None:
        raise error


@main.command("plot", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click.option("--over", required=True, metavar="NAME=A:B[,NAME=C:D]",
              help="The variable and its range, e.g. x=-3:3 or t=0:2*pi; two ranges "
                   "(x=-2:2,y=-2:2) draw a contour map of f(x, y).")
@click.option("--at", "at", multiple=True, metavar="NAME=VALUE,...",
              help="Values of the other inputs (repeatable); with two ranges, values of "
                   "both plotted names mark that point, its gradient and its level curve.")
@click.option("--points", type=int, default=None, metavar="N",
              help="Number of evenly spaced sample points (default 201); with two ranges, "
                   "per axis (default 81).")
@click.option("--output", metavar="FILE.png|FILE.svg",
              help="Write a PNG or SVG (needs matplotlib) instead of drawing in the terminal.")
@click.option("--width", type=click.IntRange(20, 10000), metavar="W",
              help="Width: terminal columns (default: the terminal's), or pixels for --output "
                   "(default 800).")
@click.option("--height", type=click.IntRange(10, 10000), metavar="H",
              help="Height: terminal rows (default: fits the terminal), or pixels for --output "
                   "(default 600; 700 for a contour map).")
@click.option("-o", "--format", "fmt", type=click.Choice(("plot", "json", "csv")),
              default="plot", show_default=True,
              help="Draw the plot, or print the samples as JSON or CSV.")
@click.option("--debug", is_flag=True, help="Show a Python traceback on errors.")
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
    from . import api
    from .plot2d import ranges
    text = read_source(expr, file)
    bindings = api.parse_bindings(at)
    if len(ranges(over)) == 2:
        _plot_2d(text, over, bindings, points, output, width, height, fmt)
        return
    from .output import formats
    from .plot import sample, save_plot, terminal_plot
    data = sample(text, over, bindings, 201 if points is None else points)
    warn(data.warnings)
    if output is not None:
        kind = save_plot(data, output, width or 800, height or 600)
        _stderr(f"wrote {output} ({kind.upper()}, {width or 800}x{height or 600})")
    elif fmt == "json":
        emit(formats.dumps(formats.plot_record(data)) + "\n")
    elif fmt == "csv":
        emit(formats.plot_csv(data))
    else:
        size = shutil.get_terminal_size((80, 24))
        color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        emit(terminal_plot(data, width or size.columns,
                           height or max(16, min(size.lines - 2, 40)), color))


def _plot_2d(text, over, bindings, points, output, width, height, fmt):
    """`plot` over two ranges: a contour map in the terminal or a file, or the grid as data."""
    import shutil
    from . import api
    from .output import formats
    from .plot2d import label_width, map_shape, parse_box, sample, save_plot, terminal_map
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
    elif fmt == "json":
        emit(formats.dumps(formats.plot2d_record(data)) + "\n")
    elif fmt == "csv":
        emit(formats.plot2d_csv(data))
    else:
        emit(terminal_map(data, columns))


@main.command("repl", cls=GradcliCommand, context_settings=CONTEXT)
@click.option("--no-history", is_flag=True,
              help="Keep no history file (the history of this session stays in memory).")
def repl_command(no_history):
    """An interactive session: definitions, expressions and commands, line by line.

    `gradcli` alone on a terminal starts it too. Each line is a definition
    (a = 3, z = w*x + b), an expression (printed as eval prints it, at the
    bound point), a command without `gradcli` (diff z, tangent z --at x=1),
    or a session word (:defs, :forget NAME, help, quit). Ctrl-D leaves.
    Piped, the lines are a script: no prompt, each result printed, and the
    exit code is that of the last line that failed. The history is kept in
    $XDG_STATE_HOME/gradcli/history (GRADCLI_HISTORY= keeps none).

    \b
    Example, the gradient of e^x sin y at (0, pi/3):
      $ printf 'x = 0\\ny = pi/3\\nf = e^x sin y\\nf\\n' | gradcli repl
      f       0.8660254037844386
      df/dx   0.8660254037844386
      df/dy   0.5000000000000001
    """
    from .repl import run
    commands = [c for c in main.list_commands(click.get_current_context()) if c != "repl"]
    _exit(run(_session_command, commands, interactive=sys.stdin.isatty(),
              history=not no_history))


def _session_command(args, prepare) -> int:
    """One command line of a session: click reads the options, `prepare` (repl.Session)
    rewrites the expression and bindings; library errors propagate to the session, which
    reports them against the line typed."""
    command = main.get_command(None, args[0])
    parent = click.Context(main, info_name="gradcli")
    try:
        with command.make_context(args[0], list(args[1:]), parent=parent) as ctx:
            ctx.params.update(prepare(args[0], ctx.params))
            try:
                click.Command.invoke(command, ctx)  # not GradcliCommand's: it would report
            except Exception:
                if ctx.params.get("debug"):
                    import traceback
                    traceback.print_exc()  # then the session reports the error as usual
                raise
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.Abort:
        return 1
    return 0


def _eval_points(text, bindings, wrt_names, points, chunk_rows, fmt, precision, output=None):
    """eval --points: stream the batch, one output row per point; exit 2 or 3 at the end."""
    from . import batch
    from .output import points as streamed
    program = batch.points_program(text, points, bindings, wrt_names)
    warn(program.warnings)
    job = batch.run(program, points, bindings, wrt_names, chunk_rows or batch.CHUNK_ROWS)
    _exit(streamed.eval_points(job, fmt, precision, output))


def _diff_steps(text, wrt_names, order, at, points, output, fmt):
    """diff --steps: each first derivative's derivation, in the chosen format."""
    from . import api
    from .output import steps as shown
    used = [name for name, given in (("--order", order != 1), ("--at", at), ("--points", points),
                                     ("--output", output)) if given]
    if used or fmt == "csv":
        raise UsageError(f"--steps shows first derivatives as formulas; it does not take "
                         f"{used[0] if used else '-o csv'}",
                         hint="run diff again without --steps for values at points")
    result = api.diff_steps(text, wrt_names)
    warn(result.warnings)
    fmt = output_format(fmt)
    writers = {"json": shown.json_lines, "plain": shown.plain, "markdown": shown.markdown,
               "latex": shown.latex_solution}
    if fmt in writers:
        emit(writers[fmt](result))
    else:
        from .output import render
        print_rich(render.steps_view(result))


def _diff_points(text, wrt_names, order, bindings, points, chunk_rows, fmt, precision,
                 output=None):
    """diff --points: each derivative at every row, streamed as eval --points streams."""
    from . import batch
    from .output import points as streamed
    job = batch.diff_run(text, points, wrt_names, order, bindings,
                         chunk_rows or batch.CHUNK_ROWS)
    warn(job.batch.program.warnings)
    _exit(streamed.diff_points(job, fmt, precision, output))


def _check_points_output(output, points, fmt) -> None:
    """--output FILE: only with --points, and its extension is the format (-o may agree)."""
    if output is None:
        return
    if points is None:
        raise UsageError("--output writes the rows of a batch; it needs --points FILE",
                         hint="for one point, redirect stdout: ... -o csv > out.csv")
    from .data.sinks import output_kind
    kind = output_kind(output)
    if fmt is not None and not (fmt == "csv" and kind == "csv"):
        raise UsageError(f"-o {fmt} and --output {output} ask for different formats",
                         hint="--output picks the format from the file's extension; drop -o")


def _exit(code: int) -> None:
    if code:
        click.get_current_context().exit(code)
