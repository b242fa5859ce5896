"""Results -> rich tables. The only module that imports rich.

Functions here take plain result objects and return renderables; only the CLI
prints them. User text is always escaped, so a variable named `[bold]x`
prints literally.
"""
from __future__ import annotations

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .formats import number_text


def console(stderr: bool = False, width: int | None = None) -> Console:
    """A console that honours NO_COLOR and drops colour when not on a terminal."""
    return Console(stderr=stderr, width=width, highlight=False, soft_wrap=False)


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
    return Group(*parts)


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


def trace_tables(t, precision=None):
    """`gradcli trace`: the forward table, the backward table, then the partials."""
    from .ledger import contribution_text, definition, local_text, shown_nodes, total_text
    f = t.output
    forward = Table(title="forward pass", title_justify="left", header_style="bold")
    forward.add_column("node", style="cyan", no_wrap=True)
    forward.add_column("definition")
    forward.add_column("expression", style="dim")
    forward.add_column("value", justify="right")
    nodes = shown_nodes(t)
    large = len(nodes) > TREE_NODES
    for n in _elide(nodes, large, forward, 4, 1):
        forward.add_row(Text(n.name), Text(definition(n)), Text(n.expression),
                        Text(number_text(n.value, precision)))
    parts = [_head(t, precision), Text(""), forward, Text("")]
    if t.backward:
        backward = Table(title=f"backward pass (from the output back, ∂{f}/∂{f} = 1; "
                               f"upstream = ∂{f}/∂node)",
                         title_justify="left", header_style="bold")
        backward.add_column("node", style="cyan", no_wrap=True)
        backward.add_column("upstream", justify="right")
        backward.add_column("input", style="cyan")
        backward.add_column("local derivative")
        backward.add_column("contribution", justify="right")
        backward.add_column("total", justify="right")
        for step in _elide(t.backward, large, backward, 6, 3):
            first = True
            for c in step.contributions:
                shown = local_text(step.node, c, precision)
                total = Text(total_text(c, precision),
                             style="bold yellow" if c.accumulated else "")
                backward.add_row(Text(step.node if first else ""),
                                 Text(number_text(step.upstream, precision) if first else ""),
                                 Text(c.input), Text(shown),
                                 Text(contribution_text(step.upstream, c, precision)), total)
                first = False
            backward.add_section()
        parts += [backward, Text("")]
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
        parts += [Text(""), Text(f"the graph has {len(nodes):,} nodes; only the first "
                                 f"{TABLE_HEAD} and last {TABLE_TAIL} rows of each table are "
                                 "shown here. For every step: -o plain, -o markdown, -o latex "
                                 "or -o json", style="yellow")]
    return Group(*parts)


TABLE_HEAD, TABLE_TAIL = 100, 20


def _elide(items, large, table, columns, at):
    """All items, or the first and last few with a row saying how many were left out."""
    if not large or len(items) <= TABLE_HEAD + TABLE_TAIL:
        yield from items
        return
    yield from items[:TABLE_HEAD]
    left_out = len(items) - TABLE_HEAD - TABLE_TAIL
    cells = [Text("…", style="dim")] + [Text("")] * (columns - 1)
    cells[at] = Text(f"{left_out:,} more rows", style="dim")
    table.add_row(*cells)
    yield from items[-TABLE_TAIL:]


def _head(t, precision=None):
    read = t.read_as
    if len(read) > HEAD_CHARS:
        read = read[:HEAD_CHARS] + f"… ({len(t.read_as):,} characters)"
    head = Text.assemble(("read as ", "dim"), (read, "bold"))
    if t.at:
        from .ledger import at_text
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
    from .graphviz import label_lines

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


__all__ = ["console", "eval_table", "functions_table", "escape", "trace_tables",
           "graph_tree"]
