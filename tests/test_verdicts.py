"""A verdict is a promise: wrong answers are never passed and right ones never failed.

The first part runs the cases a teacher would raise through the CLI. The
second generates right answers in equivalent forms (expanded, factored,
rounded to 3 or more digits) and wrong ones (one constant off by 1e-3
relative, one rule broken) and lets SymPy say which is which; the checker
must agree with SymPy on every one (docs/check.md, "How answers are compared").
verdict_families.py adds the families of the campaign (14,744 cases in all).
"""
import functools
import json
import os
import random
import re
from decimal import Decimal

import pytest
import sympy as sp
from click.testing import CliRunner

from gradcli.cli import main
from verdict_families import more_cases, spread, units


def run(*args):
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def verdict(*args):
    code, out, err = run("check", *args, "-o", "json")
    assert code in (0, 1), err
    return code, json.loads(out)


# ------------------------------------------------------------ the cases, as a teacher sees them

@pytest.mark.parametrize("question,answer", [
    ("x^2", "2x + 1/1000"),
    ("x^2", "2x*1001/1000"),
    ("x^2", "x^3 + 0*10^12"),
    ("x^2", "1e9/1e9*x"),
    ("ln x", "1/x + 1/1000"),
    ("abs(x)", "sign(x + 1/10)"),
    ("abs(x)", "sign(x - 1/10)"),
    ("relu(x)", "step(x - 1/20)"),
    ("sqrt(2)*x^2/2", "1.41422x"),       # not √2 correctly rounded
    ("sqrt(2)*x^2/2", "1.414213x"),      # cut off, not rounded
    # 8 digits, the last one off: within --atol and the 1e-9 floor, not within its digits
    ("pi*exp(1/(x^2 + 1))/4", "0.78539817*(-2x*exp(1/(x^2 + 1))/(x^2 + 1)^2)"),
    ("pi*x^2/4", "0.78539817*2x"),
])
def test_wrong_derivatives_are_wrong(question, answer):
    code, _, err = run("check", question, "--derivative", answer)
    assert code == 1, err


@pytest.mark.parametrize("question,answer", [
    ("x^2", "2x"),
    ("x^2", "(x+1e10)*2 - 2e10"),        # its own rounding, decided exactly
    ("abs(x)", "sign(x)"),
    ("sqrt(2)*x^2/2", "1.41421x"),
    ("sqrt(2)*x^2/2", "1.414214x"),
    ("pi*exp(1/(x^2 + 1))/4", "0.78539816*(-2x*exp(1/(x^2 + 1))/(x^2 + 1)^2)"),
    ("pi*x^2/4", "0.78539816*2x"),
    ("ln x", "1/x"),
])
def test_right_derivatives_are_right(question, answer):
    code, _, err = run("check", question, "--derivative", answer)
    assert code == 0, err


def test_the_mistake_is_named_for_a_constant_off():
    code, rec = verdict("x^2", "--derivative", "2x + 1/1000")
    assert code == 1 and rec["answers"][0]["mistake"] == "constant-offset"


def test_rounded_decimals_inside_a_tangent_and_a_taylor_polynomial():
    assert run("check", "sqrt(x)", "--at", "x=2",
               "--tangent", "y = 1.41421 + 0.353553(x - 2)")[0] == 0
    assert run("check", "sqrt(x)", "--at", "x=2",
               "--tangent", "y - 1.41421 = 0.353553(x - 2)")[0] == 0
    assert run("check", "sqrt(x)", "--at", "x=2",
               "--tangent", "y = 1.41421 + 0.353554(x - 2)")[0] == 1
    assert run("check", "sqrt(x)", "--at", "x=2", "--order", "2", "--taylor",
               "1.41421 + 0.353553(x - 2) - 0.0441942(x - 2)^2")[0] == 0
    assert run("check", "sqrt(x)", "--at", "x=2", "--order", "2", "--taylor",
               "1.41421 + 0.353553(x - 2) - 0.0441941(x - 2)^2")[0] == 1


def test_a_tangent_off_by_a_small_constant_is_wrong():
    assert run("check", "x^2", "--at", "x=1", "--tangent", "y = 1 + 2(x - 1) + 1/1000")[0] == 1


def test_a_critical_point_outside_the_box_is_wrong():
    code, rec = verdict("x^2 + y^2", "--over", "x=1:2,y=1:2", "--critical", "(0,0) min")
    assert code == 1
    a = rec["answers"][0]
    assert a["mistake"] == "outside-box" and "outside the box" in a["reason"]


@pytest.mark.parametrize("f,over,kind,wrong", [
    ("x^6 + y^2", "x=-1:1,y=-1:1", "min", "max"),
    ("-x^4 - y^2", "x=-1:1,y=-1:1", "max", "min"),
    ("x^4 + y^6", "x=-1:1,y=-1:1", "min", "saddle"),
    ("x^2 + y^4 + z^6", "x=-1:1,y=-1:1,z=-1:1", "min", "max"),
    ("x^6", "x=-1:1", "min", "max"),
    ("x^3 + y^2", "x=-1:1,y=-1:1", "saddle", "min"),
])
def test_a_degenerate_critical_point_is_found_once_and_classified(f, over, kind, wrong):
    """One test per degenerate kind: `critical` finds the one point itself (no cloud of
    unconverged points), classifies it by a higher-order test, and `check` agrees."""
    code, out, err = run("critical", f, "--over", over, "-o", "json")
    assert code == 0, err
    points = json.loads(out)["points"]
    assert len(points) == 1
    p = points[0]
    assert all(abs(v) <= 1e-12 for v in p["at"].values())
    words = {"min": "local minimum", "max": "local maximum", "saddle": "saddle point"}
    assert p["kind"] == words[kind]
    origin = "(" + ", ".join("0" for _ in p["at"]) + ")"
    assert run("check", f, "--over", over, "--critical", f"{origin} {kind}")[0] == 0
    assert run("check", f, "--over", over, "--critical", f"{origin} {wrong}")[0] == 1


# ------------------------------------------------------------ generated, SymPy the judge

X = sp.Symbol("x", real=True)
# Questions as SymPy builds them; each wrong form breaks one rule of differentiation.
FAMILIES = [
    (X**3 * sp.sin(X), [3 * X**2 * sp.cos(X)]),                     # product as product
    (sp.sin(X**2), [sp.cos(X**2)]),                                 # chain factor missing
    (sp.exp(3 * X), [sp.exp(3 * X)]),
    (X / (X**2 + 1), [(X**2 + 1 + 2 * X**2) / (X**2 + 1)**2]),       # quotient rule's sign
    (sp.log(X**2 + 1), [1 / (X**2 + 1)]),
    ((2 * X + 1)**4, [4 * (2 * X + 1)**3]),
    (sp.cos(X)**2, [2 * sp.cos(X) * sp.sin(X)]),                    # sign
    (sp.sqrt(X**2 + 4), [1 / (2 * sp.sqrt(X**2 + 4))]),
    (sp.atan(2 * X), [1 / (1 + 4 * X**2)]),
    (X**2 * sp.exp(-X), [-2 * X * sp.exp(-X)]),
    (sp.tan(X) / X, [sp.sec(X)**2]),
    (X**4 - 3 * X**2 + 5, [4 * X**3 - 6 * X + 5]),                  # constant kept
]
K = [sp.Rational(7, 3), sp.Rational(5, 7), sp.sqrt(2), sp.pi / 4, sp.Rational(13, 11)]
POINTS = [sp.Rational(1, 2), sp.Rational(3, 4), sp.Rational(6, 5), sp.Rational(-2, 3)]


def text(e) -> str:
    return str(e)  # Python notation, which gradcli reads as typed


def rounded(value, digits: int) -> str:
    """Correctly rounded to `digits` significant digits, trailing zeros kept (0.770)."""
    return f"{float(sp.N(value, 40)):#.{digits}g}".rstrip(".")


def perturbed(value, digits: int) -> str:
    """1e-3 relative off, with all its digits shown (-0.462000, not -0.462)."""
    return f"{float(sp.N(value, 40)) * (1 + 1e-3):#.{digits + 3}g}".rstrip(".")


def generated_cases(n_k=len(K), digit_choices=(3, 4, 5, 6, 7), points=POINTS):
    """(mode, CLI arguments, right by SymPy?) for every check mode generated here."""
    cases = []
    for f, wrong_rules in FAMILIES:
        d = sp.diff(f, X)
        forms = {text(d), text(sp.expand(d)), text(sp.factor(d)), text(sp.simplify(d))}
        for form in forms:
            assert sp.simplify(sp.sympify(form, locals={"x": X}) - d) == 0
            cases.append(("derivative", [text(f), "--derivative", form], True))
        for w in wrong_rules:
            assert sp.simplify(w - d) != 0
            cases.append(("derivative", [text(f), "--derivative", text(w)], False))
        for k in K[:n_k]:
            for digits in digit_choices:
                q = text(k * f)
                cases.append(("derivative", [q, "--derivative",
                                             f"{rounded(k, digits)}*({text(d)})"], True))
                cases.append(("derivative", [q, "--derivative",
                                             f"{perturbed(k, digits)}*({text(d)})"], False))
        for a in points:
            fa, da = f.subs(X, a), d.subs(X, a)
            at = ["--at", f"x={a}"]
            for digits in digit_choices:
                cases.append(("value", [text(f), *at, "--value", rounded(fa, digits)], True))
                cases.append(("value", [text(f), *at, "--value", perturbed(fa, digits)], False))
                cases.append(("grad", [text(f), *at, "--grad", f"x={rounded(da, digits)}"], True))
                cases.append(("grad", [text(f), *at, "--grad", f"x={perturbed(da, digits)}"],
                              False))
                tangent = f"y = {rounded(fa, digits + 3)} + {rounded(da, digits + 3)}*(x - {a})"
                cases.append(("tangent", [text(f), *at, "--tangent", tangent], True))
                off = f"y = {rounded(fa, digits + 3)} + {perturbed(da, digits)}*(x - {a})"
                cases.append(("tangent", [text(f), *at, "--tangent", off], False))
            t2 = sp.series(f, X, a, 3).removeO()
            exact_t2 = text(sp.expand(t2))
            cases.append(("taylor", [text(f), *at, "--order", "2", "--taylor", exact_t2], True))
            c2 = sp.diff(f, X, 2).subs(X, a) / 2
            wrong_t2 = text(sp.expand(t2 + c2 * (X - a)**2))  # forgot to divide by 2!
            if sp.simplify(c2) != 0:
                cases.append(("taylor", [text(f), *at, "--order", "2", "--taylor", wrong_t2],
                              False))
    g = X**2 * sp.Symbol("y", real=True) + sp.Symbol("y", real=True)**3
    Y = sp.Symbol("y", real=True)
    for a, b in ((1, 2), (sp.Rational(1, 2), -1), (2, sp.Rational(3, 2))):
        grad = [sp.diff(g, v).subs({X: a, Y: b}) for v in (X, Y)]
        at = ["--at", f"x={a},y={b}"]
        u = (3, 4)
        du = (grad[0] * 3 + grad[1] * 4) / 5
        for digits in digit_choices:
            cases.append(("directional", [text(g), *at, "--directional", rounded(du, digits),
                                          "--direction", "3,4"], True))
            cases.append(("directional", [text(g), *at, "--directional",
                                          perturbed(du, digits), "--direction", "3,4"], False))
    circle = "x^2 + y^2 = 25"
    for (a, b), slope in (((3, 4), sp.Rational(-3, 4)), ((-4, 3), sp.Rational(4, 3))):
        cases.append(("implicit", [circle, "--implicit", "-x/y"], True))
        cases.append(("implicit", [circle, "--implicit", "x/y"], False))
    for f, pts, right in (("x**2 - 2*x + y**2", "(1,0) min", True),
                          ("x**2 - 2*x + y**2", "(1,0) max", False),
                          ("x**3 - 3*x + y**2", "(1,0) min; (-1,0) saddle", True),
                          ("x**3 - 3*x + y**2", "(1,0) min", False),
                          ("x**6 + y**2", "(0,0) min", True),
                          ("x**2 + y**2", "(0,0) min", False)):
        box = "x=1:2,y=1:2" if f == "x**2 + y**2" else "x=-2:2,y=-2:2"
        cases.append(("critical", [f, "--over", box, "--critical", pts], right))
    return cases


def judge_all(cases):
    """Counts per mode (cases, wrong accepted, right rejected, and how each verdict was
    decided: `decided_by` in check's JSON) and the cases gradcli got wrong."""
    counts = {}
    bad = []
    for mode, args, right in cases:
        code, out, err = run("check", *args, "-o", "json")
        c = counts.setdefault(mode, {"cases": 0, "wrong accepted": 0, "right rejected": 0})
        c["cases"] += 1
        if code not in (0, 1):
            bad.append((args, err))
            continue
        how = json.loads(out)["answers"][0].get("decided_by")
        c[f"by {how}"] = c.get(f"by {how}", 0) + 1
        if mode == "derivative" and re.search(r"\d\.\d", args[args.index("--derivative") + 1]):
            c[f"with decimals, by {how}"] = c.get(f"with decimals, by {how}", 0) + 1
        if right and code != 0:
            c["right rejected"] += 1
            bad.append((args, "right rejected"))
        elif not right and code != 1:
            c["wrong accepted"] += 1
            bad.append((args, "wrong accepted"))
    return counts, bad


def test_generated_answers_get_sympys_verdict():
    cases = generated_cases(n_k=1, digit_choices=(4,), points=POINTS[:1])
    counts, bad = judge_all(cases)
    assert not bad, bad[:5]
    assert sum(c["cases"] for c in counts.values()) >= 100
    assert {"derivative", "value", "grad", "tangent", "taylor", "directional", "implicit",
            "critical"} <= set(counts)


# The campaign: the cases above, then verdict_families.py's, distinct, up to this many.
# All of them (14,744; about 5 CPU-minutes) with GRADCLI_VERDICT_CAMPAIGN=20000;
# CI's slow job runs the first 10,000 (the cases above, then units of every family).
CAMPAIGN = int(os.environ.get("GRADCLI_VERDICT_CAMPAIGN", "10000"))
PARTS = 8


@functools.lru_cache(maxsize=None)
def campaign_cases(n: int) -> tuple:
    """The first n distinct cases: this file's generated ones, then the families' units,
    taken evenly over all of them."""
    seen = {}

    def add(cases):
        for mode, args, right in cases:
            key = (mode, tuple(args))
            assert seen.setdefault(key, right) == right, key  # one question, one truth

    add(generated_cases())
    every = units()
    for i in spread(len(every)):
        if len(seen) >= n:
            break
        add(every[i][1]())
    return tuple((mode, list(args), right) for (mode, args), right in seen.items())[:n]


def test_the_families_judge_decimals_by_their_exact_rounding():
    # the generator's own judge, on which every decimal case's truth rests
    from verdict_families import correctly_rounded, one_off, rounded
    assert correctly_rounded("3.142", sp.pi) and not correctly_rounded("3.141", sp.pi)
    assert correctly_rounded("0.0600", sp.Rational(3, 50))
    assert not correctly_rounded("0.0601", sp.Rational(3, 50))
    tie = sp.Rational(13467, 2)  # 6733.5: either way is right, one more is not
    assert correctly_rounded("6733", tie) and correctly_rounded("6734", tie)
    assert not correctly_rounded("6732", tie)
    assert rounded(sp.pi / 4, 8) == ("0.78539816", Decimal("1e-8"))
    assert rounded(sp.Rational(9996, 1000), 3)[0] == "10.0"
    assert rounded(sp.Integer(12345), 3) is None  # 12300 would hide its digits
    for _ in range(5):
        assert not correctly_rounded(one_off(tie, 4, random.Random(_)), tie)


def test_more_families_get_sympys_verdict():
    # 5 right and 5 wrong of the families' first units, of as many modes as there are
    # (their generator's own truth is asserted there)
    cases = more_cases(limit=40)
    sample = []
    for right in (True, False):
        firsts = {}
        for case in cases:
            if case[2] == right:
                firsts.setdefault(case[0], case)
        sample += (list(firsts.values()) + [c for c in cases if c[2] == right])[:5]
    counts, bad = judge_all(sample)
    assert not bad, bad
    assert sum(c["cases"] for c in counts.values()) == 10


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_generated_answers_get_sympys_verdict_in_full(part):
    # PARTS slices of one list, so that the slow job's workers share them
    cases = campaign_cases(CAMPAIGN)
    counts, bad = judge_all(cases[part::PARTS])
    print(len(cases), "cases in all; this part:", counts)
    assert not bad, bad[:5]
    assert len(cases) >= min(CAMPAIGN, 14000)


# ------------------------------------------------------------ found by the adversarial harness

def test_a_bare_direction_follows_the_order_of_at_and_says_so():
    # atan(y/x) has y first; a book's direction (-5, 12) means x = -5, y = 12.
    code, out, err = run("eval", "tan^-1(y/x)", "--at", "x=1,y=2", "--direction", "-5,12",
                         "-o", "json")
    assert code == 0, err
    d = json.loads(out)["directional"]["derivative"]
    assert d == pytest.approx((-0.4 * -5 + 0.2 * 12) / 13)
    assert "read in the order of --at: x=-5, y=12" in err
    named = json.loads(run("eval", "tan^-1(y/x)", "--at", "x=1,y=2", "--direction",
                           "y=12,x=-5", "-o", "json")[1])["directional"]["derivative"]
    assert named == pytest.approx(d)
    code, _, err = run("eval", "tan^-1(y/x)", "--at", "x=1,y=2", "--direction", "y=12,z=1")
    assert code == 2 and "'z'" in err


def test_check_directional_reads_the_direction_as_eval_does():
    code, _, err = run("check", "tan^-1(y/x)", "--at", "x=1,y=2", "--directional", "4.4/13",
                       "--direction", "-5,12")
    assert code == 0, err
    code, _, _ = run("check", "tan^-1(y/x)", "--at", "x=1,y=2", "--directional", "-4.4/13",
                     "--direction", "-5,12")
    assert code == 1


def test_over_takes_fractions_and_constants():
    code, out, err = run("check", "x^3 - 3x + (y - 2)^2", "--over", "x=-2:1/2,y=1:3",
                         "--critical", "(-1, 2) saddle", "-o", "json")
    assert code == 0, err
    code, _, err = run("critical", "x^2 + y^2", "--over", "x=-pi/4:pi/4,y=-1:1")
    assert code == 0, err


@pytest.mark.parametrize("answer,ok", [
    ("(27.31) + (27.29)*(x - 4) + (13.65)*(x - 4)^2 + (4.548)*(x - 4)^3 + (1.138)*(x - 4)^4", 0),
    ("27.31 + 27.29(x - 4) + 13.65(x - 4)^2 + 4.548(x - 4)^3 + 1.138(x - 4)^4", 0),
    ("(27.31) + (27.29)*(x - 4) + (13.66)*(x - 4)^2 + (4.548)*(x - 4)^3 + (1.138)*(x - 4)^4", 1),
])
def test_rounded_coefficients_in_parentheses_keep_the_digits_rule(answer, ok):
    code, out, err = run("check", "cosh x", "--at", "x=4", "--order", "4", "--taylor", answer,
                         "-o", "plain")
    assert code == ok, out + err
    if ok:
        assert "the (x - 4)^2 coefficient is 13.66, the right one is 13.6541" in out


def test_a_wrong_intercept_at_the_origin_is_wrong_not_a_crash():
    code, out, err = run("check", "tan x", "--at", "x=0", "--tangent",
                         "y = 1/1000 + (1)*(x - (0))", "-o", "plain")
    assert code == 1, err
    assert "a tangent passes through the point of tangency" in out
