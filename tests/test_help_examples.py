"""Every command's --help has a worked example, and the output each example shows is real."""
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gradcli.cli import main

SRC = str(Path(__file__).resolve().parents[1] / "src")
COMMANDS = ["eval", "functions", "diff", "trace", "graph", "check", "descend", "plot", "tangent",
            "taylor", "critical", "implicit", "newton", "mvt"]


def help_text(command: str) -> str:
    result = CliRunner().invoke(main, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


def examples(text: str):
    """(command line, shown output lines) for each `$ gradcli ...` line of a help text."""
    lines = text.split("Options:")[0].splitlines()
    found, i = [], 0
    while i < len(lines):
        line = lines[i].strip()
        if not line.startswith("$ gradcli"):
            i += 1
            continue
        command = line[2:]
        while command.endswith("\\"):
            i += 1
            command = command[:-1] + " " + lines[i].strip()
        i += 1
        shown = []
        # The output is indented as the example is; prose (indented less) ends it.
        while i < len(lines) and not lines[i].strip().startswith("$") \
                and (not lines[i].strip() or lines[i].startswith("    ")):
            shown.append(lines[i][4:].rstrip())
            i += 1
        while shown and not shown[-1]:
            shown.pop()
        found.append((command, shown))
    return found


@pytest.mark.parametrize("command", COMMANDS)
def test_help_has_an_example(command):
    assert any(c.startswith(f"gradcli {command}") for c, _ in examples(help_text(command)))


SHOWN = [(c, shown) for command in COMMANDS for c, shown in examples(help_text(command)) if shown]


def test_some_examples_show_their_output():
    assert len(SHOWN) >= 6


@pytest.mark.parametrize("command,shown", SHOWN, ids=[c for c, _ in SHOWN])
def test_example_output_is_real(command, shown, tmp_path):
    command, _, grep = command.partition(" | grep ")
    argv = shlex.split(command)
    env = dict(os.environ, PYTHONPATH=SRC)
    env.pop("NO_COLOR", None)
    p = subprocess.run([sys.executable, "-m", "gradcli", *argv[1:]], capture_output=True,
                       text=True, env=env, cwd=tmp_path)
    assert p.returncode == (1 if "wrong" in "".join(shown) else 0), p.stderr
    out = [line.expandtabs(8).rstrip() for line in p.stdout.splitlines()]
    if grep:
        out = [line for line in out if grep in line]
    assert out == shown
