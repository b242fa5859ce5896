"""The backward pass as plain records: what `gradcli trace` and `gradcli graph` show.

Nothing here computes a derivative of its own. The program is lowered with
`lower(..., keep_exprs=True)` and the engine's own `Value.backward` runs, with
an `on_step` hook that reports every local derivative (from
`engine.local_derivative`, i.e. the op table) and every gradient it adds, in
the order the engine adds them (reverse topological order). The trace only
writes those numbers down, names the nodes, and prints each local derivative
as a formula from the same op-table rule (`op.partial(BUILD, ...)`) with the
nodes' names as arguments, and again with their values (`2*v2`, `2*7`).
Where the engine's number is a convention rather than the rule's value (a
tie in max, d/dy x**y at x = 0) the record says so instead of printing the
rule's value at the point.

Node names: the user's variable names on the leaves, a program's own names on
its named intermediates, `f` (the name eval uses) on an unnamed result, and
v1, v2, ... for the other operations, in the order they are computed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction

from .. import limits, ops
from ..autodiff.engine import backend_for, graph_nodes, numeric_d
from ..autodiff.lower import gradient_of
from ..autodiff.lower import lower
from ..inputs import prepare
from ..kinks import KinkWarnings
from ..language.expr import BUILD, Apply, Const, Name, Num, Vector, as_expr, replace_leaves
from ..reading import given_names, read_program
from ..language.printer import read_as, to_text
from ..numbers import number_text

# The source text of each node is cut to this many nodes and characters, so a
# 10,000-node expression costs no more per node than a small one.
EXPRESSION_NODES = 12
EXPRESSION_CHARS = 60


@dataclass
class Node:
    """One forward step: a node of the graph, its operation, inputs and value.

    kind is "input" (a user variable), "constant" (pi, e), "literal" (a number
    written in the expression) or "op". `grad` is the node's final gradient
    (None where no gradient flows, as for constants).
    """

    index: int
    name: str
    kind: str
    op: str | None
    inputs: list
    expression: str  # the node's source text, cut to its top levels
    value: object
    grad: object = None
    is_output: bool = False
    formula_expr: object = field(default=None, repr=False)  # the operation over the inputs
    expression_expr: object = field(default=None, repr=False)

    @cached_property
    def formula(self) -> str | None:
        """The operation over the inputs' names (`v1 + b`); None for a leaf."""
        return None if self.formula_expr is None else to_text(self.formula_expr)


@dataclass
class Contribution:
    """The gradient one node passes to one of its inputs, and the total it makes."""

    input: str
    local: object
    contribution: object
    total: object
    previous: object = None  # the input's total before this contribution, if it had one
    convention: bool = False  # the engine used a convention here, not the rule's value
    formula_expr: object = None  # the op table's rule over the nodes' names
    substituted_expr: object = None  # the same rule at the point (None where not shown)

    @cached_property
    def formula(self) -> str | None:
        return None if self.formula_expr is None else to_text(self.formula_expr)

    @cached_property
    def substituted(self) -> str | None:
        return None if self.substituted_expr is None else to_text(self.substituted_expr)

    @property
    def accumulated(self) -> bool:
        return self.previous is not None


@dataclass
class Step:
    """One backward step: a node, its upstream gradient, what it passes to each input."""

    node: str
    op: str
    formula: str
    upstream: object
    contributions: list = field(default_factory=list)


@dataclass
class Trace:
    """The forward and backward pass of a program at one point, ending with the partials."""

    expression: str
    read_as: str
    at: dict
    result_name: str
    output: str
    value: object
    forward: list
    backward: list
    gradient: dict
    warnings: list = field(default_factory=list)

    def node(self, name: str) -> Node:
        """The forward record of the node called `name`."""
        for n in self.forward:
            if n.name == name:
                return n
        raise KeyError(name)


def trace(text: str, bindings: dict | None = None, *, wrt=None, program=None) -> Trace:
    """Run `text` forward and backward at `bindings` and record every step.

    >>> t = trace("(w*x+b)**2", {"w": 3, "x": 2, "b": 1})
    >>> [(c.input, c.formula, c.local) for c in t.backward[0].contributions]
    [('v2', '2*v2', 14.0)]
    """
    program = program or read_program(text, given_names(bindings, wrt))
    bindings = {k: (float(v) if isinstance(v, int) and not isinstance(v, bool) else v)
                for k, v in (bindings or {}).items()}
    variables, warnings, wanted, used = prepare(program, bindings, wrt)
    graph = lower(program, used, wrt=set(wanted), keep_exprs=True)
    out = graph.output
    result_name = program.statements[-1].name or "f"

    order = graph_nodes(out, [graph.inputs[n] for n in variables if n in graph.inputs])
    names = _names(order, out, result_name, set(variables) | set(graph.intermediates))
    exprs = graph.exprs

    forward = []
    records = {}
    for index, v in enumerate(order):
        kind = _kind(v)
        formula = None
        if kind == "op":
            args = tuple(_arg(p, names) for p in v._parents)
            # A vector literal with variable elements is a `stack` node: print it as written.
            formula = Vector(args) if v._op.name == "stack" else Apply(v._op.name, args)
        expr = exprs.get(id(v))
        short = _short_expr(expr) if expr is not None else Name(names[id(v)])
        node = Node(index=index, name=names[id(v)], kind=kind,
                    op=None if v._op is None else v._op.name,
                    inputs=[names[id(p)] for p in v._parents],
                    expression=_cut(to_text(short)), value=v.data, is_output=v is out,
                    formula_expr=formula, expression_expr=short)
        forward.append(node)
        records[id(v)] = node

    kinks = KinkWarnings(graph)
    steps = []
    totals = {}

    def on_step(node, i, local, contribution):
        if not steps or steps[-1][0] is not node:
            steps.append((node, node.grad, []))
        parent = node._parents[i]
        previous = totals.get(id(parent))
        totals[id(parent)] = parent.grad
        steps[-1][2].append((i, local, contribution, parent.grad, previous))

    if out.requires_grad and getattr(out.data, "ndim", 0):
        # A gradient needs a scalar result; the same error and ways out as eval.
        from ..autodiff.shapes import nonscalar_error
        raise nonscalar_error(out.data.shape)
    if out.requires_grad:
        out.backward(on_kink=kinks.on_kink, on_step=on_step)
    kinks.add_to(warnings)

    backward = []
    for node, upstream, edges in steps:
        formulas = _local_formulas(node, names)
        step = Step(node=names[id(node)], op=node._op.name, formula=records[id(node)].formula,
                    upstream=upstream)
        memo = {}  # what _is_convention finds once for this node
        for i, local, contribution, total, previous in edges:
            formula, substituted = formulas[i] if formulas is not None else (None, None)
            convention = local is not None and _is_convention(node, i, local, memo)
            if convention or local is None:
                # The rule's value at this point is not what the engine used (a
                # convention), or the engine used the op's vector-Jacobian product.
                substituted = None
            step.contributions.append(Contribution(
                input=names[id(node._parents[i])],
                local=local, contribution=contribution, total=total, previous=previous,
                convention=convention, formula_expr=formula, substituted_expr=substituted))
        backward.append(step)

    for v in order:
        if v.requires_grad:
            records[id(v)].grad = v.grad
    gradient = {name: gradient_of(graph, name) for name in wanted}
    return Trace(expression=text, read_as=read_as(program),
                 at={k: bindings[k] for k in bindings}, result_name=result_name,
                 output=names[id(out)], value=out.data, forward=forward, backward=backward,
                 gradient=gradient, warnings=warnings)


def _kind(v) -> str:
    if v._op is not None:
        return "op"
    if v.label is None:
        return "literal"
    return "constant" if not v.requires_grad and v.label in ops.CONSTANTS else "input"


def _names(order: list, out, result_name: str, taken: set) -> dict:
    """id(Value) -> the name the ledger uses for it."""
    names = {}
    counter = 0
    for v in order:
        if v.label is not None:
            names[id(v)] = v.label
        elif v._op is None:
            names[id(v)] = number_text(v.data)
        elif v is out and result_name not in taken:
            names[id(v)] = result_name
        else:
            counter += 1
            while f"v{counter}" in taken:
                counter += 1
            names[id(v)] = f"v{counter}"
    return names


def _arg(v, names):
    """A node as an argument of a formula: its name, or the literal number itself."""
    if v._op is None and v.label is None:
        return _literal(v.data)
    if v._op is None and v.label in ops.CONSTANTS and not v.requires_grad:
        return Const(v.label)
    return Name(names[id(v)])


def _literal(data):
    try:
        return as_expr(data)
    except TypeError:
        return Name(number_text(data))


def _is_convention(node, i, local, memo: dict) -> bool:
    """Whether the engine's number differs from the printed rule's value at this point.

    It does only where the op table's numeric rule is a convention (Op.numeric_rule:
    a tie in max/min, the exponent of 0**y, as PyTorch does); a numeric form that is
    only more accurate is the printed rule's value, not a convention.
    `memo`: one dict per node, so a node of many arguments is linear work.
    """
    op = node._op
    if op.numeric_rule(i) != "convention":
        return False
    if "datas" not in memo:  # once per node, not per argument
        datas = [p.data for p in node._parents]
        memo.update(datas=datas, D=numeric_d(backend_for(datas)), cache={})
    try:
        rule = op.partial(memo["D"], i, node.data, memo["datas"], memo["cache"])
        return not _same_number(rule, local)
    except (ArithmeticError, ValueError, TypeError):
        return True


def _same_number(a, b) -> bool:
    try:
        return bool(a == b or (a != a and b != b))
    except (TypeError, ValueError):  # arrays: element-wise
        import numpy as np
        return bool(np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True))


def _local_formulas(node, names):
    """Per input: the op table's derivative rule over the nodes' names, and at the point."""
    op = node._op
    parents = node._parents
    if len(parents) > limits.MAX_FORMULA_ARGS:
        return None  # each formula would name every argument: quadratic; numbers only
    try:
        by_name = tuple(_arg(p, names) for p in parents)
        out_name = Name(names[id(node)])
        values = {names[id(node)]: node.data}
        for p, a in zip(parents, by_name):
            if isinstance(a, Name):
                values[a.id] = p.data
        result = []
        cache = {}
        for i in range(len(parents)):
            formula = as_expr(op.partial(BUILD, i, out_name, by_name, cache))
            result.append((formula, substitute(formula, values)))
        return result
    except (TypeError, AttributeError, IndexError, KeyError, ValueError, ZeroDivisionError):
        # A rule that is not written with the language's own functions (a vjp reduction).
        return None


def substitute(formula, values: dict, number=None):
    """`formula` with each name in `values` replaced by its value, nothing folded: 2*v2 -> 2*7.

    `number(value)` makes the node for a value (default: a Num for a scalar, the
    printed text for an array). Nodes are built directly, not through `make`, so
    that 2*7 stays 2*7 instead of becoming 14.
    """
    number = number or value_node
    return replace_leaves(formula, lambda node: number(values[node.id])
                          if isinstance(node, Name) and node.id in values else node)


def value_node(value):
    """A value as a formula node: a number literal, or (for an array) its printed text."""
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return Num(value)
    return Name(number_text(value))


def _short_expr(expr):
    """A sub-expression cut short: only its top few nodes, the rest as `…`.

    Printing the whole of every sub-expression would make a trace quadratic in
    the size of the expression; the parts below the top EXPRESSION_NODES nodes
    print as `…`.
    """
    # Whole levels, top down, as many as fit: the cut is at the same depth everywhere.
    kept, level, seen = [expr], [expr], {id(expr)}
    while level:
        below = []
        for node in level:
            for child in node.children():
                if id(child) not in seen:
                    seen.add(id(child))
                    below.append(child)
        if len(kept) + len(below) > EXPRESSION_NODES:
            break
        kept.extend(below)
        level = below
    copies = {}
    for node in reversed(kept):
        if isinstance(node, (Apply, Vector)):
            args = tuple(copies.get(id(a), _ELIDED) for a in node.children())
            if args and all(a is _ELIDED for a in args):
                copies[id(node)] = _ELIDED
            elif isinstance(node, Apply):
                copies[id(node)] = Apply(node.op, args)
            else:
                copies[id(node)] = Vector(args)
        else:
            copies[id(node)] = node
    return copies[id(expr)]


def _cut(text: str) -> str:
    return text if len(text) <= EXPRESSION_CHARS else text[:EXPRESSION_CHARS - 1] + "…"


_ELIDED = Name("…")


__all__ = ["Trace", "Node", "Step", "Contribution", "trace", "substitute", "value_node"]
