"""Columnar data (docs/data.md): Parquet and Arrow IPC points, --output files written whole or
not at all, CSV through pyarrow with the text writer's bytes, gradcli.compile on DataFrames
and on Dask, descend --data in every format, and --at @FILE."""
import io
import os
import pickle
import stat
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from gradcli import columntext, shortest
from gradcli.cli import main
from gradcli.data import sources

import pyarrow as pa
import pyarrow.parquet as pq
import pyarrow.feather as feather  # noqa: E402

from gradcli.data import textlines  # noqa: E402

SRC = str(Path(__file__).resolve().parent.parent / "src")
NEURON = "(sigmoid(w1*x1 + w2*x2 + b) - y)**2"
AT = "w1=0.5,w2=-0.3,b=0.1"


def run(*args, input=None):
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def neuron_table(n, seed=0):
    rng = np.random.default_rng(seed)
    x1, x2 = rng.normal(size=(2, n))
    y = (rng.random(n) < 0.5).astype(float)
    return pa.table({"x1": x1, "x2": x2, "y": y})


def write_csv(table, path):
    cols = [table.column(i).to_numpy() for i in range(table.num_columns)]
    path.write_bytes(columntext.batch_header(table.column_names).encode()
                     + shortest.lines(cols, [""] + [","] * (len(cols) - 1) + ["\n"]))


FIXTURE = ["p.arrow", "p.csv", "p.feather", "p.parquet"]


@pytest.fixture
def files(tmp_path):
    table = neuron_table(300)
    out = {"csv": tmp_path / "p.csv", "parquet": tmp_path / "p.parquet",
           "arrow": tmp_path / "p.arrow", "feather": tmp_path / "p.feather"}
    write_csv(table, out["csv"])
    pq.write_table(table, out["parquet"], row_group_size=64)
    with pa.ipc.new_file(str(out["arrow"]), table.schema) as w:
        for batch in table.to_batches(max_chunksize=50):
            w.write_batch(batch)
    feather.write_feather(table, out["feather"])
    return out


# ---------------------------------------------------------------- reading

@pytest.mark.parametrize("kind", ["parquet", "arrow", "feather"])
@pytest.mark.parametrize("fmt", ["csv", "json", "plain"])
def test_columnar_points_print_what_the_csv_file_prints(files, kind, fmt):
    expected = run("eval", NEURON, "--at", AT, "--points", str(files["csv"]), "-o", fmt)
    got = run("eval", NEURON, "--at", AT, "--points", str(files[kind]), "-o", fmt,
              "--chunk", "37")
    assert expected[0] == got[0] == 0
    assert got[1] == expected[1]


def test_diff_and_check_read_parquet(files):
    for cmd in (["diff", "x1**2*y", "--points"], ["check", "x1*y", "--grad", "x1=y",
                                                   "--points"]):
        a = run(*cmd, str(files["csv"]), "-o", "json")
        b = run(*cmd, str(files["parquet"]), "-o", "json")
        assert a[0] == b[0] and a[1] == b[1]


def test_large_csv_through_pyarrow_is_the_text_reader(tmp_path, monkeypatch):
    table = neuron_table(5000, seed=3)
    path = tmp_path / "big.csv"
    write_csv(table, path)
    monkeypatch.setattr(sources, "has_pyarrow", lambda: False)
    text = run("eval", NEURON, "--at", AT, "--points", str(path), "-o", "csv", "--chunk", "999")
    monkeypatch.setattr(sources, "has_pyarrow", lambda: True)
    monkeypatch.setattr(sources, "FAST_CSV_BYTES", 0)
    assert isinstance(sources.read_points(str(path)), sources.CsvReader)
    fast = run("eval", NEURON, "--at", AT, "--points", str(path), "-o", "csv", "--chunk", "999")
    assert text == fast and text[0] == 0


@pytest.mark.parametrize("bad", ["1_000", "abc", "", "1,2,3,4"])
def test_a_row_pyarrow_refuses_gets_the_text_readers_message(tmp_path, monkeypatch, bad):
    lines = ["x1,x2,y"] + [f"{i / 7},{-i / 3},1" for i in range(3000)]
    lines[2500] = f"{bad},0.5,1" if bad != "1,2,3,4" else bad
    path = tmp_path / "bad.csv"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(sources, "has_pyarrow", lambda: False)
    text = run("eval", NEURON, "--at", AT, "--points", str(path), "-o", "csv", "--chunk", "700")
    monkeypatch.setattr(sources, "has_pyarrow", lambda: True)
    monkeypatch.setattr(sources, "FAST_CSV_BYTES", 0)
    fast = run("eval", NEURON, "--at", AT, "--points", str(path), "-o", "csv", "--chunk", "700")
    assert fast == text
    assert fast[1].count("\n") == 3001
    if bad != "1_000":  # Python's float reads 1_000; pyarrow does not, the text reader does
        assert fast[0] == 2 and "row 2500" in fast[2]


def test_truncated_parquet_is_exit_2_and_writes_nothing(files, tmp_path):
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(files["parquet"].read_bytes()[:-100])
    out = tmp_path / "out.parquet"
    code, stdout, stderr = run("eval", NEURON, "--at", AT, "--points", str(cut),
                               "--output", str(out))
    assert code == 2 and "not a readable Parquet file" in stderr and "cut.parquet" in stderr
    assert "Traceback" not in stderr
    assert sorted(os.listdir(tmp_path)) == ["cut.parquet"] + FIXTURE


def test_damaged_data_pages_stop_the_run_and_keep_the_old_output(files, tmp_path):
    blob = bytearray(files["parquet"].read_bytes())
    for i in range(200, len(blob) // 2):  # data pages, not the footer
        blob[i] = 0xFF
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(bytes(blob))
    out = tmp_path / "out.arrow"
    out.write_bytes(b"an older result")
    code, _, stderr = run("eval", NEURON, "--at", AT, "--points", str(bad),
                          "--output", str(out))
    assert code == 2 and "bad.parquet" in stderr and "Traceback" not in stderr
    assert out.read_bytes() == b"an older result"
    assert sorted(os.listdir(tmp_path)) == ["bad.parquet", "out.arrow"] + FIXTURE


def test_a_column_of_text_is_exit_2_naming_it(tmp_path):
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"x1": [1.0, 2.0], "x2": ["a", "b"], "y": [0.0, 1.0]}), path)
    out = tmp_path / "o.parquet"
    code, _, stderr = run("eval", NEURON, "--at", AT, "--points", str(path),
                          "--output", str(out))
    assert code == 2 and "column 'x2'" in stderr and "not numbers" in stderr
    assert not out.exists() and os.listdir(tmp_path) == ["t.parquet"]


def test_a_missing_column_is_exit_2_naming_it(files, tmp_path):
    path = tmp_path / "m.arrow"
    feather.write_feather(pa.table({"x1": [1.0], "y": [0.0]}), path)
    code, _, stderr = run("eval", NEURON, "--at", AT, "--points", str(path),
                          "--output", str(tmp_path / "o.csv"))
    assert code == 2 and "no column 'x2'" in stderr
    assert sorted(os.listdir(tmp_path)) == ["m.arrow"] + FIXTURE


def test_integer_columns_are_numbers_and_nulls_are_unreadable_rows(tmp_path):
    path = tmp_path / "n.parquet"
    pq.write_table(pa.table({"x": pa.array([1, None, 3], pa.int64()),
                             "y": pa.array([1.5, 2.5, None])}), path)
    code, stdout, stderr = run("eval", "x*y", "--points", str(path), "-o", "csv")
    assert code == 2
    assert stdout.splitlines() == ["x,y,f,df/dx,df/dy", "1,1.5,1.5,1.5,1", "nan,2.5,nan,nan,nan",
                                   "3,nan,nan,nan,nan"]
    assert "row 2, column 'x': the value is missing" in stderr
    assert "row 3, column 'y': the value is missing" in stderr


def test_an_undefined_row_is_nan_with_its_row_and_exit_3(tmp_path):
    path = tmp_path / "u.parquet"
    pq.write_table(pa.table({"x": [1.0, -1.0, 4.0]}), path)
    out = tmp_path / "u_out.parquet"
    code, _, stderr = run("eval", "sqrt(x)", "--points", str(path), "--output", str(out))
    assert code == 3 and "row 2" in stderr
    got = pq.read_table(out).to_pydict()
    assert got["f"][0] == 1.0 and np.isnan(got["f"][1]) and got["f"][2] == 2.0


# ---------------------------------------------------------------- writing

@pytest.mark.parametrize("suffix", [".parquet", ".arrow", ".csv"])
def test_output_files_hold_the_columns_of_csv_output(files, tmp_path, suffix):
    code, csv_text, _ = run("eval", NEURON, "--at", AT, "--points", str(files["parquet"]),
                            "-o", "csv")
    out = tmp_path / f"out{suffix}"
    code, stdout, stderr = run("eval", NEURON, "--at", AT, "--points", str(files["parquet"]),
                               "--output", str(out), "--chunk", "64")
    assert code == 0 and stdout == ""
    assert f"wrote {out}" in stderr and "300 rows" in stderr
    if suffix == ".csv":
        assert out.read_text() == csv_text
        return
    table = pq.read_table(out) if suffix == ".parquet" else feather.read_table(out)
    header = csv_text.splitlines()[0].split(",")
    assert table.column_names == header
    expected = np.loadtxt(io.StringIO(csv_text), delimiter=",", skiprows=1)
    np.testing.assert_array_equal(np.column_stack([c.to_numpy() for c in table.columns]),
                                  expected)


def test_diff_points_output(files, tmp_path):
    out = tmp_path / "d.parquet"
    code, _, _ = run("diff", "x1**2*y", "--order", "2", "--points", str(files["csv"]),
                     "--output", str(out))
    assert code == 0
    assert pq.read_table(out).column_names == ["x1", "y", "d2f/dx12", "d2f/dx1dy", "d2f/dy2"]


@pytest.mark.skipif(os.name != "posix", reason="file modes and the umask are POSIX")
def test_an_output_file_has_a_new_files_permissions_and_the_umask_is_left_alone(
        files, tmp_path, monkeypatch):
    # The temporary file is created with mode 0o666 and the kernel takes the umask off;
    # gradcli never sets the umask, which belongs to the whole process (threads race on it).
    old = os.umask(0o027)
    try:
        monkeypatch.setattr(os, "umask", lambda *_: pytest.fail("os.umask was called"))
        for name in ("o.csv", "o.parquet"):
            out = tmp_path / name
            code, _, stderr = run("eval", NEURON, "--at", AT, "--points", str(files["csv"]),
                                  "--output", str(out))
            assert code == 0, stderr
            assert stat.S_IMODE(out.stat().st_mode) == 0o640
    finally:
        monkeypatch.undo()
        os.umask(old)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.csv", "o.parquet"] + FIXTURE


@pytest.mark.parametrize("args, words", [
    (["--at", "x=1", "--output", "o.parquet"], "needs --points"),
    (["--points", "p.csv", "--output", "o.txt"], "must end in .parquet"),
    (["--points", "p.csv", "--output", "o.csv", "-o", "json"], "ask for different formats"),
    (["--points", "p.csv", "--output", "o.parquet", "--precision", "3"], "keeps every double"),
    (["--points", "p.csv", "--output", "o.arrow", "--precision", "3"], "keeps every double"),
])
def test_output_usage_errors(files, args, words, monkeypatch):
    monkeypatch.chdir(files["csv"].parent)
    code, _, stderr = run("eval", "x1*y", *args)
    assert code == 2 and words in stderr
    assert not any(p.name.startswith("o.") for p in files["csv"].parent.iterdir())


@pytest.mark.parametrize("cmd", [["eval", NEURON, "--at", AT], ["diff", "x1**2*y"]])
def test_precision_rounds_a_csv_file_as_it_rounds_stdout(files, tmp_path, cmd):
    out = tmp_path / "r.csv"
    code, printed, _ = run(*cmd, "--points", str(files["csv"]), "-o", "csv", "--precision", "4")
    assert code == 0
    assert run(*cmd, "--points", str(files["csv"]), "--output", str(out), "--precision",
               "4")[0] == 0
    assert out.read_text() == printed and "0.1257," in printed


def test_without_the_extra_parquet_names_the_extra(files, tmp_path):
    code = ("import sys\nsys.modules['pyarrow'] = None\nsys.argv = ['gradcli'] + sys.argv[1:]\n"
            "from gradcli.launch import run\nrun()\n")
    for args in (["--points", str(files["parquet"]), "-o", "csv"],
                 ["--points", str(files["csv"]), "--output", str(tmp_path / "o.parquet")]):
        r = subprocess.run([sys.executable, "-c", code, "eval", NEURON, "--at", AT, *args],
                           capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, PYTHONPATH=SRC))
        assert r.returncode == 2, r.stderr
        assert "pip install 'gradcli[data]'" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "o.parquet").exists()
    # CSV needs no extra: the text reader and writer.
    r = subprocess.run([sys.executable, "-c", code, "eval", NEURON, "--at", AT, "--points",
                        str(files["csv"]), "--output", str(tmp_path / "o.csv")],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=SRC))
    assert r.returncode == 0 and (tmp_path / "o.csv").read_text().count("\n") == 301


# ---------------------------------------------------------------- CSV text

HARD = [5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, 1e16, -1e16,
        1e15, 9.999999999999998e14, 1e-4, 9.9999e-5, 1e-5, 0.1, 0.3, -0.0, 0.0, 28.0, 100.0,
        1e22, 1e23, 123456789012345.6, 1 / 3, 2.0 ** 53, 1.7976931348623157e308,
        131439629882.54477, float("nan"), -float("nan"), float("inf"), -float("inf")]


def csv_lines(cols, sep=","):
    return [""] + [sep] * (len(cols) - 1) + ["\n"]


def jsonl_lines(cols):
    # The shape of eval --points -o json: {"row": R, "at": {"x": X, ...}, "value": V, ...}
    names = [f'"c{i}": ' for i in range(len(cols) - 1)]
    return ['{"row": ', ', "at": {' + names[0]] + [", " + m for m in names[1:]] + ["}}\n"]


NAN_TEXTS = {"nan": '"nan"', "inf": '"inf"', "-inf": '"-inf"'}


def same_as_the_text_writer(cols):
    """textlines and shortest write the same bytes: CSV, tab-separated and JSON Lines."""
    for sep in (",", "\t"):
        assert textlines.lines(cols, csv_lines(cols, sep)) == \
            shortest.lines(cols, csv_lines(cols, sep))
    rows = [np.arange(1, len(cols[0]) + 1, dtype=float)] + list(cols)
    args = (jsonl_lines(rows), [False] + [True] * len(cols), [{}] + [NAN_TEXTS] * len(cols))
    assert textlines.lines(rows, *args) == shortest.lines(rows, *args)


def test_fast_text_is_the_text_writers_bytes_on_hard_values_and_random_bits():
    rng = np.random.default_rng(27)
    bits = rng.integers(0, 2 ** 64, size=5000, dtype=np.uint64).view(np.float64)
    spread = rng.normal(size=5000) * 10.0 ** rng.integers(-30, 30, size=5000)
    hard = np.array(HARD)
    for values in (hard, bits, spread, np.round(spread, 3)):
        same_as_the_text_writer([values, values[::-1].copy(), np.abs(values)])
    rows = columntext.batch_delimited([[v] for v in HARD]).encode()
    assert textlines.lines([hard], csv_lines([hard])) == rows
    assert textlines.lines([hard], csv_lines([hard])).split(b"\n")[:4] == [
        b"5e-324", b"-5e-324", b"2.2250738585072014e-308", b"2.225073858507201e-308"]


def test_fast_text_mends_every_cell_orjson_writes_otherwise():
    # Columns where most cells are tiny, huge, whole, nan or infinite (each mended or
    # written by repr), beside ordinary numbers, in every column position.
    rng = np.random.default_rng(31)
    n = 5000
    tiny = rng.normal(size=n) * 10.0 ** rng.uniform(-9, -4, size=n)
    huge = rng.normal(size=n) * 10.0 ** rng.uniform(15, 300, size=n)
    whole = np.round(rng.normal(size=n) * 1e3)
    odd = np.where(rng.random(n) < 0.3, np.nan, np.where(rng.random(n) < 0.5, np.inf, -np.inf))
    plain = rng.normal(size=n)
    mixed = np.where(rng.random(n) < 0.5, tiny, plain)
    for cols in ([tiny, huge, whole, odd, plain, mixed], [mixed], [odd, tiny],
                 [plain, np.round(tiny, 8)], [whole]):
        same_as_the_text_writer(cols)
    buffer = io.BytesIO()
    textlines.write(buffer, [tiny, plain], csv_lines([tiny, plain]))
    assert buffer.getvalue() == shortest.lines([tiny, plain], ["", ",", "\n"])
    # A fragment that is empty leaves no character to end a value with: the text writer.
    assert textlines.lines([plain, whole], ["<", "", ">\n"]) == \
        shortest.lines([plain, whole], ["<", "", ">\n"])


def test_an_orjson_that_writes_otherwise_is_not_trusted(monkeypatch):
    # An orjson whose numbers differ from repr on the probes (orjson before 3.12 writes
    # 1e16, not 1e+16; a future one might write 0.1 otherwise) is not used.
    import orjson
    cols = [np.array([0.1, 28.0, 1e16, 1e-05, np.nan]), np.array([1.0, 2.5, -0.0, 3.0, 4.0])]
    expected = shortest.lines(cols, ["", ",", "\n"])

    class Other:
        OPT_SERIALIZE_NUMPY = orjson.OPT_SERIALIZE_NUMPY

        @staticmethod
        def dumps(value, option=None):
            return orjson.dumps(value, option=option).replace(b"0.1", b"0.10")

    monkeypatch.setattr(textlines, "_TRUSTED", {})
    assert textlines._trusted(Other) is False
    assert textlines._trusted(orjson) is False  # decided once per process
    assert textlines.lines(cols, ["", ",", "\n"]) == expected
    monkeypatch.setattr(textlines, "_TRUSTED", {})
    assert textlines._trusted(orjson) is True
    assert textlines.lines(cols, ["", ",", "\n"]) == expected


def test_csv_without_orjson_is_the_same_file(files, tmp_path):
    code = ("import sys\nsys.modules['orjson'] = None\nsys.argv = ['gradcli'] + sys.argv[1:]\n"
            "from gradcli.launch import run\nrun()\n")
    runs = {}
    for name, prefix in (("with", []), ("without", [sys.executable, "-c", code])):
        out = tmp_path / f"{name}.csv"
        cmd = prefix or [sys.executable, "-m", "gradcli"]
        r = subprocess.run([*cmd, "eval", NEURON, "--at", AT, "--points", str(files["csv"]),
                            "--output", str(out)], capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, PYTHONPATH=SRC))
        assert r.returncode == 0, r.stderr
        runs[name] = out.read_bytes()
    assert runs["with"] == runs["without"] and runs["with"].count(b"\n") == 301


@pytest.mark.parametrize("src,dst", [("parquet", "o.parquet"), ("csv", "o.csv"),
                                     ("arrow", "o.arrow"), ("parquet", "o.csv")])
def test_the_command_does_not_load_pandas(files, tmp_path, src, dst):
    # pyarrow's converters import pandas (a fifth of a second) unless the arrays are made
    # from their buffers; the CSV counts as large, for pyarrow's reader.
    code = ("import sys\nimport gradcli.data.sources\ngradcli.data.sources.FAST_CSV_BYTES = 0\n"
            "sys.argv = ['gradcli'] + sys.argv[1:]\nfrom gradcli.cli import main\n"
            "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\n"
            "print('pandas' in sys.modules, 'pyarrow' in sys.modules, code)\n")
    r = subprocess.run([sys.executable, "-c", code, "eval", NEURON, "--at", AT, "--points",
                        str(files[src]), "--output", str(tmp_path / dst)],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=SRC))
    assert r.stdout.split() == ["False", "True", "0"], r.stderr


@pytest.mark.parametrize("cmd", [["eval", NEURON, "--at", AT], ["diff", "x1**2*y"],
                                 ["eval", "log(x1)", "--wrt", "x1"]])
@pytest.mark.parametrize("fmt", ["csv", "json", "plain"])
def test_stdout_through_the_fast_writer_is_the_same_text(files, monkeypatch, cmd, fmt):
    # log(x1) is undefined on half the rows: nan cells, and JSON records with an error.
    expected = run(*cmd, "--points", str(files["csv"]), "-o", fmt)
    monkeypatch.setattr(textlines, "FAST_TEXT_ROWS", 1)
    assert run(*cmd, "--points", str(files["csv"]), "-o", fmt) == expected


# ---------------------------------------------------------------- compile

import pandas as pd  # noqa: E402
# pandas before 3 rounds the last digit of some doubles unless asked not to; pandas 3
# reads them exactly and deprecates the option.
EXACT_CSV = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}


def cli_frame(files, *at):
    _, text, _ = run("eval", NEURON, *at, "--points", str(files["csv"]), "-o", "csv")
    return pd.read_csv(io.StringIO(text), dtype=float, **EXACT_CSV)


def test_compile_gives_the_columns_and_numbers_of_csv_output(files):
    import gradcli
    f = gradcli.compile(NEURON, w1=0.5, w2=-0.3, b="1/10")
    frame = pd.read_csv(files["csv"], dtype=float, **EXACT_CSV)
    got = f(frame)
    expected = cli_frame(files, "--at", AT)
    assert list(got.columns) == list(expected.columns) == f.columns(frame.columns)
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    as_dict = f({name: frame[name].to_numpy() for name in frame.columns})
    pd.testing.assert_frame_equal(as_dict, expected, check_exact=True)
    # What Dask is told to expect (map_partitions(f, meta=...)): no rows, the same columns.
    meta = f.meta(frame.columns)
    assert len(meta) == 0 and list(meta.columns) == list(expected.columns)
    assert set(meta.dtypes) == {np.dtype(float)}
    pd.testing.assert_frame_equal(meta, f(frame.iloc[:0]).reset_index(drop=True),
                                  check_index_type=False)


def test_compile_takes_inputs_from_columns_and_keeps_the_index():
    import gradcli
    frame = pd.DataFrame({"x": [2.0, 1.0], "b": [1.0, 2.0]}, index=[10, 20])
    got = gradcli.compile("(w*x+b)**2", w=3)(frame)
    assert list(got.columns) == ["x", "b", "f", "df/dw", "df/dx", "df/db"]
    assert list(got.index) == [10, 20]
    assert got.loc[10].tolist() == [2.0, 1.0, 49.0, 28.0, 42.0, 14.0]


def test_compile_pickles_and_warns_on_undefined_rows():
    import gradcli
    f = pickle.loads(pickle.dumps(gradcli.compile("sqrt(x) + a", a=1)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = f(pd.DataFrame({"x": [4.0, -1.0]}))
    assert got["f"].iloc[0] == 3.0 and np.isnan(got["f"].iloc[1])
    assert any("row 2" in str(w.message) for w in caught)


def test_compile_errors_name_the_input():
    import gradcli
    from gradcli.errors import UsageError
    f = gradcli.compile("(w*x+b)**2", w=3)
    with pytest.raises(UsageError, match="no column 'b'"):
        f(pd.DataFrame({"x": [1.0]}))
    with pytest.raises(UsageError, match="'w' is both a column"):
        f(pd.DataFrame({"x": [1.0], "b": [1.0], "w": [1.0]}))
    with pytest.raises(UsageError, match="would combine the rows"):
        gradcli.compile("sum(x)")


@pytest.mark.parametrize("scheduler", ["synchronous", "threads", "processes"])
def test_compile_on_dask_partitions_equals_one_process(files, scheduler):
    import dask.dataframe as dd
    import gradcli
    frame = pd.read_csv(files["csv"], **EXACT_CSV)
    f = gradcli.compile(NEURON, w1=0.5, w2=-0.3, b=0.1)
    single = f(frame)
    parts = dd.from_pandas(frame, npartitions=4).map_partitions(f)
    got = parts.compute(scheduler=scheduler)
    pd.testing.assert_frame_equal(got, single, check_exact=True)


# ---------------------------------------------------------------- descend --data

def test_descend_trains_the_same_on_every_format(files):
    loss = "mean((sigmoid(w1*x1 + w2*x2 + b) - y)**2)"
    outs = [run("descend", loss, "--data", str(files[k]), "--at", "w1=0,w2=0,b=0", "--lr",
                "0.5", "--steps", "15", "-o", "plain") for k in ("csv", "parquet", "arrow")]
    assert outs[0][0] == 0
    assert outs[0][1] == outs[1][1] == outs[2][1]


def test_descend_data_truncated_parquet_is_exit_2(files, tmp_path):
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(files["parquet"].read_bytes()[:50])
    code, _, stderr = run("descend", "mean((w*x1 - y)**2)", "--data", str(cut), "--at", "w=0",
                          "--lr", "0.1", "--steps", "2")
    assert code == 2 and stderr.startswith("error: --data: ") and "Parquet" in stderr


# ---------------------------------------------------------------- --at @FILE

def test_at_file_binds_like_at(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("# the weights\nw=3, x=2\n\nv=[1,\n 2]\n")
    code, stdout, _ = run("eval", "(w*x+b)**2 + sum(v)", "--at", f"@{path}", "--at", "b=1",
                          "-o", "plain")
    assert code == 0 and stdout.startswith("f\t52\ndf/dw\t28\n")


def test_at_stdin_and_the_errors_of_at(tmp_path):
    assert run("eval", "w*x", "--at", "w=3", "--at", "@-", "-o", "plain",
               input="x=2\n")[1].startswith("f\t6\n")
    path = tmp_path / "b.txt"
    path.write_text("w=3\nx=2\nw=4\n")
    code, _, stderr = run("eval", "w*x", "--at", f"@{path}")
    assert code == 2 and "--at binds 'w' twice" in stderr
    path.write_text("w=3\nx=hello\n")
    code, _, stderr = run("eval", "w*x", "--at", f"@{path}")
    assert code == 2 and "--at x" in stderr
    code, _, stderr = run("eval", "w*x", "--at", f"@{tmp_path / 'none.txt'}")
    assert code == 2 and "cannot read" in stderr
    code, _, stderr = run("eval", "w*x", "--at", "w=1", "--at", f"@{path}")
    assert code == 2


def test_at_file_holds_more_bindings_than_a_command_line(tmp_path):
    n = 20000
    (tmp_path / "b.txt").write_text("\n".join(f"x{i}={i}" for i in range(n)))
    (tmp_path / "e.txt").write_text(" + ".join(f"x{i}" for i in range(n)))
    r = subprocess.run([sys.executable, "-m", "gradcli", "eval", "-f", str(tmp_path / "e.txt"),
                        "--at", f"@{tmp_path / 'b.txt'}", "-o", "json", "--wrt", "x7"],
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=SRC))
    assert r.returncode == 0, r.stderr
    assert '"value": 199990000.0' in r.stdout and '"x7": 1.0' in r.stdout


# ---------------------------------------------------------------- docs/data.md

def test_the_dask_page_runs(tmp_path, monkeypatch):
    """docs/dask.md's runnable session (the process scheduler, as a cluster sends the
    function) runs as printed."""
    import doctest
    import re
    text = (Path(__file__).resolve().parent.parent / "docs" / "dask.md").read_text()
    monkeypatch.chdir(tmp_path)
    runnable = "\n".join(b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S)
                         if b.lstrip().startswith(">>>"))
    assert "map_partitions" in runnable and 'scheduler="processes"' in runnable
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(doctest.DocTestParser().get_doctest(runnable, {}, "dask.md", "dask.md", 0))
    assert runner.summarize(verbose=False).failed == 0


def test_the_data_page_shows_real_output(tmp_path, monkeypatch):
    """docs/data.md's python blocks run as one session, and its console blocks print what
    the page shows (in a folder where the python blocks made the files)."""
    import doctest
    import re
    import shlex
    text = (Path(__file__).resolve().parent.parent / "docs" / "data.md").read_text()
    monkeypatch.chdir(tmp_path)
    runnable = "\n".join(b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S)
                         if b.lstrip().startswith(">>>"))
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(doctest.DocTestParser().get_doctest(runnable, {}, "data.md", "data.md", 0))
    assert runner.summarize(verbose=False).failed == 0
    examples = 0
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        lines = block.splitlines()
        command, expected = lines[0], lines[1:]
        assert command.startswith("$ gradcli ")
        result = CliRunner().invoke(main, shlex.split(command[2:])[1:])
        assert result.output.splitlines() == expected
        examples += 1
    assert examples == 2
