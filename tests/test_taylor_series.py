"""Taylor coefficients by power series (autodiff/series.py) against SymPy, to order 20.

Every coefficient c_k = f^(k)(a)/k! for k = 0..20, from `taylor` at each order 0..20,
is compared with SymPy's: exactly (Fractions, --exact) where SymPy's are rational,
to 1e-12 relative (doubles) everywhere. SymPy's `series` is the reference; where it
takes minutes at order 20 (its expansion of exp(sin x) or x^x doubles in cost with
each order, as repeated differentiation did here) the reference is SymPy's truncated
power-series ring (sympy.polys.ring_series, exact over QQ or QQ[log 2]) or its own
k-th derivative at the point, each one expanded (or, for a rational function,
cancelled) before the next.
"""
from __future__ import annotations

import functools
import json
import math
import time
from fractions import Fraction

import pytest
import sympy as sp
from click.testing import CliRunner
from sympy import QQ
from sympy.polys.ring_series import rs_exp, rs_log, rs_sin
from sympy.polys.rings import ring

from gradcli.autodiff.lower import lower
from gradcli.autodiff.series import Unsupported, taylor_coefficients
from gradcli.cli import main
from gradcli.reading import read_program
from gradcli.tasks.taylor import taylor

X = sp.Symbol("x")
N = 20
R = sp.Rational
SERIES, DERIVATIVES, RING = "series", "derivatives", "ring"

# (text, SymPy's function, point, reference); a point is a SymPy number.
CASES = [
    ("x^x", X**X, 1, RING),
    ("e^(sin x)", sp.exp(sp.sin(X)), 0, RING),
    ("tan x", sp.tan(X), 0, SERIES),
    ("atan x", sp.atan(X), 0, SERIES),
    ("log(1 + x)", sp.log(1 + X), 0, SERIES),
    ("sqrt(1 + x)", sp.sqrt(1 + X), 0, SERIES),
    ("1/(1 - x)", 1 / (1 - X), 0, SERIES),
    ("sin(x)/x", sp.sin(X) / X, 1, SERIES),
    ("x^3 e^(2x)", X**3 * sp.exp(2 * X), 0, SERIES),
    ("asin x", sp.asin(X), 0, SERIES),
    ("acos x", sp.acos(X), 0, SERIES),
    ("sinh x", sp.sinh(X), 0, SERIES),
    ("cosh x", sp.cosh(X), 0, SERIES),
    ("tanh x", sp.tanh(X), 0, SERIES),
    ("sigmoid(x)", 1 / (1 + sp.exp(-X)), 0, SERIES),
    ("cbrt(x)", sp.cbrt(X), 8, SERIES),
    ("sec x", sp.sec(X), 0, SERIES),
    ("ln(cos x)", sp.log(sp.cos(X)), 0, SERIES),
    ("(1 + x)^(1/3)", (1 + X)**R(1, 3), 0, SERIES),
    ("2^x", 2**X, 0, SERIES),
    ("x^2 sin x", X**2 * sp.sin(X), 1, SERIES),
    ("softplus(x)", sp.log(1 + sp.exp(X)), 0, SERIES),
    ("asinh x", sp.asinh(X), 0, SERIES),
    ("atanh x", sp.atanh(X), 0, SERIES),
    ("sech x", sp.sech(X), 0, SERIES),
    ("coth x", sp.coth(X), 1, SERIES),
    ("asec x", sp.asec(X), 2, SERIES),
    ("acosh x", sp.acosh(X), 2, SERIES),
    ("log(x, 2)", sp.log(X, 2), 2, SERIES),
    ("x^-3", X**-3, 2, SERIES),
    ("cos x", sp.cos(X), sp.pi / 3, SERIES),
    ("max(x, 1)", sp.Max(X, 1), 2, SERIES),
    ("e^(-x^2)", sp.exp(-X**2), R(1, 2), DERIVATIVES),
    ("csc x", sp.csc(X), 1, DERIVATIVES),
    ("atan2(x, 2)", sp.atan2(X, 2), 1, DERIVATIVES),
    ("x^(1 + x)", X**(1 + X), 2, RING),
    ("acoth x", sp.acoth(X), 2, DERIVATIVES),
]
# SymPy's reference takes a second or more for these: compared in the slow job.
SLOW = {"coth x", "acosh x", "asec x", "e^(-x^2)", "csc x", "atan2(x, 2)", "x^(1 + x)",
        "acoth x"}


def _params():
    return [pytest.param(*case, id=case[0], marks=[pytest.mark.slow] if case[0] in SLOW else [])
            for case in CASES]


def _ring_series(f, a) -> tuple:
    """c_0..c_N of x^x at 1, exp(sin x) at 0 or x^(1 + x) at 2 in SymPy's series ring,
    written (x = a + t) as exp of a series with no constant term."""
    L = sp.Symbol("L")  # log 2
    R, t = ring("t", QQ[L])
    n = N + 1
    if f == X**X and a == 1:
        s = rs_exp((1 + t) * rs_log(1 + t, t, n), t, n)
    elif f == sp.exp(sp.sin(X)) and a == 0:
        s = rs_exp(rs_sin(t, t, n), t, n)
    elif f == X**(1 + X) and a == 2:  # 2^(3 + t) (1 + t/2)^(3 + t)
        log2 = R(R.domain.convert(L))
        s = 8 * rs_exp(t * log2 + (3 + t) * rs_log(1 + t / 2, t, n), t, n)
    else:
        raise ValueError(f"no ring series for {f} at {a}")
    coeffs = [s.coeff(t**k) if k else s.coeff(1) for k in range(n)]
    return tuple(sp.expand(R.domain.to_sympy(c).subs(L, sp.log(2))) for c in coeffs)


@functools.lru_cache(maxsize=None)
def reference(f, a, how) -> tuple:
    """SymPy's c_0..c_N of f about a."""
    if how == RING:
        return _ring_series(f, a)
    if how == SERIES:
        t = sp.Symbol("t")
        s = sp.series(f.subs(X, a + t), t, 0, N + 1).removeO()
        return tuple(sp.expand(s).coeff(t, k) for k in range(N + 1))
    out, d = [], f
    for k in range(N + 1):
        out.append(d.subs(X, a) / sp.factorial(k))
        d = sp.diff(d, X)
        d = sp.cancel(d) if d.is_rational_function(X) else sp.expand(d)
    return tuple(out)


def _coefficients(t) -> dict:
    return {sum(term.powers.values()): term.coefficient for term in t.terms}


def _close(got, want) -> bool:
    want = float(want)
    if want == 0:
        return got == 0
    return abs(got - want) <= 1e-12 * abs(want)


@pytest.mark.parametrize("text,f,a,how", _params())
def test_every_order_to_20_is_sympys(text, f, a, how):
    want = reference(f, a, how)
    for order in range(N + 1):
        got = _coefficients(taylor(text, {"x": float(a)}, order))
        for k in range(order + 1):
            assert _close(got.get(k, 0.0), want[k]), (order, k, got.get(k), want[k])
        assert max(got) <= order


# Where a coefficient has π, e, a logarithm or a root in it: compared in closed form
# (exact="closed", as `taylor --exact` prints it) to order CLOSED_ORDER, not as Fractions.
IRRATIONAL = {"sin(x)/x", "acos x", "2^x", "x^2 sin x", "softplus(x)", "coth x", "asec x",
              "acosh x", "log(x, 2)", "cos x", "e^(-x^2)", "csc x", "atan2(x, 2)",
              "x^(1 + x)", "acoth x"}
CLOSED_ORDER = 4


def _rational_params():
    return [p for p in _params() if p.values[0] not in IRRATIONAL]


@pytest.mark.parametrize("text,f,a,how", _rational_params())
def test_exact_coefficients_are_sympys_rationals(text, f, a, how):
    want = reference(f, a, how)
    assert sp.S(a).is_rational and all(c.is_rational for c in want)
    got = _coefficients(taylor(text, {"x": Fraction(str(a))}, N, exact=True))
    for k in range(N + 1):
        assert got.get(k, Fraction(0)) == Fraction(int(want[k].p), int(want[k].q)), k


@pytest.mark.parametrize("text,f,a", [
    pytest.param(*c[:3], id=c[0], marks=[pytest.mark.slow] if c[0] in SLOW else [])
    for c in CASES if c[0] in IRRATIONAL])
def test_closed_coefficients_are_sympys(text, f, a):
    from gradcli.autodiff.closed import to_closed
    got = _coefficients(taylor(text, {"x": to_closed(sp.S(a))}, CLOSED_ORDER, exact="closed"))
    assert not all(sp.S(got.get(k, 0)).is_rational for k in range(CLOSED_ORDER + 1))
    for k in range(CLOSED_ORDER + 1):
        want = sp.diff(f, X, k).subs(X, a) / sp.factorial(k)
        difference = sp.S(got.get(k, 0)) - want
        # a constant: 0 by simplify, or to 50 digits where simplify cannot see it
        # (acoth(2) against log(3)/2)
        assert sp.simplify(difference) == 0 or abs(sp.N(difference, 60)) < sp.S(10)**-50, \
            (k, got.get(k), want)


def test_the_list_is_long_enough():
    assert len(CASES) >= 20
    assert {"x^x", "e^(sin x)", "tan x", "atan x", "log(1 + x)", "sqrt(1 + x)", "1/(1 - x)",
            "sin(x)/x", "x^3 e^(2x)"} <= {c[0] for c in CASES}


@pytest.mark.parametrize("text,at", [("x^x", "x=1"), ("e^(sin x)", "x=0"), ("tan x", "x=0")])
def test_order_20_takes_milliseconds(text, at):
    start = time.perf_counter()
    r = CliRunner().invoke(main, ["taylor", text, "--at", at, "--order", "20", "-o", "json"])
    assert r.exit_code == 0, r.output
    assert time.perf_counter() - start < 1.0  # repeated differentiation took minutes
    assert json.loads(r.stdout)["remainder"].endswith("^21)")


def test_books_fractions_stay():
    r = CliRunner().invoke(main, ["taylor", "x^x", "--at", "x=1", "--order", "9", "-o", "plain"])
    assert r.stdout.splitlines()[0] == (
        "T9\t1 + (x - 1) + (x - 1)^2 + (x - 1)^3/2 + (x - 1)^4/3 + (x - 1)^5/12 "
        "+ 3*(x - 1)^6/40 - (x - 1)^7/120 + 59*(x - 1)^8/2520 - 71*(x - 1)^9/5040")
    r = CliRunner().invoke(main, ["taylor", "x^x", "--at", "x=1", "--order", "12", "--exact",
                                  "-o", "json"])
    assert json.loads(r.stdout)["polynomial"].endswith("+ 179063*(x - 1)^12/19958400")


def test_a_kink_is_still_refused():
    r = CliRunner().invoke(main, ["taylor", "abs(x)", "--at", "x=0", "--order", "20"])
    assert r.exit_code == 3
    assert "kink" in r.output


def test_zero_coefficients_are_zero():
    # x^3 of e^(sin x) vanishes by cancellation, not by symmetry: 0, not 1e-17.
    got = _coefficients(taylor("e^(sin x)", {"x": 0.0}, 12))
    assert got[3] == 0
    assert "x^3" not in taylor("e^(sin x)", {"x": 0.0}, 12).polynomial


def _series_of(text, a, order, exact=False):
    program = read_program(text, {"x"})
    graph = lower(program, {"x": a}, wrt={"x"}, exact=exact)
    return taylor_coefficients(graph, "x", order)


def test_the_series_module_alone():
    assert _series_of("1/(1 - x)", Fraction(0), 5, exact=True) == [1] * 6
    sin, cos = _series_of("sin x", Fraction(0), 7, True), _series_of("cos x", Fraction(0), 7, True)
    assert sin == [Fraction(s, math.factorial(k)) for k, s in enumerate([0, 1, 0, -1] * 2)]
    assert cos == [Fraction(s, math.factorial(k)) for k, s in enumerate([1, 0, -1, 0] * 2)]
    assert _series_of("x^3", 0.0, 4) == [0, 0, 0, 1, 0]        # a whole power at 0: products
    with pytest.raises(Unsupported):
        _series_of("x^1.5", 0.0, 2)                             # not analytic at 0


def test_where_the_series_cannot_go_the_derivatives_still_answer():
    # x^1.5 at 0: f and f' exist, f'' does not; order 1 is the tangent, as before.
    assert taylor("x^1.5", {"x": 0.0}, 1).polynomial == "0"
    # two variables: the partial derivatives, as before
    assert taylor("e^x cos y", {"x": 0.0, "y": 0.0}, 2).polynomial == "1 + x + x^2/2 - y^2/2"
