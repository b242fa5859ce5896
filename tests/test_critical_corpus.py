"""The critical-points corpus (tests/textbook/critical.json): each exercise's printed
answer is proven by SymPy (verify_critical.py), gradcli finds exactly the printed points
with the printed kinds and proves the list complete, `check` accepts the printed answer as
typed and refuses the plausible wrong one with its mistake named. Two entries run always;
the rest in the slow suite."""
import os
import sys

import pytest
import sympy as S

from gradcli import api
from gradcli.tasks.check import check_homework
from gradcli.tasks.critical import critical_points, parse_box
from gradcli.inputs import split_top_level

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "textbook"))
import verify_critical  # noqa: E402

CORPUS = verify_critical.load()
KIND = {"min": "local minimum", "max": "local maximum", "saddle": "saddle point"}


def _params():
    return [pytest.param(e, id=e["id"], marks=() if i < 2 else pytest.mark.slow)
            for i, e in enumerate(CORPUS)]


def test_the_corpus_is_large_enough_and_sourced():
    assert len(CORPUS) >= 10
    assert all(e["source"] and e["typed"] in ("memory", "page") for e in CORPUS)


@pytest.mark.parametrize("entry", _params())
def test_the_printed_answer_is_the_truth(entry):
    assert verify_critical.verify_entry(entry) == len(entry["sympy"]["points"])


@pytest.mark.parametrize("entry", _params())
def test_gradcli_solves_it_and_check_grades_it(entry):
    box = parse_box(entry["over"], split_top_level)
    c = critical_points(entry["question"], box, evaluate=api.evaluate)
    assert c.complete and c.method in ("algebra", "interval")
    want = {(float(S.sympify(x)), float(S.sympify(y))): KIND[k]
            for x, y, k in entry["sympy"]["points"]}
    got = {(p.point["x"], p.point["y"]): p.kind for p in c.points}
    assert len(got) == len(want)
    for q, kind in want.items():
        assert [k for p, k in got.items() if max(abs(a - b) for a, b in zip(p, q)) < 1e-9] \
            == [kind]
    right = check_homework(entry["question"], critical=entry["answer"], over=entry["over"])
    assert right.ok, [a.reason for a in right.answers if not a.ok]
    wrong = check_homework(entry["question"], critical=entry["wrong"]["answer"],
                           over=entry["over"])
    assert not wrong.ok
    assert entry["wrong"]["mistake"] in [a.mistake for a in wrong.answers if not a.ok]
