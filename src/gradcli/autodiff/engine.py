"""The autograd engine: Value, iterative topological order, backward, zero_grad.

Every operation goes through `apply`, which reads the op table: the domain
checks, the value rule, and later the derivative rule. The engine does no input
or output; it raises DomainError and reports kinks through a callback.
"""
from __future__ import annotations


import math
from fractions import Fraction

from .. import ops
from ..errors import DomainError, InexactError, ShapeError, UsageError
from .backends import MathBackend
from .local import (_get_closed_backend, backend_for, backend_inputs,  # noqa: F401 (re-exported)
                    local_derivative, numeric_d)

_INF = math.inf
_SCALARS = (float, int, Fraction)


class Value:
    """A node of the graph: `data`, `grad`, its parents and the op that made it."""

    # _walk: the token of the last topo_order walk that reached this node (a mark
    # instead of a set of ids: twice as fast, and no set of a million ints).
    __slots__ = ("data", "grad", "_parents", "_op", "requires_grad", "label", "_walk")

    def __init__(self, data, requires_grad: bool = True, label: str | None = None,
                 _parents: tuple = (), _op: ops.Op | None = None):
        if type(data) is not float:  # one test for the common case
            if type(data) is int or type(data) is bool:
                data = float(data)
            elif type(data) is list or type(data) is tuple:
                from .shapes import as_array
                data = as_array(data, "the data of a Value")
        self.data = data
        self.grad = 0
        self._parents = _parents
        self._op = _op
        self.requires_grad = requires_grad
        self.label = label
        self._walk = None

    @property
    def op(self) -> str | None:
        """The op-table name of the operation that produced this node (None for a leaf)."""
        return None if self._op is None else self._op.name

    @property
    def parents(self) -> tuple:
        return self._parents

    def __repr__(self) -> str:
        return f"Value(data={self.data!r}, grad={self.grad!r})"

    # -- arithmetic: each operator is the forward rule of one op-table record (_add_rule
    # and the rest, made below from the table); a plain number is a constant that needs
    # no gradient. The functions of the table (x.sin(), x.log(2)) are added below too.
    def __add__(self, o):
        return _add_rule(self, o if isinstance(o, Value) else Value(o, False))

    def __radd__(self, o):
        return _add_rule(o if isinstance(o, Value) else Value(o, False), self)

    def __sub__(self, o):
        return _sub_rule(self, o if isinstance(o, Value) else Value(o, False))

    def __rsub__(self, o):
        return _sub_rule(o if isinstance(o, Value) else Value(o, False), self)

    def __mul__(self, o):
        return _mul_rule(self, o if isinstance(o, Value) else Value(o, False))

    def __rmul__(self, o):
        return _mul_rule(o if isinstance(o, Value) else Value(o, False), self)

    def __truediv__(self, o):
        return _div_rule(self, o if isinstance(o, Value) else Value(o, False))

    def __rtruediv__(self, o):
        return _div_rule(o if isinstance(o, Value) else Value(o, False), self)

    def __pow__(self, o):
        return _pow_rule(self, o if isinstance(o, Value) else Value(o, False))

    def __rpow__(self, o):
        return _pow_rule(o if isinstance(o, Value) else Value(o, False), self)

    def __matmul__(self, o):
        return _matmul_rule(self, o if isinstance(o, Value) else Value(o, False))

    def __rmatmul__(self, o):
        return _matmul_rule(o if isinstance(o, Value) else Value(o, False), self)

    def __neg__(self):
        return _neg_rule(self)

    def __pos__(self):
        return self

    def backward(self, gradient=None, on_kink=None, on_step=None,
                 create_graph: bool = False, *, seed=None) -> None:
        """Fill .grad of every node this one depends on, in reverse topological order.

        `gradient` is the upstream gradient (PyTorch's name; `seed` is the same):
        it may be left out only for a scalar result, as in PyTorch, and for a
        vector result it gives the vector-Jacobian product.

        Leaves accumulate across calls (as in PyTorch); intermediate nodes are
        reset first, so a second call adds exactly one more gradient to the leaves.
        `on_kink(node, message)` is told of every convention used at a kink.
        `on_step(node, i, local, contribution)` is told of every gradient added to
        an input, just after it is added (local is None for a vjp rule): trace
        reads this very pass instead of computing its own.
        With `create_graph=True` every gradient is itself a Value, built from the
        op table's derivative rules applied to Values, so it can be differentiated
        again (second derivatives, the Hessian), as in PyTorch.
        """
        if gradient is None:
            gradient = seed
        seed = gradient
        if seed is None and getattr(self.data, "ndim", 0):
            raise ShapeError(f"a gradient can be created implicitly only for a scalar result, "
                             f"and this one has shape {tuple(self.data.shape)}",
                             hint="pass backward(gradient=...) with the upstream gradient, "
                                  "or reduce the result with sum(...)")
        order, arrays = _backward_order(self)
        if seed is None:
            t = type(self.data)
            seed = Fraction(1) if t is Fraction else 1.0 if t is float \
                else _get_closed_backend().apply_seed() if t.__module__.startswith("sympy") \
                else 1.0
        if create_graph:
            if not isinstance(seed, Value):
                seed = Value(seed, requires_grad=False)
            if self._parents:
                self.grad = seed
            else:
                _accumulate(self, seed)
            _backward_graph(order, on_kink)
        elif arrays:
            # Arrays: inf and nan in derivatives are answers (reported by the caller), not noise.
            import numpy as np
            with np.errstate(all="ignore"):
                self._backward(order, seed, on_kink, on_step)
        else:
            self._backward(order, seed, on_kink, on_step)

    def _backward(self, order, seed, on_kink, on_step=None) -> None:
        if self._parents:
            self.grad = seed
        else:
            _accumulate(self, seed)
        if on_step is not None:
            for node in reversed(order):
                if node._op is not None:
                    _backward_step(node, on_kink, on_step)
            return
        # Float scalars, the common case: the table's rules called straight on floats
        # (what local_derivative does for them) without its dispatch per call; a first
        # contribution replaces the int 0, as _accumulate does. Everything else, and
        # any float rule that fails (IEEE inf/nan), takes the general step.
        rules_of = _FLOAT_RULES if on_kink is None else _SMOOTH_FLOAT_RULES
        D = _MATH_D
        for node in reversed(order):
            op = node._op
            if op is None:
                continue
            g = node.grad
            rules = rules_of.get(id(op))
            if rules is not None and type(g) is float:
                parents = node._parents
                if len(parents) == 2:
                    a, b = parents
                    x = a.data
                    y = b.data
                    if type(x) is float and type(y) is float:
                        out = node.data
                        try:
                            da = rules[0](D, out, x, y) if a.requires_grad else None
                            db = rules[1](D, out, x, y) if b.requires_grad else None
                        except (ZeroDivisionError, OverflowError, ValueError):
                            _backward_step(node, on_kink, None)
                            continue
                        if da is not None:
                            c = g * da
                            ga = a.grad
                            a.grad = c if type(ga) is int and ga == 0 else ga + c
                        if db is not None:
                            c = g * db
                            gb = b.grad
                            b.grad = c if type(gb) is int and gb == 0 else gb + c
                        continue
                elif len(parents) == 1:
                    a = parents[0]
                    x = a.data
                    if type(x) is float:
                        if a.requires_grad:
                            try:
                                c = g * rules[0](D, node.data, x)
                            except (ZeroDivisionError, OverflowError, ValueError):
                                _backward_step(node, on_kink, None)
                                continue
                            ga = a.grad
                            a.grad = c if type(ga) is int and ga == 0 else ga + c
                        continue
            _backward_step(node, on_kink, None)

    def zero_grad(self) -> None:
        """Set .grad to zero on this node and every node it depends on."""
        for node in topo_order(self):
            node.grad = 0


def forward_rule(op: ops.Op, arity: int):
    """`apply(op, ...)` for `arity` Values (1 or 2), with a shortcut for floats.

    The shortcut runs the table's own rules in `apply`'s order (the domain checks,
    then the value rule) without its generic dispatch. Anything else goes through
    `apply`, which computes or refuses it as always: arrays and Fractions, a failed
    check, an error in the rule, or a result that is not a finite float (whether
    an inf or nan is an overflow depends on the inputs).
    """
    value = op.value
    checks = tuple(c.ok for c in op.domain if max(c.show) < arity)
    B = MathBackend
    if arity == 1:
        def forward(a):
            x = a.data
            if type(x) is float:
                for ok in checks:
                    if not ok(B, x):
                        break
                else:
                    try:
                        out = value(B, x)
                    except (ArithmeticError, ValueError):
                        out = None
                    if type(out) is float and out - out == 0:
                        return Value(out, a.requires_grad, None, (a,), op)
            return apply(op, a)
    else:
        def forward(a, b):
            x = a.data
            y = b.data
            if type(x) is float and type(y) is float:
                for ok in checks:
                    if not ok(B, x, y):
                        break
                else:
                    try:
                        out = value(B, x, y)
                    except (ArithmeticError, ValueError):
                        out = None
                    if type(out) is float and out - out == 0:
                        return Value(out, a.requires_grad or b.requires_grad, None, (a, b), op)
            return apply(op, a, b)
    return forward


# op name -> forward_rule(op, 1 or 2), for every op that takes that many arguments.
UNARY = {name: forward_rule(op, 1) for name, op in ops.TABLE.items()
         if op.accepts(1) and name != "stack"}
BINARY = {name: forward_rule(op, 2) for name, op in ops.TABLE.items()
          if op.accepts(2) and name != "stack"}


# The forward rule of each operator (Value's dunder methods call these).
_add_rule, _sub_rule, _mul_rule = BINARY["add"], BINARY["sub"], BINARY["mul"]
_div_rule, _pow_rule, _matmul_rule = BINARY["div"], BINARY["pow"], BINARY["matmul"]
_neg_rule = UNARY["neg"]


def _table_methods() -> None:
    """x.sin(), x.log(2), x.max(y, z): every function of the op table is a method of Value.

    Made from the table (aliases too), so that the table stays the one list of
    functions; a __getattr__ would do the same but slow every attribute access.
    """
    for name, op in ops.TABLE.items():
        if op.is_operator and "call_name" not in op.extra:
            continue

        def method(self, *others, _op=op, _unary=UNARY.get(name)):
            if not others and _unary is not None:
                return _unary(self)
            return apply(_op, self, *others)
        method.__name__ = op.extra.get("call_name", name)
        method.__doc__ = op.doc
        for method_name in (op.extra.get("call_name", name), *op.aliases):
            setattr(Value, method_name, method)


_table_methods()


def _float_rules(op):
    """The per-argument rules backward may call straight on floats, or None.

    An op's own rules, unless numeric ones replace them: those too when they are
    only a more accurate form of the same function (extra["stable_form"]), never
    when they are a convention (max/min ties, the exponent of 0**y).
    """
    rules = op.numeric_rules(MathBackend)
    if rules is None or any(op.numeric_rule(i) == "convention" for i in range(len(rules))):
        return None
    return rules


_BY_ID = {id(op): op for op in ops.TABLE.values()}
# Ops (by id: records are not hashable) whose derivative on floats is one rule per
# argument: backward calls these directly for float scalars.
_FLOAT_RULES = {id(op): rules for op in ops.TABLE.values()
                if (rules := _float_rules(op)) is not None}
# The same without the ops that have kinks: where kinks are reported, those take the
# general step, which reports them.
_SMOOTH_FLOAT_RULES = {key: rules for key, rules in _FLOAT_RULES.items()
                       if not _BY_ID[key].kinks}
_MATH_D = numeric_d(MathBackend)


def _is_zero(g) -> bool:
    return type(g) is int and g == 0


def _accumulate(node, contribution) -> None:
    """node.grad += contribution, where the int 0 of an untouched node is replaced.

    Replacing (not adding to) the int 0 keeps the contribution's own type: a
    Fraction stays exact, an array keeps its shape, a Value stays a graph.
    """
    g = node.grad
    node.grad = contribution if type(g) is int and g == 0 else g + contribution


def _backward_step(node, on_kink, on_step) -> None:
    """One node of the backward pass, for any data: arrays, Fractions, inf and nan."""
    op = node._op
    parents = node._parents
    g = node.grad
    datas = [p.data for p in parents]
    if op.kinks and on_kink is not None:
        _report_kinks(node, op, datas, on_kink)
    if op.vjp is not None:
        contributions = op.vjp(backend_for(datas + [g]), g, node.data, *datas)
        for i, (p, c) in enumerate(zip(parents, contributions)):
            if p.requires_grad and c is not None:
                c = _fit(c, p.data)
                _accumulate(p, c)
                if on_step is not None:
                    on_step(node, i, None, c)
        return
    B = backend_for(datas)  # once per node: max/min may have thousands of arguments
    out, inputs = backend_inputs(B, node.data, datas)
    cache = {}  # what the rules of this node share across its arguments (Op.partial)
    for i, p in enumerate(parents):
        if p.requires_grad:
            try:
                d = local_derivative(op, i, out, inputs, B, converted=True, cache=cache)
            except InexactError as exc:
                exc.node, exc.wrt_index = node, i
                raise
            # A local derivative of exactly 1 passes the gradient on untouched
            # (nothing is updated in place, so sharing the array is safe).
            c = _fit(g if type(d) is int and d == 1 else g * d, p.data)
            _accumulate(p, c)
            if on_step is not None:
                on_step(node, i, d, c)


class _ValueD:
    """The namespace `D` over Values: D.cos(x) applies the table's cos to a Value."""

    def __getattr__(self, name):
        op = ops.lookup(name)
        if op is None:
            raise AttributeError(name)

        def fn(*args):
            return apply(op, *args)
        setattr(self, name, fn)
        return fn


VALUE_D = _ValueD()


class Unformed(Value):
    """A local derivative that could not be built as a graph (its rule is undefined here).

    It holds the number the engine uses (PyTorch's inf/nan convention) and is a
    leaf that needs a gradient, so a later pass can tell which second
    derivatives went through it and report them as undefined.
    """

    __slots__ = ()


def _backward_graph(order, on_kink) -> None:
    """The backward pass of `backward(create_graph=True)`: gradients as Values."""
    for node in reversed(order):
        op = node._op
        if op is None:
            continue
        parents = node._parents
        g = node.grad
        if _is_zero(g):
            continue
        if op.kinks and on_kink is not None:
            _report_kinks(node, op, [p.data for p in parents], on_kink)
        if op.vjp is not None:
            raise UsageError(f"second derivatives through {op.name} are not supported")
        cache = {}
        for i, p in enumerate(parents):
            if not p.requires_grad:
                continue
            try:
                local = op.partial(VALUE_D, i, node, parents, cache)
            except DomainError:
                # The rule is undefined here (1/(2*sqrt(x)) at 0): keep the engine's
                # number, marked so that second derivatives through it become nan.
                datas = [q.data for q in parents]
                local = Unformed(local_derivative(op, i, node.data, datas), label=op.name)
            _accumulate(p, g * local)


def topo_order(root: Value) -> list:
    """`root` and the nodes under it that need a gradient, parents before children.

    An iterative depth-first walk that takes the last parent first: the order
    trace has always shown, and the order in which gradients are summed. (walk.py's
    walk, written out: in a backward pass of a million nodes the callback per node
    cost more than the derivatives.) Parents are pushed all at once; those that
    need no gradient, or that this walk has reached already, are skipped when popped.
    """
    token = object()  # this walk's mark
    root._walk = token
    if not root._parents:
        return [root]
    order = []
    emit = order.append
    stack = [root, _EMIT]
    stack.extend(root._parents)
    push = stack.append
    pop = stack.pop
    extend = stack.extend
    while stack:
        node = pop()
        if node is _EMIT:
            emit(pop())
            continue
        if node._walk is token or not node.requires_grad:
            continue
        node._walk = token
        parents = node._parents
        if parents:
            push(node)
            push(_EMIT)  # below the parents: popped once they are all in the order
            extend(parents)
        else:
            emit(node)
    return order


def _backward_order(root: Value) -> tuple[list, bool]:
    """topo_order(root) with the gradients of its inner nodes reset to 0, and whether
    any node holds an array (backward then lets NumPy's inf and nan through quietly)."""
    order = topo_order(root)
    arrays = False
    for node in order:
        if node._parents:
            node.grad = 0
        if type(node.data) is not float and type(node.data) not in _SCALARS:
            arrays = True
    return order, arrays


_EMIT = object()  # on topo_order's stack: the node under it is complete


def as_value(x) -> Value:
    """A Value as it is; a plain number becomes a constant that needs no gradient."""
    if isinstance(x, Value):
        return x
    return Value(x, requires_grad=False)


def apply(op: ops.Op, *args) -> Value:
    """Run one op forward: domain checks, value rule, overflow check, a new node."""
    parents = args
    for a in args:
        if not isinstance(a, Value):
            parents = tuple([a if isinstance(a, Value) else as_value(a) for a in args])
            break
    datas = [p.data for p in parents]
    B = MathBackend
    for d in datas:
        if type(d) is not float:
            B = backend_for(datas)
            break
    if B is MathBackend:
        for check in op.domain:
            if len(datas) > max(check.show):
                if not check.ok(B, *datas):
                    raise DomainError.at(op, datas, check)
        try:
            out = op.value(B, *datas)
        except OverflowError:
            raise DomainError.overflow(op, datas) from None
        except (ValueError, ZeroDivisionError) as exc:
            raise DomainError.at(op, datas, None, str(exc)) from None
        # out - out is nan exactly when out is inf or nan.
        if out - out != 0 and all(-_INF < d < _INF for d in datas):
            raise DomainError.overflow(op, datas)
    else:
        out = B.apply(op, datas) if hasattr(B, "apply") else _apply_other(B, op, datas)
    requires = False
    for p in parents:
        if p.requires_grad:
            requires = True
            break
    return Value(out, requires, None, parents, op)


def _apply_other(B, op, datas):
    """Forward on arrays: domain failures raise with the mask of bad elements."""
    import numpy as np
    if op.vjp is None and len(datas) > 1:
        from .shapes import check_broadcast
        check_broadcast(op, datas)
    with np.errstate(all="ignore"):
        for check in op.domain:
            if len(datas) > max(check.show):
                ok = np.asarray(check.ok(B, *datas))
                if not ok.all():
                    raise DomainError.at(op, datas, check, mask=~ok)
        out = op.value(B, *datas)
        if np.isfinite(out).all():
            return out  # the common case: nothing can have overflowed
        if op.vjp is None:
            finite_in = np.ones(np.shape(out), dtype=bool)
            for d in datas:
                finite_in = finite_in & np.isfinite(d)
        else:  # a reduction: its result elements do not line up with its inputs'
            finite_in = all(np.isfinite(d).all() for d in datas)
        bad = ~np.isfinite(out) & finite_in
    if np.any(bad):
        raise DomainError.overflow(op, datas, mask=bad)
    return out


def _report_kinks(node, op, datas, on_kink):
    B = backend_for(datas)
    for kink in op.kinks:
        if kink.wrt is not None and not node._parents[kink.wrt].requires_grad:
            continue
        if kink.wrt is None and not any(p.requires_grad for p in node._parents):
            continue
        try:
            hit = kink.where(B, *datas)
        except (ValueError, ZeroDivisionError, OverflowError):
            continue
        if B.any(hit):
            on_kink(node, kink)


def _fit(g, data):
    """Sum a broadcast gradient back to the shape of the data it belongs to."""
    gshape = getattr(g, "shape", ())
    dshape = getattr(data, "shape", ())
    if gshape == dshape:
        return g
    import numpy as np
    g = np.asarray(g)
    while g.ndim > len(dshape):
        g = g.sum(axis=0)
    for axis, n in enumerate(dshape):
        if n == 1 and g.shape[axis] != 1:
            g = g.sum(axis=axis, keepdims=True)
    if dshape == ():
        return float(g)
    return np.broadcast_to(g, dshape).copy() if g.shape != dshape else g


def graph_nodes(out, inputs=()) -> list:
    """Every node under `out` once: `inputs` first, then children after their parents
    (left to right), with an explicit stack."""
    order = list(inputs)
    seen = {id(v) for v in inputs}
    stack = [(out, False)]
    while stack:
        v, done = stack.pop()
        if done:
            order.append(v)
            continue
        if id(v) in seen:
            continue
        seen.add(id(v))
        stack.append((v, True))
        for p in reversed(v._parents):
            if id(p) not in seen:
                stack.append((p, False))
    return order
