"""The numeric backend `B` over mpmath numbers: the op table's value rules in arbitrary
precision, at the precision of the mpmath context they run in.

eval's precision check (tasks/precision.py) re-evaluates a suspect graph here, and
taylor's power series (series.py) run here where a coefficient's digits would
cancel in doubles. mpmath is imported only when the backend is first asked for.
"""
from __future__ import annotations

from .backends import ScalarPrimitives


class PreciseBackend(ScalarPrimitives):
    """The value rules' primitives in mpmath (filled in by precise_backend())."""

    name = "mpmath"


_ready = []


def precise_backend():
    """PreciseBackend, its primitives set from mpmath on first use."""
    B = PreciseBackend
    if _ready:
        return B
    import mpmath as mp
    for name in ("exp", "expm1", "log", "log1p", "sqrt", "cbrt", "sin", "cos", "tan", "asin",
                 "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"):
        setattr(B, name, staticmethod(getattr(mp, name)))
    # the real cube root, as the table's cbrt (mpmath's is the principal complex one)
    B.cbrt = staticmethod(lambda x: mp.cbrt(x) if x >= 0 else -mp.cbrt(-x))
    B.abs = staticmethod(mp.fabs)
    B.pow = staticmethod(mp.power)
    B.log2 = staticmethod(lambda x: mp.log(x, 2))
    B.log10 = staticmethod(mp.log10)
    B.isfinite = staticmethod(mp.isfinite)
    B.where = staticmethod(lambda cond, a, b: a if cond else b)
    B.sign = staticmethod(lambda x: mp.mpf(1) if x > 0 else mp.mpf(-1) if x < 0 else mp.mpf(0))
    B.step = staticmethod(lambda x: mp.mpf(1) if x > 0 else mp.mpf(0))
    B.is_integer = staticmethod(lambda x: mp.isint(x))
    B.sigmoid = staticmethod(lambda x: 1 / (1 + mp.exp(-x)))
    B.softplus = staticmethod(lambda x: mp.log1p(mp.exp(x)))
    B.count_equal = staticmethod(lambda xs, target: mp.mpf(sum(1 for v in xs if v == target)))
    _ready.append(True)
    return B


class NotReal(ArithmeticError):
    """A value or local derivative that is complex in arbitrary precision (sqrt of a
    difference that rounded to 0 in doubles and is a little below 0 exactly)."""


def _real(x, mp):
    if isinstance(x, mp.mpc):
        raise NotReal(x)
    return x


def run_graph(nodes, output, leaf, mp, backward: bool = True) -> tuple[dict, dict]:
    """The graph's values and gradients (id(node) -> mpf) at mpmath's working precision.

    `nodes` are graph_nodes(output), parents first; `leaf(node)` gives a leaf's exact
    value (its double, or the closed form the user typed); `backward=False`: values
    only. Raises ArithmeticError,
    ValueError or DomainError where the graph is not real and defined there.
    """
    from .engine import numeric_d, topo_order
    B = getattr(mp, "value_rules", None) or precise_backend()  # decimalmath's, or mpmath's
    D = numeric_d(B)
    value = {}
    for node in nodes:
        if node._op is None:
            value[id(node)] = leaf(node)
        else:
            value[id(node)] = _real(node._op.value(B, *[value[id(p)] for p in node._parents]),
                                    mp)
    grad = {id(output): mp.mpf(1)}
    if not output.requires_grad or not backward:
        return value, grad
    for node in reversed(topo_order(output)):
        op = node._op
        g = grad.get(id(node))
        if op is None or g is None:
            continue
        args = [value[id(p)] for p in node._parents]
        out = value[id(node)]
        cache = {}
        for i, p in enumerate(node._parents):
            if not p.requires_grad:
                continue
            d = op.numeric_partial(B, D, i, out, args, cache)
            grad[id(p)] = grad.get(id(p), 0) + g * _real(d, mp)
    return value, grad
