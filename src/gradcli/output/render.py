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

from .formats import reason_text
from .formats import descend_columns, descend_rows, descend_stop_text, diff_label, expected_text, label, number_text, summary_text
from .cells import Broken, rows_table
from .graphviz import label_lines
from .pointtext import at_text as typed_at_text
from .ledger import at_text, contribution_text, definition, local_text, shown_nodes, total_text
from ..language.printer import carets, screen_reading


def dim_line(text: str) -> Text:
    """A line of text in dim style (a note under a table)."""
    return Text(text, style="dim")


def console(stderr: bool = False, width: int | None = None,
            terminal: bool | None = None) -> Console:
    """A console that honours NO_COLOR and drops colour when not on a terminal
    (`terminal=True` draws as on one)."""
    # NO_COLOR (https://no-color.org) means no escape codes at all, not only no colour:
    # rich would still send bold and dim.
    plain = bool(os.environ.get("NO_COLOR"))
    return Console(stderr=stderr, width=width, highlight=False, soft_wrap=False,
                   force_terminal=terminal, **({"color_system": None} if plain else {}))


def partial_label(f: str, name: str, several: bool) -> str:
    """The book's label: df/dx for a function of one variable, ∂f/∂x for several (the
    same in every command's table)."""
    return f"∂{f}/∂{name}" if several else f"d{f}/d{name}"


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
    several = len(result.inputs) > 1
    for name, g in result.gradient.items():
        row = [Text(partial_label(f, name, several)), Text(array_text(g, precision))]
        if checks:
            row.extend(_gradcheck_cells(checks.get(name), precision))
        table.add_row(*row)
    jacobian = getattr(result, "jacobian", None)
    if jacobian is not None and not result.gradient:
        table.columns[1].header = "value (Jacobian: one row per element of " + f + ")"
        for name, j in jacobian.items():
            table.add_row(Text(partial_label(f, name, several)), Text(array_text(j, precision)))
    at = typed_at_text(result.at)
    head = Text.assemble(("read as ", "dim"), (screen_reading(result.read_as), "bold"))
    parts = [head]
    if at:
        parts.append(Text.assemble(("at      ", "dim"), (at, "")))
    parts.append(Text(""))
    parts.append(table)
    for name, c in (checks or {}).items():
        if c.note:
            mark = ("✗ ", "red") if not c.ok else ("  ", "")
            parts.append(Text.assemble(mark, (f"{partial_label(f, name, several)}: ", "cyan"),
                                       c.note))
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
    f = verdict.result_name
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("", style="cyan", no_wrap=True)
    table.add_column("answer")
    table.add_column("expected", justify="right")
    table.add_column("computed", justify="right")
    table.add_column("")

    def name_of(a):
        if a.key:
            return a.key
        if a.kind == "value":
            return f
        several = len(verdict.variables or verdict.at) > 1
        return partial_label(f, a.name, several) + (" formula" if a.kind == "derivative" else "")

    for a in verdict.answers:
        mark = Text("✓", style="bold green") if a.ok else Text("✗", style="bold red")
        expected = expected_text(a, precision)
        computed = ("—" if a.expected is None or isinstance(a.expected, str) else "undefined") \
            if a.computed is None else number_text(a.computed, precision)
        # a homework answer's expected is an equation: it wraps as a formula, not at any space
        shown = Broken(expected) if isinstance(a.expected, str) else Text(expected)
        table.add_row(Text(name_of(a)), Broken(a.answer), shown, Text(computed), mark)
    head = Text.assemble(("read as ", "dim"), (screen_reading(verdict.read_as), "bold"))
    parts = [head]
    if verdict.at:
        at = typed_at_text(verdict.at)
        parts.append(Text.assemble(("at      ", "dim"), (at, "")))
    parts.extend([Text(""), table, Text("")])
    for a in verdict.answers:
        if a.ok:
            if a.note or a.evidence:
                parts.append(Text.assemble(("✓ ", "green"), (name_of(a), "cyan"), ": ",
                                           (carets(a.note or a.evidence), "yellow")))
            if a.note and a.evidence:
                parts.append(Text.assemble("  ", (a.evidence, "dim")))
            elif not a.note and a.kind in ("tangent", "taylor") and a.decided_by in _DECIDED:
                parts.append(Text.assemble(("✓ ", "green"), (name_of(a), "cyan"), ": ",
                                           (_DECIDED[a.decided_by], "dim")))
            continue
        lines = [Text.assemble(("✗ ", "bold red"), (name_of(a), "cyan"), ": ",
                               carets(reason_text(a, precision)))]
        if a.note:
            lines.append(Text.assemble("  ", (carets(a.note), "yellow")))
        if a.evidence:
            lines.append(Text.assemble("  ", (a.evidence, "dim")))
        elif a.kind in ("tangent", "taylor") and a.decided_by in _DECIDED:
            lines.append(Text.assemble("  ", (_DECIDED[a.decided_by], "dim")))
        if a.kind == "derivative" and a.correct is not None:
            lines.append(Text.assemble(("  correct: ", "dim"), (a.correct, "bold")))
        parts.extend(lines)
    right = sum(a.ok for a in verdict.answers)
    style = "bold green" if verdict.ok else "bold red"
    rounding = "3 or more digits: correctly rounded; otherwise " \
        if any(a.digits is not None for a in verdict.answers) else ""
    parts.append(Text.assemble((f"{right} of {len(verdict.answers)} right", style),
                               (f"   ({rounding}rtol {number_text(verdict.rtol)}, atol "
                                f"{number_text(verdict.atol)})", "dim")))
    return Group(*(_hung(p) for p in parts))


def _hung(part):
    """A line of text wrapped as streams.fit wraps messages (continuations 2 spaces further
    in than the line, a formula never split while a space between words will do)."""
    if not isinstance(part, Text):
        return part
    plain = part.plain
    return Broken(part, hang=len(plain) - len(plain.lstrip(" ")) + 2)


# How a tangent's or Taylor polynomial's verdict was reached, in words (JSON decided_by).
_DECIDED = {"proof": "decided by exact algebra",
            "digits": "decided by exact algebra and the digits of each rounded decimal",
            "sampling": "decided by sampling"}


def array_text(value, precision=None) -> str:
    """A number or vector on one line; a matrix (or deeper) with one row per line."""
    if getattr(value, "ndim", 0) < 2:
        return number_text(value, precision)
    if getattr(value, "ndim", 0) == 2:
        # One width per column, so that the rows of a matrix line up element by element.
        cells = [[number_text(v, precision) for v in row] for row in value]
        widths = [max(len(row[j]) for row in cells) for j in range(len(cells[0]))] \
            if cells and cells[0] else []
        rows = ["[" + ", ".join(c.rjust(w) for c, w in zip(row, widths)) + "]" for row in cells]
    else:
        rows = [number_text(row, precision) for row in value]
    return "[" + ",\n ".join(rows) + "]"


def batch_rows(keys, rows, precision=None, header=True, first_row=1, width=None):
    """One chunk of batch output as a table; later chunks continue it without a header.

    Every column gets the width of its longest number, so no number is ever cut;
    columns that do not fit the terminal wrap (see _fitted_columns).
    """
    cells = [[Text(number_text(v, precision)) for v in r] for r in rows]
    return _fitted_columns([Text(k) for k in keys], cells, header, first_row, width,
                           min_width=12)


def _fitted_columns(headers, rows, header=True, first_row=1, width=None, min_width=0,
                    numbered=False):
    """A table of `rows` (lists of Text) that never cuts a cell and never drops a column.

    When the columns fit the terminal it is one table (headed if `header`). When
    they do not, they wrap: one table per group of columns that fits side by
    side, each headed and led by the row number, under a dim note naming the
    columns it holds ("columns 4-6 of 9: ...").
    """
    widths = [max([h.cell_len, min_width] + [r[i].cell_len for r in rows])
              for i, h in enumerate(headers)]
    width = width or console().width
    numbers = [str(first_row + i) for i in range(len(rows))]
    lead = max([len("row")] + [len(n) for n in numbers])
    fixed = lead + 2 if numbered else 0
    if fixed + sum(widths) + 2 * (len(widths) - 1) <= width:
        table = Table(show_header=header, header_style="bold", box=None, pad_edge=False)
        if numbered:
            table.add_column("row", justify="right", style="dim", no_wrap=True, min_width=lead)
        for h, w in zip(headers, widths):
            table.add_column(h, justify="right", no_wrap=True, min_width=w)
        for n, r in zip(numbers, rows):
            table.add_row(*([Text(n)] if numbered else []), *r)
        return table
    groups, group, used = [], [], lead
    for i, w in enumerate(widths):
        if group and used + 2 + w > width:
            groups.append(group)
            group, used = [], lead
        group.append(i)
        used += 2 + w
    groups.append(group)
    parts = []
    for group in groups:
        names = ", ".join(headers[i].plain for i in group)
        where = (f"columns {group[0] + 1}-{group[-1] + 1}" if len(group) > 1
                 else f"column {group[0] + 1}")
        parts.append(dim_line(f"{where} of {len(headers)}: {names}"))
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column(Text("row"), justify="right", no_wrap=True, style="dim", min_width=lead)
        for i in group:
            table.add_column(headers[i], justify="right", no_wrap=True, min_width=widths[i])
        for n, r in zip(numbers, rows):
            table.add_row(Text(n), *(r[i] for i in group))
        parts.append(table)
    return Group(*parts)


def check_points_rows(run, checked, precision=None, header=True, width=None):
    """One chunk of `check --points`: a row per point, a ✓/✗ cell per answer (wrapping
    its columns on a narrow terminal, as batch_rows does)."""
    headers = [Text(n) for n in run.columns_used]
    headers += [Text(label(a, run.result_name)) for a in run.answers]
    chunk = checked.chunk
    rows = []
    for r in range(chunk.n):
        cells = [Text(number_text(float(chunk.columns[n][r]), precision))
                 for n in run.columns_used]
        for i in range(len(run.answers)):
            given = number_text(float(checked.given[i][r]), precision)
            if chunk.invalid[r]:
                cells.append(Text("unreadable", style="red"))
            elif not checked.checked[r]:
                cells.append(Text("undefined", style="yellow"))
            elif not checked.compared[i][r]:
                cells.append(Text.assemble(given + " ", ("–", "yellow")))
            elif checked.ok[i][r]:
                cells.append(Text.assemble(given + " ", ("✓", "bold green")))
            else:
                expected = number_text(float(checked.expected[i][r]), precision)
                cells.append(Text.assemble(given + " ", ("✗", "bold red"),
                                           (f" ({expected})", "dim")))
        rows.append(cells)
    return _fitted_columns(headers, rows, header, chunk.first_row, width, numbered=True)


def check_points_summary(lines, ok):
    """The closing lines of `check --points`, the last in green or red."""
    parts = [Text("")]
    parts += [Text(line) for line in lines[:-1]]
    parts.append(Text(lines[-1], style="bold green" if ok else "bold red"))
    return Group(*parts)


class _Bar:
    """A transient progress bar on stderr, by bytes of the points file read."""

    def __init__(self, total, label, terminal=None):
        from rich.progress import (BarColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)
        self.progress = Progress(TextColumn("[dim]{task.description}"), BarColumn(),
                                 TextColumn("{task.percentage:>3.0f}%"), TimeElapsedColumn(),
                                 TimeRemainingColumn(),
                                 console=console(stderr=True, terminal=terminal),
                                 transient=True, redirect_stdout=False)
        self.task = self.progress.add_task(label, total=total)
        self.progress.start()

    def update(self, done):
        self.progress.update(self.task, completed=done)

    def stop(self):
        # The last frame drawn, not the last the 10 Hz refresh thread happened to catch: a
        # loaded machine skipped the 100% frame.
        self.progress.refresh()
        self.progress.stop()


def progress_bar(total, label, terminal=None):
    """A started progress bar; call .update(bytes_done) and .stop(). `terminal=True`
    draws it even where stderr is not a terminal."""
    return _Bar(total, label, terminal)


def functions_table(records, width=None):
    """`gradcli functions`: name, arity, derivative rule, domain.

    A table on a wide terminal; below 100 columns each function is a short block
    (its form, then the rule and the domain indented under it), so that the rules
    are never squeezed into a narrow column.
    """
    width = width or console().width
    if width < 100:
        return _functions_stacked(records)
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


def _functions_stacked(records):
    lines = []
    category = None
    for r in records:
        if r["category"] != category:
            category = r["category"]
            lines.append(Text(""))
            lines.append(Text(category, style="bold"))
        head = Text(r["form"], style="cyan")
        arity = r["arity"]
        head.append(f"  {arity} argument{'' if arity == '1' else 's'}", style="dim")
        if r["aliases"]:
            head.append("  also " + ", ".join(r["aliases"]), style="dim")
        lines.append(head)
        lines.append(_hanging("    derivative  ", r["derivative"]))
        lines.append(_hanging("    domain      ", r["domain"]))
    return Group(*lines[1:])


def _hanging(label: str, text: str) -> Table:
    """`label` then `text`, the text wrapping under itself (at spaces, never mid-word)."""
    table = Table(show_header=False, box=None, pad_edge=False, padding=0)
    table.add_column(no_wrap=True, style="dim")
    table.add_column(overflow="fold")
    table.add_row(Text(label), Broken(text))
    return table


def diff_table(result, precision=None):
    """`gradcli diff`: each partial derivative (and its value at the point) under 'read as'."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("", style="cyan", no_wrap=True)
    table.add_column("derivative", overflow="fold")
    if result.values is not None:
        table.add_column("value", justify="right")
    for d in result.derivatives:
        row = [Text(diff_label(result.result_name, d.wrt, unicode=True,
                               several=len(result.variables) > 1)), Broken(d.text)]
        if result.values is not None:
            row.append(Text(number_text(result.values[d.key], precision)))
        table.add_row(*row)
    parts = [Text.assemble(("read as ", "dim"), (screen_reading(result.read_as), "bold"))]
    if result.at:
        parts.append(Text.assemble(("at      ", "dim"), (typed_at_text(result.at), "")))
    parts.append(Text(""))
    parts.append(table)
    return Group(*parts)


def steps_view(result, precision=None):  # formulas: nothing to round
    """`diff --steps`: each step numbered, its lines wrapping under themselves (never cut)."""
    from . import steps as shown
    parts = []
    for i, derivation in enumerate(result.steps):
        if i:
            parts.append(Text(""))
        parts.append(Text(shown.header(result, derivation), style="bold"))
        for label, lines in shown.blocks(result, derivation):
            table = Table(show_header=False, box=None, pad_edge=False, padding=(0, 1, 0, 0))
            table.add_column(no_wrap=True, style="dim")
            table.add_column(overflow="fold")
            body = Text(lines[0], style="cyan")
            for line in lines[1:]:
                body.append("\n" + line, style="bold" if line.startswith("= ") else "")
            table.add_row(Text(label), Broken(body))
            parts.append(table)
        more = shown.left_out(derivation)
        if more:
            parts.append(dim_line(more))
        label = diff_label(result.result_name, (derivation.wrt,), unicode=True,
                           several=len(result.variables) > 1)
        parts.append(_hanging(f"{label}  ", derivation.answer))
    return Group(*parts)


def descend_table(result, every=None, decimals=None, precision=None):
    """`gradcli descend`: the settings, the printed steps, the final point, why it stopped."""
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
    parts = [Text.assemble(("read as ", "dim"), (screen_reading(result.read_as), "bold")),
             Text.assemble(("train   ", "dim"), (", ".join(result.params), ""))]
    if result.data is not None:
        parts.append(Text.assemble(("data    ", "dim"),
                                   (f"{result.data.path}: {result.data.rows} rows, columns "
                                    f"{', '.join(result.data.columns)}", "")))
    parts += [Text.assemble(("with    ", "dim"), (settings, "")), Text(""), table, Text(""),
              Text(descend_stop_text(result), style="dim")]
    return Group(*parts)



def trace_tables(t, precision=None):
    """`gradcli trace`: the forward table, the backward table, then the partials."""
    f = t.output
    forward = Table(title="forward pass", title_justify="left", header_style="bold")
    forward.add_column("node", style="cyan", no_wrap=True)
    forward.add_column("definition")
    forward.add_column("expression", style="dim")
    forward.add_column("value", justify="right")
    nodes = shown_nodes(t)
    rows = sum(len(step.contributions) for step in t.backward)
    large = len(nodes) > TREE_NODES or rows > TREE_NODES
    for n in _elide(nodes, large, forward, 4, 1):
        forward.add_row(Text(n.name), Text(definition(n)), Text(n.expression),
                        Text(summary_text(n.value, precision)))
    parts = [_head(t, precision), Text(""), forward, Text("")]
    if t.backward:
        title = (f"backward pass (from the output back, ∂{f}/∂{f} = 1; "
                 f"upstream = ∂{f}/∂node)")
        backward = Table(title=title, title_justify="left", header_style="bold")
        # Where no gradient adds up, each total is its contribution: the column says nothing.
        totals = any(c.previous is not None for step in t.backward for c in step.contributions)
        backward.add_column("node", style="cyan", no_wrap=True)
        backward.add_column("upstream", justify="right")
        backward.add_column("input", style="cyan")
        backward.add_column("local derivative")
        backward.add_column("contribution", justify="right")
        if totals:
            backward.add_column("total", justify="right")
        columns = 6 if totals else 5
        steps = []  # the same rows, for the narrow layout
        skipped = []
        for step in _elide(t.backward, large, backward, columns, 3, skipped):
            if skipped:
                steps.append((None, skipped.pop()))
            first = True
            lines = []
            for c in _elide(step.contributions, large, backward, columns, 3, skipped):
                if skipped:
                    lines.append((None, skipped.pop(), None, None))
                shown = local_text(step.node, c, precision)
                total = Text(total_text(c, precision),
                             style="bold yellow" if c.accumulated else "")
                contribution = contribution_text(step.upstream, c, precision)
                row = [Text(step.node if first else ""),
                       Text(summary_text(step.upstream, precision) if first else ""),
                       Text(c.input), Text(shown), Text(contribution)]
                backward.add_row(*row, *([total] if totals else []))
                lines.append((c, shown, contribution, total))
                first = False
            backward.add_section()
            steps.append((step, lines))
        narrow = _backward_lines(title, steps, large, precision)
        parts += [Fit(backward, narrow), Text("")]
    else:
        parts += [Text("no gradient flows: the result does not depend on any input", "dim"),
                  Text("")]
    result = Table(show_header=False, box=None, pad_edge=False)
    result.add_column("", style="cyan", no_wrap=True)
    result.add_column("", justify="right")
    r = t.result_name
    result.add_row(Text(r), Text(number_text(t.value, precision)))
    for name, g in t.gradient.items():
        result.add_row(Text(f"∂{r}/∂{name}"), Text(number_text(g, precision)))
    parts.append(result)
    if large:
        parts += [Text(""), Text(f"the graph has {len(nodes):,} nodes and {rows:,} backward "
                                 f"rows; only the first {TABLE_HEAD} and last {TABLE_TAIL} rows "
                                 "of each table (and of each step) are shown here. For every "
                                 "step: -o plain, -o markdown, -o latex or -o json",
                                 style="yellow")]
    return Group(*parts)


TABLE_HEAD, TABLE_TAIL = 100, 20


class Fit:
    """`wide` where the console has room for all of it, else `narrow` (the same content
    in fewer columns): a table that would wrap every cell reads worse than lines."""

    def __init__(self, wide, narrow):
        self.wide, self.narrow = wide, narrow

    def __rich_console__(self, console, options):
        from rich.measure import Measurement
        need = Measurement.get(console, options.update_width(100_000), self.wide).maximum
        yield self.wide if need <= options.max_width else self.narrow

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement
        return Measurement.get(console, options, self.wide)


def _backward_lines(title, steps, large, precision):
    """The backward table as indented lines, for a narrow terminal:

    loss  upstream 1
      ∂loss/∂v2 = 2*v2 = 2*(-0.365864) = -0.731729
      v2 gets 1·(-0.731729) = -0.731729
    """
    from rich.padding import Padding
    parts = [Text(title, style="italic"), Text("")]
    for step, lines in steps:
        if step is None:
            parts.append(Text(f"… {lines:,} more rows", style="dim"))
            continue
        parts.append(Text.assemble((step.node, "bold cyan"), ("  upstream ", "dim"),
                                   summary_text(step.upstream, precision)))
        for c, shown, contribution, total in lines:
            if c is None:
                parts.append(Padding(Text(f"… {shown:,} more rows", style="dim"), (0, 0, 0, 2)))
                continue
            parts.append(Padding(Text(shown), (0, 0, 0, 2)))
            line = Text.assemble((c.input, "cyan"), (" gets ", "dim"), contribution)
            if c.accumulated:
                line.append_text(Text.assemble(("; total ", "dim"), total))
            parts.append(Padding(line, (0, 0, 0, 2)))
    return Group(*parts)


def _elide(items, large, table, columns, at, skipped=None):
    """All items, or the first and last few with a row saying how many were left out
    (also appended to `skipped`, a list, where given)."""
    if not large or len(items) <= TABLE_HEAD + TABLE_TAIL:
        yield from items
        return
    yield from items[:TABLE_HEAD]
    left_out = len(items) - TABLE_HEAD - TABLE_TAIL
    cells = [Text("…", style="dim")] + [Text("")] * (columns - 1)
    cells[at] = Text(f"{left_out:,} more rows", style="dim")
    table.add_row(*cells)
    if skipped is not None:
        skipped.append(left_out)
    yield from items[-TABLE_TAIL:]


def _head(t, precision=None):
    read = t.read_as
    if len(read) > HEAD_CHARS:
        read = read[:HEAD_CHARS] + f"… ({len(t.read_as):,} characters)"
    head = Text.assemble(("read as ", "dim"), (screen_reading(read), "bold"))
    if t.at:
        head.append("\n")
        head.append_text(Text.assemble(("at      ", "dim"), (at_text(t.at, precision), "")))
    return head


HEAD_CHARS = 300

# The terminal tree stops here; DOT and SVG have no such limit.
TREE_NODES = 500
SUMMARY_NODES = 40
TREE_DEPTH = 16


def graph_tree(t, precision=None, limit=TREE_NODES):
    """`gradcli graph`: the output at the root, each node's inputs below it.

    A node already shown (a shared sub-graph) is shown once and referred to
    by name afterwards. Over `limit` nodes only the top of the graph is drawn,
    with a note on how to get the full picture.
    """
    from rich.tree import Tree

    by_name = {n.name: n for n in t.forward}
    count = sum(1 for n in t.forward if n.kind != "literal")
    large = count > limit
    budget = SUMMARY_NODES if large else None
    max_depth = 6 if large else TREE_DEPTH

    def label(n, again=False):
        if n.kind == "literal":
            return Text(n.name, style="dim")
        lines = label_lines(n, precision)
        text = Text(lines[0], style="bold cyan" if n.kind != "op" else "bold")
        for extra in lines[1:]:
            text.append("   ")
            text.append(extra, style="green" if extra.startswith("grad") else "")
        if again:
            text = Text.assemble((n.name, "bold"), ("  (shown above)", "dim"))
        return text

    out = by_name[t.output]
    root = Tree(label(out), guide_style="dim")
    shown = {out.name}
    drawn = 1
    stack = [(name, root, 1) for name in reversed(out.inputs)]
    while stack:
        name, parent, depth = stack.pop()
        n = by_name[name]
        if budget is not None and drawn >= budget:
            continue
        if n.kind == "op" and name in shown:
            parent.add(label(n, again=True))
            continue
        node = parent.add(label(n))
        drawn += 1
        if n.kind != "op":
            continue
        shown.add(name)
        if depth >= max_depth and n.inputs:
            node.add(Text(f"… inputs of {name} not drawn (depth limit)", style="dim"))
            continue
        stack.extend((i, node, depth + 1) for i in reversed(n.inputs))
    parts = [_head(t, precision), Text(""), root]
    if large:
        parts.append(Text(""))
        parts.append(Text(f"the graph has {count:,} nodes; only the top is drawn here. For the "
                          "full picture: -o dot (Graphviz), -o mermaid, -o json, or "
                          "--output graph.svg", style="yellow"))
    return Group(*parts)

__all__ = ["console", "eval_table", "hessian_table", "functions_table", "array_text",
           "check_table", "diff_table", "descend_table", "batch_rows", "progress_bar", "escape",
           "trace_tables", "graph_tree"]


def eval_direction_tables(pair, precision=None, checks=None):
    """eval --direction: eval's table, then the directional derivative's rows."""
    from .homework import directional_rows
    result, along = pair
    return Group(eval_table(result, precision, checks=checks), Text(""),
                 rows_table(directional_rows(along, precision)))


def functions_view(records, precision=None):
    """`gradcli functions` on a terminal (no numbers to round)."""
    return functions_table(records)
