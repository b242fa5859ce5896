"""--hessian: second partials by differentiating the backward pass, checked against SymPy."""
import json
import math

import pytest
import sympy as sp
from click.testing import CliRunner
from sympy_bridge import number, to_sympy

from gradcli import api
from gradcli.cli import main
from gradcli.autodiff.engine import Value
from gradcli.language.parser import parse_expr

CASES = [
    ("(w*x+b)**2", {"w": 3, "x": 2, "b": 1}),
    ("x**y", {"x": 2, "y": 3}),
    ("sin(x*y) + exp(x - y)", {"x": 0.3, "y": -0.7}),
    ("log(x, b)", {"x": 5, "b": 3}),
    ("sigmoid(w*x + b)", {"w": 0.5, "x": -1.5, "b": 0.25}),
    ("atan2(y, x) * sqrt(x**2 + y**2)", {"y": 1.2, "x": -0.4}),
    ("softplus(a) / cosh(b) + tan(a*b)", {"a": 0.7, "b": 0.2}),
    ("max(x, y)**2 + relu(x - 2*y)", {"x": 1.5, "y": 0.5}),
    ("cbrt(x) * asinh(y) + acosh(x + 2) - atanh(y/2)", {"x": -0.5, "y": 0.4}),
    ("sec(x) + csc(y) + cot(x*y) + log10(x + 4) + log2(y + 1)", {"x": 0.5, "y": 0.9}),
]


@pytest.mark.parametrize("text,at", CASES)
def test_hessian_matches_sympy(text, at):
    result = api.evaluate(text, at, hessian=True)
    symbols = {}
    f = to_sympy(parse_expr(text), symbols)
    point = {symbols[k]: sp.Float(v, 30) for k, v in at.items() if k in symbols}
    names = list(result.hessian)
    assert names == list(result.gradient)
    for a in names:
        for b in names:
            expected = number(sp.diff(f, symbols[a], symbols[b]).subs(point))
            got = result.hessian[a][b]
            assert got == pytest.approx(expected, rel=1e-9, abs=1e-12), (a, b)


def test_textbook_hessian_and_symmetry():
    r = api.evaluate("(w*x+b)**2", w=3, x=2, b=1, hessian=True)
    assert r.hessian == {"w": {"w": 8, "x": 26, "b": 4}, "x": {"w": 26, "x": 18, "b": 6},
                         "b": {"w": 4, "x": 6, "b": 2}}
    assert r.gradient == {"w": 28, "x": 42, "b": 14}


def test_hessian_through_a_program_shares_names():
    text = "z = w*x + b\ny = sigmoid(z)\nloss = (y - t)**2"
    r = api.evaluate(text, w=0.5, x=2, b=0, t=1, hessian=True)
    flat = api.evaluate("(sigmoid(w*x + b) - t)**2", w=0.5, x=2, b=0, t=1, hessian=True)
    for a in r.hessian:
        for b in r.hessian:
            assert r.hessian[a][b] == pytest.approx(flat.hessian[a][b], rel=1e-12)


def test_wrt_restricts_the_hessian():
    r = api.evaluate("x**2*y**3", x=2, y=1, wrt=["y"], hessian=True)
    assert r.hessian == {"y": {"y": 24.0}}


def test_create_graph_gives_differentiable_gradients():
    x = Value(1.5)
    y = x ** 3
    y.backward(create_graph=True)
    g = x.grad
    assert isinstance(g, Value) and g.data == pytest.approx(3 * 1.5 ** 2)
    x.grad = 0
    g.backward()
    assert x.grad == pytest.approx(6 * 1.5)


def test_undefined_second_derivative_is_nan_with_a_warning():
    r = api.evaluate("sqrt(x)", x=0, hessian=True)
    assert r.gradient["x"] == math.inf
    assert math.isnan(r.hessian["x"]["x"])
    assert any("second derivatives" in w for w in r.warnings)


def test_exact_hessian():
    from fractions import Fraction
    r = api.evaluate("x**3/3 + x*y", x=Fraction(1, 2), y=2, exact=True, hessian=True)
    assert r.hessian == {"x": {"x": 1, "y": 1}, "y": {"x": 1, "y": 0}}
    assert all(type(v) is Fraction for row in r.hessian.values() for v in row.values())


def test_cli_hessian_formats():
    runner = CliRunner()
    args = ["eval", "(w*x+b)**2", "--at", "w=3,x=2,b=1", "--hessian"]
    out = runner.invoke(main, args + ["-o", "json"])
    assert out.exit_code == 0
    record = json.loads(out.stdout)
    assert record["hessian"] == {"w": {"w": 8.0, "x": 26.0, "b": 4.0},
                                 "x": {"w": 26.0, "x": 18.0, "b": 6.0},
                                 "b": {"w": 4.0, "x": 6.0, "b": 2.0}}
    out = runner.invoke(main, ["eval", "x**2*y", "--at", "x=3,y=2", "--hessian", "-o", "plain"])
    assert out.stdout == "f\t18\ndf/dx\t12\ndf/dy\t9\nd2f/dx2\t4\nd2f/dxdy\t6\nd2f/dy2\t0\n"
    out = runner.invoke(main, ["eval", "x**2*y", "--at", "x=3,y=2", "--hessian", "-o", "table"])
    assert out.exit_code == 0
    rows = [line.split() for line in out.stdout.splitlines()]
    assert ["∂²f/∂a∂b", "x", "y"] in rows and ["x", "4", "6"] in rows and ["y", "6", "0"] in rows
    out = runner.invoke(main, ["eval", "x**2*y", "--at", "x=3,y=2", "--hessian", "-o", "csv"])
    assert out.stdout.splitlines() == [
        "x,y,f,df/dx,df/dy,d2f/dx2,d2f/dxdy,d2f/dy2", "3,2,18,12,9,4,6,0"]


@pytest.mark.parametrize("text,at", CASES[:6] + [("z = w*x + b; y = sigmoid(z); (y - t)**2",
                                                  {"w": 0.5, "x": 2, "b": 0.1, "t": 1})])
def test_hessian_agrees_with_diff_order_2(text, at):
    """The double backward pass and the symbolic second derivatives give the same numbers."""
    at_text = ",".join(f"{k}={v}" for k, v in at.items())
    ours = json.loads(CliRunner().invoke(
        main, ["eval", text, "--at", at_text, "--hessian", "-o", "json"]).stdout)["hessian"]
    theirs = json.loads(CliRunner().invoke(
        main, ["diff", text, "--order", "2", "--at", at_text, "-o", "json"]).stdout)["values"]
    assert theirs
    for key, value in theirs.items():
        a, b = key.split(",")
        assert ours[a][b] == pytest.approx(value, rel=1e-12, abs=1e-14), key
        assert ours[b][a] == pytest.approx(value, rel=1e-12, abs=1e-14), key
    assert len(theirs) == len(ours) * (len(ours) + 1) // 2
