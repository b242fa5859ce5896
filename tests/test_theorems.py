"""mvt, tangent --normal and implicit --order 2 through the CLI, and their check answers."""
import json

import pytest
from click.testing import CliRunner

from gradcli.cli import main


def cli(*args):
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def record(*args):
    code, out, err = cli(*args, "-o", "json")
    assert code == 0, err
    return json.loads(out)


# ---------------------------------------------------------------- mvt

def test_mvt_gives_every_c_exactly_with_its_double():
    r = record("mvt", "x^3 - 3x", "--over", "x=-2:2")
    assert r["applies"] is True and r["rolle"] is False
    assert r["slope"] == "1"
    assert r["c"] == ["-2*sqrt(3)/3", "2*sqrt(3)/3"]
    assert r["c_value"] == pytest.approx([-1.1547005383792515, 1.1547005383792515])


def test_mvt_plain_prints_the_book_form():
    code, out, _ = cli("mvt", "x^3 - 3x", "--over", "x=-2:2", "-o", "plain")
    assert code == 0
    assert "c\tc = -2√3/3 and c = 2√3/3\n" in out


@pytest.mark.parametrize("f,over,failure,where", [
    ("x^(2/3)", "x=-1:8", "differentiable", ["0"]),
    ("|x|", "x=-1:1", "differentiable", ["0"]),
    ("1/x", "x=-1:1", "continuous", ["0"]),
    ("tan(x)", "x=0:pi", "continuous", ["pi/2"]),
    ("(x - 3)^-2", "x=1:4", "continuous", ["3"]),
])
def test_mvt_says_why_it_does_not_apply(f, over, failure, where):
    r = record("mvt", f, "--over", over)
    assert r["applies"] is False
    assert f"not {failure}" in r["reason"]
    assert r["where"] == where
    assert "c" not in r


def test_mvt_of_a_real_cube_root_applies_on_the_positive_side():
    r = record("mvt", "x^(1/3)", "--over", "x=0:8")
    assert r["applies"] is True and r["c"] == ["8*sqrt(3)/9"]


def test_rolle_is_said_and_the_steps_show_the_method():
    r = record("mvt", "x^2 + 2x", "--over", "x=-2:0", "--steps")
    assert r["rolle"] is True and r["c"] == ["-1"]
    assert any("Rolle's theorem" in s for s in r["steps"])
    assert any("solve f'(c) = 0" in s for s in r["steps"])


def test_mvt_without_a_closed_form_gives_decimals_and_says_so():
    code, out, err = cli("mvt", "x e^x + sin(x)", "--over", "x=0:2", "-o", "json")
    r = json.loads(out)
    assert r["exact"] is False and r["c_value"] == pytest.approx([1.218041218], rel=1e-9)
    assert "numerically" in err


def test_mvt_of_a_line_is_every_c():
    r = record("mvt", "2x + 1", "--over", "x=0:3")
    assert r["every_c"] is True and r["c"] == []


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex"])
def test_mvt_prints_in_every_format(fmt):
    code, out, _ = cli("mvt", "sqrt(x)", "--over", "x=0:9", "-o", fmt)
    assert code == 0 and ("9/4" in out or "\\frac{9}{4}" in out)


@pytest.mark.parametrize("args,words", [
    (["x^2", "--over", "x=2:1"], "smaller"),
    (["x^2", "--over", "y=0:1"], "not the function's variable"),
    (["x y", "--over", "x=0:1"], "one variable"),
    (["relu(x)", "--over", "x=-1:1"], "not supported"),
    (["x^2", "--over", "x=0"], "interval"),
])
def test_mvt_bad_input_is_exit_2(args, words):
    code, _, err = cli("mvt", *args)
    assert code == 2 and words in err and "Traceback" not in err


# ---------------------------------------------------------------- normal lines

def test_normal_line_exact():
    r = record("tangent", "x^2", "--at", "x=2", "--normal", "--exact")
    assert r["normal"] == "y = 4 - (x - 2)/4"
    assert r["normal_expanded"] == "y = -x/4 + 9/2"
    assert r["normal_slope"] == "-1/4"


def test_normal_is_vertical_where_the_tangent_is_horizontal():
    assert record("tangent", "sin x", "--at", "x=3pi/2", "--normal")["normal"].startswith("x = ")
    assert record("tangent", "cos(x)", "--at", "x=0", "--normal")["normal"] == "x = 0"


def test_normal_is_horizontal_where_the_tangent_is_vertical():
    r = record("tangent", "cbrt(x)", "--at", "x=0", "--normal")
    assert r["normal"] == "y = 0" and r["normal_slope"] == 0


def test_normal_in_the_functions_own_variable():
    r = record("tangent", "sin(t)", "--at", "t=pi", "--normal", "--exact")
    assert r["normal"] == "y = t - π"


def test_no_normal_at_a_corner_and_a_surfaces_normal_is_a_line_in_space():
    code, _, err = cli("tangent", "|x|", "--at", "x=0", "--normal")
    assert code == 3 and "not differentiable" in err
    # z = xy at (1, 2): the direction (f_x, f_y, -1) = (2, 1, -1)
    r = record("tangent", "x y", "--at", "x=1,y=2", "--normal")
    assert [str(c) for c in r["normal"]["direction"]] == ["2", "1", "-1"]


# ---------------------------------------------------------------- implicit --order 2

def test_second_derivative_simplified_with_the_curve():
    r = record("implicit", "x^2 + y^2 = 25", "--order", "2", "--at", "x=3,y=4")
    assert r["second_derivative"] == "-25/y^3"
    assert r["unsimplified"] == "(-x^2 - y^2)/y^3"
    assert r["value"] == "-25/64" and r["value_value"] == -0.390625


@pytest.mark.parametrize("eq,formula", [
    ("√x + √y = 1", "1/(2*x^(3/2))"),
    ("x^(2/3) + y^(2/3) = 1", "1/(3*x^(4/3)*y^(1/3))"),
    ("x^4 + y^4 = 16", "-48*x^2/y^7"),
    ("x y + y^2 = 1", "2/(x + 2*y)^3"),
])
def test_second_derivative_in_the_books_form(eq, formula):
    assert record("implicit", eq, "--order", "2")["second_derivative"] == formula


def test_second_derivative_off_the_curve_warns_and_order_3_is_refused():
    code, _, err = cli("implicit", "x^2 + y^2 = 25", "--order", "2", "--at", "x=1,y=1")
    assert code == 0 and "not on the curve" in err
    code, _, _ = cli("implicit", "x^2 + y^2 = 25", "--order", "3")
    assert code == 2


# ---------------------------------------------------------------- check

def mistake(*args):
    code, out, err = cli("check", *args, "-o", "json")
    assert code in (0, 1), err
    (a,) = json.loads(out)["answers"]
    return code, a["mistake"]


@pytest.mark.parametrize("answer,expected", [
    ("c = ±2/√3", (0, None)),
    ("c = -2/sqrt(3) and c = 2/sqrt(3)", (0, None)),
    ("c = 1.15470, -1.15470", (0, None)),
    ("c = 2/√3", (1, "c-missed")),
    ("c = 2/√3 and c = 2", (1, "c-outside")),
    ("c = 1 and c = ±2/√3", (1, "not-a-c")),
    ("does not apply", (1, "applies")),
])
def test_check_mvt(answer, expected):
    assert mistake("x^3 - 3x", "--over", "x=-2:2", "--mvt", answer) == expected


def test_check_mvt_where_it_does_not_apply():
    assert mistake("x^(2/3)", "--over", "x=-1:8", "--mvt", "does not apply") == (0, None)
    assert mistake("x^(2/3)", "--over", "x=-1:8", "--mvt", "c = 8/27") == \
        (1, "not-differentiable")
    assert mistake("1/x", "--over", "x=-1:1", "--mvt", "c = 1") == (1, "not-continuous")


@pytest.mark.parametrize("answer,expected", [
    ("y = -(x - 2)/4 + 4", (0, None)),
    ("x + 4y = 18", (0, None)),
    ("y = -0.25x + 4.5", (0, None)),
    ("y = 4(x - 2) + 4", (1, "tangent-for-normal")),
    ("y = (x - 2)/4 + 4", (1, "reciprocal-without-sign")),
    ("y = -4(x - 2) + 4", (1, "negative-not-reciprocal")),
    ("y = -(x - 2)/4 + 5", (1, "normal-point")),
    ("y = -0.26x + 4.52", (1, "normal-slope")),
    ("y = x^2", (1, "not-linear")),
])
def test_check_normal(answer, expected):
    assert mistake("x^2", "--at", "x=2", "--normal", answer) == expected


def test_check_vertical_normal():
    assert mistake("sin x", "--at", "x=3pi/2", "--normal", "x = 3π/2") == (0, None)
    assert mistake("sin x", "--at", "x=3pi/2", "--normal", "y = -1") == \
        (1, "tangent-for-normal")


@pytest.mark.parametrize("answer,expected", [
    ("-25/y^3", (0, None)),
    ("-(x^2 + y^2)/y^3", (0, None)),
    ("y'' = -25/y^3", (0, None)),
    ("25/y^3", (1, "sign")),
    ("-x/y", (1, "first-derivative")),
    ("-5/y^3", (1, None)),
])
def test_check_second_derivative(answer, expected):
    assert mistake("x^2 + y^2 = 25", "--implicit", answer, "--order", "2") == expected


def test_check_second_derivative_at_a_point():
    assert mistake("x^2 + y^2 = 25", "--implicit", "-25/64", "--order", "2",
                   "--at", "x=3,y=4") == (0, None)
    assert mistake("x^2 + y^2 = 25", "--implicit", "-0.391", "--order", "2",
                   "--at", "x=3,y=4") == (0, None)
    assert mistake("x^2 + y^2 = 25", "--implicit", "-0.392", "--order", "2",
                   "--at", "x=3,y=4")[0] == 1
    code, _, err = cli("check", "x^2 + y^2 = 25", "--implicit", "-1", "--order", "2",
                       "--at", "x=3,y=3")
    assert code == 2 and "not on the curve" in err


@pytest.mark.parametrize("answer,ok", [
    ("-0.111/y^3", True), ("-0.1111/y^3", True), ("-(0.111x^2 + 0.333y^2)/y^3", True),
    ("-0.112/y^3", False), ("-0.11/y^3", False), ("-0.1112/y^3", False),
])
def test_check_second_derivative_digits_rule_in_a_formula(answer, ok):
    # x^2 + 3y^2 = 1: y'' = -1/(9y^3); decimals of 3+ digits are right correctly rounded
    code, _ = mistake("x^2 + 3y^2 = 1", "--implicit", answer, "--order", "2")
    assert code == (0 if ok else 1)
