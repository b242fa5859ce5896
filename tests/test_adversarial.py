"""A fast slice of bench/adversarial.py: generated printed-math inputs, named functions,
homework commands and check answers, each judged by SymPy from the generator's own
structure. The full run (thousands of inputs) is `python bench/adversarial.py`."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
import adversarial  # noqa: E402

# Outcomes that are a wrong answer given in silence, or a crash.
BAD = ("silent-wrong", "crash")


@pytest.mark.parametrize("category", ["notation", "named", "homework", "check", "messages", "numerics"])
def test_generated_inputs_are_never_silently_wrong(category):
    cases = adversarial.generate(60, seed=7, only=category)
    rep = adversarial.run_cases(cases, keep=3)
    bad = {k: [e for e in v if e] for k, v in rep.examples.items() if k[1] in BAD}
    assert sum(rep.counts[category][o] for o in BAD) == 0, bad
    assert rep.counts[category]["rejected-right"] == 0, rep.text()


@pytest.mark.slow
def test_the_full_harness_finds_no_silent_wrong_answer():
    # 3,000 in CI's run; bench/adversarial.py runs larger campaigns (--per-family N)
    cases = adversarial.generate(3000, seed=24)
    rep = adversarial.run_cases(cases, keep=2)
    assert rep.total >= 3000
    assert rep.silent() == 0, rep.text()
