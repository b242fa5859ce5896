"""Derivative verdicts that scale, far or close kinks, tiny terms or spelling cannot fool.

Each family builds its cases by construction and lets SymPy confirm which are
right (the difference simplifies to 0) and which are wrong (a witness point
where SymPy's values differ); the checker must agree on every one, and say
what decided it. The bulk runs under `slow`; FAST cases (one per family) run
always. docs/check.md, "Decided by proof".
"""
import pytest
import sympy as sp

from gradcli.tasks.check.answers import check
from gradcli.tasks.check.formulaproof import line_values, shortest

X = sp.Symbol("x", real=True)
LOCALS = {"x": X, "abs": sp.Abs, "sign": sp.sign, "max": sp.Max, "min": sp.Min,
          "ln": sp.log, "log": sp.log, "sec": sp.sec, "step": sp.Heaviside}


def sym(text):
    return sp.sympify(text.replace("^", "**"), locals=LOCALS)


def judged(question, answer, witness=None):
    """SymPy's word: True (right), or False with the witness where the two differ."""
    d = sp.diff(sym(question), X)
    a = sym(answer)
    if witness is None:
        assert sp.simplify(a - d) == 0, (question, answer)
        return True
    w = sp.Rational(witness)
    gap = sp.N(a.subs(X, w) - d.subs(X, w), 50)
    assert gap != 0, (question, answer, witness)
    return False


def verdict(question, answer):
    a = check(question, None, derivatives=[("x", answer)]).answers[0]
    return a


# ------------------------------------------------------------ the families

def scale_cases():
    """Tiny coefficients and huge offsets: the scale is the question's, never the answer's."""
    cases = []
    for c in ("1e-10", "3e-12", "7e-15", "2e-20", "5e-8"):
        cases.append((f"{c}*x^2", "0", "1"))
        cases.append((f"{c}*x^2", f"2*{c}*x", None))
    for n in ("1000", "10^5", "10^6", "123456", "10^9"):
        cases.append((f"(x + {n})^2 - 2*{n}*x", "2*x + 1/1000", "1"))
        cases.append((f"(x + {n})^2 - 2*{n}*x", "2*x", None))
    for n in ("10^4", "10^8", "10^12", "10^15", "10^20"):
        cases.append((f"x^3/{n}", "0", "1"))
        cases.append((f"x^3/{n}", f"3*x^2/{n} + 10^-30", "1"))
    return cases


def far_kink_cases():
    """Kinks anywhere on the line: ±15 ... ±10^6."""
    cases = []
    for k in ("15", "-15", "40", "-250", "1000", "-1000", "10^4", "-10^5", "10^6", "-10^6"):
        cases.append((f"abs(x - ({k}))", "-1", str(sym(k) + 1)))
        cases.append((f"abs(x - ({k}))", f"sign(x - ({k}))", None))
        cases.append(("x^2", f"2*x*sign(x - ({k}))", str(sym(k) - 1 if sym(k) > 0 else
                                                           sym(k) - 1)))
    return cases


def close_kink_cases():
    """Two sign changes in what a grid would take for one cell: the wrong answer differs only
    between them."""
    cases = []
    for a, b in (("1/100", "3/100"), ("1/1000", "2/1000"), ("-5", "-499/100"),
                 ("7", "70001/10000"), ("1000", "1000001/1000"), ("3/10", "30001/100000"),
                 ("-2/100", "1/100"), ("2", "5/2"), ("-1/10^4", "1/10^4"),
                 ("12345", "1234501/100")):
        a, b = f"({a})", f"({b})"
        q = f"abs((x - {a})*(x - {b}))"
        mid = str((sym(a) + sym(b)) / 2)
        witness = str(sym(a) + (sym(b) - sym(a)) / 4)
        cases.append((q, f"(2*x - {a} - {b})*sign((x - {a})*(x - {b}))", None))
        cases.append((q, f"abs(2*x - {a} - {b})*sign(x - {mid})", witness))
    return cases


def tiny_term_cases():
    """A term too small for doubles to see: still a wrong answer."""
    cases = []
    for f, d in (("x^2", "2*x"), ("sin(x)", "cos(x)"), ("exp(x)", "exp(x)"),
                 ("x^3 - x", "3*x^2 - 1"), ("ln(x)", "1/x")):
        cases.append((f, f"{d} + 10^-6*x", "2"))
        cases.append((f, f"{d} + 1/1000", "2"))
        cases.append((f, f"({d})*(1 + 10^-12)", "2"))
        cases.append((f, f"{d} + 10^-40*x", "2"))
    return cases


def other_form_cases():
    """Right answers written another way: identities, factored or expanded, log rules."""
    return [(q, a, None) for q, a in (
        ("sin(x)^2", "2*sin(x)*cos(x)"), ("sin(x)^2", "sin(2*x)"),
        ("cos(x)^2", "-sin(2*x)"), ("tan(x)", "sec(x)^2"), ("tan(x)", "1 + tan(x)^2"),
        ("sin(x)*cos(x)", "cos(2*x)"), ("sin(x)*cos(x)", "1 - 2*sin(x)^2"),
        ("(x + 1)^3", "3*x^2 + 6*x + 3"), ("x^3 + 3*x^2 + 3*x", "3*(x + 1)^2"),
        ("(x^2 - 1)/(x - 1)", "1"), ("x/(x + 1)", "1/(x + 1)^2"),
        ("ln(x^3)", "3/x"), ("ln(x^2*(x + 1))", "2/x + 1/(x + 1)"),
        ("ln(sqrt(x))", "1/(2*x)"), ("ln(x/(x + 1))", "1/(x*(x + 1))"),
        ("exp(2*ln(x))", "2*x"), ("ln(exp(x)*x)", "1 + 1/x"),
        ("abs(x)^3", "3*x*abs(x)"), ("x*abs(x)", "2*abs(x)"),
        ("sqrt(x^2 + 1)", "x/sqrt(x^2 + 1)"), ("abs(x - 15)", "sign(x - 15)"),
        ("ln(x^2)", "2/x"))]


SPELLINGS = ("x^2", "x*x", "x**2", "(x)^2", "x^2 + 0", "x^(2)", "x*x + 0*x", "2*x^2/2",
             "x^3/x", "(x + 0)^2")


def spelling_cases():
    """A wrong answer that differs only near x = -4: wrong however the question is spelled."""
    cases = []
    for i, q in enumerate(SPELLINGS):
        width = ("1/1000", "1/100")[i % 2]
        cases.append((q, f"2*x + max(0, {width} - abs(x + 4))", "-4"))
        cases.append((q, f"2*x + max(0, 1/10^6 - abs(x + 4))", "-4"))
    return cases


FAMILIES = {"scale": scale_cases, "far kinks": far_kink_cases, "close kinks": close_kink_cases,
            "tiny terms": tiny_term_cases, "other forms": other_form_cases,
            "spelling": spelling_cases}


def run_family(cases):
    wrong_verdicts = []
    for q, answer, witness in cases:
        right = judged(q, answer, witness)
        a = verdict(q, answer)
        if a.ok != right:
            wrong_verdicts.append((q, answer, a.ok, a.reason, a.evidence))
        # a wrong verdict is never decided by sampling alone where algebra can look
        assert a.decided_by in ("proof", "counterexample"), (q, answer, a.decided_by)
    return wrong_verdicts


FAST = [(name, 0) for name in FAMILIES]


@pytest.mark.parametrize("family,index", FAST[:5])
def test_one_case_of_each_family(family, index):
    q, answer, witness = FAMILIES[family]()[index]
    assert not run_family([(q, answer, witness)])


@pytest.mark.slow
@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_case_of_each_family(family, record_property):
    cases = FAMILIES[family]()
    assert len(cases) >= 20
    bad = run_family(cases)
    record_property("compared", len(cases) - len(bad))
    record_property("drawn", len(cases))
    assert not bad, bad[:5]


# ------------------------------------------------------------ the issue's own examples

@pytest.mark.parametrize("question,answer", [
    ("abs(x - 15)", "-1"),
    ("x^2", "2x*sign(x + 12)"),
    ("1e-10 x^2", "0"),
    ("(x+1000)^2 - 2000x", "2x + 1/1000"),
])
def test_the_issues_examples_are_wrong_by_a_counterexample(question, answer):
    a = verdict(question, answer)
    assert not a.ok and a.decided_by == "counterexample"


def test_a_right_answer_is_proven_on_each_piece():
    a = verdict("abs(x^2 - 0.04x + 0.0003)", "(2x - 0.04)*sign(x - 0.01)*sign(x - 0.03)")
    assert a.ok and a.decided_by == "proof"
    assert "pieces" in a.evidence


def test_the_pieces_and_their_points():
    from fractions import Fraction as F
    assert shortest(F(1, 100), F(3, 100)) == F(2, 100)
    values = line_values([F(0), F(15)])
    assert any(0 < v < 15 for v in values) and any(v > 15 for v in values)
    assert any(v < 0 for v in values)
    assert any(F(15) < v < F(15) + F(1, 50) for v in values)  # just beside the kink


# ------------------------------------------------------------ share decided by proof

@pytest.mark.slow
def test_share_of_generated_answers_decided_by_algebra(record_property):
    """On the generated derivative answers of test_verdicts.py: how many exact answers are
    decided by proof (right) or counterexample (wrong), not by sampling."""
    from test_verdicts import POINTS, generated_cases
    # the exact derivative answers do not depend on the constants, digits or points drawn
    cases = generated_cases(n_k=1, digit_choices=(3,), points=POINTS[:1])
    exact = [(args, right) for mode, args, right in cases
             if mode == "derivative" and "." not in args[2]]
    proven = refuted = 0
    for (q, _, answer), right in exact:
        a = check(q, None, derivatives=[("x", answer)]).answers[0]
        assert a.ok == right, (q, answer)
        proven += right and a.decided_by == "proof"
        refuted += not right and a.decided_by == "counterexample"
    rights = sum(right for _, right in exact)
    record_property("compared", proven + refuted)
    record_property("drawn", len(exact))
    print(f"right answers proven: {proven} of {rights}; wrong ones refuted by a "
          f"counterexample: {refuted} of {len(exact) - rights}")
    assert proven >= 0.9 * rights and refuted == len(exact) - rights


# ------------------------------------------------------------ the textbook corpus

@pytest.mark.slow
def test_printed_textbook_answers_are_proven(record_property):
    """The book's printed answers (tests/textbook/exercises.json, as typed) are right, and
    how many of them algebra proves; minus one in eight is wrong, by a counterexample."""
    from test_textbook import ORDINARY
    proven = total = 0
    for entry in ORDINARY:
        for var, printed in entry["answers"].items():
            a = check(entry["function"], None, derivatives=[(var, printed)]).answers[0]
            assert a.ok, (entry["id"], a.reason)
            total += 1
            proven += a.decided_by == "proof"
            if total % 8 == 0:  # an eighth of them: the sign flipped is wrong
                b = check(entry["function"], None, derivatives=[(var, f"-({printed})")])
                b = b.answers[0]
                assert not b.ok and b.decided_by == "counterexample", (entry["id"], b.evidence)
    record_property("compared", proven)
    record_property("drawn", total)
    print(f"printed answers proven: {proven} of {total}")
    assert proven >= 0.9 * total
