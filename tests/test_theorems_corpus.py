"""The theorems corpus (tests/textbook/theorems.json) through gradcli: the mean value
theorem, normal lines and implicit second derivatives from published books.

For every entry: SymPy confirms the printed answer and refutes the wrong one
(tests/textbook/verify_theorems.py); gradcli solves the question and agrees with
SymPy; `gradcli check` accepts the printed answer (exit 0) and refuses the wrong
one (exit 1) with the entry's mistake named.
"""
import json
import math
import os
import sys

import pytest
import sympy as S
from click.testing import CliRunner

from gradcli.cli import main

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "textbook")
sys.path.insert(0, HERE)
import verify_theorems  # noqa: E402

ENTRIES = json.load(open(os.path.join(HERE, "theorems.json"), encoding="utf-8"))


def _budgeted(entries):
    """Every entry, with the page-sourced ones past the first of each kind in the slow
    job: the unmarked suite has a time budget, and one per kind keeps the path covered."""
    seen, out = set(), []
    for e in entries:
        later = "copied from http" in e.get("notes", "") and e["kind"] in seen
        if "copied from http" in e.get("notes", ""):
            seen.add(e["kind"])
        out.append(pytest.param(e, id=e["id"], marks=[pytest.mark.slow] if later else []))
    return out


def run(args):
    return CliRunner().invoke(main, list(args))


def test_the_corpus_has_ten_published_exercises_of_each_kind():
    kinds = [e["kind"] for e in ENTRIES]
    for kind in ("mvt", "normal-line", "implicit-second"):
        assert kinds.count(kind) >= 10, kind
    assert len({e["id"] for e in ENTRIES}) == len(ENTRIES)


# SymPy alone on the test data: the data does not change between Pythons or commits
# of the product, so this runs once per CI run, in the slow job.
@pytest.mark.slow
@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_sympy_confirms_the_printed_answer_and_refutes_the_wrong_one(entry):
    assert verify_theorems.verify(entry) == (True, True)


def _solved_right(entry, record):
    s = entry["sympy"]
    if entry["kind"] == "mvt":
        if "fails_at" in s:
            assert record["applies"] is False
            assert [S.sympify(p) for p in record["where"]] == [S.sympify(s["fails_at"])]
            return
        assert record["applies"] is True and record["exact"] is True
        want = sorted((S.sympify(c) for c in s["c"]), key=float)
        assert len(record["c_value"]) == len(want)
        for got, text, w in zip(record["c_value"], record["c"], want):
            assert math.isclose(got, float(w), rel_tol=1e-12, abs_tol=1e-12)
            # the closed form, read back, is exactly the book's c
            exact = S.sympify(text.replace("^", "**"), locals={"e": S.E})
            assert S.simplify(exact - w) == 0
    elif entry["kind"] == "normal-line":
        x = S.Symbol(s["variable"])
        f = verify_theorems.expr(s["function"], {s["variable"]: x})
        a = S.sympify(s["at"])
        m = S.diff(f, x).subs(x, a)
        if S.simplify(m) == 0:
            assert record["normal_slope"] is None
            assert record["normal"].startswith(f"{s['variable']} = ")
        else:
            assert math.isclose(record["normal_slope"], float(-1 / m), rel_tol=1e-9)
        assert math.isclose(record["value"], float(f.subs(x, a)), rel_tol=1e-12,
                            abs_tol=1e-12)
    else:
        X, Y = verify_theorems.X, verify_theorems.Y
        names = {"x": X, "y": Y}
        F = verify_theorems.expr(s["equation"][0], names) - \
            verify_theorems.expr(s["equation"][1], names)
        mine = S.sympify(record["second_derivative"].replace("^", "**"), locals=names)
        assert verify_theorems._on_curve_zero(F, mine - S.idiff(F, Y, X, 2), X, Y)


@pytest.mark.parametrize("entry", _budgeted(ENTRIES))
def test_gradcli_solves_it(entry):
    result = run(entry["solve"])
    assert result.exit_code == 0, result.output
    _solved_right(entry, json.loads(result.stdout))


@pytest.mark.parametrize("entry", _budgeted(ENTRIES))
def test_check_accepts_the_printed_answer_and_names_the_mistake_in_the_wrong_one(entry):
    right = run(["check", *entry["check"], "-o", "json"])
    assert right.exit_code == 0, right.output
    assert json.loads(right.stdout)["ok"] is True
    wrong = run(["check", *entry["wrong"]["check"], "-o", "json"])
    assert wrong.exit_code == 1, wrong.output
    (answer,) = json.loads(wrong.stdout)["answers"]
    assert answer["ok"] is False
    assert answer["mistake"] == entry["wrong"]["mistake"], answer
