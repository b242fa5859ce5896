"""The decimal module's elementary functions (autodiff/decimalmath.py) against mpmath.

The exact point runs in them first; each must be within an ulp of its precision, or
a typed point's digits would be wrong where the two precisions happen to agree.
"""
import random
import subprocess
import sys

import mpmath
import pytest

from gradcli.autodiff import decimalmath as dm
from gradcli.autodiff.decimalmath import DECIMAL


def _real_cbrt(x):
    return mpmath.cbrt(x) if x >= 0 else -mpmath.cbrt(-x)


# name, ours, mpmath's, where the argument is drawn from
FUNCTIONS = [
    ("sin", dm.sin, mpmath.sin, "any"), ("cos", dm.cos, mpmath.cos, "any"),
    ("tan", dm.tan, mpmath.tan, "any"), ("atan", dm.atan, mpmath.atan, "any"),
    ("asin", dm.asin, mpmath.asin, "unit"), ("acos", dm.acos, mpmath.acos, "unit"),
    ("sinh", dm.sinh, mpmath.sinh, "moderate"), ("cosh", dm.cosh, mpmath.cosh, "moderate"),
    ("tanh", dm.tanh, mpmath.tanh, "any"), ("asinh", dm.asinh, mpmath.asinh, "any"),
    ("acosh", dm.acosh, mpmath.acosh, "above 1"), ("atanh", dm.atanh, mpmath.atanh, "unit"),
    ("expm1", dm.expm1, mpmath.expm1, "moderate"), ("log1p", dm.log1p, mpmath.log1p, "above -1"),
    ("cbrt", dm.cbrt, _real_cbrt, "any"), ("log2", dm.log2, lambda x: mpmath.log(x, 2), "positive"),
]


def _argument(rng, kind):
    if kind == "unit":
        return rng.uniform(-1, 1)
    x = rng.uniform(-1, 1) * 10 ** rng.choice([-30, -8, -3, -1, 0, 0, 0, 1, 2, 5])
    if kind == "moderate":
        return max(min(x, 1e4), -1e4)
    if kind == "above 1":
        return 1 + abs(x)
    if kind == "positive":
        return abs(x) + 1e-300
    if kind == "above -1":
        return max(x, -0.999)
    return x


@pytest.mark.parametrize("name, ours, theirs, kind", FUNCTIONS, ids=[f[0] for f in FUNCTIONS])
def test_each_function_is_within_an_ulp_of_mpmath(name, ours, theirs, kind):
    rng = random.Random(name)
    for _ in range(40):
        x = _argument(rng, kind)
        for digits in (30, 60, 240):
            with DECIMAL.workdps(digits):
                got = ours(DECIMAL.mpf(x))
            with mpmath.workdps(digits + 20):
                right = theirs(mpmath.mpf(x))
                if right == 0:
                    assert got == 0
                    continue
                error = abs((mpmath.mpf(str(got)) - right) / right)
                assert error < mpmath.mpf(10) ** (1 - digits), (name, x, digits, got, right)


def test_pi_to_500_digits():
    with DECIMAL.workdps(500):
        ours = str(DECIMAL.pi)
    with mpmath.workdps(520):
        assert ours[:499] == mpmath.nstr(+mpmath.pi, 510)[:499]


def test_a_domain_error_raises_as_mpmath_gives_a_complex_number():
    with DECIMAL.workdps(30):
        for f, x in ((dm.asin, 2), (dm.acosh, 0.5), (dm.atanh, 3), (dm.log1p, -2)):
            with pytest.raises(ArithmeticError):
                f(DECIMAL.mpf(x))


def test_the_typed_point_runs_without_mpmath_where_decimal_has_the_functions():
    code = ("import sys; from gradcli import api; "
            "b = api.parse_bindings(['x=pi/6']); "
            "r = api.evaluate('sin(x) + atan(x) + cosh(x)^2', b, numerics=True); "
            "print('mpmath' in sys.modules, r.value)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out[0] == "False"


def test_a_graph_decimal_cannot_run_is_settled_by_mpmath():
    from gradcli import api
    # relu's value rule multiplies by the float 0.0, which a Decimal refuses
    got = api.evaluate("relu(x - 1) + sin(x)", api.parse_bindings(["x=pi/6"]), numerics=True)
    with mpmath.workdps(50):
        slope = float(mpmath.sqrt(3) / 2)
    assert got.value == 0.5 and got.gradient["x"] == slope


def test_a_tiny_argument_does_not_raise_the_precision_without_bound():
    import time
    from gradcli import api
    with DECIMAL.workdps(30):
        tiny = DECIMAL.mpf(1e-300)
        assert dm.log1p(tiny) == +tiny and dm.expm1(tiny) == +tiny  # x, rounded
    start = time.process_time()
    got = api.evaluate("softplus(-200000*x) + x", api.parse_bindings(["x=pi/6"]),
                       numerics=True)
    # e^(-104720) once took tens of thousands of digits at each of four precisions
    assert time.process_time() - start < 2 and got.value == 0.5235987755982989
