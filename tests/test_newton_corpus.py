"""Published Newton's-method exercises (tests/textbook/newton.json) solved and graded by gradcli.

For every entry: SymPy and mpmath confirm the book's printed answer and refute the
perturbed one (tests/textbook/verify_newton.py, also runnable on its own);
`gradcli newton` computes the printed iterates (or every printed root); `gradcli
check` accepts the printed answer as typed (exit 0) and refuses the perturbed one
(exit 1) with the mistake the entry names.
"""
import json
import os
import sys
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest
from click.testing import CliRunner

from gradcli.cli import main

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "textbook")
sys.path.insert(0, HERE)
import verify_newton  # noqa: E402  (the SymPy side of the corpus, a script beside it)

CORPUS = verify_newton.load()
MAX_DIGITS = 12


def _budgeted(entries):
    """Every entry, with the page-sourced ones past the first of each kind in the slow
    job: the unmarked suite has a time budget, and one per kind keeps the path covered."""
    seen, out = set(), []
    for e in entries:
        page = "copied from http" in e.get("notes", "")
        later = page and e["kind"] in seen
        if page:
            seen.add(e["kind"])
        out.append(pytest.param(e, id=e["id"], marks=[pytest.mark.slow] if later else []))
    return out


def _run(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_the_corpus_has_ten_iteration_tables_and_root_lists_from_named_sources():
    kinds = Counter(e["kind"] for e in CORPUS)
    assert kinds["newton"] >= 10 and kinds["roots"] >= 5
    assert len({e["id"] for e in CORPUS}) == len(CORPUS)
    assert all(e["source"] and e["notes"] and e["wrong"]["mistake"] for e in CORPUS)


# SymPy alone on the test data: the data does not change between Pythons or commits
# of the product, so this runs once per CI run, in the slow job.
@pytest.mark.slow
@pytest.mark.parametrize("entry", CORPUS, ids=[e["id"] for e in CORPUS])
def test_sympy_confirms_the_printed_answer_and_refutes_the_perturbed_one(entry):
    assert verify_newton.check(entry) == []


@pytest.mark.parametrize("entry", _budgeted(CORPUS))
def test_gradcli_solves_it(entry):
    printed = verify_newton.numbers(entry["answer"])
    # `newton --digits` stops at 12: a page's 15 decimals are compared at 12
    places = min(max(verify_newton.places(t) for t in printed), MAX_DIGITS)
    if entry["kind"] == "newton":
        code, out, err = _run("newton", entry["question"], "--at",
                              "x=" + entry["sympy"]["x0"], "--steps", str(len(printed)),
                              "--digits", str(MAX_DIGITS if "/" in entry["answer"] else
                                              max(places, 1)), "-o", "json")
        assert code == 0, err
        got = json.loads(out)["iterates"]
        assert len(got) == len(printed)
        for mine, book in zip(got, printed):
            if "/" in book:  # a printed fraction
                assert abs(float(mine) - float(Fraction(book))) <= 1e-6 * abs(float(mine))
                continue
            q = Decimal(1).scaleb(-places)
            assert Decimal(mine).quantize(q) == Decimal(book).quantize(q) or \
                abs(float(mine) - float(book)) <= 1e-6 * abs(float(book)), (mine, book)
    else:
        code, out, err = _run("newton", entry["question"], "--over",
                              entry["check"][entry["check"].index("--over") + 1],
                              "--digits", str(places), "-o", "json")
        assert code == 0, err
        q = Decimal(1).scaleb(-places)
        assert json.loads(out)["roots"] == sorted(
            (str(Decimal(t).quantize(q)) for t in printed), key=float)


@pytest.mark.parametrize("entry", _budgeted(CORPUS))
def test_check_accepts_the_printed_answer(entry):
    code, out, err = _run("check", *entry["check"], "-o", "plain")
    assert code == 0, out + err


@pytest.mark.parametrize("entry", _budgeted(CORPUS))
def test_check_refuses_the_perturbed_answer_and_names_the_mistake(entry):
    code, out, err = _run("check", *entry["wrong"]["check"], "-o", "json")
    assert code == 1, out + err
    record = json.loads(out)
    named = {a.get("mistake") for a in record["answers"] if not a["ok"]}
    assert entry["wrong"]["mistake"] in named, (named, entry["wrong"])
