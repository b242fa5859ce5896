"""The console entry point, and the stream helpers every command shares (no click here).

Most calls are `gradcli eval EXPR --at ... -o plain|json|csv`: for exactly
those, `run` reads argv by hand and answers without importing click (which
costs more than the rest of the start-up together). Anything else — another
command, an option the fast path does not know, help, a table on a terminal —
and any failure at all, is left to the click application in cli.py, which
then does the whole job itself, so errors, exit codes and messages have one
source. tests/test_launch.py checks that both paths print the same bytes.
"""
from __future__ import annotations

import os
import sys

_FAST_FORMATS = ("plain", "json", "csv")
# Options of `eval` the fast path understands, and whether each takes a value.
_FAST_OPTIONS = {"--at": True, "--wrt": True, "--all": False, "-o": True, "--format": True,
                 "--precision": True}


def _stderr(text: str) -> None:
    try:
        sys.stderr.write(text + "\n")
    except UnicodeEncodeError:
        sys.stderr.write(text.encode("ascii", "backslashreplace").decode("ascii") + "\n")
    sys.stderr.flush()


def warn(messages) -> None:
    from .errors import clean
    from .limits import cap_warnings
    for m in cap_warnings(messages):
        _stderr(f"warning: {clean(m)}")


def emit(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def output_format(fmt: str | None) -> str:
    if fmt:
        return fmt
    return "table" if sys.stdout.isatty() else "plain"


def fast_eval_request(args: list[str]) -> dict | None:
    """The options of a plain `eval EXPR ...` call, or None if click must read argv."""
    if len(args) < 2 or args[0] != "eval":
        return None
    request = {"expr": None, "at": [], "wrt": None, "all": False, "fmt": None, "precision": None}
    i = 1
    while i < len(args):
        arg = args[i]
        i += 1
        if arg.startswith("-"):
            name, eq, value = arg.partition("=")
            if name not in _FAST_OPTIONS or (eq and not _FAST_OPTIONS[name]) or name == "-o" and eq:
                return None
            if _FAST_OPTIONS[name]:
                if not eq:
                    if i >= len(args) or args[i].startswith("-"):
                        return None
                    value = args[i]
                    i += 1
                if name == "--at":
                    request["at"].append(value)
                elif name == "--wrt":
                    if request["wrt"] is not None:
                        return None
                    request["wrt"] = value
                elif name in ("-o", "--format"):
                    if request["fmt"] is not None or value not in _FAST_FORMATS:
                        return None
                    request["fmt"] = value
                else:
                    if request["precision"] is not None or not value.isdigit() \
                            or not 1 <= int(value) <= 17:
                        return None
                    request["precision"] = int(value)
            else:
                request["all"] = True
        else:
            if request["expr"] is not None:
                return None
            request["expr"] = arg
    if request["expr"] is None:
        return None
    if request["fmt"] is None:
        if sys.stdout.isatty():
            return None
        request["fmt"] = "plain"
    return request


def fast_eval(request: dict) -> tuple[list[str], str]:
    """(warnings, output text) of `eval` for a request; raises on anything unusual."""
    from . import api
    from .output import formats
    bindings = api.parse_bindings(request["at"])
    wrt = request["wrt"]
    wrt_names = api.split_top_level(wrt) if wrt else None
    result = api.evaluate(request["expr"], bindings, wrt=wrt_names,
                          intermediates=request["all"])
    fmt, precision = request["fmt"], request["precision"]
    if fmt == "json":
        text = formats.dumps(formats.eval_record(result, precision)) + "\n"
    elif fmt == "csv":
        text = formats.eval_csv(result, precision)
    else:
        text = formats.plain(formats.eval_rows(result, precision))
    return result.warnings, text


def _answer(argv) -> bool:
    """Answer a common `eval` without click; False when click must handle the call."""
    if os.environ.get("GRADCLI_NO_FAST_PATH"):
        return False
    request = fast_eval_request(argv)
    if request is None:
        return False
    try:
        warnings, text = fast_eval(request)
    except Exception:  # errors and anything unusual: click redoes the call, and reports it
        return False
    warn(warnings)
    emit(text)
    return True


def run() -> None:
    """Console entry point: the fast path, else click; clean exits on a closed pipe or Ctrl-C."""
    try:
        if not _answer(sys.argv[1:]):
            from .cli import main
            main(prog_name="gradcli")
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        sys.exit(0)
    except KeyboardInterrupt:
        _stderr("interrupted")
        sys.exit(130)
