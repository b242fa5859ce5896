"""Evaluate a chunk: one graph over arrays of points, never one graph per row.

The middle of the batch path (data/sources.py reads chunks, data/run.py drives
them through here, data/sinks.py writes them). Each input is a vector of the
chunk's values (or a number shared by every point); one forward and one
backward pass give every point's value and gradient. A row whose value is
undefined becomes nan with a message naming its row; the other rows are
evaluated again without it (the engine's DomainError carries the mask of
failing elements). `plot` uses it on a grid of x values, `check --points` on
its answers' formulas.

``evaluate_arrays(program, columns, bindings=None, wrt=None, first_row=1) -> ArrayResult``
    One vectorised evaluation. `columns` maps input names to 1-D float arrays of
    equal length n (one element per point); `bindings` maps further inputs to
    numbers shared by every point. Returns `ArrayResult` with `value` (n,),
    `gradient` {name: (n,)} per point for every input in `wrt` (default: all
    inputs, in order of first appearance), `undefined` (a bool mask of rows
    that are nan), `problems` [(row, message)] with rows numbered from
    `first_row`, and `kinks` [message]. Raises UsageError when the expression
    is not element-wise (a reduction or a vector literal would mix points).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import limits, ops
from ..autodiff.engine import backend_for
from ..autodiff.lower import lower
from ..errors import DomainError, UsageError
from ..inputs import check_wrt, inputs_of
from ..language.expr import Apply, Vector, postorder
from ..language.printer import quoted
from ..numbers import number_text
from ..reading import given_names, read_program


@dataclass
class ArrayResult:
    """Value and per-point gradient of one vectorised evaluation."""

    value: np.ndarray
    gradient: dict
    undefined: np.ndarray
    problems: list = field(default_factory=list)
    kinks: list = field(default_factory=list)
    kinked: list = field(default_factory=list)  # (Kink, mask of the points on it), for plot


def elementwise_check(program, bindings) -> None:
    """Points are evaluated side by side, so nothing may combine them."""
    for stmt in program.statements:
        for node in postorder(stmt.expr):
            if isinstance(node, Vector):
                raise UsageError("--points evaluates each row as its own point, so the "
                                 "expression cannot hold a vector literal",
                                 source=program.source, span=node.span,
                                 hint="give vectors with --at and evaluate without --points")
            if isinstance(node, Apply) and ops.TABLE[node.op].vjp is not None:
                name = ops.TABLE[node.op].symbol or node.op
                raise UsageError(f"--points evaluates each row as its own point, but {name} "
                                 "would combine the rows", source=program.source,
                                 span=node.span,
                                 hint="for a loss over a data set bind the columns as "
                                      "vectors (descend --data), or use eval --at x=[...]")
    for name, value in (bindings or {}).items():
        if np.ndim(value) != 0:
            raise UsageError(f"--at {name}: with --points every --at value must be a number "
                             "(each row is one point)")


def evaluate_arrays(program, columns: dict, bindings=None, wrt=None,
                    first_row: int = 1, row_numbers=None, n=None,
                    gradient: bool = True) -> ArrayResult:
    """One pass through the graph with each input a vector of points (see the module doc).

    `row_numbers` (an int array, one per point) overrides `first_row` in messages;
    `n` is the number of points when `columns` is empty; `gradient=False` skips
    the backward pass (values only).
    """
    if isinstance(program, str):
        program = read_program(program, given_names(bindings, columns, wrt))
    bindings = dict(bindings or {})
    elementwise_check(program, bindings)
    variables = inputs_of(program)
    wanted = check_wrt(wrt, variables) if gradient else []
    if n is None:
        n = len(next(iter(columns.values()))) if columns else 1
    data = {}
    for name in variables:
        if name in columns:
            data[name] = np.asarray(columns[name], dtype=float)
        elif name in bindings:
            # Shared numbers become full vectors so each point gets its own gradient.
            data[name] = np.full(n, float(bindings[name]))
    value = gradient = None  # made when the first pass leaves rows out
    undefined = np.zeros(n, dtype=bool)
    alive = np.arange(n)
    numbers = np.asarray(row_numbers) if row_numbers is not None else first_row + alive
    problems, kinks, kinked = [], [], []
    while alive.size:
        # Every point still in: the columns as they are, not copies (the common chunk).
        whole = alive.size == n
        sub = data if whole else {k: v[alive] for k, v in data.items()}
        try:
            graph = lower(program, sub, wrt=set(wanted))
        except DomainError as exc:
            rows = _failing_rows(exc, alive.size)
            if rows is None:
                raise
            for r in np.flatnonzero(rows):
                problems.append((int(numbers[alive[r]]), _row_message(exc, r)))
            undefined[alive[rows]] = True
            alive = alive[~rows]
            continue
        out = graph.output

        def on_kink(node, kink, graph=graph, alive=alive):
            if len(kinks) < limits.MAX_WARNINGS:  # each message costs its sub-expression's size
                kinks.append(_kink_message(graph, node, kink, numbers[alive]))
            on = np.zeros(n, dtype=bool)
            on[alive[_kink_hits(node, kink, alive.size)]] = True
            kinked.append((kink, on))

        if out.requires_grad:
            out.backward(seed=np.ones(alive.size) if np.ndim(out.data) else 1.0,
                         on_kink=on_kink)
        found = [out.data] + [graph.inputs[name].grad for name in wanted]
        if whole:
            vectors = _own_vectors(found, n, data.values())
        else:
            vectors = [np.full(n, np.nan) for _ in found]
            for vector, part in zip(vectors, found):
                vector[alive] = part
        value, gradient = vectors[0], dict(zip(wanted, vectors[1:]))
        break
    if value is None:  # no row had a value
        value = np.full(n, np.nan)
        gradient = {name: np.full(n, np.nan) for name in wanted}
    return ArrayResult(value, gradient, undefined, problems, kinks, kinked)


def _own_vectors(found, n, inputs) -> list:
    """Each of `found` as a vector of n floats that nothing else holds: an array the
    backward pass made is taken as it is; a number, an input's column or an array
    already taken (one gradient passed on to two inputs) is copied."""
    taken = {id(a) for a in inputs}
    out = []
    for a in found:
        if isinstance(a, np.ndarray) and a.shape == (n,) and a.dtype == np.float64 \
                and id(a) not in taken and a.flags.writeable:
            taken.add(id(a))
            out.append(a)
        else:
            out.append(np.array(np.broadcast_to(np.asarray(a, dtype=float), (n,))))
    return out


def _kink_hits(node, kink, m):
    """Which of the m points sit exactly on `kink` of `node`."""
    datas = [p.data for p in node._parents]
    try:
        return np.broadcast_to(np.asarray(kink.where(backend_for(datas), *datas), dtype=bool),
                               (m,))
    except (ValueError, ZeroDivisionError, OverflowError):
        return np.zeros(m, dtype=bool)


def _failing_rows(exc: DomainError, m: int):
    if exc.mask is None:
        return None
    mask = np.asarray(exc.mask, dtype=bool)
    if mask.shape == (m,):
        return mask if mask.any() else None
    if mask.ndim == 0 and mask:
        return np.ones(m, dtype=bool)
    return None


def _row_message(exc: DomainError, r: int) -> str:
    """The domain error of one row, in the user's terms: `log(x) is undefined at x = -1: ...`."""
    node = getattr(exc, "expr", None)
    if node is None:
        return exc.message
    parts = []
    for i in exc.show:
        if i >= len(node.args) or i >= len(exc.args_):
            continue
        arg = node.args[i]
        if arg.children() == () and not hasattr(arg, "id"):
            continue  # a literal number says nothing new
        v = exc.args_[i]
        v = v[r] if np.ndim(v) else v
        parts.append(f"{quoted(arg)} = {number_text(float(v))}")
    where = f" at {', '.join(parts)}" if parts else ""
    if exc.overflow:
        return f"{quoted(node)} overflows{where}: the result is too large for a double"
    return f"{quoted(node)} is undefined{where}: {exc.reason}"


def _kink_message(graph, node, kink, numbers) -> str:
    """The kink warning of one node: where it is, and the rows (`numbers`) on it."""
    alive = numbers
    datas = [p.data for p in node._parents]
    hit = _kink_hits(node, kink, alive.size)
    rows = [int(numbers[r]) for r in np.flatnonzero(hit)]
    first = int(np.flatnonzero(hit)[0]) if rows else 0
    names = {"x": number_text(float(np.broadcast_to(datas[0], (alive.size,))[first]))}
    if len(datas) > 1:
        names["y"] = number_text(float(np.broadcast_to(datas[1], (alive.size,))[first]))
    message = kink.message.format(**names)
    expr = graph.exprs.get(id(node))
    if expr is not None:
        message += f" (in {quoted(expr)})"
    shown = ", ".join(str(r) for r in rows[:10])
    more = f" and {len(rows) - 10} more" if len(rows) > 10 else ""
    return f"{message}, at row{'s' if len(rows) > 1 else ''} {shown}{more}"
