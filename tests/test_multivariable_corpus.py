"""The multivariable corpus (tests/textbook/multivariable.json) through gradcli: the chain
rule (diff --with) and level surfaces' tangent planes and normal lines, from published books.

For every entry (the solving and checking of all but four per kind marked slow): SymPy proves the printed answer (verify_multivariable.py); gradcli
solves the question and agrees with SymPy; `gradcli check` accepts the printed answer
(exit 0) and refuses the entry's plausible wrong answer (exit 1) with its mistake named;
for a surface, both the normal line (--normal) and the tangent plane (--tangent).
"""
import json
import os
import shlex
import sys

import pytest
import sympy as S
from click.testing import CliRunner

from gradcli.cli import main

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "textbook")
sys.path.insert(0, HERE)
import verify_multivariable as V  # noqa: E402

ENTRIES = json.load(open(os.path.join(HERE, "multivariable.json"), encoding="utf-8"))
IDS = [e["id"] for e in ENTRIES]
FAST = 4  # entries per kind solved and checked in the default run; the rest are marked slow


def _of_kind(kind):
    """The entries of a kind as pytest params, all but the first FAST marked slow."""
    chosen = [e for e in ENTRIES if e["kind"] == kind]
    return [pytest.param(e, id=e["id"], marks=() if i < FAST else pytest.mark.slow)
            for i, e in enumerate(chosen)]


def run(args):
    return CliRunner().invoke(main, list(args))


def record(args):
    result = run(list(args) + ["-o", "json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def read(text):
    """gradcli's own text (JSON closed forms, the book's 2x + 4y) read back by gradcli."""
    from gradcli.tasks.exactinput import read_sympy
    return read_sympy(text)[0]


def zero(e) -> bool:
    """e is 0: expanded (after writing sin and cos as exponentials, which settles trig
    polynomials at once), else SymPy's simplify, or its equals where simplify leaves
    sin^6 + cos^6 forms."""
    return S.expand(e) == 0 or S.expand(e.rewrite(S.exp)) == 0 or S.simplify(e) == 0 \
        or S.simplify(S.expand_trig(e)) == 0 or e.equals(0) is True


def test_the_corpus_has_ten_published_exercises_of_each_kind():
    kinds = [e["kind"] for e in ENTRIES]
    assert kinds.count("chain-rule") >= 10 and kinds.count("surface-normal") >= 10
    assert len(set(IDS)) == len(IDS)


def _proofs():
    """Every entry; those copied from published pages (typed: page) in the slow job."""
    return [pytest.param(e, id=e["id"], marks=pytest.mark.slow if e.get("typed") == "page"
                         else ()) for e in ENTRIES]


@pytest.mark.parametrize("entry", _proofs())
def test_sympy_proves_the_printed_answer(entry):
    assert V.verify(entry)


def _chain_args(entry):
    return [entry["question"], "--with", entry["with"], "--wrt", entry["wrt"]]


@pytest.mark.parametrize("entry", _of_kind("chain-rule"))
def test_chain_rule_solved_accepted_and_the_wrong_answer_named(entry):
    direct, _ = V.truth(entry)
    at = ["--at", entry["at"]] if "at" in entry else []
    code, rec = record(["diff"] + _chain_args(entry) + at)
    p = entry["wrt"]
    assert code == 0
    assert zero(read(rec["derivatives"][p]) - direct)
    inner = {V.LETTERS[k]: V.expr(v) for k, v in entry["sympy"]["with"].items()}
    assert zero(read(rec["mixed"][p]).xreplace(inner) - direct)
    if "at" in entry:
        assert zero(read(rec["values"][p]) - V.expr(entry["sympy"]["value"]))
    code, rec = record(["check"] + _chain_args(entry) + ["--derivative", entry["answer"]])
    assert code == 0 and rec["ok"], rec
    if "at" in entry:
        code, rec = record(["check"] + _chain_args(entry) + at
                           + ["--derivative", entry["value"]])
        assert code == 0 and rec["ok"], rec
    code, rec = record(["check"] + _chain_args(entry) + ["--derivative",
                                                         entry["wrong"]["answer"]])
    assert code == 1
    assert rec["answers"][0]["mistake"] == entry["wrong"]["mistake"], rec


@pytest.mark.parametrize("entry", _of_kind("surface-normal"))
def test_surface_solved_accepted_and_the_wrong_answer_named(entry):
    s = entry["sympy"]
    code, rec = record(["tangent", entry["question"], "--at", entry["at"]])
    assert code == 0
    xyz = [V.LETTERS[n] for n in "xyz"]
    F = V.expr(s["F"])
    point = dict(zip(xyz, [V.expr(v) for v in s["point"]]))
    grad = [S.diff(F, v).xreplace(point) for v in xyz]
    assert [read(v) for v in rec["normal"]["point"]] == list(point.values())
    assert V.parallel([read(v) for v in rec["normal"]["direction"]], grad)
    lhs, rhs = rec["expanded"].split("=")
    plane = read(lhs) - read(rhs)
    assert S.simplify(plane.xreplace(point)) == 0
    assert V.parallel([S.diff(plane, v) for v in xyz], grad)
    # the printed line, and the line as gradcli prints it, are both accepted
    for answer in (entry["normal"], rec["normal"]["parametric"], rec["normal"]["symmetric"]):
        code, got = record(["check", entry["question"], "--at", entry["at"], "--normal", answer])
        assert code == 0 and got["ok"], (answer, got)
    code, got = record(["check", entry["question"], "--at", entry["at"], "--normal",
                        entry["wrong"]["normal"]])
    assert code == 1
    assert got["answers"][0]["mistake"] == entry["wrong"]["mistake"], got
    # the printed plane, and both planes gradcli prints, are accepted by --tangent
    if "plane" not in entry:  # the source prints only the normal line
        return
    for answer in (entry["plane"], rec["equation"], rec["expanded"]):
        code, got = record(["check", entry["question"], "--at", entry["at"], "--tangent", answer])
        assert code == 0 and got["ok"], (answer, got)
    code, got = record(["check", entry["question"], "--at", entry["at"], "--tangent",
                        entry["wrong_plane"]["plane"]])
    assert code == 1
    assert got["answers"][0]["mistake"] == entry["wrong_plane"]["mistake"], got
