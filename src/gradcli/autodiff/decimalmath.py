"""The exact point's quick arithmetic: the op table's value rules in the decimal module.

A point typed as a closed form (`pi/6`) is re-run at 30, 60, ... digits until two
precisions round to the same double (autodiff/typedpoint.py). The decimal module
is part of Python, written in C and imported in a few milliseconds; mpmath takes
about 25 ms to import, as much as the rest of `eval`. So the common functions run
here, each to the context's precision plus guard digits. A graph that needs a
function not written here raises Unsupported, and one whose value rule mixes a
float into the arithmetic (relu's 0.0*x) raises TypeError, as Decimal does; either
way the run is repeated in mpmath, which has everything. (The graph's own
constants, doubles, enter exactly through DecimalContext.mpf.)

Each function below works in the current decimal context and returns a result
correctly rounded to within an ulp or two of its precision: the settling rule
compares two precisions' doubles, so a last-digit error never reaches the output.
"""
from __future__ import annotations

import decimal
from decimal import Decimal, localcontext

from .backends import ScalarPrimitives

_GUARD = 10
_TRAPS = [decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow]


class Unsupported(Exception):
    """The graph needs something only mpmath has."""


def _guarded(extra: int = 0):
    """A context of the current precision plus guard digits (and `extra`)."""
    ctx = decimal.getcontext().copy()
    ctx.prec += _GUARD + max(0, extra)
    return localcontext(ctx)


_PI = [0, Decimal(3)]  # (digits, pi to that many digits)


def _arctan_inverse(n: int, scale: int) -> int:
    """atan(1/n)·scale in integers (the series of Machin's formula)."""
    total, term, k, sign = 0, scale // n, 1, 1
    n2 = n * n
    while term:
        total += sign * (term // k)
        term //= n2
        k += 2
        sign = -sign
    return total


def pi() -> Decimal:
    """pi at the current precision, from Machin's formula in integers, cached."""
    digits = decimal.getcontext().prec
    if _PI[0] < digits + _GUARD:
        want = 2 * digits + _GUARD
        scale = 10 ** (want + 5)
        whole = 4 * (4 * _arctan_inverse(5, scale) - _arctan_inverse(239, scale))
        with localcontext(decimal.Context(prec=want + 5)):
            _PI[:] = [want, Decimal(whole).scaleb(-(want + 5))]
    return +_PI[1]


def _series_sin_cos(r: Decimal) -> tuple[Decimal, Decimal]:
    """sin r and cos r for |r| <= pi/4, by their Taylor series."""
    tiny = Decimal(10) ** -(decimal.getcontext().prec + 2)
    r2 = r * r
    s = term = r
    n = 1
    while abs(term) > tiny * abs(r):
        term = -term * r2 / ((n + 1) * (n + 2))
        s += term
        n += 2
    c = term = Decimal(1)
    n = 0
    while abs(term) > tiny:
        term = -term * r2 / ((n + 1) * (n + 2))
        c += term
        n += 2
    return s, c


def _sin_cos(x: Decimal) -> tuple[Decimal, Decimal]:
    if not x.is_finite():
        raise decimal.InvalidOperation
    if x.adjusted() > 1000:
        raise Unsupported  # a reduction of more than 1000 digits: mpmath's
    digits = decimal.getcontext().prec
    # the reduction keeps as many digits as the result may lose near a multiple of pi/2
    with _guarded(digits + max(0, x.adjusted())):
        half = pi() / 2
        k = (x / half).to_integral_value()
        s, c = _series_sin_cos(x - k * half)
        quadrant = int(k) % 4
    if quadrant == 1:
        s, c = c, -s
    elif quadrant == 2:
        s, c = -s, -c
    elif quadrant == 3:
        s, c = -c, s
    return s, c


def sin(x):
    s, _ = _sin_cos(x)
    return +s


def cos(x):
    _, c = _sin_cos(x)
    return +c


def tan(x):
    with _guarded():
        s, c = _sin_cos(x)
        t = s / c
    return +t


def atan(x):
    if x.is_nan():
        raise decimal.InvalidOperation
    if x == 0:
        return x
    with _guarded():
        a = abs(x)
        invert = a > 1
        if x.is_infinite():
            r = pi() / 2
        else:
            if invert:
                a = 1 / a
            # three halvings of the angle: the series then gains 2 digits a term
            for _ in range(3):
                a = a / (1 + (1 + a * a).sqrt())
            tiny = Decimal(10) ** -(decimal.getcontext().prec + 2)
            a2 = a * a
            s = power = a
            k = 1
            while abs(power) > tiny * a * k:
                power = -power * a2
                k += 2
                s += power / k
            r = 8 * s
            if invert:
                r = pi() / 2 - r
        r = -r if x < 0 else r
    return +r


def atan2(y, x):
    with _guarded():
        if x > 0:
            r = atan(y / x)
        elif x < 0:
            r = atan(y / x) + (pi() if y >= 0 else -pi())
        elif y == 0:
            r = Decimal(0)
        else:
            r = pi() / 2 if y > 0 else -pi() / 2
    return +r


def _one_minus_square(x):
    return (1 - x) * (1 + x)


def asin(x):
    with _guarded():
        r = atan2(x, _one_minus_square(x).sqrt())
    return +r


def acos(x):
    with _guarded():
        r = atan2(_one_minus_square(x).sqrt(), x)
    return +r


def _below_precision(x) -> bool:
    """|x| so small that x^2/2 is beyond the guard digits: expm1(x) and log1p(x) are x."""
    return x == 0 or -x.adjusted() > decimal.getcontext().prec + _GUARD


def expm1(x):
    if _below_precision(x):
        return +x
    # near 0, exp(x) - 1 cancels as many digits as x has zeros after the point
    with _guarded(-x.adjusted()):
        r = x.exp() - 1
    return +r


def log1p(x):
    if _below_precision(x):
        return +x
    with _guarded(-x.adjusted()):
        r = (1 + x).ln()
    return +r


def log2(x):
    with _guarded():
        r = x.ln() / Decimal(2).ln()
    return +r


def cbrt(x):
    if x == 0 or not x.is_finite():
        return x
    with _guarded():
        r = abs(x) ** (Decimal(1) / 3)
        r = -r if x < 0 else r
    return +r


def pow_(x, y):
    if y == 0:
        return Decimal(1)  # as math.pow and mpmath, 0^0 = 1
    return x ** y


def sinh(x):
    with _guarded():
        if abs(x) < 1:  # no cancellation of e^x - e^-x near 0
            m = expm1(x)
            r = m * (m + 2) / (2 * (m + 1))
        else:
            e = x.exp()
            r = (e - 1 / e) / 2
    return +r


def cosh(x):
    with _guarded():
        e = x.exp()
        r = (e + 1 / e) / 2
    return +r


def tanh(x):
    with _guarded():
        m = expm1(2 * x)
        r = m / (m + 2)
    return +r


def asinh(x):
    with _guarded():
        a = abs(x)
        r = log1p(a + a * a / (1 + (1 + a * a).sqrt()))
        r = -r if x < 0 else r
    return +r


def acosh(x):
    with _guarded():
        if x < 1:
            raise decimal.InvalidOperation
        t = x - 1
        r = log1p(t + (t * (x + 1)).sqrt())
    return +r


def atanh(x):
    with _guarded():
        r = log1p(2 * x / (1 - x)) / 2
    return +r


def _unsupported(*_):
    raise Unsupported


class DecimalBackend(ScalarPrimitives):
    """The value rules' primitives on Decimal numbers at the context's precision."""

    name = "decimal"
    exp = staticmethod(lambda x: x.exp())
    log = staticmethod(lambda x: x.ln())
    log10 = staticmethod(lambda x: x.log10())
    sqrt = staticmethod(lambda x: x.sqrt())
    abs = staticmethod(abs)
    isfinite = staticmethod(lambda x: x.is_finite())
    where = staticmethod(lambda cond, a, b: a if cond else b)
    sign = staticmethod(lambda x: Decimal(1) if x > 0 else Decimal(-1) if x < 0 else Decimal(0))
    step = staticmethod(lambda x: Decimal(1) if x > 0 else Decimal(0))
    is_integer = staticmethod(lambda x: x.is_finite() and x == x.to_integral_value())
    sigmoid = staticmethod(lambda x: 1 / (1 + (-x).exp()))
    softplus = staticmethod(lambda x: log1p(x.exp()))
    count_equal = staticmethod(lambda xs, target: Decimal(sum(1 for v in xs if v == target)))
    size = staticmethod(_unsupported)
    stack = staticmethod(_unsupported)


for _f in (sin, cos, tan, asin, acos, atan, atan2, expm1, log1p, log2, cbrt, sinh, cosh,
           tanh, asinh, acosh, atanh):
    setattr(DecimalBackend, _f.__name__, staticmethod(_f))
DecimalBackend.pow = staticmethod(pow_)


class _NeverComplex:
    """Decimal has no complex numbers: where mpmath would give one, decimal raises."""


class DecimalContext:
    """The part of mpmath's interface the exact point uses (workdps, mpf, pi, e, ...)."""

    name = "decimal"
    value_rules = DecimalBackend
    mpc = _NeverComplex

    @staticmethod
    def workdps(digits: int):
        return localcontext(decimal.Context(prec=digits, Emax=decimal.MAX_EMAX,
                                            Emin=decimal.MIN_EMIN, traps=_TRAPS))

    @staticmethod
    def mpf(x):
        if isinstance(x, Decimal):
            return x
        if isinstance(x, (int, float)):
            return Decimal(x)
        raise Unsupported

    @property
    def pi(self):
        return pi()

    @property
    def e(self):
        return Decimal(1).exp()

    @staticmethod
    def isfinite(x):
        return x.is_finite()

    @staticmethod
    def sqrt(x):
        return x.sqrt()

    @staticmethod
    def fsum(xs):
        with _guarded():
            total = sum(xs, Decimal(0))
        return +total


DECIMAL = DecimalContext()
