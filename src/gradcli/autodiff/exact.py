"""Exact rational arithmetic for `--exact`: the backend `B` over Fractions.

The op table's value and derivative rules run unchanged on Fractions: `+ - * /`
are exact, integer powers are exact, and a root (`sqrt`, `cbrt`, `x**(p/q)`)
is exact when the result is rational (`sqrt(9/4)` is `3/2`). Every other
function is exact only at the few points where its value is rational
(`sin(0)`, `exp(0)`, `log(1)`, `log2(8)`); anywhere else it raises
InexactError naming the operation, never a silent float.

Sizes are bounded so that no input can hang or exhaust memory: an exact number
may have at most MAX_BITS bits in its numerator and in its denominator, and a
power is refused before it is computed when its result would be larger
(`10**10**10` fails at once instead of building a ten-billion-digit integer).
"""
from __future__ import annotations

import math
import re
import sys
from fractions import Fraction

from .. import limits
from ..errors import DomainError, InexactError, LimitError, UsageError
from ..numbers import format_number
from .backends import ScalarPrimitives

MAX_BITS = limits.MAX_EXACT_BITS

_ZERO, _ONE = Fraction(0), Fraction(1)

# The points where a transcendental function has a rational value.
_RATIONAL_POINTS = {
    "exp": {_ZERO: _ONE}, "log": {_ONE: _ZERO},
    "sin": {_ZERO: _ZERO}, "cos": {_ZERO: _ONE}, "tan": {_ZERO: _ZERO},
    "asin": {_ZERO: _ZERO}, "acos": {_ONE: _ZERO}, "atan": {_ZERO: _ZERO},
    "sinh": {_ZERO: _ZERO}, "cosh": {_ZERO: _ONE}, "tanh": {_ZERO: _ZERO},
    "asinh": {_ZERO: _ZERO}, "acosh": {_ONE: _ZERO}, "atanh": {_ZERO: _ZERO},
    "sigmoid": {_ZERO: Fraction(1, 2)},
    # Pieces of the stable forms of csch, asech and acoth (exact only at 0).
    "expm1": {_ZERO: _ZERO}, "log1p": {_ZERO: _ZERO},
}


def _text(x) -> str:
    return format_number(x)


def _too_big(x: Fraction) -> bool:
    return x.numerator.bit_length() > MAX_BITS or x.denominator.bit_length() > MAX_BITS


def _limit(what: str) -> LimitError:
    return LimitError(f"{what} is too large for exact arithmetic (the limit is {MAX_BITS:,} "
                      "bits, about 3,900 digits, in a numerator or denominator)",
                      hint="drop --exact to compute with doubles")


_DECIMAL = re.compile(r"\s*[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$")
_MAX_DIGITS = int(MAX_BITS * math.log10(2)) + 1
_BAD_UNDERSCORE = re.compile(r"(?<!\d)_|_(?!\d)")


def _fraction(text: str) -> Fraction:
    """Fraction(text), refusing a decimal whose exponent alone is far past the limit.

    Fraction would compute 10**32099999999 for `1e-32099999999` before any size
    check could run.
    """
    m = _DECIMAL.match(text.replace("_", ""))  # Fraction reads 1_000 as 1000
    if m:
        whole, frac, exp = m.group(1), m.group(2) or "", m.group(3)
        digits = (whole + frac).lstrip("0")
        try:
            power = int(exp or 0) - len(frac)
        except ValueError:  # an exponent of thousands of digits
            raise _limit("the number") from None
        if not digits and (whole or frac):
            return _ZERO  # 0e-99999999999999 too: no power of ten is computed
        # Decimal digits of the numerator (power >= 0) or, at least, of the reduced
        # denominator (power < 0); twice the limit leaves room for any cancelling.
        size = len(digits) + power if power >= 0 else -power - len(digits)
        if size > 2 * _MAX_DIGITS:
            raise _limit("the number")
    if "_" in text and sys.version_info < (3, 11):
        # Fraction accepts PEP 515 underscores (one between two digits) only from 3.11.
        if _BAD_UNDERSCORE.search(text):
            raise ValueError(f"invalid literal for Fraction: {text!r}")
        text = text.replace("_", "")
    return Fraction(text)


def to_exact(value) -> Fraction:
    """A number as a Fraction: ints and Fractions as they are, a float as the decimal it prints as.

    0.1 becomes 1/10 (not 3602879701896397/36028797018963968): a float here
    almost always came from a decimal someone typed.
    """
    if isinstance(value, Fraction):
        result = value
    elif isinstance(value, bool):
        result = Fraction(int(value))
    elif isinstance(value, int):
        if value.bit_length() > MAX_BITS:
            raise _limit("an integer")
        result = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise InexactError(f"{_text(value)} is not a rational number",
                               hint="drop --exact to compute with doubles")
        result = Fraction(repr(value))
    elif isinstance(value, str):
        try:
            result = _fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise UsageError(f"'{value}' is not an exact number",
                             hint="write an integer, a decimal or a fraction such as 3/4") from None
    elif hasattr(value, "shape"):
        raise UsageError("--exact works on scalars only, not on vectors or matrices",
                         hint="drop --exact to compute with arrays of doubles")
    else:
        try:
            result = Fraction(value)
        except (TypeError, ValueError):
            raise UsageError(f"{value!r} is not a number") from None
    if _too_big(result):
        raise _limit("the number")
    return result


def literal(text: str, value) -> Fraction:
    """The exact value of a number literal from its source text (`0.1` is 1/10 exactly)."""
    cleaned = text.replace(" ", "").replace("\t", "")
    try:
        exact = _fraction(cleaned)
    except LimitError:
        raise _limit(f"the number {cleaned[:20]}") from None
    except (ValueError, ZeroDivisionError):
        return to_exact(value)
    if _too_big(exact):
        raise _limit(f"the number {cleaned[:20]}")
    return exact


def _iroot(n: int, k: int) -> int:
    """floor(n ** (1/k)) for n >= 0, by integer Newton steps (no floats, any size)."""
    if n < 2:
        return n
    x = 1 << -(-n.bit_length() // k)  # a power of two at least the root
    while True:
        y = ((k - 1) * x + n // x ** (k - 1)) // k
        if y >= x:
            return x
        x = y


def _exact_root(x: Fraction, k: int, what: str) -> Fraction:
    """The k-th root of x when it is rational, else InexactError naming `what`."""
    negative = x < 0
    if negative and k % 2 == 0:
        raise ValueError("even root of a negative number")
    a = abs(x)
    num, den = a.numerator, a.denominator
    # A root r >= 2 needs n >= 2**k, so a long root of a short number is never exact.
    if (num > 1 and k > num.bit_length()) or (den > 1 and k > den.bit_length()):
        raise InexactError(f"{what} has no exact rational value",
                           hint="drop --exact to compute with doubles")
    rn, rd = _iroot(num, k), _iroot(den, k)
    if rn ** k != num or rd ** k != den:
        raise InexactError(f"{what} has no exact rational value",
                           hint="drop --exact to compute with doubles")
    root = Fraction(rn, rd)
    return -root if negative else root


def exact_pow(x: Fraction, y: Fraction) -> Fraction:
    """x**y exactly, refusing (before computing) any result beyond MAX_BITS."""
    what = f"{_text(x)}**{_text(y) if y.denominator == 1 else '(' + _text(y) + ')'}"
    if y.denominator != 1:
        x = _exact_root(x, y.denominator, what)
        y = Fraction(y.numerator)
    n = y.numerator
    if x == 0:
        if n < 0:
            raise ZeroDivisionError("zero to a negative power")
        return _ONE if n == 0 else _ZERO
    if x == 1 or n == 0:
        return _ONE
    if x == -1:
        return _ONE if n % 2 == 0 else -_ONE
    size = max(x.numerator.bit_length(), x.denominator.bit_length())
    # |x**n| needs about |n| * size bits; refuse before building it.
    if abs(n) > MAX_BITS or (abs(n) - 1) * (size - 1) > MAX_BITS:
        raise _limit(f"the power {what}")
    return x ** n


def _rational_point(name: str, x: Fraction) -> Fraction:
    value = _RATIONAL_POINTS.get(name, {}).get(x)
    if value is None:
        raise InexactError(f"{name}({_text(x)}) has no exact rational value",
                           hint="drop --exact to compute with doubles")
    return value


def _exact_log(x: Fraction, base: int, name: str) -> Fraction:
    """log_base(x) when it is an integer (log2(8) = 3, log10(1/100) = -2)."""
    if x <= 0:
        raise ValueError("log of a non-positive number")
    num, den = x.numerator, x.denominator
    power = 0
    top, bottom = (num, den) if num >= den else (den, num)
    if bottom != 1:
        raise InexactError(f"{name}({_text(x)}) has no exact rational value",
                           hint="drop --exact to compute with doubles")
    while top % base == 0:
        top //= base
        power += 1
    if top != 1:
        raise InexactError(f"{name}({_text(x)}) has no exact rational value",
                           hint="drop --exact to compute with doubles")
    return Fraction(power if num >= den else -power)


def _unary(name):
    return staticmethod(lambda x: _rational_point(name, x))


class ExactBackend(ScalarPrimitives):
    """The numeric backend `B` over Fractions; every result is exact or an error."""

    name = "exact"

    @staticmethod
    def size(x):
        return _ONE
    exp = _unary("exp")
    sin = _unary("sin")
    cos = _unary("cos")
    tan = _unary("tan")
    asin = _unary("asin")
    acos = _unary("acos")
    atan = _unary("atan")
    sinh = _unary("sinh")
    cosh = _unary("cosh")
    tanh = _unary("tanh")
    asinh = _unary("asinh")
    acosh = _unary("acosh")
    atanh = _unary("atanh")
    sigmoid = _unary("sigmoid")
    expm1 = _unary("expm1")
    log1p = _unary("log1p")

    @staticmethod
    def log(x):
        if x <= 0:
            raise ValueError("log of a non-positive number")
        return _rational_point("log", x)

    @staticmethod
    def log2(x):
        return _exact_log(x, 2, "log2")

    @staticmethod
    def log10(x):
        return _exact_log(x, 10, "log10")

    @staticmethod
    def sqrt(x):
        return _exact_root(x, 2, f"sqrt({_text(x)})")

    @staticmethod
    def cbrt(x):
        return _exact_root(x, 3, f"cbrt({_text(x)})")

    @staticmethod
    def softplus(x):
        raise InexactError(f"softplus({_text(x)}) has no exact rational value",
                           hint="drop --exact to compute with doubles")

    @staticmethod
    def atan2(y, x):
        if y == 0 and x >= 0:
            return _ZERO
        raise InexactError(f"atan2({_text(y)}, {_text(x)}) has no exact rational value",
                           hint="drop --exact to compute with doubles")

    pow = staticmethod(exact_pow)
    abs = staticmethod(abs)

    @staticmethod
    def where(cond, a, b):
        chosen = a if cond else b
        return to_exact(chosen) if isinstance(chosen, (float, int)) else chosen

    @staticmethod
    def sign(x):
        return Fraction((x > 0) - (x < 0))

    @staticmethod
    def step(x):
        return _ONE if x > 0 else _ZERO

    @staticmethod
    def is_integer(x):
        return Fraction(x).denominator == 1

    @staticmethod
    def isfinite(x):
        return True

    @staticmethod
    def count_equal(xs, target):
        return Fraction(sum(1 for v in xs if v == target))

    @staticmethod
    def apply(op, datas):
        """One op forward on exact numbers: domain checks, value rule, size limit."""
        datas = [to_exact(d) for d in datas]
        try:
            for check in op.domain:
                if len(datas) > max(check.show) and not check.ok(ExactBackend, *datas):
                    raise DomainError.at(op, datas, check)
            out = op.value(ExactBackend, *datas)
        except InexactError as exc:
            raise _naming(op, datas, exc) from None
        except (ZeroDivisionError, ValueError) as exc:
            raise DomainError.at(op, datas, None, str(exc)) from None
        out = to_exact(out) if not isinstance(out, Fraction) else out
        if _too_big(out):
            raise _limit(f"the result of {op.extra.get('call_name', op.name)}")
        return out


def _naming(op, datas, exc: InexactError) -> InexactError:
    """The error in terms of the operation the user wrote (sec(2), not the cos(2) inside it)."""
    call = op.extra.get("call_name", op.name)
    if op.is_operator and call == "pow":
        shown = exc.message.split(" has no", 1)[0]
    else:
        shown = f"{call}({', '.join(_text(d) for d in datas)})"
    return InexactError(f"--exact: {shown} has no exact rational value", hint=exc.hint)
