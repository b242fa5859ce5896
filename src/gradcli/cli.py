"""The command line: click commands only. The only module that imports click.

Commands parse options, call the library (api), and hand results to a renderer
(formats for plain/JSON/CSV, render for rich tables). Library errors become a
message, a caret line and an exit code in one place: `GradcliCommand.invoke`.
"""
from __future__ import annotations

import os
import sys

import click

from . import __version__
from .errors import GradcliError, UsageError, caret_lines
# The stream helpers live in launch.py, which answers the common `eval` without click.
from .launch import _stderr, emit, output_format, warn  # noqa: F401

FORMATS = ("table", "plain", "json", "csv")
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class GradcliCommand(click.Command):
    """A command whose expression may start with '-' and whose errors exit cleanly."""

    def parse_args(self, ctx, args):
        return super().parse_args(ctx, _expression_first(self.get_params(ctx), args))

    def invoke(self, ctx):
        debug = "--debug" in sys.argv or os.environ.get("GRADCLI_DEBUG")
        try:
            return super().invoke(ctx)
        except GradcliError as exc:
            if debug:
                raise
            report_error(exc)
            ctx.exit(exc.exit_code)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except RecursionError:
            if debug:
                raise
            report_error(GradcliError("the input is nested too deeply for this operation"))
            ctx.exit(2)
        except MemoryError:
            report_error(GradcliError("out of memory: the input is too large"))
            ctx.exit(2)
        except Exception as exc:  # a bug: say so plainly, without a traceback
            if debug:
                raise
            report_error(GradcliError(f"internal error ({type(exc).__name__}: {exc})",
                                      hint="this is a bug in gradcli; --debug shows the traceback"))
            ctx.exit(2)


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
    out, moved, skip = [], [], False
    for i, arg in enumerate(args):
        if skip:
            out.append(arg)
            skip = False
            continue
        if arg == "--":
            out.extend(args[i:])
            break
        if arg.startswith("-") and len(arg) > 1:
            head = arg.split("=", 1)[0]
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


def report_error(exc: GradcliError) -> None:
    """Message, source line, caret and hint on stderr, without rich."""
    lines = [f"error: {exc.message}"]
    if exc.source is not None and exc.span is not None:
        lines.extend(caret_lines(exc.source, exc.span))
    if exc.hint:
        lines.append(f"hint: {exc.hint}")
    _stderr("\n".join(lines))


def read_source(expr: str | None, file: str | None) -> str:
    """The expression from the argument, a file, or stdin (-f -)."""
    if expr is not None and file is not None:
        raise UsageError("give the expression either as an argument or with -f, not both")
    if file is not None:
        try:
            data = sys.stdin.buffer.read() if file == "-" else open(file, "rb").read()
        except OSError as exc:
            raise UsageError(f"cannot read {file}: {exc.strerror}") from None
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise UsageError(f"{'stdin' if file == '-' else file} is not UTF-8 text: byte "
                             f"0x{data[exc.start]:02x} at offset {exc.start} cannot be read",
                             hint="save the file as UTF-8") from None
    if expr is None:
        raise UsageError("no expression given",
                         hint='for example: gradcli eval "x**2" --at x=3  (or -f FILE)')
    return expr


def print_rich(renderable) -> None:
    from .render import console
    console().print(renderable)


def expression_options(f):
    """EXPR or -f FILE, shared by every command that reads an expression."""
    f = click.option("-f", "--file", "file", metavar="FILE",
                     help="Read the expression or program from FILE ('-' for stdin).")(f)
    f = click.argument("expr", required=False, metavar="EXPR")(f)
    return f


def output_options(formats=FORMATS):
    def decorate(f):
        f = click.option("--debug", is_flag=True, help="Show a Python traceback on errors.")(f)
        f = click.option("--precision", type=click.IntRange(1, 17), metavar="N",
                         help="Round numbers to N significant digits.")(f)
        f = click.option("-o", "--format", "fmt", type=click.Choice(formats),
                         help="Output format (default: table on a terminal, plain when piped).")(f)
        return f
    return decorate


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
@click.option("--at", "at", multiple=True, metavar="NAME=VALUE,...",
              help="Bind inputs (repeatable). VALUE is a constant expression: 3, -1e-3, pi/4.")
@click.option("--wrt", metavar="A,B", help="Only these partial derivatives.")
@click.option("--all", "show_all", is_flag=True,
              help="Also the gradients of a program's intermediate names.")
@output_options()
def eval_command(expr, file, at, wrt, show_all, fmt, precision, debug):
    """Print the value of EXPR and all its partial derivatives at a point.

    \b
    Example:
      $ gradcli eval "(w*x+b)**2" --at w=3,x=2,b=1 -o plain
      f       49
      df/dw   28
      df/dx   42
      df/db   14
    """
    from . import api, formats
    text = read_source(expr, file)
    bindings = api.parse_bindings(at)
    wrt_names = api.split_top_level(wrt) if wrt else None
    result = api.evaluate(text, bindings, wrt=wrt_names, intermediates=show_all)
    warn(result.warnings)
    fmt = output_format(fmt)
    if fmt == "json":
        emit(formats.dumps(formats.eval_record(result, precision)) + "\n")
    elif fmt == "csv":
        emit(formats.eval_csv(result, precision))
    elif fmt == "plain":
        emit(formats.plain(formats.eval_rows(result, precision)))
    else:
        from . import render
        print_rich(render.eval_table(result, precision))


@main.command("functions", cls=GradcliCommand, context_settings=CONTEXT)
@output_options(("table", "plain", "json"))
def functions_command(fmt, precision, debug):
    """List every function and operator: arity, derivative rule and domain.

    The derivative rules are printed from the same table the engine uses.

    \b
    Example:
      gradcli functions -o plain | grep sigmoid
    """
    from . import formats
    records = formats.functions_records()
    fmt = output_format(fmt)
    if fmt == "json":
        emit(formats.dumps(records) + "\n")
    elif fmt == "plain":
        emit("".join(f"{r['form']}\t{r['arity']}\t{r['derivative']}\t{r['domain']}\n"
                     for r in records))
    else:
        from . import render
        print_rich(render.functions_table(records))


def run() -> None:
    """Console entry point (launch.run): the click-free fast path for `eval`, else click."""
    from .launch import run as launch
    launch()
