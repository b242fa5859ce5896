"""`gradcli trace` and `gradcli graph` from the command line: exact output, exit codes."""
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from gradcli.cli import main
from snapshot import assert_snapshot

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
CASES = {
    "affine": ("(w*x+b)**2", "w=3,x=2,b=1"),
    "twice": ("x*x + x", "x=3"),
}
ENV = {"COLUMNS": "100", "NO_COLOR": "1"}


def runner():
    try:  # click 8.1 mixes stderr into stdout unless told not to; 8.2 keeps them apart
        return CliRunner(mix_stderr=False)
    except TypeError:
        return CliRunner()


def run(*args, input=None):
    return runner().invoke(main, list(args), input=input, env=ENV)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("fmt,ext", [("table", "txt"), ("plain", "tsv"), ("markdown", "md"),
                                     ("latex", "tex"), ("json", "json")])
def test_trace_output_is_exact(case, fmt, ext):
    expr, at = CASES[case]
    r = run("trace", expr, "--at", at, "-o", fmt)
    assert r.exit_code == 0, r.stderr
    assert r.stderr == ""
    assert_snapshot(f"trace_{case}.{ext}", r.stdout)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("fmt,ext", [("tree", "txt"), ("dot", "dot"), ("mermaid", "mmd"),
                                     ("json", "json")])
def test_graph_output_is_exact(case, fmt, ext):
    expr, at = CASES[case]
    r = run("graph", expr, "--at", at, "-o", fmt)
    assert r.exit_code == 0, r.stderr
    assert_snapshot(f"graph_{case}.{ext}", r.stdout)


def test_trace_markdown_shows_the_textbook_steps():
    r = run("trace", "(w*x+b)**2", "--at", "w=3,x=2,b=1", "-o", "markdown")
    assert "| `f` | 1 | `v2` | ∂f/∂v2 = `2*v2` = `2*7` = 14 | 1·14 = 14 | 14 |" in r.stdout
    assert "| `v1` | 14 | `w` | ∂v1/∂w = `x` = 2 | 14·2 = 28 | 28 |" in r.stdout
    assert r.stdout.rstrip().endswith("**Result:** f = 49, ∂f/∂w = 28, ∂f/∂x = 42, ∂f/∂b = 14")


def test_trace_json_records_match_eval():
    r = run("trace", "x*x + x", "--at", "x=3", "-o", "json")
    rec = json.loads(r.stdout)
    e = json.loads(run("eval", "x*x + x", "--at", "x=3", "-o", "json").stdout)
    assert rec["gradient"] == e["gradient"] and rec["value"] == e["value"]
    totals = [(c["total"], c["accumulated"]) for s in rec["backward"] for c in s["inputs"]
              if c["input"] == "x"]
    assert totals == [(1.0, False), (4.0, True), (7.0, True)]


def test_trace_program_uses_its_names():
    program = "z = w*x + b\ny = sigmoid(z)\nloss = (y - t)**2"
    r = run("trace", "-f", "-", "--at", "w=0.5,x=2,b=-1,t=1", "-o", "plain", input=program)
    assert r.exit_code == 0, r.stderr
    assert "forward\ty\tsigmoid(z)\t0.5\n" in r.stdout
    assert "backward\ty\t-1\tz\ty*(1 - y)\t0.5*(1 - 0.5)\t0.25\t-0.25\t-0.25\n" in r.stdout
    assert r.stdout.endswith("loss\t0.25\ndloss/dw\t-0.5\ndloss/dx\t-0.125\ndloss/db\t-0.25\n"
                             "dloss/dt\t1\n")


def test_expression_starting_with_minus():
    r = run("trace", "-x**2", "--at", "x=3", "-o", "plain")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.endswith("f\t-9\ndf/dx\t-6\n")


def test_precision_rounds_every_number():
    r = run("trace", "sin(x)", "--at", "x=1", "-o", "plain", "--precision", "3")
    assert "backward\tf\t1\tx\tcos(x)\tcos(1)\t0.54\t0.54\t0.54\n" in r.stdout


def test_kink_warning_on_stderr_and_in_json():
    r = run("trace", "relu(x)", "--at", "x=0", "-o", "json")
    assert r.exit_code == 0
    assert "warning: relu at 0" in r.stderr
    assert any("relu at 0" in w for w in json.loads(r.stdout)["warnings"])


@pytest.mark.parametrize("command", ["trace", "graph"])
@pytest.mark.parametrize("args,code,message", [
    (["x +", "--at", "x=1"], 2, "error:"),
    (["x*y", "--at", "x=1"], 2, "no value for 'y'"),
    (["log(x - 3)", "--at", "x=2"], 3, "ln(x - 3) is undefined at x - 3 = -1"),
    (["x", "--at", "x=1", "-o", "bogus"], 2, "Invalid value"),
    (["x", "--at", "x=1", "--wrt", "q"], 2, "no variable 'q'"),
    (["x", "--at", "e=1"], 2, "is a constant"),
    ([], 2, "no expression given"),
])
def test_bad_input_exit_codes(command, args, code, message):
    r = run(command, *args)
    assert r.exit_code == code, (r.stdout, r.stderr)
    assert message in r.stderr
    assert "Traceback" not in r.stderr


def test_graph_output_file_formats(tmp_path):
    dot_file = tmp_path / "g.dot"
    r = run("graph", "x*x", "--at", "x=3", "--output", str(dot_file))
    assert r.exit_code == 0 and r.stdout == ""
    assert dot_file.read_text().startswith("digraph gradcli {")
    mmd = tmp_path / "g.mmd"
    assert run("graph", "x*x", "--at", "x=3", "--output", str(mmd)).exit_code == 0
    assert mmd.read_text().startswith("flowchart LR")


@pytest.mark.parametrize("args,message", [
    (["--output", "g.txt"], "cannot tell the format"),
    (["--output", "g.svg", "-o", "mermaid"], "ask for different formats"),
    (["--output", "/nonexistent-dir/g.svg"], "does not exist"),
])
def test_graph_output_errors(args, message):
    r = run("graph", "x*x", "--at", "x=3", *args)
    assert r.exit_code == 2
    assert message in r.stderr


def test_graph_without_dot_says_how_to_install_it(tmp_path):
    # A PATH with no dot on it: the error names Graphviz and how to install it (exit 2).
    env = dict(os.environ, PATH=str(tmp_path), PYTHONPATH=SRC)
    p = subprocess.run([sys.executable, "-m", "gradcli", "graph", "x*x", "--at", "x=3",
                        "--output", str(tmp_path / "g.svg")], capture_output=True, text=True,
                       env=env, timeout=60)
    assert p.returncode == 2
    assert "needs Graphviz's 'dot' program" in p.stderr
    assert "apt-get install graphviz" in p.stderr
    assert not (tmp_path / "g.svg").exists()


def test_large_trace_and_graph_through_the_cli(tmp_path):
    source = tmp_path / "deep.txt"
    source.write_text("sin(" * 10000 + "x" + ")" * 10000)
    env = dict(os.environ, PYTHONPATH=SRC)
    for args in (["trace", "-o", "json"], ["graph", "-o", "tree"]):
        p = subprocess.run([sys.executable, "-m", "gradcli", *args, "-f", str(source),
                            "--at", "x=0.5"], capture_output=True, text=True, env=env,
                           timeout=300)
        assert p.returncode == 0, p.stderr
        assert "RecursionError" not in p.stderr and "nested too deeply" not in p.stderr
    words = " ".join(p.stdout.split())
    assert "the graph has 10,001 nodes" in words and "-o dot" in words
    assert len(p.stdout.splitlines()) < 80


def test_help_has_an_example():
    for command in ("trace", "graph"):
        r = run(command, "--help")
        assert r.exit_code == 0 and "Example:" in r.stdout


def test_large_trace_table_is_elided_with_a_note():
    expr = " + ".join(f"x*{i}" for i in range(1, 400))
    r = run("trace", expr, "--at", "x=1", "-o", "table")
    assert r.exit_code == 0, r.stderr
    words = " ".join(r.stdout.split())
    assert "more rows" in words
    assert "only the first 100 and last 20 rows of each table (and of each step) are shown " \
        "here" in words
    assert "-o markdown" in words
    assert "\nf      79800\n∂f/∂x  79800\n" in r.stdout
    full = run("trace", expr, "--at", "x=1", "-o", "plain").stdout
    assert full.count("\nbackward\t") == 2 * 398 + 399  # two inputs per +, x per *


def test_a_long_vector_literal_traces_in_linear_size():
    # Each element's backward line repeats the step's upstream gradient; printed in full
    # that was quadratic (12 MB for 2,000 elements).
    n = 2000
    text = "sum([x" + ", 1 y" * n + "])"
    plain = run("trace", text, "--at", "x=1", "--at", "y=2", "-o", "plain")
    assert plain.exit_code == 0
    lines = plain.stdout.splitlines()
    step = [x for x in lines if x.startswith(f"backward\tv{n + 1}\t")]
    assert len(step) == n + 1
    assert step[0].split("\t")[2] == "[1, 1, 1, ..., 1, 1, 1]"
    assert len(plain.stdout) < 200 * n
    table = run("trace", text, "--at", "x=1", "--at", "y=2", "-o", "table")
    assert table.exit_code == 0
    from gradcli.output.render import TABLE_HEAD, TABLE_TAIL
    left_out = n + 1 - TABLE_HEAD - TABLE_TAIL
    assert f"{left_out:,} more rows" in table.stdout and len(table.stdout) < 400 * n


def test_summary_text_cuts_long_arrays_as_numpy_prints_them():
    import numpy as np

    from gradcli.output.formats import SUMMARY_AT, number_text, summary_text
    short = np.arange(SUMMARY_AT, dtype=float)
    assert summary_text(short) == number_text(short)
    assert summary_text(np.arange(SUMMARY_AT + 1.0)) == "[0, 1, 2, ..., 998, 999, 1000]"
    assert summary_text(np.ones((2, 600))) == \
        "[[1, 1, 1, ..., 1, 1, 1], [1, 1, 1, ..., 1, 1, 1]]"
    assert summary_text(2.5) == "2.5"
