"""The homework checker as a library: check() verdicts."""
import math

import pytest

from gradcli import api
from gradcli.tasks.check import ATOL, RTOL, check, close
from gradcli.errors import DomainError, ParseError, UnknownName, UsageError

AT = {"w": 3, "x": 2, "b": 1}
Q = "(w*x+b)**2"


def one(verdict):
    assert len(verdict.answers) == 1
    return verdict.answers[0]


# ---------------------------------------------------------------- numbers

def test_right_numeric_answers():
    v = check(Q, AT, value="49", grad={"w": "28", "x": "42", "b": "14"})
    assert v.ok
    assert [(a.kind, a.name, a.expected, a.computed, a.ok) for a in v.answers] == [
        ("value", "f", 49.0, 49.0, True), ("gradient", "w", 28.0, 28.0, True),
        ("gradient", "x", 42.0, 42.0, True), ("gradient", "b", 14.0, 14.0, True)]


def test_wrong_numeric_answer_gives_the_correct_value():
    v = check(Q, AT, value=50, grad={"x": "40"})
    assert not v.ok
    value, gx = v.answers
    assert not value.ok and value.reason == "the correct value is 49"
    assert not gx.ok and gx.expected == 42.0 and gx.computed == 40.0
    assert gx.reason == "the correct value is 42"


def test_numeric_answers_may_be_constant_expressions():
    a = one(check("sin(x)", {"x": 0}, grad={"x": "cos(0)"}))
    assert a.ok
    a = one(check("x**3", {"x": 1 / 3}, grad={"x": "1/3"}))
    assert a.ok and a.expected == pytest.approx(1 / 3)
    assert one(check("sqrt(x)", {"x": 0}, grad={"x": "inf"})).ok
    assert not one(check("sqrt(x)", {"x": 0}, grad={"x": "1e300"})).ok


def test_gradient_of_an_intermediate_name():
    v = check("z = w*x + b\nz**2", AT, grad={"z": 14})
    assert v.ok


@pytest.mark.parametrize("answer,ok", [
    (28 * (1 + 0.9 * RTOL), True), (28 * (1 - 0.9 * RTOL), True),
    (28 * (1 + 1.1 * RTOL), False), (28 * (1 - 1.1 * RTOL), False)])
def test_relative_tolerance_edges(answer, ok):
    assert one(check(Q, AT, grad={"w": answer})).ok is ok


@pytest.mark.parametrize("answer,ok", [(0.9 * ATOL, True), (-0.9 * ATOL, True),
                                       (1.1 * ATOL, False), (2e-9, False)])
def test_absolute_tolerance_edges_at_zero(answer, ok):
    # d/dx x**2 at 0 is 0: only atol can accept a nonzero answer.
    assert one(check("x**2", {"x": 0}, grad={"x": answer})).ok is ok


def test_custom_tolerances():
    assert one(check(Q, AT, grad={"w": 28.01}, rtol=1e-3)).ok
    assert not one(check(Q, AT, grad={"w": 28.01}, rtol=1e-4)).ok
    assert one(check("x**2", {"x": 0}, grad={"x": 0.05}, atol=0.1)).ok
    assert not one(check(Q, AT, grad={"w": 28 + 1e-12}, rtol=0, atol=0)).ok
    assert one(check(Q, AT, grad={"w": 28}, rtol=0, atol=0)).ok


def test_close_handles_nan_and_inf():
    assert close(math.nan, math.nan, RTOL, ATOL)
    assert not close(1.0, math.nan, RTOL, ATOL)
    assert close(math.inf, math.inf, RTOL, ATOL)
    assert not close(-math.inf, math.inf, RTOL, ATOL)
    assert not close(1e308, math.inf, RTOL, ATOL)


# ---------------------------------------------------------------- formulas

@pytest.mark.parametrize("formula", ["2*x*(w*x+b)", "2*(w*x+b)*x", "2*x**2*w + 2*x*b",
                                     "2x*(w*x+b)",
                                     "(2*w*x**2 + 2*b*x)", "4*x*(w*x+b)/2"])
def test_equivalent_forms_are_right(formula):
    a = one(check(Q, AT, derivatives=[("w", formula)]))
    assert a.ok, a.reason
    assert a.expected == 28.0 and a.computed == 28.0
    assert a.points >= 17  # the given point and the points algebra chose (both sides of cuts)


def test_equivalent_forms_without_a_point():
    v = check(Q, None, derivatives={"w": "2*x**2*w + 2*x*b", "x": "2*w*(w*x+b)",
                                    "b": "2*(b + x*w)"})
    assert v.ok
    assert all(a.expected is None and a.points >= 16 for a in v.answers)


def test_wrong_formula_shows_a_point_and_both_values():
    a = one(check(Q, AT, derivatives=[("x", "2*x*(w*x+b)")]))
    assert not a.ok
    ce = a.counterexample
    assert ce["at"] == {"w": 3.0, "x": 2.0, "b": 1.0}  # it already differs at the given point
    assert (ce["yours"], ce["correct"]) == (28.0, 42.0)
    assert a.reason == "at w = 3, x = 2, b = 1 your answer gives 28, but the derivative is 42"


def test_right_at_the_given_point_only():
    # 2 + (x-1)*5 equals 2x at x = 1 and nowhere else.
    a = one(check("x**2", {"x": 1}, derivatives=[("x", "2 + (x-1)*5")]))
    assert not a.ok
    assert a.computed == a.expected == 2.0
    assert a.counterexample["at"] != {"x": 1.0}
    assert a.note.startswith("right at the given point but wrong elsewhere")


def test_right_only_for_positive_x():
    a = one(check("sqrt(x**2)", None, derivatives=[("x", "1")]))
    assert not a.ok
    assert a.note == "right only where x > 0: wrong where x < 0"
    assert a.counterexample["at"]["x"] < 0
    assert a.counterexample["correct"] == -1.0 and a.counterexample["yours"] == 1.0
    # sqrt(x**2) versus x: the classic
    a = one(check("x**2/2", None, derivatives=[("x", "sqrt(x**2)")]))
    assert not a.ok and a.note == "right only where x > 0: wrong where x < 0"


def test_right_only_for_negative_x():
    a = one(check("abs(x)", None, derivatives=[("x", "-1")]))
    assert not a.ok and a.note == "right only where x < 0: wrong where x > 0"


def test_answer_undefined_where_the_derivative_is_defined():
    # Compared where both are defined (x > 0): right there, and the gap is reported.
    a = one(check("x**2", {"x": 1}, derivatives=[("x", "2*sqrt(x)**2")]))
    assert a.ok
    assert a.note == ("your answer is undefined where x < 0, where the derivative is defined "
                      "(compared where both are defined)")
    # d/dy 0**y is 0 (a limit); the formula x**y*log(x) is undefined at x = 0.
    a = one(check("relu(x)**y", None, derivatives=[("y", "relu(x)**y*log(relu(x))")]))
    assert a.ok and "your answer is undefined where x < 0" in a.note


def test_answer_undefined_everywhere_the_derivative_is_defined():
    a = one(check("x**2", None, derivatives=[("x", "log(-x**2 - 1)")]))
    assert not a.ok and a.points == 0
    assert a.reason.startswith("your answer is undefined at every point")
    assert a.correct == "2*x"


def test_compared_only_where_both_are_defined():
    # d/dx log(x) = 1/x; log is undefined for x <= 0, so only x > 0 is compared.
    a = one(check("log(x)", None, derivatives=[("x", "1/x")]))
    # algebra's points where both are defined (x > 0: inside, beside the edge, far out)
    assert a.ok and a.points >= 8 and a.decided_by == "proof"
    a = one(check("log(abs(x))", None, derivatives=[("x", "1/x")]))
    assert a.ok


def test_off_by_a_constant():
    a = one(check(Q, AT, derivatives=[("w", "2*x*(w*x+b) + 3")]))
    assert not a.ok
    assert a.note == "off by a constant: your answer minus the derivative is 3 at every point"


def test_off_by_a_factor_and_wrong_sign():
    a = one(check(Q, AT, derivatives=[("w", "x*(w*x+b)")]))
    assert a.note == "off by a factor: your answer is 0.5 times the derivative"
    assert (a.mistake, a.mistake_detail) == ("constant-factor", "0.5")
    a = one(check(Q, AT, derivatives=[("w", "3*x*(w*x+b)")]))
    assert a.note == "off by a factor: your answer is 1.5 times the derivative"
    a = one(check("sin(x)", None, derivatives=[("x", "-cos(x)")]))
    assert a.note.startswith("the sign is wrong: your answer is minus the derivative")
    assert a.mistake == "sign"
    a = one(check("sin(x)*x", None, derivatives=[("x", "-cos(x)*x - sin(x)")]))
    assert a.note.startswith("the sign is wrong: your answer is minus the derivative")


def test_constant_derivative_answered_with_another_constant():
    a = one(check("3*x", {"x": 1}, derivatives=[("x", "4")]))
    assert not a.ok and a.note == "the derivative is the constant 3"
    assert (a.mistake, a.mistake_detail) == ("constant-offset", "1")


def test_cancellation_in_an_equivalent_form_is_not_a_mistake():
    # (x+1)**2 - x**2 - 2*x == 1: the expanded derivative cancels large terms.
    a = one(check("(x + 1e4)**2", None, derivatives=[("x", "2*x + 2e4")]))
    assert a.ok
    a = one(check("x**8 - x**8 + x", None, derivatives=[("x", "1")]))
    assert a.ok
    # Rounding of x + 1e10 is ~1e-6, far above rtol relative to 2x; relative to the
    # magnitudes of the terms it is nothing.
    assert one(check("(x+1e10)**2 - 2e10*x", None, derivatives=[("x", "2*x")])).ok
    assert one(check("x**2", None, derivatives=[("x", "(x+1e10)*2 - 2e10")])).ok


def test_a_small_error_is_caught():
    a = one(check("exp(x)", None, derivatives=[("x", "exp(x) + 1e-6")]))
    assert not a.ok


def test_answer_may_use_the_questions_names():
    v = check("z = w*x + b\nloss = z**2", AT, derivatives=[("w", "2*z*x"), ("b", "2*z")])
    assert v.ok
    assert v.result_name == "loss"


def test_answer_may_be_a_program():
    assert one(check(Q, AT, derivatives=[("w", "u = w*x + b; 2*x*u")])).ok


def test_points_are_the_same_on_every_run():
    a1 = one(check(Q, None, derivatives=[("w", "x*(w*x+b)")]))
    a2 = one(check(Q, None, derivatives=[("w", "x*(w*x+b)")]))
    assert a1.counterexample == a2.counterexample


def test_both_signs_and_moderate_magnitudes_are_sampled():
    from gradcli.tasks.check.sampling import WIDE_AFTER, sample_points as _candidates
    points = [p for p, _ in zip((p for p, _ in _candidates(["x", "y"], None, 7)), range(40))]
    xs = [p["x"] for p in points]
    assert any(x < 0 for x in xs) and any(x > 0 for x in xs)
    assert any(abs(x) < 0.5 for x in xs) and any(abs(x) > 2 for x in xs)
    assert all(0.1 <= abs(x) <= 3 for x in xs)  # well scaled: exp(2*x) neither under- nor overflows
    # a narrow domain (log(x - 10)) is still found: later points range wider
    late = [p["x"] for (p, _), _ in list(zip(_candidates(["x"], None, 7), range(120)))[WIDE_AFTER:]]
    assert any(abs(x) > 10 for x in late)


# ---------------------------------------------------------------- bad input

def test_answer_that_does_not_parse_says_so():
    with pytest.raises(ParseError) as info:
        check(Q, AT, derivatives=[("w", "2*x*(w*x+b")])
    err = info.value
    assert err.message.startswith("the answer for ∂f/∂w does not parse: missing ')'")
    assert err.source == "2*x*(w*x+b" and err.span == (4, 5)
    assert err.exit_code == 2


def test_misspelled_function_in_answer_suggests_the_name():
    with pytest.raises(UnknownName) as info:
        check("sin(x)", None, derivatives=[("x", "coss(x)")])
    assert "does not parse" in info.value.message and info.value.hint == "did you mean cos?"


def test_answer_with_a_variable_the_question_lacks():
    with pytest.raises(UnknownName) as info:
        check(Q, AT, derivatives=[("w", "2*x*(w*x+c)")])
    err = info.value
    assert err.message == "the answer for ∂f/∂w uses 'c', which the question does not have"
    assert err.span == (9, 10) and err.hint == "the question's variables are: w, x, b"
    assert err.exit_code == 2


def test_numeric_answer_errors():
    with pytest.raises(ParseError, match="the answer --grad w does not parse"):
        check(Q, AT, grad={"w": "2*("})
    with pytest.raises(UsageError, match="'x' is not a constant"):
        check(Q, AT, grad={"w": "2*x"})


def test_usage_errors():
    with pytest.raises(UsageError, match="nothing to check"):
        check(Q, AT)
    with pytest.raises(UsageError, match="no variable 'q'"):
        check(Q, AT, grad={"q": 1})
    with pytest.raises(UsageError, match="no variable 'q'"):
        check(Q, AT, derivatives=[("q", "1")])
    with pytest.raises(UsageError, match="two answers"):
        check(Q, AT, derivatives=[("w", "1"), ("w", "2")])
    with pytest.raises(UsageError, match="need the point"):
        check(Q, None, grad={"w": 28})
    with pytest.raises(UsageError, match="zero or positive"):
        check(Q, AT, value=49, rtol=-1)


def test_question_undefined_at_the_point_is_a_domain_error():
    with pytest.raises(DomainError) as info:
        check("log(x)", {"x": -1}, derivatives=[("x", "1/x")])
    assert info.value.exit_code == 3


# ---------------------------------------------------------------- diff output is accepted

from hypothesis import HealthCheck, given, settings  # noqa: E402

from conftest import Tally, run_property  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

UNARY = ["sin", "cos", "exp", "log", "sqrt", "tanh", "sigmoid", "relu", "abs", "softplus",
         "atan", "cbrt", "sinh", "asinh"]
BINARY = ["+", "-", "*", "/"]


def _expressions():
    leaves = st.sampled_from(["x", "y", "z", "2", "0.5", "3", "pi"])

    def extend(children):
        return st.one_of(
            st.tuples(st.sampled_from(UNARY), children).map(lambda t: f"{t[0]}({t[1]})"),
            st.tuples(children, st.sampled_from(BINARY), children)
              .map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(children, st.integers(2, 4)).map(lambda t: f"({t[0]})**{t[1]}"),
            st.tuples(children, children).map(lambda t: f"max({t[0]}, {t[1]})"),
        )
    return st.recursive(leaves, extend, max_leaves=6)


DIFFERENTIATED = Tally()


@settings(max_examples=40, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(_expressions())
def _differentiate_output_accepted(text):
    variables = api.inputs_of(__import__("gradcli.language.parser", fromlist=["parse"]).parse(text))
    if not variables:
        DIFFERENTIATED("constant")
        return
    for v in variables:
        formula = api.differentiate(text, v)
        a = one(check(text, None, derivatives=[(v, formula)]))
        assert a.ok, (text, v, formula, a.reason, a.note, a.decided_by)
    DIFFERENTIATED("compared")


def test_the_output_of_differentiate_is_always_accepted(record_property):
    # every example with a variable is compared: a refusal or a point-less verdict fails
    run_property(_differentiate_output_accepted, DIFFERENTIATED, record_property,
                 least=20, share=0.6)


@pytest.mark.parametrize("text", ["(w*x+b)**2", "sigmoid(w*x + b)", "z = w*x + b\nloss = z**2",
                                  "sqrt(x**2)", "abs(x)**3", "x**y", "log(x, b)",
                                  "atan2(y, x)", "max(x, y, 0)", "relu(x)*y"])
def test_differentiate_output_is_accepted_for_known_cases(text):
    from gradcli.language.parser import parse
    for v in api.inputs_of(parse(text)):
        formula = api.differentiate(text, v)
        a = one(check(text, None, derivatives=[(v, formula)]))
        assert a.ok and a.points >= 10, (v, formula, a.reason)


def test_a_wrong_formula_shows_the_correct_one_from_differentiate():
    a = one(check(Q, AT, derivatives=[("x", "w*(w*x+b)")]))
    assert a.correct == api.differentiate(Q, "x") == "2*w*(w*x + b)"


# ---------------------------------------------------------------- numbers graded by their digits

from gradcli.tasks.check import correctly_rounded, grade_number, significant_digits  # noqa: E402

PI_ISH = 3.1677063269057153   # 3.16770632690...
SIN2 = math.sin(2)            # 0.909297426825...


def value_answer(expected, typed, **kw):
    return one(check("x", {"x": expected}, value=typed, **kw))


@pytest.mark.parametrize("text,digits", [
    ("3.1677", 5), ("-0.9093", 4), ("4.540e-5", 4), ("4.54e-5", 3), ("0.0012", 2),
    ("300", 3), ("3.", 1), (".5", 1), ("2.909", 4), ("+2.50", 3), ("1E+3", 1),
    ("0", 0), ("0.000", 0), ("1/3", 0), ("pi", 0), ("nan", 0), (3.1677, 0)])
def test_significant_digits_are_counted_from_the_text(text, digits):
    assert significant_digits(text) == digits


@pytest.mark.parametrize("expected,typed", [
    (PI_ISH, "3.1677"), (PI_ISH, "3.17"), (PI_ISH, "3.168"), (PI_ISH, "3.16770633"),
    (2.9092974268256817, "2.909"), (-SIN2, "-0.9093"), (4.5399929762484854e-05, "4.540e-5"),
    (4.5399929762484854e-05, "0.0000454"), (9.99996, "10.00"), (100.4, "100"),
])
def test_correctly_rounded_to_the_digits_given_is_right(expected, typed):
    a = value_answer(expected, typed)
    assert a.ok, a.reason
    assert a.note == f"right (to the {significant_digits(typed)} digits given)"
    assert a.digits == significant_digits(typed)


def test_off_in_the_last_digit_is_wrong_and_says_the_rounded_value():
    a = value_answer(PI_ISH, "3.1678")
    assert not a.ok and a.reason == "to 5 digits the value is 3.1677"
    assert (a.digits, a.rounded) == (5, "3.1677")
    a = value_answer(PI_ISH, "3.1676")
    assert not a.ok and a.reason == "to 5 digits the value is 3.1677"
    # within the old tolerance (rtol 1e-6), but not the correctly rounded 7 digits
    a = value_answer(PI_ISH, "3.167707")
    assert not a.ok and a.reason == "to 7 digits the value is 3.167706"


def test_truncated_instead_of_rounded_is_wrong():
    a = value_answer(2.9092974268256817, "2.9092")
    assert not a.ok
    assert a.reason == "to 5 digits the value is 2.9093 (2.9092 is cut off, not rounded)"
    a = value_answer(-SIN2, "-0.9092")
    assert not a.ok and a.reason == "to 4 digits the value is -0.9093 (-0.9092 is cut off, " \
                                    "not rounded)"
    # near miss: a number that is truncated AND correctly rounded is right
    assert value_answer(2.9092974268256817, "2.909297").ok


def test_trailing_zeros_typed_count():
    assert value_answer(4.5399929762484854e-05, "4.540e-5").ok
    a = value_answer(4.5399929762484854e-05, "4.541e-5")
    assert not a.ok and a.reason == "to 4 digits the value is 4.540e-5"
    # 2.50 claims three digits: 2.5049 rounds to 2.50, 2.506 does not
    assert value_answer(2.5049, "2.50").ok
    assert not value_answer(2.506, "2.50").ok


def test_fewer_than_three_digits_must_match():
    a = value_answer(PI_ISH, "3")
    assert not a.ok and a.reason == "the correct value is 3.1677063269057153"
    assert a.digits is None
    assert value_answer(3.0000000000000004, "3").ok
    assert not value_answer(PI_ISH, "3.2").ok
    assert value_answer(0.5, "0.5").ok
    # an expression is compared with the tolerance too
    assert value_answer(1 / 3, "1/3").ok and value_answer(1 / 3, "1/3").digits is None


def test_an_exact_tie_may_be_rounded_either_way():
    # 1.125 and 0.375 are exact doubles: a true tie at 3 and 2 digits
    assert value_answer(1.125, "1.12").ok and value_answer(1.125, "1.13").ok
    assert not value_answer(1.125, "1.14").ok
    assert value_answer(-1.125, "-1.12").ok and value_answer(-1.125, "-1.13").ok
    # The point is taken as typed: x = 2.675 is 2.675 exactly (its double is
    # 2.67499999999999982...), a tie, so 2.67 and 2.68 are both right; 2.66 is not
    assert value_answer(2.675, "2.67").ok and value_answer(2.675, "2.68").ok
    assert not value_answer(2.675, "2.66").ok
    assert str(correctly_rounded(2.675, 3)) == "2.67"
    # 1.135 likewise (the double is 1.13500000000000000888...)
    assert value_answer(1.135, "1.14").ok and value_answer(1.135, "1.13").ok
    # a value near a tie but not at it: only the nearer neighbour
    assert value_answer(1.1351, "1.14").ok and not value_answer(1.1351, "1.13").ok


def test_beyond_a_doubles_digits_the_doubles_precision_decides():
    assert value_answer(PI_ISH, "3.1677063269057153").ok
    assert value_answer(PI_ISH, "3.16770632690571530").ok
    assert not value_answer(PI_ISH, "3.1677063269057999").ok


def test_explicit_tolerances_override_the_digits_rule():
    assert not value_answer(PI_ISH, "3.1678").ok
    a = value_answer(PI_ISH, "3.1678", rtol=1e-4)
    assert a.ok and a.digits is None and a.note == ""
    assert not value_answer(PI_ISH, "3.1677", atol=0, rtol=1e-9).ok


def test_gradient_answers_use_the_digits_rule_too():
    v = check("sin(x)", {"x": 2}, value="0.9093", grad={"x": "-0.4161"})
    assert v.ok and [a.digits for a in v.answers] == [4, 4]
    v = check("sin(x)", {"x": 2}, grad={"x": "-0.4162"})
    assert not v.ok and v.answers[0].reason == "to 4 digits the value is -0.4161"


def test_grade_number_leaves_vectors_and_infinities_to_the_tolerance():
    assert grade_number("1.000", [1.0, 2.0], [1.0, 2.0]) is None
    assert grade_number("1.000", math.inf, math.inf) is None
    assert grade_number("12", 12.0, 12.0) is None


def test_an_undefined_numeric_answer_is_wrong_not_an_error():
    a = one(check("sin(x)", {"x": 1}, value="1/0"))
    assert not a.ok and a.computed is None
    assert a.reason.startswith("your answer is undefined (1/0 is undefined: division by zero)")


def test_a_counterexample_is_rounded_like_the_rest_with_the_digits_that_tell_it_apart():
    from gradcli.tasks.check.verdict import told_apart
    assert told_apart(2.4596119257, 2.50950749906) == ("2.45961", "2.50951")
    assert told_apart(7.377666345607852, 7.377666235607852) == ("7.3776663", "7.3776662")
    a = one(check("x^2 sin x", api.parse_bindings([]), derivatives=[("x", "2x sin x + x cos x")]))
    assert "your answer gives 2.45961, but the derivative is 2.50951" in a.reason
