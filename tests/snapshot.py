"""Snapshot files under tests/snapshots/: exact expected output, rewritten on request.

Set GRADCLI_UPDATE_SNAPSHOTS=1 to write the current output as the new expectation
(then review the diff); otherwise a difference fails the test.
"""
import os
from pathlib import Path

DIR = Path(__file__).parent / "snapshots"


def assert_snapshot(name: str, text: str) -> None:
    path = DIR / name
    if os.environ.get("GRADCLI_UPDATE_SNAPSHOTS") == "1" or not path.exists():
        if os.environ.get("GRADCLI_UPDATE_SNAPSHOTS") != "1":
            raise AssertionError(f"no snapshot {path}; run with GRADCLI_UPDATE_SNAPSHOTS=1")
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert text == path.read_text(encoding="utf-8"), f"output differs from {path}"
