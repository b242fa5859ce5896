"""The text of batch output: whole columns formatted at once must print exactly what the
row-by-row writers print (repr's shortest round-trip text, dumps() for JSON Lines), and
the progress bar shows only on a terminal (or when asked for)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from gradcli.tasks import batch
from gradcli.cli import main
from gradcli import columntext, shortest
from gradcli.data import sources
from gradcli.output import batchtext, formats

SRC = str(Path(__file__).resolve().parent.parent / "src")


def run(*args, env=None):
    result = CliRunner().invoke(main, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def reprs(values, point_zero):
    out = []
    for v in values.tolist():
        t = repr(v)
        out.append(t[:-2] if not point_zero and t.endswith(".0") else t)
    return out


def awkward(rng, n):
    """Values that test every branch: random bit patterns, each decimal exponent, short
    decimals, whole numbers, powers of two and ten and their neighbours, signed zeros."""
    bits = rng.integers(0, 2 ** 64, size=n, dtype=np.uint64).view(np.float64)
    spread = 10 ** rng.uniform(-6, 18, size=n) * rng.choice((-1, 1), size=n)
    short = np.round(rng.normal(size=n) * 10 ** rng.integers(0, 12, size=n)) \
        / 10 ** rng.integers(0, 12, size=n)
    p10 = np.array([10.0 ** k for k in range(-8, 20)])
    p2 = np.ldexp(1.0, np.arange(-30, 70))
    edges = np.concatenate([p10, p2, np.nextafter(p10, 0), np.nextafter(p10, np.inf),
                            np.nextafter(p2, 0), np.nextafter(p2, np.inf)])
    special = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 5e-324, -2.2250738585072014e-308,
                        1.7976931348623157e308, 0.1, 0.2, 0.30000000000000004, 1 / 3,
                        9999999999999998.0, 1e16, 0.0001, 9.999999999999999e-05, -0.0])
    return np.concatenate([bits, spread, short, edges, -edges, special,
                           np.arange(-300, 300, dtype=float)])


@pytest.mark.parametrize("point_zero", [False, True])
def test_whole_columns_print_what_repr_prints(point_zero):
    values = awkward(np.random.default_rng(5), 40_000)
    text = shortest.lines([values], ["", "\n"], [point_zero]).decode()
    assert text.split("\n")[:-1] == reprs(values, point_zero)


def test_fragments_and_columns_interleave_row_by_row():
    rng = np.random.default_rng(6)
    cols = [awkward(rng, 3000) for _ in range(3)]
    n = min(len(c) for c in cols)
    cols = [rng.permutation(c[:n]) for c in cols]
    nan = {"nan": '"nan"', "inf": '"inf"', "-inf": '"-inf"'}
    text = shortest.lines(cols, ["<", ";", "|", ">\n"], [False, True, True],
                          [None, nan, nan]).decode()
    a, b, c = reprs(cols[0], False), reprs(cols[1], True), reprs(cols[2], True)
    b = [nan.get(t, t) for t in b]
    c = [nan.get(t, t) for t in c]
    assert text == "".join(f"<{x};{y}|{z}>\n" for x, y, z in zip(a, b, c))


@pytest.fixture
def points(tmp_path):
    """A file whose rows give long, short, whole, negative-zero, undefined and unreadable
    results, over more than one chunk."""
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.normal(size=300), [0.0, -0.0, 1.0, 2.5, -1.0, 4.0]])
    y = np.concatenate([rng.normal(size=300) * 1e-3, [1.0, -0.0, 0.0, 3.0, 2.0, 0.5]])
    lines = ["x,y"] + [f"{a!r},{b!r}" for a, b in zip(x.tolist(), y.tolist())]
    lines[5] = "abc,1"  # row 5 cannot be read
    path = tmp_path / "p.csv"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


EXPR = "ln(x)*y + x**2"


@pytest.mark.parametrize("fmt, sep", [("csv", ","), ("plain", "\t")])
def test_eval_points_delimited_text_is_the_row_by_row_text(points, fmt, sep):
    code, out, err = run("eval", EXPR, "--points", points, "--chunk", "64", "-o", fmt)
    assert code == 2  # a row could not be read
    job = batch.run(batch.points_program(EXPR, points), points, chunk_rows=64)
    want = columntext.batch_header(columntext.batch_keys(job), sep) + "".join(
        columntext.batch_delimited(batchtext.batch_table(job, chunk, result), None, sep)
        for chunk, result in job)
    assert out == want
    assert "nan" in out
    for line in out.splitlines()[1:]:
        for field in line.split(sep):
            value = float(field)
            assert field == reprs(np.array([value]), False)[0]


def test_eval_points_json_lines_are_what_dumps_prints(points):
    code, out, err = run("eval", EXPR, "--points", points, "--chunk", "64", "-o", "json")
    assert code == 2
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 306
    assert [r["row"] for r in records] == list(range(1, 307))
    assert "error" in records[4] and records[4]["value"] == "nan"
    for line, record in zip(out.splitlines(), records):
        assert formats.dumps(record) == line
    code, csv_out, _ = run("eval", EXPR, "--points", points, "--chunk", "64", "-o", "csv")
    for record, row in zip(records, csv_out.splitlines()[1:]):
        fields = [float(f) for f in row.split(",")]
        numbers = [record["at"]["x"], record["at"]["y"], record["value"],
                   record["gradient"]["x"], record["gradient"]["y"]]
        assert np.array_equal(np.array([float(v) for v in numbers]), np.array(fields),
                              equal_nan=True)


def test_diff_points_json_lines_are_what_dumps_prints(points):
    code, out, err = run("diff", EXPR, "--points", points, "--order", "2", "--chunk", "50",
                         "-o", "json")
    assert code == 2
    for line in out.splitlines():
        assert formats.dumps(json.loads(line)) == line
    assert list(json.loads(out.splitlines()[0])["values"]) == ["x,x", "x,y", "y,y"]


def test_no_progress_bar_on_a_pipe_and_no_rich(points):
    env = dict(os.environ, PYTHONPATH=SRC)
    env.pop("GRADCLI_PROGRESS", None)
    code = ("import runpy, sys; sys.argv = ['gradcli', 'eval', %r, '--points', %r, "
            "'-o', 'csv']\ntry:\n    runpy.run_module('gradcli', run_name='__main__')\n"
            "except SystemExit:\n    pass\nsys.stderr.write('rich loaded: %%s' %% "
            "('rich' in sys.modules))" % (EXPR, points))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.stdout.startswith("x,y,f,")
    assert "\r" not in done.stderr and "%" not in done.stderr
    assert done.stderr.endswith("rich loaded: False")


def test_progress_bar_when_forced(points):
    code, plain_out, plain_err = run("eval", EXPR, "--points", points, "-o", "csv")
    code2, out, err = run("eval", EXPR, "--points", points, "-o", "csv",
                          env={"GRADCLI_PROGRESS": "1"})
    assert (code2, out) == (code, plain_out)  # the bar changes nothing on stdout
    assert "100%" in err and os.path.basename(points) in err
    _, _, off = run("eval", EXPR, "--points", points, "-o", "csv",
                    env={"GRADCLI_PROGRESS": "0"})
    assert off == plain_err


def chunks_of(path, chunk_rows=4):
    reader = sources.read_points(path, chunk_rows)
    out = [(c.first_row, c.n, {k: [repr(x) for x in v.tolist()] for k, v in c.columns.items()},
            c.invalid.tolist(), c.problems) for c in reader]
    reader.close()
    return reader.names, out


@pytest.mark.parametrize("block", [1, 2, 3, 7, 64])
def test_reading_in_blocks_gives_the_rows_of_reading_whole(tmp_path, monkeypatch, block):
    text = ('\ufeffx,"y"\r\n1,2\r\n\r\n3.5,-0\r4,"5"\n"6",7\n\n8,abc\r\n9,10,11\n'
            '1e3,2e-3\r\n-7,8')
    path = tmp_path / "p.csv"
    path.write_text(text, encoding="utf-8", newline="")
    whole = chunks_of(str(path))
    monkeypatch.setattr(sources, "READ_CHARS", block)
    assert chunks_of(str(path)) == whole
    assert whole[1][0][2]["x"][0] == "1.0" and sum(c[1] for c in whole[1]) == 8


def test_a_line_over_the_row_limit_is_named_in_any_block(tmp_path, monkeypatch):
    from gradcli import limits
    from gradcli.errors import GradcliError
    monkeypatch.setattr(limits, "MAX_ROW_CHARS", 20)
    path = tmp_path / "p.csv"
    path.write_text("x,y\n1,2\n3,4\n" + "5," + "6" * 30 + "\n7,8\n")
    for block in (5, 1 << 20):
        monkeypatch.setattr(sources, "READ_CHARS", block)
        with pytest.raises(GradcliError, match="line 4 is longer than"):
            chunks_of(str(path))


def test_array_sigmoid_and_powers_keep_their_bits_and_their_checks():
    from gradcli.autodiff.backends import numpy_backend
    from gradcli.data.evaluate import evaluate_arrays

    x = np.concatenate([np.linspace(-800, 800, 2001), [0.0, -0.0, np.inf, -np.inf]])
    with np.errstate(over="ignore"):
        want = 1.0 / (1.0 + np.exp(-x))
    assert np.array_equal(numpy_backend().sigmoid(x), want)
    pts = np.array([-2.0, -0.5, 0.0, 0.5, 3.0])
    for text, rows in (("x**2", []), ("x**3", []), ("x**2.5", [1, 2]), ("x**-1", [3])):
        r = evaluate_arrays(text, {"x": pts})
        assert sorted(row for row, _ in r.problems) == rows, text
        ok = ~r.undefined
        y = float(text.split("**")[1])
        assert np.array_equal(r.value[ok], pts[ok] ** y)
        assert np.array_equal(r.gradient["x"][ok], y * pts[ok] ** (y - 1))
    messages = " ".join(m for _, m in evaluate_arrays("x**-1", {"x": pts}).problems)
    assert "zero cannot be raised to a negative power" in messages
    assert any("x**0.5 at x = 0" in k for k in evaluate_arrays("x**0.5", {"x": pts[2:]}).kinks)
