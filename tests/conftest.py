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


class Tally:
    """What happened to each example of a property: `compared` for an example really
    checked against the reference, any other word for one set aside (and why).

    A property that sets aside too many examples proves little, and one that sets
    aside an example because gradcli refused it may hide a wrong refusal; so each
    property runs inside a test that calls `require` at the end."""

    def __init__(self):
        from collections import Counter
        self.counts = Counter()

    def __call__(self, outcome: str) -> str:
        self.counts[outcome] += 1
        return outcome

    def require(self, record_property, least: int, share: float = 0.0) -> None:
        """At least `least` examples compared, and at least `share` of all drawn."""
        compared = self.counts["compared"]
        drawn = sum(self.counts.values())
        record_property("compared", compared)
        record_property("drawn", drawn)
        assert compared >= least and compared >= share * drawn, dict(self.counts)


def run_property(prop, tally: Tally, record_property, least: int, share: float = 0.0):
    """Run the Hypothesis property `prop` (its whole run), then require its counts."""
    tally.counts.clear()
    prop()
    tally.require(record_property, least, share)


def pytest_terminal_summary(terminalreporter):
    """One line per property test: how many examples it really compared."""
    lines = []
    for report in terminalreporter.stats.get("passed", []):
        props = dict(getattr(report, "user_properties", ()))
        if "compared" in props and report.when == "call":
            lines.append(f"  {report.nodeid}: {props['compared']} of {props['drawn']}")
    if lines:
        terminalreporter.write_line("property examples really compared:")
        for line in sorted(lines):
            terminalreporter.write_line(line)


# "Deep input does not recurse" tests go ten times past the interpreter's recursion
# limit: a recursive walk fails there as surely as at the SPEC's 100,000 (checked once,
# in the slow run, by tests/test_scale.py).
DEEP = 10 * sys.getrecursionlimit()
