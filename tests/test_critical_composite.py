"""Critical points of f = g(u), u a polynomial (`x y + e^(-x y)`): the level sets u = c with
g'(c) = 0 are curves of critical points, reported as sets, proven complete, never a cloud
of grid points. SymPy is the judge: ∇f vanishes identically on each set reported, and the
kinds follow from g's own second derivative at c (built into each case)."""
import math

import pytest
import sympy as sp
from click.testing import CliRunner

from gradcli import api
from gradcli.cli import main
from gradcli.tasks.critical import critical_points
from gradcli.tasks.critical_composite import inner_polynomial

X, Y = sp.symbols("x y", real=True)
BOX = {"x": (-2.0, 2.0), "y": (-2.0, 2.0)}
PI = sp.pi


def crit(text, box=BOX):
    return critical_points(text, box, evaluate=api.evaluate)


def _vanishes_on(f, equation):
    """∇f is 0 at every point of the set `lhs = rhs`, by algebra on its parametrisation."""
    from gradcli.tasks.exactinput import read_sympy
    lhs, _, rhs = equation.partition(" = ")
    h = read_sympy(f"({lhs}) - ({rhs})", ["x", "y"])[0]
    for v, w in ((X, Y), (Y, X)):
        solved = sp.solve(h, v)
        if solved:
            return all(sp.simplify(sp.diff(f, s).subs(v, root)) == 0
                       for root in solved for s in (X, Y))
    return False


CASES = [  # text, SymPy f, {set equation: kind}, [(point, kind)]
    ("x y + e^(-x y)", X * Y + sp.exp(-X * Y),
     {"x = 0": "minimum (not strict)", "y = 0": "minimum (not strict)"}, []),
    ("(x^2 + y^2) e^(-(x^2 + y^2))", (X**2 + Y**2) * sp.exp(-(X**2 + Y**2)),
     {"x^2 + y^2 = 1": "maximum (not strict)"}, [((0, 0), "local minimum")]),
    ("sin(x^2 + y^2)", sp.sin(X**2 + Y**2),
     {"x^2 + y^2 = π/2": "maximum (not strict)", "x^2 + y^2 = 3π/2": "minimum (not strict)",
      "x^2 + y^2 = 5π/2": "maximum (not strict)"}, [((0, 0), "local minimum")]),
    ("cos(x - y)", sp.cos(X - Y),
     {"x = y": "maximum (not strict)", "x = y + π": "minimum (not strict)",
      "x = y - π": "minimum (not strict)"}, []),
]


@pytest.mark.parametrize("text, f, sets, points", [
    pytest.param(*c, id=c[0], marks=pytest.mark.slow if i in (1, 2) else ())
    for i, c in enumerate(CASES)])
def test_the_level_sets_are_reported_proven_and_critical(text, f, sets, points):
    c = crit(text)
    assert c.complete and c.method == "algebra", c.note
    assert dict(c.sets) == sets, c.sets
    assert all(_vanishes_on(f, e) for e in sets)
    got = [(tuple(c_.point[n] for n in ("x", "y")), c_.kind) for c_ in c.points]
    assert got == [(tuple(map(float, p)), k) for p, k in points]
    assert "f is a function of u" in c.note


def test_the_inner_polynomial_and_its_sign():
    u, g, U = inner_polynomial(sp.sin(X**2 + Y**2) + sp.exp(-(X**2 + Y**2)), [X, Y])
    assert u == X**2 + Y**2 and g.free_symbols == {U}
    assert inner_polynomial(sp.sin(X) * sp.cos(Y), [X, Y]) is None
    assert inner_polynomial(X * Y + sp.exp(X), [X, Y]) is None


def test_without_a_box_the_whole_plane_and_through_the_cli():
    c = crit("x y + e^(-x y)", {"x": (-math.inf, math.inf), "y": (-math.inf, math.inf)})
    assert c is not None and c.complete and "in the whole plane" in c.note
    result = CliRunner().invoke(main, ["critical", "x y + e^(-x y)", "--over",
                                       "x=-2:2,y=-2:2", "-o", "plain"])
    assert result.exit_code == 0
    assert "every point critical" in result.output and "Newton" not in result.output
