"""Published third and fourth derivatives (tests/textbook/higher.json) through gradcli.

For every entry: SymPy confirms the printed answer and refutes the wrong one
(tests/textbook/verify_higher.py); `gradcli diff --order N` computes the derivative
and SymPy finds it equal to the printed one; `gradcli check --partial "xxx = ..."`
accepts the printed answer (exit 0) and refuses the wrong one (exit 1) with the
entry's mistake named.
"""
import json
import os
import sys

import pytest
import sympy as S
from click.testing import CliRunner

from gradcli.cli import main

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "textbook")
sys.path.insert(0, HERE)
import verify_higher  # noqa: E402

ENTRIES = verify_higher.load()


def _budgeted(entries):
    """Every entry, the third derivatives past the first and the fourth past the first
    in the slow job: the unmarked suite has a time budget, one per order keeps the
    path covered."""
    seen, out = set(), []
    for e in entries:
        later = e["order"] in seen
        seen.add(e["order"])
        out.append(pytest.param(e, id=e["id"], marks=[pytest.mark.slow] if later else []))
    return out


def run(args):
    return CliRunner().invoke(main, list(args))


def test_the_corpus_has_ten_published_third_and_fourth_derivatives():
    assert len(ENTRIES) >= verify_higher.LEAST
    assert {e["order"] for e in ENTRIES} == {3, 4}
    assert len({e["id"] for e in ENTRIES}) == len(ENTRIES)
    assert all("copied from http" in e["notes"] and "http" in e["source"] for e in ENTRIES)


# SymPy alone on the test data: the data does not change between Pythons or commits
# of the product, so this runs once per CI run, in the slow job.
@pytest.mark.slow
@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_sympy_confirms_the_printed_answer_and_refutes_the_wrong_one(entry):
    assert verify_higher.check(entry) == []


@pytest.mark.parametrize("entry", _budgeted(ENTRIES))
def test_gradcli_computes_the_derivative(entry):
    out = run(entry["solve"])
    assert out.exit_code == 0, out.output
    (got,) = json.loads(out.stdout)["derivatives"].values()
    want, names = verify_higher.derivative(entry)
    x = names[entry["sympy"]["variable"]]
    mine = S.sympify(got.replace("^", "**"), locals={"x": x, "e": S.E})
    assert S.simplify(mine - want) == 0, (got, want)


@pytest.mark.parametrize("entry", _budgeted(ENTRIES))
def test_check_accepts_the_printed_answer(entry):
    out = run(["check", *entry["check"], "-o", "json"])
    assert out.exit_code == 0, out.output
    assert all(a["ok"] for a in json.loads(out.stdout)["answers"])


@pytest.mark.parametrize("entry", _budgeted(ENTRIES))
def test_check_refuses_the_wrong_answer_and_names_the_mistake(entry):
    out = run(["check", *entry["wrong"]["check"], "-o", "json"])
    assert out.exit_code == 1, out.output
    (answer,) = json.loads(out.stdout)["answers"]
    assert not answer["ok"] and answer["mistake"] == entry["wrong"]["mistake"], answer
