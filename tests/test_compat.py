"""What must behave the same on every Python the package claims (3.10 to 3.13).

Python 3.10 has no math.cbrt, its csv module stops at a NUL character, and its
Fraction does not read PEP 515 underscores; gradcli covers each of these.
"""
import io
import json
import math
import subprocess
import sys
import textwrap
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradcli import api
from gradcli.data import sources
from gradcli.autodiff import backends, exact
from gradcli.errors import UsageError

HAS_MATH_CBRT = hasattr(math, "cbrt")


def _ulps(a: float, b: float) -> float:
    """How far a is from b, in units in the last place of b."""
    return abs(a - b) / math.ulp(b)


def _exact_cbrt(x: float) -> float:
    """The real cube root of x, correctly rounded (mpmath at 120 bits)."""
    with mpmath.workprec(120):
        return math.copysign(float(mpmath.cbrt(mpmath.mpf(abs(x)))), x)


# ------------------------------------------------------------------ backends._cbrt

@pytest.mark.parametrize("x, root", [
    (-8.0, -2.0), (27.0, 3.0), (1.0, 1.0), (-1.0, -1.0), (64.0, 4.0), (-125.0, -5.0),
    (1e300, 1e100), (1e-300, 1e-100), (0.125, 0.5), (-0.001, -0.1),
    (2.0 ** 300, 2.0 ** 100), (2.0 ** -1071, 2.0 ** -357),  # a subnormal with an exact root
])
def test_cbrt_exact_roots(x, root):
    got = backends._cbrt(x)
    assert got == root and type(got) is float


def test_cbrt_perfect_cubes_are_exact():
    for k in range(-3000, 3001):
        assert backends._cbrt(float(k ** 3)) == float(k)
    for k in (2 ** 17 + 1, 10 ** 5, 123_456):  # cubes up to 2**53 are exact doubles
        assert backends._cbrt(float(k ** 3)) == float(k)
        assert backends._cbrt(-float(k ** 3)) == -float(k)


def test_cbrt_keeps_the_sign():
    for x in (2.0, 3.5, 1e-310, 1e200, 5e-324):
        assert backends._cbrt(x) > 0
        assert backends._cbrt(-x) == -backends._cbrt(x)


def test_cbrt_zero_inf_nan():
    assert backends._cbrt(0.0) == 0.0 and math.copysign(1, backends._cbrt(0.0)) == 1
    assert backends._cbrt(-0.0) == 0.0 and math.copysign(1, backends._cbrt(-0.0)) == -1
    assert backends._cbrt(math.inf) == math.inf
    assert backends._cbrt(-math.inf) == -math.inf
    assert math.isnan(backends._cbrt(math.nan))
    assert backends._cbrt(0) == 0.0 and type(backends._cbrt(0)) is float
    assert backends._cbrt(-27) == -3.0  # an int argument, as the engine may pass


@pytest.mark.parametrize("x", [5e-324, -5e-324, 1e-320, 2.2250738585072014e-308 / 3,
                               -2.2250738585072014e-308, 2.2250738585072014e-308,
                               1.7976931348623157e308, -1.7976931348623157e308])
def test_cbrt_subnormals_and_extremes(x):
    got = backends._cbrt(x)
    assert math.isfinite(got) and math.copysign(1, got) == math.copysign(1, x)
    assert _ulps(got, _exact_cbrt(x)) <= 1


@settings(max_examples=1000, deadline=None, derandomize=True)
@given(st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=True).filter(bool))
def test_cbrt_within_one_ulp_of_the_true_root(x):
    assert _ulps(backends._cbrt(x), _exact_cbrt(x)) <= 1


@pytest.mark.skipif(not HAS_MATH_CBRT, reason="math.cbrt arrived in Python 3.11")
@settings(max_examples=1000, deadline=None, derandomize=True)
@given(st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=True).filter(bool))
def test_cbrt_agrees_with_math_cbrt(x):
    # The platform's cbrt is not correctly rounded (glibc is off by up to 3 ulps).
    assert _ulps(backends._cbrt(x), math.cbrt(x)) <= 4


def test_float_backend_uses_math_cbrt_where_it_exists():
    expected = math.cbrt if HAS_MATH_CBRT else backends._cbrt
    assert backends.MathBackend.cbrt is expected


def test_float_backend_cbrt_without_math_cbrt():
    """A fresh interpreter whose math module has no cbrt, as on Python 3.10."""
    script = textwrap.dedent("""
        import json, math
        if hasattr(math, "cbrt"):
            del math.cbrt
        from gradcli import api
        from gradcli.autodiff import backends
        assert backends.MathBackend.cbrt is backends._cbrt
        r = api.evaluate("cbrt(x)", x=-8)
        s = api.evaluate("cbrt(x)*y", x=27, y=2)
        print(json.dumps([r.value, r.gradient["x"], s.value, s.gradient["x"], s.gradient["y"]]))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    value, grad, value2, gx, gy = json.loads(out.stdout)
    assert value == -2.0 and grad == pytest.approx(1 / 12, rel=1e-15)
    assert value2 == 6.0 and gx == pytest.approx(2 / 27, rel=1e-15) and gy == 3.0


def test_cli_cbrt_without_math_cbrt(tmp_path):
    script = textwrap.dedent("""
        import math, sys
        if hasattr(math, "cbrt"):
            del math.cbrt
        from gradcli.launch import run
        sys.argv = ["gradcli", "eval", "cbrt(x)", "--at", "x=-8", "-o", "json"]
        run()
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["value"] == -2.0
    assert data["gradient"]["x"] == pytest.approx(1 / 12, rel=1e-15)


# ------------------------------------------------------------------ NUL in a points file

def _read_all(blob: bytes):
    reader = sources.read_points(io.BytesIO(blob))
    return reader.names, [chunk for chunk in reader]


def test_points_nul_in_header_is_a_column_name():
    names, _ = _read_all(b"x\x00,y\n1,2\n")
    assert names == ["x\x00", "y"]


def test_points_nul_in_a_quoted_value_is_a_bad_value():
    _, chunks = _read_all(b'x,y\n"1\x00",2\n3,4\n')
    (chunk,) = chunks
    assert chunk.n == 2 and list(chunk.invalid) == [True, False]
    assert chunk.columns["y"].tolist() == [2.0, 4.0]
    assert "row 1, column 'x'" in chunk.problems[0][1]


def test_points_private_use_character_survives_beside_nul():
    names, _ = _read_all('"a\ue000\x00\ue000b",y\n1,2\n'.encode())
    assert names == ["a\ue000\x00\ue000b", "y"]


def test_cli_points_with_nul_is_a_data_error_not_an_internal_one():
    from click.testing import CliRunner

    from gradcli.cli import main
    result = CliRunner().invoke(main, ["eval", "x*y", "--points", "-", "-o", "json"],
                                input=b"\x00\r5,7x")
    assert result.exit_code == 2
    assert "internal error" not in result.output
    assert "has no column 'x'" in result.output


# ------------------------------------------------------------------ Fraction underscores

@pytest.mark.parametrize("text, value", [
    ("1_000", 1000), ("1_000/3", Fraction(1000, 3)), ("1_0.2_5", Fraction(41, 4)),
    ("1.5_0e1_0", 15_000_000_000), ("-1_0", -10),
])
def test_exact_reads_pep515_underscores(text, value):
    assert exact.to_exact(text) == value


@pytest.mark.parametrize("text", ["1__0", "_1", "1_", "1_.5", "1._5", "1e_5", "1_e5", "+_1"])
def test_exact_refuses_misplaced_underscores(text):
    with pytest.raises(UsageError):
        exact.to_exact(text)


def test_exact_api_with_an_underscored_string():
    assert api.evaluate("x*2", x="1_000", exact=True).value == 2000


# ------------------------------------------------------------------ NumPy before 2.3

def test_format_number_refuses_a_one_element_array():
    """NumPy 2.3+ refuses float(array([2.0])); NumPy 2.2 (Python 3.10's newest) only warned."""
    import numpy as np

    from gradcli.numbers import format_number
    assert format_number(np.float64(2.5)) == "2.5"
    assert format_number(np.array(2.0)) == "2"
    for value in (np.array([2.0]), np.array([[2.0]])):
        with pytest.raises(TypeError):
            format_number(value)


def test_check_names_a_vector_value_as_a_vector():
    from click.testing import CliRunner

    from gradcli.cli import main
    result = CliRunner().invoke(main, ["check", "[2,]", "--value", "1", "-o", "json"])
    assert result.exit_code == 1
    (answer,) = json.loads(result.stdout)["answers"]
    assert answer["reason"] == "the correct value is [2.0]"
