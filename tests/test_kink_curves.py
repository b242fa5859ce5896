"""Derivative verdicts in several variables that a kink curve anywhere cannot fool.

Each family builds its cases by construction: the question has a kink (|.|, sign,
step) along a curve, and a wrong answer differs from the true derivative only
across some curve: far from the origin, along a hyperbola, in a band 1e-3 wide
between two close kinks, in a small disk in one quadrant, or on one side of a
curve y = sin(x), e^(x/100) inside a disk far out; the right answers
are the true derivative, spelled in several ways (each proven right on every region
the kink curves cut the plane into). SymPy is the judge: a right
answer equals SymPy's derivative at many points off the kinks (to 30 digits), a
wrong one differs from it at the witness the family built. The checker must
agree on every case. The bulk runs under `slow`; five right and five wrong cases
run always. docs/check.md, "How a verdict is reached".
"""
import random
from fractions import Fraction

import pytest
import sympy as sp

from gradcli.tasks.check.answers import check
from gradcli.tasks.check.kinkcurves import curve_points

X, Y = sp.Symbol("x", real=True), sp.Symbol("y", real=True)
LOCALS = {"x": X, "y": Y, "abs": sp.Abs, "sign": sp.sign, "step": sp.Heaviside}


def sym(text):
    from sympy.parsing.sympy_parser import (implicit_multiplication, parse_expr,
                                            standard_transformations)
    return parse_expr(text.replace("^", "**"), local_dict=LOCALS,
                      transformations=standard_transformations + (implicit_multiplication,))


def judged(question, name, answer, witness):
    """SymPy's word: True (right: equal at 60 points off the kinks), or False (the witness
    is a point where SymPy's values differ)."""
    d = sp.diff(sym(question), X if name == "x" else Y)
    d = d.replace(lambda e: isinstance(e, sp.DiracDelta), lambda e: sp.S.Zero)
    a = sym(answer)
    if witness is None:
        rng = random.Random(answer)
        for _ in range(60):
            p = {X: sp.Rational(rng.randint(-4000, 4000), rng.choice((7, 13, 101))),
                 Y: sp.Rational(rng.randint(-4000, 4000), rng.choice((11, 17, 103)))}
            gap = sp.N((a - d).subs(p), 30)
            assert gap == 0 or abs(gap) < 1e-25, (question, answer, p)
        return True
    w = {X: sym(witness[0]), Y: sym(witness[1])}
    gap = sp.N(a.subs(w) - d.subs(w), 50)
    assert gap.is_number and abs(gap) > 1e-20, (question, answer, witness)
    return False


# ------------------------------------------------------------ the families

def far_curve_cases():
    """A kink curve far from the origin: a wrong answer differs only in a disk on a far piece
    of it, or beyond a far line."""
    cases = []
    for k in ("15", "-15", "40", "250", "-1000", "10^4"):
        kk = sym(k)
        q = f"abs(x - ({k})*y)"
        cases.append((q, "x", f"sign(x - ({k})*y)", None))
        cases.append((q, "y", f"-({k})*(x - ({k})*y)/abs(x - ({k})*y)", None))
        m = 20  # the disk of radius 1/2 around (20k, 20), which the line crosses
        cases.append((q, "x", f"sign(x - ({k})*y)*sign((x - {kk * m})^2 + (y - {m})^2 - 1/4)",
                       (str(kk * m + sp.Rational(1, 4)), str(m))))
        cases.append((q, "x", f"sign(x - ({k})*y)*sign({kk * 300} - x)",
                      (str(kk * 300 + abs(kk)), str(300)) if kk > 0
                      else (str(kk * -300 + abs(kk)), str(-300))))
    for r, (p, s) in (("20", (12, 16)), ("50", (30, 40)), ("300", (180, 240)),
                      ("1000", (600, 800)), ("65", (25, 60)), ("130", (-50, 120))):
        q = f"abs(x^2 + y^2 - {r}^2)"
        cases.append((q, "x", f"2x*sign(x^2 + y^2 - {r}^2)", None))
        cases.append((q, "y", f"2y*(x^2 + y^2 - {r}^2)/abs(x^2 + y^2 - {r}^2)", None))
        cases.append((q, "x", f"2x*sign(x^2 + y^2 - {r}^2)*sign((x - {p})^2 + (y - {s})^2 - 1/4)",
                      (str(p), str(Fraction(s) - Fraction(1, 4)))))
        # differs only in the ring R^2 < x^2 + y^2 < R^2 + R; the witness is inside it
        cases.append((q, "y", f"2y*sign(x^2 + y^2 - ({r}^2 + {r}))",
                      (str(p), str(s + Fraction(int(r), 4 * s)))))
    return cases


def hyperbola_cases():
    """A kink only along xy = c: the wrong answer differs beside one branch, far out or close."""
    cases = []
    for c, a in (("50", 10), ("200", 25), ("-75", 15), ("1000", 40), ("10^4", 500), ("7", 70)):
        cc = sym(c)
        q = f"abs(x*y - ({c}))"
        b = cc / a
        cases.append((q, "x", f"y*sign(x*y - ({c}))", None))
        cases.append((q, "y", f"x*(x*y - ({c}))/abs(x*y - ({c}))", None))
        cases.append((q, "x", f"y*sign(x*y - ({c}))*sign((x - {a})^2 + (y - ({b}))^2 - 1/100)",
                      (str(a), str(b + sp.Rational(1, 20)))))
        cases.append((q, "y", f"x*sign(x*y - ({c}) - {abs(cc) / 100})",
                      (str(a), str(b + abs(cc) / 200 / a))))
        q2 = f"x^2*sign(x*y - ({c}))"
        cases.append((q2, "x", f"2x*sign(x*y - ({c}))", None))
        cases.append((q2, "x", f"2x*sign(x*y - ({c}))*sign({100 * a} - x)",
                      (str(100 * a + 1), str(b))))
    return cases


def close_kink_cases():
    """Two kinks 1e-3 to 1e-6 apart along a curve: the wrong answer differs only between them."""
    cases = []
    for k, e in (("15", "1/1000"), ("-3", "1/10^5"), ("250", "1/100"), ("1", "1/10^6"),
                 ("-40", "1/1000"), ("7", "3/10^4")):
        ee = sym(e)
        q = f"abs(x - ({k})*y) + abs(x - ({k})*y - {e})"
        cases.append((q, "x", f"sign(x - ({k})*y) + sign(x - ({k})*y - {e})", None))
        cases.append((q, "x", f"2*sign(x - ({k})*y)", (str(sym(k) * 3 + ee / 2), "3")))
        cases.append((q, "x", f"2*sign(x - ({k})*y - {e})", (str(sym(k) * 3 + ee / 2), "3")))
    for r, e in (("20", "1/1000"), ("3", "1/10^4"), ("100", "1/100"), ("1", "1/10^5")):
        ee = sym(e)
        rr = sym(r)
        q = f"abs(x^2 + y^2 - {r}^2) + abs(x^2 + y^2 - {r}^2 - {e})"
        cases.append((q, "y", f"2y*(sign(x^2 + y^2 - {r}^2) + sign(x^2 + y^2 - {r}^2 - {e}))",
                      None))
        cases.append((q, "y", f"4y*sign(x^2 + y^2 - {r}^2)",
                      ("0", str(sp.nsimplify(sp.sqrt(rr**2 + ee / 2).evalf(30), rational=True)))))
        cases.append((q, "x", f"4x*sign(x^2 + y^2 - {r}^2 - {e})",
                      (str(sp.nsimplify(sp.sqrt(rr**2 + ee / 2).evalf(30), rational=True)), "0")))
    return cases


def quadrant_cases():
    """A difference only in a small disk (radius 1/10 .. 1/2) in one quadrant, near or far."""
    cases = []
    spots = [(3, 4, "1/10"), (-17, 5, "1/2"), (-130, -60, "1/4"), (42, -42, "1/10"),
             (7, 250, "1/3"), (-2, -9, "1/5"), (600, 3, "1/2"), (-11, 31, "1/10")]
    for i, (a, b, r) in enumerate(spots):
        q, name, truth = (("x^2*y", "x", "2*x*y"), ("abs(x - 15y)", "x", "sign(x - 15y)"),
                          ("x*abs(y)", "y", "x*sign(y)"), ("sin(x)*y^2", "y", "2y*sin(x)"))[i % 4]
        cases.append((q, name, f"{truth} + step({r}^2 - (x - ({a}))^2 - (y - ({b}))^2)",
                      (str(a), str(b))))
        cases.append((q, name, f"({truth})*sign((x - ({a}))^2 + (y - ({b}))^2 - {r}^2)",
                      (str(a), str(b))))
        cases.append((q, name, truth, None))
    return cases


def transcendental_cases():
    """A kink along y = f(x) for f no polynomial (sin, exp, cos): the wrong answer differs
    only on one side of the curve, inside a small disk on it far out."""
    cases = []
    for form, dform, x0 in (("sin({})", "cos({})", 300), ("exp({}/100)", "exp({}/100)/100", 500),
                            ("cos({}/3)", "-sin({}/3)/3", -170), ("sin({})", "cos({})", 30)):
        f, df, at = form.format("x"), dform.format("x"), form.format(f"({x0})")
        q = f"abs({f} - y)"
        inside = (str(x0), f"{at} - 1/20")  # in the disk, where f - y = 1/20
        disk = f"step(1/100 - (x - ({x0}))^2 - (y - {at})^2)"
        cases.append((q, "x", f"{df}*sign({f} - y)", None))
        cases.append((q, "y", f"-({f} - y)/abs({f} - y)", None))
        cases.append((q, "x", f"{df}*sign({f} - y)*(1 - 2*step({f} - y)*{disk})", inside))
        cases.append((q, "y", f"-sign({f} - y)*(1 - 2*step({f} - y)*{disk})", inside))
        cases.append((q, "y", f"-sign({f} - y) + 3*step({f} - y)*{disk}", inside))
    return cases


FAMILIES = {"far curve": far_curve_cases, "hyperbola": hyperbola_cases,
            "close kinks": close_kink_cases, "one quadrant": quadrant_cases,
            "no polynomial": transcendental_cases}


def run_family(cases):
    wrong_verdicts = []
    for q, name, answer, witness in cases:
        right = judged(q, name, answer, witness)
        a = check(q, None, derivatives=[(name, answer)]).answers[0]
        if a.ok != right:
            wrong_verdicts.append((q, name, answer, a.ok, a.reason, a.evidence))
        # algebra decides every one: a proof on every region the kink curves cut the
        # plane into, or a counterexample at 60 digits
        assert a.decided_by == ("proof" if right else "counterexample"), (q, answer, a.evidence)
    return wrong_verdicts


def _subset(want_right):
    """One case of each polynomial family and a fifth (for right answers, one proven side
    by side)."""
    out = []
    for family in (far_curve_cases, hyperbola_cases, close_kink_cases, quadrant_cases):
        out += [c for c in family() if (c[3] is None) == want_right
                and ("abs" not in c[2] or not want_right)][:1]
    extra = [c for c in hyperbola_cases() if (c[3] is None) == want_right]
    return out + [extra[1]]


@pytest.mark.parametrize("case", _subset(True) + _subset(False), ids=lambda c: c[2][:40])
def test_five_right_and_five_wrong(case):
    assert not run_family([case])


@pytest.mark.slow
@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_case_of_each_family(family, record_property):
    cases = FAMILIES[family]()
    assert len(cases) >= 20
    assert sum(c[3] is None for c in cases) >= 5 and sum(c[3] is not None for c in cases) >= 10
    bad = run_family(cases)
    record_property("compared", len(cases) - len(bad))
    record_property("drawn", len(cases))
    assert not bad, bad[:5]


# ------------------------------------------------------------ the points themselves

def test_every_cell_of_a_far_disk_and_a_line_gets_a_point():
    pts = curve_points([(X - 30)**2 + (Y - 30)**2 - 1, X - 15 * Y], [X, Y])
    assert any((p[X] - 30)**2 + (p[Y] - 30)**2 < 1 for p in pts)   # inside the far disk
    assert any(0 < p[X] - 15 * p[Y] < Fraction(1, 10) for p in pts)  # just beside the line
    assert any(0 > p[X] - 15 * p[Y] > -Fraction(1, 10) for p in pts)


def test_two_curves_a_thousandth_apart_get_a_point_between():
    pts = curve_points([X * Y - 50, X * Y - 50 - Fraction(1, 1000)], [X, Y])
    assert any(50 < p[X] * p[Y] < 50 + Fraction(1, 1000) for p in pts)


@pytest.mark.slow
def test_a_curve_that_is_no_polynomial_is_solved_at_every_scale():
    pts = curve_points([sp.exp(X) - 50 * Y], [X, Y])
    near = [p for p in pts if abs(float(sp.exp(p[X])) - 50 * p[Y]) < 1e-2 * 50 * abs(p[Y])]
    assert any(sp.exp(p[X]) > 50 * p[Y] for p in near) and \
        any(sp.exp(p[X]) < 50 * p[Y] for p in near)
    assert max(abs(p[Y]) for p in near) > 1000


def test_the_points_do_not_depend_on_the_spelling():
    a = curve_points([X - 15 * Y], [X, Y])
    b = curve_points([-(X - 15 * Y)], [X, Y])
    c = curve_points([2 * X - 30 * Y], [X, Y])
    assert a == b == c


def test_a_partial_derivative_answer_is_compared_beside_the_far_disk():
    from gradcli.tasks.check.homework import check_homework
    v = check_homework("abs(x - 15y)", None,
                       partial="x = sign(x-15y)*sign((x-30)^2+(y-30)^2-1)")
    assert not v.answers[0].ok


def test_the_scan_without_sympy_runs_over_every_scale_and_the_diagonals():
    # where SymPy has no form for a formula, probes.edge_points scans lines: far ones too
    from gradcli.reading import read_program
    from gradcli.tasks.check.probes import edge_points
    program = read_program("abs(x - 15y)")
    points = edge_points([program], ["x", "y"], [{"x": 0.5, "y": -1.2}])
    gaps = [p["x"] - 15 * p["y"] for p in points]
    assert any(g > 0 for g in gaps) and any(g < 0 for g in gaps)
    assert all(abs(g) < 1e-2 * max(1, abs(p["x"])) for g, p in zip(gaps, points))
    assert max(abs(p["x"]) for p in points) > 1000   # through the far base points
