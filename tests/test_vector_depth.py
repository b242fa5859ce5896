"""Deeply nested vector literals: up to MAX_DIMS axes work, more is a clear shape error."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gradcli.api import evaluate
from gradcli.errors import ShapeError
from gradcli.autodiff.vectors import MAX_DIMS

SRC = str(Path(__file__).resolve().parents[1] / "src")


def nested(depth: int, inner: str = "x") -> str:
    return "[" * depth + inner + "]" * depth


def test_deepest_literal_allowed():
    r = evaluate(f"sum({nested(MAX_DIMS)})", {"x": 2.0})
    assert r.value == 2.0
    assert r.gradient["x"] == 1.0


@pytest.mark.parametrize("depth", [MAX_DIMS + 1, 65, 2000])
def test_too_deep_is_a_shape_error(depth):
    with pytest.raises(ShapeError, match=f"nested more than {MAX_DIMS} deep"):
        evaluate(f"sum({nested(depth)})", {"x": 2.0})


def test_too_deep_from_the_cli_exits_2_without_a_traceback():
    env = dict(os.environ, PYTHONPATH=SRC)
    p = subprocess.run([sys.executable, "-m", "gradcli", "eval", nested(70, "1")],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 2
    assert "error: brackets nested more than" in p.stderr
    assert "internal error" not in p.stderr and "Traceback" not in p.stderr
