"""Vectors from the command line: PyTorch's intro example, --seed, --jacobian, errors."""
import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from gradcli.cli import main

SRC = str(Path(__file__).resolve().parent.parent / "src")


def run(*args, input=None):
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_pytorch_intro_example_json():
    code, out, _ = run("eval", "sum(x*w)", "--at", "x=[1,2,3],w=[0.5,1,1.5]", "-o", "json")
    assert code == 0
    record = json.loads(out)
    assert record["value"] == 7
    assert record["gradient"] == {"x": [0.5, 1.0, 1.5], "w": [1.0, 2.0, 3.0]}
    assert record["at"] == {"x": [1.0, 2.0, 3.0], "w": [0.5, 1.0, 1.5]}


def test_pytorch_intro_example_plain():
    code, out, _ = run("eval", "sum(x*w)", "--at", "x=[1,2,3]", "--at", "w=[0.5,1,1.5]",
                       "-o", "plain")
    assert code == 0
    assert out == "f\t7\ndf/dx\t[0.5, 1, 1.5]\ndf/dw\t[1, 2, 3]\n"


def test_seed_from_the_command_line():
    code, out, _ = run("eval", "x**2", "--at", "x=[1,2,3]", "--seed", "[1,0,2]", "-o", "plain")
    assert code == 0
    assert out == "f\t[1, 4, 9]\ndf/dx\t[2, 0, 12]\n"
    code, out, _ = run("eval", "x**2", "--at", "x=[1,2,3]", "--seed", "[1,0,2]", "-o", "json")
    assert json.loads(out)["seed"] == [1.0, 0.0, 2.0]


def test_jacobian_from_the_command_line():
    code, out, _ = run("eval", "[[1,2],[3,4],[5,6]] @ x", "--at", "x=[1,-1]", "--jacobian",
                       "-o", "json")
    assert code == 0
    record = json.loads(out)
    assert record["value"] == [-1.0, -1.0, -1.0]
    assert record["jacobian"] == {"x": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]}
    assert "gradient" not in record
    code, out, _ = run("eval", "x**2", "--at", "x=[1,2]", "--jacobian", "-o", "plain")
    assert out == "f\t[1, 4]\ndf/dx\t[[2, 0], [0, 4]]\n"


def test_jacobian_table_shows_one_row_per_line():
    code, out, _ = run("eval", "x**2", "--at", "x=[1,2]", "--jacobian", "-o", "table")
    assert code == 0
    assert "[[2, 0],\n" in out and "[0, 4]]" in out


def test_non_scalar_result_exit_2_with_the_ways_out():
    code, out, err = run("eval", "x*w", "--at", "x=[1,2,3],w=[0.5,1,1.5]")
    assert code == 2 and out == ""
    assert "shape (3,)" in err
    assert "sum(...)" in err and "--seed [1, 1, 1]" in err and "--jacobian" in err


def test_shape_error_exit_2_with_caret():
    code, _, err = run("eval", "sum(x + y)", "--at", "x=[1,2],y=[1,2,3]")
    assert code == 2
    assert "shapes (2,) and (3,)" in err and "x + y" in err and "^" in err


def test_ragged_at_value_is_an_error():
    code, _, err = run("eval", "sum(x)", "--at", "x=[[1,2],[3]]")
    assert code == 2 and "ragged" in err


def test_domain_error_on_array_names_the_element():
    code, _, err = run("eval", "sum(sqrt(x))", "--at", "x=[4,-1,9]")
    assert code == 3
    assert "x[1] = -1" in err


def test_seed_and_jacobian_together_is_a_usage_error():
    code, _, err = run("eval", "x**2", "--at", "x=[1,2]", "--seed", "[1,1]", "--jacobian")
    assert code == 2 and "cannot be combined" in err


def test_seed_shape_mismatch():
    code, _, err = run("eval", "x**2", "--at", "x=[1,2]", "--seed", "[1,1,1]")
    assert code == 2 and "shape (3,)" in err and "shape (2,)" in err


def test_matrix_csv_output_quotes_the_array():
    code, out, _ = run("eval", "sum(A)", "--at", "A=[[1,2],[3,4]]", "-o", "csv")
    assert code == 0
    assert out.splitlines()[1] == '"[[1, 2], [3, 4]]",10,"[[1, 1], [1, 1]]"'


def test_functions_lists_the_vector_functions():
    code, out, _ = run("functions", "-o", "plain")
    assert code == 0
    names = [line.split("\t")[0] for line in out.splitlines()]
    for form in ("sum(x)", "mean(x)", "dot(x, y)", "x @ y"):
        assert form in names
    assert not any("stack" in n for n in names)


def test_subprocess_intro_example():
    env = dict(os.environ, PYTHONPATH=SRC)
    out = subprocess.run([sys.executable, "-m", "gradcli", "eval", "sum(x*w)", "--at",
                          "x=[1,2,3],w=[0.5,1,1.5]", "-o", "plain"],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 0
    assert out.stdout == "f\t7\ndf/dx\t[0.5, 1, 1.5]\ndf/dw\t[1, 2, 3]\n"


def _readme_section():
    return (Path(SRC).parent / "docs" / "vectors.md").read_text(encoding="utf-8")


def test_readme_examples_are_real_output():
    section = _readme_section()
    for args in (["sum(x*w)", "--at", "x=[1,2,3],w=[0.5,1,1.5]", "-o", "plain"],
                 ["x**2", "--at", "x=[1,2,3]", "--seed", "[1,0,2]", "-o", "plain"],
                 ["A @ sin(x)", "--at", "A=[[1,2,0],[0,1,-1]],x=[0.1,0.5,1]", "--jacobian",
                  "--wrt", "x", "-o", "json", "--precision", "6"]):
        code, out, _ = run("eval", *args)
        assert code == 0 and out in section, out
    code, out, _ = run("eval", "mean((A @ v - t)**2)", "--at", "A=[[1,2],[3,4]],v=[0.5,-1],t=[1,0]",
                       "-o", "table")
    assert "\n".join(line.rstrip() for line in out.splitlines()) in section
    for args in (["x*w", "--at", "x=[1,2,3],w=[0.5,1,1.5]"],
                 ["sum(x + y)", "--at", "x=[1,2],y=[1,2,3]"],
                 ["sum(ln(x))", "--at", "x=[1,-2,3]"]):
        code, _, err = run("eval", *args)
        assert code in (2, 3) and err in section, err
    code, out, err = run("eval", "ln(x)*y", "--points", "-", "-o", "csv",
                         input="x,y\n1,2\n2,abc\n-1,4\n3,0.5\n")
    assert code == 2
    for line in out.splitlines() + err.splitlines():
        assert line in section, line
