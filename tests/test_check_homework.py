"""`gradcli check` of the homework answers: a tangent, a directional derivative, critical
points, a Taylor polynomial, dy/dx of an implicit curve.

For each kind: textbook answers as printed are accepted, wrong ones are refused with
the mistake named, and bad input exits 2 with a message and a hint. Where a test needs
a reference value it comes from SymPy, not from gradcli. The exercises are from OpenStax
Calculus (Strang, Herman et al., CC BY-NC-SA 4.0), checked against the book's CNXML
source (openstax/osbooks-calculus-bundle).
"""
import json

import pytest
import sympy as sp
from click.testing import CliRunner

from gradcli import api
from gradcli.tasks.check import check_homework
from gradcli.cli import main
from gradcli.errors import GradcliError, UsageError

X, Y = sp.symbols("x y", real=True)


def cli(*args):
    r = CliRunner().invoke(main, ["check", *args])
    return r.exit_code, r.stdout, r.stderr


def answers(*args):
    code, out, err = cli(*args, "-o", "json")
    assert code in (0, 1), err
    return code, json.loads(out)["answers"]


def bad(*args):
    """Bad input: exit 2, a message and a hint, no traceback."""
    code, out, err = cli(*args)
    assert code == 2, (out, err)
    assert err.startswith("error: ") and "Traceback" not in err
    return err


# ---------------------------------------------------------------- tangent planes

# OpenStax Calculus Vol. 3, §4.4, Example "Finding a Tangent Plane": z = 13x - 26y - 18.
F44 = "2x^2 - 3x y + 8y^2 + 2x - 4y + 4"


def _sympy_plane(f, a, b):
    """The tangent plane's value and slopes at (a, b), from SymPy."""
    at = {X: a, Y: b}
    return f.subs(at), sp.diff(f, X).subs(at), sp.diff(f, Y).subs(at)


def test_sympy_agrees_with_the_book_on_the_tangent_plane():
    f = 2 * X**2 - 3 * X * Y + 8 * Y**2 + 2 * X - 4 * Y + 4
    value, fx, fy = _sympy_plane(f, 2, -1)
    assert sp.expand(value + fx * (X - 2) + fy * (Y + 1)) == sp.expand(13 * X - 26 * Y - 18)


@pytest.mark.parametrize("answer", [
    "z = 13x - 26y - 18",                        # as printed
    "z = 34 + 13(x - 2) - 26(y + 1)",            # the point-slope form of the solution
    "13x - 26y - z = 18",                        # a linear equation in z
    "34 + 13(x - 2) - 26(y - (-1))",             # the right-hand side alone
    "L(x, y) = 13x - 26y - 18",
])
def test_the_textbook_tangent_plane_is_right_in_any_form(answer):
    code, (a,) = answers(F44, "--at", "x=2,y=-1", "--tangent", answer)
    assert code == 0 and a["ok"] and a["kind"] == "tangent" and a["key"] == "tangent"
    assert a["expected"] == "z = 34 + 13*(x - 2) - 26*(y + 1)"


def test_the_textbook_checkpoint_tangent_plane():
    # OpenStax Vol. 3, §4.4, the checkpoint after it: f = x^3 - x^2 y + y^2 - 2x + 3y - 2
    # at (-1, 3), printed answer z = 7x + 8y - 3.
    code, _ = answers("x^3 - x^2 y + y^2 - 2x + 3y - 2", "--at", "x=-1,y=3",
                      "--tangent", "z = 7x + 8y - 3")
    assert code == 0


@pytest.mark.parametrize("answer,mistake,detail,words", [
    ("z = 30 + 13(x - 2) - 26(y + 1)", "tangent-value", None, "f(2, -1) = 34"),
    ("z = 34 + 13x - 26y", "not-centred", "x", "instead of x - 2"),
    ("z = 34 + 12(x - 2) - 26(y + 1)", "tangent-slope", "x", "∂f/∂x(2, -1) = 13"),
    ("z = 34 - 26(x - 2) + 13(y + 1)", "slopes-swapped", None, "swapped"),
    ("z = 2x^2 - 3x y + 8y^2 + 2x - 4y + 4", "not-linear", None, "not linear in x, y"),
])
def test_a_wrong_tangent_plane_names_its_mistake(answer, mistake, detail, words):
    code, (a,) = answers(F44, "--at", "x=2,y=-1", "--tangent", answer)
    assert code == 1 and not a["ok"]
    assert a["mistake"] == mistake and a["mistake_detail"] == detail
    assert words in a["reason"]


def test_the_brief_example_wrong_value_at_the_point():
    code, out, _ = cli("x^2 y", "--at", "x=1,y=2", "--tangent", "z = 4 + 4(x - 1) + (y - 2)",
                       "-o", "plain")
    assert code == 1
    assert out == ("tangent\twrong\tz = 4 + 4(x - 1) + (y - 2)\tz = 2 + 4*(x - 1) + (y - 2)\t"
                   "at the point x = 1, y = 2 your z is 4, but f(1, 2) = 2: a tangent passes "
                   "through the point of tangency\n")


def test_a_tangent_line_of_one_variable():
    # OpenStax Vol. 1, §4.2: the linear approximation of sqrt(x) at 4, L(x) = 2 + (x - 4)/4.
    assert cli("sqrt(x)", "--at", "x=4", "--tangent", "y = 2 + (x - 4)/4")[0] == 0
    assert cli("sqrt(x)", "--at", "x=4", "--tangent", "L(x) = 2 + 0.25(x - 4)")[0] == 0
    code, (a,) = answers("sqrt(x)", "--at", "x=4", "--tangent", "y = 2 + (x - 4)/2")
    assert code == 1 and a["mistake"] == "tangent-slope"
    assert "f'(4) = 0.25" in a["reason"]


@pytest.mark.parametrize("answer,words", [
    ("4x + y = 4", "equation without z"),
    ("z^2 = 4x", "other than linearly"),
    ("z = 1 = 2", "more than one '='"),
    ("z =", "empty"),
    ("z = 2 + 4(x - 1) + (w - 2)", "'w'"),
    ("z = 2 + 4(x - 1", "does not parse"),
    ("", "--tangent is empty"),
])
def test_a_tangent_of_the_wrong_shape_is_bad_input(answer, words):
    err = bad("x^2 y", "--at", "x=1,y=2", "--tangent", answer)
    assert words in err and "hint:" in err


def test_a_tangent_needs_the_point():
    assert "add --at" in bad("x^2 y", "--tangent", "z = 2")


# ---------------------------------------------------------------- directional derivatives

# OpenStax Vol. 3, §4.6, Example "Finding a Directional Derivative: Alternative Method":
# f = x^2 - xy + 3y^2, u at the angle arccos(3/5), D_u f(-1, 2) = 8.
F46 = "x^2 - x y + 3y^2"


def test_the_textbook_directional_derivative_is_right():
    for direction in ("3,4", "cos(acos(3/5)),sin(acos(3/5))", "0.6,0.8"):
        code, (a,) = answers(F46, "--at", "x=-1,y=2", "--directional", "8",
                             "--direction", direction)
        assert code == 0 and a["kind"] == "directional" and a["key"] == "D_u f"
        assert a["expected"] == pytest.approx(8.0, rel=1e-12)


def test_sympy_agrees_on_the_directional_derivative():
    f = X**2 - X * Y + 3 * Y**2
    grad = [sp.diff(f, v).subs({X: -1, Y: 2}) for v in (X, Y)]
    assert sp.simplify((3 * grad[0] + 4 * grad[1]) / 5) == 8


def test_forgetting_to_normalise_the_direction_is_named():
    # ∇f·v with v = (3, 4) as given is 40 = 5·8.
    code, (a,) = answers(F46, "--at", "x=-1,y=2", "--directional", "40", "--direction", "3,4")
    assert code == 1 and a["mistake"] == "not-normalised"
    assert "the direction was not normalised" in a["note"] and "u = v/|v| = [0.6, 0.8]" \
        in a["note"]


def test_the_steepest_rate_and_a_sign_are_named():
    code, (a,) = answers(F46, "--at", "x=-1,y=2", "--directional", "sqrt(185)",
                         "--direction", "3,4")
    assert code == 1 and a["mistake"] == "steepest-rate"   # |∇f| = |(-4, 13)|
    code, (a,) = answers(F46, "--at", "x=-1,y=2", "--directional", "-8", "--direction", "3,4")
    assert code == 1 and a["mistake"] == "sign"


def test_a_directional_answer_is_graded_by_its_digits():
    # Stewart 14.6, example 2: (13 - 3*sqrt(3))/2 = 3.9019...; 3.90 is right to 3 digits.
    q = ("x^3 - 3x y + 4y^2", "--at", "x=1,y=2", "--direction", "cos(pi/6),sin(pi/6)")
    assert cli(*q, "--directional", "3.90")[0] == 0
    assert cli(*q, "--directional", "(13 - 3*sqrt(3))/2")[0] == 0
    assert cli(*q, "--directional", "3.91")[0] == 1


@pytest.mark.parametrize("args,words", [
    (("--directional", "8", "--direction", "0,0"), "length zero"),
    (("--directional", "8", "--direction", "1,2,3"), "3 components"),
    (("--directional", "8"), "--directional needs --direction"),
    (("--direction", "3,4"), "--direction goes with --directional"),
    (("--directional", "eight", "--direction", "3,4"), "not a constant"),
    (("--directional", "8", "--direction", "a,4"), "not a constant"),
])
def test_directional_bad_input(args, words):
    assert words in bad(F46, "--at", "x=-1,y=2", *args)


# ---------------------------------------------------------------- critical points

# OpenStax Vol. 3, §4.7, Example "Using the Second Derivative Test", part b:
# g = x^3/3 + y^2 + 2xy - 6x - 3y + 4 has a saddle at (-1, 5/2) and a local minimum
# at (3, -3/2).
G47 = "x^3/3 + y^2 + 2x y - 6x - 3y + 4"
BOX = "x=-4:4,y=-4:4"


def test_sympy_agrees_with_the_book_on_the_critical_points():
    g = X**3 / 3 + Y**2 + 2 * X * Y - 6 * X - 3 * Y + 4
    points = sp.solve([sp.diff(g, X), sp.diff(g, Y)], [X, Y], dict=True)
    assert {(p[X], p[Y]) for p in points} == {(-1, sp.Rational(5, 2)), (3, sp.Rational(-3, 2))}
    h = sp.hessian(g, (X, Y))
    assert h.subs({X: -1, Y: sp.Rational(5, 2)}).det() < 0          # saddle
    at = {X: 3, Y: sp.Rational(-3, 2)}
    assert h.subs(at).det() > 0 and h.subs(at)[0, 0] > 0           # minimum


def test_the_textbook_critical_points_are_right():
    code, got = answers(G47, "--over", BOX, "--critical", "(-1, 5/2) saddle; (3, -1.5) min")
    assert code == 0
    assert [a["ok"] for a in got] == [True, True, True]
    assert [a["key"] for a in got] == ["critical", "critical", "critical points"]
    assert got[-1]["answer"] == "2 listed" and got[-1]["expected"] == "2 found by gradcli"
    assert "no others: ∇f = 0 solved exactly" in got[-1]["note"]


def test_a_wrong_kind_a_point_that_is_not_critical_and_a_missed_point():
    code, got = answers(G47, "--over", BOX, "--critical", "(-1, 2.5) max; (3, -1) min")
    assert code == 1
    kind, not_critical, missed = got
    assert kind["mistake"] == "classification" and kind["mistake_detail"] == "saddle point"
    assert "a saddle point, not a local maximum" in kind["reason"]
    assert not_critical["mistake"] == "not-critical"
    assert "not a critical point: ∇f = [" in not_critical["reason"]
    assert "nearest critical point found by gradcli is (3, -3/2)" in not_critical["note"]
    assert missed["mistake"] == "missed" and missed["mistake_detail"] == "(3, -3/2)"
    assert missed["reason"].startswith("a critical point missed: (3, -3/2)")
    assert "proven complete (algebra)" in missed["reason"]


def test_the_second_derivative_test_example_a():
    # Same example, part a: f = 4x^2 + 9y^2 + 8x - 36y + 24, a local minimum at (-1, 2).
    f = "4x^2 + 9y^2 + 8x - 36y + 24"
    assert cli(f, "--over", BOX, "--critical", "(-1,2) minimum")[0] == 0
    assert cli(f, "--over", BOX, "--critical", "(-1,2) saddle")[0] == 1
    assert cli(f, "--over", BOX, "--critical", "none")[0] == 1


def test_a_singular_hessian_is_decided_by_a_higher_order_test():
    code, (a, _) = answers("x^4 + y^4", "--over", "x=-1:1,y=-1:1", "--critical", "(0,0) min")
    assert code == 0 and "inconclusive" in a["note"] and "higher-order test" in a["note"]
    code, (a, _) = answers("x^4 - y^4", "--over", "x=-1:1,y=-1:1", "--critical", "(0,0) min")
    assert code == 1 and a["mistake"] == "classification"
    assert cli("x^4 - y^4", "--over", "x=-1:1,y=-1:1", "--critical", "(0,0) inconclusive")[0] == 0


@pytest.mark.parametrize("answer,words", [
    ("(0,0) smallest", "not a kind of critical point"),
    ("(0,0,1) saddle", "3 coordinates"),
    ("(0,0 saddle", "unclosed bracket"),
    ("(a,0) min", "not a constant"),
    ("(1,1) min; (1, 1) max", "twice"),
    ("", "--critical is empty"),
])
def test_critical_bad_input(answer, words):
    assert words in bad(G47, "--over", BOX, "--critical", answer)


def test_critical_needs_over():
    assert "--critical needs --over" in bad(G47, "--critical", "(0,0) saddle")
    assert "--over goes with --critical" in bad(G47, "--over", BOX, "--value", "1",
                                                "--at", "x=0,y=0")


# ---------------------------------------------------------------- Taylor polynomials

def _sympy_taylor(f, a, n):
    return sp.series(f, X, a, n + 1).removeO()


def test_the_textbook_taylor_polynomials_are_right():
    # OpenStax Vol. 2, §6.3, Example 6.11: ln x at x = 1, p3 as printed.
    p3 = "(x - 1) - 1/2 (x - 1)^2 + 1/3 (x - 1)^3"
    assert sp.expand(_sympy_taylor(sp.log(X), 1, 3) - sp.sympify(
        "(x - 1) - (x - 1)**2/2 + (x - 1)**3/3", locals={"x": X})) == 0
    code, (a,) = answers("ln x", "--at", "x=1", "--order", "3", "--taylor", p3)
    assert code == 0 and a["kind"] == "taylor" and a["key"] == "T3"


def test_the_textbook_maclaurin_and_cbrt_polynomials():
    # Example 6.12: the Maclaurin polynomials of e^x and cos x (3! typed as 6: the language
    # has no factorial); Example 6.13: cbrt(x) at 8, p2 as printed.
    assert cli("e^x", "--at", "x=0", "--order", "3", "--taylor", "1 + x + x^2/2 + x^3/6")[0] == 0
    assert cli("cos x", "--at", "x=0", "--order", "4", "--taylor", "1 - x^2/2 + x^4/24")[0] == 0
    p2 = "2 + 1/12 (x - 8) - 1/288 (x - 8)^2"
    assert sp.expand(_sympy_taylor(sp.cbrt(X), 8, 2) - sp.sympify(
        "2 + (x - 8)/12 - (x - 8)**2/288", locals={"x": X})) == 0
    assert cli("cbrt(x)", "--at", "x=8", "--order", "2", "--taylor", p2)[0] == 0


@pytest.mark.parametrize("question,at,order,answer,mistake,words", [
    ("e^x", "x=0", "2", "1 + x + x^2", "factorial",
     "the x^2 coefficient is 1, the right one is 1/2: the derivative was not divided by 2! (= 2)"),
    ("cbrt(x)", "x=8", "2", "2 + (x - 8)/12 - (x - 8)^2/144", "factorial",
     "the derivative was not divided by 2! (= 2)"),
    ("cos x", "x=0", "4", "1 + x^2/2 + x^4/24", "sign", "(the sign)"),
    ("cos x", "x=0", "4", "1 - x^2/2", "wrong-order", "this is T3"),
    ("e^x", "x=0", "2", "1 + x + x^2/2 + x^3/6", "wrong-order", "this is T3"),
    ("e^x", "x=1", "2", "1 + x + x^2/2", "wrong-centre", "about 0"),
    ("ln x", "x=1", "3", "x - x^2/2 + x^3/3", "not-centred", "instead of (x - 1)"),
    ("e^x", "x=0", "2", "e^x", "not-polynomial", "the function itself"),
    ("e^x", "x=0", "3", "1 + x + x^3/6", "missing-term", "the x^2 term is missing"),
])
def test_a_wrong_taylor_polynomial_names_its_mistake(question, at, order, answer, mistake,
                                                     words):
    code, (a,) = answers(question, "--at", at, "--order", order, "--taylor", answer)
    assert code == 1 and a["mistake"] == mistake
    assert words in a["reason"]


def test_a_taylor_polynomial_in_two_variables():
    # The homework page's example: e^x cos y about (0, 0), T2 = 1 + x + x^2/2 - y^2/2.
    q = ("e^x cos y", "--at", "x=0,y=0", "--order", "2")
    assert cli(*q, "--taylor", "1 + x + x^2/2 - y^2/2")[0] == 0
    code, (a,) = answers(*q, "--taylor", "1 + x + x^2/2 - y^2")
    assert code == 1 and a["mistake"] == "factorial" and a["mistake_detail"] == "y^2"


@pytest.mark.parametrize("args,words", [
    (("--taylor", "1 + x"), "--taylor needs --order"),
    (("--order", "2"), "--order goes with --taylor"),
    (("--taylor", "1 + x + z", "--order", "2"), "'z'"),
    (("--taylor", "", "--order", "2"), "--taylor is empty"),
    (("--taylor", "x^3/3!!", "--order", "3"), "does not parse"),
    (("--taylor", "x = 1 + x", "--order", "1"), "on the left of '='"),
])
def test_taylor_bad_input(args, words):
    assert words in bad("e^x", "--at", "x=0", *args)


# ---------------------------------------------------------------- implicit dy/dx

def _sympy_implicit(F):
    return -sp.diff(F, X) / sp.diff(F, Y)


def test_the_textbook_implicit_derivatives_are_right():
    # OpenStax Vol. 1, §3.8, Example "Using Implicit Differentiation": dy/dx = -x/y.
    assert sp.simplify(_sympy_implicit(X**2 + Y**2 - 25) + X / Y) == 0
    code, (a,) = answers("x^2 + y^2 = 25", "--implicit", "-x/y")
    assert code == 0 and a["kind"] == "implicit" and a["key"] == "dy/dx"
    assert cli("x^2 + y^2 = 25", "--implicit", "dy/dx = -x/y", "--at", "x=3,y=-4")[0] == 0
    # Example "Using Implicit Differentiation and the Product Rule".
    F = X**3 * sp.sin(Y) + Y - 4 * X - 3
    printed = (4 - 3 * X**2 * sp.sin(Y)) / (X**3 * sp.cos(Y) + 1)
    assert sp.simplify(_sympy_implicit(F) - printed) == 0
    assert cli("x^3 sin y + y = 4x + 3", "--implicit",
               "(4 - 3x^2 sin y)/(x^3 cos y + 1)")[0] == 0


def test_an_answer_simplified_with_the_curve_is_right_on_the_curve():
    # On x y = 1, y = 1/x, so -y/x and -1/x^2 agree on the curve only.
    code, (a,) = answers("x y = 1", "--implicit", "-1/x^2")
    assert code == 0 and "points of the curve" in a["note"]


@pytest.mark.parametrize("answer,mistake", [
    ("x/y", "sign"),
    ("-y/x", "reciprocal"),
    ("-2x", "missing-denominator"),
    ("-2x/y", "constant-factor"),
])
def test_a_wrong_implicit_derivative_names_its_mistake(answer, mistake):
    code, (a,) = answers("x^2 + y^2 = 25", "--implicit", answer)
    assert code == 1 and a["mistake"] == mistake, a


def test_a_sign_error_at_the_point():
    # Stewart 3.5, example 2: the folium of Descartes has slope -1 at (3, 3).
    code, (a,) = answers("x^3 + y^3 = 6x y", "--implicit", "(x^2 - 2y)/(y^2 - 2x)",
                         "--at", "x=3,y=3")
    assert code == 1 and a["mistake"] == "sign"
    assert a["computed"] == 1.0 and a["counterexample"]["at"] == {"x": 3.0, "y": 3.0}


@pytest.mark.parametrize("args,words", [
    (("x^2 + y^2", "--implicit", "-x/y"), "needs the question to be an equation"),
    (("x^2 = 25", "--implicit", "1"), "dy/dx needs two"),
    (("x^2 + y^2 + z^2 = 1", "--implicit", "-x/y"), "--implicit needs --wrt X"),
    (("x^2 + y^2 = 25", "--implicit", "-x/z"), "'z'"),
    (("x^2 + y^2 = 25", "--implicit", "dx/dy = 1"), "on the left of '='"),
    (("x^2 + y^2 = 25", "--implicit", "-x/y", "--grad", "x=1"), "--grad needs an expression"),
    (("x^2 + y^2 = 25", "--implicit", "-x/y", "--derivative", "2x"), "--derivative needs"),
    (("x^2 + y^2 = 25", "--of", "y", "--value", "1", "--at", "x=3,y=4"), "--of names"),
    (("x^2 + y^2 = 25", "--implicit", ""), "--implicit is empty"),
])
def test_implicit_bad_input(args, words):
    assert words in bad(*args)


def test_implicit_where_dy_dx_is_undefined_exits_3():
    code, _, err = cli("x^2 + y^2 = 25", "--implicit", "-x/y", "--at", "x=5,y=0")
    assert code == 3 and "undefined" in err


# ---------------------------------------------------------------- every format, the library

ALL = (F44, "--at", "x=2,y=-1", "--tangent", "z = 30 + 13(x - 2) - 26(y + 1)",
       "--directional", "2", "--direction", "1,0", "--taylor",
       "34 + 13(x-2) - 26(y+1) + 2(x-2)^2 - 3(x-2)(y+1) + 8(y+1)^2", "--order", "2",
       "--grad", "x=13")


@pytest.mark.parametrize("fmt", ["table", "plain", "json", "markdown", "latex"])
def test_every_format_shows_each_homework_verdict(fmt):
    code, out, err = cli(*ALL, "-o", fmt)
    assert code == 1 and err == ""
    for text in ("tangent", "T2", "tangent-value" if fmt in ("json", "markdown", "latex")
                 else "f(2, -1) = 34"):
        assert text in out, (fmt, text)
    if fmt == "latex":
        assert r"D\_u f" in out
    elif fmt != "json":
        assert "D_u f" in out


def test_the_plain_lines():
    code, out, _ = cli(*ALL, "-o", "plain")
    lines = out.splitlines()
    assert [line.split("\t")[:2] for line in lines] == [
        ["df/dx", "right"], ["tangent", "wrong"], ["D_u f", "wrong"], ["T2", "right"]]


def test_the_library_takes_the_same_answers():
    v = api.check("x^2 y", {"x": 1, "y": 2}, tangent="z = 2 + 4(x - 1) + (y - 2)",
                  directional="16/5", direction="3,4")
    assert v.ok and [a.kind for a in v.answers] == ["tangent", "directional"]
    v = check_homework("x^2 + y^2 = 25", implicit="x/y")
    assert not v.ok and v.answers[0].mistake == "sign"
    with pytest.raises(UsageError):
        check_homework("x^2 y", {"x": 1, "y": 2}, directional="1")
    with pytest.raises(GradcliError):
        api.check("x^2 y", {"x": 1, "y": 2}, taylor="1", order=21)


def test_points_cannot_grade_homework_answers():
    assert "--points checks values" in bad(F46, "--points", "-", "--directional", "8",
                                           "--direction", "3,4")


# ---------------------------------------------------------------- properties against SymPy

from hypothesis import HealthCheck, assume, given, settings, strategies as st  # noqa: E402

from test_homework import functions  # noqa: E402  (the generated functions, with SymPy twins)


def _defined(e):
    try:
        v = complex(sp.N(e, 30))
    except (TypeError, ValueError):
        return None
    if v.imag or not abs(v.real) < 1e6:
        return None
    return v.real


@settings(max_examples=40, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(functions(), st.sampled_from([-1.2, -0.3, 0.4, 1.1]), st.sampled_from([-0.7, 0.2, 0.9]),
       st.sampled_from([0.5, -2.0, 3.0]))
def test_sympy_tangent_planes_are_right_and_a_changed_slope_is_wrong(pair, a, b, delta):
    text, f = pair
    used = [n for n in ("x", "y") if f.has(sp.Symbol(n))]
    assume(used)
    at = {n: v for n, v in (("x", a), ("y", b)) if n in used}
    subs = {sp.Symbol(n): v for n, v in at.items()}
    value = _defined(f.subs(subs))
    slopes = [_defined(sp.diff(f, sp.Symbol(n)).subs(subs)) for n in used]
    assume(value is not None and None not in slopes)
    rhs = f"{value!r}" + "".join(f" + ({g!r})*({n} - ({at[n]!r}))" for g, n in zip(slopes, used))
    right = check_homework(text, at, tangent=rhs)   # a smooth function: never refused
    assert right.ok, right.answers[0].reason
    changed = rhs + f" + ({delta!r})*({used[0]} - ({at[used[0]]!r}))"
    wrong = check_homework(text, at, tangent=changed).answers[0]
    assert not wrong.ok and wrong.mistake in ("tangent-slope", "slopes-swapped")


@settings(max_examples=25, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(functions(names=("x",)), st.sampled_from([-0.6, 0.0, 0.5]), st.integers(1, 3))
def test_sympy_taylor_polynomials_are_right_and_a_changed_coefficient_is_wrong(pair, a, n):
    text, f = pair
    assume(f.has(X) or f.has(sp.Symbol("x")))
    x = sp.Symbol("x")
    coefficients = [_defined(sp.diff(f, x, k).subs(x, a) / sp.factorial(k)) for k in range(n + 1)]
    assume(None not in coefficients)
    poly = " + ".join(f"({c!r})*(x - ({a!r}))^{k}" for k, c in enumerate(coefficients))
    right = check_homework(text, {"x": a}, taylor=poly, order=n)   # never refused
    assert right.ok, right.answers[0].reason
    wrong = check_homework(text, {"x": a}, taylor=poly + f" + 0.25*(x - ({a!r}))^{n}",
                           order=n).answers[0]
    assert not wrong.ok and wrong.mistake in ("coefficient", "missing-term", "factorial",
                                              "sign", "wrong-order")


# ---------------------------------------------------------------- the answer readers

def test_critical_lists_are_read_in_the_order_of_over():
    from gradcli.tasks.check.critical import _parse_critical
    items = _parse_critical("(0, 0) saddle point; x=1,y=-2 local min; (pi, 1/2): Maximum; "
                            "(2,2)", ["x", "y"])
    assert [(v, k) for _, _, v, k in items] == [
        ([0.0, 0.0], "saddle point"), ([1.0, -2.0], "local minimum"),
        ([pytest.approx(3.141592653589793), 0.5], "local maximum"), ([2.0, 2.0], None)]
    assert _parse_critical("none", ["x"]) == []
    assert [v for _, _, v, _ in _parse_critical("2 min; -2 max", ["x"])] == [[2.0], [-2.0]]


def test_answers_may_carry_their_left_hand_side():
    from gradcli.tasks.check.implicit import _implicit_answer_text
    from gradcli.tasks.check.taylor import _taylor_answer_text
    assert _taylor_answer_text("T_2(x) = 1 + x", ["x"]) == "1 + x"
    assert _taylor_answer_text("p = 1 + x", ["x"]) == "1 + x"
    for lhs in ("dy/dx", "y'", "y'(x)", "dy / dx"):
        assert _implicit_answer_text(f"{lhs} = -x/y", "x", "y") == "-x/y"
    with pytest.raises(UsageError):
        _implicit_answer_text("dx/dy = -y/x", "x", "y")


# ---------------------------------------------------------------- the grader interface

def test_every_homework_grader_has_the_one_interface_and_is_in_the_table():
    from gradcli.tasks.check import OPTIONS, homework
    assert OPTIONS == ("tangent", "directional", "critical", "taylor", "implicit", "newton",
                       "roots", "mvt", "normal", "chainrule", "analyze", "extrema", "div",
                       "curl", "laplacian", "jacobian_det", "partial")
    for option, grader in homework.GRADERS.items():
        assert grader.OPTION == option
        assert callable(grader.prepare) and callable(grader.grade)
        assert grader.__name__ == f"gradcli.tasks.check.{option}"


def test_a_grader_called_through_the_interface_gives_what_check_homework_gives():
    from gradcli.tasks.check import homework
    from gradcli.tasks.check.shared import Context, Graded, Question
    from gradcli.language.parser import parse
    program = parse("x^2 y")
    question = Question("x^2 y", {"x": 1, "y": 2}, program, ["x", "y"])
    context = Context(1e-6, 1e-9, True)
    grader = homework.GRADERS["tangent"]
    given = {"tangent": "z = 2 + 4(x - 1) + (y - 1)"}
    graded = grader.grade(question, grader.prepare(question, given, context), context)
    assert isinstance(graded, Graded) and len(graded.answers) == 1
    direct = check_homework("x^2 y", {"x": 1, "y": 2}, tangent=given["tangent"]).answers[0]
    assert (graded.answers[0].ok, graded.answers[0].mistake, graded.answers[0].reason) == \
        (direct.ok, direct.mistake, direct.reason)
    assert (direct.ok, direct.mistake) == (False, "tangent-value")  # z = 3 at (1, 2), f = 2


def test_bad_input_in_a_later_answer_comes_before_grading_an_earlier_one():
    # Every grader's prepare runs before any grade: a wrong tangent does not hide the
    # unreadable Taylor answer, which is exit 2.
    with pytest.raises(GradcliError, match="Taylor polynomial does not parse"):
        check_homework("x^2 y", {"x": 1, "y": 2}, tangent="z = 0", taylor="1 + + ", order=1)
    result = CliRunner().invoke(main, ["check", "x^2 y", "--at", "x=1,y=2", "--tangent",
                                       "z = 0", "--taylor", "1 + +", "--order", "1"])
    assert result.exit_code == 2, result.output


@pytest.mark.parametrize("text, at, order", [("exp(x) * cos(y)", {"x": 0.5, "y": -1.25}, 3),
                                             ("1/(1 - x)", {"x": -2}, 4),
                                             ("sqrt(x)", {"x": 4}, 2)])
def test_the_taylor_polynomial_built_from_the_terms_is_the_printed_one(text, at, order):
    from gradcli.autodiff.lower import lower
    from gradcli.tasks.check.taylor import _polynomial
    from gradcli.language.parser import parse
    from gradcli.tasks.taylor import taylor
    t = taylor(text, at, order)
    built, printed = _polynomial(t), parse(t.polynomial)
    for shift in (-0.7, 0.0, 0.3, 1.1):
        point = {v: float(a) + shift for v, a in at.items()}
        assert float(lower(built, point, wrt=set()).output.data) == pytest.approx(
            float(lower(printed, point, wrt=set()).output.data), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("args,code", [
    # lists as books print them: commas between points, x = -1 with spaces, "neither"
    (("x^4 + y^4 - 4x*y + 1", "--over", "x=-3:3,y=-3:3", "--critical",
      "(0, 0) saddle, (1, 1) min, (-1, -1) min"), 0),
    (("x^4 + y^4 - 4x*y + 1", "--over", "x=-3:3,y=-3:3", "--critical",
      "(0, 0) saddle, (1, 1.001) min, (-1, -1) min"), 1),
    (("x^3 - 3x^2 - 9x - 1", "--over", "x=-5:5", "--critical", "x = -1 max; x = 3 min"), 0),
    (("x^3 - 3x^2 - 9x - 1", "--over", "x=-5:5", "--critical", "x = -1 max; x = 3 max"), 1),
    (("x^4 - 4x^3", "--over", "x=-2:5", "--critical", "0 neither; 3 min"), 0),
    (("x^4 - 4x^3", "--over", "x=-2:5", "--critical", "0 min; 3 min"), 1),
    (("x^4 - 4x^3", "--over", "x=-2:5", "--critical", "0 neither; 3 neither"), 1),
    # factorials, as books print Taylor coefficients
    (("sin x", "--at", "x=0", "--order", "5", "--taylor", "x - x^3/3! + x^5/5!"), 0),
    (("cos x", "--at", "x=0", "--order", "4", "--taylor", "1 - x^2/2! + 1.001x^4/4!"), 1),
])
def test_printed_lists_and_factorials_are_read_as_books_mean_them(args, code):
    r = CliRunner().invoke(main, ["check", *args, "-o", "plain"])
    assert r.exit_code == code, r.output
