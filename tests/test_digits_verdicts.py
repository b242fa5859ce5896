"""Adversarial families for the digits rule per literal and exact tangent/Taylor verdicts.

SymPy is the judge: each case's right answer is built from the exact value, each
wrong one moves one literal by one unit in its last place, drops or perturbs one
Taylor term, adds a non-linear term, or rounds on the wrong side of an exact tie.
The bulk of each family is under `slow`; a few cases of each run always.
"""
from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Decimal

import pytest
import sympy as sp

from gradcli.tasks.check.answers import check
from gradcli.tasks.check.digits import rounds_right, roundings
from gradcli.tasks.check.homework import check_homework

X = sp.Symbol("x", real=True)
FUNCTIONS = [("sqrt(x)", sp.sqrt(X)), ("sin(x)", sp.sin(X)), ("e^x", sp.exp(X)),
             ("ln(x)", sp.log(X)), ("x^3", X ** 3), ("1/x", 1 / X), ("cos(x)", sp.cos(X)),
             ("atan(x)", sp.atan(X))]
POINTS = ["2", "3", "1/2", "5/4", "7"]


def _rounded(v, places: int) -> str:
    q = Decimal(1).scaleb(-places)
    return str(Decimal(str(sp.N(v, 40))).quantize(q, rounding=ROUND_HALF_EVEN))


def _nudged(text: str, units: int) -> str:
    d = Decimal(text)
    return str(d + units * Decimal(1).scaleb(d.as_tuple().exponent))


def _tangent_cases():
    out = []
    for text, f in FUNCTIONS:
        for p in POINTS:
            a = sp.Rational(p)
            m, v = sp.diff(f, X).subs(X, a), f.subs(X, a)
            b = v - m * a
            places = 3 if abs(sp.N(m)) >= 0.1 else 5
            ms, bs = _rounded(m, places), _rounded(b, places)
            if Decimal(ms) == 0 or Decimal(bs) == 0 or len(Decimal(ms).normalize()
                                                          .as_tuple().digits) < 3:
                continue
            out.append((text, p, ms, bs))
    return out


TANGENTS = _tangent_cases()


def _answer(ms, bs):
    return f"y = {ms}x + ({bs})"


def _tangent_family(case):
    text, p, ms, bs = case
    at = {"x": float(sp.Rational(p))}
    right = check_homework(text, at, tangent=_answer(ms, bs)).answers[0]
    assert right.ok and right.decided_by == "digits", (case, right.reason)
    # One literal off by one unit in its last place, the other exact: wrong, named.
    for which, answer, mistake in (("slope", _answer(_nudged(ms, 1), bs), "tangent-slope"),
                                   ("intercept", _answer(ms, _nudged(bs, -1)), "tangent-value")):
        wrong = check_homework(text, at, tangent=answer).answers[0]
        assert not wrong.ok, (case, which)
        assert wrong.mistake in (mistake, "tangent-value", "tangent-slope", "not-centred")
        assert "stands for" in wrong.reason, (case, wrong.reason)


@pytest.mark.parametrize("case", TANGENTS[:2])
def test_one_literal_off_by_one_unit_is_wrong_whatever_the_other(case):
    _tangent_family(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", TANGENTS[2:])
def test_one_literal_off_by_one_unit_is_wrong_whatever_the_other_all(case):
    _tangent_family(case)


def test_the_issue_tangent_with_a_wrong_intercept():
    a = check_homework("sqrt(x)", {"x": 2}, tangent="y = 0.354x + 0.705").answers[0]
    assert not a.ok and a.mistake == "tangent-value" and "0.707" in a.reason
    assert check_homework("sqrt(x)", {"x": 2}, tangent="y = 0.354x + 0.707").ok


# ------------------------------------------------------------------- exact ties

def _tie_cases():
    """x/2 at a point whose half is an exact tie at the places of the answer."""
    out = []
    for scale in range(0, 8):
        for odd in (2001, 4003, 12345, 99999):
            p = Decimal(odd).scaleb(-scale - 3)  # p/2 ends in 5 one place past p's own
            half = p / 2
            q = Decimal(1).scaleb(p.as_tuple().exponent)
            down, up = half.quantize(q, rounding="ROUND_DOWN"), half.quantize(q, rounding="ROUND_UP")
            out.append((str(p), str(down), str(up), str(up + q), str(down - q)))
    return out


TIES = _tie_cases()


def _tie_family(case):
    p, down, up, far_up, far_down = case
    for given in (down, up):
        a = check("x/2", {"x": float(p)}, value=given).answers[0]
        assert a.ok, (case, given, a.reason)
    for given in (far_up, far_down):
        assert not check("x/2", {"x": float(p)}, value=given).ok, (case, given)


@pytest.mark.parametrize("case", TIES[:2])
def test_both_neighbours_of_an_exact_tie_are_right(case):
    _tie_family(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", TIES[2:])
def test_both_neighbours_of_an_exact_tie_are_right_all(case):
    _tie_family(case)


def test_roundings_of_a_tie_and_of_a_near_tie():
    assert [str(r) for r in roundings(sp.Rational(10005, 10000), Decimal("1.000"))] == \
        ["1.000", "1.001"]
    assert rounds_right("1.001", sp.Rational(10005, 10000))
    assert not rounds_right("1.001", sp.Rational(10005, 10000) - sp.Rational(1, 10 ** 30))


# ------------------------------------------------- a whole number alone and in a formula

WHOLES = [c for c in range(31, 400, 13)]


def _whole_family(c):
    exact = c * sp.pi
    n = int(sp.floor(exact + sp.Rational(1, 2)))
    text = f"{c}*pi*x"
    by_grad = check(text, {"x": 1}, grad={"x": str(n)}).ok
    by_formula = check(text, derivatives=[("x", str(n))]).ok
    assert by_grad == by_formula == (len(str(n)) >= 3), c
    for off in (n - 1, n + 1):
        assert not check(text, {"x": 1}, grad={"x": str(off)}).ok
        assert not check(text, derivatives=[("x", str(off))]).ok


@pytest.mark.parametrize("c", WHOLES[:1])
def test_a_whole_number_is_graded_alike_alone_and_as_a_formula(c):
    _whole_family(c)


@pytest.mark.slow
@pytest.mark.parametrize("c", WHOLES[1:])
def test_a_whole_number_is_graded_alike_alone_and_as_a_formula_all(c):
    _whole_family(c)


# ------------------------------------------------------- huge intercepts hiding slopes

HUGE = [(k, s) for k in range(3, 15) for s in ("1", "1/1000")]


def _huge_family(case):
    k, s = case
    big = 10 ** k
    q = f"x^2 + {big}"
    assert check_homework(q, {"x": 0}, tangent=f"y = {big}").ok
    wrong = check_homework(q, {"x": 0}, tangent=f"y = {big} + ({s})x").answers[0]
    assert not wrong.ok and wrong.mistake == "tangent-slope", case
    right = check_homework(q, {"x": 1}, tangent=f"y = {big + 1} + 2(x - 1)").answers[0]
    assert right.ok and right.decided_by == "proof"
    off = check_homework(q, {"x": 1}, tangent=f"y = {big + 1} + (2 + {s})(x - 1)").answers[0]
    assert not off.ok and off.mistake == "tangent-slope", case


@pytest.mark.parametrize("case", HUGE[:1])
def test_a_huge_intercept_hides_no_slope(case):
    _huge_family(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", HUGE[1:])
def test_a_huge_intercept_hides_no_slope_all(case):
    _huge_family(case)


# ------------------------------------------------------------- tiny Taylor terms

def _series_terms(name, order):
    f = {"sin": sp.sin(X), "cos": sp.cos(X), "exp": sp.exp(X)}[name]
    return [(k, sp.diff(f, X, k).subs(X, 0) / sp.factorial(k)) for k in range(order + 1)]


def _poly(terms):
    parts = []
    for k, c in terms:
        if c == 0:
            continue
        mono = "" if k == 0 else ("x" if k == 1 else f"x^{k}")
        coef = f"({c})"
        parts.append(coef if not mono else f"{coef}*{mono}")
    return " + ".join(parts) or "0"


TAYLOR = [(name, order, k) for name in ("sin", "cos", "exp") for order in (13, 16, 20)
          for k in (order, order - 1, order - 2, order - 3) if k >= 0]


def _taylor_family(case):
    name, order, k = case
    terms = _series_terms(name, order)
    text = {"sin": "sin(x)", "cos": "cos(x)", "exp": "e^x"}[name]
    assert check_homework(text, {"x": 0}, taylor=_poly(terms), order=order).ok
    if terms[k][1] == 0:
        k -= 1
    dropped = [t for t in terms if t[0] != k]
    a = check_homework(text, {"x": 0}, taylor=_poly(dropped), order=order).answers[0]
    assert not a.ok and a.decided_by == "proof", case
    perturbed = [(j, c * (1 + sp.Rational(1, 10 ** 6)) if j == k else c) for j, c in terms]
    b = check_homework(text, {"x": 0}, taylor=_poly(perturbed), order=order).answers[0]
    assert not b.ok and b.mistake == "coefficient" and f"x^{k}" in b.reason, (case, b.reason)


@pytest.mark.parametrize("case", TAYLOR[:1])
def test_a_tiny_taylor_term_is_compared(case):
    _taylor_family(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", TAYLOR[1:])
def test_a_tiny_taylor_term_is_compared_all(case):
    _taylor_family(case)


def test_sin_order_13_without_its_last_term_is_wrong():
    s = "x - x^3/3! + x^5/5! - x^7/7! + x^9/9! - x^11/11!"
    assert not check_homework("sin x", {"x": 0}, taylor=s, order=13).ok
    assert check_homework("sin x", {"x": 0}, taylor=s + " + x^13/13!", order=13).ok


# ------------------------------------------------ non-linear tangents and zero tricks

TRICKS = [(f, p, extra, linear)
          for f, p in (("x^2", 1), ("x^3", 2), ("sqrt(x)", 4), ("e^x", 0), ("ln(x)", 1))
          for extra, linear in ((" + (x - 1)(x - 2)", False), (" + 0*10^12", True),
                                (" + 0*x^2", True), (" + (x - 3)^2 - (x - 3)^2", True),
                                (" + 1e-12*x^2", False), (" + 0.000001*x^3", False),
                                (" + relu(x - 100)", False), (" + 0*step(x)", True),
                                (" + max(x, x) - x", True), (" + abs(x - 50) - 50 + x", False))]


def _trick_family(case):
    f, p, extra, linear = case
    x = sp.Symbol("x", real=True)
    e = sp.sympify(f.replace("^", "**").replace("ln", "log").replace("e**x", "exp(x)"),
                   locals={"x": x})
    v, m = e.subs(x, p), sp.diff(e, x).subs(x, p)
    base = f"y = {v} + ({m})(x - {p})"
    a = check_homework(f, {"x": p}, tangent=base + extra).answers[0]
    assert a.ok == linear, (case, a.reason)
    if not linear:
        assert a.mistake == "not-linear"


@pytest.mark.parametrize("case", TRICKS[:1])
def test_a_non_linear_tangent_is_not_a_line(case):
    _trick_family(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", TRICKS[1:])
def test_a_non_linear_tangent_is_not_a_line_all(case):
    _trick_family(case)


def test_json_says_how_each_verdict_was_decided():
    v = check_homework("x^2", {"x": 1}, tangent="y = 1 + 2(x - 1)", value="1")
    assert [a.decided_by for a in v.answers] == ["tolerance", "proof"]
    assert math.isfinite(float(v.answers[0].expected))


# ------------------------------------------- the textbook corpus, decided by algebra

def _corpus():
    import os
    import sys
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "textbook")
    sys.path.insert(0, here)
    import verify_homework
    return [e for e in verify_homework.load()
            if e["kind"] in ("tangent-line", "tangent-plane", "taylor")]


CORPUS = _corpus()


def _decided(args):
    import json

    from click.testing import CliRunner

    from gradcli.cli import main
    result = CliRunner().invoke(main, ["check", *args, "-o", "json"])
    assert result.exit_code in (0, 1), result.output
    (answer,) = json.loads(result.stdout)["answers"]
    return answer


def _corpus_family(entry):
    right = _decided(entry["check"])
    assert right["ok"] and right["decided_by"] in ("proof", "digits"), entry["id"]
    wrong = _decided(entry["wrong"]["check"])
    assert not wrong["ok"] and wrong["mistake"], entry["id"]
    assert wrong["decided_by"] in ("proof", "digits"), entry["id"]


@pytest.mark.parametrize("entry", CORPUS[:1], ids=lambda e: e["id"])
def test_a_printed_tangent_or_taylor_answer_is_decided_by_algebra(entry):
    _corpus_family(entry)


@pytest.mark.slow
@pytest.mark.parametrize("entry", CORPUS[1:], ids=lambda e: e["id"])
def test_a_printed_tangent_or_taylor_answer_is_decided_by_algebra_all(entry):
    _corpus_family(entry)


@pytest.mark.slow
def test_a_rounded_constant_that_moves_a_domain_edge_is_graded_by_its_digits():
    q = "sqrt(pi - x)"
    right = check(q, derivatives=[("x", "-1/(2 sqrt(3.142 - x))")]).answers[0]
    assert right.ok and right.decided_by == "digits"
    assert not check(q, derivatives=[("x", "-1/(2 sqrt(3.141 - x))")]).ok
    # a kink beyond the points solved at is no rounding: the sampling's point decides
    assert not check("x^2", derivatives=[("x", "2.00x*sign(5 - x)")]).ok
