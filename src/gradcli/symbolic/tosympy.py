"""A formula of the language as a SymPy expression, for proofs of equality and closed values.

The vector-calculus checker decides "your formula is the right one" by SymPy
simplifying the difference to 0; this is the bridge. Symbols are real. The
nodes are visited in post-order (no recursion, so a deep formula cannot
overflow the stack). An operation without a SymPy meaning here raises
NoSympyForm, and the caller falls back to comparing numbers. SymPy is
imported only when this module is.
"""
from __future__ import annotations

import sympy as sp

from ..language.expr import Apply, Const, Name, Num, Vector, postorder


class NoSympyForm(Exception):
    """The formula uses an operation that has no SymPy meaning here."""


# The arithmetic operators; a function of the op table is SymPy's function of the same
# name, or where the names or conventions differ, the `_op_<name>` function below.
_ARITHMETIC = {
    "add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
    "div": lambda x, y: x / y, "neg": lambda x: -x, "pos": lambda x: x,
    "pow": lambda x, y: x ** y,
}


def _op_log(x, b=None):
    return sp.log(x) if b is None else sp.log(x) / sp.log(b)


def _op_log2(x):
    return sp.log(x) / sp.log(2)


def _op_log10(x):
    return sp.log(x) / sp.log(10)


def _op_sqrt(x):
    return sp.sqrt(x)


def _op_cbrt(x):
    return sp.real_root(x, 3)


def _op_sigmoid(x):
    return 1 / (1 + sp.exp(-x))


def _op_abs(x):
    return sp.Abs(x)


def _rule(op: str):
    """The SymPy meaning of an op-table name, or None."""
    from .. import ops
    if op in _ARITHMETIC:
        return _ARITHMETIC[op]
    own = globals().get(f"_op_{op}")
    if own is not None:
        return own
    if op not in ops.function_names():
        return None
    found = getattr(sp.functions, op, None)
    return found if isinstance(found, type) and issubclass(found, sp.Function) else None



def symbol(name: str):
    return sp.Symbol(name, real=True)


def to_sympy(root):
    """`root` (an inlined expression, or a Vector of them) as SymPy; decimals exactly."""
    done: dict = {}
    for node in postorder(root):
        if isinstance(node, Num):
            v = node.value
            if isinstance(v, float):
                value = sp.Rational(repr(v))
            elif isinstance(v, int):
                value = sp.Integer(v)
            else:
                value = sp.Rational(str(v))
        elif isinstance(node, Name):
            value = symbol(node.id)
        elif isinstance(node, Const):
            if node.id not in ("pi", "e"):
                raise NoSympyForm(node.id)
            value = sp.pi if node.id == "pi" else sp.E
        elif isinstance(node, Apply):
            rule = _rule(node.op)
            if rule is None:
                raise NoSympyForm(node.op)
            value = rule(*[done[id(a)] for a in node.args])
        elif isinstance(node, Vector):
            value = [done[id(a)] for a in node.items]
        else:
            raise NoSympyForm(type(node).__name__)
        done[id(node)] = value
    return done[id(root)]


def is_zero(difference, cheap: bool = False) -> bool | None:
    """True when SymPy proves the difference is 0, False when it proves it is not, else None.

    The cheap rewrites first: most textbook differences vanish on expansion; `cheap`
    stops before simplify, which can take a tenth of a second."""
    for step in (sp.expand, sp.cancel) + (() if cheap else (sp.simplify,)):
        try:
            d = step(difference)
        except Exception:  # SymPy raises many kinds on hard input; then it cannot decide
            return None
        if d == 0:
            return True
        if d.is_number:
            nonzero = d.is_zero is False
            return False if nonzero else None
    return None
