"""`gradcli analyze` and `gradcli extrema` (one variable) through the CLI, and the
check answers of both kinds."""
import json

import pytest
from click.testing import CliRunner

from gradcli.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def record(*args):
    out = run(*args, "-o", "json")
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


# ---------------------------------------------------------------- analyze

def test_a_cubic_by_the_book():
    r = record("analyze", "x^3 - 3x")
    assert r["critical"] == ["-1", "1"] and r["critical_value"] == [-1.0, 1.0]
    assert r["increasing"] == ["(-inf, -1)", "(1, inf)"]
    assert r["decreasing"] == ["(-1, 1)"]
    assert r["relative_max"] == [{"x": "-1", "x_value": -1.0, "value": "2", "value_value": 2.0}]
    assert [p["x"] for p in r["relative_min"]] == ["1"]
    assert r["concave_up"] == ["(0, inf)"] and r["concave_down"] == ["(-inf, 0)"]
    assert [(p["x"], p["value"]) for p in r["inflection"]] == [("0", "0")]
    assert r["complete"] is True


def test_a_cusp_is_a_critical_number_where_f_prime_does_not_exist():
    r = record("analyze", "x^(2/3)")
    assert r["critical"] == ["0"]
    assert [p["x"] for p in r["relative_min"]] == ["0"]
    # f' does not exist at 0: the two concave-down intervals stay apart
    assert r["concave_down"] == ["(-inf, 0)", "(0, inf)"] and r["inflection"] == []


def test_vertical_asymptotes_split_the_intervals():
    r = record("analyze", "x/(x^2 - 1)")
    assert r["domain"] == ["(-inf, -1)", "(-1, 1)", "(1, inf)"]
    assert r["decreasing"] == ["(-inf, -1)", "(-1, 1)", "(1, inf)"]
    assert r["increasing"] == [] and r["critical"] == []
    assert [p["x"] for p in r["inflection"]] == ["0"]


def test_a_flat_critical_number_is_no_extremum():
    r = record("analyze", "x^4 - 4x^3")
    assert r["critical"] == ["0", "3"]
    assert r["decreasing"] == ["(-inf, 3)"] and r["relative_max"] == []
    assert [p["x"] for p in r["inflection"]] == ["0", "2"]


def test_an_interval_with_pi():
    r = record("analyze", "x + 2 cos(x)", "--over", "x=0:2pi")
    assert r["over"] == ["0", "2*pi"]  # JSON spells closed forms in ASCII
    assert r["critical"] == ["pi/6", "5*pi/6"]
    assert r["increasing"] == ["(0, pi/6)", "(5*pi/6, 2*pi)"]


def test_steps_show_the_sign_chart():
    out = run("analyze", "x^3 - 3x", "--steps", "-o", "plain")
    assert out.exit_code == 0, out.output
    assert "f'\t3*x^2 - 3" in out.output
    assert "f''\t6*x" in out.output
    assert "f' on (-inf, -1)\t+\tf increasing" in out.output
    assert "first-derivative test\tmax at x = -1 (f' + to -); min at x = 1 (f' - to +)" \
        in out.output
    steps = record("analyze", "x^3 - 3x", "--steps")["steps"]
    assert [s["sign"] for s in steps["f'"]] == ["+", "-", "+"]


@pytest.mark.parametrize("fmt", ["table", "plain", "markdown", "latex"])
def test_every_format(fmt):
    out = run("analyze", "x^3 - 3x", "-o", fmt)
    assert out.exit_code == 0, out.output
    assert "-1" in out.output


@pytest.mark.parametrize("args, code, words", [
    (["x*y"], 2, "one variable"),
    (["sign(x)"], 2, "'sign' is not among them"),
    (["sin(x)"], 3, "--over"),
    (["x^2", "--over", "x=3:1"], 2, "empty"),
    (["x^2", "--over", "y=0:1"], 2, "x=A:B"),
    (["x^2", "--over", "x=a:1"], 2, "not a number"),
])
def test_bad_questions_are_refused_plainly(args, code, words):
    out = run("analyze", *args)
    assert out.exit_code == code, out.output
    assert words in out.output and "Traceback" not in out.output


# ---------------------------------------------------------------- extrema

def test_the_closed_interval_method():
    r = record("extrema", "x^3 - 3x^2 + 1", "--over", "x=-1/2:4")
    assert [(c["at"]["x"], c["value"], c["from"]) for c in r["candidates"]] == [
        ("-1/2", "1/8", "endpoint"), ("0", "1", "interior"), ("2", "-3", "interior"),
        ("4", "17", "endpoint")]
    assert r["max"]["value"] == "17" and r["max"]["at"] == [{"x": "4"}]
    assert r["min"]["value"] == "-3" and r["min"]["at"] == [{"x": "2"}]


def test_every_point_where_it_is_attained_and_roots():
    r = record("extrema", "x^4 - 2x^2 + 3", "--over", "x=-2:3")
    assert r["min"]["at"] == [{"x": "-1"}, {"x": "1"}] and r["min"]["value"] == "2"
    r = record("extrema", "x sqrt(4 - x^2)", "--over", "x=-1:2")
    assert r["max"] == {"value": "2", "value_value": 2.0, "at": [{"x": "sqrt(2)"}],
                        "at_value": [{"x": 1.4142135623730951}]}


def test_a_real_root_on_a_negative_stretch():
    r = record("extrema", "x^(2/3)", "--over", "x=-8:1")
    assert (r["max"]["value"], r["max"]["at"]) == ("4", [{"x": "-8"}])
    assert (r["min"]["value"], r["min"]["at"]) == ("0", [{"x": "0"}])


@pytest.mark.parametrize("args, code, words", [
    (["1/x", "--over", "x=-1:1"], 3, "not continuous"),
    (["x^2", "--over", "x=0:inf"], 2, "finite ends"),
    (["x^2"], 2, "--over"),
])
def test_extrema_refuses_what_the_method_cannot_answer(args, code, words):
    out = run("extrema", *args)
    assert out.exit_code == code, out.output
    assert words in out.output


# ---------------------------------------------------------------- check

def answers(*args):
    out = run("check", *args, "-o", "json")
    assert out.exit_code in (0, 1), out.output
    return {a["name"]: a for a in json.loads(out.output)["answers"]}


def test_check_accepts_the_book_forms():
    got = answers("x^3 - 3x", "--increasing", "(1, ∞) ∪ (-∞, -1)", "--decreasing", "[-1, 1]",
                  "--relative-max", "(-1, 2)", "--relative-min", "1",
                  "--concave-up", "(0, 2) U (2, inf)", "--inflection", "x = 0")
    assert all(a["ok"] for a in got.values()), got


def test_check_reads_an_extremum_printed_as_a_value_of_f():
    # Stewart prints "the local maximum value f(0) = 5": the point (0, 5).
    got = answers("3x^4 - 4x^3 - 12x^2 + 5", "--relative-max", "f(0) = 5",
                  "--relative-min", "f(-1) = 0 and f(2) = -27")
    assert all(a["ok"] for a in got.values()), got


@pytest.mark.parametrize("option, answer, mistake", [
    ("--increasing", "(-1, 1)", "swapped"),
    ("--relative-max", "x = 1", "swapped"),
    ("--inflection", "x = 1", "not-inflection"),
    ("--decreasing", "(-1, 1) U (2, 3)", "wrong-intervals"),
    ("--relative-min", "(1, -1)", "wrong-value"),
    ("--relative-min", "f(1) = -1", "wrong-value"),
    ("--relative-max", "f(1) = -2", "swapped"),
    ("--concave-up", "none", "wrong-intervals"),
])
def test_check_names_the_mistake(option, answer, mistake):
    (a,) = answers("x^3 - 3x", option, answer).values()
    assert not a["ok"] and a["mistake"] == mistake, a


def test_a_split_where_f_prime_keeps_its_sign_and_an_asymptote():
    (a,) = answers("x^4 - 4x^3", "--decreasing", "(0, 3)").values()
    assert a["mistake"] == "no-sign-change" and "x = 0" in a["reason"]
    (a,) = answers("x^4", "--inflection", "x = 0").values()
    assert a["mistake"] == "no-sign-change"
    (a,) = answers("1/x", "--decreasing", "(-inf, inf)").values()
    assert a["mistake"] == "not-in-domain"
    (a,) = answers("1/x", "--decreasing", "(-inf, 0) U (0, inf)").values()
    assert a["ok"]


def test_check_absolute_extrema():
    got = answers("x^3 - 3x^2 + 1", "--over", "x=-1/2:4", "--abs-max", "17 at x = 4",
                  "--abs-min", "f(2) = -3")
    assert all(a["ok"] for a in got.values())
    got = answers("x^3 - 3x^2 + 1", "--over", "x=-1/2:4", "--abs-max", "1 at x = 0",
                  "--abs-min", "17")
    assert got["abs-max"]["mistake"] == "endpoint-forgotten"
    assert got["abs-min"]["mistake"] == "swapped"
    got = answers("x^2", "--over", "x=-2:2", "--abs-max", "4 at x = 2")
    assert got["abs-max"]["mistake"] == "missed"
    got = answers("x^2", "--over", "x=-2:2", "--abs-max", "max 4 at x = ±2")
    assert got["abs-max"]["ok"]


@pytest.mark.parametrize("args, words", [
    (["x^2", "--abs-max", "4"], "--over"),
    (["x^2", "--over", "x=0:1", "--abs-max", "four"], "not a number"),
    (["x^2", "--increasing", "(1, "], "not an interval"),
    (["x^2", "--increasing", "(3, 1)"], "empty"),
    (["x^2", "--relative-max", ""], "empty"),
    (["x^2", "--over", "x=0:1", "--abs-min", "none"], "extreme value theorem"),
])
def test_bad_answers_exit_2(args, words):
    out = run("check", *args)
    assert out.exit_code == 2, out.output
    assert words in out.output and "Traceback" not in out.output


def test_brackets_at_the_ends_of_over_where_f_is_defined():
    got = answers("x + 2 sin x", "--over", "x=0:2pi", "--increasing", "[0, 2π/3) U (4π/3, 2π]")
    assert got["increasing"]["ok"]
    got = answers("ln(x)", "--increasing", "[0, inf)")
    assert got["increasing"]["mistake"] == "not-in-domain"


def test_decimals_by_the_digits_rule():
    assert answers("x^5 - 5x^3", "--relative-max", "x = -1.732")["relative-max"]["ok"]
    got = answers("x^5 - 5x^3", "--relative-max", "x = -1.733")["relative-max"]
    assert not got["ok"] and got["mistake"] == "not-critical"


def test_the_library_grades_the_one_variable_answers():
    from gradcli import api
    v = api.check("x^3 - 3x", increasing="(-inf, -1) U (1, inf)", relative_min="x = 1")
    assert v.ok and [a.name for a in v.answers] == ["increasing", "relative-min"]
    v = api.check("x^2", over="x=-1:2", abs_max="4 at x = 2", abs_min="1 at x = -1")
    assert not v.ok and v.answers[1].mistake == "wrong-value"


@pytest.mark.parametrize("args, code, words", [
    (["tan(x)"], 3, "infinitely many pieces"),
    (["sqrt(-1 - x^2)"], 2, "defined at no interval"),
])
def test_domains_that_cannot_be_charted(args, code, words):
    out = run("analyze", *args)
    assert out.exit_code == code, out.output
    assert words in out.output


def test_a_line_and_a_corner_have_no_concavity():
    r = record("analyze", "x")
    assert r["increasing"] == ["(-inf, inf)"] and r["concave_up"] == r["concave_down"] == []
    r = record("analyze", "abs(x)")
    assert r["critical"] == ["0"] and [p["x"] for p in r["relative_min"]] == ["0"]
    assert r["concave_up"] == r["concave_down"] == []


def test_an_asymptote_inside_over():
    r = record("analyze", "sec(x)", "--over", "x=0:2pi")
    assert r["increasing"] == ["(0, pi/2)", "(pi/2, pi)"]
    assert [p["x"] for p in r["relative_max"]] == ["pi"]


def test_a_root_of_a_cubic_is_shown_by_its_digits_and_kept_exact_in_json():
    # Cardano's form of the critical number is exact and no reader can use it: a book
    # prints x ≈ -3.04 (the Socratic exercise 3x^5 - 5x^4 - 40x^3 + 120x^2)
    from click.testing import CliRunner
    from gradcli.cli import main
    plain = CliRunner().invoke(main, ["analyze", "3x^5-5x^4-40x^3+120x^2", "-o", "plain"])
    assert "relative max\tx ≈ -3.03652 (f ≈ 1026.83)" in plain.stdout
    assert "decreasing\t(-3.03652, 0)" in plain.stdout
    record = json.loads(CliRunner().invoke(
        main, ["analyze", "3x^5-5x^4-40x^3+120x^2", "-o", "json"]).stdout)
    assert "sqrt(161)" in record["critical"][0] and record["critical_value"][0] == \
        pytest.approx(-3.0365246694662202, rel=1e-15)
