"""The click application's frame: the group, the command class, shared options, exit codes.

Commands live beside this module, one module per family (evaluate, homework,
symbolic, checking, training, session); each parses its options, calls the
library, and hands the result to output/writers.py. Library errors become a
message, a caret line and an exit code in one place, output/streams.report_failure,
which launch.py's fast path uses too."""
from __future__ import annotations

import os
import re
import sys

import click

from .. import __version__, options
from ..errors import UsageError
from ..output.streams import closed_stdout, report_failure
from ..output.writers import formats_of


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class GradcliCommand(click.Command):
    """A command whose expression may start with '-' and whose errors exit cleanly."""

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, _expression_first(self.get_params(ctx), args))
        except click.ClickException as exc:
            from ..errors import clean
            exc.message = clean(exc.message)  # option values are user text too
            if "unexpected extra argument" in exc.message:
                hint = _comma_hint(args)
                if hint:
                    exc.message += "\n" + hint
            if _asks_for_json(args):
                from ..output.streams import emit, error_json
                emit(error_json(exc, exc.exit_code, kind="usage"))
            raise

    def get_help(self, ctx):
        from ..output.streams import fit_help, terminal_width
        return fit_help(super().get_help(ctx), terminal_width(sys.stdout))

    def invoke(self, ctx):
        from ..process import gc_paused
        try:
            # A session lives long, and a batch streams chunk after chunk of arrays (few
            # objects, and garbage to free as it goes): the collector stays on for both.
            if self.name == "repl" or ctx.params.get("points") is not None \
                    or ctx.params.get("data_file") is not None:
                return super().invoke(ctx)
            with gc_paused():
                return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:  # the reader went away (| head): nothing more to say
            closed_stdout()
            ctx.exit(0)
        except Exception as exc:  # input errors, and bugs said plainly: output/streams.py
            debug = ctx.params.get("debug") or os.environ.get("GRADCLI_DEBUG")
            if debug and not isinstance(exc, MemoryError):
                raise
            ctx.exit(report_failure(exc, as_json=ctx.params.get("fmt") == "json"))


def _asks_for_json(args) -> bool:
    """-o json, --format json or --format=json among the arguments as typed."""
    for i, arg in enumerate(args):
        if arg in ("-o", "--format") and i + 1 < len(args) and args[i + 1] == "json":
            return True
        if arg in ("-ojson", "--format=json"):
            return True
    return False


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
    from ..output.render import console
    console().print(renderable)


def expression_options(f):
    """EXPR or -f FILE, shared by every command that reads an expression."""
    f = click.option("-f", "--file", "file", metavar="FILE",
                     help="Read the expression or program from FILE ('-' for stdin).")(f)
    f = click.argument("expr", required=False, metavar="EXPR")(f)
    return f


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
            elif r.kind != "text":
                kw["type"] = int if r.kind == "int" else float
            if r.default is not None:
                kw["default"] = r.default
            if r.required:
                kw["required"] = True
            if r.show_default:
                kw["show_default"] = True
            f = click.option(*r.flags, r.dest, **kw)(f)
        return f
    return decorate


def output_options(*kinds):
    """-o/--format, --precision and --debug (options.output_options); -o offers the formats
    output/writers.py has a writer for, for these kinds of result, and click refuses others."""
    return click_options(options.output_options(formats_of(*kinds)))


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, "-V", "--version", prog_name="gradcli")
def main():
    """gradcli: value and every partial derivative of an expression, by reverse-mode autodiff.

    \b
    Example:
      gradcli eval "(w*x+b)**2" --at w=3,x=2,b=1
    """


def _exactly(run, exact):
    """run(mode) for --exact: rationals first; where a value has none, closed forms in π,
    roots and e (SymPy, loaded only then); without --exact, doubles."""
    if not exact:
        return run(False)
    from ..errors import InexactError
    try:
        return run(True)
    except InexactError:
        return run("closed")


def _check_points_output(output, points, fmt, precision=None) -> None:
    """--output FILE: only with --points, and its extension is the format (-o may agree);
    --precision rounds the text of a CSV file, and a binary file keeps every double."""
    if output is None:
        return
    if points is None:
        raise UsageError("--output writes the rows of a batch; it needs --points FILE",
                         hint="for one point, redirect stdout: ... -o csv > out.csv")
    from ..data.sinks import output_kind
    kind = output_kind(output)
    if fmt is not None and not (fmt == "csv" and kind == "csv"):
        raise UsageError(f"-o {fmt} and --output {output} ask for different formats",
                         hint="--output picks the format from the file's extension; drop -o")
    if precision is not None and kind != "csv":
        raise UsageError(f"--precision rounds numbers written as text; --output {output} "
                         "keeps every double",
                         hint="drop --precision, or write rounded text: --output FILE.csv")


def _points_guard(file, points, fmt, why: str, kind: str) -> None:
    """What every --points command refuses before it streams: a format its rows (`kind`,
    output/writers.py) have no writer for, and stdin asked to hold both the expression and
    the points."""
    allowed = formats_of(kind)
    if fmt is not None and fmt not in allowed:
        listed = sorted(allowed)
        raise UsageError(f"-o {fmt} {why}; with --points use {', '.join(listed[:-1])} or "
                         f"{listed[-1]}")
    if file == "-" and points == "-":
        raise UsageError("the expression (-f -) and the points (--points -) cannot both "
                         "come from stdin")


def _exit(code: int) -> None:
    if code:
        click.get_current_context().exit(code)
