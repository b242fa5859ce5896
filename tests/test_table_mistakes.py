"""The textbook lists' common derivative errors, named by check (check/table_mistakes.py).

For each named mistake a family of questions is generated; the mistaken
derivative is built in SymPy (so it reaches check in SymPy's spelling, not in
the form gradcli would build) and must get that name every time; SymPy's own
derivative, the right answer, must be right with no mistake named. The first
few of each family run always; the rest are marked slow.
"""
import re

import mpmath
import pytest
import sympy as sp

from gradcli.tasks.check import check
from gradcli.tasks.check.table_mistakes import KEYS

x = sp.Symbol("x", real=True)
LOCALS = {"x": x, "e": sp.E, "ln": sp.log, "log2": lambda u: sp.log(u, 2),
          "log10": lambda u: sp.log(u, 10), "asin": sp.asin, "acos": sp.acos, "atan": sp.atan}

# Inner functions u(x): linear with a slope other than +-1, and non-linear.
LINEAR = ["2*x", "3*x", "x/2", "5*x", "3*x + 1", "2*x - 5", "7*x + 2", "x/3 + 1", "-3*x",
          "6*x - 1", "4*x + 3", "-2*x + 1"]
CURVED = ["x**2", "x**2 + 1", "x**3", "x**3 + x", "4*x**2", "x**2 - 3*x", "2*x**2 + x",
          "x**4", "x**2 + x + 1", "x**3 - 2"]
INNERS = ["x", "-x"] + LINEAR + CURVED


def sym(text):
    return sp.sympify(text, locals=LOCALS)


def typed(expr) -> str:
    """SymPy's spelling of a formula, as a student could type it (e, not E)."""
    return re.sub(r"\bE\b", "e", str(expr)).replace("Abs(", "abs(")


def mistaken(family, question, wrong):
    """(question, wrong answer as typed, right answer as typed) with SymPy as the judge."""
    f = sym(question)
    w = sym(wrong) if isinstance(wrong, str) else wrong
    right = sp.diff(f, x)
    assert differs(w, right), (family, question, wrong)   # a real mistake
    return question, typed(w), typed(right)


def differs(a, b) -> bool:
    """a and b differ: a point where both are finite and real and far apart proves it.

    Collection runs this for every case in every worker, so the proof by a point
    comes first; simplify only where no point tells them apart."""
    fa, fb = sp.lambdify(x, a, "mpmath"), sp.lambdify(x, b, "mpmath")
    with mpmath.workdps(30):
        for t in ("0.3", "0.7", "1.3", "2.1", "0.45"):
            try:
                u, v = mpmath.mpf(fa(mpmath.mpf(t))), mpmath.mpf(fb(mpmath.mpf(t)))
            except (TypeError, ValueError, ZeroDivisionError):
                continue   # complex or undefined here: try another point
            if abs(u - v) > mpmath.mpf(10) ** -20 * (1 + abs(u) + abs(v)):
                return True
    return sp.simplify(a - b) != 0


def d(u):
    return sp.diff(sym(u), x)


def _families():
    fam = {k: [] for k in KEYS}
    for u in INNERS:
        fam["exp-power-rule"].append(mistaken(
            "exp-power-rule", f"exp({u})", sym(u) * sp.exp(sym(u) - 1) * d(u)))
    for a in (2, 3, 10):
        for u in INNERS[:8]:
            fam["exponential-ln-lost"].append(mistaken(
                "exponential-ln-lost", f"{a}**({u})", sp.Integer(a) ** sym(u) * d(u)))
    for fn, base in (("log2", 2), ("log10", 10)):
        for u in ["x"] + LINEAR[:5] + CURVED[:5]:
            fam["log-base-lost"].append(mistaken(
                "log-base-lost", f"{fn}({u})", d(u) / sym(u)))
    for u in INNERS:
        fam["trig-square-lost"].append(mistaken(
            "trig-square-lost", f"tan({u})", sp.sec(sym(u)) * d(u)))
    for u in INNERS[:6]:
        fam["trig-square-lost"].append(mistaken(
            "trig-square-lost", f"cot({u})", -sp.csc(sym(u)) * d(u)))
    small = ["x", "x/2", "x/3", "2*x", "x**2", "x**3", "x/2 + 1/4", "-x"]
    for u in small:
        U, dU = sym(u), d(u)
        fam["inverse-trig-formula"] += [
            mistaken("inverse-trig-formula", f"asin({u})", dU / sp.sqrt(1 + U ** 2)),
            mistaken("inverse-trig-formula", f"atan({u})", dU / sp.sqrt(1 - U ** 2)),
            mistaken("inverse-trig-formula", f"acos({u})", -dU / sp.sqrt(1 + U ** 2))]
    for u in INNERS:
        if d(u) == sp.Rational(1, 2) or sp.sqrt(sym(u)).has(sp.Abs):
            continue  # u'/sqrt(u) is then also the factor u' missing; sqrt(x**2) is |x|
        fam["sqrt-half-lost"].append(mistaken(
            "sqrt-half-lost", f"sqrt({u})", d(u) / sp.sqrt(sym(u))))
    for n in (-1, -2, -3, -4, 3, 5):
        for u in ["x", "2*x + 1", "x**2 + 1", "3*x"]:
            fam["exponent-raised"].append(mistaken(
                "exponent-raised", f"({u})**({n})", n * sym(u) ** (n + 1) * d(u)))
    for c in (1, 3, 5):
        for v in ["x**2", "x**3 + 1", "sin(x)", "x**2 + x", "cos(x)", "x**4", "exp(x) + x"]:
            fam["reciprocal-rule"].append(mistaken(
                "reciprocal-rule", f"{c}/({v})", sp.Integer(c) / d(v)))
    for f, df in (("sin", sp.cos), ("exp", sp.exp), ("cos", lambda u: -sp.sin(u))):
        for u in LINEAR[:7]:
            fam["chain-factor-divided"].append(mistaken(
                "chain-factor-divided", f"{f}({u})", df(sym(u)) / d(u)))
    for f, df in (("sin", sp.cos), ("exp", sp.exp), ("ln", lambda u: 1 / u)):
        for u in CURVED[:7]:
            fam["derivative-inside"].append(mistaken(
                "derivative-inside", f"{f}({u})", df(d(u))))
    for c, fake in (("pi**2", 2 * sp.pi), ("e**2", 2 * sp.E), ("pi**3", 3 * sp.pi ** 2),
                    ("e**3", 3 * sp.E ** 2)):
        for g in ["x**2", "sin(x)", "3*x", "x**3 - x", "exp(2*x)"]:
            fam["constant-differentiated"].append(mistaken(
                "constant-differentiated", f"{g} + {c}", d(g) + fake))
    for f in ["1/x", "x**2", "x**3", "4*x**3", "x**2 + 1", "3*x**2 + 2*x", "sqrt(x)",
              "1/(1 + x**2)", "sec(x)**2", "x*exp(x)", "1/x**2", "x**4 - x",
              "2*x + 5", "x**5", "x**(1/3)", "6*x**2 - 4*x", "1/sqrt(1 - x**2)",
              "ln(x)", "x**2*exp(x)", "x**6 + 2"]:
        fam["antiderivative"].append(mistaken(
            "antiderivative", f, sp.integrate(sym(f), x)))
    return fam


FAMILIES = _families()
FAST = 3
CASES = [pytest.param(key, *case, id=f"{key}-{i}",
                      marks=() if i < FAST else pytest.mark.slow)
         for key, cases in FAMILIES.items() for i, case in enumerate(cases)]


def test_every_family_has_twenty():
    assert set(FAMILIES) == set(KEYS)
    assert all(len(cases) >= 20 for cases in FAMILIES.values()), \
        {k: len(v) for k, v in FAMILIES.items()}


def _one(question, answer):
    (a,) = check(question, None, derivatives=[("x", answer)]).answers
    return a


@pytest.mark.parametrize("key,question,wrong,right", CASES)
def test_the_mistake_is_named_and_the_right_answer_is_not(key, question, wrong, right):
    a = _one(question, wrong)
    assert not a.ok and a.mistake == key, (question, wrong, a.mistake, a.note)
    assert a.mistake_detail and a.note
    r = _one(question, right)
    assert r.ok and r.mistake is None, (question, right, r.note)


# ------------------------------------------------ the published exercises of tests/textbook

import json  # noqa: E402
import os  # noqa: E402

from gradcli.language.parser import parse  # noqa: E402
from gradcli.language.printer import to_text  # noqa: E402
from gradcli.tasks.check.table_mistakes import slips  # noqa: E402

_HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "textbook")
with open(os.path.join(_HERE, "exercises.json"), encoding="utf-8") as _f:
    _BOOK = [e for e in json.load(_f) if len(e["variables"]) == 1 and e["id"] not in
             ("paul-c1-3.6-3", "openstax-c1-3.9-343", "openstax-c1-3.9-347",
              "activecalc-2.6.3-b")]   # base-10 log and ')[' (tests/test_textbook.py)


def _differ(difference, t) -> bool:
    """Whether a difference is far from 0 at one of three points of (0.3, 1.7)."""
    for p in ("0.37", "0.81", "1.43"):
        value = complex(difference.evalf(30, subs={t: sp.Rational(p)}))
        if abs(value) > 1e-6:
            return True
    return False


def _book_cases(exercises):
    """(id, function as printed, variable, printed answer, a slip's formula, its key)."""
    out = []
    for e in exercises:
        (v,) = e["variables"]
        t = sp.Symbol(v)
        right = sp.sympify(e["sympy"]["answers"][v], locals={v: t})
        for slip in slips(parse(e["function"]).result, v):
            wrong_text = to_text(slip.expr)
            wrong = sp.sympify(wrong_text.replace("^", "**"), locals={
                v: t, "e": sp.E, "ln": sp.log, "log2": lambda u: sp.log(u, 2),
                "log10": lambda u: sp.log(u, 10)})
            if _differ(wrong - right, t):   # a slip that changes nothing is no slip
                out.append((e["id"], e["function"], v, e["answers"][v], wrong_text, slip.key))
    return out


def _judge(cases):
    """Each slip of the table made in a book's exercise is wrong, nearly always with a
    mistake named (this one, or one tried before it that also fits; a slip deep inside
    (...)^27 may go unnamed, never misnamed); the printed answer is right, unnamed."""
    unnamed = []
    for _, function, v, printed, wrong, key in cases:
        (a,) = check(function, None, derivatives=[(v, wrong)]).answers
        assert not a.ok, (function, wrong, key)
        if a.mistake is None:
            unnamed.append((function, wrong, key))
    # each exercise's printed answer once, not once per slip made in it
    for function, v, printed in dict.fromkeys((c[1], c[2], c[3]) for c in cases):
        (r,) = check(function, None, derivatives=[(v, printed)]).answers
        assert r.ok and r.mistake is None, (function, printed, r.note)
    assert len(unnamed) <= len(cases) // 50, unnamed


def test_slips_in_the_first_published_exercises():
    cases = _book_cases(_BOOK[:8])
    assert len(cases) >= 10
    _judge(cases)


@pytest.mark.slow
def test_slips_in_every_published_exercise():
    cases = _book_cases(_BOOK)
    kinds = {case[-1] for case in cases}
    assert len(cases) >= 200 and len(kinds) >= 8, (len(cases), kinds)
    _judge(cases)
