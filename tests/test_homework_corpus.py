"""Published homework problems (tests/textbook/homework.json) graded by `gradcli check`.

For every problem: SymPy confirms the book's printed answer (and refutes the
entry's perturbed answer), the question as printed is read the way its SymPy
transcription says, `gradcli check` accepts the printed answer as typed (exit 0)
and refuses the perturbed one (exit 1). The corpus and its sources are described
in tests/textbook/README.md; tests/textbook/verify_homework.py is the SymPy
side, also runnable on its own.
"""
import copy
import math
import os
import random
import subprocess
import sys
from collections import Counter

import pytest
from click.testing import CliRunner

from gradcli import api
from gradcli.cli import main
from gradcli.language.parser import parse

import sympy  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "textbook")
sys.path.insert(0, HERE)
import verify_homework  # noqa: E402  (the SymPy side of the corpus, a script beside it)

CORPUS = verify_homework.load()

MINIMUMS = {"tangent-line": 8, "tangent-plane": 6, "directional": 6, "critical": 8,
            "taylor": 8, "implicit": 6}

XFAIL: dict = {}  # (id, 'right' | 'wrong') -> why gradcli fails it (none now)


def _param(entry, which):
    reason = XFAIL.get((entry["id"], which))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(entry, id=entry["id"], marks=marks)


def _check(args):
    result = CliRunner().invoke(main, ["check", *args, "-o", "plain"])
    return result.exit_code, result.stdout, result.stderr


# ---------------------------------------------------------------- the corpus itself

def test_the_corpus_is_large_and_covers_every_homework_kind():
    kinds = Counter(e["kind"] for e in CORPUS)
    assert len(CORPUS) >= 45
    for kind, least in MINIMUMS.items():
        assert kinds[kind] >= least, kind
    assert len({e["id"] for e in CORPUS}) == len(CORPUS)
    assert all(e["source"] and e["notes"] for e in CORPUS)


# SymPy alone judging the test data (no gradcli): the data changes only with the corpus,
# so these run once per CI run, in the slow job, not on every Python.
@pytest.mark.slow
def test_the_verifier_script_passes_on_the_whole_corpus():
    done = subprocess.run([sys.executable, os.path.join(HERE, "verify_homework.py")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(CORPUS)}/{len(CORPUS)} entries pass" in done.stdout


# SymPy alone judging the test data (no gradcli): the data changes only with the corpus,
# so these run once per CI run, in the slow job, not on every Python.
@pytest.mark.slow
@pytest.mark.parametrize("entry", [pytest.param(e, id=e["id"]) for e in CORPUS])
def test_sympy_confirms_the_printed_answer_and_refutes_the_perturbed_one(entry):
    assert verify_homework.verify_entry(entry) in ("exact", "numeric", "rounded")


# SymPy alone judging the test data (no gradcli): the data changes only with the corpus,
# so these run once per CI run, in the slow job, not on every Python.
@pytest.mark.slow
@pytest.mark.parametrize("entry", [pytest.param(e, id=e["id"]) for e in CORPUS])
def test_the_verifier_would_refuse_a_wrong_printed_answer(entry):
    # The perturbed answer put in the printed answer's place must fail the SymPy check,
    # so a mistyped corpus entry cannot pass unnoticed.
    swapped = copy.deepcopy(entry)
    spec = swapped["sympy"]
    if entry["kind"] == "critical":
        spec["points"], spec["wrong"] = spec["wrong"], spec["points"]
    else:
        spec["answer"], spec["wrong"] = spec["wrong"], spec["answer"]
    with pytest.raises(ValueError):
        verify_homework.verify_entry(swapped)


# ---------------------------------------------------------------- gradcli reads the question

def _sides(entry):
    """(printed text, SymPy text) pairs: the function, or both sides of the equation."""
    spec = entry["sympy"]
    if entry["kind"] == "implicit":
        printed = [side.strip() for side in entry["question"].split("=")]
        return list(zip(printed, spec["equation"]))
    return [(entry["question"], spec["function"])]


@pytest.mark.parametrize("entry", [pytest.param(e, id=e["id"]) for e in CORPUS])
def test_the_question_is_read_as_its_sympy_transcription(entry):
    names = entry["sympy"]["variables"]
    symbols = {n: sympy.Symbol(n, real=True) for n in names}
    rng = random.Random(entry["id"])
    for printed, text in _sides(entry):
        program = parse(printed, names)
        want_expr = sympy.sympify(text, locals=symbols)
        for _ in range(4):
            point = {n: rng.uniform(0.3, 1.7) for n in names}
            got = api.evaluate(printed, point, program=program).value
            want = complex(want_expr.evalf(30, subs={symbols[n]: v for n, v in point.items()}))
            assert abs(want.imag) < 1e-12
            assert math.isclose(got, want.real, rel_tol=1e-9, abs_tol=1e-9), (printed, point)


# ---------------------------------------------------------------- gradcli grades the answers

@pytest.mark.parametrize("entry", [_param(e, "right") for e in CORPUS])
def test_check_accepts_the_printed_answer_as_typed(entry):
    code, out, err = _check(entry["check"])
    assert code == 0, (entry["check"], out, err)
    assert "\twrong\t" not in out


@pytest.mark.parametrize("entry", [_param(e, "wrong") for e in CORPUS])
def test_check_refuses_the_perturbed_answer(entry):
    code, out, err = _check(entry["wrong"]["check"])
    assert code == 1, (entry["wrong"]["check"], out, err)
    assert "\twrong\t" in out


def test_the_installed_command_grades_a_corpus_entry():
    entry = next(e for e in CORPUS if e["id"] == "openstax-c3-4.4-example-tangent-plane-a")
    for args, code in ((entry["check"], 0), (entry["wrong"]["check"], 1)):
        done = subprocess.run([sys.executable, "-m", "gradcli", "check", *args, "-o", "plain"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == code, done.stdout + done.stderr
        assert done.stdout.startswith("tangent\t" + ("right" if code == 0 else "wrong"))


# ---------------------------------------------------------------- every coefficient perturbed

_SOLVERS = {"tangent-line": verify_homework._tangent, "tangent-plane": verify_homework._tangent,
            "directional": verify_homework._directional, "taylor": verify_homework._taylor,
            "implicit": verify_homework._implicit}


def _perturbations(entry):
    """The SymPy answer with each of its numbers, in turn, multiplied by 1.001, as text."""
    e = verify_homework.Entry(entry)
    answer = e.parse(entry["sympy"]["answer"])
    numbers = sorted({a for a in answer.atoms(sympy.Number) if a not in (0, 1, -1)}, key=str)
    for number in numbers:
        wrong = answer.xreplace({number: number * sympy.Rational(1001, 1000)})
        if wrong != answer:
            # SymPy prints Euler's number as E; the expression language spells it e.
            yield str(wrong).replace("E", "e"), wrong


def _coefficient_param(entry):
    return pytest.param(entry, id=entry["id"])


@pytest.mark.parametrize("entry", [_coefficient_param(e) for e in CORPUS
                                   if e["kind"] in _SOLVERS and not e["sympy"].get("rounded")])
def test_check_refuses_each_coefficient_of_the_answer_changed_by_1e_3(entry):
    e = verify_homework.Entry(entry)
    truth, _ = _SOLVERS[entry["kind"]](e, "0")
    rng = random.Random(entry["id"])
    tried = 0
    for text, wrong in _perturbations(entry):
        if entry["kind"] == "implicit" and "at" in entry["sympy"]:
            wrong = wrong.subs(e.point())
        if not e.differ(truth, wrong, rng):
            continue
        args = [text if a == entry["answer"] else a for a in entry["check"]]
        code, out, err = _check(args)
        assert code == 1, (text, out, err)
        tried += 1
    # Answers such as x + y or x - y + 1 have no number but 1 to change.
    assert tried or not list(_perturbations(entry)) or entry["kind"] == "implicit"
