"""One table from (kind of result, format) to the writer that prints it.

A command computes a result and calls `write(kind, result, fmt, precision)`; the
table below says which function of output/ turns that result into that format,
and how it goes out:

- "json": the function gives a record, printed as one line of JSON;
- "rows": it gives (key, value) rows, printed as `key<TAB>value` lines;
- "text": it gives text, printed as it is (Markdown, LaTeX, plain ledgers, DOT);
- "table": it gives a rich renderable for the terminal;
- "rows-table": it gives rows, drawn as a two-column rich table;
- "stream": the rows of --points, which output/points.py prints chunk by chunk.

A command's -o offers exactly the formats of the kinds of result it prints
(`formats_of`), so click refuses any other. A new format or a new command is
one entry here. The writers' modules are
imported only when used (rich and the LaTeX writers cost start-up). Human formats
round to 6 digits unless --precision says otherwise, and then say so once
(`Rounding`).
"""
from __future__ import annotations

import importlib

from ..errors import UsageError
from .streams import emit, output_format, warn

# (kind, format) -> ("module.function" in output/, how it is printed). A kind's entries are
# in the order its command's -o lists them.
WRITERS = {
    ("eval", "table"): ("render.eval_table", "table"),
    ("eval", "plain"): ("formats.eval_plain_rows", "rows"),
    ("eval", "json"): ("formats.eval_json_record", "json"),
    ("eval", "csv"): ("formats.eval_csv_text", "text"),
    ("eval", "markdown"): ("writeup.eval_markdown", "text"),
    ("eval", "latex"): ("writeup.eval_latex", "text"),

    ("eval-direction", "table"): ("render.eval_direction_tables", "table"),
    ("eval-direction", "plain"): ("homework.eval_direction_rows", "rows"),
    ("eval-direction", "json"): ("homework.eval_direction_record", "json"),
    ("eval-direction", "csv"): ("homework.eval_direction_csv", "text"),
    ("eval-direction", "markdown"): ("homework.eval_direction_markdown", "text"),
    ("eval-direction", "latex"): ("homework.eval_direction_latex", "text"),

    ("diff", "table"): ("render.diff_table", "table"),
    ("diff", "plain"): ("formats.diff_rows", "rows"),
    ("diff", "json"): ("formats.diff_record", "json"),
    ("diff", "markdown"): ("writeup.diff_markdown", "text"),
    ("diff", "latex"): ("formats.diff_latex", "text"),

    ("steps", "table"): ("render.steps_view", "table"),
    ("steps", "plain"): ("steps.plain", "text"),
    ("steps", "json"): ("steps.json_lines", "text"),
    ("steps", "markdown"): ("steps.markdown", "text"),
    ("steps", "latex"): ("steps.latex_solution", "text"),

    ("trace", "table"): ("render.trace_tables", "table"),
    ("trace", "plain"): ("ledger.plain", "text"),
    ("trace", "markdown"): ("ledger.markdown", "text"),
    ("trace", "latex"): ("ledger.latex", "text"),
    ("trace", "json"): ("ledger.record", "json"),

    # graph's pictures (--output g.svg) are drawn by Graphviz from the DOT text
    ("graph", "tree"): ("render.graph_tree", "table"),
    ("graph", "dot"): ("graphviz.to_dot", "text"),
    ("graph", "mermaid"): ("graphviz.to_mermaid", "text"),
    ("graph", "json"): ("graphviz.record", "json"),

    ("check", "table"): ("render.check_table", "table"),
    ("check", "plain"): ("formats.check_lines", "text"),
    ("check", "json"): ("formats.check_record", "json"),
    ("check", "markdown"): ("writeup.check_markdown", "text"),
    ("check", "latex"): ("writeup.check_latex", "text"),

    ("functions", "table"): ("render.functions_view", "table"),
    ("functions", "plain"): ("formats.functions_plain", "text"),
    ("functions", "json"): ("formats.functions_json", "json"),

    ("descend", "table"): ("render.descend_table", "table"),
    ("descend", "plain"): ("formats.descend_plain", "text"),
    ("descend", "json"): ("formats.descend_record", "json"),
    ("descend", "csv"): ("formats.descend_csv", "text"),

    # plot's samples as data (the pictures are files or the terminal's, drawn by the task)
    ("plot", "json"): ("formats.plot_record", "json"),
    ("plot", "csv"): ("formats.plot_csv", "text"),
    ("plot2d", "json"): ("formats.plot2d_record", "json"),
    ("plot2d", "csv"): ("formats.plot2d_csv", "text"),
}
for _kind in ("tangent", "taylor", "implicit", "critical"):
    WRITERS[(_kind, "table")] = (f"homework.{_kind}_rows", "rows-table")
    WRITERS[(_kind, "plain")] = (f"homework.{_kind}_rows", "rows")
    WRITERS[(_kind, "json")] = (f"homework.{_kind}_record", "json")
    WRITERS[(_kind, "markdown")] = (f"homework.{_kind}_markdown", "text")
    if _kind != "critical":  # a list of points and their kinds: no LaTeX write-up
        WRITERS[(_kind, "latex")] = (f"homework.{_kind}_latex", "text")
for _kind in ("field", "partials"):
    WRITERS[(_kind, "table")] = (f"vectorcalc.{_kind}_rows", "rows-table")
    WRITERS[(_kind, "plain")] = (f"vectorcalc.{_kind}_rows", "rows")
    WRITERS[(_kind, "json")] = (f"vectorcalc.{_kind}_record", "json")
    WRITERS[(_kind, "markdown")] = (f"vectorcalc.{_kind}_markdown", "text")
    WRITERS[(_kind, "latex")] = (f"vectorcalc.{_kind}_latex", "text")
for _kind, _module in (("newton", "newton.newton"), ("newton-roots", "newton.roots")):
    WRITERS[(_kind, "table")] = (f"{_module}_table", "text")
    WRITERS[(_kind, "plain")] = (f"{_module}_rows", "rows")
    WRITERS[(_kind, "json")] = (f"{_module}_record", "json")
    WRITERS[(_kind, "markdown")] = (f"{_module}_markdown", "text")
    WRITERS[(_kind, "latex")] = (f"{_module}_latex", "text")
WRITERS.update({("mvt", "table"): ("theorems.mvt_rows", "rows-table"),
                ("mvt", "plain"): ("theorems.mvt_rows", "rows"),
                ("mvt", "json"): ("theorems.mvt_record", "json"),
                ("mvt", "markdown"): ("theorems.mvt_markdown", "text"),
                ("mvt", "latex"): ("theorems.mvt_latex", "text")})
for _fmt, _how in (("table", "rows-table"), ("plain", "rows"), ("json", "json"),
                   ("markdown", "text"), ("latex", "text")):
    WRITERS[("normal", _fmt)] = (f"normal.normal_{'rows' if _fmt in ('table', 'plain') else 'record' if _fmt == 'json' else _fmt}", _how)
    WRITERS[("implicit2", _fmt)] = (f"implicit2.implicit2_{'rows' if _fmt in ('table', 'plain') else 'record' if _fmt == 'json' else _fmt}", _how)
for _kind in ("analyze", "extrema"):
    WRITERS[(_kind, "table")] = (f"analysis.{_kind}_rows", "rows-table")
    WRITERS[(_kind, "plain")] = (f"analysis.{_kind}_rows", "rows")
    WRITERS[(_kind, "json")] = (f"analysis.{_kind}_record", "json")
    WRITERS[(_kind, "markdown")] = (f"analysis.{_kind}_markdown", "text")
    WRITERS[(_kind, "latex")] = (f"analysis.{_kind}_latex", "text")
# extrema in several variables: a rectangle or region (--over, --where), Lagrange
for _fmt, _how in (("table", "rows-table"), ("plain", "rows"), ("json", "json"),
                   ("markdown", "text"), ("latex", "text")):
    WRITERS[("extrema-region", _fmt)] = (
        f"regions.region_{'rows' if _fmt in ('table', 'plain') else 'record' if _fmt == 'json' else _fmt}",
        _how)
# diff --with: the multivariable chain rule; tangent on a surface with --normal
for _kind in ("chainrule", "surface"):
    WRITERS[(_kind, "table")] = (f"{_kind}.{_kind}_rows", "rows-table")
    WRITERS[(_kind, "plain")] = (f"{_kind}.{_kind}_rows", "rows")
    WRITERS[(_kind, "json")] = (f"{_kind}.{_kind}_record", "json")
    WRITERS[(_kind, "markdown")] = (f"{_kind}.{_kind}_markdown", "text")
    WRITERS[(_kind, "latex")] = (f"{_kind}.{_kind}_latex", "text")
# The rows of --points, streamed chunk by chunk by output/points.py (never through write()).
for _kind, _formats in (("eval-points", ("table", "plain", "json", "csv")),
                        ("diff-points", ("table", "plain", "json", "csv")),
                        ("check-points", ("table", "plain", "json"))):
    for _fmt in _formats:
        WRITERS[(_kind, _fmt)] = (f"points.{_kind.replace('-', '_')}", "stream")


def formats_of(*kinds: str) -> tuple:
    """The formats the kinds of result can be written in (a command's -o choices): each
    kind's in the table's order, a format once."""
    out = []
    for kind in kinds:
        out.extend(fmt for k, fmt in WRITERS if k == kind and fmt not in out)
    return tuple(out)


def _function(path: str):
    module, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(f"gradcli.output.{module}"), name)


def _entry(kind: str, fmt: str) -> tuple:
    entry = WRITERS.get((kind, fmt))
    if entry is None:
        raise UsageError(f"-o {fmt} is not available here; use "
                         + ", ".join(formats_of(kind)))
    if entry[1] == "stream":
        raise ValueError(f"{kind} rows are streamed by output/points.py, not written here")
    return entry


def write(kind: str, result, fmt: str | None, precision=None, **options) -> None:
    """Print `result` (of a command of this kind) in `fmt`: a table on a terminal, plain
    text in a pipe, when no format was asked for. `options` go to the writer."""
    fmt = output_format(fmt)
    path, how = _entry(kind, fmt)
    if how not in ("table", "rows-table"):
        emit(text(kind, result, fmt, precision, **options))
        return
    rounding = Rounding(fmt, precision)
    out = _function(path)(result, precision=rounding.precision, **options)
    from .render import console, rows_table
    console().print(rows_table(out) if how == "rows-table" else out)
    rounding.print_note()
    for hint in getattr(result, "hints", ()):
        from .render import dim_line
        console().print(dim_line(hint))


def text(kind: str, result, fmt: str, precision=None, **options) -> str:
    """What `write` prints in `fmt`, a format of text (not a rich table), as a string: for a
    file (graph --output g.dot) or a caller that prints it itself."""
    path, how = _entry(kind, fmt)
    if how in ("table", "rows-table"):
        raise ValueError(f"-o {fmt} of {kind} is a rich table, not text")
    rounding = Rounding(fmt, precision)
    out = _function(path)(result, precision=rounding.precision, **options)
    if how == "json":
        from .formats import dumps
        return dumps(out) + "\n"
    if how == "rows":
        return "".join("\t".join(row) + "\n" for row in out)
    return out + (rounding.note(fmt) if fmt in Rounding.NOTES else "")


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


__all__ = ["WRITERS", "write", "write_warned", "text", "formats_of", "Rounding"]
