"""extrema on a solid in space (--where with three variables, or a box --over
x=..,y=..,z=..): every face, edge and corner solved exactly. The truths are built in
(separable sums, Cauchy-Schwarz, AM-GM, a sphere's own f) and a grid of the solid, by
NumPy on SymPy's f, never beats them; check grades the answers, a point outside named."""
import math

import numpy as np
import pytest
import sympy as sp
from click.testing import CliRunner

from gradcli.cli import main
from gradcli.errors import GradcliError
from gradcli.tasks.check import check_homework
from gradcli.tasks.several import solve

X, Y, Z = sp.symbols("x y z", real=True)
R3 = sp.sqrt(3)

CASES = [  # f, --over, --where, (max, its points or along), (min, ...)
    ("x y z", "x=0:1,y=0:1,z=0:1", None, (1, [(1, 1, 1)]), (0, ["x = 0", "y = 0", "z = 0"])),
    ("x + y + z", None, "x^2 + y^2 + z^2 <= 1", (R3, [(R3 / 3,) * 3]), (-R3, [(-R3 / 3,) * 3])),
    ("x y z", None, "x >= 0, y >= 0, z >= 0, x + y + z <= 3", (1, [(1, 1, 1)]),
     (0, ["x = 0", "y = 0", "z = 0"])),
    ("x^2 + y^2 + z^2 - 2z", None, "x^2 + y^2 + z^2 <= 4, z >= 0",
     (4, ["x^2 + y^2 + z^2 = 4 and z = 0"]), (-1, [(0, 0, 1)])),
    ("x^2 + 2y^2 + 3z^2 - 2x", "x=-1:2,y=-1:1,z=-1:1", None,
     (8, [(-1, -1, -1), (-1, -1, 1), (-1, 1, -1), (-1, 1, 1)]), (-1, [(1, 0, 0)])),
]


SYMPY = {"x y z": X * Y * Z, "x + y + z": X + Y + Z, "x^2 + y^2 + z^2 - 2z": X**2 + Y**2 + Z**2 - 2 * Z,
         "x^2 + 2y^2 + 3z^2 - 2x": X**2 + 2 * Y**2 + 3 * Z**2 - 2 * X}


def _side(side):
    return sp.nsimplify(side.value), [tuple(sp.nsimplify(v) for v in at.values())
                                      for at in side.at] + list(side.along)


def _grid_bounds(f, over, where):
    """The max and min of f on a 41³ grid of the solid's bounding box kept to the solid."""
    fx = sp.lambdify((X, Y, Z), SYMPY[f], "numpy")
    if over:
        axes = [np.linspace(*map(float, part.split("=")[1].split(":")), 41)
                for part in over.split(",")]
        keep = None
    else:
        axes = [np.linspace(-3, 3, 61)] * 3
    g = np.meshgrid(*axes, indexing="ij")
    values = fx(*g) * np.ones_like(g[0])
    if where:
        keep = np.ones_like(g[0], dtype=bool)
        for part in where.split(","):
            lhs, rhs = part.split("<=") if "<=" in part else part.split(">=")[::-1]
            lo = sp.lambdify((X, Y, Z), sp.sympify(lhs.replace("^", "**")), "numpy")
            hi = sp.lambdify((X, Y, Z), sp.sympify(rhs.replace("^", "**")), "numpy")
            keep &= lo(*g) * np.ones_like(g[0]) <= hi(*g) * np.ones_like(g[0]) + 1e-12
        values = values[keep]
    return values.max(), values.min()


def _check(f, over, where, top, bottom):
    r = solve(f, over, where, None)
    assert r.complete
    assert _side(r.max) == (sp.nsimplify(top[0]), top[1])
    assert _side(r.min) == (sp.nsimplify(bottom[0]), bottom[1])
    hi, lo = _grid_bounds(f, over, where)
    assert hi <= float(top[0]) + 1e-9 and lo >= float(bottom[0]) - 1e-9


@pytest.mark.parametrize("f, over, where, top, bottom", CASES[:1], ids=[c[0] for c in CASES[:1]])
def test_a_box(f, over, where, top, bottom):
    _check(f, over, where, top, bottom)


@pytest.mark.slow
@pytest.mark.parametrize("f, over, where, top, bottom", CASES[1:],
                         ids=[c[2] or c[1] for c in CASES[1:]])
def test_balls_tetrahedra_half_balls_and_boxes(f, over, where, top, bottom):
    _check(f, over, where, top, bottom)


def test_check_names_a_point_outside_the_solid_and_accepts_the_book_form():
    verdict = check_homework("x y z", over="x=0:1,y=0:1,z=0:1", abs_max="1 at (1, 1, 1)",
                             abs_min="0")
    assert verdict.ok
    a = check_homework("x y z", over="x=0:1,y=0:1,z=0:1", abs_max="8 at (2, 2, 2)").answers[0]
    assert a.mistake == "not-in-region", a.reason


@pytest.mark.parametrize("args, code", [
    (["x + y + z", "--where", "x >= 0, y >= 0, z >= 0"], 2),        # not bounded
    (["sin(x) + y + z", "--over", "x=0:1,y=0:1,z=0:1"], 3),          # not a polynomial
])
def test_what_it_cannot_prove_is_refused(args, code):
    result = CliRunner().invoke(main, ["extrema"] + args)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
