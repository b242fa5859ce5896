"""Program -> Value graph: one leaf per input, one node per distinct sub-expression.

Named intermediates are the same node wherever they are used (never copied),
so a program whose lines each use the previous name twice stays linear.
Domain errors are rewritten here in the user's terms, naming the
sub-expression and its arguments.
"""
from __future__ import annotations

from .. import ops
from ..errors import DomainError, InexactError, ShapeError, UnknownName, UsageError
from ..language.expr import (Apply, Const, Name, Num, Program, Vector, free_names,
                             odd_root_exponent)
from ..language.printer import quoted
from ..numbers import format_number
from .engine import BINARY, UNARY, Value, apply


class Graph:
    """The lowered program: output node, input leaves, named intermediates, node -> Expr."""

    __slots__ = ("output", "inputs", "intermediates", "exprs", "program")

    def __init__(self, output, inputs, intermediates, exprs, program):
        self.output = output
        self.inputs = inputs
        self.intermediates = intermediates
        self.exprs = exprs
        self.program = program


def lower(program: Program, bindings: dict, wrt=None, keep_exprs: bool = False,
          make_vector=None, exact: bool | str = False) -> Graph:
    """Build the graph for `program` with inputs bound to `bindings` (name -> number/array).

    `wrt`: the inputs that need gradients (default: all). `keep_exprs`: remember
    the Expr of every node (for trace and graph), not only of kink-prone ones.
    `exact`: number literals become Fractions read from their source text, so
    the whole graph computes with exact rationals (pi and e are refused);
    `exact="closed"`: with SymPy numbers, pi and e included (autodiff/closed.py).
    """
    return _lower(program, bindings, wrt, keep_exprs, make_vector, exact)


def _lower(program, bindings, wrt, keep_exprs, make_vector, exact) -> Graph:
    inputs = {}
    for name, data in bindings.items():
        inputs[name] = Value(data, requires_grad=(wrt is None or name in wrt), label=name)
    env = {}
    exprs = {}
    constants = {}
    kinky = _KINKY
    for stmt in program.statements:
        # Postorder, left to right, with an explicit stack; each finished node leaves
        # its Value on `values`, where its parent takes them. `done` (by identity)
        # lowers a node shared by several parents once.
        done = {}
        values = []
        vpush = values.append
        vpop = values.pop
        stack = [stmt.expr]
        push = stack.append
        pop = stack.pop
        while stack:
            node = pop()
            if node is _EMIT:  # its children's values are the last ones on `values`
                node = pop()
                if type(node) is Apply:
                    args = node.args
                    name = node.op
                    try:
                        if len(args) == 2:
                            b = vpop()
                            a = vpop()
                            root = odd_root_exponent(args[1]) if name == "pow" else None
                            if root is not None:
                                value = apply(ops.REAL_ROOT_POWERS[root.numerator % 2 == 0],
                                              a, b)
                            else:
                                forward = BINARY.get(name)
                                value = forward(a, b) if forward else apply(ops.TABLE[name],
                                                                            a, b)
                        elif len(args) == 1:
                            a = vpop()
                            forward = UNARY.get(name)
                            value = forward(a) if forward else apply(ops.TABLE[name], a)
                        else:
                            value = apply(ops.TABLE[name], *_take(values, len(args)))
                    except (DomainError, InexactError, ShapeError) as exc:
                        raise _located(exc, node, program) from None
                    if keep_exprs or name in kinky:
                        exprs[id(value)] = node
                else:
                    value = _vector(node, _take(values, len(node.items)), program, exact,
                                    make_vector)
                    if keep_exprs:
                        exprs[id(value)] = node
                done[id(node)] = value
                vpush(value)
                continue
            t = type(node)
            if t is Apply or t is Vector:
                value = done.get(id(node))
                if value is None:
                    push(node)
                    push(_EMIT)
                    stack.extend(reversed(node.args if t is Apply else node.items))
                    continue
            else:
                value = _leaf(node, env, inputs, constants, program, exact)
                if keep_exprs and id(value) not in exprs:
                    exprs[id(value)] = node
            vpush(value)
        result = values.pop()
        if stmt.name is not None:
            if not result._parents and (result.label is None or result.label in ops.CONSTANTS):
                # A name bound straight to a number or constant still gets its own node.
                result = apply(ops.TABLE["pos"], result)
            if not result.requires_grad and result._parents:
                # A named intermediate always gets its gradient, also where it is built
                # from numbers alone (a = 0.5; a*3 + x: df/da = 3, as retain_grad gives).
                result.requires_grad = True
            result.label = stmt.name if result.label is None else result.label
            env[stmt.name] = result
    return Graph(result, inputs, env, exprs, program)


_EMIT = object()  # on lower's stack: the node under it has its children's values
_KINKY = frozenset(name for name, op in ops.TABLE.items() if op.kinks)


def _leaf(node, env, inputs, constants, program, exact) -> Value:
    """The node of a name (an intermediate, else an input), a number or a constant."""
    t = type(node)
    if t is Name:
        value = env.get(node.id)
        if value is None:
            value = inputs.get(node.id)
        if value is None:
            raise missing_input(node.id, program, node.span, bound=inputs)
        return value
    if t is Num:
        value = constants.get(node.value)
        if value is None:
            data = _exact_literal(node, program.source) if exact else node.value
            if exact == "closed":
                from .closed import to_closed
                data = to_closed(data)
            value = constants[node.value] = Value(data, requires_grad=False)
        return value
    if t is Const:
        if exact == "closed":
            import sympy
            value = constants.get(node.id)
            if value is None:
                data = sympy.pi if node.id == "pi" else sympy.E
                value = constants[node.id] = Value(data, requires_grad=False, label=node.id)
            return value
        if exact:
            raise InexactError(f"--exact: {node.id} has no exact rational value",
                               source=program.source, span=node.span,
                               hint="drop --exact, or write a fraction such as 355/113")
        value = constants.get(node.id)
        if value is None:
            value = constants[node.id] = Value(node.value, requires_grad=False, label=node.id)
        return value
    raise TypeError(node)  # pragma: no cover


def _located(exc, node: Apply, program: Program):
    """An error of the engine at `node`, in the user's terms and pointing at it."""
    if isinstance(exc, DomainError):
        return _in_terms_of(exc, node, program)
    if exc.span is None:
        if isinstance(exc, InexactError):
            exc.message = f"{exc.message} (in {quoted(node)})"
        else:
            exc.message = f"in {quoted(node)}: {exc.message}"
        exc.source, exc.span = program.source, node.span
    return exc


def _take(values: list, n: int) -> list:
    """The last n values, removed from the list."""
    taken = values[len(values) - n:]
    del values[len(values) - n:]
    return taken


def _vector(node, items, program, exact, make_vector):
    if exact:
        raise UsageError("--exact computes with scalars only, and this is a vector",
                         source=program.source, span=node.span,
                         hint="drop --exact to compute with doubles")
    if make_vector is None:
        from .vectors import make_vector
    try:
        return make_vector(items, node)
    except ShapeError as exc:
        exc.source = program.source
        raise


def _exact_literal(node: Num, source: str):
    from .exact import literal
    if node.span is not None and source:
        return literal(source[node.span[0]:node.span[1]], node.value)
    from .exact import to_exact
    return to_exact(node.value)


def unbound_inputs(program: Program, bound) -> list[str]:
    """The program's free names (in order of first appearance) with no value in `bound`."""
    defined, out = set(), []
    for stmt in program.statements:
        for n in free_names(stmt.expr):
            if n not in defined and n not in bound and n not in out:
                out.append(n)
        if stmt.name is not None:
            defined.add(stmt.name)
    return out


def missing_input(name: str, program: Program, span, bound=None) -> UnknownName:
    """The error for a free name with no value: which `--at` to add, and a likely typo.

    With `bound` (the names that have values) every other missing input is named
    too, so that one run shows the whole `--at` to add; the caret stays on `name`.
    """
    missing = unbound_inputs(program, bound) if bound is not None else []
    if len(missing) > 1 and name in missing:
        missing.remove(name)
        missing.insert(0, name)
        return UnknownName(f"no values for {', '.join(missing)}", source=program.source,
                           span=span, hint="add --at " + ",".join(f"{n}=…" for n in missing))
    hint = f"add --at {name}=VALUE"
    for fname in sorted(ops.function_names(), key=len, reverse=True):
        rest = name[len(fname):]
        if name.startswith(fname) and rest and (rest[0].isalpha() or rest[0] == "_"):
            hint = f"did you mean {fname}({rest})? otherwise {hint}"
            break
    if name == "π":
        hint = f"did you mean pi? otherwise {hint}"
    return UnknownName(f"no value for '{name}'", source=program.source, span=span, hint=hint)


def _in_terms_of(exc: DomainError, node: Apply, program: Program) -> DomainError:
    text = quoted(node)
    parts = []
    for i in exc.show:
        if i >= len(node.args):
            continue
        arg = node.args[i]
        if isinstance(arg, (Num, Const)):
            continue
        value = exc.args_[i] if i < len(exc.args_) else None
        if exc.mask is not None and hasattr(value, "shape"):
            from .shapes import describe_elements
            parts.append(describe_elements(quoted(arg), value, exc.mask))
            continue
        try:
            shown = format_number(value)
        except (TypeError, ValueError):
            shown = str(value)
        parts.append(f"{quoted(arg)} = {shown}")
    where = f" at {', '.join(parts)}" if parts else ""
    if exc.overflow:
        message = f"{text} overflows{where}: the result is too large for a double (about 1.8e308)"
    else:
        message = f"{text} is undefined{where}: {exc.reason}"
    new = DomainError(message, op=exc.op, args=exc.args_, reason=exc.reason, show=exc.show,
                      overflow=exc.overflow, mask=exc.mask, source=program.source,
                      span=node.span)
    new.expr = node  # for callers that report per element or per row (batches)
    return new


def gradient_of(graph: Graph, name: str):
    """The gradient of an input or of a named intermediate after a backward pass."""
    node = graph.inputs.get(name)
    if node is None:
        node = graph.intermediates[name]
        if node is graph.output and node.grad is None:
            return 1.0
    return node.grad
