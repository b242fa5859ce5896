"""`gradcli descend` and `gradcli plot` through the command line: output, exit codes, errors."""
import json
import os
import struct
import subprocess
import sys

import pytest
from click.testing import CliRunner

from gradcli.cli import main


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = json.load(open(os.path.join(ROOT, "tests", "golden", "torch_descend.json")))["cases"]
NEURON = "mean((sigmoid(w1*x1 + w2*x2 + b) - y)**2)"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture
def neuron_csv(tmp_path):
    path = tmp_path / "neuron.csv"
    path.write_text("x1,x2,y\n1.0,2.0,1\n2.0,1.0,0\n-1.0,-2.0,0\n")
    return str(path)


def csv_of(case, tmp_path):
    path = tmp_path / f"{case['name']}.csv"
    lines = [",".join(case["columns"])] + [",".join(repr(v) for v in row) for row in case["rows"]]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_neuron_exercise_plain_output_exactly(neuron_csv):
    r = run("descend", NEURON, "--data", neuron_csv, "--at", "w1=0.1,w2=-0.2,b=0",
            "--lr", "0.1", "--steps", "2", "--round", "4", "-o", "plain")
    assert r.exit_code == 0, r.output
    assert r.stdout == (
        "step\tloss\tgrad_norm\tw1\tw2\tb\n"
        "1\t0.3033\t0.3035\t0.1021\t-0.1709\t-0.0083\n"
        "2\t0.2942\t0.296\t0.1036\t-0.1425\t-0.0167\n"
        "final\t0.2856\t0.288\t0.1036\t-0.1425\t-0.0167\n")
    assert r.stderr == ""


@pytest.mark.parametrize("case", GOLDEN, ids=[c["name"] for c in GOLDEN])
def test_cli_json_history_agrees_with_pytorch(case, tmp_path):
    at = ",".join(f"{k}={v!r}" for k, v in case["start"].items())
    r = run("descend", case["expression"], "--data", csv_of(case, tmp_path), "--at", at,
            "--lr", repr(case["lr"]), "--steps", str(case["epochs"]),
            "--momentum", repr(case["momentum"]), "-o", "json")
    assert r.exit_code == 0, r.output
    record = json.loads(r.stdout)
    assert [h["step"] for h in record["history"]] == list(range(1, case["epochs"] + 1))
    for h, loss in zip(record["history"], case["losses"]):
        assert h["loss"] == pytest.approx(loss, rel=1e-9, abs=1e-9)
    for name, value in case["final"].items():
        assert record["final"]["params"][name] == pytest.approx(value, rel=1e-9, abs=1e-9)
    assert record["stopped"] == "steps" and record["steps_run"] == case["epochs"]
    assert record["data"]["columns"] == case["columns"]


def test_table_output(neuron_csv):
    r = run("descend", NEURON, "--data", neuron_csv, "--at", "w1=0.1,w2=-0.2,b=0",
            "--lr", "0.1", "--steps", "2", "--round", "4", "-o", "table")
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split())  # rich may wrap the long file name
    assert "read as mean((sigmoid(w1*x1 + w2*x2 + b) - y)^2)" in text
    assert "3 rows, columns x1, x2, y" in text
    assert "2 0.2942 0.296 0.1036 -0.1425 -0.0167" in text and "ran 2 steps" in text


def test_csv_output_and_every():
    r = run("descend", "(x - 3)**2", "--at", "x=0", "--lr", "0.25", "--steps", "4", "-o", "csv")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert lines[0] == "step,loss,grad_norm,x"
    assert [l.split(",")[0] for l in lines[1:]] == ["1", "2", "3", "4", "final"]
    r = run("descend", "(x - 3)**2", "--at", "x=0", "--lr", "0.25", "--steps", "9",
            "--every", "4", "-o", "plain")
    assert [l.split("\t")[0] for l in r.stdout.splitlines()[1:]] == ["1", "4", "8", "9", "final"]


def test_tol_stops_early_and_says_so():
    r = run("descend", "(x - 1)**2 + 2*(y + 2)**2", "--at", "x=5,y=5", "--lr", "0.2",
            "--steps", "1000", "--tol", "1e-8", "-o", "json")
    record = json.loads(r.stdout)
    assert r.exit_code == 0
    assert record["stopped"] == "tol" and record["steps_run"] < 1000
    assert record["final"]["params"]["x"] == pytest.approx(1, abs=1e-8)
    assert record["final"]["params"]["y"] == pytest.approx(-2, abs=1e-8)
    r = run("descend", "(x - 1)**2", "--at", "x=5", "--lr", "0.2", "--steps", "1000",
            "--tol", "1e-8", "-o", "table")
    assert "converged after" in r.stdout


def test_divergence_exits_3_with_the_step_and_keeps_the_history():
    r = run("descend", "x**2", "--at", "x=1", "--lr", "1.5", "--steps", "2000", "-o", "json")
    assert r.exit_code == 3
    assert "error: descent diverged at step 513" in r.stderr
    assert "hint: try a smaller --lr" in r.stderr
    record = json.loads(r.stdout)
    assert record["stopped"] == "diverged" and record["diverged"]["step"] == 513
    assert len(record["history"]) == 512 and "final" not in record


def test_divergence_in_plain_output():
    r = run("descend", "log(x)", "--at", "x=1", "--lr", "2", "--steps", "5", "-o", "plain")
    assert r.exit_code == 3
    assert r.stdout.splitlines()[1].startswith("1\t0\t1\t-1")
    assert "diverged at step 2" in r.stderr and "ln needs a positive argument" in r.stderr


@pytest.mark.parametrize("args,fragment", [
    (["--lr", "0", "--steps", "5"], "--lr must be a positive number"),
    (["--lr", "-1", "--steps", "5"], "--lr must be a positive number"),
    (["--lr", "0.1", "--steps", "0"], "--steps must be a positive whole number"),
    (["--lr", "0.1", "--steps", "-2"], "--steps must be a positive whole number"),
    (["--lr", "0.1", "--steps", "5", "--tol", "-1"], "--tol must be a positive number"),
    (["--lr", "0.1", "--steps", "5", "--momentum", "-0.1"], "--momentum must be 0 or more"),
    (["--lr", "x", "--steps", "5"], "--lr: 'x' is not a constant"),
    (["--lr", "0.1", "--steps", "many"], "'many' is not a valid integer"),
])
def test_bad_settings_exit_2(args, fragment):
    r = run("descend", "x**2", "--at", "x=1", *args)
    assert r.exit_code == 2
    assert fragment in r.stderr
    assert "Traceback" not in r.output


def test_lr_may_be_a_constant_expression():
    r = run("descend", "(x - 3)**2", "--at", "x=0", "--lr", "1/4", "--steps", "1", "-o", "csv")
    assert r.exit_code == 0 and "\n1,9,6,1.5\n" in r.stdout


@pytest.mark.parametrize("text,fragments", [
    ("", ["is empty"]),
    ("x1,x2,y\n1,2,1\n2,oops,0\n", ["row 2, column 'x2'", "'oops', not a number"]),
    ("x1,y\n1,1\n", ["'x2' is neither a column of", "x1, y"]),
    ("x1,x2,y,b\n1,2,1,0\n", ["column 'b' clashes with the parameter 'b'"]),
])
def test_bad_data_exit_2_naming_file_row_and_column(tmp_path, text, fragments):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    r = run("descend", NEURON, "--data", str(path), "--at", "w1=0,w2=0,b=0", "--lr", "0.1",
            "--steps", "2")
    assert r.exit_code == 2
    assert str(path) in r.stderr or "bad.csv" in r.stderr
    for fragment in fragments:
        assert fragment in r.stderr


def test_data_from_stdin():
    r = run("descend", "mean((w*x - y)**2)", "--data", "-", "--at", "w=0", "--lr", "0.1",
            "--steps", "200", "--tol", "1e-9", "-o", "json", input="x,y\n1,2\n2,4\n3,6\n")
    assert r.exit_code == 0, r.output
    record = json.loads(r.stdout)
    assert record["final"]["params"]["w"] == pytest.approx(2, abs=1e-9)
    assert record["data"]["file"] == "stdin"


def test_warnings_go_to_stderr():
    r = run("descend", "(x - 1)**2", "--at", "x=0,z=1", "--lr", "0.1", "--steps", "1",
            "-o", "plain")
    assert r.exit_code == 0
    assert "warning: --at binds 'z', which the expression does not use" in r.stderr


def test_descend_through_a_subprocess(neuron_csv):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    proc = subprocess.run([sys.executable, "-m", "gradcli", "descend", NEURON, "--data",
                           neuron_csv, "--at", "w1=0.1,w2=-0.2,b=0", "--lr", "0.1",
                           "--steps", "2", "--round", "4", "-o", "json"],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert [h["loss"] for h in record["history"]] == [0.3033, 0.2942]
    assert record["final"]["params"] == {"w1": 0.1036, "w2": -0.1425, "b": -0.0167}


def test_help_has_an_example():
    for command in ("descend", "plot"):
        r = run(command, "--help")
        assert r.exit_code == 0 and "Example" in r.stdout


# ------------------------------------------------------------------ plot

def test_plot_in_the_terminal_at_a_fixed_size():
    r = run("plot", "relu(x) - x**2/4", "--over", "x=-2:3", "--width", "64", "--height", "26")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert len(lines) == 26 and max(map(len, lines)) <= 64
    assert "\x1b[" not in r.stdout
    assert "relu at 0" in r.stderr


def test_plot_json_and_csv_samples():
    r = run("plot", "log(x)", "--over", "x=-1:1", "--points", "5", "-o", "json")
    assert r.exit_code == 0
    record = json.loads(r.stdout)
    assert record["x"] == [-1.0, -0.5, 0.0, 0.5, 1.0]
    assert record["f"][:3] == ["nan", "nan", "nan"] and record["df"][3:] == [2.0, 1.0]
    r = run("plot", "abs(x)", "--over", "x=-1:1", "--points", "3", "-o", "json")
    record = json.loads(r.stdout)
    assert record["df"] == [-1.0, 0.0, 1.0] and record["kinks"] == [0.0]
    r = run("plot", "x**2", "--over", "x=0:1", "--points", "3", "-o", "csv")
    assert r.stdout == "x,f,df/dx\n0,0,0\n0.5,0.25,1\n1,1,2\n"


def test_plot_output_png_and_svg(tmp_path):
    png = tmp_path / "f.png"
    r = run("plot", "sin(a*x)", "--over", "x=0:2*pi", "--at", "a=2", "--output", str(png),
            "--width", "640", "--height", "480")
    assert r.exit_code == 0, r.output
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (640, 480)
    assert "wrote" in r.stderr
    svg = tmp_path / "f.svg"
    r = run("plot", "abs(x)", "--over", "x=-1:1", "--output", str(svg))
    assert r.exit_code == 0 and svg.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("args,code,fragment", [
    (["x", "--over", "x=1:0"], 2, "smaller to a larger"),
    (["x*y", "--over", "x=0:1"], 2, "no value for 'y'"),
    (["x", "--over", "x=0:1", "--output", "f.pdf"], 2, ".png or .svg"),
    (["log(a)*x", "--over", "x=0:1", "--at", "a=-1"], 3, "ln needs a positive argument"),
    (["sum(x)", "--over", "x=0:1"], 2, "reduces over x"),
    (["x", "--over", "x=0:1", "--points", "1"], 2, "--points"),
])
def test_plot_errors(args, code, fragment):
    r = run("plot", *args)
    assert r.exit_code == code
    assert fragment in r.stderr


def test_plot_without_matplotlib_gives_an_install_hint(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    r = run("plot", "x", "--over", "x=0:1", "--output", str(tmp_path / "f.png"))
    assert r.exit_code == 2
    assert "needs matplotlib" in r.stderr and "pip install 'gradcli[plot]'" in r.stderr


def test_plot_names_and_records_a_pole():
    r = run("plot", "1/x", "--over", "x=-1:1", "--points", "4", "-o", "json")
    assert r.exit_code == 0, r.output
    record = json.loads(r.stdout)
    assert record["jumps"] == {"f": [[record["x"][1], record["x"][2]]],
                               "df": []}
    assert "f jumps (a pole or a step) between x = -0.333333 and 0.333333; the line is not " \
           "drawn across" in r.stderr
    r = run("plot", "abs(x)", "--over", "x=-1:1", "--points", "3", "-o", "json")
    assert json.loads(r.stdout)["jumps"] == {"f": [], "df": [[-1.0, 0.0], [0.0, 1.0]]}
