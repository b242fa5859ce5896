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


def _log(x, b=None):
    return sp.log(x) if b is None else sp.log(x) / sp.log(b)


_OPS = {
    "add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
    "div": lambda x, y: x / y, "neg": lambda x: -x, "pos": lambda x: x,
    "pow": lambda x, y: x ** y,
    "exp": sp.exp, "log": _log, "log2": lambda x: sp.log(x) / sp.log(2),
    "log10": lambda x: sp.log(x) / sp.log(10), "sqrt": sp.sqrt,
    "cbrt": lambda x: sp.real_root(x, 3),
    "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "sec": sp.sec, "csc": sp.csc, "cot": sp.cot,
    "asin": sp.asin, "acos": sp.acos, "atan": sp.atan, "atan2": sp.atan2,
    "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh, "asinh": sp.asinh, "acosh": sp.acosh,
    "atanh": sp.atanh, "sigmoid": lambda x: 1 / (1 + sp.exp(-x)),
    "asec": sp.asec, "acsc": sp.acsc, "acot": sp.acot,
    "sech": sp.sech, "csch": sp.csch, "coth": sp.coth,
    "abs": sp.Abs, "sign": sp.sign,
}


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
            rule = _OPS.get(node.op)
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
