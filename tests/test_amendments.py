"""Printed math that reads two ways is refused or warned, never read one way in silence
(docs/language.md, "Math as it is printed": exponents glued to letters, radicals before
numbers, e-notation glued to a name, names before brackets)."""
import json

import pytest
from click.testing import CliRunner

from gradcli.cli import main
from gradcli.errors import ParseError, UnknownName
from gradcli.reading import read_program
from gradcli.language.printer import read_as


def run(*args):
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize("text,book,calculator", [
    ("e^2x", "e^(2x)", "e^2*x"), ("e^-2x", "e^(-2x)", "e^-2*x"), ("e^0.5x", "e^(0.5x)", "e^0.5*x"),
    ("e^xy", "e^(xy)", "e^x*y"), ("10^-2x", "10^(-2x)", "10^-2*x"), ("2^3t", "2^(3t)", "2^3*t"),
])
def test_an_exponent_glued_to_letters_on_e_or_a_number_is_refused(text, book, calculator):
    code, out, err = run("eval", text, "--at", "x=1,y=1,t=1")
    assert code == 2 and out == ""
    assert "ambiguous" in err and book in err and calculator in err and "^" in err


@pytest.mark.parametrize("text,explicit", [
    ("x^2y", "(x**2)*y"), ("3x^2y", "3*(x**2)*y"), ("e^{2x}", "exp(2*x)"), ("e^(2x)", "exp(2*x)"),
    ("e^2 x", "exp(2)*x"), ("e^z y^4", "exp(z)*(y**4)"), ("2e^x", "2*exp(x)"),
])
def test_the_unambiguous_forms_read_as_before(text, explicit):
    names = {"x", "y", "z"}
    assert read_as(read_program(text, names)) == read_as(read_program(explicit, names))


@pytest.mark.parametrize("text,root", [("x^1/2", "x^(1/2)"), ("x^-1/2", "x^(-1/2)"),
                                       ("x^1/3", "x^(1/3)")])
def test_a_power_of_one_over_a_number_warns_that_a_root_needs_brackets(text, root):
    code, out, err = run("eval", text, "--at", "x=4", "-o", "json")
    rec = json.loads(out)
    assert code == 0 and rec["value"] == (4 ** (1 if "-" not in text else -1)) / int(text[-1])
    assert any(root in w for w in rec["warnings"]) and root in err


@pytest.mark.parametrize("text,value", [("√2 x", 2 ** 0.5 * 3), ("√2(x - π/4)", 2 ** 0.5 * (3 - 3.141592653589793 / 4)),
                                        ("25√2 e^{-9}", 25 * 2 ** 0.5 * 2.718281828459045 ** -9),
                                        ("(1/2)√3", 3 ** 0.5 / 2), ("√2x", 2 ** 0.5 * 3)])
def test_a_radical_before_a_number_takes_the_number_alone(text, value):
    code, out, err = run("eval", text, "--at", "x=3", "-o", "json")
    assert code == 0
    assert json.loads(out)["value"] == pytest.approx(value, rel=1e-15)


def test_a_root_of_one_before_a_minus_warns():
    code, out, err = run("eval", "√1 - x^2", "--at", "x=0.5", "-o", "json")
    rec = json.loads(out)
    assert code == 0 and rec["value"] == 0.75
    assert "only 1 under the root" in err and "√(1 - …)" in err


def test_a_tangent_with_a_radical_before_a_bracket_reads_as_printed():
    # tan at π/4: y = 1 + 2(x - π/4); the book prints √2-style answers with √2(…).
    code, _, err = run("check", "sqrt(2)*sin(x)", "--at", "x=pi/4",
                       "--tangent", "y = 1 + 1(x - π/4)")
    assert code == 0, err
    code, _, err = run("check", "2*sqrt(2)*sin(x)", "--at", "x=pi/4",
                       "--tangent", "y = 2 + √2(x - π/4)*√2")
    assert code == 0, err


@pytest.mark.parametrize("text,value,shown", [("2e-3x", 0.002 * 5, "2e - 3x"),
                                              ("2e3x", 2000 * 5, "2e + 3x"),
                                              ("1e2y", 100 * 5, "1e + 2y")])
def test_e_notation_glued_to_a_name_reads_the_number_and_warns(text, value, shown):
    code, out, err = run("eval", text, "--at", "x=5,y=5", "-o", "json")
    rec = json.loads(out)
    assert code == 0 and rec["value"] == pytest.approx(value)
    assert "scientific notation" in err and shown in err


@pytest.mark.parametrize("text,meant", [("Sin(x)", "sin"), ("SQRT(x)", "sqrt"), ("cso(x)", "cos"),
                                        ("sqr(x)", "sqrt"), ("cosec x", "csc"), ("sine(x)", "sin")])
def test_a_function_name_misspelt_names_the_function_meant(text, meant):
    code, out, err = run("eval", text, "--at", "x=1")
    assert code == 2 and f"did you mean {meant}?" in err
    assert "no value" not in err and "--at S=" not in err


@pytest.mark.parametrize("args", [("eval", "erf(x)", "--at", "x=1"), ("eval", "foo(x)", "--at", "x=1"),
                                  ("eval", "x^2", "--at", "x=foo(1)")])
def test_an_unknown_function_is_called_unknown_and_points_to_the_list(args):
    code, out, err = run(*args)
    name = "erf" if "erf" in args[1] else "foo"
    assert code == 2 and f"unknown function '{name}'" in err and "gradcli functions" in err


def test_a_variable_before_a_bracket_still_multiplies():
    assert read_as(read_program("x(y+2)", set())) == "x*(y + 2)"
    assert read_as(read_program("xy(x+1)", {"x", "y"})) == "x*y*(x + 1)"
    with pytest.raises(UnknownName):
        read_program("xy(x+1)", set())  # its letters are not given: a function is meant


def test_a_parse_error_not_a_silent_reading_for_every_glued_exponent():
    for base in ("e", "2", "10", "3.5"):
        for exponent in ("2", "-2", "0.5", "x"):
            text = f"{base}^{exponent}t"
            with pytest.raises(ParseError):
                read_program(text, {"t", "x"})


@pytest.mark.parametrize("text,typed", [
    ("3e^2x", "e^2x"), ("2e^2x", "e^2x"), ("x^2 e^-2x", "e^-2x"), ("3*e^2x", "e^2x"),
    ("1/e^2x", "e^2x"), ("-e^2x", "e^2x"), ("2*10^-2x", "10^-2x"), ("e^-xy", "e^-xy"),
    ("e^2sin(x)", "e^2sin(x)"), ("sin e^2x", "e^2x"), ("ln(e^2x)", "e^2x"),
])
def test_a_glued_exponent_after_other_factors_or_before_a_function_is_refused(text, typed):
    code, out, err = run("eval", text, "--at", "x=1,y=1")
    assert code == 2 and out == ""
    assert f"'{typed}' is ambiguous" in err and "Traceback" not in err
    caret_line = err.splitlines()[2]
    assert caret_line.strip() == "^" * len(typed)  # the caret marks the power, not the product


def test_the_refusal_shows_both_readings_of_a_negative_exponent():
    code, _, err = run("eval", "x^2 e^-2x", "--at", "x=1")
    assert code == 2 and "e^(-2x)" in err and "e^-2*x" in err


@pytest.mark.parametrize("text,value", [
    ("(2^3)t", 8 * 3), ("(e^2)x", 2.718281828459045 ** 2 * 3), ("(10^-2)x", 0.03),
    ("e^(2)x", 2.718281828459045 ** 2 * 3), ("e²x", 2.718281828459045 ** 2 * 3),
    ("e^2 x", 2.718281828459045 ** 2 * 3), ("e^(-2x)", 2.718281828459045 ** -6),
    ("2^3 t", 24),
])
def test_a_bracket_a_space_or_a_superscript_ends_the_exponent(text, value):
    code, out, err = run("eval", text, "--at", "x=3,t=3", "-o", "json")
    assert code == 0, err
    rec = json.loads(out)
    assert rec["value"] == pytest.approx(value, rel=1e-12)
    assert not any("ambiguous" in w for w in rec.get("warnings", []))


@pytest.mark.parametrize("text,value", [("2x^1/2", 4.0), ("3*x^1/2", 6.0), ("1/x^-1/2", 0.5 * 4)])
def test_a_unit_power_over_a_number_warns_after_other_factors_too(text, value):
    code, out, err = run("eval", text, "--at", "x=4", "-o", "json")
    rec = json.loads(out)
    assert code == 0 and rec["value"] == pytest.approx(value)
    assert any("a root is written with brackets" in w for w in rec.get("warnings", []))


def test_a_bracketed_unit_power_over_a_number_does_not_warn():
    code, out, _ = run("eval", "(x^1)/2", "--at", "x=4", "-o", "json")
    rec = json.loads(out)
    assert code == 0 and rec["value"] == 2
    assert not any("root" in w for w in rec.get("warnings", []))


@pytest.mark.parametrize("text,value,typed", [
    ("3*2e-3x", 3 * 0.002 * 5, "2e-3x"), ("y 2e-3x", 5 * 0.002 * 5, "2e-3x"),
    ("2e-3sin(x)", 0.002 * -0.9589242746631385, "2e-3sin(x)"), ("2.5E+2x", 1250, "2.5E+2x"),
])
def test_e_notation_glued_to_a_name_warns_inside_a_product(text, value, typed):
    code, out, err = run("eval", text, "--at", "x=5,y=5", "-o", "json")
    rec = json.loads(out)
    assert code == 0 and rec["value"] == pytest.approx(value)
    assert any(w.startswith(f"'{typed}' is read as") and "scientific notation" in w
               for w in rec.get("warnings", []))
    assert "scientific notation" in err


def test_e_notation_with_a_space_before_the_name_does_not_warn():
    code, out, err = run("eval", "2e-3 x", "--at", "x=5", "-o", "json")
    assert code == 0 and "warnings" not in json.loads(out) and "scientific" not in err


def test_e_notation_warning_reaches_the_program_warnings():
    program = read_program("2e-3x", {"x"})
    assert len(program.warnings) == 1 and "2e - 3x" in program.warnings[0]
    assert read_program("2e-3 x", {"x"}).warnings == []


def test_the_glued_exponent_check_does_not_refuse_a_variable_base():
    for text in ("x^2y", "3x^2y", "t^-2x", "x^0.5y", "(x+1)^2y"):
        read_program(text, {"x", "y", "t"})  # the power binds to the one factor before it
