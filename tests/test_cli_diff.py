"""`gradcli diff` through the CLI: exact outputs, exit codes, and values equal to eval's."""
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from gradcli.cli import main

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")


def run(*args, input=None):
    result = CliRunner().invoke(main, ["diff", *args], input=input)
    return result.exit_code, result.stdout, result.stderr


def test_plain_output():
    code, out, err = run("(w*x+b)**2", "-o", "plain")
    assert code == 0 and err == ""
    assert out == "df/dw\t2*x*(w*x + b)\ndf/dx\t2*w*(w*x + b)\ndf/db\t2*(w*x + b)\n"


def test_json_with_values_matches_eval():
    code, out, _ = run("(w*x+b)**2", "--at", "w=3,x=2,b=1", "-o", "json")
    assert code == 0
    assert json.loads(out) == {
        "expression": "(w*x+b)**2", "read_as": "(w*x + b)**2",
        "derivatives": {"w": "2*x*(w*x + b)", "x": "2*w*(w*x + b)", "b": "2*(w*x + b)"},
        "at": {"w": 3.0, "x": 2.0, "b": 1.0}, "values": {"w": 28.0, "x": 42.0, "b": 14.0}}


@pytest.mark.parametrize("text,at", [
    ("sin(x)*exp(y)/(1 + x**2)", "x=0.3,y=-1.7"),
    ("z = w*x + b; y = sigmoid(z); loss = (y - t)**2", "w=0.5,x=1.5,b=-0.25,t=1"),
    ("x**x + atan2(y, x)", "x=1.3,y=0.4"),
])
def test_values_equal_eval_numbers(text, at):
    code, out, _ = run(text, "--at", at, "-o", "json")
    assert code == 0
    values = json.loads(out)["values"]
    ev = CliRunner().invoke(main, ["eval", text, "--at", at, "-o", "json"])
    assert values == json.loads(ev.stdout)["gradient"]
    # and the printed formulas, pasted into eval, give the same numbers
    for name, formula in json.loads(out)["derivatives"].items():
        pasted = CliRunner().invoke(main, ["eval", formula, "--at", at, "-o", "json"])
        assert pasted.exit_code == 0, pasted.stderr
        assert json.loads(pasted.stdout)["value"] == pytest.approx(values[name], rel=1e-12)


def test_wrt_and_second_order():
    code, out, _ = run("x**2*y**3", "--wrt", "x,y", "--order", "2", "--at", "x=1,y=2",
                       "-o", "plain")
    assert code == 0
    assert out == "d2f/dx2\t2*y^3\t16\nd2f/dxdy\t6*x*y^2\t24\nd2f/dy2\t6*x^2*y\t12\n"
    code, out, _ = run("x**2*y**3", "--order", "2", "-o", "json")
    assert json.loads(out)["derivatives"] == {"x,x": "2*y^3", "x,y": "6*x*y^2",
                                              "y,y": "6*x^2*y"}
    assert json.loads(out)["order"] == 2


def test_program_output_keeps_names():
    code, out, _ = run("z = w*x + b\ny = sigmoid(z)\nloss = (y - t)**2", "--wrt", "w",
                       "-o", "plain")
    assert code == 0
    assert out == "dloss/dw\tz = w*x + b; y = sigmoid(z); 2*x*y*(y - t)*(1 - y)\n"


def test_latex():
    code, out, _ = run("(w*x+b)**2", "--wrt", "w", "--at", "w=3,x=2,b=1", "-o", "latex")
    assert code == 0
    assert out == ("\\begin{aligned}\n\\frac{\\partial f}{\\partial w} &= 2x "
                   "\\left(wx + b\\right) = 28\n\\end{aligned}\n")
    code, out, _ = run("x*y", "--order", "2", "--wrt", "x,y", "-o", "latex")
    assert "\\frac{\\partial^{2} f}{\\partial x \\partial y} &= 1" in out
    assert "\\frac{\\partial^{2} f}{\\partial x^{2}} &= 0" in out


# docs/diff.md: the forms a textbook prints, as plain text and as LaTeX.
TEXTBOOK = [
    ("tan(x)", "sec(x)^2", r"\sec^{2}\left(x\right)"),
    ("cot(x)", "-csc(x)^2", r"-\csc^{2}\left(x\right)"),
    ("sec(x)", "sec(x)*tan(x)", r"\sec\left(x\right) \tan\left(x\right)"),
    ("csc(x)", "-csc(x)*cot(x)", r"-\csc\left(x\right) \cot\left(x\right)"),
    ("exp(-x)", "-e^(-x)", r"-e^{-x}"),
    ("e^(-x)", "-e^(-x)", r"-e^{-x}"),
    ("sigmoid(x)", "sigmoid(x)*(1 - sigmoid(x))",
     r"\sigma\left(x\right) \left(1 - \sigma\left(x\right)\right)"),
    ("tanh(x)", "1 - tanh(x)^2", r"1 - \tanh^{2}\left(x\right)"),
    ("ln(x^2+1)", "2*x/(x^2 + 1)", r"\frac{2x}{x^{2} + 1}"),
    ("x*ln(x)", "ln(x) + 1", r"\ln\left(x\right) + 1"),
    ("x/(x+1)", "1/(x + 1)^2", r"\frac{1}{\left(x + 1\right)^{2}}"),
    ("(x^2+1)/(x-1)", "(x^2 - 2*x - 1)/(x - 1)^2",
     r"\frac{x^{2} - 2x - 1}{\left(x - 1\right)^{2}}"),
    ("sqrt(x)", "1/(2*sqrt(x))", r"\frac{1}{2\sqrt{x}}"),
    ("x^3", "3*x^2", r"3x^{2}"),
    ("asin(x)", "1/sqrt(1 - x^2)", r"\frac{1}{\sqrt{1 - x^{2}}}"),
    ("atan(x)", "1/(x^2 + 1)", r"\frac{1}{x^{2} + 1}"),
    ("sin(x)^2", "2*sin(x)*cos(x)", r"2\sin\left(x\right) \cos\left(x\right)"),
    ("e^(2*x)", "2*e^(2*x)", r"2e^{2x}"),
    ("ln(sin(x))", "cot(x)", r"\cot\left(x\right)"),
    ("x^2*sin(x)", "2*x*sin(x) + x^2*cos(x)",
     r"2x \sin\left(x\right) + x^{2} \cos\left(x\right)"),
]


@pytest.mark.parametrize("text,plain,latex", TEXTBOOK)
def test_textbook_forms(text, plain, latex):
    code, out, err = run(text, "-o", "plain")
    assert (code, out, err) == (0, f"df/dx\t{plain}\n", "")
    code, out, _ = run(text, "-o", "latex")
    assert out == ("\\begin{aligned}\n\\frac{df}{dx} &= " + latex
                   + "\n\\end{aligned}\n")


@pytest.mark.parametrize("text", [t for t, _, _ in TEXTBOOK])
def test_textbook_forms_pasted_into_eval_give_the_same_numbers(text):
    for at in ("x=0.3", "x=0.8"):
        code, out, _ = run(text, "--at", at, "-o", "json")
        assert code == 0
        record = json.loads(out)
        pasted = CliRunner().invoke(main, ["eval", record["derivatives"]["x"], "--at", at,
                                           "-o", "json"])
        assert pasted.exit_code == 0, pasted.stderr
        assert json.loads(pasted.stdout)["value"] == pytest.approx(record["values"]["x"],
                                                                   rel=1e-12)


def test_helper_names_do_not_look_like_inputs():
    code, out, _ = run("sin(sin(sin(t*x + t2*y + 3)))", "--wrt", "x", "-o", "json")
    formula = json.loads(out)["derivatives"]["x"]
    helpers = [line.split(" = ")[0] for line in formula.split("\n")[:-1]]
    assert helpers == ["u1"]
    code, out, _ = run("sin(sin(sin(u*x + 2*y + 3)))", "--wrt", "x", "-o", "plain")
    assert out.startswith("df/dx\tv1 = ")


def test_table():
    code, out, _ = run("(w*x+b)**2", "--at", "w=3,x=2,b=1", "-o", "table")
    assert code == 0
    assert "read as (w*x + b)^2" in out
    assert "∂f/∂w  2*x*(w*x + b)     28" in out


def test_kinks_print_sign_and_step_forms():
    code, out, err = run("abs(x) + relu(y)", "--at", "x=0,y=0", "-o", "plain")
    assert code == 0
    assert out == "df/dx\tsign(x)\t0\ndf/dy\tstep(y)\t0\n"
    assert "abs at 0" in err and "relu at 0" in err


@pytest.mark.parametrize("args,code,message", [
    (["x*y", "--wrt", "q"], 2, "error: --wrt: the expression has no variable 'q'\n"
                               "hint: its variables are: x, y\n"),
    (["x**2", "--order", "0"], 2, "error: --order must be a whole number from 1 to 10, got 0\n"),
    (["x**2", "--order", "11"], 2, "error: --order must be a whole number from 1 to 10, got 11\n"),
    (["sinn(x)"], 2, "error: unknown function 'sinn'"),
    (["log(x)", "--at", "x=-1"], 3, "error: ln(x) is undefined at x = -1"),
    (["sqrt(x)", "--order", "2", "--at", "x=0"], 3, "error: the derivative by x,x is undefined"),
    (["x*y", "--at", "x=1"], 2, "error: no value for 'y'"),
    (["[x, y]"], 2, "error: diff does not handle vectors"),
    (["2"], 2, "error: the expression has no variables"),
])
def test_errors(args, code, message):
    got, out, err = run(*args)
    assert got == code and out == ""
    assert err.startswith(message)


def test_expression_starting_with_minus_and_stdin():
    assert run("-x**2", "-o", "plain")[1] == "df/dx\t-2*x\n"
    assert run("-f", "-", "-o", "plain", input="x**3\n")[1] == "df/dx\t3*x^2\n"


def test_help_has_an_example():
    result = CliRunner().invoke(main, ["diff", "--help"])
    assert result.exit_code == 0 and "Example" in result.stdout and "--order" in result.stdout


def test_subprocess_plain_when_piped():
    env = dict(os.environ, PYTHONPATH=SRC)
    proc = subprocess.run([sys.executable, "-m", "gradcli", "diff", "x**x"],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout == "df/dx\tx^x*(ln(x) + 1)\n"


def test_subprocess_deep_composition_exit_zero():
    env = dict(os.environ, PYTHONPATH=SRC)
    text = "tanh(" * 3000 + "x" + ")" * 3000
    proc = subprocess.run([sys.executable, "-m", "gradcli", "diff", "-f", "-", "-o", "json"],
                          input=text, capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    formula = json.loads(proc.stdout)["derivatives"]["x"]
    assert "Traceback" not in proc.stderr and len(formula) < 30 * len(text)


def _readme_examples():
    """(command, expected output) for each `$ gradcli diff` example in docs/diff.md."""
    page = os.path.join(os.path.dirname(SRC), "docs", "diff.md")
    section = open(page, encoding="utf-8").read()
    examples, current, indent = [], None, 0
    for raw in section.split("\n"):
        stripped = raw.lstrip(" ")
        if stripped.startswith("$ gradcli diff"):
            indent = len(raw) - len(stripped)
            current = [stripped[2:], []]
            examples.append(current)
        elif stripped.startswith("```"):
            current = None
        elif current is not None:
            current[1].append(raw[indent:])
    return [(cmd, "\n".join(out) + "\n") for cmd, out in examples]


@pytest.mark.parametrize("command,expected", _readme_examples())
def test_readme_examples_are_real(command, expected, tmp_path, monkeypatch):
    import shlex
    monkeypatch.chdir(tmp_path)
    (tmp_path / "neuron.txt").write_text("z = w*x + b\ny = sigmoid(z)\nloss = (y - t)**2\n")
    (tmp_path / "xy.csv").write_text("x,y\n1,2\n-1,0.5\n0,3\n")
    args = shlex.split(command, comments=True)[1:]
    if "-o" not in args:
        args += ["-o", "table"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    if "table" in args:  # compare without trailing spaces
        out = "\n".join(line.rstrip() for line in out.split("\n"))
    assert out == expected


def test_names_are_consistent_across_derivatives():
    code, out, _ = run("sigmoid(w*x+b)", "--order", "2", "--wrt", "w,b", "-o", "json")
    texts = json.loads(out)["derivatives"].values()
    firsts = {t.split("\n")[0] for t in texts if "\n" in t}
    assert len(firsts) <= 1


def test_a_missing_value_is_found_before_the_symbolic_work(monkeypatch):
    # A formula thousands of levels deep takes seconds to differentiate; a forgotten --at
    # value must not wait for that.
    from gradcli.tasks import diff as diff_task

    def never(*args, **kwargs):
        raise AssertionError("differentiated before the bindings were checked")
    monkeypatch.setattr(diff_task, "symbolic_diff", never)
    code, _, err = run("max(1, max(1, sigmoidE - (w*x + b)))", "--at", "x=1,w=2,b=3")
    assert code == 2
    assert "no value for 'sigmoidE'" in err and "did you mean sigmoid(E)?" in err
