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


def test_a_non_polynomial_f_refused_says_what_to_do():
    result = CliRunner().invoke(main, ["extrema", "x e^y + z", "--where", "x^2 + y^2 + z^2 <= 1"])
    assert result.exit_code == 3
    assert "monotone function" in result.output and "on that face with --where" in result.output


def test_a_monotone_function_of_a_polynomial_has_its_candidates():
    # e^(-p): the max where p is least, the min where it is greatest, exact and complete
    r = solve("e^(-(x^2 + y^2 + z^2))", None, "x^2 + y^2 + z^2 <= 1", None)
    assert r.complete
    assert _side(r.max) == (1, [(0, 0, 0)])
    assert sp.simplify(r.min.value - sp.exp(-1)) == 0 and list(r.min.along)
    # ln p needs p > 0 on the whole solid, proven from p's exact minimum
    r = solve("ln(x + y + z)", None, "x >= 1, y >= 1, z >= 1, x + y + z <= 6", None)
    assert sp.simplify(r.max.value - sp.log(6)) == 0
    assert _side(r.min) == (sp.log(3), [(1, 1, 1)])
    result = CliRunner().invoke(main, ["extrema", "ln(x + y + z)", "--where",
                                       "x^2 + y^2 + z^2 <= 1"])
    assert result.exit_code == 3 and "defined only where p > 0" in result.output


@pytest.mark.slow
def test_xyz_on_a_ball_past_the_axes_and_a_curve_at_an_extreme_refused():
    # grad(x y z) = 0 on the three axes, inside the ball; f = 0 there, strictly between -1 and 1
    r = solve("x y z", None, "x^2 + y^2 + z^2 <= 3", None)
    assert _side(r.max) == (1, [(-1, -1, 1), (-1, 1, -1), (1, -1, -1), (1, 1, 1)])
    assert _side(r.min) == (-1, [(-1, -1, -1), (-1, 1, 1), (1, -1, 1), (1, 1, -1)])
    # the minimum 0 of (x - y)^2 + z on the cube is attained along x = y on z = 0: refused
    result = CliRunner().invoke(main, ["extrema", "(x - y)^2 + z", "--over", "x=0:1,y=0:1,z=0:1"])
    assert result.exit_code == 3 and "whole curve" in result.output


# -- generated verdicts: separable quadratics on boxes, SymPy the judge ---------------------

def _separable(rng):
    """f = Σ a_i v_i² + b_i v_i on a box, and its exact max and min with every point, from
    each one-variable part on its interval (SymPy, by the closed interval method)."""
    terms, ranges, parts = [], [], []
    for v in (X, Y, Z):
        a, b = rng.choice((-2, -1, 1, 2, 3)), rng.randint(-4, 4)
        lo = rng.randint(-3, 1)
        hi = lo + rng.randint(1, 4)
        g = a * v**2 + b * v
        pts = {sp.Integer(lo), sp.Integer(hi)} | {p for p in sp.solve(sp.diff(g, v), v)
                                                   if lo < p < hi}
        values = {p: g.subs(v, p) for p in pts}
        parts.append(values)
        terms.append(f"{a}*{v}^2 + {b}*{v}")
        ranges.append(f"{v}={lo}:{hi}")
    text = " + ".join(f"({t})" for t in terms)
    out = {}
    for pick in (max, min):
        best = [pick(p.values()) for p in parts]
        where = [[q for q, val in p.items() if val == b] for p, b in zip(parts, best)]
        import itertools
        out[pick.__name__] = (sum(best), sorted(itertools.product(*where)))
    return text, ",".join(ranges), out


def _answer(value, points):
    return f"{value} at " + " and ".join("(" + ", ".join(str(c) for c in p) + ")" for p in points)


def _slips(value, points, other):
    """Wrong answers for one side: the value off by one, the other extremum, a point off by
    one, a point missed (where there are several)."""
    out = [_answer(value + 1, points), _answer(*other),
           _answer(value, [tuple(c + 1 for c in points[0])])]
    if len(points) > 1:
        out.append(_answer(value, points[:1]))
    return [w for w in out if w != _answer(value, points)]


def _pairs(n, seed):
    """n questions, each with one side answered right and the other wrong (one solve grades
    both): n right and n wrong answers."""
    import random
    rng = random.Random(seed)
    cases = []
    while len(cases) < n:
        text, over, truth = _separable(rng)
        top, bottom = truth["max"], truth["min"]
        right_side = rng.choice(("abs_max", "abs_min"))
        value, points = top if right_side == "abs_max" else bottom
        right = rng.choice([_answer(value, points), str(value)])
        wrong = rng.choice(_slips(*bottom, top) if right_side == "abs_max" else _slips(*top, bottom))
        cases.append((text, over, right_side, right, wrong))
    return cases


def _run(n, seed):
    bad = []
    for text, over, right_side, right, wrong in _pairs(n, seed):
        wrong_side = "abs_min" if right_side == "abs_max" else "abs_max"
        verdict = check_homework(text, over=over, **{right_side: right, wrong_side: wrong})
        got = {a.key: a for a in verdict.answers}
        r = got[right_side.replace("abs_", "absolute ")]
        w = got[wrong_side.replace("abs_", "absolute ")]
        if not r.ok:
            bad.append((text, over, right, r.reason))
        if w.ok or w.mistake is None:
            bad.append((text, over, wrong, w.mistake))
    assert not bad, bad[:5]


@pytest.mark.slow
def test_separable_boxes_200_right_200_wrong():
    _run(200, 3535)


@pytest.mark.parametrize("f, p, needs", [
    (sp.exp(X * Y * Z), X * Y * Z, ""), (3 - 2 * sp.atan(X + Y), X + Y, ""),
    (sp.sqrt(X**2 + Y**2 + Z**2), X**2 + Y**2 + Z**2, "nonnegative"),
    (1 / (1 + X**2), 1 + X**2, "positive"), (sp.log(X + Z), X + Z, "positive"),
    (2**(X - Y), X - Y, ""), (X * sp.exp(Y), None, None), (sp.sin(X + Y), None, None),
    (sp.exp(sp.sin(X)), None, None),
    # acot jumps at 0 although its derivative is negative: monotone only where p > 0
    (sp.acot(X + Y), X + Y, "positive"), (sp.cosh(Z), Z, "positive"),
])
def test_which_f_is_a_monotone_function_of_a_polynomial(f, p, needs):
    from gradcli.tasks.monotone import polynomial_inside
    got = polynomial_inside(f, (X, Y, Z))
    assert (got if got is None else got[:2]) == (None if p is None else (sp.expand(p), needs))
    if got is not None:   # outer(p) is f again
        assert sp.simplify(got[2](sp.expand(p)) - f) == 0


def test_the_json_record_names_the_expression_typed():
    import json
    run = CliRunner().invoke(main, ["extrema", "x + y + z", "--where", "x^2 + y^2 + z^2 <= 1",
                                    "-o", "json"])
    assert run.exit_code == 0, run.output
    assert json.loads(run.stdout)["expression"] == "x + y + z"
