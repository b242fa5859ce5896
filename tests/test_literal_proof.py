"""Derivative formulas with rounded decimals, decided by proof one decimal at a time.

Each family builds its answers from an exact template (`c0*x + c1` for d/dx of
√2x² + πx, with c0 = 2√2, c1 = π) and SymPy is the judge: the template with
the exact constants is the derivative, and a typed decimal of 3 or more
significant digits is right when it is its constant correctly rounded (either
way at an exact tie); a shorter decimal is the exact number it spells. The
families: right roundings (half-up and half-even at ties), one decimal one
unit off in its last digit beside others that are right, too few digits, and
right decimals in a wrong form. The bulk runs under `slow`; five right and
five wrong cases run always. docs/check.md, "Decided by proof".
"""
from __future__ import annotations

import json
import os
import random
from decimal import Decimal

import pytest
import sympy as sp
from click.testing import CliRunner

from gradcli.cli import main
from gradcli.tasks.check.answers import check
from gradcli.tasks.check.literalproof import decide_rounded, describe
from gradcli.reading import read_program
from verdict_families import correctly_rounded, one_off, rounded, significant

X = sp.Symbol("x", real=True)
C = sp.symbols("c0:3", real=True)
LOCALS = {"x": X, "e": sp.E, "sec": sp.sec, "log10": lambda u: sp.log(u, 10), "sign": sp.sign, "abs": sp.Abs, "ln": sp.log,
          **{str(c): c for c in C}}

# (question, derivative template in c0, c1, ..., the exact constants they stand for)
TEMPLATES = [
    ("pi*x^2", "c0*x", [2 * sp.pi]),
    ("pi*exp(1/(x^2+1))/4", "c0*x*exp(1/(x^2+1))/(x^2+1)^2", [-sp.pi / 2]),
    ("sqrt(2)*x^2 + pi*x", "c0*x + c1", [2 * sp.sqrt(2), sp.pi]),
    ("sqrt(x)", "c0/sqrt(x)", [sp.Rational(1, 2)]),
    ("log10(x)", "c0/x", [1 / sp.log(10)]),
    ("2^x", "c0*2^x", [sp.log(2)]),
    ("sin(x)/3", "c0*cos(x)", [sp.Rational(1, 3)]),
    ("e^(2*x)*sqrt(3)", "c0*e^(2*x)", [2 * sp.sqrt(3)]),
    ("atan(x)*pi", "c0/(1 + x^2)", [sp.pi]),
    ("x^3/7 + sqrt(5)*x", "c0*x^2 + c1", [sp.Rational(3, 7), sp.sqrt(5)]),
    ("e*ln(x) + x^2/3", "c0/x + c1*x", [sp.E, sp.Rational(2, 3)]),
    ("cos(pi*x)", "c0*sin(pi*x)", [-sp.pi]),
    ("2.0045*x^2/2", "c0*x", [sp.Rational(20045, 10000)]),          # a tie at 4 digits
    ("x^3*3.1415/3", "c0*x^2", [sp.Rational(31415, 10000)]),       # a tie at 4 digits
    ("sqrt(2)*sin(x)^2", "c0*sin(x)*cos(x)", [2 * sp.sqrt(2)]),
    ("x*ln(3)", "c0", [sp.log(3)]),
    ("(x^2 + 1)^(3/2)/pi", "c0*x*sqrt(x^2 + 1)", [3 / sp.pi]),
    ("tan(x)*sqrt(7)", "c0*sec(x)^2", [sp.sqrt(7)]),
    ("abs(x - 1)*pi", "c0*sign(x - 1)", [sp.pi]),
    ("exp(-x^2)/sqrt(pi)", "c0*x*exp(-x^2)", [-2 / sp.sqrt(sp.pi)]),
    ("x^4/9 + x^2/7 + sqrt(3)*x", "c0*x^3 + c1*x + c2", [sp.Rational(4, 9), sp.Rational(2, 7),
                                                         sp.sqrt(3)]),
    ("5^x + pi*x", "c0*5^x + c1", [sp.log(5), sp.pi]),
]
DIGITS = (3, 4, 5, 6)


def sym(text):
    return sp.sympify(text.replace("^", "**"), locals=LOCALS, rational=True)


def typed(template, texts) -> str:
    """The template with each constant as typed (a negative one in parentheses)."""
    out = template
    for i, t in reversed(list(enumerate(texts))):
        out = out.replace(f"c{i}", f"({t})" if t.startswith("-") else t)
    return out


def truth(question, template, texts, constants) -> bool:
    """SymPy's word on an answer: its form is the derivative with the exact constants, and
    each decimal is its constant correctly rounded (3+ significant digits) or exactly it."""
    d = sp.diff(sym(question), X)
    exact = sym(template).subs(dict(zip(C, constants)))
    if sp.simplify(exact - d) != 0:
        a = sym(typed(template, texts))
        assert any(abs(sp.N(a.subs(X, p) - d.subs(X, p), 50)) > sp.Float("1e-8")
                   for p in (sp.Rational(1, 3), sp.Rational(7, 5), sp.Rational(-5, 2))
                   if d.subs(X, p).is_real), (question, template)
        return False
    for t, k in zip(texts, constants):
        if "." in t and significant(t) >= 3:
            if not correctly_rounded(t, k):
                return False
        elif sp.Rational(t) != k:
            return False
    return True


def right_cases():
    out = []
    for q, template, ks in TEMPLATES:
        for digits in DIGITS:
            texts = [rounded(k, digits)[0] for k in ks]
            out.append((q, template, texts, ks))
    for q, template, ks in TEMPLATES[12:14]:  # the other side of each tie
        texts = []
        for k in ks:
            r, unit = rounded(k, 4)
            other = Decimal(r) + unit if sp.Rational(r) < k else Decimal(r) - unit
            texts.append(format(other, "f"))
        out.append((q, template, texts, ks))
    return out


def one_off_cases():
    """One decimal one unit off in its last digit; the others right (their half units are
    slack that must not cover it)."""
    rng = random.Random(32)
    out = []
    for q, template, ks in TEMPLATES:
        for digits in DIGITS:
            texts = [rounded(k, digits)[0] for k in ks]
            i = rng.randrange(len(ks))
            texts[i] = one_off(ks[i], digits, rng)
            out.append((q, template, texts, ks))
    return out


def too_few_cases():
    """Rounded to 2 or 1 significant digits: an exact number, not a rounding."""
    out = []
    for q, template, ks in TEMPLATES:
        for digits in (1, 2):
            got = [rounded(k, digits) for k in ks]
            if None in got:
                continue
            texts = [g[0] for g in got]
            if all(sp.Rational(t) == k for t, k in zip(texts, ks)):
                continue  # exactly the constant: right, not a case of this family
            out.append((q, template, texts, ks))
    return out


def wrong_form_cases():
    """The right decimals in a wrong form: the first term times x, or its sign flipped."""
    out = []
    for q, template, ks in TEMPLATES:
        for digits in (3, 5):
            texts = [rounded(k, digits)[0] for k in ks]
            out.append((q, template.replace("c0", "c0*x", 1), texts, ks))
            out.append((q, template.replace("c0", "-c0", 1) if len(ks) > 1
                        else template.replace("c0", "c0/x", 1), texts, ks))
    return out


FAMILIES = {"right roundings": right_cases, "one off": one_off_cases,
            "too few digits": too_few_cases, "wrong form": wrong_form_cases}


def run_family(cases):
    """The cases where gradcli's verdict is not SymPy's, and how each was decided."""
    bad, how = [], {}
    for q, template, texts, ks in cases:
        answer = typed(template, texts)
        right = truth(q, template, texts, ks)
        a = check(q, None, derivatives=[("x", answer)]).answers[0]
        how[a.decided_by] = how.get(a.decided_by, 0) + 1
        if a.ok != right:
            bad.append((q, answer, right, a.reason, a.evidence))
    return bad, how


@pytest.mark.slow
def test_the_families_are_large_and_their_truth_is_both_ways():
    for name, family in FAMILIES.items():
        cases = family()
        assert len(cases) >= 20, name
    assert all(truth(*c) for c in right_cases())
    assert not any(truth(*c) for c in one_off_cases() + wrong_form_cases())


FAST_RIGHT = [right_cases()[i] for i in (4, 9, 48, 50, 89)]
FAST_WRONG = [one_off_cases()[9], one_off_cases()[80], too_few_cases()[0],
              wrong_form_cases()[0], wrong_form_cases()[9]]


@pytest.mark.parametrize("case", FAST_RIGHT + FAST_WRONG)
def test_five_right_and_five_wrong(case):
    bad, how = run_family([case])
    assert not bad, bad
    assert set(how) <= {"proof", "counterexample"}, how


@pytest.mark.slow
@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_case_of_each_family(family, record_property):
    cases = FAMILIES[family]()
    bad, how = run_family(cases)
    record_property("compared", len(cases) - len(bad))
    record_property("drawn", len(cases))
    print(family, len(cases), "cases:", how)
    assert not bad, bad[:5]
    # where the form is linear in the decimals, algebra decides: never sampling
    assert how.get("sampling", 0) == 0, how


# ------------------------------------------------------------ each outcome, one by one

def decided(question, answer):
    program = read_program(question)
    answer_program = read_program(answer)
    return decide_rounded(program, answer_program, "x", ["x"])


def test_right_roundings_are_proven_with_the_number_each_stands_for():
    s = decided("pi*exp(1/(x^2+1))/4", "-1.5708 x exp(1/(x^2+1))/(x^2+1)^2")
    assert s.ok and s.decided_by == "proof" and not s.wrong
    assert [t for t, _ in s.values] == ["-1.5708"]
    assert sp.simplify(s.values[0][1] + sp.pi / 2) == 0


def test_a_decimal_that_is_not_its_rounding_is_named_with_its_rounding():
    s = decided("sqrt(2)*x^2 + pi*x", "2.828x + 3.141")
    assert not s.ok and s.decided_by == "proof"
    assert s.wrong == ["3.141 stands for π = 3.141592654…: rounded to 3 decimal places "
                       "that is 3.142"]


def test_no_rounding_fits_a_wrong_form():
    s = decided("pi*x^2", "6.283x^2")
    assert not s.ok and s.decided_by == "counterexample"
    cx = s.counterexample
    assert cx["yours"] == pytest.approx(6.283 * cx["at"]["x"] ** 2)


def test_an_exact_tie_rounds_either_way():
    # 2.001/2 = 1.0005 exactly: 1.000 and 1.001 are both right, 1.002 is not
    assert decided("2.001*x^2/4", "1.001x").ok
    assert decided("2.001*x^2/4", "1.000x").ok
    assert not decided("2.001*x^2/4", "1.002x").ok


def test_a_decimal_inside_a_function_is_left_to_sampling():
    assert decided("sin(sqrt(2)x)", "1.414cos(1.414x)") is None    # not linear
    assert decided("x^2", "2x") is None                            # no rounded decimal
    assert decided("x^2", "2.00*x/1.00") is None                   # a decimal divides
    a = check("sin(sqrt(2)x)", None, derivatives=[("x", "1.414cos(1.414x)")]).answers[0]
    assert a.ok and a.decided_by == "sampling"


@pytest.mark.parametrize("answer,ok", [("-(-6.283)x", True), ("-(-6.284)x", False),
                                       ("(6.283)x", True), ("-(6.283)*(-x)", True)])
def test_a_decimal_in_brackets_keeps_its_digits_and_its_sign(answer, ok):
    s = decided("pi*x^2", answer)
    assert s.ok is ok and s.decided_by == "proof"
    assert [t for t, _ in s.values] in (["6.283"], ["6.284"], ["-6.283"])


def test_at_a_given_point_both_values_are_shown():
    a = check("pi*x^2", {"x": 2}, derivatives=[("x", "6.283x")]).answers[0]
    assert a.ok and a.decided_by == "proof"
    assert a.computed == pytest.approx(12.566) and a.expected == pytest.approx(4 * 3.14159265)
    a = check("pi*x^2", {"x": 0}, derivatives=[("x", "6.283x^2/x")]).answers[0]
    assert a.ok and a.computed is None and "undefined at x = 0" in a.note


def test_a_decimal_the_question_gives_is_exact_wherever_it_stands():
    # Active Calculus 2.5.3 c: the printed answer repeats the question's 0.0000323
    a = check("30e^(-0.0000323h)", None,
              derivatives=[("h", "30e^(-0.0000323h)(-0.0000323)")]).answers[0]
    assert a.ok and a.decided_by == "proof" and "the question's own" in a.evidence
    a = check("2000e^(0.0198t)", None, derivatives=[("t", "39.6e^(0.0198t)")]).answers[0]
    assert a.ok and a.decided_by == "proof" and "39.6 is exact" in a.evidence
    a = check("2000e^(0.0198t)", None, derivatives=[("t", "39.5e^(0.0198t)")]).answers[0]
    assert not a.ok and a.decided_by == "proof" and "that is 39.6" in a.reason
    a = check("30e^(-0.0000323h)", None,
              derivatives=[("h", "30e^(-0.0000323h)(0.0000323)")]).answers[0]
    assert not a.ok and a.decided_by == "counterexample" and a.mistake == "sign"


def test_each_partial_of_a_gradient_on_its_own():
    q = "pi*x^2*y + sqrt(3)*y^2"
    v = check(q, None, derivatives=[("x", "6.283x y"), ("y", "3.142x^2 + 3.463y")])
    dx, dy = v.answers
    assert dx.ok and dx.decided_by == "proof"
    assert not dy.ok and dy.decided_by == "proof"
    assert dy.reason == ("3.463 stands for 2√3 = 3.464101615…: rounded to 3 decimal places "
                         "that is 3.464")


def test_short_decimals_and_whole_numbers_are_exact():
    # 0.5 (1 digit) is exactly 1/2: the formula is proven without the digits rule
    a = check("sqrt(x)", None, derivatives=[("x", "0.5x^-0.5")]).answers[0]
    assert a.ok and a.decided_by == "proof" and "correctly rounded" not in a.evidence
    a = check("pi*x^2", None, derivatives=[("x", "6.3x")]).answers[0]
    assert not a.ok


def test_a_short_decimal_that_is_a_rounding_is_named_too_few_digits():
    a = check("sqrt(2)*x^2 + pi*x", None, derivatives=[("x", "2.8x + 3.14")]).answers[0]
    assert not a.ok and a.decided_by == "counterexample"
    assert "2.8 is 2√2 = 2.828427125… rounded to 1 decimal place, too few digits" in a.note
    assert "give at least 3 (2.83)" in a.note
    a = check("pi*x^2", None, derivatives=[("x", "6.2x")]).answers[0]
    assert not a.ok and "too few" not in a.note  # 6.2 is no rounding of 2π


def test_the_number_in_words():
    assert describe(sp.Rational(2001, 2000)) == "2001/2000 = 1.0005"
    assert describe(sp.sqrt(2) / 2) == "√2/2 = 0.7071067812…"


def test_the_verdict_through_the_cli():
    r = CliRunner().invoke(main, ["check", "pi*x^2", "--derivative", "6.284x", "-o", "json"])
    a = json.loads(r.stdout)["answers"][0]
    assert r.exit_code == 1 and a["decided_by"] == "proof"
    assert "6.284 stands for 2π = 6.283185307…" in a["reason"] and "6.283" in a["reason"]
    r = CliRunner().invoke(main, ["check", "pi*x^2", "--derivative", "6.283x", "-o", "plain"])
    assert r.exit_code == 0
    assert "decided by proof: 6.283 is 2π = 6.283185307… correctly rounded" in r.stdout


# ------------------------------------------------------------ the textbook corpus

def corpus():
    with open(os.path.join(os.path.dirname(__file__), "textbook", "rounded_derivatives.json"),
              encoding="utf-8") as f:
        return json.load(f)


def _sympy(text, v):
    return sp.sympify(text, locals={v: sp.Symbol(v, real=True), "log": sp.log})


def _read(formula):
    """A formula as gradcli reads it, in SymPy (decimals exactly as typed)."""
    from gradcli.symbolic.derivative import inline
    from gradcli.symbolic.tosympy import to_sympy
    return to_sympy(inline(read_program(formula))[0])


def test_the_corpus_is_right_by_sympy():
    entries = corpus()
    assert len(entries) >= 10
    for e in entries:
        v = e["variable"]
        s = sp.Symbol(v, real=True)
        printed = _sympy(e["sympy"]["answer"], v)
        assert sp.simplify(sp.diff(_sympy(e["sympy"]["function"], v), s) - printed) == 0, e["id"]
        exact = {t: _sympy(k, v) for t, k in e["stands_for"].items()}
        for t, k in exact.items():
            assert correctly_rounded(t.lstrip("-"), abs(k)), (e["id"], t)
        # the rounded answer with each decimal's exact number in place is the printed one
        rounded_exact = e["rounded"]
        for t, k in exact.items():
            rounded_exact = rounded_exact.replace(t, f"({sp.sstr(k).replace('**', '^')})")
        assert sp.simplify(_read(rounded_exact) - printed) == 0, e["id"]


@pytest.mark.slow
def test_the_corpus_rounded_is_proven_and_one_unit_off_is_named(record_property):
    from gradcli.symbolic.derivative import differentiate_text
    proven = 0
    for e in corpus():
        v = e["variable"]
        s = sp.Symbol(v, real=True)
        printed = _sympy(e["sympy"]["answer"], v)
        mine = _read(differentiate_text(e["function"], v))   # gradcli solves it
        for p in (sp.Rational(3, 10), sp.Rational(7, 10)):
            assert abs(sp.N((mine - printed).subs(s, p), 30)) < 1e-20, e["id"]
        a = check(e["function"], None, derivatives=[(v, e["rounded"])]).answers[0]
        assert a.ok and a.decided_by == "proof", (e["id"], a.reason, a.evidence)
        proven += 1
        b = check(e["function"], None, derivatives=[(v, e["one_off"])]).answers[0]
        assert not b.ok and b.decided_by == "proof" and "stands for" in b.reason, \
            (e["id"], b.reason)
    record_property("compared", proven)
    record_property("drawn", len(corpus()))


def test_one_corpus_entry_through_the_checker():
    e = corpus()[0]
    a = check(e["function"], None, derivatives=[(e["variable"], e["rounded"])]).answers[0]
    b = check(e["function"], None, derivatives=[(e["variable"], e["one_off"])]).answers[0]
    assert a.ok and not b.ok
    assert b.reason == ("3.640 stands for 4/ln(3) = 3.640956907…: rounded to 3 decimal "
                        "places that is 3.641")
