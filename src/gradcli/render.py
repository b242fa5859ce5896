"""Results -> rich tables. The only module that imports rich.

Functions here take plain result objects and return renderables; only the CLI
prints them. User text is always escaped, so a variable named `[bold]x`
prints literally.
"""
from __future__ import annotations

import os

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .formats import number_text


def console(stderr: bool = False, width: int | None = None) -> Console:
    """A console that honours NO_COLOR and drops colour when not on a terminal."""
    # NO_COLOR (https://no-color.org) means no escape codes at all, not only no colour:
    # rich would still send bold and dim.
    plain = bool(os.environ.get("NO_COLOR"))
    return Console(stderr=stderr, width=width, highlight=False, soft_wrap=False,
                   **({"color_system": None} if plain else {}))


def eval_table(result, precision=None, checks=None):
    """The value and partials of one point, under the 'read as' line.

    `checks` (eval --check): {input: FiniteDifference} adds the estimate and error columns.
    """
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("", style="cyan", no_wrap=True)
    table.add_column("value", justify="right")
    if checks:
        table.add_column("finite diff.", justify="right")
        table.add_column("rel. error", justify="right")
        table.add_column("")
    f = result.result_name
    table.add_row(Text(f), Text(array_text(result.value, precision)))
    for name, g in result.gradient.items():
        row = [Text(f"∂{f}/∂{name}"), Text(array_text(g, precision))]
        if checks:
            row.extend(_gradcheck_cells(checks.get(name), precision))
        table.add_row(*row)
    jacobian = getattr(result, "jacobian", None)
    if jacobian is not None and not result.gradient:
        for name, j in jacobian.items():
            table.add_row(Text(f"∂{f}/∂{name}"), Text(array_text(j, precision)))
    at = ", ".join(f"{k} = {number_text(v)}" for k, v in result.at.items())
    head = Text.assemble(("read as ", "dim"), (result.read_as, "bold"))
    parts = [head]
    if at:
        parts.append(Text.assemble(("at      ", "dim"), (at, "")))
    parts.append(Text(""))
    parts.append(table)
    for name, c in (checks or {}).items():
        if c.note:
            mark = ("✗ ", "red") if not c.ok else ("  ", "")
            parts.append(Text.assemble(mark, (f"∂{f}/∂{name}: ", "cyan"), c.note))
    if getattr(result, "hessian", None) is not None:
        parts.append(Text(""))
        parts.append(hessian_table(result, precision))
    return Group(*parts)


def hessian_table(result, precision=None):
    """The matrix of second partials, rows and columns labelled by variable."""
    f = result.result_name
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    names = list(result.hessian)
    table.add_column(Text(f"∂²{f}/∂a∂b"), style="cyan", no_wrap=True)
    for b in names:
        table.add_column(Text(b), justify="right")
    for a in names:
        row = result.hessian[a]
        table.add_row(Text(a), *(Text(number_text(row[b], precision)) for b in names))
    return table


def _gradcheck_cells(c, precision):
    if c is None or c.estimate is None:
        return [Text(""), Text(""), Text("")]
    mark = Text("✓", style="green") if c.ok else Text("✗", style="bold red")
    return [Text(number_text(c.estimate, precision)), Text(number_text(c.rel_error, 2)), mark]


def check_table(verdict, precision=None):
    """`gradcli check`: each answer, expected, computed, ✓/✗, then why each ✗ is wrong."""
    from .check import label
    f = verdict.result_name
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("", style="cyan", no_wrap=True)
    table.add_column("answer")
    table.add_column("expected", justify="right")
    table.add_column("computed", justify="right")
    table.add_column("")

    def name_of(a):
        if a.kind == "value":
            return f
        return f"∂{f}/∂{a.name}" + (" formula" if a.kind == "derivative" else "")

    for a in verdict.answers:
        mark = Text("✓", style="bold green") if a.ok else Text("✗", style="bold red")
        expected = "—" if a.expected is None else number_text(a.expected, precision)
        computed = ("—" if a.expected is None else "undefined") if a.computed is None \
            else number_text(a.computed, precision)
        table.add_row(Text(name_of(a)), Text(a.answer), Text(expected), Text(computed), mark)
    head = Text.assemble(("read as ", "dim"), (verdict.read_as, "bold"))
    parts = [head]
    if verdict.at:
        at = ", ".join(f"{k} = {number_text(v)}" for k, v in verdict.at.items())
        parts.append(Text.assemble(("at      ", "dim"), (at, "")))
    parts.extend([Text(""), table, Text("")])
    for a in verdict.answers:
        if a.ok:
            if a.note:
                parts.append(Text.assemble(("✓ ", "green"), (name_of(a), "cyan"), ": ",
                                           (a.note, "yellow")))
            continue
        lines = [Text.assemble(("✗ ", "bold red"), (name_of(a), "cyan"), ": ", a.reason)]
        if a.note:
            lines.append(Text.assemble("  ", (a.note, "yellow")))
        if a.kind == "derivative" and a.correct is not None:
            lines.append(Text.assemble(("  correct: ", "dim"), (a.correct, "bold")))
        parts.extend(lines)
    right = sum(a.ok for a in verdict.answers)
    style = "bold green" if verdict.ok else "bold red"
    parts.append(Text.assemble((f"{right} of {len(verdict.answers)} right", style),
                               (f"   (rtol {number_text(verdict.rtol)}, atol "
                                f"{number_text(verdict.atol)})", "dim")))
    return Group(*parts)


def array_text(value, precision=None) -> str:
    """A number or vector on one line; a matrix (or deeper) with one row per line."""
    if getattr(value, "ndim", 0) < 2:
        return number_text(value, precision)
    rows = [number_text(row, precision) for row in value]
    return "[" + ",\n ".join(rows) + "]"


def batch_rows(keys, rows, precision=None, header=True):
    """One chunk of batch output as a table; later chunks continue it without a header."""
    table = Table(show_header=header, header_style="bold", box=None, pad_edge=False)
    for k in keys:
        table.add_column(Text(k), justify="right", no_wrap=True, min_width=max(len(k), 12))
    for r in rows:
        table.add_row(*(Text(number_text(v, precision)) for v in r))
    return table


class _Bar:
    """A transient progress bar on stderr, by bytes of the points file read."""

    def __init__(self, total, label):
        from rich.progress import (BarColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)
        self.progress = Progress(TextColumn("[dim]{task.description}"), BarColumn(),
                                 TextColumn("{task.percentage:>3.0f}%"), TimeElapsedColumn(),
                                 TimeRemainingColumn(), console=console(stderr=True),
                                 transient=True)
        self.task = self.progress.add_task(label, total=total)
        self.progress.start()

    def update(self, done):
        self.progress.update(self.task, completed=done)

    def stop(self):
        self.progress.stop()


def progress_bar(total, label):
    """A started progress bar; call .update(bytes_done) and .stop()."""
    return _Bar(total, label)


def functions_table(records):
    """`gradcli functions`: name, arity, derivative rule, domain."""
    table = Table(show_header=True, header_style="bold", show_lines=False)
    table.add_column("function", style="cyan", no_wrap=True)
    table.add_column("args", justify="center")
    table.add_column("derivative")
    table.add_column("domain")
    category = None
    for r in records:
        if r["category"] != category:
            category = r["category"]
            table.add_section()
        form = r["form"]
        if r["aliases"]:
            form += "  (" + ", ".join(r["aliases"]) + ")"
        table.add_row(Text(form), Text(r["arity"]), Text(r["derivative"]), Text(r["domain"]))
    return table


def diff_table(result, precision=None):
    """`gradcli diff`: each partial derivative (and its value at the point) under 'read as'."""
    from .formats import diff_label
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("", style="cyan", no_wrap=True)
    table.add_column("derivative", overflow="fold")
    if result.values is not None:
        table.add_column("value", justify="right")
    for d in result.derivatives:
        row = [Text(diff_label(result.result_name, d.wrt, unicode=True)), Text(d.text)]
        if result.values is not None:
            row.append(Text(number_text(result.values[d.key], precision)))
        table.add_row(*row)
    parts = [Text.assemble(("read as ", "dim"), (result.read_as, "bold"))]
    if result.at:
        at = ", ".join(f"{k} = {number_text(v)}" for k, v in result.at.items())
        parts.append(Text.assemble(("at      ", "dim"), (at, "")))
    parts.append(Text(""))
    parts.append(table)
    return Group(*parts)


def descend_table(result, every=None, decimals=None, precision=None):
    """`gradcli descend`: the settings, the printed steps, the final point, why it stopped."""
    from .formats import descend_columns, descend_rows, descend_stop_text
    if precision is None and decimals is None:
        precision = 6  # a table of many columns stays readable; plain/json/csv keep every digit
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    names = descend_columns(result)
    for i, name in enumerate(names):
        title = {"grad_norm": "‖∇‖"}.get(name, name)
        table.add_column(Text(title), justify="right", no_wrap=True,
                         style="cyan" if i == 0 else None)
    rows = descend_rows(result, every, decimals, precision)
    for i, row in enumerate(rows):
        final = row[0] == "final"
        if final and i:
            table.add_section()
        table.add_row(*(Text(c, style="bold" if final else "") for c in row))
    settings = f"lr = {number_text(result.lr)}, {result.steps} steps"
    if result.momentum:
        settings += f", momentum = {number_text(result.momentum)}"
    if result.tol is not None:
        settings += f", tol = {number_text(result.tol)}"
    parts = [Text.assemble(("read as ", "dim"), (result.read_as, "bold")),
             Text.assemble(("train   ", "dim"), (", ".join(result.params), ""))]
    if result.data is not None:
        parts.append(Text.assemble(("data    ", "dim"),
                                   (f"{result.data.path}: {result.data.rows} rows, columns "
                                    f"{', '.join(result.data.columns)}", "")))
    parts += [Text.assemble(("with    ", "dim"), (settings, "")), Text(""), table, Text(""),
              Text(descend_stop_text(result), style="dim")]
    return Group(*parts)


__all__ = ["console", "eval_table", "hessian_table", "functions_table", "array_text",
           "check_table", "diff_table", "descend_table", "escape"]
