"""Snapshot files: exact expected output, compared, and never written by a passing test.

A snapshot is rewritten only by a separate command, whose tests are reported as
skipped (not passed); then read the diff and run the tests again:

    GRADCLI_UPDATE_SNAPSHOTS=1 python -m pytest -q tests/test_cli_trace.py tests/test_steps.py
    git diff tests/snapshots tests/golden

Files live under tests/snapshots/ (a bare name) or at the path given.
"""
import os
from pathlib import Path

import pytest

DIR = Path(__file__).parent / "snapshots"


def assert_snapshot(name, text: str) -> None:
    path = Path(name) if os.path.isabs(name) else DIR / name
    if os.environ.get("GRADCLI_UPDATE_SNAPSHOTS") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        pytest.skip(f"rewrote {path}: read the diff, then run the tests without "
                    "GRADCLI_UPDATE_SNAPSHOTS")
    if not path.exists():
        raise AssertionError(f"no snapshot {path}; write it with GRADCLI_UPDATE_SNAPSHOTS=1 "
                             "(see tests/snapshot.py)")
    assert text == path.read_text(encoding="utf-8"), f"output differs from {path}"
