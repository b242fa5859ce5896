"""Standard streams for every command: output, warnings and errors, the same bytes with or without click.

Below both launch.py (the click-free fast path) and cli/, so that a
GradcliError prints the same message, caret line, hint and exit code whichever
one answered. Standard library only.
"""
from __future__ import annotations

import os
import re
import sys

from ..errors import GradcliError, caret_lines, clean
from ..limits import cap_warnings


def terminal_width(stream) -> int | None:
    """The width of the terminal `stream` writes to (COLUMNS wins, as for rich), else None."""
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    import os
    import shutil
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return shutil.get_terminal_size().columns


# "  Label      text": the text's column, where a wrapped line continues.
_LABELLED = re.compile(r"^(\s*\S(?:\S| (?! ))*\s{2,})\S")


def fit(text: str, width: int | None, hang: int = 2, paragraphs: bool = False) -> str:
    """`text` with every line longer than `width` wrapped at word boundaries (never inside a
    word); a continuation lines up under the text of a labelled line, else `hang` spaces
    further in than the line. `paragraphs`: unindented lines that follow one another are
    one paragraph, joined before wrapping (a help topic's prose)."""
    if not width:
        return text
    lines = text.split("\n")
    if paragraphs:
        joined = []
        for line in lines:
            if (joined and line and not line[0].isspace() and joined[-1]
                    and not joined[-1][0].isspace()):
                joined[-1] += " " + line
            else:
                joined.append(line)
        lines = joined
    out = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        lead = len(line) - len(line.lstrip(" "))
        match = _LABELLED.match(line)
        indent = len(match.group(1)) if match and len(match.group(1)) <= width // 2 else lead + hang
        out.extend(_wrap(line, width, indent))
    return "\n".join(out)


def _wrap(line: str, width: int, indent: int) -> list:
    """The lines of `line` at `width`: broken between words, never inside a formula or a
    bracket while a looser break will do (linebreaks.py)."""
    from .linebreaks import break_line
    return break_line(line, width, indent)


def fit_help(text: str, width: int | None) -> str:
    """A --help text for a terminal `width` wide: a long example command line continues on
    the next line after a backslash (broken only between shell words, so it still pastes
    and runs); any other long line wraps at its spaces."""
    if not width:
        return text
    out = []
    for line in text.split("\n"):
        if len(line) > width and line.lstrip().startswith("$ "):
            out.extend(_shell_lines(line, width))
        else:
            out.append(fit(line, width))
    return "\n".join(out)


def _shell_lines(line: str, width: int) -> list:
    lead = line[:len(line) - len(line.lstrip())]
    words, word, quote = [], "", None
    for ch in line.strip():
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == " ":
            if word:
                words.append(word)
            word = ""
            continue
        word += ch
    if word:
        words.append(word)
    lines, current = [], lead
    for w in words:
        candidate = (current + " " + w) if current.strip() else current + w
        if current.strip() and len(candidate) + 2 > width:
            lines.append(current + " \\")
            current = lead + "    " + w
        else:
            current = candidate
    lines.append(current)
    return lines


def stderr(text: str, wrap: bool = True) -> None:
    """One message on stderr, wrapped to a terminal's width, even where stderr cannot encode it."""
    if wrap:
        text = fit(text, terminal_width(sys.stderr))
    try:
        sys.stderr.write(text + "\n")
    except UnicodeEncodeError:
        sys.stderr.write(text.encode("ascii", "backslashreplace").decode("ascii") + "\n")
    sys.stderr.flush()


def warn(messages) -> None:
    """Each warning on stderr as `warning: ...`, capped at limits.MAX_WARNINGS."""
    messages = cap_warnings(messages)
    if messages:
        from ..language.printer import carets  # only when there is something to say
        for m in messages:
            stderr(f"warning: {carets(clean(m))}")


def emit(text: str) -> None:
    """Text on stdout, flushed."""
    sys.stdout.write(text)
    sys.stdout.flush()


def emit_bytes(data) -> None:
    """ASCII bytes on stdout (a batch's rows, written without decoding them), flushed."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stream
        emit(bytes(data).decode("ascii"))
        return
    sys.stdout.flush()
    buffer.write(data)
    buffer.flush()


def closed_stdout() -> None:
    """After the reader of stdout went away (`gradcli ... | head`): what is still buffered
    goes nowhere, so that the exit is quiet (exit 0, as for the rows it did read)."""
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass


def output_format(fmt: str | None) -> str:
    """The format asked for; else a table on a terminal and plain text in a pipe."""
    if fmt:
        return fmt
    return "table" if sys.stdout.isatty() else "plain"


def report_error(exc: GradcliError) -> None:
    """Message, source line, caret and hint on stderr, without rich.

    On a terminal the message and hint wrap to its width; the source line and its
    caret never do (the caret must stay under its column)."""
    from ..language.printer import carets
    width = terminal_width(sys.stderr)
    lines = [fit(f"error: {carets(exc.message)}", width)]
    if exc.source is not None and exc.span is not None:
        lines.extend(caret_lines(exc.source, exc.span))
    if exc.hint:
        lines.append(fit(f"hint: {carets(exc.hint)}", width))
    stderr("\n".join(lines), wrap=False)


def report_failure(exc: BaseException, as_json: bool = False) -> int | None:
    """Report a command's failure as the user should see it; its exit code.

    A GradcliError is the user's input (its own exit code); too deep a
    nesting or too little memory are said plainly (2); any other exception is
    a bug in gradcli: one line asking for a report, without a traceback
    (INTERNAL_ERROR, exit 4; --debug shows the traceback). None for what is not
    a failure to report here (KeyboardInterrupt, SystemExit, ...): re-raise it.
    `as_json` (-o json): stdout gets the error as one JSON object too (error_json).
    """
    if isinstance(exc, RecursionError):
        exc = GradcliError("the input is nested too deeply for this operation")
    elif isinstance(exc, MemoryError):
        exc = GradcliError("out of memory: the input is too large")
    if isinstance(exc, GradcliError):
        report_error(exc)
        code = exc.exit_code
    elif isinstance(exc, Exception):
        line = " ".join(clean(internal_error_line(exc)).split())
        stderr("error: " + line)
        code = INTERNAL_ERROR
    else:
        return None
    if as_json and not getattr(exc, "on_stdout", False):
        emit(error_json(exc, code))
    return code


# The `kind` of an error in JSON, by its class; a script tells them apart without prose.
_KINDS = {"UsageError": "usage", "ParseError": "parse", "UnknownName": "unknown-name",
          "ShapeError": "shape", "DomainError": "domain", "LimitError": "limit",
          "InexactError": "inexact", "GradcliError": "error"}


def error_json(exc: BaseException, code: int, kind: str | None = None) -> str:
    """`{"error": {"exit", "kind", "message", "hint", "span"}}` (SPEC §3, errors under -o
    json): the same message and hint stderr gets, the span in the expression or None."""
    import json
    if isinstance(exc, GradcliError):
        name = next((c.__name__ for c in type(exc).__mro__ if c.__name__ in _KINDS),
                    "GradcliError")
        record = {"exit": code, "kind": kind or _KINDS[name], "message": clean(exc.message),
                  "hint": clean(exc.hint) if exc.hint else None,
                  "span": list(exc.span) if exc.span is not None else None}
    else:
        message = getattr(exc, "message", None) or str(exc)
        record = {"exit": code, "kind": kind or "internal",
                  "message": " ".join(clean(message if kind else internal_error_line(exc))
                                      .split()),
                  "hint": None, "span": None}
    return json.dumps({"error": record}, ensure_ascii=False) + "\n"


# A bug in gradcli (not the user's input): its own exit code, so a script can tell the two apart.
INTERNAL_ERROR = 4
ISSUES = "the gradcli issue tracker"


def internal_error_line(exc: BaseException) -> str:
    """The one line an unexpected exception prints: what failed, and where to report it."""
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return (f"internal error ({what}): this is a bug in gradcli, please report it "
            f"on {ISSUES} with the command you ran (--debug shows the traceback)")
