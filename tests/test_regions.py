"""Absolute extrema in several variables: on rectangles and regions (`extrema --over
x=..,y=..`, `--where`) and by Lagrange multipliers (`--subject-to`), and their `check`.

The published exercises (tests/textbook/regions.json): each printed answer verified by
SymPy alone (textbook/verify_regions.py), solved by gradcli, accepted by `check` as
printed, and a plausible wrong answer refused with its mistake named. Most of it runs
in the slow job; a few entries and the command line run always.
"""
import copy
import json
import os
import sys

import pytest
from click.testing import CliRunner

from gradcli.cli import main
from gradcli.errors import GradcliError
from gradcli.tasks.check.regions import grade_answers, prepare
from gradcli.tasks.several import solve

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "textbook"))
import verify_regions  # noqa: E402

CORPUS = verify_regions.load()
QUICK = ["stewart-14.7-ex7", "stewart-14.8-ex2"]


def run(*args):
    return CliRunner().invoke(main, list(args))


def _solve(entry):
    return solve(entry["question"], entry.get("over"), entry.get("where"),
                 entry.get("subject_to"))


def _graded(result, answers):
    return grade_answers(result, prepare(answers, result.names))


def test_the_corpus_has_ten_exercises_of_each_kind_from_named_books():
    kinds = {}
    for e in CORPUS:
        kinds.setdefault(e["kind"], []).append(e)
        if e.get("typed") == "page":
            # copied from a published page: the page is named by its address
            assert "http" in e["source"] and e["notes"].startswith("copied from http")
        else:
            assert e["source"].split(",")[0] in ("Stewart", "OpenStax Calculus Volume 3",
                                                 "Paul's Online Notes", "Thomas' Calculus")
    assert len(kinds["region"]) >= 10 and len(kinds["lagrange"]) >= 10
    assert len({e["id"] for e in CORPUS}) == len(CORPUS)


@pytest.mark.slow
@pytest.mark.parametrize("entry", CORPUS, ids=[e["id"] for e in CORPUS])
def test_sympy_confirms_every_printed_answer(entry):
    assert verify_regions.verify(entry) == []


@pytest.mark.slow
@pytest.mark.parametrize("entry", CORPUS, ids=[e["id"] for e in CORPUS])
def test_sympy_refutes_the_wrong_answer(entry):
    wrong = copy.deepcopy(entry)
    wrong["answers"] = {entry["wrong"]["option"]: entry["wrong"]["answer"]}
    assert verify_regions.verify(wrong) != []


def _corpus_case(entry):
    result = _solve(entry)
    right = _graded(result, entry["answers"])
    assert [a.ok for a in right] == [True] * len(right), [(a.answer, a.reason) for a in right]
    wrong = _graded(result, {entry["wrong"]["option"]: entry["wrong"]["answer"]})[0]
    assert not wrong.ok
    assert wrong.mistake == entry["wrong"]["mistake"], wrong.reason


@pytest.mark.parametrize("entry", [e for e in CORPUS if e["id"] in QUICK], ids=QUICK)
def test_a_few_exercises_solved_and_graded(entry):
    _corpus_case(entry)


@pytest.mark.slow
@pytest.mark.parametrize("entry", [e for e in CORPUS if e["id"] not in QUICK],
                         ids=[e["id"] for e in CORPUS if e["id"] not in QUICK])
def test_every_exercise_solved_and_graded(entry):
    _corpus_case(entry)


def test_the_command_line_rectangle_in_json_with_exact_strings():
    out = run("extrema", "x^2 - 2x y + 2y", "--over", "x=0:3,y=0:2", "-o", "json")
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    assert record["max"] == {"value": "9", "value_value": 9.0, "at": [{"x": "3", "y": "0"}],
                             "at_value": [{"x": 3.0, "y": 0.0}]}
    assert record["min"]["at"] == [{"x": "0", "y": "0"}, {"x": "2", "y": "2"}]
    assert {c["from"] for c in record["candidates"]} == {"interior", "boundary", "corner"}


def test_check_on_the_command_line_names_a_missed_lagrange_point_and_exits_1():
    out = run("check", "x^2 + 2y^2", "--subject-to", "x^2 + y^2 = 1",
              "--abs-max", "2 at (0, 1)", "--abs-min", "f(±1, 0) = 1", "-o", "json")
    assert out.exit_code == 1, out.output
    answers = json.loads(out.output)["answers"]
    assert [a["ok"] for a in answers] == [False, True]
    assert answers[0]["mistake"] == "missed" and "(0, -1)" in answers[0]["reason"]


def test_an_unbounded_constraint_set_has_none_with_why():
    out = run("extrema", "x y", "--subject-to", "x + y = 1", "-o", "json")
    record = json.loads(out.output)
    assert record["min"] == "none" and "-∞" in record["why"]["min"]
    assert record["max"]["value"] == "1/4" and record["candidates"][0]["lambda"] == "1/2"


@pytest.mark.parametrize("args, words", [
    (["x + y", "--where", "x >= 0, y >= 0"], "not bounded"),
    (["x + y", "--where", "x^2 + y^2 < 4"], "strict"),
    (["x + y", "--where", "x^2 + y^2 = 4"], "--subject-to"),
    (["x + y", "--over", "x=0:1,y=0:1", "--where", "x <= 1"], "one of"),
    (["x + y + z", "--over", "x=0:1,y=0:1"], "'z' is not a variable"),
    (["x + y", "--subject-to", "x + y"], "not an equation"),
])
def test_bad_regions_are_refused_with_exit_2(args, words):
    out = run("extrema", *args)
    assert out.exit_code == 2 and words in out.output, out.output


def test_a_discontinuity_in_the_region_is_refused_not_guessed():
    with pytest.raises(GradcliError, match="not continuous"):
        solve("1/x", None, "x^2 + y^2 <= 4", None)


def test_a_point_of_a_side_of_attainment_is_right_and_one_off_it_is_not():
    result = solve("x y^2", None, "x >= 0, y >= 0, x^2 + y^2 <= 3", None)
    assert result.min.along == ["x = 0, 0 <= y <= √3", "y = 0, 0 <= x <= √3"]
    right, wrong = (_graded(result, {"abs_min": a})[0] for a in ("0 at (0, 1)", "0 at (1, 1)"))
    assert right.ok and not wrong.ok and wrong.mistake == "not-attained"


@pytest.mark.slow
def test_a_plane_in_space_has_neither_extremum_of_xyz_and_says_why():
    result = solve("x y z", None, None, ["x + y + z = 1"])
    assert result.max.value is None and result.min.value is None
    assert "∞" in result.max.why and "-∞" in result.min.why
    graded = _graded(result, {"abs_max": "1/27 at (1/3, 1/3, 1/3)", "abs_min": "none"})
    assert [(a.ok, a.mistake) for a in graded] == [(False, "no-extremum"), (True, None)]


@pytest.mark.parametrize("text, subject_to, words", [
    ("1/x", ["x^2 + y^2 = 1"], "not defined"),
    ("e^(x y)", ["x^2 + y^2 = 2"], "polynomial"),
])
def test_lagrange_refuses_what_it_cannot_settle(text, subject_to, words):
    with pytest.raises(GradcliError, match=words):
        solve(text, None, None, subject_to)


@pytest.mark.slow
def test_a_transcendental_f_whose_critical_points_sympy_lists_in_part_is_refused():
    # sin x = 1 at π/2 and 5π/2, both in [0, 10]: SymPy's list has one of them
    with pytest.raises(GradcliError, match="miss some critical points"):
        solve("sin(x) + cos(y)", "x=0:10,y=0:1", None, None)


@pytest.mark.slow
def test_two_polynomial_equations_are_solved_completely_where_sympy_returns_nothing():
    import sympy as sp
    from gradcli.tasks.exactsolve import poly_points
    x, y = sp.symbols("x y", real=True)
    # the circle and the tangency condition of x^3 - 3xy + y^2: SymPy's solve gives []
    points = poly_points(4 - x**2 - y**2, 4*x*y + 6*y**2 - 6*x**2*y - 6*x**2, x, y)
    assert len(points) == 4
    for p in points:
        assert abs((p["x"]**2 + p["y"]**2 - 4).evalf(40)) < 1e-35
    result = solve("x^3 - 3x y + y^2", None, "x^2 + y^2 <= 4", None)
    assert abs(float(result.max.value.evalf()) - 11.3972354276) < 1e-9


@pytest.mark.slow
def test_an_incomplete_lagrange_solution_in_space_is_refused_not_printed():
    # SymPy's solve misses (±2, 0, 0) here, where f = ±8; the sample of the sphere finds them
    with pytest.raises(GradcliError, match="incomplete"):
        solve("x^3 - 3x y + z^2", None, None, ["x^2 + y^2 + z^2 = 4"])


def test_plus_minus_in_two_coordinates_is_also_read_with_the_signs_together():
    result = solve("x y", None, None, ["x^2 + y^2 = 1"])
    graded = _graded(result, {"abs_max": "1/2 at (±1/√2, ±1/√2)",
                              "abs_min": "-1/2 at (±1/√2, ∓1/√2)"})
    assert [a.ok for a in graded] == [True, True]
    assert "together" in graded[0].note
    # one ± alone has one reading: (1/√2, -1/√2) is where the minimum is
    wrong = _graded(result, {"abs_max": "1/2 at (1/√2, ±1/√2)"})[0]
    assert not wrong.ok and wrong.mistake == "swapped"


@pytest.mark.parametrize("over, where, subject_to", [
    (None, "x^2 + y^2 <= -1", None),
    (None, "x >= 1, x <= 0, y >= 0, y <= 1", None),
    (None, None, ["x^2 + y^2 = -1"]),
])
def test_an_empty_region_or_constraint_set_is_refused(over, where, subject_to):
    with pytest.raises(GradcliError, match="empty"):
        solve("x y", over, where, subject_to)


def test_a_quartic_sphere_is_bounded_though_its_leading_part_has_complex_zeros():
    from gradcli.tasks.regionshape import directions_to_infinity, read_constraints
    # x^4 + y^4 + z^4 = 0 on the unit sphere has complex solutions only; SymPy returns
    # them as a family with a free parameter, which once read as real directions
    assert directions_to_infinity(read_constraints(["x^4 + y^4 + z^4 = 1"])) == []
    assert directions_to_infinity(read_constraints(["2x^6 + y^6 + 3z^6 = 5"])) == []
    # a leading part of one variable, or of both signs, still goes to the solver
    assert directions_to_infinity(read_constraints(["x^2 - y^2 + z^4 = 1"])) != []
    assert directions_to_infinity(read_constraints(["x^4 - y^4 + z^4 = 1"])) != []
