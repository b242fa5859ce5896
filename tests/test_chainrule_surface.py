"""diff --with (the multivariable chain rule), tangent on surfaces and their check modes,
through the CLI: answers in the book's form, every format, and bad input refused (exit 2)."""
import json

import pytest
from click.testing import CliRunner

from gradcli.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def js(*args):
    r = run(*args, "-o", "json")
    return r.exit_code, json.loads(r.output.strip().splitlines()[-1])


POLAR = ("x^2 + y^2", "--with", "x = s cos t, y = s sin t")


def test_diff_with_gives_both_forms_and_exact_values():
    code, rec = js("diff", *POLAR, "--at", "s=2,t=pi/4")
    assert code == 0
    assert rec["derivatives"] == {"s": "2*s", "t": "0"}
    assert rec["mixed"]["s"] == "2*x*cos(t) + 2*y*sin(t)"
    assert rec["values"] == {"s": "4", "t": "0"} and rec["values_value"]["s"] == 4.0
    code, rec = js("diff", "x y", "--with", "x = s cos t, y = s sin t", "--at", "s=2,t=pi/8")
    assert rec["values"]["s"] == "sqrt(2)" and rec["values"]["t"] == "2*sqrt(2)"


def test_one_parameter_is_the_total_derivative_and_steps_show_the_sum():
    r = run("diff", "x^2 y + 3x y^4", "--with", "x = sin 2t, y = cos t", "--at", "t=0",
            "--steps", "-o", "plain")
    assert r.exit_code == 0
    assert "dz/dt = ∂z/∂x·dx/dt + ∂z/∂y·dy/dt" in r.output
    assert "dz/dt = 6" in r.output  # Stewart 14.5, example 1
    code, rec = js("diff", "x^2 y + 3x y^4", "--with", "x = sin 2t, y = cos t", "--steps")
    assert rec["steps"]["t"][0] == "dz/dt = ∂z/∂x·dx/dt + ∂z/∂y·dy/dt"


def test_the_result_letter_avoids_the_variables():
    code, rec = js("diff", "x^4 y + y^2 z^3", "--with",
                   "x = r s e^t, y = r s^2 e^(-t), z = r^2 s sin t", "--wrt", "s",
                   "--at", "r=2,s=1,t=0")
    assert rec["values"] == {"s": "192"}  # Stewart 14.5, example 4
    r = run("diff", "x^4 y + y^2 z^3", "--with", "x = r s e^t, y = r s^2 e^(-t), "
            "z = r^2 s sin t", "--wrt", "s", "-o", "plain")
    assert r.output.startswith("∂w/∂s")


@pytest.mark.parametrize("fmt", ["plain", "markdown", "latex", "table"])
def test_diff_with_every_format(fmt):
    r = run("diff", *POLAR, "--at", "s=1,t=0", "-o", fmt)
    assert r.exit_code == 0 and r.output.strip()


@pytest.mark.parametrize("args, words", [
    (("--with", "x = s cos t, y"), "NAME = FORMULA"),
    (("--with", "q = s"), "not a variable of the expression"),
    (("--with", "x = 2, y = 3"), "no parameter"),
    (("--with", "x = s cos t, y = s sin t", "--wrt", "u"), "not a parameter"),
    (("--with", "x = s cos t, y = s sin t", "--at", "s=1"), "--at gives the parameters"),
    (("--with", "x = s cos t, y = s sin t", "--order", "2"), "does not take --order"),
    (("--with", "x = y, y = t"), "in the parameters"),
    (("--with", ""), "--with is empty"),
])
def test_diff_with_bad_input_exit_2(args, words):
    r = run("diff", "x^2 + y^2", *args)
    assert r.exit_code == 2, r.output
    assert words in r.output


def test_check_with_either_form_right():
    for answer in ("2x cos t + 2y sin t", "2s", "2*s*cos(t)^2 + 2*s*sin(t)^2"):
        code, rec = js("check", *POLAR, "--derivative", answer, "--wrt", "s")
        assert code == 0 and rec["ok"], answer


@pytest.mark.parametrize("answer, mistake", [
    ("2x cos t", "chain-term-dropped"),
    ("2x sin t + 2y cos t", "inner-derivatives-swapped"),
    ("0", "wrong-parameter"),
    ("2s + 1", "chain-rule"),
])
def test_check_with_names_the_mistake(answer, mistake):
    code, rec = js("check", *POLAR, "--derivative", answer, "--wrt", "s")
    assert code == 1 and rec["answers"][0]["mistake"] == mistake


def test_check_with_a_value_at_the_point():
    base = ("check", "x y", "--with", "x = s cos t, y = s sin t", "--at", "s=2,t=pi/8")
    assert js(*base, "--derivative", "sqrt(2)", "--wrt", "s")[0] == 0
    assert js(*base, "--derivative", "1.414", "--wrt", "s")[0] == 0
    assert js(*base, "--derivative", "1.415", "--wrt", "s")[0] == 1
    assert js(*base, "--derivative", "2", "--wrt", "s")[0] == 1


def test_check_with_bad_input_exit_2():
    assert run("check", *POLAR, "--derivative", "2q", "--wrt", "s").exit_code == 2
    assert run("check", *POLAR, "--derivative", "2s").exit_code == 2  # which parameter?
    assert run("check", *POLAR, "--wrt", "s").exit_code == 2           # no answer
    r = run("check", *POLAR, "--derivative", "2s", "--wrt", "s", "--value", "3")
    assert r.exit_code == 2


# -- surfaces ---------------------------------------------------------------------------

SPHERE = ("x^2 + y^2 + z^2 = 14", "--at", "x=1,y=2,z=3")


def test_level_surface_plane_and_normal_in_the_books_forms():
    code, rec = js("tangent", *SPHERE)
    assert code == 0
    assert rec["equation"] == "2(x - 1) + 4(y - 2) + 6(z - 3) = 0"
    assert rec["expanded"] == "x + 2y + 3z = 14"
    n = rec["normal"]
    assert n["point"] == ["1", "2", "3"] and n["direction"] == ["2", "4", "6"]
    assert n["parametric"] == "(x, y, z) = (1, 2, 3) + t(2, 4, 6)"
    assert n["symmetric"] == "(x - 1)/2 = (y - 2)/4 = (z - 3)/6"


def test_a_zero_component_and_a_graph():
    code, rec = js("tangent", "2z - x^2 = 0", "--at", "x=2,y=0,z=2")
    assert rec["normal"]["symmetric"] == "y = 0, (x - 2)/(-4) = (z - 2)/2"
    code, rec = js("tangent", "4 - x^2 - y^2", "--at", "x=1,y=1", "--normal")
    assert rec["normal"]["direction"] == ["-2", "-2", "-1"]
    assert rec["equation"] == "z = 2 - 2(x - 1) - 2(y - 1)"
    code, rec = js("tangent", "z = x^2 + y^2", "--at", "x=0,y=0,z=0")
    assert rec["normal"]["symmetric"] == "x = 0, y = 0"


@pytest.mark.parametrize("fmt", ["plain", "markdown", "latex", "table"])
def test_surface_every_format(fmt):
    assert run("tangent", *SPHERE, "-o", fmt).exit_code == 0


@pytest.mark.parametrize("args, code, words", [
    (("x^2 + y^2 + z^2 = 14", "--at", "x=1,y=2,z=4"), 2, "not on the surface"),
    (("x^2 + y^2 - z^2 = 0", "--at", "x=0,y=0,z=0"), 3, "∇F is 0"),
    (("x^2 + y^2 + z^2 = 14", "--at", "x=1,y=2"), 2, "--at gives the point"),
    (("x^2 + y^2 + z^2 = 14",), 2, "give it with --at"),
    (("x^2 + y^2 + z^2 = 25", "--at", "x=3,y=4"), 2, "--at gives the point"),
    (("x^2 + y^2 + z^2 = 14", "--at", "x=1,y=2,z=3", "--estimate", "x=1"), 2, "--estimate"),
])
def test_surface_bad_input(args, code, words):
    r = run("tangent", *args)
    assert r.exit_code == code, r.output
    assert words in r.output


@pytest.mark.parametrize("answer", [
    "(x, y, z) = (1, 2, 3) + t(2, 4, 6)", "(x - 1)/2 = (y - 2)/4 = (z - 3)/6",
    "x = 1 + t, y = 2 + 2t, z = 3 + 3t", "<1, 2, 3>", "(x, y, z) = (3, 6, 9) + s(-1, -2, -3)",
    "r(t) = <1 + t, 2 + 2t, 3 + 3t>",
    # online homework prints the coordinates as functions of the parameter
    "(x(t), y(t), z(t)) = (1 + t, 2 + 2t, 3 + 3t)", "x(t) = 1 + 2t, y(t) = 2 + 4t, z(t) = 3 + 6t",
])
def test_check_surface_normal_right(answer):
    code, rec = js("check", *SPHERE, "--normal", answer)
    assert code == 0 and rec["ok"], rec


@pytest.mark.parametrize("question, at, answer, mistake", [
    (SPHERE[0], SPHERE[2], "(x, y, z) = (1, 2, 3) + t(2, -4, 6)", "direction-sign"),
    (SPHERE[0], SPHERE[2], "(x, y, z) = (1, 2, 4) + t(2, 4, 6)", "normal-point"),
    (SPHERE[0], SPHERE[2], "(x, y, z) = (1, 2, 3) + t(1, 1, 1)", "normal-direction"),
    (SPHERE[0], SPHERE[2], "x + 2y + 3z = 14", "not-a-line"),
    (SPHERE[0], SPHERE[2], "(x(t), y(t), z(t)) = (1 + t, 2 - 2t, 3 + 3t)", "direction-sign"),
    ("4 - x^2 - y^2", "x=1,y=1", "(x, y, z) = (1, 1, 2) + t(-2, -2, 1)", "direction-sign"),
    ("4 - x^2 - y^2", "x=1,y=1", "(x - 1)/2 = (y - 1)/2 = (z - 2)/(-1)", "direction-sign"),
])
def test_check_surface_normal_wrong_named(question, at, answer, mistake):
    code, rec = js("check", question, "--at", at, "--normal", answer)
    assert code == 1 and rec["answers"][0]["mistake"] == mistake, rec


def test_check_surface_normal_bad_input():
    assert run("check", *SPHERE, "--normal", "(x, y, z) = (1, 2, 3) + t(2, 4)").exit_code == 2
    assert run("check", *SPHERE, "--normal", "(1, 2").exit_code == 2
    # x(t) is a coordinate only with one parameter letter throughout
    assert run("check", *SPHERE, "--normal",
               "(x(t), y(s), z(t)) = (1 + t, 2 + 2t, 3 + 3t)").exit_code == 2
    # both at once are graded, each on its own: the normal is right, z = 1 is not the plane
    assert run("check", *SPHERE, "--normal", "(2, 4, 6)", "--tangent", "z = 1").exit_code == 1
    assert run("check", "x^2 + y^2 + z^2 = 14", "--at", "x=1,y=2,z=4",
               "--normal", "(2, 4, 6)").exit_code == 2
