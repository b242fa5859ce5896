"""Numeric primitives behind the op table's value rules.

A value rule is written once against a backend `B` (B.exp, B.log, B.where, ...)
and runs on floats through `math` or on arrays through NumPy. NumPy is imported
only when an array backend is asked for, so scalar work starts fast.
"""
from __future__ import annotations

import math


class ScalarPrimitives:
    """What the float and exact backends share: Python numbers, one element at a time."""

    @staticmethod
    def maximum(*xs):
        return max(xs)

    @staticmethod
    def minimum(*xs):
        return min(xs)

    @staticmethod
    def any(x):
        return bool(x)

    # Reductions on a scalar: the scalar is a vector of one element.
    @staticmethod
    def sum(x):
        return x

    @staticmethod
    def mean(x):
        return x

    @staticmethod
    def size(x):
        return 1.0

    @staticmethod
    def spread(g, x):
        return g

    @staticmethod
    def dot(x, y):
        from .shapes import check_dot
        check_dot((), ())

    @staticmethod
    def matmul(x, y):
        from .shapes import check_matmul
        check_matmul((), ())

    @staticmethod
    def stack(xs):
        return numpy_backend().stack(xs)


def _cbrt(x: float) -> float:
    """The real cube root, keeping the sign (math.cbrt arrived only in Python 3.11)."""
    x = float(x)
    if x == 0.0 or not math.isfinite(x):
        return x
    r = math.copysign(abs(x) ** (1.0 / 3.0), x)
    # One Newton step on r**3 = x removes the last-digit error of the power.
    r -= (r - x / (r * r)) / 3.0
    whole = round(r)
    if whole ** 3 == x:  # perfect cubes are exact, as with math.cbrt
        return float(whole)
    return r


class MathBackend(ScalarPrimitives):
    """Primitives on Python floats, through the math module."""

    name = "math"
    exp = staticmethod(math.exp)
    expm1 = staticmethod(math.expm1)
    log = staticmethod(math.log)
    log1p = staticmethod(math.log1p)
    log2 = staticmethod(math.log2)
    log10 = staticmethod(math.log10)
    sqrt = staticmethod(math.sqrt)
    cbrt = staticmethod(getattr(math, "cbrt", None) or _cbrt)
    sin = staticmethod(math.sin)
    cos = staticmethod(math.cos)
    tan = staticmethod(math.tan)
    asin = staticmethod(math.asin)
    acos = staticmethod(math.acos)
    atan = staticmethod(math.atan)
    atan2 = staticmethod(math.atan2)
    sinh = staticmethod(math.sinh)
    cosh = staticmethod(math.cosh)
    tanh = staticmethod(math.tanh)
    asinh = staticmethod(math.asinh)
    acosh = staticmethod(math.acosh)
    atanh = staticmethod(math.atanh)
    abs = staticmethod(abs)
    pow = staticmethod(math.pow)
    isfinite = staticmethod(math.isfinite)

    @staticmethod
    def where(cond, a, b):
        return a if cond else b

    @staticmethod
    def sign(x):
        return 1.0 if x > 0 else (-1.0 if x < 0 else 0.0 * x)

    @staticmethod
    def step(x):
        return 1.0 if x > 0 else 0.0

    @staticmethod
    def is_integer(x):
        return float(x).is_integer()

    @staticmethod
    def sigmoid(x):
        # Two branches so that exp never overflows: sigmoid(-800) is 0, not an error.
        if x >= 0:
            return 1.0 / (1.0 + math.exp(-x))
        z = math.exp(x)
        return z / (1.0 + z)

    @staticmethod
    def softplus(x):
        # log(1 + e^x) = max(x, 0) + log1p(e^-|x|): finite wherever the result is.
        return max(x, 0.0) + math.log1p(math.exp(-abs(x)))

    @staticmethod
    def count_equal(xs, target):
        return float(sum(1 for v in xs if v == target))



_numpy_backend = None


def numpy_backend():
    """The array backend, built (and NumPy imported) on first use."""
    global _numpy_backend
    if _numpy_backend is None:
        _numpy_backend = _make_numpy_backend()
    return _numpy_backend


def _make_numpy_backend():
    import numpy as np

    class NumpyBackend:
        """Primitives on NumPy arrays (and NumPy scalars), element-wise."""

        name = "numpy"
        exp = staticmethod(np.exp)
        expm1 = staticmethod(np.expm1)
        log = staticmethod(np.log)
        log1p = staticmethod(np.log1p)
        log2 = staticmethod(np.log2)
        log10 = staticmethod(np.log10)
        sqrt = staticmethod(np.sqrt)
        cbrt = staticmethod(np.cbrt)
        sin = staticmethod(np.sin)
        cos = staticmethod(np.cos)
        tan = staticmethod(np.tan)
        asin = staticmethod(np.arcsin)
        acos = staticmethod(np.arccos)
        atan = staticmethod(np.arctan)
        atan2 = staticmethod(np.arctan2)
        sinh = staticmethod(np.sinh)
        cosh = staticmethod(np.cosh)
        tanh = staticmethod(np.tanh)
        asinh = staticmethod(np.arcsinh)
        acosh = staticmethod(np.arccosh)
        atanh = staticmethod(np.arctanh)
        abs = staticmethod(np.abs)
        pow = staticmethod(np.power)
        isfinite = staticmethod(np.isfinite)
        where = staticmethod(np.where)
        sign = staticmethod(np.sign)

        @staticmethod
        def step(x):
            return np.where(x > 0, 1.0, 0.0)

        @staticmethod
        def is_integer(x):
            return np.equal(np.mod(x, 1.0), 0.0)

        @staticmethod
        def sigmoid(x):
            # 1/(1 + e^-x) is stable in IEEE arithmetic: e^-x overflowing to inf gives 0.
            with np.errstate(over="ignore"):
                if type(x) is not np.ndarray or x.dtype != np.float64:
                    return 1.0 / (1.0 + np.exp(-x))
                # The same steps in one buffer: a temporary per step costs more than the
                # arithmetic on a large array (each is fresh memory to fault in).
                t = np.negative(x)
                np.exp(t, out=t)
                np.add(t, 1.0, out=t)
                return np.divide(1.0, t, out=t)

        @staticmethod
        def softplus(x):
            return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))

        @staticmethod
        def maximum(*xs):
            out = xs[0]
            for x in xs[1:]:
                out = np.maximum(out, x)
            return out

        @staticmethod
        def minimum(*xs):
            out = xs[0]
            for x in xs[1:]:
                out = np.minimum(out, x)
            return out

        @staticmethod
        def count_equal(xs, target):
            total = 0.0
            for v in xs:
                total = total + np.equal(v, target)
            return total

        @staticmethod
        def any(x):
            return bool(np.any(x))

        # Reductions return Python floats, so the scalar path takes over after them.
        @staticmethod
        def sum(x):
            return _scalar(np.sum(x))

        @staticmethod
        def mean(x):
            return _scalar(np.mean(x))

        @staticmethod
        def size(x):
            return float(np.size(x))

        @staticmethod
        def spread(g, x):
            """The upstream gradient `g` of a reduction, spread over the shape of `x`."""
            return np.broadcast_to(g, np.shape(x))

        @staticmethod
        def dot(x, y):
            from .shapes import check_dot
            check_dot(np.shape(x), np.shape(y))
            return _scalar(np.dot(x, y))

        @staticmethod
        def matmul(x, y):
            from .shapes import check_matmul
            check_matmul(np.shape(x), np.shape(y))
            return _scalar(np.matmul(x, y))

        @staticmethod
        def stack(xs):
            return np.stack([np.asarray(x, dtype=float) for x in xs])

        @staticmethod
        def matmul_vjp(g, x, y):
            from .shapes import matmul_vjp
            return matmul_vjp(g, x, y)

    def _scalar(v):
        return float(v) if np.ndim(v) == 0 else v

    return NumpyBackend
