"""--exact's closed forms, judged by SymPy: tangents, Taylor coefficients and directional
derivatives at points in π and roots are exactly SymPy's numbers (docs/homework.md)."""
import json
import re

import pytest
import sympy as sp
from click.testing import CliRunner
from sympy.parsing.sympy_parser import (implicit_multiplication_application, parse_expr,
                                        standard_transformations)

from gradcli.cli import main

X, Y = sp.symbols("x y")
TRANSFORMS = standard_transformations + (implicit_multiplication_application,)
FUNCTIONS = {"sin x": sp.sin(X), "cos x": sp.cos(X), "tan x": sp.tan(X), "sqrt(x)": sp.sqrt(X),
             "ln x": sp.log(X), "e^x": sp.exp(X), "x sin x": X * sp.sin(X),
             "asin(x)": sp.asin(X), "atan(x)": sp.atan(X), "x^2 + y^2": X**2 + Y**2,
             "sin(x) cos(y)": sp.sin(X) * sp.cos(Y), "e^x y": sp.exp(X) * Y,
             "sqrt(x^2 + y^2)": sp.sqrt(X**2 + Y**2)}


def sympy_of(text) -> sp.Expr:
    """A closed form as gradcli prints it (√3/2, 9√2/2, 8ln(2), e^(-1)), read by SymPy."""
    text = str(text)
    for a, b in (("√", "sqrt "), ("π", "pi"), ("^", "**"), ("ln", "log")):
        text = text.replace(a, b)
    # a radical takes the number, letter or bracket right after it, as gradcli reads it
    text = re.sub(r"sqrt (\d+|\([^()]*\)|[a-z])", r"sqrt(\1)", text)
    return parse_expr(text, local_dict={"e": sp.E, "pi": sp.pi, "x": X, "y": Y},
                      transformations=TRANSFORMS)


def run(*args):
    r = CliRunner().invoke(main, [*args, "--exact", "-o", "json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def same(a, b) -> bool:
    return sp.simplify(a - b) == 0


def text_of(v) -> str:
    return sp.sstr(v).replace("E", "e")


@pytest.mark.parametrize("f,point", [
    ("sin x", {"x": sp.pi / 3}), ("cos x", {"x": sp.pi / 4}), ("tan x", {"x": sp.pi / 6}),
    ("sqrt(x)", {"x": 2}), ("ln x", {"x": sp.E}), ("e^x", {"x": 1}),
    ("x sin x", {"x": sp.pi / 2}), ("asin(x)", {"x": sp.Rational(1, 2)}),
    ("atan(x)", {"x": sp.sqrt(3)}), ("x^2 + y^2", {"x": 1, "y": 2}),
    ("sin(x) cos(y)", {"x": sp.pi / 6, "y": sp.pi / 3}), ("e^x y", {"x": 1, "y": 2}),
    ("sqrt(x^2 + y^2)", {"x": 1, "y": 1}),
])
def test_tangent_value_and_slopes_are_sympys(f, point):
    expr = FUNCTIONS[f]
    at = ",".join(f"{k}={text_of(v)}" for k, v in point.items())
    rec = run("tangent", f, "--at", at)
    subs = {sp.Symbol(k): v for k, v in point.items()}
    assert same(sympy_of(rec["value"]), expr.subs(subs)), rec["value"]
    for name, g in rec["gradient"].items():
        assert same(sympy_of(g), sp.diff(expr, sp.Symbol(name)).subs(subs)), (name, g)
    # the equation a student would copy reads back as the same plane
    rhs = sympy_of(rec["equation"].split("=", 1)[1])
    plane = expr.subs(subs) + sum(sp.diff(expr, s).subs(subs) * (s - v)
                                  for s, v in subs.items())
    assert same(rhs, plane), rec["equation"]


@pytest.mark.parametrize("f,a,order", [
    ("e^x", 1, 3), ("sin x", sp.pi / 4, 3), ("ln x", 2, 3), ("sqrt(x)", 3, 2),
    ("cos x", sp.pi / 3, 4),
])
def test_taylor_coefficients_are_sympys(f, a, order):
    expr = FUNCTIONS[f]
    rec = run("taylor", f, "--at", f"x={text_of(a)}", "--order", str(order))
    got = {sum(t["powers"].values()): sympy_of(t["coefficient"]) for t in rec["terms"]}
    for k in range(order + 1):
        want = sp.diff(expr, X, k).subs(X, a) / sp.factorial(k)
        assert same(got.get(k, sp.S.Zero), want), (k, got.get(k), want)


@pytest.mark.parametrize("f,expr,at,direction", [
    ("x^2 - x y + 3y^2", X**2 - X*Y + 3*Y**2, (-1, 2), ("1", "1")),
    ("x^3 - 3x y + 4y^2", X**3 - 3*X*Y + 4*Y**2, (1, 2), ("cos(pi/6)", "sin(pi/6)")),
    ("sin(x y)", sp.sin(X*Y), (1, sp.pi / 4), ("3", "4")),
])
def test_directional_derivatives_are_sympys(f, expr, at, direction):
    rec = run("eval", f, "--at", f"x={text_of(at[0])},y={text_of(at[1])}",
              "--direction", ",".join(direction))
    v = [sp.sympify(c) for c in direction]
    norm = sp.sqrt(sum(c**2 for c in v))
    subs = {X: at[0], Y: at[1]}
    want = sum(sp.diff(expr, s).subs(subs) * c / norm for s, c in zip((X, Y), v))
    assert same(sympy_of(rec["directional"]["derivative"]), want)
