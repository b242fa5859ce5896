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


def eval_table(result, precision=None):
    """The value and partials of one point, under the 'read as' line."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("", style="cyan", no_wrap=True)
    table.add_column("value", justify="right")
    f = result.result_name
    table.add_row(Text(f), Text(number_text(result.value, precision)))
    for name, g in result.gradient.items():
        table.add_row(Text(f"∂{f}/∂{name}"), Text(number_text(g, precision)))
    at = ", ".join(f"{k} = {number_text(v)}" for k, v in result.at.items())
    head = Text.assemble(("read as ", "dim"), (result.read_as, "bold"))
    parts = [head]
    if at:
        parts.append(Text.assemble(("at      ", "dim"), (at, "")))
    parts.append(Text(""))
    parts.append(table)
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


__all__ = ["console", "eval_table", "hessian_table", "functions_table", "escape"]
