"""help, functions and the interactive session (repl)."""
from __future__ import annotations

import sys

import click

from .. import options
from ..errors import UsageError
from ..output.streams import emit
from ..output.writers import write
from .app import (CONTEXT, GradcliCommand, _exit, click_options, main, output_options)


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
    from ..output.topics import ALIASES, TOPICS
    group = ctx.parent.command
    commands = [c for c in group.list_commands(ctx) if c != "help"]
    from ..output.streams import fit, terminal_width
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
@output_options("functions")
def functions_command(fmt, precision, debug):
    """List every function and operator: arity, derivative rule and domain.

    The derivative rules are printed from the same table the engine uses.

    \b
    Example:
      $ gradcli functions -o plain | grep sigmoid
      sigmoid(x)      1       d/dx = sigmoid(x)*(1 - sigmoid(x))      all reals
      softplus(x)     1       d/dx = sigmoid(x)       all reals
    """
    from ..output import formats
    write("functions", formats.functions_records(), fmt, precision)


@main.command("repl", cls=GradcliCommand, context_settings=CONTEXT)
@click_options(options.REPL)
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
      df/dy   0.5
    """
    from ..repl import run
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
