"""diff --points and check --points: the single-point commands' numbers at every row."""
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from gradcli import api
from gradcli.tasks import batch
from gradcli.tasks.check import check, check_points, close, close_each
from gradcli.cli import main

SRC = str(Path(__file__).resolve().parent.parent / "src")


def run(*args, input=None):
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def write_points(path, header, rows):
    path.write_text(",".join(header) + "\n"
                    + "".join(",".join(repr(float(v)) for v in r) + "\n" for r in rows))
    return str(path)


@pytest.fixture
def grid(tmp_path):
    rng = np.random.default_rng(11)
    data = rng.uniform(0.2, 3.0, size=(300, 3)) * rng.choice((-1, 1), size=(300, 3))
    data = data.tolist()
    return write_points(tmp_path / "p.csv", ("w", "x", "b"), data), data


# ---------------------------------------------------------------- diff --points

def test_diff_points_first_order_matches_diff_at(grid):
    path, data = grid
    expr = "(w*x + b)**2 + sin(w*b)"
    code, out, err = run("diff", expr, "--points", path, "--chunk", "64", "-o", "csv")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "w,x,b,df/dw,df/dx,df/db"
    assert len(lines) == 301
    for i in random.Random(1).sample(range(300), 12) + [0, 63, 64, 299]:
        w, x, b = data[i]
        code, single, err = run("diff", expr, "--at", f"w={w!r},x={x!r},b={b!r}", "-o", "json")
        assert code == 0, err
        values = json.loads(single)["values"]
        row = [float(v) for v in lines[i + 1].split(",")]
        assert row[:3] == [w, x, b]
        # The same engine: NumPy's and math's sin may differ in the last bit.
        assert row[3:] == pytest.approx([values["w"], values["x"], values["b"]], rel=1e-13)


def test_diff_points_second_order_matches_diff_at(grid):
    path, data = grid
    expr = "x**2*w**3 + exp(b*x)"
    code, out, err = run("diff", expr, "--points", path, "--order", "2", "--wrt", "x,b",
                         "--chunk", "100", "-o", "json")
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 300
    assert list(records[0]["values"]) == ["x,x", "x,b", "b,b"]
    for i in random.Random(2).sample(range(300), 10) + [99, 100]:
        w, x, b = data[i]
        single = api.diff(expr, ["x", "b"], 2, {"w": w, "x": x, "b": b})
        assert records[i]["row"] == i + 1
        assert records[i]["at"] == {"x": x, "w": w, "b": b}
        for key, value in single.values.items():
            assert records[i]["values"][key] == pytest.approx(value, rel=1e-13)


def test_diff_points_library_matches_api_diff(tmp_path):
    path = write_points(tmp_path / "q.csv", ("x", "y"), [(1, 2), (-1, 0.5), (0, 3)])
    job = batch.diff_run("x**2*y**3", path, order=2, chunk_rows=2)
    chunks = list(job)
    assert [c.first_row for c, _ in chunks] == [1, 3]
    got = {k: np.concatenate([r.gradient[k] for _, r in chunks]) for k in ("x,x", "x,y", "y,y")}
    for i, (x, y) in enumerate([(1, 2), (-1, 0.5), (0, 3)]):
        single = api.diff("x**2*y**3", None, 2, {"x": x, "y": y})
        assert {k: got[k][i] for k in got} == single.values
    assert job.exit_code == 0


def test_diff_points_plain_table_and_stdin():
    data = "x,y\n1,2\n-1,0.5\n"
    code, out, err = run("diff", "x**2*y**3", "--order", "2", "--points", "-", "-o", "plain",
                         input=data)
    assert code == 0, err
    assert out == ("x\ty\td2f/dx2\td2f/dxdy\td2f/dy2\n1\t2\t16\t24\t12\n"
                   "-1\t0.5\t0.25\t-1.5\t3\n")
    code, out, err = run("diff", "x**2*y**3", "--wrt", "y", "--points", "-", "-o", "table",
                         input=data)
    assert code == 0, err
    assert "df/dy" in out and "12" in out and "0.75" in out


def test_diff_points_undefined_rows_are_nan_with_row_numbers(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("x,y\n1,2\n-1,0.5\n4,1\n")
    code, out, err = run("diff", "log(x)*y", "--points", str(path), "-o", "csv")
    assert code == 3
    assert out.splitlines()[1:] == ["1,2,2,0", "-1,0.5,nan,nan", "4,1,0.25,1.3862943611198906"]
    assert "row 2: ln(x) is undefined at x = -1" in err
    assert "1 row undefined of 3" in err


def test_diff_points_a_row_where_only_the_higher_derivative_is_undefined(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("x\n4\n0\n1\n")
    code, out, err = run("diff", "sqrt(x)", "--order", "2", "--points", str(path), "-o", "csv")
    assert code == 3
    assert out == "x,d2f/dx2\n4,-0.03125\n0,nan\n1,-0.25\n"
    assert "row 2: d2f/dx2 is undefined" in err
    # The single point says the same (exit 3).
    assert run("diff", "sqrt(x)", "--order", "2", "--at", "x=0")[0] == 3


def test_diff_points_bad_rows_name_row_and_column(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("x,y\n1,2\nabc,1\n3\n")
    code, out, err = run("diff", "x*y", "--points", str(path), "-o", "json")
    assert code == 2
    records = [json.loads(line) for line in out.splitlines()]
    assert records[0]["values"] == {"x": 2.0, "y": 1.0}
    assert records[1]["values"] == {"x": "nan", "y": "nan"}
    assert "row 2, column 'x'" in records[1]["error"]
    assert "row 2, column 'x': the value is 'abc', not a number" in err
    assert "row 3: missing column 'y'" in err


def test_diff_points_usage_errors(tmp_path):
    path = write_points(tmp_path / "p.csv", ("x",), [(1,)])
    assert run("diff", "x*y", "--points", path)[0] == 2  # no column y and no --at y
    code, out, err = run("diff", "x*y", "--points", path, "--at", "y=3", "-o", "csv")
    assert (code, out) == (0, "x,df/dx,df/dy\n1,3,1\n")
    code, _, err = run("diff", "x**2", "--points", path, "-o", "latex")
    assert code == 2 and "latex" in err
    code, _, err = run("diff", "x**2", "-o", "csv")
    assert code == 2 and "--points" in err
    code, _, err = run("diff", "sum(x)", "--points", path)
    assert code == 2 and "sum" in err


def test_diff_points_subprocess_stdin():
    proc = subprocess.run([sys.executable, "-m", "gradcli", "diff", "w*x**2", "--wrt", "x",
                           "--points", "-", "-o", "csv"], input="w,x\n3,2\n1,-1\n",
                          capture_output=True, text=True, env={"PYTHONPATH": SRC})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "w,x,df/dx\n3,2,12\n1,-1,-2\n"


# ---------------------------------------------------------------- check --points

def test_eval_points_output_checks_as_all_right(grid):
    path, _ = grid
    expr = "(w*x + b)**2 + sin(w*b)"
    code, out, err = run("eval", expr, "--points", path, "-o", "csv")
    assert code == 0, err
    code, out, err = run("check", expr, "--points", "-", "-o", "plain", "--chunk", "50",
                         input=out)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "row\tanswer\tverdict\tgiven\texpected"
    assert len(lines) == 1 + 300 * 4 + 5
    assert all(line.split("\t")[2] == "right" for line in lines[1:1201])
    assert lines[-1] == "# all right: 4 of 4 answers right (1200 of 1200 checks in 300 rows)"


def test_check_points_verdicts_match_check_at(grid):
    path, data = grid
    expr = "(w*x + b)**2"
    derivative = "2*x*(w*x + b)"
    wrong = "2*x*(w*x)"  # right only where b = 0: wrong at every row here
    code, out, err = run("check", expr, "--points", path, "--grad", "b=2",
                         "--derivative", derivative, "--wrt", "w", "--derivative", wrong,
                         "--wrt", "x", "-o", "json", "--chunk", "70")
    assert code == 1, err
    records = [json.loads(line) for line in out.splitlines()]
    summary = records.pop()["summary"]
    assert len(records) == 300
    for i in random.Random(5).sample(range(300), 8):
        w, x, b = data[i]
        at = {"w": w, "x": x, "b": b}
        single = check(expr, at, grad={"b": "2"})
        row = records[i]["answers"]
        assert (row["df/db"]["verdict"] == "right") == single.ok
        assert row["df/db"]["expected"] == pytest.approx(single.answers[0].expected, rel=1e-15)
        assert row["d/dw"]["verdict"] == "right"
        assert row["d/dx"]["verdict"] == "wrong"
        assert row["d/dx"]["expected"] == pytest.approx(2 * w * (w * x + b))
    by_key = {a["key"]: a for a in summary["answers"]}
    assert by_key["d/dw"]["ok"] and by_key["d/dw"]["right"] == 300
    assert by_key["d/dx"]["wrong"] == 300 and by_key["d/dx"]["correct"] == "2*w*(w*x + b)"
    assert not by_key["df/db"]["ok"]
    assert summary["ok"] is False


def test_check_points_answer_columns_and_constants(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("w,x,value,grad_w\n3,2,49,28\n1,1,4,5\n")
    code, out, err = run("check", "(w*x+b)**2", "--at", "b=1", "--points", str(path),
                         "--grad", "x=42", "-o", "plain")
    assert code == 1, err
    assert out.splitlines()[:7] == [
        "row\tanswer\tverdict\tgiven\texpected",
        "1\tf\tright\t49\t49", "1\tdf/dw\tright\t28\t28", "1\tdf/dx\tright\t42\t42",
        "2\tf\tright\t4\t4", "2\tdf/dw\twrong\t5\t4", "2\tdf/dx\twrong\t42\t4"]
    assert "# df/dw: 1 of 2 rows right; wrong at row 2 (at row 2 the answer is 5, the " \
           "correct value 4)" in out
    assert out.splitlines()[-1] == "# wrong: 1 of 3 answers right (4 of 6 checks in 2 rows)"


def test_check_points_table_marks(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("x,grad_x\n3,6\n1,3\n")
    code, out, err = run("check", "x**2", "--points", str(path), "-o", "table")
    assert code == 1
    assert "6 ✓" in out and "3 ✗ (2)" in out
    assert "df/dx: 1 of 2 rows right" in out


def test_check_points_tolerances_are_check_s(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("x\n3\n10\n")
    # 6.0001 is 1.7e-5 off: wrong at the default rtol 1e-6, right at 1e-4, as with --at.
    assert run("check", "x**2", "--points", str(path), "--grad", "x=6.0001")[0] == 1
    assert run("check", "x**2", "--at", "x=3", "--grad", "x=6.0001")[0] == 1
    code, out, _ = run("check", "x**2", "--points", str(path), "--value", "9.0001",
                       "--rtol", "1e-4", "-o", "plain")
    assert code == 1  # right at x = 3, wrong at x = 10
    assert "1\tf\tright" in out and "2\tf\twrong" in out
    a = np.array([9.0001, 100.0, np.nan, np.inf])
    b = np.array([9.0, 100.0, np.nan, np.inf])
    assert close_each(a, b, 1e-4, 1e-9).tolist() == [close(x, y, 1e-4, 1e-9)
                                                      for x, y in zip(a, b)]


def test_check_points_bad_and_undefined_rows(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("x,value\n4,2\n-1,1\n1,1\n")
    code, out, err = run("check", "sqrt(x)", "--points", str(path), "-o", "plain")
    assert code == 3
    assert "2\tf\tundefined" in out
    assert "row 2: sqrt(x) is undefined at x = -1" in err
    assert out.splitlines()[-1] == ("# all right: 1 of 1 answers right (2 of 2 checks in 3 "
                                    "rows; 1 undefined row not checked)")
    path.write_text("x,value\n4,2\n-1,one\n")
    code, out, err = run("check", "sqrt(x)", "--points", str(path), "-o", "plain")
    assert code == 2
    assert "row 2, column 'value': the value is 'one', not a number" in err
    assert "2\tf\tunreadable" in out


def test_check_points_formula_left_out_where_undefined(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("x\n4\n0\n1\n")
    code, out, err = run("check", "sqrt(x)", "--points", str(path), "--derivative",
                         "1/(2*sqrt(x))", "-o", "plain")
    assert code == 0, err
    assert "2\td/dx\tnot compared\tnan\tinf" in out
    assert "not compared at row 2" in out
    code, out, _ = run("check", "sqrt(x)", "--points", str(path), "--derivative",
                       "1/(2*sqrt(x - 5))", "-o", "plain")
    assert code == 1  # undefined at every row: wrong, as check --at says
    assert "the correct derivative is 1/(2*sqrt(x))" in out


def test_check_points_usage_errors(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("x,value,grad_z\n3,9,1\n")
    code, _, err = run("check", "x**2", "--points", str(path))
    assert code == 2 and "column 'grad_z'" in err and "no variable 'z'" in err
    path.write_text("x,value\n3,9\n")
    code, _, err = run("check", "x**2", "--points", str(path), "--value", "9")
    assert code == 2 and "both on the command line and as column 'value'" in err
    path.write_text("x,value,f\n3,9,9\n")
    code, _, err = run("check", "x**2", "--points", str(path))
    assert code == 2 and "both answer the value" in err
    path.write_text("x\n3\n")
    code, _, err = run("check", "x**2", "--points", str(path))
    assert code == 2 and "nothing to check" in err
    code, _, err = run("check", "x**2", "--points", str(path), "--value", "nine")
    assert code == 2
    assert run("check", "x**2", "--points", str(tmp_path / "missing.csv"), "--value", "9")[0] == 2
    code, _, err = run("check", "z = 2*x; z**2", "--points", str(path), "--grad", "z=3")
    assert code == 2 and "'z' is defined by the program" in err


def test_check_points_library_chunks(tmp_path):
    data = b"x,grad_x\n" + b"".join(b"%d,%d\n" % (i, 2 * i + (i == 7)) for i in range(20))
    job = check_points("x**2", io.BytesIO(data), chunk_rows=6)
    oks = np.concatenate([c.ok[0] for c in job])
    assert oks.tolist() == [i != 7 for i in range(20)]
    (answer,) = job.answers
    assert (answer.right, answer.wrong, answer.wrong_rows) == (19, 1, [8])
    assert answer.first_wrong == (8, 15.0, 14.0)
    assert job.exit_code == 1


def test_readme_check_points_example_is_real(tmp_path, monkeypatch):
    page = (Path(SRC).parent / "docs" / "check.md").read_text(encoding="utf-8")
    section = page[page.index("## Many points: `gradcli check --points FILE`"):]
    section = section[:section.index("\n## ", 5)]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hw.csv").write_text("w,x,value,grad_w\n3,2,49,28\n1,1,4,5\n0.5,2,4,8\n")
    assert "$ cat hw.csv\n" + (tmp_path / "hw.csv").read_text() in section
    code, out, _ = run("check", "(w*x+b)**2", "--at", "b=1", "--points", "hw.csv",
                       "--derivative", "2*x*(w*x+b)", "--wrt", "w", "-o", "plain")
    assert code == 1 and out in section
    code, csv_out, _ = run("eval", "x**2*y", "--points", "-", "-o", "csv",
                           input="x,y\n1,2\n-1,0.5\n0,3\n")
    code, out, _ = run("check", "x**2*y", "--points", "-", "-o", "plain", input=csv_out)
    assert code == 0 and out.splitlines()[-1] + "\n" in section


@pytest.mark.parametrize("command", ["eval", "diff"])
def test_a_file_with_a_header_and_no_rows_says_so(tmp_path, command):
    path = write_points(tmp_path / "p.csv", ["x", "y"], [])
    header = "x,y,f,df/dx,df/dy\n" if command == "eval" else "x,y,df/dx,df/dy\n"
    for fmt, out in (("csv", header), ("json", "")):
        code, stdout, stderr = run(command, "x*y", "--points", path, "-o", fmt)
        assert (code, stdout) == (0, out)
        assert stderr == f"warning: --points: {path} has no rows of points\n"


def test_check_of_a_file_with_no_rows_is_not_a_pass(tmp_path):
    path = write_points(tmp_path / "p.csv", ["x"], [])
    args = ("check", "x**2", "--points", path, "--derivative", "2*x", "--wrt", "x")
    code, stdout, stderr = run(*args, "-o", "json")
    assert code == 2
    assert json.loads(stdout.splitlines()[-1])["summary"]["ok"] is False
    assert "has no rows of points, so nothing was checked" in stderr
    code, stdout, _ = run(*args, "-o", "plain")
    assert code == 2 and stdout.splitlines()[-1] == "# nothing checked: there are no rows"


def test_a_points_request_in_a_format_for_one_point_is_refused():
    # eval --points - -o markdown used to print headerless rows with exit 0
    for command in (["eval", "x^2"], ["diff", "x^2"], ["check", "x^2", "--value", "1"]):
        r = CliRunner().invoke(main, [*command, "--points", "-", "-o", "markdown"],
                               input="x\n1\n")
        assert r.exit_code == 2 and "with --points use" in r.output, (command, r.output)
