"""The console entry point: answers the common `eval` without click, hands everything else to cli/.

Most calls are `gradcli eval EXPR --at ... -o plain|json|csv`: for exactly
those, `run` reads argv by the option table of options.py and answers without
importing click (which costs more than the rest of the start-up together).
Anything it does not handle — another command, an option the fast path
leaves to click (options.FAST_DESTS), help, a table on a terminal, a value
click would refuse — goes to the click application in cli/. The result is
printed by output/writers.py's table, as cli/ prints it. An error in a request
the fast path took is reported here, through output/streams.py as cli/
reports it: the same message, caret and exit code.
tests/test_launch.py checks that both paths print the same bytes.
"""
from __future__ import annotations

import os
import sys

from . import options, sympyunits
from .output.streams import closed_stdout, report_failure, stderr
from .output.writers import formats_of, write_warned

_BY_FLAG = {flag: opt for opt in options.EVAL + options.output_options(
    formats_of(*options.EVAL_KINDS)) for flag in opt.flags}


def fast_eval_request(args: list[str]) -> dict | None:
    """The options of a plain `eval EXPR ...` call by parameter name, or None if click must
    read argv."""
    if len(args) < 2 or args[0] != "eval":
        return None
    request = {"expr": None, "at": [], "wrt": None, "show_all": False, "fmt": None,
               "precision": None}
    i = 1
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-"):
            if request["expr"] is not None:
                return None
            request["expr"] = arg
            continue
        name, eq, value = arg.partition("=")
        opt = _BY_FLAG.get(name)
        if opt is None or opt.dest not in options.FAST_DESTS:
            return None
        if eq and (not opt.takes_value or not name.startswith("--")):
            return None  # `--all=1`; `-o=json` is the value '=json' to click
        if not opt.takes_value:
            request[opt.dest] = True
            continue
        if not eq:
            if i >= len(args) or args[i].startswith("-"):
                return None
            value = args[i]
            i += 1
        if opt.choices is not None and value not in opt.choices:
            return None  # click refuses it, with its own message
        if opt.int_range is not None:
            low, high = opt.int_range
            if not value.isdigit() or not low <= int(value) <= high:
                return None
            value = int(value)
        if opt.dest == "fmt" and value not in options.FAST_FORMATS:
            return None
        if opt.multiple:
            request[opt.dest].append(value)
        elif request[opt.dest] is not None:
            return None  # given twice: click takes the last; leave it to click
        else:
            request[opt.dest] = value
    if request["expr"] is None:
        return None
    if request["fmt"] is None:
        if sys.stdout.isatty():
            return None
        request["fmt"] = "plain"
    return request


def fast_eval(request: dict):
    """The result of `eval` for a request (tasks.evaluation's); raises GradcliError for bad
    input."""
    from .tasks.evaluation import evaluate
    from .inputs import parse_bindings, split_top_level
    bindings = parse_bindings(request["at"])
    wrt = request["wrt"]
    wrt_names = split_top_level(wrt) if wrt else None
    return evaluate(request["expr"], bindings, wrt=wrt_names,
                    intermediates=request["show_all"], numerics=True)


def _answer(argv) -> bool:
    """Answer a common `eval` without click; False when click must handle the call."""
    if os.environ.get("GRADCLI_NO_FAST_PATH"):
        return False
    request = fast_eval_request(argv)
    if request is None:
        return False
    from .process import gc_paused
    try:
        with gc_paused():
            result = fast_eval(request)
        write_warned("eval", result, request["fmt"], request["precision"])
    except BrokenPipeError:
        raise  # the reader went away: run() leaves quietly
    except Exception as exc:  # reported as cli/ reports it (GradcliCommand.invoke)
        if os.environ.get("GRADCLI_DEBUG") and not isinstance(exc, MemoryError):
            raise
        sys.exit(report_failure(exc, as_json=request.get("fmt") == "json"))
    return True


def run() -> None:
    """Console entry point: the fast path, else click; clean exits on a closed pipe or Ctrl-C."""
    try:
        args = sys.argv[1:]
        sympyunits.install()
        if not _answer(args):
            from .cli import main
            if not args and sys.stdin.isatty():
                args = ["repl"]  # `gradcli` alone on a terminal is a session, as bc's is
            main(args=args, prog_name="gradcli")
    except BrokenPipeError:
        closed_stdout()
        sys.exit(0)
    except KeyboardInterrupt:
        stderr("interrupted")
        sys.exit(130)
