"""Numerically stable forms of the functions whose textbook formulas lose digits.

The op table (ops.py) keeps each function's textbook rule for printing and for
the symbolic side; where that formula loses digits in doubles, its value rule or
`numeric_partials` (with extra["stable_form"]) call one of these, the same
function rearranged. Each takes the numeric backend `B` of the op table.

Near ±1, 1 - x**2 loses the digits that matter (at x = 1 - 1e-12 only about four
are left); (1 - x)*(1 + x) keeps them: 1 - x is exact there. The printed
(symbolic) rules keep the textbook forms; `numeric_partials` with
extra["stable_form"] are the same functions, rearranged for doubles.
"""
from __future__ import annotations


def one_minus_square(x):
    # 1 - x**2, accurate near |x| = 1
    return (1 - x) * (1 + x)


def root_square_minus_one(B, x):
    # sqrt(x**2 - 1) for |x| >= 1: accurate near |x| = 1, and no overflow of x**2 for
    # large |x|; on exact numbers one root, exact whenever x**2 - 1 is a square.
    a = B.abs(x)
    if B.name == "exact":
        return B.sqrt((a - 1) * (a + 1))
    return B.sqrt(a - 1) * B.sqrt(a + 1)


def piecewise(B, cond, then, otherwise):
    """then() where cond holds, else otherwise(): both on arrays, one of them on a scalar."""
    if B.name == "numpy":
        return B.where(cond, then(), otherwise())
    return then() if cond else otherwise()


def one_over_one_plus_square(B, x):
    # 1/(1 + x**2) without the overflow of x**2 (x = 1e160): (1/x)/(x + 1/x) beyond 1
    if B.name == "exact":
        return 1 / (1 + x * x)
    return piecewise(B, B.abs(x) <= 1, lambda: 1 / (1 + x * x),
                      lambda: (1 / x) / (x + 1 / x))


def atan2_partial(B, num, y, x):
    # num/(x**2 + y**2), scaled by the larger of |x|, |y| so that neither square
    # overflows nor underflows (atan2 at (1e200, 1e200) or (1e-200, 1e-200)).
    if B.name == "exact":
        return num / (x ** 2 + y ** 2)
    s = B.maximum(B.abs(x), B.abs(y))
    s = B.where(s == 0, 1.0, s)
    return (num / s) / ((x / s) ** 2 + (y / s) ** 2) / s


def acot(B, x):
    # atan(1/x) as atan2(s, s*x) with s = ±1 the sign that keeps the angle in
    # (-pi/2, pi/2]: no division, and acot(0) = atan2(1, 0) = pi/2.
    s = B.where(x < 0, -1.0, 1.0)
    return B.atan2(s, s * x)


def sech(B, x):
    # 1/cosh(x) = 2*e^-|x|/(1 + e^-2|x|): e^-|x| never overflows, so sech(800) is 0.
    t = B.exp(-B.abs(x))
    return 2 * t / (1 + t * t)


def csch(B, x):
    # 1/sinh(x) = sign(x)*2*e^-|x|/(1 - e^-2|x|), with 1 - e^-2|x| as -expm1(-2|x|)
    # so that it keeps its digits near 0; csch(800) is 0, not an overflow.
    a = B.abs(x)
    return B.sign(x) * (2 * B.exp(-a)) / -B.expm1(-2 * a)


def root_square_plus_one(B, x):
    # sqrt(x**2 + 1) without the overflow of x**2: beyond |x| = 1e150 it is |x| in doubles
    if B.name == "exact":
        return B.sqrt(x * x + 1)
    a = B.abs(x)
    return piecewise(B, a < 1e150, lambda: B.sqrt(a * a + 1), lambda: a)


def asech(B, x):
    # acosh(1/x) = log((1 + sqrt(1 - x**2))/x) = log1p(sqrt((1 - x)*(1 + x))) - log(x):
    # two terms of the same sign (no cancellation), no rounding of 1/x near x = 1,
    # and no overflow of 1/x for the smallest x.
    return B.log1p(B.sqrt(one_minus_square(x))) - B.log(x)


def acsch(B, x):
    # asinh(1/x), odd. For |x| < 1 as log(1 + sqrt(1 + x**2)) - log|x| (positive terms),
    # so that 1/x cannot overflow at the smallest x; for |x| >= 1 asinh(1/|x|) itself.
    a = B.abs(x)
    return B.sign(x) * piecewise(B, a < 1, lambda: B.log(1 + B.sqrt(1 + a * a)) - B.log(a),
                                  lambda: B.asinh(1 / a))


def acoth(B, x):
    # atanh(1/x) = log((x + 1)/(x - 1))/2 = sign(x)*log1p(2/(|x| - 1))/2: |x| - 1 is
    # exact near |x| = 1, where atanh(1/x) would magnify the rounding of 1/x.
    return B.sign(x) * B.log1p(2 / (B.abs(x) - 1)) / 2
