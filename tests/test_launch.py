"""The click-free fast path for `eval` (launch.py): same bytes as click, lean imports."""
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from gradcli import launch
from gradcli.cli import main

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")


def _run(args, fast=True, env=None):
    env = dict(env or os.environ, PYTHONPATH=SRC, NO_COLOR="1")
    env.pop("GRADCLI_NO_FAST_PATH", None)
    if not fast:
        env["GRADCLI_NO_FAST_PATH"] = "1"
    return subprocess.run([sys.executable, "-m", "gradcli", *args], env=env,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)


CASES = [
    ["eval", "(w*x+b)**2", "--at", "w=3,x=2,b=1", "-o", "plain"],
    ["eval", "(w*x+b)**2", "--at", "w=3,x=2,b=1", "-o", "json"],
    ["eval", "(w*x+b)**2", "--at", "w=3,x=2,b=1", "-o", "csv"],
    ["eval", "(w*x+b)**2", "--at", "w=3", "--at", "x=2,b=1"],
    ["eval", "--at=w=3,x=2,b=1", "(w*x+b)**2", "--format=json", "--precision", "3"],
    ["eval", "sin(x)/3", "--at", "x=pi/4", "--precision=4", "--wrt", "x"],
    ["eval", "z = w*x + b\ny = sigmoid(z)\nloss = (y - t)**2", "--at", "w=1,x=2,b=0,t=1",
     "--all", "-o", "json"],
    ["eval", "1/2x", "--at", "x=2"],                        # a warning on stderr
    ["eval", "relu(x) + abs(x)", "--at", "x=0", "-o", "json"],  # kink warnings
    ["eval", "x**2", "--at", "x=3,y=1"],                    # an unused binding
    ["eval", "log(x)", "--at", "x=-1"],                     # exit 3, click reports it
    ["eval", "x +* 2", "--at", "x=1"],                      # exit 2
    ["eval", "x**2"],                                       # missing input
    ["eval", "x**2", "--at", "x=1", "--at", "x=2"],         # bound twice
    ["eval", "x**2", "--at", "x=1", "--wrt", "y"],
    ["eval", "x**2", "--at", "x=1", "--precision", "0"],    # click's range check
    ["eval", "x**2", "--at", "x=1", "-o", "yaml"],          # click's choice check
    ["eval", "-x**2", "--at", "x=3"],                       # a leading '-' expression
    ["eval", "x**2", "--at", "x=1", "--bogus"],
    ["eval", "--", "-x", "--at", "x=1"],
    ["eval", "x", "y", "--at", "x=1"],
    ["eval"],
]


def _in_process(args, fast, monkeypatch, capsys):
    """(exit code, stdout, stderr) of launch.run() on args in this process: the fast path,
    or with it turned off, click's, each the whole way from argv to the exit code."""
    monkeypatch.setattr(sys, "argv", ["gradcli", *args])
    monkeypatch.setenv("NO_COLOR", "1")
    if fast:
        monkeypatch.delenv("GRADCLI_NO_FAST_PATH", raising=False)
    else:
        monkeypatch.setenv("GRADCLI_NO_FAST_PATH", "1")
    capsys.readouterr()
    code = 0
    try:
        launch.run()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args", CASES, ids=[" ".join(c)[:40] for c in CASES])
def test_fast_path_prints_what_click_prints(args, monkeypatch, capsys):
    # In one process (a subprocess each costs half a second); the subprocess tests below
    # check the installed entry point and what it imports.
    fast = _in_process(args, True, monkeypatch, capsys)
    slow = _in_process(args, False, monkeypatch, capsys)
    assert fast == slow


def test_fast_path_prints_what_click_prints_in_a_new_process():
    for args in (CASES[0], CASES[7], CASES[10]):
        fast, slow = _run(args), _run(args, fast=False)
        assert (fast.returncode, fast.stdout, fast.stderr) == \
            (slow.returncode, slow.stdout, slow.stderr)


@pytest.mark.parametrize("args", CASES[:8], ids=[" ".join(c)[:40] for c in CASES[:8]])
def test_fast_path_matches_click_runner(args):
    # CliRunner's stdout is not a terminal, so the default format is plain on both sides.
    result = CliRunner().invoke(main, args)
    proc = _run(args)
    assert result.exit_code == proc.returncode == 0
    assert result.stdout == proc.stdout


def test_requests_the_fast_path_takes_and_leaves():
    req = launch.fast_eval_request(["eval", "x", "--at", "x=1", "-o", "json", "--all"])
    assert req == {"expr": "x", "at": ["x=1"], "wrt": None, "show_all": True, "fmt": "json",
                   "precision": None}
    for args in (["functions"], ["eval", "x", "-o", "table"], ["eval", "x", "--help"],
                 ["eval", "x", "-f", "file"], ["eval", "-x"], ["eval", "x", "--at"],
                 ["eval", "x", "--debug"], ["eval", "x", "--all=1"], ["eval", "x", "-oplain"],
                 ["eval", "x", "--precision", "18"], ["eval", "x", "-o", "json", "-o", "plain"],
                 ["diff", "x"], []):
        assert launch.fast_eval_request(args) is None, args


def test_plain_and_json_eval_import_neither_rich_nor_numpy_nor_click_nor_lark(tmp_path):
    code = ("import sys; sys.argv = ['gradcli', 'eval', '(w*x+b)**2', '--at', 'w=3,x=2,b=1', "
            "'-o', FMT]\n"
            "from gradcli.launch import run\n"
            "run()\n"
            "heavy = sorted(m for m in ('rich', 'numpy', 'click', 'lark', 'sympy') "
            "if m in sys.modules)\n"
            "sys.stderr.write('MODULES=' + ','.join(heavy))\n")
    # A home that cannot be written changes nothing: no run writes there.
    env = dict(os.environ, PYTHONPATH=SRC, HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path))
    os.chmod(tmp_path, 0o500)
    for fmt in ("plain", "json"):
        proc = subprocess.run([sys.executable, "-c", code.replace("FMT", repr(fmt))], env=env,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stderr
        assert "28" in proc.stdout
        assert proc.stderr.rsplit("MODULES=", 1)[1] == ""
    assert os.listdir(tmp_path) == []


def test_fast_path_options_are_clicks_options():
    # One table (options.py) declares eval's options for both paths.
    from gradcli import options
    eval_params = {p.name: p for p in main.commands["eval"].params}
    for opt in launch._BY_FLAG.values():
        assert set(opt.flags) == set(eval_params[opt.dest].opts), opt
        if opt.choices is not None:
            assert list(opt.choices) == list(eval_params[opt.dest].type.choices), opt
    assert {o.dest for o in launch._BY_FLAG.values()} == set(eval_params) - {"expr", "file"}
    assert options.FAST_DESTS <= set(eval_params)
    assert set(options.FAST_FORMATS) <= set(eval_params["fmt"].type.choices)


@pytest.mark.parametrize("args, code, message", [
    (["eval", "log(x)", "--at", "x=-1", "-o", "json"], 3, "error: ln(x) is undefined at x = -1"),
    (["eval", "x +* 2", "--at", "x=1"], 2, "  x +* 2\n     ^\nhint:"),
    (["eval", "x**2", "--at", "x=1", "--wrt", "y"], 2, "hint: its variables are: x"),
])
def test_fast_path_reports_its_own_errors_without_click(args, code, message):
    # An error in a request the fast path took is reported there (same bytes as click,
    # checked above), not by running the whole request again under click.
    script = ("import sys\nsys.argv = ['gradcli'] + sys.argv[1:]\n"
              "from gradcli.launch import run\n"
              "try:\n    run()\nfinally:\n"
              "    sys.stderr.write('CLICK=' + str('click' in sys.modules))\n")
    proc = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=SRC), stdin=subprocess.DEVNULL)
    assert proc.returncode == code
    assert message in proc.stderr
    assert proc.stderr.endswith("CLICK=False")
    if "json" in args:  # SPEC §3: the error as one JSON object on stdout as well
        error = json.loads(proc.stdout)["error"]
        assert error["exit"] == code and message.split(": ", 1)[1] in error["message"]
    else:
        assert proc.stdout == ""


def test_json_output_is_the_spec_example():
    proc = _run(["eval", "(w*x+b)**2", "--at", "w=3,x=2,b=1", "-o", "json"])
    assert json.loads(proc.stdout) == {
        "expression": "(w*x+b)**2", "read_as": "(w*x + b)**2",
        "at": {"w": 3.0, "x": 2.0, "b": 1.0}, "value": 49.0,
        "gradient": {"w": 28.0, "x": 42.0, "b": 14.0}}


def test_closed_pipe_exits_quietly():
    env = dict(os.environ, PYTHONPATH=SRC)
    proc = subprocess.run(
        f"{sys.executable} -m gradcli eval 'x**2' --at x=3 | head -c 0", shell=True,
        env=env, capture_output=True, text=True)
    assert "Traceback" not in proc.stderr


def test_fast_path_prints_through_the_writer_table(monkeypatch, capsys):
    # launch.py has no formatting of its own: output/writers.py's entry for (eval, fmt) is
    # what it prints, as cli/ does.
    from gradcli.output import writers
    monkeypatch.delenv("GRADCLI_NO_FAST_PATH", raising=False)
    monkeypatch.setitem(writers.WRITERS, ("eval", "plain"), ("formats.eval_json_record", "json"))
    assert launch._answer(["eval", "x^2", "--at", "x=3", "-o", "plain"]) is True
    out = capsys.readouterr().out
    assert json.loads(out)["gradient"] == {"x": 6.0}
