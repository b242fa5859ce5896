"""The command line: exact output and exit codes per format, options, bad input, help."""
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from gradcli import __version__
from gradcli.cli import main

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
TEXTBOOK = ["eval", "(w*x+b)**2", "--at", "w=3,x=2,b=1"]


def run(*args, input=None, env=None):
    return CliRunner().invoke(main, list(args), input=input, env=env)


def proc(*args, input=None, env=None):
    full_env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    full_env.update(PYTHONPATH=SRC, **(env or {}))
    return subprocess.run([sys.executable, "-m", "gradcli", *args], input=input,
                          capture_output=True, text=True, env=full_env, timeout=60)


# ---------------------------------------------------------------- formats

def test_json():
    r = run(*TEXTBOOK, "-o", "json")
    assert r.exit_code == 0 and r.stderr == ""
    assert r.stdout == ('{"expression": "(w*x+b)**2", "read_as": "(w*x + b)**2", "at": {"w": 3.0, '
                        '"x": 2.0, "b": 1.0}, "value": 49.0, "gradient": {"w": 28.0, "x": 42.0, '
                        '"b": 14.0}}\n')



def test_plain():
    r = run(*TEXTBOOK, "-o", "plain")
    assert (r.exit_code, r.stdout) == (0, "f\t49\ndf/dw\t28\ndf/dx\t42\ndf/db\t14\n")


def test_plain_is_the_default_when_piped():
    assert run(*TEXTBOOK).stdout == run(*TEXTBOOK, "-o", "plain").stdout


def test_csv():
    r = run(*TEXTBOOK, "-o", "csv")
    assert r.stdout == "w,x,b,f,df/dw,df/dx,df/db\n3,2,1,49,28,42,14\n"


def test_table():
    r = run(*TEXTBOOK, "-o", "table")
    assert r.exit_code == 0
    assert r.stdout == ("read as (w*x + b)^2\nat      w = 3, x = 2, b = 1\n\n"
                        "       value\nf         49\n∂f/∂w     28\n∂f/∂x     42\n∂f/∂b     14\n")
    assert "\x1b[" not in r.stdout


def test_json_nan_and_inf_are_strings_and_warnings_are_listed():
    r = run("eval", "sqrt(x) + x**y", "--at", "x=0,y=2", "-o", "json")
    record = json.loads(r.stdout)
    assert record["gradient"] == {"x": "inf", "y": 0.0}
    assert record["warnings"][0].startswith("sqrt at 0")
    assert r.stderr.startswith("warning: sqrt at 0")


# Each command's -o: exactly the formats output/writers.py has a writer for, for the kinds
# of result the command prints (with what the command itself draws: plot's picture).
COMMAND_KINDS = {
    "eval": ("eval", "eval-direction", "eval-points"),
    "diff": ("diff", "steps", "diff-points", "chainrule"),
    "trace": ("trace",), "graph": ("graph",), "check": ("check", "check-points"),
    "tangent": ("tangent", "normal", "surface"), "taylor": ("taylor",), "critical": ("critical",),
    "implicit": ("implicit",), "functions": ("functions",), "descend": ("descend",),
    "plot": ("plot", "plot2d"), "newton": ("newton", "newton-roots"),
    "mvt": ("mvt",), "analyze": ("analyze",), "extrema": ("extrema", "extrema-region"),
}


def test_every_writer_in_the_registry_exists():
    import importlib
    from gradcli.output.writers import WRITERS
    for (kind, fmt), (path, how) in WRITERS.items():
        module, name = path.rsplit(".", 1)
        assert callable(getattr(importlib.import_module(f"gradcli.output.{module}"), name,
                                None)), (kind, fmt, path)


def test_each_commands_formats_are_its_writers():
    import click
    from gradcli.output.writers import WRITERS
    for command, kinds in COMMAND_KINDS.items():
        (option,) = [p for p in main.commands[command].params if p.name == "fmt"]
        assert isinstance(option.type, click.Choice)
        have = {fmt for kind, fmt in WRITERS if kind in kinds}
        own = {"plot"} if command == "plot" else set()
        assert set(option.type.choices) == have | own, command
    assert set(COMMAND_KINDS) == {c for c, cmd in main.commands.items()
                                  if any(p.name == "fmt" for p in cmd.params)}


@pytest.mark.parametrize("args", [
    ["critical", "x^2", "--over", "x=-1:1", "-o", "latex"],
    ["functions", "-o", "csv"],
    ["trace", "x", "--at", "x=1", "-o", "csv"],
    ["graph", "x", "--at", "x=1", "-o", "plain"],
])
def test_a_format_without_a_writer_is_refused_by_click(args):
    r = run(*args)
    assert r.exit_code == 2
    assert f"Invalid value for '-o' / '--format': '{args[-1]}' is not one of" in r.stderr


def test_diff_csv_is_for_points():
    # diff --points writes CSV rows, so click takes -o csv; without --points diff says why not.
    r = run("diff", "x^2", "-o", "csv")
    assert r.exit_code == 2 and "-o csv is for --points" in r.stderr

# ---------------------------------------------------------------- input

def test_file_and_stdin(tmp_path):
    path = tmp_path / "loss.gc"
    path.write_text("z = w*x + b   # pre-activation\ny = z**2\n", encoding="utf-8")
    r = run("eval", "-f", str(path), "--at", "w=3,x=2,b=1", "-o", "plain")
    assert r.stdout == "y\t49\ndy/dw\t28\ndy/dx\t42\ndy/db\t14\n"
    r = run("eval", "-f", "-", "--at", "x=3", "-o", "plain", input="x**2\n")
    assert r.stdout == "f\t9\ndf/dx\t6\n"


def test_file_errors(tmp_path):
    r = run("eval", "-f", str(tmp_path / "missing.txt"))
    assert r.exit_code == 2 and "cannot read" in r.stderr
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"x\xff")
    r = run("eval", "-f", str(bad), "--at", "x=1")
    assert r.exit_code == 2
    assert r.stderr == (f"error: {bad} is not UTF-8 text: byte 0xff at offset 1 cannot be read\n"
                        "hint: save the file as UTF-8\n")
    r = run("eval", "x", "-f", str(bad))
    assert r.exit_code == 2 and "not both" in r.stderr


@pytest.mark.parametrize("args", [
    ["eval", "-x**2", "--at", "x=3"],
    ["eval", "--at", "x=3", "-x**2"],
    ["eval", "--", "-x**2", "--at", "x=3"],
    ["eval", "--at", "x=3", "--", "-x**2"],
    ["eval", "-x**2", "--at=x=3", "-o", "plain"],
])
def test_expression_starting_with_minus(args):
    r = run(*args)
    assert (r.exit_code, r.stdout) == (0, "f\t-9\ndf/dx\t-6\n")


# ---------------------------------------------------------------- --at

def test_at_repeated_and_merged():
    r = run("eval", "x*y + z", "--at", "x=2", "--at", "y=3,z=pi/4", "-o", "plain")
    assert r.stdout == "f\t6.785398163397448\ndf/dx\t3\ndf/dy\t2\ndf/dz\t1\n"


@pytest.mark.parametrize("at,message", [
    (["x=1", "x=2"], "error: --at binds 'x' twice\nhint: keep one of the values for x\n"),
    (["e=2"], "error: --at: 'e' is a constant (e = 2.718281828459045) and cannot be bound\n"
              "hint: rename the variable in the expression, e.g. e1\n"),
    (["x"], "error: --at expects NAME=VALUE, got 'x'\nhint: for example --at x=3,y=-1\n"),
    (["x="], "error: --at x= has no value\nhint: for example --at x=1\n"),
    (["x=y"], "error: --at x: 'y' is not a constant; a value may use numbers, pi, e and "
              "functions, but no variables\n"),
    (["sin=1"], "error: --at: 'sin' is a function and cannot be bound\n"),
])
def test_bad_bindings(at, message):
    args = ["eval", "x"]
    for a in at:
        args += ["--at", a]
    r = run(*args)
    assert (r.exit_code, r.stderr) == (2, message)


def test_missing_input_names_it_and_shows_the_at():
    r = run("eval", "x + y", "--at", "x=1")
    assert r.exit_code == 2
    assert r.stderr == "error: no value for 'y'\n  x + y\n      ^\nhint: add --at y=VALUE\n"


def test_unused_binding_warns():
    r = run("eval", "x", "--at", "x=1,y=2", "-o", "plain")
    assert r.exit_code == 0
    assert r.stderr == "warning: --at binds 'y', which the expression does not use\n"


def test_at_values_are_constant_expressions():
    r = run("eval", "x", "--at", "x=-1e-3", "-o", "plain")
    assert r.stdout == "f\t-0.001\ndf/dx\t1\n"
    r = run("eval", "x", "--at", "x=sqrt(2)", "-o", "plain")
    assert r.stdout == "f\t1.4142135623730951\ndf/dx\t1\n"


# ---------------------------------------------------------------- options

def test_wrt():
    r = run(*TEXTBOOK, "--wrt", "x,b", "-o", "plain")
    assert r.stdout == "f\t49\ndf/dx\t42\ndf/db\t14\n"
    r = run(*TEXTBOOK, "--wrt", "q")
    assert r.exit_code == 2
    assert r.stderr == ("error: --wrt: the expression has no variable 'q'\n"
                        "hint: its variables are: w, x, b\n")


def test_all_shows_intermediates():
    r = run("eval", "z = w*x + b; y = z**2", "--at", "w=3,x=2,b=1", "--all", "-o", "plain")
    assert r.stdout == "y\t49\ndy/dw\t28\ndy/dx\t42\ndy/db\t14\ndy/dz\t14\n"


def test_precision():
    r = run("eval", "x/3", "--at", "x=1", "--precision", "3", "-o", "plain")
    assert r.stdout == "f\t0.333\ndf/dx\t0.333\n"
    r = run("eval", "x/3", "--at", "x=1", "--precision", "3", "-o", "json")
    assert json.loads(r.stdout)["value"] == 0.333
    assert run("eval", "x", "--at", "x=1", "--precision", "0").exit_code == 2


def test_version():
    r = run("--version")
    assert (r.exit_code, r.stdout) == (0, f"gradcli, version {__version__}\n")


def test_debug_shows_the_traceback():
    r = proc("eval", "log(x)", "--at", "x=0", "--debug")
    assert "Traceback" in r.stderr and "DomainError" in r.stderr
    r = proc("eval", "log(x)", "--at", "x=0")
    assert "Traceback" not in r.stderr and r.returncode == 3


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("expr,code,first", [
    ("(x+1", 2, "error: missing ')': the '(' here is never closed"),
    ("x+", 2, "error: the input ends after '+': expected a number, a name or '(' after it"),
    ("", 2, "error: the expression is empty"),
    ("2 3", 2, "error: '3' cannot follow '2' directly"),
    ("loss(y+1)", 2, "error: 'loss' is not a function"),
    ("sinn(x)", 2, "error: unknown function 'sinn'"),
    ("sinx", 2, "error: no value for 'sinx'"),
    ("sin(x, y)", 2, "error: sin takes 1 argument, but 2 were given"),
    ("a = x; a = 2; a", 2, "error: 'a' is defined twice"),
    ("x \u2013 1", 2, "error: an en dash (U+2013) (\u2013) cannot be read here"),
    ("log(x - 3)", 3, "error: ln(x - 3) is undefined at x - 3 = -1: ln needs a positive argument"),
    ("log(x - 2)", 3, "error: ln(x - 2) is undefined at x - 2 = 0: ln needs a positive argument"),
    ("1/(x - 2)", 3, "error: 1/(x - 2) is undefined at x - 2 = 0: division by zero"),
    ("sqrt(-x)", 3, "error: sqrt(-x) is undefined at -x = -2: sqrt needs a non-negative argument"),
    ("asin(x)", 3, "error: asin(x) is undefined at x = 2: asin needs an argument between -1 and 1"),
    ("exp(1000*x)", 3, "error: exp(1000*x) overflows at 1000*x = 2000"),
    ("(x - 2)**-1", 3, "error: (x - 2)^(-1) is undefined at x - 2 = 0: zero cannot be raised to a "
                       "negative power"),
])
def test_bad_input_exit_codes_and_messages(expr, code, first):
    r = run("eval", expr, "--at", "x=2,y=1")
    assert r.exit_code == code
    assert r.stderr.splitlines()[0].startswith(first)
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_error_shows_caret_and_hint():
    r = run("eval", "sinn(x)", "--at", "x=1")
    assert r.stderr == "error: unknown function 'sinn'\n  sinn(x)\n  ^^^^\nhint: did you mean sin?\n"


def test_kinks_exit_0_with_pytorch_numbers_and_a_warning():
    r = run("eval", "relu(x) + abs(x)", "--at", "x=0", "-o", "plain")
    assert (r.exit_code, r.stdout) == (0, "f\t0\ndf/dx\t0\n")
    assert r.stderr == ("warning: relu at 0: left 0, right 1; using 0 as PyTorch does "
                        "(in relu(x), where x = 0)\n"
                        "warning: abs at 0: left -1, right 1; using 0 as PyTorch does "
                        "(in abs(x), where x = 0)\n")
    r = run("eval", "max(x, y)", "--at", "x=1,y=1", "-o", "plain")
    assert r.stdout == "f\t1\ndf/dx\t0.5\ndf/dy\t0.5\n" and "tied" in r.stderr


# ---------------------------------------------------------------- colour and help

def test_no_ansi_when_piped_or_no_color():
    for env in ({}, {"NO_COLOR": "1"}):
        r = proc(*TEXTBOOK, "-o", "table", env=env)
        assert r.returncode == 0 and "\x1b[" not in r.stdout and "∂f/∂w" in r.stdout
    r = proc("eval", "sinn(x)", "--at", "x=1", env={"NO_COLOR": "1"})
    assert "\x1b[" not in r.stderr


def test_no_ansi_on_a_forced_terminal_with_no_color():
    env = {"NO_COLOR": "1", "FORCE_COLOR": "1", "TTY_COMPATIBLE": "1"}
    r = proc(*TEXTBOOK, "-o", "table", env=env)
    assert "\x1b[" not in r.stdout


def test_subprocess_plain_json_and_exit_codes():
    r = proc(*TEXTBOOK)
    assert (r.returncode, r.stdout) == (0, "f\t49\ndf/dw\t28\ndf/dx\t42\ndf/db\t14\n")
    r = proc(*TEXTBOOK, "-o", "json")
    assert json.loads(r.stdout)["gradient"] == {"w": 28.0, "x": 42.0, "b": 14.0}
    r = proc("eval", "-f", "-", "--at", "x=3", input="-x**2")
    assert (r.returncode, r.stdout) == (0, "f\t-9\ndf/dx\t-6\n")
    assert proc("eval", "2 3").returncode == 2
    assert proc("eval", "1/x", "--at", "x=0").returncode == 3


def test_functions_lists_the_table():
    from gradcli import ops
    r = run("functions", "-o", "json")
    records = json.loads(r.stdout)
    assert [rec["description"] for rec in records] == \
        [op.doc for op in ops.TABLE.values() if not op.extra.get("hidden")]
    sig = next(rec for rec in records if rec["name"] == "sigmoid")
    assert sig["derivative"] == "d/dx = sigmoid(x)*(1 - sigmoid(x))"
    r = run("functions", "-o", "plain")
    assert "log(x, b)\t1 to 2\t" in r.stdout
    r = run("functions", "-o", "table")
    assert r.exit_code == 0 and "sigmoid" in r.stdout


@pytest.mark.parametrize("name", sorted(main.commands))
def test_every_command_has_help_with_an_example(name):
    r = run(name, "--help")
    assert r.exit_code == 0
    assert "Example" in r.stdout and "gradcli " in r.stdout.split("Example", 1)[1]


def test_top_level_help_has_an_example():
    r = run("--help")
    assert r.exit_code == 0 and "Example" in r.stdout


@pytest.mark.parametrize("fmt", ["plain", "json", "csv"])
def test_scalar_eval_imports_neither_rich_nor_numpy(fmt):
    code = ("import sys\nfrom gradcli.cli import main\n"
            "try:\n    main(['eval', '(w*x+b)**2', '--at', 'w=3,x=2,b=1', '-o', sys.argv[1]])\n"
            "except SystemExit:\n    pass\n"
            "sys.stderr.write(' '.join(m for m in ('rich', 'numpy', 'gradcli.autodiff.exact', 'sympy',"
            " 'pyarrow', 'pandas') if m in sys.modules))\n")
    r = subprocess.run([sys.executable, "-c", code, fmt], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=SRC), timeout=60)
    assert r.stderr == "" and "49" in r.stdout


def test_small_csv_points_import_neither_pyarrow_nor_pandas(tmp_path):
    """pyarrow is for Parquet, Arrow and large CSV files only (docs/data.md)."""
    points = tmp_path / "p.csv"
    points.write_text("x,b\n2,1\n3,1\n")
    code = ("import sys\nfrom gradcli.cli import main\n"
            "try:\n    main(['eval', '(w*x+b)**2', '--at', 'w=3', '--points', sys.argv[1],"
            " '-o', 'csv'])\n"
            "except SystemExit:\n    pass\n"
            "sys.stderr.write(' '.join(m for m in ('pyarrow', 'pandas') if m in sys.modules))\n")
    r = subprocess.run([sys.executable, "-c", code, str(points)], capture_output=True,
                       text=True, env=dict(os.environ, PYTHONPATH=SRC), timeout=60)
    assert r.stderr == "" and r.stdout.splitlines()[1] == "2,1,49,28,42,14"


@pytest.mark.parametrize("args", [["eval", "x*y + sin(x)", "--points", "{points}", "-o", "csv"],
                                  ["eval", "x*y", "--points", "{points}", "-o", "json"],
                                  ["diff", "x**2*y", "--points", "{points}", "-o", "plain"]])
def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path, args):
    # `gradcli ... | head -1`: the rows that were read are all there was to say (exit 0), not
    # a BrokenPipeError reported as a bug (exit 4) or click's exit 1 (a wrong answer, to check).
    points = tmp_path / "p.csv"
    points.write_text("x,y\n" + "".join(f"{i / 7},{i / 3}\n" for i in range(40000)))
    cmd = [sys.executable, "-m", "gradcli"] + [a.format(points=points) for a in args]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, PYTHONPATH=SRC))
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0, err
    assert first and err == ""


# ---------------------------------------------------------------- errors under -o json

@pytest.mark.parametrize("args,code,kind", [
    (["eval", "log(x)", "--at", "x=-1", "-o", "json"], 3, "domain"),
    (["eval", "x +* 2", "--at", "x=1", "-o", "json"], 2, "parse"),
    (["diff", "sinn(x)", "-o", "json"], 2, "unknown-name"),
    (["tangent", "x^2", "--at", "x=1", "--bogus", "-o", "json"], 2, "usage"),
    (["check", "x^2", "--derivative", "2x +", "--format=json"], 2, "parse"),
])
def test_an_error_under_json_is_one_json_object_on_stdout(args, code, kind):
    """SPEC §3: stdout gets {"error": {...}}, the exit code is unchanged, stderr keeps the
    human message."""
    import json as _json
    result = CliRunner().invoke(main, args)
    assert result.exit_code == code
    error = _json.loads(result.stdout)["error"]
    assert error["exit"] == code and error["kind"] == kind
    assert set(error) == {"exit", "kind", "message", "hint", "span"}
    assert error["message"] and error["message"] in " ".join(result.stderr.split()) \
        or error["kind"] == "usage"
    assert result.stderr.lower().startswith(("error:", "usage:"))
