"""An unexpected exception is a bug: exit 4, one line asking for a report; --debug: the traceback.

Both ways in are covered: the click application (cli.py) and the click-free
fast path of the common `eval` (launch.py); both report through output/streams.py.
"""
from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

from gradcli import api, launch
from gradcli.cli import main


def _boom(*args, **kwargs):
    raise KeyError("a missing key the code expected")


def test_click_path_exits_4_with_one_line(monkeypatch):
    monkeypatch.setattr(api, "evaluate", _boom)
    result = CliRunner().invoke(main, ["eval", "x^2", "--at", "x=3", "-o", "json"])
    assert result.exit_code == 4
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: internal error (KeyError")
    assert "please report it" in lines[0] and "issue tracker" in lines[0]
    assert "Traceback" not in result.stderr


def test_click_path_other_command(monkeypatch):
    monkeypatch.setattr(api, "diff", _boom)
    result = CliRunner().invoke(main, ["diff", "x^2", "--wrt", "x", "-o", "json"])
    assert result.exit_code == 4 and len(result.stderr.strip().splitlines()) == 1


def test_click_path_debug_shows_the_traceback(monkeypatch):
    monkeypatch.setattr(api, "evaluate", _boom)
    result = CliRunner().invoke(main, ["eval", "x^2", "--at", "x=3", "-o", "json", "--debug"])
    assert isinstance(result.exception, KeyError)


def test_fast_path_exits_4(monkeypatch, capsys):
    monkeypatch.delenv("GRADCLI_DEBUG", raising=False)
    monkeypatch.delenv("GRADCLI_NO_FAST_PATH", raising=False)
    monkeypatch.setattr(launch, "fast_eval", _boom)
    monkeypatch.setattr(sys, "argv", ["gradcli", "eval", "x^2", "--at", "x=3", "-o", "plain"])
    with pytest.raises(SystemExit) as exit_info:
        launch.run()
    assert exit_info.value.code == 4
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: internal error (KeyError")
    assert "issue tracker" in err and "Traceback" not in err


def test_user_errors_keep_their_codes():
    # Only bugs are 4: bad input is still 2, an undefined value 3.
    runner = CliRunner()
    assert runner.invoke(main, ["eval", "x^", "--at", "x=1", "-o", "plain"]).exit_code == 2
    assert runner.invoke(main, ["eval", "log(x)", "--at", "x=-1", "-o", "plain"]).exit_code == 3


def test_installed_command_exits_4_on_a_bug(tmp_path):
    # A fresh interpreter running the console entry point, with one module patched.
    import subprocess
    code = ("import sys, gradcli.launch as L\n"
            "def boom(request): raise RuntimeError('injected')\n"
            "L.fast_eval = boom\n"
            "sys.argv = ['gradcli', 'eval', 'x+1', '--at', 'x=1', '-o', 'json']\n"
            "L.run()\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 4
    assert p.stderr.startswith("error: internal error (RuntimeError: injected)")
    assert len(p.stderr.splitlines()) == 1
