"""Generated verdicts for absolute extrema in several variables, SymPy as the judge.

Two kinds of problem, drawn with a fixed seed:
- a rectangle: f = a x^2 + b y^2 + c xy + d x + e y on [x0, x1] × [y0, y1] (4ab ≠ c², no
  side along which f is constant, so that every extremum is at isolated points); the judge
  studies the interior (a linear system), each side as a polynomial in one variable
  (its real roots) and the corners, on its own;
- Lagrange: f = a x^2 + b y^2 + d x on the circle x^2 + y^2 = r^2; the judge puts
  y^2 = r^2 - x^2 and studies the polynomial in x on [-r, r];
- a disk (`--where "x^2 + y^2 <= r^2"`): the same f and circle, and the interior
  critical point (-d/2a, 0) where it is inside.
The judge's max and min (value and every point) make 5 right answers and 5 wrong ones
per problem (a value off by one, the other extremum, a point left out, a point where it
is not attained, a point outside); `check` must mark each as the judge does. 40 problems
of each kind (200 right + 200 wrong per kind; rectangles and disks are both the region
kind) run in the slow job; one rectangle and one circle (5 + 5 each) always.
"""
import random

import pytest
import sympy as sp

from gradcli.closedtext import closed_text
from gradcli.tasks.check.regions import grade_answers, prepare
from gradcli.tasks.several import solve

X, Y = sp.symbols("x y", real=True)
PROBLEMS = 40


def _poly_text(coefficients, monomials):
    return " + ".join(f"({c})*{m}" for c, m in zip(coefficients, monomials) if c) or "0"


def rectangle(seed):
    rng = random.Random(seed)
    while True:
        # a nondegenerate quadratic (isolated critical points) with no side along which
        # f is constant: the judge's points are then every point of attainment
        a, b, c, d, e = (rng.randint(-3, 3) for _ in range(5))
        x0 = rng.randint(-3, 1)
        y0 = rng.randint(-3, 1)
        x1, y1 = x0 + rng.randint(1, 4), y0 + rng.randint(1, 4)
        if 4 * a * b != c * c and not any(
                b == 0 and c * v + e == 0 for v in (x0, x1)) and not any(
                a == 0 and c * v + d == 0 for v in (y0, y1)):
            break
    f = a * X ** 2 + b * Y ** 2 + c * X * Y + d * X + e * Y
    text = _poly_text((a, b, c, d, e), ("x^2", "y^2", "x*y", "x", "y"))
    points = [(sp.Integer(x), sp.Integer(y)) for x in (x0, x1) for y in (y0, y1)]
    grad = sp.solve([sp.diff(f, X), sp.diff(f, Y)], [X, Y], dict=True)
    points += [(s[X], s[Y]) for s in grad if X in s and Y in s
               and x0 <= s[X] <= x1 and y0 <= s[Y] <= y1]
    for fixed, free, lo, hi in ((X, Y, y0, y1), (Y, X, x0, x1)):
        for value in ((x0, x1) if fixed == X else (y0, y1)):
            side = sp.Poly(sp.diff(f.subs(fixed, value), free), free)
            for r in side.real_roots():
                if lo <= r <= hi:
                    points.append((sp.Integer(value), r) if fixed == X else (r, sp.Integer(value)))
    return text, f"x={x0}:{x1},y={y0}:{y1}", None, f, points, (x0, x1, y0, y1)


def circle(seed):
    rng = random.Random(10_000 + seed)
    while True:
        a, b, d = rng.randint(-3, 3), rng.randint(-3, 3), rng.randint(-4, 4)
        if a != b:
            break
    r2 = rng.choice([1, 4, 9, 16, 25])
    return _circle_of(a, b, d, r2)


def disk(seed):
    """f = a x^2 + b y^2 + d x on the disk x^2 + y^2 <= r^2 (a, b != 0: isolated points):
    the circle's points as in circle(), and the interior critical point (-d/2a, 0)."""
    rng = random.Random(20_000 + seed)
    while True:
        a, b, d = rng.randint(-3, 3), rng.randint(-3, 3), rng.randint(-4, 4)
        if a != b and a and b:
            break
    r2 = rng.choice([1, 4, 9, 16, 25])
    text, _, _, f, points, _ = _circle_of(a, b, d, r2)
    x0 = sp.Rational(-d, 2 * a)
    if x0 ** 2 < r2:
        points.append((x0, sp.Integer(0)))
    return text, None, f"x^2 + y^2 <= {r2}", f, points, None


def _circle_of(a, b, d, r2):
    r = sp.sqrt(r2)
    f = a * X ** 2 + b * Y ** 2 + d * X
    text = _poly_text((a, b, d), ("x^2", "y^2", "x"))
    F = sp.expand(f.subs(Y ** 2, r2 - X ** 2))
    xs = [-r, r] + [x for x in sp.Poly(sp.diff(F, X), X).real_roots() if -r < x < r]
    points = []
    for x in xs:
        y = sp.sqrt(r2 - x ** 2)
        points += [(x, y), (x, -y)] if y != 0 else [(x, sp.Integer(0))]
    return text, None, [f"x^2 + y^2 = {r2}"], f, points, None


def judge(f, points):
    """{"max"/"min": (value, [points])} from the candidate points, exactly."""
    values = [(sp.nsimplify(f.subs({X: p[0], Y: p[1]})), p) for p in points]
    out = {}
    for key, pick in (("max", max), ("min", min)):
        best = pick(v for v, _ in values)
        where = []
        for v, p in values:
            if sp.simplify(v - best) == 0 and p not in where:
                where.append(p)
        out[key] = (best, where)
    return out


def _pt(p):
    return "(" + ", ".join(closed_text(v) for v in p) + ")"


def answers(truth, f, points, box):
    """5 right and 5 wrong (answer, key) pairs from the judge's verdict."""
    right, wrong = [], []
    for key, other in (("max", "min"), ("min", "max")):
        value, where = truth[key]
        option = "abs_" + key
        right.append((option, closed_text(value)))
        right.append((option, f"{closed_text(value)} at " + " and ".join(map(_pt, where))))
        wrong.append((option, closed_text(value + 1)))
        if len(where) > 1:
            wrong.append((option, f"{closed_text(value)} at {_pt(where[0])}"))
        else:
            outside = (box[1] + 1, box[3] + 1) if box else (sp.Integer(7), sp.Integer(7))
            wrong.append((option, f"{closed_text(value)} at {_pt(outside)}"))
    value, where = truth["max"]
    right.append(("abs_max", " and ".join(map(_pt, where))))
    beaten = [p for p in points if sp.simplify(f.subs({X: p[0], Y: p[1]}) - value) != 0]
    if truth["max"][0] != truth["min"][0]:
        wrong.append(("abs_max", closed_text(truth["min"][0])))
    if beaten:
        wrong.append(("abs_max", f"{closed_text(value)} at {_pt(beaten[0])}"))
    while len(wrong) < 5:
        wrong.append(("abs_min", closed_text(truth["min"][0] - 1 - len(wrong))))
    return right, wrong[:5]


def _run(kind, seed):
    text, over, region, f, points, box = kind(seed)
    truth = judge(f, points)
    right, wrong = answers(truth, f, points, box)
    where, subject_to = (region, None) if isinstance(region, str) else (None, region)
    result = solve(text, over, where, subject_to)
    bad = []
    for (option, answer), expected in [(r, True) for r in right] + [(w, False) for w in wrong]:
        graded = grade_answers(result, prepare({option: answer}, result.names))[0]
        if graded.ok != expected or (not expected and not graded.mistake):
            bad.append((text, over or region, option, answer, graded.ok, graded.reason))
    return len(right), len(wrong), bad


@pytest.mark.parametrize("kind", [rectangle, circle], ids=["rectangle", "lagrange"])
def test_one_problem_of_each_kind_five_right_five_wrong(kind):
    n_right, n_wrong, bad = _run(kind, 0)
    assert (n_right, n_wrong) == (5, 5) and bad == []


@pytest.mark.slow
@pytest.mark.parametrize("kind", [rectangle, disk, circle], ids=["rectangle", "disk", "lagrange"])
def test_two_hundred_right_and_two_hundred_wrong_per_kind(kind):
    totals, bad = [0, 0], []
    for seed in range(PROBLEMS):
        n_right, n_wrong, wrong_verdicts = _run(kind, seed)
        totals[0] += n_right
        totals[1] += n_wrong
        bad += wrong_verdicts
    assert totals == [200, 200] and bad == [], bad[:5]
