"""Tests run against this checkout's src/, whatever is installed."""
import os
import shutil
import sys

import pytest

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
if SRC not in sys.path:
    sys.path.insert(0, SRC)


def need_program(name: str, how: str) -> str:
    """The path of an outside program a test uses (Graphviz's dot, node): a skip on a
    machine without it, but a failure where GRADCLI_REQUIRE_TOOLS=1 (CI installs every
    one, so a test there can never be skipped by a failed install)."""
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed ({how})"
        if os.environ.get("GRADCLI_REQUIRE_TOOLS") == "1":
            pytest.fail(message + "; GRADCLI_REQUIRE_TOOLS=1 says it must be")
        pytest.skip(message)
    return path
