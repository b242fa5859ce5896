"""`gradcli check` and `gradcli eval --check` through the command line."""
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from gradcli.cli import main

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
Q = "(w*x+b)**2"
AT = "w=3,x=2,b=1"


def run(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def check(*args):
    return run("check", Q, "--at", AT, *args)


# ---------------------------------------------------------------- exit codes

def test_all_right_exits_0():
    code, out, err = check("--value", "49", "--grad", "w=28,x=42", "--grad", "b=14",
                           "-o", "plain")
    assert code == 0 and err == ""
    assert out == "f\tright\t49\t49\ndf/dw\tright\t28\t28\ndf/dx\tright\t42\t42\n" \
                  "df/db\tright\t14\t14\n"


def test_a_wrong_number_exits_1():
    code, out, _ = check("--grad", "w=28,x=40", "-o", "plain")
    assert code == 1
    assert out == "df/dw\tright\t28\t28\ndf/dx\twrong\t40\t42\tthe correct value is 42\n"


def test_right_formula_exits_0():
    for formula in ("2*(w*x+b)*x", "2*x**2*w + 2*x*b", "2*x*(w*x+b)"):
        code, out, _ = check("--derivative", formula, "--wrt", "w", "-o", "plain")
        assert code == 0, out
        assert out == (f"d/dw\tright\t{formula}\t{formula}\t"
                       "decided by proof: the difference simplifies to 0\n")


def test_wrong_formula_exits_1_and_shows_a_point():
    code, out, _ = check("--derivative", "w*(w*x+b)", "--wrt", "x", "-o", "json")
    assert code == 1
    record = json.loads(out)
    assert record["ok"] is False and record["right"] == 0 and record["total"] == 1
    (a,) = record["answers"]
    assert a["kind"] == "derivative" and a["key"] == "d/dx" and a["ok"] is False
    assert a["expected"] == 42.0 and a["computed"] == 21.0
    assert a["counterexample"] == {"at": {"w": 3.0, "x": 2.0, "b": 1.0},
                                   "yours": 21.0, "correct": 42.0}
    assert a["note"] == "off by a factor: your answer is 0.5 times the derivative"
    assert a["mistake"] == "constant-factor" and a["mistake_detail"] == "0.5"


def test_right_only_for_positive_x_exits_1():
    code, out, _ = run("check", "sqrt(x**2)", "--derivative", "1", "-o", "json")
    assert code == 1
    a = json.loads(out)["answers"][0]
    assert a["note"] == "right only where x > 0: wrong where x < 0"
    assert a["counterexample"]["at"]["x"] < 0


def test_tolerance_edges_exit_codes():
    # Typed with 3 or more digits, a number is judged by rounding; a tolerance given
    # explicitly overrides that.
    assert check("--grad", "w=28.0000279")[0] == 1       # 9 digits: 28.0000000 is right
    assert check("--grad", "w=28.0000279", "--rtol", "1e-6")[0] == 0   # within rtol of 28
    assert check("--grad", "w=28.0000281", "--rtol", "1e-6")[0] == 1
    assert check("--grad", "w=28.01", "--rtol", "1e-3")[0] == 0
    assert run("check", "x**2", "--at", "x=0", "--grad", "x=1e-10")[0] == 0
    assert run("check", "x**2", "--at", "x=0", "--grad", "x=2e-9")[0] == 1
    assert run("check", "x**2", "--at", "x=0", "--grad", "x=2e-9", "--atol", "1e-8")[0] == 0


def test_mixed_answers_one_wrong_exits_1():
    code, out, _ = check("--value", "49", "--derivative", "2*x*(w*x+b)",
                         "--derivative", "2*w*(w*x+b)", "--wrt", "w,x", "-o", "json")
    assert code == 0
    code, out, _ = check("--value", "48", "--derivative", "2*x*(w*x+b)", "--wrt", "w",
                         "-o", "json")
    assert code == 1
    assert [a["ok"] for a in json.loads(out)["answers"]] == [False, True]


# ---------------------------------------------------------------- bad input: exit 2

def test_answer_that_does_not_parse_exits_2_with_a_caret():
    code, out, err = check("--derivative", "2*x*(w*x+b", "--wrt", "w")
    assert code == 2 and out == ""
    assert err == ("error: the answer for ∂f/∂w does not parse: missing ')': the '(' here is "
                   "never closed\n  2*x*(w*x+b\n      ^\nhint: add ')' at the end\n")


def test_misspelled_function_in_the_answer():
    code, _, err = check("--derivative", "2*x*cos(w)+sinn(x)", "--wrt", "w")
    assert code == 2
    assert "the answer for ∂f/∂w does not parse: unknown function 'sinn'" in err
    assert "hint: did you mean sin?" in err


def test_question_that_does_not_parse_is_not_blamed_on_the_answer():
    code, _, err = run("check", "(w*x+b", "--at", AT, "--derivative", "1", "--wrt", "w")
    assert code == 2
    assert err.startswith("error: missing ')'") and "answer" not in err


def test_unknown_variable_in_the_answer_exits_2():
    code, _, err = check("--derivative", "2*x*(w*x+c)", "--wrt", "w")
    assert code == 2
    assert err == ("error: the answer for ∂f/∂w uses 'c', which the question does not have\n"
                   "  2*x*(w*x+c)\n           ^\n"
                   "hint: the question's variables are: w, x, b\n")


@pytest.mark.parametrize("args,message", [
    ((), "nothing to check"),
    (("--grad", "q=1"), "--grad: the expression has no variable 'q'"),
    (("--grad", "w"), "--grad expects NAME=VALUE"),
    (("--grad", "w=1", "--grad", "w=2"), "--grad gives 'w' twice"),
    (("--grad", "w=2*x"), "'x' is not a constant"),
    (("--value", "4 9"), "the answer --value does not parse"),
    (("--derivative", "2*x"), "--derivative needs --wrt NAME"),
    (("--derivative", "1", "--derivative", "2", "--wrt", "w"), "2 --derivative answer(s) but 1"),
    (("--derivative", "1", "--wrt", "q"), "--wrt: the expression has no variable 'q'"),
    (("--value", "49", "--rtol", "-1"), "zero or positive"),
])
def test_bad_input_exits_2(args, message):
    code, out, err = check(*args)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_missing_point_for_numbers_and_domain_error():
    code, _, err = run("check", Q, "--grad", "w=28")
    assert code == 2 and "need the point" in err
    code, _, err = run("check", "log(x)", "--at", "x=-1", "--grad", "x=-1")
    assert code == 3 and "ln needs a positive argument" in err


# ---------------------------------------------------------------- formats

def test_table_output():
    code, out, _ = check("--value", "49", "--grad", "x=40", "--derivative", "x*(w*x+b)",
                         "--wrt", "w", "-o", "table")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "read as (w*x + b)^2"
    assert lines[1] == "at      w = 3, x = 2, b = 1"
    assert "answer" in lines[3] and "expected" in lines[3] and "computed" in lines[3]
    assert lines[4].split() == ["f", "49", "49", "49", "✓"]
    assert lines[5].split() == ["∂f/∂x", "40", "42", "40", "✗"]
    assert lines[6].split() == ["∂f/∂w", "formula", "x*(w*x+b)", "28", "14", "✗"]
    assert "✗ ∂f/∂x: the correct value is 42" in out
    assert "off by a factor: your answer is 0.5 times the derivative" in out
    assert lines[-1].startswith("1 of 3 right")


def test_json_is_one_object_with_every_answer():
    code, out, _ = check("--value", "49", "-o", "json")
    record = json.loads(out)
    assert code == 0
    assert record == {"expression": Q, "read_as": "(w*x + b)**2",
                      "at": {"w": 3.0, "x": 2.0, "b": 1.0}, "ok": True, "right": 1, "total": 1,
                      "rtol": 1e-06, "atol": 1e-09,
                      "answers": [{"kind": "value", "name": "f", "key": "f", "answer": "49",
                                   "expected": 49.0, "computed": 49.0, "ok": True,
                                       "decided_by": "tolerance"}]}


def test_help_has_an_example_and_the_defaults():
    code, out, _ = run("check", "--help")
    assert code == 0
    assert "Example:" in out and "gradcli check" in out
    flat = " ".join(out.split())
    assert "Default 1e-6" in flat and "Default 1e-9" in flat
    from gradcli.tasks.check import ATOL, RTOL
    assert (RTOL, ATOL) == (1e-6, 1e-9)


def test_subprocess_grading_exit_codes():
    env = dict(os.environ, PYTHONPATH=SRC)
    base = [sys.executable, "-m", "gradcli", "check", Q, "--at", AT, "-o", "json"]
    right = subprocess.run(base + ["--derivative", "2*x**2*w + 2*x*b", "--wrt", "w"],
                           capture_output=True, text=True, env=env)
    wrong = subprocess.run(base + ["--derivative", "2*x*w", "--wrt", "w"],
                           capture_output=True, text=True, env=env)
    bad = subprocess.run(base + ["--derivative", "2*x*(", "--wrt", "w"],
                         capture_output=True, text=True, env=env)
    assert (right.returncode, wrong.returncode, bad.returncode) == (0, 1, 2)
    assert json.loads(right.stdout)["ok"] is True
    assert json.loads(wrong.stdout)["ok"] is False
    assert "does not parse" in bad.stderr
    error = json.loads(bad.stdout)["error"]  # SPEC §3: errors under -o json
    assert error["exit"] == bad.returncode == 2 and error["kind"] == "parse"
    assert "does not parse" in error["message"]


# ---------------------------------------------------------------- eval --check

def test_eval_check_plain():
    code, out, _ = run("eval", Q, "--at", AT, "--check", "-o", "plain")
    assert code == 0
    rows = [line.split("\t") for line in out.splitlines()]
    assert [r[0] for r in rows] == ["f", "df/dw", "fd df/dw", "relerr df/dw", "df/dx",
                                    "fd df/dx", "relerr df/dx", "df/db", "fd df/db",
                                    "relerr df/db"]
    assert abs(float(rows[2][1]) - 28) < 1e-6 and float(rows[3][1]) < 1e-8


def test_eval_check_json_and_csv():
    code, out, _ = run("eval", Q, "--at", AT, "--check", "-o", "json")
    check_part = json.loads(out)["check"]
    assert set(check_part) == {"w", "x", "b"}
    assert all(v["ok"] and v["relative_error"] < 1e-8 for v in check_part.values())
    code, out, _ = run("eval", Q, "--at", AT, "--check", "-o", "csv")
    header, row = out.splitlines()
    assert header.split(",")[:7] == ["w", "x", "b", "f", "df/dw", "fd df/dw", "relerr df/dw"]
    assert len(row.split(",")) == len(header.split(","))


def test_eval_check_at_a_kink_explains_itself():
    code, out, err = run("eval", "relu(x)*y", "--at", "x=0,y=2", "--check", "-o", "table")
    assert code == 0
    assert "warning: relu at 0" in err
    assert "✗ ∂f/∂x: x = 0 is at a kink, where the central difference averages the two" in out
    code, out, _ = run("eval", "relu(x)*y", "--at", "x=0,y=2", "--check", "-o", "json")
    x = json.loads(out)["check"]["x"]
    assert x["ok"] is False and "relu at 0" in x["note"]


def test_eval_without_check_is_unchanged():
    code, out, _ = run("eval", Q, "--at", AT, "-o", "plain")
    assert out == "f\t49\ndf/dw\t28\ndf/dx\t42\ndf/db\t14\n"


@pytest.mark.parametrize("text", ["(w*x+b)**2", "sigmoid(w*x + b)", "sqrt(x**2) + x*y",
                                  "z = w*x + b\nloss = (sigmoid(z) - t)**2", "max(x, y)*exp(-x)"])
def test_gradcli_diff_output_is_accepted_by_gradcli_check(text):
    code, out, _ = run("diff", text, "-o", "json")
    assert code == 0
    derivatives = json.loads(out)["derivatives"]
    args = []
    for name, formula in derivatives.items():
        args += ["--derivative", formula, "--wrt", name]
    code, out, err = run("check", text, *args, "-o", "json")
    assert code == 0, (out, err)
    assert json.loads(out)["right"] == len(derivatives)


def test_readme_examples_are_real_output():
    section = open(os.path.join(os.path.dirname(SRC), "docs", "check.md"),
                   encoding="utf-8").read()
    code, out, _ = run("check", "sqrt(x**2)", "--derivative", "1", "-o", "plain")
    assert code == 1 and out in section
    code, out, _ = run("check", Q, "--at", AT, "--grad", "w=28,x=40", "--derivative",
                       "2*x**2*w + 2*x*b", "--wrt", "w", "--derivative", "w*(w*x+b)", "--wrt",
                       "x", "-o", "table")
    assert code == 1
    assert "\n".join(line.rstrip() for line in out.splitlines()) in section
    code, out, _ = run("eval", "relu(x)*y", "--at", "x=0,y=2", "--check", "-o", "plain")
    assert out in section


# ---------------------------------------------------------------- numbers graded by their digits

def test_digits_rule_through_the_cli():
    code, out, _ = run("check", "sin(x)", "--at", "x=2", "--value", "0.9093", "--grad",
                       "x=-0.4161", "-o", "plain")
    assert code == 0
    assert out == ("f\tright\t0.9093\t0.9092974268256817\tright (to the 4 digits given)\n"
                   "df/dx\tright\t-0.4161\t-0.4161468365471424\tright (to the 4 digits given)\n")
    code, out, _ = run("check", "sin(x)", "--at", "x=2", "--value", "0.9092", "-o", "plain")
    assert code == 1
    assert out == ("f\twrong\t0.9092\t0.9092974268256817\tto 4 digits the value is 0.9093 "
                   "(0.9092 is cut off, not rounded)\n")


def test_digits_rule_json_keys_and_the_tolerance_override():
    code, out, _ = run("check", "sin(x)", "--at", "x=2", "--value", "0.90930", "-o", "json")
    (a,) = json.loads(out)["answers"]
    assert code == 0 and a["ok"] and (a["digits"], a["rounded"]) == (5, "0.90930")
    code, out, _ = run("check", "sin(x)", "--at", "x=2", "--value", "0.9094", "-o", "json")
    (a,) = json.loads(out)["answers"]
    assert code == 1 and a["reason"] == "to 4 digits the value is 0.9093"
    # --rtol given: the tolerance decides, and no digits are reported
    code, out, _ = run("check", "sin(x)", "--at", "x=2", "--value", "0.9094", "--rtol", "1e-3",
                       "-o", "json")
    (a,) = json.loads(out)["answers"]
    assert code == 0 and "digits" not in a
    assert run("check", "sin(x)", "--at", "x=2", "--value", "0.9093", "--atol", "1e-9")[0] == 1
    # fewer than three digits: exact within the tolerance
    assert run("check", "x + 0.1677063269057153", "--at", "x=3", "--value", "3")[0] == 1
    assert run("check", "x + 4e-16", "--at", "x=3", "--value", "3")[0] == 0


def test_table_says_how_numbers_were_graded():
    code, out, _ = run("check", "sin(x)", "--at", "x=2", "--value", "0.9093", "-o", "table")
    assert code == 0
    assert "✓ f: right (to the 4 digits given)" in out
    assert "3 or more digits: correctly rounded; otherwise rtol 1e-06, atol 1e-09" in \
        " ".join(out.split())


# ---------------------------------------------------------------- named mistakes

@pytest.mark.parametrize("question,answer,wrt,mistake,detail", [
    ("exp(2*x)", "exp(2*x)", "x", "chain-rule", "exp(2*x)"),
    ("x^2*exp(x)", "2*x*exp(x)", "x", "product-rule", "x^2*exp(x)"),
    ("x/(x^2+1)", "((x^2+1) - 2*x*x)/(x^2+1)", "x", "quotient-rule", "x/(x^2 + 1)"),
    ("x^3", "3*x^3", "x", "power-rule", "x^3"),
    ("cos(x)", "sin(x)", "x", "sign", "cos(x)"),
    ("x^2 + 3*x + 7", "2*x + 3 + 7", "x", "constant-kept", "7"),
    ("x^2", "2*x + 3", "x", "constant-offset", "3"),
    ("x^2", "4*x", "x", "constant-factor", "2"),
    ("sqrt(x^2)", "1", "x", "partial-domain", "x > 0"),
    ("x*y^2", "2*x*y", "x", "wrong-variable", "y"),
])
def test_mistakes_in_json_plain_and_table(question, answer, wrt, mistake, detail):
    code, out, _ = run("check", question, "--derivative", answer, "--wrt", wrt, "-o", "json")
    assert code == 1
    (a,) = json.loads(out)["answers"]
    if mistake not in ("constant-offset", "constant-factor", "partial-domain"):
        from gradcli.language.parser import parse
        from gradcli.language.printer import to_text
        detail = to_text(parse(detail).result)  # as the printer spells it
    assert (a["mistake"], a["mistake_detail"]) == (mistake, detail)
    sentence = a["note"].replace("**", "^")  # JSON keeps **; what people read uses ^
    code, out, _ = run("check", question, "--derivative", answer, "--wrt", wrt, "-o", "plain")
    assert code == 1 and out.rstrip("\n").endswith("; " + sentence)
    code, out, _ = run("check", question, "--derivative", answer, "--wrt", wrt, "-o", "table")
    assert code == 1 and " ".join(sentence.split()) in " ".join(out.split())


@pytest.mark.parametrize("question,answer", [
    ("exp(2*x)", "2*exp(2*x)"), ("x^2*exp(x)", "2*x*exp(x) + x^2*exp(x)"),
    ("sin(x)^2", "sin(2*x)"), ("ln(abs(x))", "1/x"), ("cos(x)", "-sin(x)"),
])
def test_right_in_any_form_has_no_mistake(question, answer):
    code, out, _ = run("check", question, "--derivative", answer, "-o", "json")
    (a,) = json.loads(out)["answers"]
    assert code == 0 and a["ok"] and a["mistake"] is None and a["mistake_detail"] is None


def test_the_reported_examples_are_no_longer_domain_problems():
    for question, answer, mistake in (("exp(2*x)", "exp(2*x)", "chain-rule"),
                                      ("x^2*exp(x)", "2*x*exp(x)", "product-rule")):
        code, out, _ = run("check", question, "--derivative", answer, "--wrt", "x", "-o", "plain")
        assert code == 1 and "domain" not in out
        code, out, _ = run("check", question, "--derivative", answer, "--wrt", "x", "-o", "json")
        assert json.loads(out)["answers"][0]["mistake"] == mistake


# ---------------------------------------------------------------- any answer text

def test_random_answer_text_never_breaks_the_checker():
    import random
    rng = random.Random(20261203)
    pieces = list("xyw0123456789.+-*/^()[], eE|=;#_") + [
        "sin", "cos", "exp", "log", "ln", "sqrt", "abs", "max(", "atan2(", "relu", "nan",
        "inf", "1e308", "1e-308", "**", "pi", "√", "²", "{", "}", "\\", "'", '"', "\t", "é"]
    questions = ["x^2*y", "exp(2*x)", "z = w*x + b\nz**2", "log(x)", "x/(x^2+1)"]
    for i in range(120):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        question = rng.choice(questions)
        if i % 3 == 0:
            args = ["check", question, "--derivative", text, "--wrt", "x", "-o", "json"]
        elif i % 3 == 1:
            args = ["check", question, "--at", "x=1.5,y=2,w=1,b=0.5", "--value", text]
        else:
            args = ["check", question, "--at", "x=1.5,y=2,w=1,b=0.5", "--grad", f"x={text}",
                    "-o", "table"]
        result = CliRunner().invoke(main, args)
        assert result.exit_code in (0, 1, 2), (args, result.stderr)
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr, args
        assert result.exception is None or isinstance(result.exception, SystemExit), args


@pytest.mark.parametrize("answer,code", [("1/0", 1), ("log(-1)", 1), ("exp(1000)", 1),
                                         ("[1, 2]", 1), ("", 2), ("x", 2)])
def test_odd_numeric_answers(answer, code):
    got, out, err = run("check", "sin(x)", "--at", "x=1", "--value", answer, "-o", "plain")
    assert got == code and "internal error" not in err


@pytest.mark.parametrize("answer,code", [("1/0", 1), ("log(-1)", 1), ("[1, 2]", 2),
                                         ("exp(exp(exp(x)))", 1), ("q", 2), ("x^", 2)])
def test_odd_formula_answers(answer, code):
    got, out, err = run("check", "sin(x)", "--derivative", answer, "-o", "plain")
    assert got == code and "internal error" not in err


@pytest.mark.parametrize("question,at,answer,digits,enough", [
    ("sin(x)", "x=pi/3", "0.87", "2 significant digits", "0.866"),
    ("sin(x)", "x=pi/3", "0.9", "1 significant digit,", "0.866"),
    ("x^2", "x=3.1", "9.6", "2 significant digits", "9.61"),
])
def test_too_few_digits_is_said_with_how_many_are_needed(question, at, answer, digits, enough):
    result = CliRunner().invoke(main, ["check", question, "--at", at, "--value", answer,
                                       "-o", "json"])
    assert result.exit_code == 1
    (a,) = json.loads(result.stdout)["answers"]
    assert not a["ok"] and f"rounded to {digits}" in a["reason"]
    assert f"give at least 3 ({enough})" in a["reason"] and "--rtol" in a["reason"]


def test_a_wrong_value_with_few_digits_is_not_called_rounded():
    result = CliRunner().invoke(main, ["check", "sin(x)", "--at", "x=pi/3", "--value", "0.8",
                                       "-o", "json"])
    (a,) = json.loads(result.stdout)["answers"]
    assert not a["ok"] and "rounded" not in a["reason"]
