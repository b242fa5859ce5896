"""Published exercises of curve analysis and absolute extrema (tests/textbook/curves.json):
each printed answer verified by SymPy alone (textbook/verify_curves.py), solved by
`analyze` / `extrema`, accepted by `check` as printed, and a plausible wrong answer
refused with its mistake named."""
import copy
import json
import os
import sys

import pytest
from click.testing import CliRunner

from gradcli.cli import main

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "textbook"))
import verify_curves  # noqa: E402

CORPUS = verify_curves.load()


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


def run(*args):
    return CliRunner().invoke(main, list(args))


def _ids(entries):
    return [e["id"] for e in entries]


def _check_args(entry, answers):
    args = ["check", entry["question"]]
    if "over" in entry:
        args += ["--over", entry["over"]]
    for key, text in answers.items():
        args += ["--" + key.replace("_", "-"), text]
    return args + ["-o", "json"]


def test_the_corpus_has_ten_exercises_of_each_kind_from_named_books():
    kinds = {}
    for e in CORPUS:
        kinds.setdefault(e["kind"], []).append(e)
        assert e["source"].split(",")[0] in ("Stewart", "OpenStax", "Paul Dawkins",
                                             "Thomas' Calculus") or \
            ("https://" in e["source"] and "copied from https://" in e["notes"])
    assert len(kinds["analyze"]) >= 10 and len(kinds["extrema"]) >= 10
    assert len({e["id"] for e in CORPUS}) == len(CORPUS)


# SymPy alone on the test data: the data does not change between Pythons or commits
# of the product, so this runs once per CI run, in the slow job.
@pytest.mark.slow
@pytest.mark.parametrize("entry", CORPUS, ids=_ids(CORPUS))
def test_sympy_confirms_every_printed_answer(entry):
    assert verify_curves.verify(entry) == []


# SymPy alone on the test data: the data does not change between Pythons or commits
# of the product, so this runs once per CI run, in the slow job.
@pytest.mark.slow
@pytest.mark.parametrize("entry", CORPUS, ids=_ids(CORPUS))
def test_sympy_refutes_the_wrong_answer(entry):
    wrong = copy.deepcopy(entry)
    wrong["answers"][entry["wrong"]["option"]] = entry["wrong"]["answer"]
    assert verify_curves.verify(wrong) != []


@pytest.mark.parametrize("entry", _budgeted(CORPUS))
def test_gradcli_solves_it(entry):
    args = [entry["kind"], entry["question"], "-o", "json"]
    if "over" in entry:
        args += ["--over", entry["over"]]
    out = run(*args)
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    if entry["kind"] == "extrema":
        assert record["max"]["at"] and record["min"]["at"]
    else:
        assert all(k in record for k in ("critical", "increasing", "decreasing", "relative_max",
                                          "relative_min", "concave_up", "concave_down",
                                          "inflection"))


@pytest.mark.parametrize("entry", _budgeted(CORPUS))
def test_check_accepts_the_printed_answer(entry):
    out = run(*_check_args(entry, entry["answers"]))
    assert out.exit_code == 0, out.output
    assert all(a["ok"] for a in json.loads(out.output)["answers"])


@pytest.mark.parametrize("entry", _budgeted(CORPUS))
def test_check_refuses_the_wrong_answer_and_names_the_mistake(entry):
    wrong = entry["wrong"]
    out = run(*_check_args(entry, {wrong["option"]: wrong["answer"]}))
    assert out.exit_code == 1, out.output
    (answer,) = json.loads(out.output)["answers"]
    assert not answer["ok"]
    assert answer["mistake"] == wrong["mistake"], answer
