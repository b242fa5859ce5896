"""Amendments 14 and 15 (docs/language.md): forms a book prints one way and a keyboard
reads another are read as before and warned with both readings; the warnings of the
reading of a `check` answer are shown with its verdict."""
import json

import pytest
from click.testing import CliRunner

from gradcli.cli import main
from gradcli.language.parser import listening, parse
from gradcli.language.printer import read_as


def run(*args):
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


# (typed, what it is read as, written out; the other reading, as the warning spells it)
WARNED = [
    # a whole-number power over a whole number: a fractional power in the book
    ("x^2/3", "(x^2)/3", "x^(2/3)"), ("x^3/2", "(x^3)/2", "x^(3/2)"),
    ("x^-2/3", "(x^(-2))/3", "x^(-2/3)"), ("2x^4/3", "2*(x^4)/3", "x^(4/3)"),
    ("t^3/4 + 1", "(t^3)/4 + 1", "t^(3/4)"), ("e^1/2", "exp(1)/2", "e^(1/2)"),
    ("e^-1/2", "exp(-1)/2", "e^(-1/2)"),
    # a signed exponent over a number, on e or a number
    ("e^-t/2", "exp(-t)/2", "e^(-t/2)"), ("e^-x^2/2", "exp(-(x^2))/2", "e^(-x^2/2)"),
    ("2^-t/2", "(2^(-t))/2", "2^(-t/2)"), ("3e^-x/4", "3*exp(-x)/4", "e^(-x/4)"),
    # an exponent on e or a number followed by a bracket
    ("e^2(x+1)", "exp(2)*(x+1)", "e^(2(x+1))"), ("2^3(x+1)", "(2^3)*(x+1)", "2^(3(x+1))"),
    ("e^-2(x+1)", "exp(-2)*(x+1)", "e^(-2(x+1))"), ("3e^x(x-1)", "3*exp(x)*(x-1)", "e^(x(x-1))"),
    ("10^2[x+1]", "(10^2)*(x+1)", "10^(2[x+1])"),
    # a power tower glued to letters
    ("e^x^2y", "exp(x^2)*y", "e^(x^2 y)"), ("2^x^2y", "(2^(x^2))*y", "2^(x^2 y)"),
    ("e^-x^2y", "exp(-(x^2))*y", "e^(-x^2 y)"),
    # a function's bare argument followed by '/'
    ("sin 1/x", "sin(1)/x", "sin(1/x)"), ("x^2 sin 1/x", "(x^2)*sin(1)/x", "sin(1/x)"),
    ("cos 2/x^2", "cos(2)/(x^2)", "cos(2/x^2)"), ("sin x/2", "sin(x)/2", "sin(x/2)"),
    ("ln 2/x", "ln(2)/x", "ln(2/x)"), ("sin^2 x/3", "sin(x)^2/3", "sin^2(x/3)"),
]

SILENT = ["x^(2/3)", "(x^2)/3", "x^2/2", "x^3/6", "x^5/120", "x^3/16", "x^2/4 + y^2/9",
          "x**2/3", "e^(-t)/2", "e^(-t/2)", "e^{-t}/2", "e^x/2", "e^-t", "e^-t / τ",
          "sin(1/x)", "sin(1)/x", "sin (1)/x", "sec x/x", "cos x/(2√sin x)", "tan x/ln 10",
          "√3/2", "√x/2", "√π/2", "e^{2}(x+1)", "e^(2)(x+1)", "e^2 (x+1)", "e²(x+1)",
          "x^2(x+1)", "(e^2)(x+1)", "e^(x^2)y", "e^x^2 y", "e^(x^2 y)", "x^2y", "x^(1/2)",
          # a constant's power over a number, as gradcli prints it: e^2/3, 98π^2/3
          "e^2/3", "98π^2/3", "2^3/2"]


@pytest.mark.parametrize("typed,reading,other", WARNED)
def test_a_book_form_is_read_as_before_and_warned_with_both_readings(typed, reading, other):
    names = {"x", "y", "t"}
    program = parse(typed, names)
    assert read_as(program) == read_as(parse(reading.replace("^", "**"), names))
    assert len(program.warnings) == 1, program.warnings
    w = program.warnings[0]
    assert " is read as " in w and other in w


@pytest.mark.parametrize("typed", SILENT)
def test_a_bracketed_or_unambiguous_form_is_not_warned(typed):
    assert parse(typed, {"x", "y", "t", "τ"}).warnings == []


@pytest.mark.parametrize("typed,other", [("e^-t/2", "e^(-t/2)"), ("x^2/3", "x^(2/3)"),
                                         ("x^2 sin 1/x", "sin(1/x)")])
def test_the_warning_is_in_json_and_on_stderr(typed, other):
    code, out, err = run("diff", typed, "-o", "json")
    rec = json.loads(out)
    assert code == 0 and any(other in w for w in rec["warnings"])
    code, out, err = run("diff", typed)
    assert code == 0 and "warning:" in err and other in err


def test_listening_hears_every_warning_parse_and_nothing_outside():
    with listening() as heard:
        parse("x^2/3")
        parse("x^(2/3)")
    parse("e^-t/2")
    assert [text for text, _ in heard] == ["x^2/3"]


def test_an_answers_reading_is_shown_with_its_verdict():
    code, out, err = run("check", "sqrt(x)", "--derivative", "1/2x^-1/2", "-o", "json")
    rec = json.loads(out)
    assert code == 1 and not rec["ok"]
    mine = rec["answers"][0]["warnings"]
    assert any("(1/2)*" in w for w in mine) and any("x^(-1/2)" in w for w in mine)
    assert all(any(w in v and v.startswith("your answer for d/dx: ") for v in rec["warnings"])
               for w in mine)
    code, out, err = run("check", "sqrt(x)", "--derivative", "1/2x^-1/2")
    assert code == 1 and "your answer for d/dx: " in err and "x^(-1/2)" in err


def test_a_homework_answer_and_a_number_answer_warn_too():
    code, out, err = run("check", "e^x", "--at", "x=-4", "--tangent", "y = e^-4 + e^-4(x + 4)",
                         "-o", "json")
    rec = json.loads(out)
    assert code == 0 and rec["ok"]
    assert any("e^(-4(x + 4))" in w for w in rec["answers"][0]["warnings"])
    code, out, err = run("check", "x^3 - 4x", "--over", "x=-2:2", "--mvt", "c = ±2/3^1/2",
                         "-o", "json")
    rec = json.loads(out)
    assert code == 1 and any("3^(1/2)" in w for w in rec["answers"][0]["warnings"])


def test_the_questions_own_warnings_are_not_the_answers():
    code, out, err = run("check", "x^2/3", "--derivative", "2x/3", "-o", "json")
    rec = json.loads(out)
    assert code == 0 and "warnings" not in rec["answers"][0]
    assert any("x^(2/3)" in w and not w.startswith("your answer") for w in rec["warnings"])


def test_the_book_printer_spaces_an_exponent_before_a_bracket_so_it_reads_back_quietly():
    code, out, err = run("taylor", "e^x", "--at", "x=2", "--order", "2", "--exact", "-o", "json")
    assert code == 0
    text = json.loads(out)["polynomial"]
    assert "e^2 (x - 2)" in text and parse(text).warnings == []


def test_an_answer_checked_at_every_row_of_a_points_file_warns_too(tmp_path):
    points = tmp_path / "points.csv"
    points.write_text("x\n1\n4\n")
    code, out, err = run("check", "sqrt(x)", "--points", str(points), "--derivative",
                         "1/2x^-1/2", "--wrt", "x", "-o", "plain")
    assert code == 1 and "your answer for d/dx: " in err and "x^(-1/2)" in err
