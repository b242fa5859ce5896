"""Closed forms for `--exact`: the backend `B` over SymPy numbers.

Rational arithmetic (exact.py) answers most `--exact` questions; a homework
answer at x = π/3 or with e^x needs √3/2, π and e. When the rational engine
says a value has no rational form, the same graph runs again here: the op
table's own value and derivative rules, on SymPy numbers, so sin(π/3) is √3/2
and the derivative of e^x at 1 is e. SymPy is imported only on this path.

A result that SymPy cannot decide (the sign of a number it cannot evaluate, a
domain check it cannot settle) raises InexactError, which the caller reports
as "no closed form", never a guessed number.
"""
from __future__ import annotations

from fractions import Fraction

import sympy as S

from .. import limits
from ..errors import DomainError, InexactError, LimitError
from .backends import ScalarPrimitives

MAX_OPS = 400   # a closed form longer than this is no longer what a book prints


def is_closed(value) -> bool:
    return type(value).__module__.startswith("sympy")


def to_closed(value):
    """A number as SymPy: Fractions and ints exactly, a double by its shortest decimal."""
    if is_closed(value):
        return value
    if isinstance(value, bool):
        return S.Integer(int(value))
    if isinstance(value, int):
        return S.Integer(value)
    if isinstance(value, Fraction):
        return S.Rational(value.numerator, value.denominator)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            # An infinite derivative (sqrt at 0) carried into a second backward pass.
            raise DomainError(f"--exact: a derivative is {value} here, which has no closed "
                              "form", hint="drop --exact to see PyTorch's inf/nan")
        return S.Rational(repr(value))
    raise InexactError("--exact: a vector has no closed form here",
                       hint="drop --exact to compute with doubles")


def _decided(cond) -> bool:
    """bool() of a SymPy comparison of numbers, or InexactError when SymPy cannot say."""
    if isinstance(cond, bool):
        return cond
    try:
        return bool(cond)
    except TypeError:
        raise InexactError("--exact: a comparison that SymPy cannot decide",
                           hint="drop --exact to compute with doubles") from None


def _sigmoid(x):
    return 1 / (1 + S.exp(-x))


class ClosedBackend(ScalarPrimitives):
    """The numeric backend `B` over SymPy numbers: every result exact, or an error."""

    name = "closed"
    exp = staticmethod(S.exp)
    log = staticmethod(S.log)
    sqrt = staticmethod(S.sqrt)
    sin = staticmethod(S.sin)
    cos = staticmethod(S.cos)
    tan = staticmethod(S.tan)
    asin = staticmethod(S.asin)
    acos = staticmethod(S.acos)
    atan = staticmethod(S.atan)
    atan2 = staticmethod(S.atan2)
    sinh = staticmethod(S.sinh)
    cosh = staticmethod(S.cosh)
    tanh = staticmethod(S.tanh)
    asinh = staticmethod(S.asinh)
    acosh = staticmethod(S.acosh)
    atanh = staticmethod(S.atanh)
    abs = staticmethod(S.Abs)
    sigmoid = staticmethod(_sigmoid)

    @staticmethod
    def expm1(x):
        return S.exp(x) - 1

    @staticmethod
    def log1p(x):
        return S.log(1 + x)

    @staticmethod
    def log2(x):
        return S.log(x, 2)

    @staticmethod
    def log10(x):
        return S.log(x, 10)

    @staticmethod
    def cbrt(x):
        return S.real_root(x, 3)

    @staticmethod
    def pow(x, y):
        return S.Pow(x, y)

    @staticmethod
    def softplus(x):
        return S.log(1 + S.exp(x))

    @staticmethod
    def where(cond, a, b):
        return to_closed(a if _decided(cond) else b)

    @staticmethod
    def sign(x):
        return S.sign(x)

    @staticmethod
    def step(x):
        return S.Integer(1) if _decided(x > 0) else S.Integer(0)

    @staticmethod
    def is_integer(x):
        return bool(getattr(x, "is_integer", False))

    @staticmethod
    def isfinite(x):
        return bool(x.is_finite)

    @staticmethod
    def maximum(*xs):
        return S.Max(*xs)

    @staticmethod
    def minimum(*xs):
        return S.Min(*xs)

    @staticmethod
    def count_equal(xs, target):
        return S.Integer(sum(1 for v in xs if S.simplify(v - target) == 0))

    @staticmethod
    def apply_seed():
        """The gradient of the output with respect to itself."""
        return S.Integer(1)

    @staticmethod
    def apply(op, datas):
        """One op forward on SymPy numbers: domain checks, value rule, size limit."""
        datas = [to_closed(d) for d in datas]
        for check in op.domain:
            if len(datas) > max(check.show) and not _decided(check.ok(ClosedBackend, *datas)):
                raise DomainError.at(op, datas, check)
        try:
            out = to_closed(op.value(ClosedBackend, *datas))
        except (ZeroDivisionError, ValueError) as exc:
            raise DomainError.at(op, datas, None, str(exc)) from None
        if out.has(S.zoo, S.nan, S.oo, -S.oo):
            raise DomainError.at(op, datas, None, "no finite value")
        if any(max(abs(r.p), r.q).bit_length() > limits.MAX_EXACT_BITS
               for r in out.atoms(S.Rational)):
            raise LimitError(f"a number in the closed form of {op.extra.get('call_name', op.name)}"
                             f" is too large for exact arithmetic (the limit is "
                             f"{limits.MAX_EXACT_BITS:,} bits)",
                             hint="drop --exact to compute with doubles")
        if S.count_ops(out) > MAX_OPS:
            raise InexactError("--exact: the closed form grows too long to print",
                               hint="drop --exact to compute with doubles")
        return out


def closed_inputs(out, datas):
    """(out, datas) as SymPy numbers, for the backward rules."""
    return to_closed(out), [to_closed(d) for d in datas]


__all__ = ["ClosedBackend", "is_closed", "to_closed", "closed_inputs"]
