"""An expression of one variable as SymPy, for the exact one-variable tasks (analyze, extrema).

The conversion is iterative (a postorder walk with a table of SymPy meanings).
Two of the language's functions are not SymPy's principal ones on the reals: a
power written with an odd-denominator fraction (x^(2/3), cbrt) is the real
root, and abs has a corner. Each becomes a marker, RealPow(b, p/q) or
Corner(b), which `on_piece` turns into principal SymPy on an interval where b
keeps one sign: there a real root is s^p*(s*b)^(p/q) with s*b > 0, which
SymPy differentiates, solves and simplifies as it does any power. SymPy is
imported only by the modules that need exact work.
"""
from __future__ import annotations

from fractions import Fraction

import sympy as S

from ..errors import GradcliError, UsageError
from ..language.expr import Apply, Const, Name, Num, odd_root_exponent


class RealPow(S.Function):
    """b^y for y = p/q with q odd: the real root, sign(b)^p*|b|^y."""

    @classmethod
    def eval(cls, b, y):
        if b.is_number and b.is_real:
            return S.sign(b) ** y.p * S.Abs(b) ** y
        return None


class Corner(S.Function):
    """|b|, kept apart from SymPy's Abs until the sign of b is known on a piece."""

    @classmethod
    def eval(cls, b):
        if b.is_number and b.is_real:
            return S.Abs(b)
        return None


def _function(name: str, args: list, what: str):
    """The SymPy value of the language's function `name` at `args`: SymPy's function of the
    same name where it has one (its conventions are the table's: asec(x) = acos(1/x), ...),
    else the op table's own value rule over SymPy (log2, sigmoid, softplus)."""
    from .. import ops
    op = ops.lookup(name)
    if name == "cbrt":
        return RealPow(args[0], S.Rational(1, 3))
    if op is not None and op.name == "abs":
        return Corner(args[0])
    if op is None or op.jumps or op.vjp is not None or (len(args) != 1 and op.name != "log"):
        raise UsageError(f"{what} studies functions built from powers, roots, exp, log, "
                         f"trig and hyperbolic functions and abs; '{name}' is not among them")
    own = getattr(S, op.name, None)
    if isinstance(own, type) and issubclass(own, S.Function):
        return own(*args)
    from ..autodiff.closed import ClosedBackend
    try:
        return op.value(ClosedBackend, *args)
    except (GradcliError, TypeError, ValueError):
        raise UsageError(f"{what} has no exact form of '{name}' to study") from None


_ARITHMETIC = {
    "add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
    "div": lambda x, y: x / y, "neg": lambda x: -x, "pos": lambda x: x,
}


def number(value):
    """A literal exactly: 0.1 is 1/10, as typed."""
    if isinstance(value, bool):
        return S.Integer(int(value))
    if isinstance(value, int):
        return S.Integer(value)
    if isinstance(value, Fraction):
        return S.Rational(value.numerator, value.denominator)
    return S.Rational(repr(float(value)))


def to_sympy(root, variable: str, what: str):
    """The Expr `root` as SymPy in the real symbol `variable`; UsageError for a function
    the exact tasks do not handle (sign, step, max, min, ...), naming `what` needs it."""
    x = S.Symbol(variable, real=True)
    done: dict = {}
    stack = [(root, False)]
    while stack:
        node, ready = stack.pop()
        if id(node) in done:
            continue
        t = type(node)
        if t is Num:
            done[id(node)] = number(node.value)
        elif t is Name:
            if node.id != variable:
                raise UsageError(f"{what} works with one variable, {variable}; "
                                 f"'{node.id}' has no value",
                                 hint="give the other names values in the expression")
            done[id(node)] = x
        elif t is Const:
            done[id(node)] = S.pi if node.id == "pi" else S.E
        elif t is Apply:
            if not ready:
                stack.append((node, True))
                stack.extend((a, False) for a in node.args if id(a) not in done)
                continue
            args = [done[id(a)] for a in node.args]
            if node.op == "pow":
                y = odd_root_exponent(node.args[1])
                done[id(node)] = (RealPow(args[0], S.Rational(y.numerator, y.denominator))
                                  if y is not None else args[0] ** args[1])
                continue
            arithmetic = _ARITHMETIC.get(node.op)
            done[id(node)] = (arithmetic(*args) if arithmetic is not None
                              else _function(node.op, args, what))
        else:
            raise UsageError(f"{what} works with a scalar expression of one variable")
    return done[id(root)], x


def branch_bases(f) -> list:
    """The bases b of every real root and corner in f: where b changes sign, the
    principal form of f changes."""
    return [a.args[0] for a in f.atoms(RealPow, Corner)]


def on_piece(f, x, point):
    """f as principal SymPy on the interval around `point` where no base changes sign."""
    def real_pow(b, y):
        s = 1 if (b.subs(x, point)).evalf(30) > 0 else -1
        return (s ** y.p) * (s * b) ** y if s < 0 else b ** y

    def corner(b):
        return b if (b.subs(x, point)).evalf(30) > 0 else -b
    return f.replace(RealPow, real_pow).replace(Corner, corner)
