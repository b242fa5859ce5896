"""Critical points proven complete: by algebra (polynomials, rational functions), by
interval arithmetic (trig, exp), or said not to be; and `check --critical` against them.

The truth of every case comes from SymPy or from the construction of the case (a
product of sines has its critical points where both sines, or both cosines, vanish),
never from gradcli. The adversarial families (narrow wells that hide the global
minimum, points a hair inside or outside the box, many critical points, irrational
ones) run in the slow suite; a few of each run always.
"""
import itertools
import json
import math
import random

import pytest
import sympy as sp
from click.testing import CliRunner

from gradcli import api
from gradcli.cli import main
from gradcli.tasks.check import check_homework
from gradcli.tasks.critical import critical_points

X, Y, Z = sp.symbols("x y z", real=True)
WHOLE = (-math.inf, math.inf)


def crit(text, box, **kw):
    return critical_points(text, box, evaluate=api.evaluate, **kw)


def exact_points(c):
    return {tuple(sp.nsimplify(p.exact[n]) for n in c.box) for p in c.points}


def sympy_truth(f, box):
    """The real critical points of a polynomial f(x, y) in the box and their kinds, by a
    method other than gradcli's: the resultant of f_x and f_y in x, its real roots y
    (SymPy, exact), the x of each from f_x and f_y at 50 digits; kinds by the Hessian.
    The judge, independent of gradcli's Gröbner bases."""
    fx, fy = sp.diff(f, X), sp.diff(f, Y)
    out = {}
    res = sp.Poly(sp.resultant(fx, fy, X), Y)
    for y0 in set(res.real_roots()):
        yv = sp.N(y0, 50)
        for x0 in sp.Poly(fx.subs(Y, yv), X).nroots(n=50):
            if abs(sp.im(x0)) > 1e-30 or abs(fy.subs({X: x0, Y: yv})) > 1e-30:
                continue
            x0 = sp.re(x0)
            if not (box["x"][0] <= x0 <= box["x"][1] and box["y"][0] <= yv <= box["y"][1]):
                continue
            h = sp.hessian(f, (X, Y)).subs({X: x0, Y: yv})
            d = h.det()
            kind = ("saddle point" if d < 0 else "local minimum" if h[0, 0] > 0
                    else "local maximum")
            out[(float(x0), float(yv))] = kind
    return out


# ---------------------------------------------------------------- algebra

def test_a_polynomial_in_the_whole_plane_is_solved_exactly_and_proven_complete():
    c = crit("x^4 + y^4 - 4x y + 1", {"x": WHOLE, "y": WHOLE})
    assert c.complete and c.method == "algebra" and not c.sets
    assert {(p.exact["x"], p.exact["y"]): p.kind for p in c.points} == {
        (-1, -1): "local minimum", (0, 0): "saddle point", (1, 1): "local minimum"}
    assert "in the whole plane, and no others" in c.note


def test_irrational_points_are_exact_and_classified_exactly():
    c = crit("x^4 - x^2 + y^2", {"x": (-2, 2), "y": (-2, 2)})
    assert exact_points(c) == {(-sp.sqrt(2) / 2, 0), (0, 0), (sp.sqrt(2) / 2, 0)}
    kinds = {p.exact["x"]: p.kind for p in c.points}
    assert kinds == {-sp.sqrt(2) / 2: "local minimum", 0: "saddle point",
                     sp.sqrt(2) / 2: "local minimum"}
    assert [p.exact_value for p in c.points] == [sp.Rational(-1, 4), 0, sp.Rational(-1, 4)]


def test_a_line_of_critical_points_is_a_set_never_a_list():
    c = crit("(x - y)^2", {"x": (-3, 3), "y": (-3, 3)})
    assert c.complete and c.points == [] and c.sets == [("x = y", "minimum (not strict)")]
    v = check_homework("(x - y)^2", critical="(1, 1) min", over="x=-3:3,y=-3:3")
    point, missed = v.answers
    assert point.ok and "lies on x = y" in point.note
    assert not missed.ok and missed.mistake == "missed" and "every point of x = y" in missed.reason


def test_degenerate_points_stay_fast_and_are_classified_by_the_higher_order_test():
    import time
    cases = {"x^2 + y^4 + z^6": "local minimum", "x^4 + y^6": "local minimum",
             "x^6 + y^2": "local minimum", "-x^4 - y^2": "local maximum"}
    for text, kind in cases.items():
        names = sorted(set(text) & set("xyz"))
        start = time.process_time()
        c = crit(text, {n: (-1, 1) for n in names})
        assert time.process_time() - start < 2
        assert c.complete and [(p.point, p.kind) for p in c.points] == \
            [({n: 0.0 for n in names}, kind)]


# ---------------------------------------------------------------- intervals

def test_trig_points_are_proven_by_intervals_with_their_exact_forms():
    c = crit("sin(x) + y^2", {"x": (-2, 2), "y": (-1, 1)})
    assert c.complete and c.method == "interval"
    assert [(p.exact["x"], p.exact["y"], p.kind) for p in c.points] == [
        (-sp.pi / 2, 0, "local minimum"), (sp.pi / 2, 0, "saddle point")]


@pytest.mark.slow
def test_thirteen_trig_points_with_their_exact_forms():
    c = crit("sin(x) sin(y)", {"x": (-4, 4), "y": (-4, 4)})
    assert c.complete and c.method == "interval" and len(c.points) == 13
    pi = sp.pi
    want = {(a * pi, b * pi) for a in (-1, 0, 1) for b in (-1, 0, 1)} | \
        {(a * pi / 2, b * pi / 2) for a in (-1, 1) for b in (-1, 1)}
    assert exact_points(c) == want


def test_where_neither_proof_closes_the_grid_search_says_so():
    # A degenerate zero of a non-polynomial: the Krawczyk test never passes there.
    c = crit("sin(x)^4 + y^2", {"x": (-1, 1), "y": (-1, 1)})
    assert c.method == "search" and not c.complete and "cannot prove" in c.note
    assert [p.kind for p in c.points] == ["local minimum"]


def test_the_json_record_has_the_method_and_exact_forms():
    r = CliRunner().invoke(main, ["critical", "x^4 - x^2 + y^2", "--over", "x=-2:2,y=-2:2",
                                  "-o", "json"])
    assert r.exit_code == 0, r.stderr
    rec = json.loads(r.stdout)
    assert rec["method"] == "algebra" and rec["complete"] is True
    assert [p["exact"] for p in rec["points"]] == [
        {"at": {"x": "-sqrt(2)/2", "y": "0"}, "value": "-1/4"},
        {"at": {"x": "0", "y": "0"}, "value": "0"},
        {"at": {"x": "sqrt(2)/2", "y": "0"}, "value": "-1/4"}]
    r = CliRunner().invoke(main, ["critical", "x^4 - x^2 + y^2", "-o", "plain"])
    assert r.stdout.splitlines()[0].startswith("x = -√2/2, y = 0\tlocal minimum\tf = -1/4")


# ---------------------------------------------------------------- check: the example

def test_a_narrow_well_hiding_the_global_minimum_does_not_fool_check():
    text = "x^2 + y^2 - 5e^(-1000((x - 2)^2 + (y - 2)^2))"
    v = check_homework(text, critical="(0,0) min", over="x=-3:3,y=-3:3")
    assert not v.ok
    missed = v.answers[-1]
    assert missed.mistake == "missed" and missed.reason.startswith("critical points missed")
    assert "local minimum" in missed.reason and "proven complete (interval)" in missed.reason


# ---------------------------------------------------------------- adversarial families

def _well_cases(n, seed):
    """f = x² + y² less a narrow well at (c, d): exponential or rational, as text for
    gradcli and as SymPy for the judge."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        c, d = rng.choice([1, 1.5, 2, -2, 2.5]), rng.choice([1, -1.5, 2, -2.5])
        depth, k = rng.choice([3, 5, 8]), rng.choice([300, 1000, 3000])
        r2 = (X - sp.nsimplify(c)) ** 2 + (Y - sp.nsimplify(d)) ** 2
        if i % 2:
            text = f"x^2 + y^2 - {depth}e^(-{k}((x - ({c}))^2 + (y - ({d}))^2))"
            f = X ** 2 + Y ** 2 - depth * sp.exp(-k * r2)
        else:
            text = f"x^2 + y^2 - {depth}/(1 + {k}((x - ({c}))^2 + (y - ({d}))^2))"
            f = X ** 2 + Y ** 2 - depth / (1 + k * r2)
        out.append(pytest.param(text, f, (c, d), id=f"well-{i}"))
    return out


def _slow_beyond(cases, keep):
    return [c if i < keep else pytest.param(*c.values, id=c.id, marks=pytest.mark.slow)
            for i, c in enumerate(cases)]


@pytest.mark.parametrize("text,f,centre", _slow_beyond(_well_cases(20, 1), 0))
def test_narrow_wells(text, f, centre):
    c = crit(text, {"x": (-3, 3), "y": (-3, 3)})
    assert c.complete
    for p in c.points:   # every point is a zero of the gradient (SymPy, 30 digits)
        at = {X: p.point["x"], Y: p.point["y"]}
        size = 1 + max(abs(float(e.evalf(20, subs=at))) for e in sp.hessian(f, (X, Y)))
        g = [abs(float(sp.diff(f, s).evalf(30, subs=at))) for s in (X, Y)]
        assert max(g) < 1e-9 * size
    well = [p for p in c.points if math.dist((p.point["x"], p.point["y"]), centre) < 0.1
            and p.kind == "local minimum"]
    assert len(well) == 1
    # The naive answer, the bowl's minimum alone, is wrong: the well's is missed.
    v = check_homework(text, critical="(0,0) min", over="x=-3:3,y=-3:3")
    assert not v.ok and v.answers[-1].mistake == "missed"


def _edge_cases(n):
    """A critical point at x = 1 ∓ 10^-k, a hair inside or outside the box [-1, 1]²."""
    out = []
    for i in range(n):
        eps = sp.Rational(1, 10 ** (3 + i % 6))
        inside = i % 2 == 0
        c = 1 - eps if inside else 1 + eps
        text = f"(x - ({c}))^2 + y^2" if i % 4 < 2 else f"cos(x - ({c})) + y^2"
        out.append(pytest.param(text, c, inside, id=f"edge-{i}"))
    return out


@pytest.mark.parametrize("text,c,inside", _slow_beyond(_edge_cases(20), 1))
def test_points_a_hair_inside_or_outside_the_box(text, c, inside):
    box = {"x": (-1, 1), "y": (-1, 1)}
    got = crit(text, box)
    assert got.complete
    want = {float(c)} if inside else set()   # cos(x - c): also c - π, outside the box
    assert {round(p.point["x"], 12) for p in got.points} == {round(w, 12) for w in want}


def _sines(n):
    rng = random.Random(3)
    return [pytest.param(rng.randint(1, 3), rng.randint(1, 2), rng.choice([1.5, 2, 2.5]),
                         i % 5 == 0, id=f"sines-{i}") for i in range(n)]


@pytest.mark.parametrize("a,b,half,graded", _slow_beyond(_sines(20), 0))
def test_many_critical_points_of_a_product_of_sines(a, b, half, graded):
    text = f"sin({a}x) sin({b}y)"
    c = crit(text, {"x": (-half, half), "y": (-half, half)})
    assert c.complete and c.method == "interval"
    pi = sp.pi

    def zeros(k, shift):   # (m + shift)π/k in [-half, half]
        top = int(half * k / math.pi) + 2
        return [(m + shift) * pi / k for m in range(-top, top + 1)
                if abs(float((m + shift) * pi / k)) <= half]
    want = set(itertools.product(zeros(a, 0), zeros(b, 0))) | \
        set(itertools.product(zeros(a, sp.Rational(1, 2)), zeros(b, sp.Rational(1, 2))))
    assert exact_points(c) == want
    if not graded:   # check recomputes the points: a fifth of the cases suffice for it
        return
    # The complete list is right; the list missing one point is "a critical point missed".
    names = [f"({sp.sstr(p[0])}, {sp.sstr(p[1])})".replace("**", "^") for p in sorted(
        want, key=lambda q: (float(q[0]), float(q[1])))]
    kinds = {(p.exact["x"], p.exact["y"]): p.kind for p in c.points}
    listed = [f"{t} {kinds[q].split()[-1] if 'saddle' not in kinds[q] else 'saddle'}"
              .replace("minimum", "min").replace("maximum", "max")
              for t, q in zip(names, sorted(want, key=lambda q: (float(q[0]), float(q[1]))))]
    box = f"x=-{half}:{half},y=-{half}:{half}"
    assert check_homework(text, critical="; ".join(listed), over=box).ok
    v = check_homework(text, critical="; ".join(listed[1:]), over=box)
    assert not v.ok and v.answers[-1].mistake == "missed"


def _irrational(n):
    rng = random.Random(5)
    out = []
    for i in range(n):
        a, b = rng.choice([2, 5, 6, 7, 10]), rng.choice([2, 3, 5, 11])
        if i % 2:
            text, f = (f"x^3 - {a}x + y^3 - {b}y + x y",
                       X ** 3 - a * X + Y ** 3 - b * Y + X * Y)
        else:
            text, f = f"x^4 - {a}x^2 + y^2 - {b}y", X ** 4 - a * X ** 2 + Y ** 2 - b * Y
        out.append(pytest.param(text, f, id=f"irr-{i}"))
    return out


@pytest.mark.parametrize("text,f", _slow_beyond(_irrational(20), 1))
def test_polynomials_with_irrational_critical_points(text, f):
    box = {"x": (-4, 4), "y": (-4, 4)}
    truth = sympy_truth(f, box)
    c = crit(text, box)
    assert c.complete and c.method == "algebra"
    got = {(p.point["x"], p.point["y"]): p.kind for p in c.points}
    assert len(got) == len(truth)
    for q0, kind in truth.items():
        match = [k for q, k in got.items() if math.dist(q, q0) < 1e-9]
        assert match == [kind]
