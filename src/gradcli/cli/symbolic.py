"""diff (with --steps), trace and graph: derivatives as formulas, and the chain rule shown."""
from __future__ import annotations

from .. import options
from ..errors import UsageError
from ..inputs import keep_typed, read_source
from ..output.streams import warn
from ..output.streams import stderr as _stderr
from ..output.writers import Rounding, write, write_warned
from ..output.writers import text as text_of
from .app import (CONTEXT, GradcliCommand, _check_points_output, _exit, _points_guard,
                  click_options, expression_options, main, output_options)


@main.command("diff", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.DIFF)
@output_options("diff-points", "diff", "steps", "field", "partials",
                "chainrule")  # --points rows first: csv after json
def diff_command(expr, file, wrt, order, at, points, chunk_rows, steps, output, with_, fmt,
                 precision, debug, partial=(), div=False, curl=False, laplacian=False,
                 jacobian_det=False):
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

    \b
    Higher partials in the book's order, div, curl, Laplacian, Jacobian determinant:
      $ gradcli diff "x^3 y^2" --partial xyy --partial yx
      $ gradcli diff "[x*y, y*z, z*x]" --div --curl
      $ gradcli diff "[r cos(t), r sin(t)]" --jacobian-det --wrt r,t

    \b
    The chain rule (Stewart 14.5, example 3: z = e^x sin y, x = st^2, y = s^2 t):
      $ gradcli diff "e^x sin y" --with "x = s t^2, y = s^2 t" -o plain
    """
    from .. import api
    text = read_source(expr, file)
    wrt_names = api.split_top_level(wrt) if wrt else None
    if with_ is not None:
        from .chainrule import diff_with
        return diff_with(text, with_, wrt_names, order, at, points, output, steps, fmt,
                         precision)
    kinds = [k for k, asked in (("div", div), ("curl", curl), ("laplacian", laplacian),
                                ("jacobian_det", jacobian_det)) if asked]
    if kinds or partial:
        from .vectorcalc import diff_vectorcalc
        return diff_vectorcalc(text, kinds, partial, wrt_names, order, at, points, steps,
                               output, fmt, precision)
    if steps:
        return _diff_steps(text, wrt_names, order, at, points, output, fmt)
    bindings = api.parse_bindings(at) if at else None
    _check_points_output(output, points, fmt, precision)
    if points is not None:
        _points_guard(file, points, fmt, "prints formulas", "diff-points")
        _diff_points(text, wrt_names, order, bindings, points, chunk_rows, fmt, precision,
                     output)
        return
    if fmt == "csv":
        raise UsageError("-o csv is for --points (one row per point)",
                         hint="use -o plain or -o json for the formulas")
    result = api.diff(text, wrt_names, order, bindings)
    if result.at:
        result.at = keep_typed(bindings, result.at)  # the `at` line shows x = π/6 as typed
    write_warned("diff", result, fmt, precision)


def _diff_steps(text, wrt_names, order, at, points, output, fmt):
    """diff --steps: each first derivative's derivation, in the chosen format."""
    from .. import api
    used = [name for name, given in (("--order", order != 1), ("--at", at), ("--points", points),
                                     ("--output", output)) if given]
    if used or fmt == "csv":
        raise UsageError(f"--steps shows first derivatives as formulas; it does not take "
                         f"{used[0] if used else '-o csv'}",
                         hint="run diff again without --steps for values at points")
    write_warned("steps", api.diff_steps(text, wrt_names), fmt)


def _diff_points(text, wrt_names, order, bindings, points, chunk_rows, fmt, precision,
                 output=None):
    """diff --points: each derivative at every row, streamed as eval --points streams."""
    from ..data.sinks import open_sink
    from ..data.textlines import column_lines
    from ..output import points as streamed
    from ..tasks import batch
    job = batch.diff_run(text, points, wrt_names, order, bindings,
                         chunk_rows or batch.CHUNK_ROWS)
    warn(job.batch.program.warnings)
    _exit(streamed.diff_points(job, fmt, precision, output, open_sink, column_lines))


@main.command("trace", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.TRACE)
@output_options("trace")
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
    from .. import api
    text = read_source(expr, file)
    bindings = api.parse_bindings(at)
    wrt_names = api.split_top_level(wrt) if wrt else None
    write_warned("trace", api.trace(text, bindings, wrt=wrt_names), fmt, precision)


@main.command("graph", cls=GradcliCommand, context_settings=CONTEXT)
@expression_options
@click_options(options.GRAPH)
@output_options("graph")
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
    from .. import api
    from ..output import graphviz
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
    if fmt in ("svg", "png", "pdf"):
        rounding = Rounding(fmt, precision)
        graphviz.render(graphviz.to_dot(t, rounding.precision), output, fmt)
        _stderr(f"wrote {output} ({fmt.upper()}, {_node_count(t)})"
                + (f"; {_digits_note()}" if rounding.rounded else ""))
        return
    if not output:
        write("graph", t, fmt, precision)
        return
    body = text_of("graph", t, fmt, precision)
    try:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(body)
    except OSError as exc:
        raise UsageError(f"cannot write {output}: {exc.strerror}") from None
    _stderr(f"wrote {output} ({'Mermaid' if fmt == 'mermaid' else fmt.upper()}, "
            f"{_node_count(t)})")


def _node_count(t) -> str:
    n = sum(1 for node in t.forward if node.kind != "literal")
    return f"{n} node{'s' * (n != 1)}"


def _digits_note() -> str:
    from ..output.formats import digits_note
    return digits_note()
