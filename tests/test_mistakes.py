"""Naming the mistake in a wrong derivative, as a teacher would (check/diagnose.py).

Each mistake has a case where it is present and a near miss where it is not:
a right answer in another form, or a different wrong answer that must not get
that label. Expressions use explicit `*` and parentheses.
"""
import pytest

from gradcli.tasks.check import check
from gradcli.language.expr import Num
from gradcli.tasks.check.diagnose import candidates, derivative
from gradcli.language.parser import parse
from gradcli.language.printer import to_text


def shown(text):
    """How gradcli prints a sub-expression (the printer's own spelling of powers etc.)."""
    return to_text(parse(text).result)


def _sentence(a) -> str:
    """The mistake's sentence, without the step of diff --steps that follows it."""
    return a.note.split("; step ")[0]


def diagnosis(question, answer, wrt="x", at=None):
    (a,) = check(question, at, derivatives=[(wrt, answer)]).answers
    return a


def named(question, answer, wrt="x", at=None):
    a = diagnosis(question, answer, wrt, at)
    assert not a.ok, (question, answer)
    return a.mistake


# ---------------------------------------------------------------- the chain rule

@pytest.mark.parametrize("question,answer,factor,inner", [
    ("exp(2*x)", "exp(2*x)", "2", "2*x"),
    ("sin(x^2)", "cos(x^2)", "2*x", shown("x^2")),
    ("(3*x+1)^5", "5*(3*x+1)^4", "3", "3*x + 1"),
    ("ln(x^2+1)", "1/(x^2+1)", "2*x", shown("x^2 + 1")),
    ("(w*x+b)^2", "2*(w*x+b)", "w", "w*x + b"),
])
def test_chain_rule_inner_derivative_missing(question, answer, factor, inner):
    a = diagnosis(question, answer)
    assert not a.ok and a.mistake == "chain-rule"
    assert _sentence(a) == (f"the chain rule: the factor {factor} (the derivative of {inner}) "
                      "is missing")


def test_chain_rule_names_the_node():
    a = diagnosis("exp(2*x)", "exp(2*x)")
    assert a.mistake_detail == "exp(2*x)"
    a = diagnosis("sin(cos(x^2))", "cos(cos(x^2))*(-sin(x^2))")
    assert a.mistake == "chain-rule" and a.mistake_detail == shown("cos(x^2)")


@pytest.mark.parametrize("question,answer", [
    ("exp(2*x)", "2*exp(2*x)"),        # right
    ("sin(x^2)", "2*x*cos(x^2)"),      # right, factor in front
    ("(3*x+1)^5", "15*(3*x+1)^4"),     # right
    ("ln(x^2+1)", "2*x/(x^2+1)"),      # right
])
def test_chain_rule_near_miss_right(question, answer):
    assert diagnosis(question, answer).ok


def test_chain_rule_near_miss_other_wrong_answers():
    # a factor 3 is not the missing factor 2: off by a factor, not the chain rule
    assert named("exp(2*x)", "3*exp(2*x)") == "constant-factor"
    # the inner derivative is there, the outer one is wrong
    assert named("sin(x^2)", "2*x*sin(x^2)") is None


# ---------------------------------------------------------------- the product rule

def test_product_rule_product_of_the_derivatives():
    a = diagnosis("x^2*exp(x)", "2*x*exp(x)")
    assert not a.ok and a.mistake == "product-rule" and a.mistake_detail == shown("x^2*exp(x)")
    assert a.note.startswith("the product rule: the derivative of a product is not the "
                             f"product of the derivatives (of {shown('x^2')} and exp(x))")
    a = diagnosis("sin(x)*cos(x)", "-sin(x)*cos(x)")
    assert a.mistake == "product-rule"


def test_product_rule_a_term_missing():
    a = diagnosis("x^2*sin(x)", "x^2*cos(x)")
    assert a.mistake == "product-rule"
    assert _sentence(a) == ("the product rule: the term 2*x*sin(x) (the derivative of "
                      f"{shown('x^2')} times sin(x)) is missing")
    a = diagnosis("x^2*sin(x)", "2*x*sin(x)")
    assert a.mistake == "product-rule"
    assert f"{shown('x^2')} times the derivative of sin(x)" in a.note


def test_product_rule_near_miss():
    assert diagnosis("x^2*exp(x)", "exp(x)*(2*x + x^2)").ok
    assert diagnosis("sin(x)*cos(x)", "cos(2*x)").ok  # right in another form
    # both terms there, one with a wrong sign: not a product-rule term missing
    assert named("x^2*sin(x)", "2*x*sin(x) - x^2*cos(x)") != "product-rule"
    # a constant factor is no product: 3*x^2 -> 6*x^2 is the exponent not lowered
    assert named("3*x^2", "3*2*x^2") == "power-rule"


# ---------------------------------------------------------------- the quotient rule

def test_quotient_rule_numerator_sign_reversed():
    a = diagnosis("x/(x^2+1)", "(2*x*x - (x^2+1))/(x^2+1)^2")
    assert a.mistake == "quotient-rule" and a.mistake_detail == shown("x/(x^2 + 1)")
    assert a.note.startswith("the quotient rule: the numerator's sign is reversed")


# Quotients a book's exercises use: (numerator, its derivative, denominator, its derivative).
_PARTS = [("x^2 + 1", "2x"), ("x", "1"), ("sin(x)", "cos(x)"), ("e^x", "e^x"),
          ("x - 3", "1"), ("x^3", "3x^2"), ("ln(x)", "1/x"), ("x + 1", "1")]


@pytest.mark.parametrize("u,du,v,dv", [(u, du, v, dv) for u, du in _PARTS for v, dv in _PARTS
                                       if u != v and dv != "1" or (u, v) in
                                       [("x^2 + 1", "x - 3"), ("x", "x + 1"), ("sin(x)", "x")]])
def test_quotient_rule_plus_for_minus_is_named_and_the_right_answer_is_not(u, du, v, dv):
    """The commonest slip, (u'v + uv')/v^2, is named on every quotient of the family; the
    right answer written the same way is right, with no mistake named."""
    question = f"({u})/({v})"
    slip = diagnosis(question, f"(({du})({v}) + ({u})({dv}))/({v})^2")
    assert not slip.ok and slip.mistake == "quotient-rule", (question, slip.note)
    assert "the numerator's terms are added" in slip.note
    right = diagnosis(question, f"(({du})({v}) - ({u})({dv}))/({v})^2")
    assert right.ok and not right.mistake


def test_quotient_rule_denominator_not_squared():
    a = diagnosis("x/(x^2+1)", "((x^2+1) - 2*x*x)/(x^2+1)")
    assert a.mistake == "quotient-rule"
    assert a.note.startswith(f"the quotient rule: the denominator {shown('x^2 + 1')} is not "
                             "squared")
    # a constant numerator: 1/x -> -1/x
    assert named("1/x", "-1/x") == "quotient-rule"


def test_quotient_rule_derivatives_divided():
    a = diagnosis("sin(x)/x^2", "cos(x)/(2*x)")
    assert a.mistake == "quotient-rule" and "quotient of the derivatives" in a.note


def test_quotient_rule_near_miss():
    assert diagnosis("x/(x^2+1)", "(1 - x^2)/(x^2+1)^2").ok
    assert diagnosis("1/x", "-1/x^2").ok
    assert diagnosis("1/x", "-x^(-2)").ok
    # the right shape with a wrong power of the denominator (cubed): not one of the three
    assert named("x/(x^2+1)", "(1 - x^2)/(x^2+1)^3") is None


# ---------------------------------------------------------------- the power rule

def test_power_rule_exponent_not_lowered():
    a = diagnosis("x^3", "3*x^3")
    assert a.mistake == "power-rule" and a.mistake_detail == shown("x^3")
    assert a.note.startswith(f"the power rule: the exponent of {shown('x^3')} was not lowered")


def test_power_rule_on_a_variable_exponent():
    a = diagnosis("2^x", "x*2^(x-1)")
    assert a.mistake == "power-rule" and "whose exponent varies" in a.note


def test_power_rule_near_miss():
    assert diagnosis("x^3", "3*x^2").ok
    assert diagnosis("x^3", "3*x*x").ok
    assert diagnosis("2^x", "2^x*ln(2)").ok
    # 3*x^4 is not the exponent kept (3*x^3): it is the exponent raised, n*x^(n+1)
    assert named("x^3", "3*x^4") == "exponent-raised"
    assert named("x^3", "3*x^5") is None
    # the exponent left out as a factor is a constant factor off, as it always was
    assert named("x^3", "x^2") == "constant-factor"


# ---------------------------------------------------------------- the sign

def test_sign_of_a_functions_derivative():
    a = diagnosis("cos(x)", "sin(x)")
    assert a.mistake == "sign" and a.mistake_detail == "cos(x)"
    assert _sentence(a) == "the sign is wrong: your answer is minus the derivative"
    # inside a sum: only the one term's sign is wrong, the answer is not minus the derivative
    a = diagnosis("sin(3*x) + cos(2*x)", "3*cos(3*x) + 2*sin(2*x)")
    assert a.mistake == "sign" and a.mistake_detail == "cos(2*x)"


def test_sign_of_the_whole_answer_and_of_a_subtraction():
    a = diagnosis("x*sin(x)", "-sin(x) - x*cos(x)")
    assert a.mistake == "sign"
    assert _sentence(a) == "the sign is wrong: your answer is minus the derivative"
    a = diagnosis("x^2 - sin(x)", "2*x + cos(x)")
    assert (a.mistake, a.mistake_detail) == ("sign", "sin(x)")
    assert _sentence(a) == "a sign error: the derivative of sin(x) is cos(x)"
    a = diagnosis("x^2 - x*y", "2*x + y")
    assert (a.mistake, a.mistake_detail) == ("sign", shown("x^2 - x*y"))
    assert _sentence(a) == (f"a sign error: in the derivative of {shown('x^2 - x*y')} the derivative "
                      "of x*y must be subtracted, not added")


def test_sign_near_miss():
    assert diagnosis("cos(x)", "-sin(x)").ok
    assert named("cos(x)", "cos(x)") is None      # no sign flip gives cos(x)
    assert named("cos(x)", "2*sin(x)") != "sign"


# ---------------------------------------------------------------- constants

def test_constant_kept():
    a = diagnosis("x^2 + 3*x + 7", "2*x + 3 + 7")
    assert a.mistake == "constant-kept" and a.mistake_detail == "7"
    assert _sentence(a) == "a constant kept: the derivative of the constant 7 is 0"
    assert named("x^2 - 7", "2*x - 7") == "constant-kept"
    a = diagnosis("x^2 + y", "2*x + y")
    assert a.mistake == "constant-kept" and a.mistake_detail == "y"
    assert _sentence(a) == "a constant kept: y does not depend on x, so its derivative by x is 0"


def test_constant_kept_near_miss():
    assert diagnosis("x^2 + 3*x + 7", "2*x + 3").ok
    # off by 4, which is not the constant 7 kept
    assert named("x^2 + 3*x + 7", "2*x + 7") == "constant-offset"


def test_constant_offset_and_factor():
    a = diagnosis("x^2", "2*x + 3")
    assert (a.mistake, a.mistake_detail) == ("constant-offset", "3")
    a = diagnosis("x^2", "4*x")
    assert (a.mistake, a.mistake_detail) == ("constant-factor", "2")
    # near misses: neither a constant nor a factor off
    assert named("x^2", "x^3") is None
    assert named("x^2", "2*x + x^2") is None


# ---------------------------------------------------------------- the wrong variable

def test_wrong_variable():
    a = diagnosis("x*y^2", "2*x*y")
    assert (a.mistake, a.mistake_detail) == ("wrong-variable", "y")
    assert _sentence(a) == "the derivative with respect to y, not x"
    assert named("x^2*y", "x^2") == "wrong-variable"


def test_wrong_variable_near_miss():
    assert diagnosis("x*y^2", "y^2").ok
    assert named("x*y^2", "3*x*y") != "wrong-variable"


# ---------------------------------------------------------------- part of the domain

def test_partial_domain_only_when_true():
    a = diagnosis("sqrt(x^2)", "1")
    assert a.mistake == "partial-domain" and a.mistake_detail == "x > 0"
    a = diagnosis("abs(x)*x", "2*x")
    assert a.mistake == "partial-domain"
    a = diagnosis("max(x, y)", "1")
    assert a.mistake == "partial-domain" and a.note.startswith("right on part of the domain")


@pytest.mark.parametrize("question,answer", [
    ("exp(2*x)", "exp(2*x)"),
    ("x^2*exp(x)", "2*x*exp(x)"),
    ("exp(-x^2)", "exp(-x^2)"),
    ("exp(3*x)", "exp(x)"),
    ("exp(x)*x^3", "3*x^2*exp(x)"),
    ("exp(-5*x)*x", "exp(-5*x)"),
    # + 1 is within the relative tolerance where the derivative is near 1e9: still global
    ("exp(exp(x)^3)", "3*exp(exp(3*x))*exp(3*x) + 1"),
    ("exp(exp(x)^3)", "-3*exp(exp(3*x))*exp(3*x)"),
])
def test_a_global_mistake_is_never_a_domain_problem(question, answer):
    a = diagnosis(question, answer)
    assert not a.ok and a.mistake != "partial-domain"
    assert "part of the domain" not in a.note and "right only where" not in a.note


def test_a_large_derivative_plus_one_is_off_by_a_constant():
    a = diagnosis("exp(exp(x)^3)", "3*exp(exp(3*x))*exp(3*x) + 1")
    assert (a.mistake, a.mistake_detail) == ("constant-offset", "1")


def test_right_everywhere_is_right():
    assert diagnosis("ln(abs(x))", "1/x").ok
    assert diagnosis("ln(x^2)/2", "1/x").ok
    assert diagnosis("sin(x)^2", "sin(2*x)").ok
    assert diagnosis("exp(-30*x^2)", "-60*x*exp(-30*x^2)").ok


def test_right_at_the_given_point_only_is_no_domain_problem():
    a = diagnosis("x^2", "2 + (x-1)*5", at={"x": 1})
    assert a.mistake is None and a.note.startswith("right at the given point but wrong")


def test_a_zero_derivative_answered_zero():
    a = diagnosis("x - x + y", "0")
    assert a.ok


# ---------------------------------------------------------------- the candidates themselves

def test_derivative_without_mistakes_is_the_true_one():
    root = parse("x^2*exp(x)").result
    from gradcli.tasks.check.sampling import true_derivative  # noqa: F401 - the same engine below
    from gradcli.language.expr import Program, Statement
    from gradcli.autodiff.lower import lower
    d = derivative(root, "x")
    value = float(lower(Program((Statement(None, d),)), {"x": 1.5}).output.data)
    assert value == pytest.approx((2 * 1.5 + 1.5 ** 2) * 2.718281828459045 ** 1.5)
    assert derivative(parse("y").result, "x") == Num(0)


def test_candidates_are_bounded_and_keyed():
    keys = {c.key for c in candidates(parse("x^2*exp(2*x) + x/(x+1) + 7").result, "x", ["x"])}
    assert keys <= {"chain-rule", "product-rule", "quotient-rule", "power-rule",
                    "constant-kept", "wrong-variable", "sign"}
    assert {"chain-rule", "product-rule", "quotient-rule", "power-rule",
            "constant-kept", "sign"} <= keys
    big = " + ".join(f"sin({i}*x)" for i in range(300))
    assert list(candidates(parse(big).result, "x", ["x"])) == []  # too large: no diagnosis
