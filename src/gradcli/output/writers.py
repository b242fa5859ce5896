"""One table from (kind of result, format) to the writer that prints it.

A command computes a result and calls `write(kind, result, fmt, precision)`; the
table below says which function of output/ turns that result into that format,
and how it goes out:

- "json": the function gives a record, printed as one line of JSON;
- "rows": it gives (key, value) rows, printed as `key<TAB>value` lines;
- "text": it gives text, printed as it is (Markdown, LaTeX, plain ledgers, DOT);
- "table": it gives a rich renderable for the terminal;
- "rows-table": it gives rows, drawn as a two-column rich table.

A new format or a new command is one entry here. The writers' modules are
imported only when used (rich and the LaTeX writers cost start-up). Human formats
round to 6 digits unless --precision says otherwise, and then say so once
(`Rounding`).
"""
from __future__ import annotations

import importlib

from ..errors import UsageError
from .streams import emit, output_format, warn

# (kind, format) -> ("module.function" in output/, how it is printed)
WRITERS = {
    ("eval", "json"): ("formats.eval_json_record", "json"),
    ("eval", "plain"): ("formats.eval_plain_rows", "rows"),
    ("eval", "csv"): ("formats.eval_csv_text", "text"),
    ("eval", "markdown"): ("writeup.eval_markdown", "text"),
    ("eval", "latex"): ("writeup.eval_latex", "text"),
    ("eval", "table"): ("render.eval_table", "table"),

    ("eval-direction", "json"): ("homework.eval_direction_record", "json"),
    ("eval-direction", "plain"): ("homework.eval_direction_rows", "rows"),
    ("eval-direction", "csv"): ("homework.eval_direction_csv", "text"),
    ("eval-direction", "markdown"): ("homework.eval_direction_markdown", "text"),
    ("eval-direction", "latex"): ("homework.eval_direction_latex", "text"),
    ("eval-direction", "table"): ("render.eval_direction_tables", "table"),

    ("diff", "json"): ("formats.diff_record", "json"),
    ("diff", "plain"): ("formats.diff_rows", "rows"),
    ("diff", "markdown"): ("writeup.diff_markdown", "text"),
    ("diff", "latex"): ("formats.diff_latex", "text"),
    ("diff", "table"): ("render.diff_table", "table"),

    ("steps", "json"): ("steps.json_lines", "text"),
    ("steps", "plain"): ("steps.plain", "text"),
    ("steps", "markdown"): ("steps.markdown", "text"),
    ("steps", "latex"): ("steps.latex_solution", "text"),
    ("steps", "table"): ("render.steps_view", "table"),

    ("trace", "json"): ("ledger.record", "json"),
    ("trace", "plain"): ("ledger.plain", "text"),
    ("trace", "markdown"): ("ledger.markdown", "text"),
    ("trace", "latex"): ("ledger.latex", "text"),
    ("trace", "table"): ("render.trace_tables", "table"),

    ("check", "json"): ("formats.check_record", "json"),
    ("check", "plain"): ("formats.check_lines", "text"),
    ("check", "markdown"): ("writeup.check_markdown", "text"),
    ("check", "latex"): ("writeup.check_latex", "text"),
    ("check", "table"): ("render.check_table", "table"),

    ("functions", "json"): ("formats.functions_json", "json"),
    ("functions", "plain"): ("formats.functions_plain", "text"),
    ("functions", "table"): ("render.functions_view", "table"),

    ("descend", "json"): ("formats.descend_record", "json"),
    ("descend", "csv"): ("formats.descend_csv", "text"),
    ("descend", "plain"): ("formats.descend_plain", "text"),
    ("descend", "table"): ("render.descend_table", "table"),

    # plot's samples as data (the pictures are files or the terminal's, drawn by the task)
    ("plot", "json"): ("formats.plot_record", "json"),
    ("plot", "csv"): ("formats.plot_csv", "text"),
    ("plot2d", "json"): ("formats.plot2d_record", "json"),
    ("plot2d", "csv"): ("formats.plot2d_csv", "text"),
}
for _kind in ("tangent", "taylor", "critical", "implicit"):
    WRITERS[(_kind, "json")] = (f"homework.{_kind}_record", "json")
    WRITERS[(_kind, "plain")] = (f"homework.{_kind}_rows", "rows")
    WRITERS[(_kind, "table")] = (f"homework.{_kind}_rows", "rows-table")
    WRITERS[(_kind, "markdown")] = (f"homework.{_kind}_markdown", "text")
    WRITERS[(_kind, "latex")] = (f"homework.{_kind}_latex", "text")


def formats_of(kind: str) -> tuple:
    """The formats a kind of result can be written in, in the table's order."""
    return tuple(fmt for k, fmt in WRITERS if k == kind)


def _function(path: str):
    module, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(f"gradcli.output.{module}"), name)


def write(kind: str, result, fmt: str | None, precision=None, **options) -> None:
    """Print `result` (of a command of this kind) in `fmt`: a table on a terminal, plain
    text in a pipe, when no format was asked for. `options` go to the writer."""
    fmt = output_format(fmt)
    entry = WRITERS.get((kind, fmt))
    if entry is None:
        raise UsageError(f"-o {fmt} is not available here; use "
                         + ", ".join(formats_of(kind)))
    path, how = entry
    rounding = Rounding(fmt, precision)
    out = _function(path)(result, precision=rounding.precision, **options)
    if how == "json":
        from .formats import dumps
        emit(dumps(out) + "\n")
    elif how == "rows":
        emit("".join("\t".join(row) + "\n" for row in out))
    elif how == "text":
        emit(out + (rounding.note(fmt) if fmt in Rounding.NOTES else ""))
    else:
        from .render import console, rows_table
        console().print(rows_table(out) if how == "rows-table" else out)
        rounding.print_note()


def write_warned(kind: str, result, fmt, precision=None, **options) -> None:
    """`write`, after the result's own warnings on stderr."""
    warn(getattr(result, "warnings", []))
    write(kind, result, fmt, precision, **options)


class Rounding:
    """The precision of one output, and the note it ends with when the default rounded.

    Human formats round to numbers.HUMAN_DIGITS unless --precision is given, and
    then say so once: a dim line under a table, a line of Markdown, a comment in
    LaTeX, DOT or Mermaid. Nothing is said when no number lost a digit.
    """

    NOTES = {"markdown": "\n_{}_\n", "latex": "% {}\n", "dot": "// {}\n",
             "mermaid": "%% {}\n"}

    def __init__(self, fmt, precision):
        from ..numbers import display_precision
        self.precision = display_precision(fmt, precision)

    @property
    def rounded(self) -> bool:
        return getattr(self.precision, "rounded", 0) > 0

    def note(self, kind: str) -> str:
        """The note in the syntax of `kind`, or '' when nothing was rounded."""
        from ..numbers import digits_note
        return self.NOTES[kind].format(digits_note()) if self.rounded else ""

    def print_note(self) -> None:
        """Under a rich table: the note as a dim line."""
        if self.rounded:
            from ..numbers import digits_note
            from .render import console, dim_line
            console().print(dim_line("\n" + digits_note()))


__all__ = ["WRITERS", "write", "write_warned", "formats_of", "Rounding"]
