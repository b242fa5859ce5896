"""The bounds of extrema: on a closed interval a point outside it is named as such
(`not-in-region`, the name the several-variable grader gives), whatever its value; a region
in four variables is refused (exit 2) with a hint."""
import pytest
from click.testing import CliRunner

from gradcli.cli import main
from gradcli.tasks.check import check_homework

F = "x^3 - 3x^2 + 1"


@pytest.mark.parametrize("key, answer", [
    ("abs_max", "21 at x = -2"),   # the value f(-2) = -19 is not even 21: the point speaks first
    ("abs_max", "1 at x = 3"),     # the right value, at a point beyond the interval
    ("abs_min", "-19 at x = -2"),  # f(-2) indeed, but -2 is not in [-1, 2]
    ("abs_min", "-3 at x = -1 and x = 4"),
])
def test_a_point_outside_the_interval_is_named(key, answer):
    a = check_homework(F, over="x=-1:2", **{key: answer}).answers[0]
    assert not a.ok and a.mistake == "not-in-region", (a.mistake, a.reason)
    assert "outside the interval [-1, 2]" in a.reason


@pytest.mark.parametrize("key, answer, mistake", [
    ("abs_max", "1 at x = 0", None), ("abs_min", "-3 at x = -1 and x = 2", None),
    ("abs_min", "-3 at x = 2", "missed"), ("abs_max", "-3 at x = 2", "swapped"),
    ("abs_max", "5 at x = 0", "wrong-value"),
])
def test_points_inside_keep_their_verdicts(key, answer, mistake):
    a = check_homework(F, over="x=-1:2", **{key: answer}).answers[0]
    assert a.ok == (mistake is None) and a.mistake == mistake, (a.mistake, a.reason)


def test_a_rounded_endpoint_is_the_endpoint_and_a_wrong_rounding_is_outside():
    assert check_homework("x^2", over="x=0:sqrt(2)", abs_max="2 at x = 1.414").ok
    a = check_homework("x^2", over="x=0:sqrt(2)", abs_max="2 at x = 1.415").answers[0]
    assert a.mistake == "not-in-region"


def test_through_the_cli():
    result = CliRunner().invoke(main, ["check", F, "--over", "x=-1:2", "--abs-max",
                                       "21 at x = -2", "-o", "plain"])
    assert result.exit_code == 1
    assert "x = -2 is outside the interval [-1, 2]" in result.output


@pytest.mark.parametrize("options", [["--where", "w^2 + x^2 + y^2 + z^2 <= 1"],
                                     ["--over", "w=0:1,x=0:1,y=0:1,z=0:1"]])
def test_a_region_in_four_variables_is_refused(options):
    result = CliRunner().invoke(main, ["extrema", "w + x + y + z"] + options)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "got 4" in result.output and "three variables" in result.output
