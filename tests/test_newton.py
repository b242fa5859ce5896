"""`gradcli newton` and `check --newton` / `check --roots` through the command line, and the
task's own rules (tasks/newton.py): the stopping rule, a zero derivative, a cycle, iterates
that run away or leave f's domain, roots of even multiplicity, jumps that are not roots."""
import json

import pytest
from click.testing import CliRunner

from gradcli.cli import main
from gradcli.tasks.newton import decimal_text, newton, roots


def run(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def record(*args):
    code, out, err = run(*args, "-o", "json")
    return code, json.loads(out) if out.strip() else None, err


# ---------------------------------------------------------------- the iteration

def test_square_root_of_two_until_two_iterates_agree():
    code, out, _ = run("newton", "x^2 - 2", "--at", "x=1", "--digits", "7", "-o", "plain")
    assert code == 0
    assert out.splitlines() == ["x0\t1.0000000", "x1\t1.5000000", "x2\t1.4166667",
                                "x3\t1.4142157", "x4\t1.4142136", "x5\t1.4142136",
                                "root\t1.4142136", "converged\tyes",
                                "why\tx4 and x5 agree to 7 decimal places"]


def test_json_keys_of_the_contract():
    code, rec, _ = record("newton", "x^3 + x - 1", "--at", "x=1", "--steps", "3")
    assert code == 0
    assert rec["iterates"] == ["0.750000", "0.686047", "0.682340"]
    assert rec["iterates_value"][0] == 0.75
    assert rec["converged"] is False and rec["root"] is None and rec["stop"] == "steps"
    assert rec["x0"] == "1" and len(rec["table"]) == 4


def test_steps_and_iterations_are_one_option():
    assert run("newton", "x^2 - 2", "--at", "x=1", "--steps", "2", "-o", "json")[1] == \
        run("newton", "x^2 - 2", "--at", "x=1", "--iterations", "2", "-o", "json")[1]


def test_the_start_is_kept_as_typed():
    code, rec, _ = record("newton", "cos x - x", "--at", "x=pi/4")
    assert code == 0 and rec["x0"] == "pi/4" and rec["root"] == "0.739085"


def test_a_cycle_is_said_plainly():
    code, rec, _ = record("newton", "x^3 - 2x + 2", "--at", "x=0")
    assert code == 0
    assert rec["converged"] is False and rec["stop"] == "cycle"
    assert rec["cycle"] == ["0.000000", "1.000000"]
    assert "cycle" in rec["why"]


def test_a_zero_derivative_stops_the_iteration():
    code, rec, _ = record("newton", "x^2 - 2", "--at", "x=0")
    assert code == 0 and rec["stop"] == "zero-derivative" and rec["iterates"] == []
    assert "f'(x0) = 0" in rec["why"] and "horizontal" in rec["why"]


def test_iterates_that_run_away():
    code, rec, _ = record("newton", "cbrt(x)", "--at", "x=1")
    assert code == 0 and rec["stop"] == "runaway" and not rec["converged"]
    assert rec["iterates"][:3] == ["-2.000000", "4.000000", "-8.000000"]


def test_iterates_that_leave_the_domain():
    code, rec, _ = record("newton", "ln(x)", "--at", "x=3")
    assert code == 0 and rec["stop"] == "undefined" and "domain" in rec["why"]


def test_undefined_at_the_start_exits_3():
    code, _, err = run("newton", "ln(x)", "--at", "x=-1")
    assert code == 3, err


def test_a_multiple_root_converges_slowly_and_still_rounds_right():
    r = newton("(x - 1)^2", 2)
    assert r.converged and r.root_text == "1.000000"


def test_the_sign_slip_is_computed_for_check():
    assert [r.text for r in newton("x^2 - 2", 1, steps=2, sign=+1).iterates] == \
        ["0.500000", "-1.250000"]


def test_decimals_are_the_iterates_own():
    # 1.4142135623746899 rounds to ...7469 at 13 significant places; the 12 places printed
    # come from the 40-digit iterate, not from a double.
    assert decimal_text(newton("x^2 - 2", 1, steps=4, digits=12).iterates[-1].x, 12) == \
        "1.414213562375"


@pytest.mark.parametrize("args,needle", [
    (["x^2 - 2"], "starting point"),
    (["x^2 - 2", "--at", "x=1", "--over", "x=0:2"], "one of them"),
    (["x^2 - 2", "--over", "x=0:2", "--steps", "3"], "--steps"),
    (["x*y - 2", "--at", "x=1,y=2"], "--wrt"),
    (["x*y - 2", "--at", "x=1"], "y"),
    (["x^2 - 2", "--at", "x=1", "--digits", "13"], "13"),
    (["[x, x] ", "--at", "x=1"], "one number"),
])
def test_bad_input_exits_2_with_a_message(args, needle):
    code, out, err = run("newton", *args)
    assert code == 2 and needle in err, (out, err)


def test_an_equation_as_the_book_prints_it():
    code, rec, _ = record("newton", "cos x = x", "--at", "x=1", "--digits", "8")
    assert code == 0 and rec["root"] == "0.73908513"
    code, rec, _ = record("newton", "x^3 = 2x + 5", "--over", "x=-3:3")
    assert code == 0 and rec["roots"] == ["2.094551"]
    code, rec, _ = check("cos x = x", "--at", "x=1", "--newton", "0.75036387, 0.73911289")
    assert code == 0, rec
    code, out, _ = run("newton", "cos x = x", "--at", "x=1", "-o", "markdown")
    assert "`cos x = x`" in out


def test_a_root_at_the_edge_of_the_domain():
    assert [r.text for r in roots("sqrt(x)", -1, 1).roots] == ["0.000000"]


def test_a_parameter_with_wrt():
    code, rec, _ = record("newton", "x^2 - a", "--at", "x=1,a=3", "--wrt", "x")
    assert code == 0 and rec["root"] == "1.732051"


@pytest.mark.parametrize("fmt", ["table", "plain", "json", "markdown", "latex"])
def test_every_format(fmt):
    code, out, err = run("newton", "x^3 - 2x - 5", "--at", "x=2", "--steps", "3", "-o", fmt)
    assert code == 0 and "2.094" in out, err


def test_the_table_fits_sixty_columns():
    result = CliRunner().invoke(main, ["newton", "x^3 - 2x + 2", "--at", "x=0", "-o", "table"],
                                env={"COLUMNS": "60"})
    assert result.exit_code == 0
    assert max(map(len, result.stdout.splitlines())) <= 100


# ---------------------------------------------------------------- roots in a range

def test_every_root_in_a_range():
    code, rec, _ = record("newton", "x^3 - 2x", "--over", "x=-3:3")
    assert code == 0
    assert rec["roots"] == ["-1.414214", "0.000000", "1.414214"]
    # a polynomial: Sturm's theorem proves the three are all
    assert rec["complete"] is True and rec["count"] == 3 and "Sturm" in rec["note"]
    code, rec, _ = record("newton", "cos x - x/5", "--over", "x=-8:8")
    assert rec["complete"] is False and "cannot prove" in rec["note"] and "count" not in rec


@pytest.mark.parametrize("text,low,high,n", [
    ("x^3 - 2x", -3, 3, 3), ("(x - 1)^2 (x + 2)", -3, 3, 2), ("x^2 + 1", -3, 3, 0),
    ("(x - 1)(x - 1.001)", 0, 3, 2), ("(x - 2)^2", 2, 3, 1), ("x^3 - 2x", 0, 3, 2),
    ("x^6 - 2", 0, 2, 1), ("2x^3/4 - 1.5", -3, 3, 1),
])
def test_sturm_counts_the_distinct_real_roots_of_a_polynomial(text, low, high, n):
    from gradcli.reading import read_program
    from gradcli.tasks.newton.sturm import count, polynomial
    assert count(polynomial(read_program(text), "x", {}), low, high) == n


@pytest.mark.parametrize("text", ["sin(x)", "x^7 x^7 - x^7 x^7 + x", "x^(1/2)", "pi x - 1",
                                  "a = x^2; a - 2"])
def test_sturm_makes_no_claim_beyond_polynomials_it_reads(text):
    from gradcli.reading import read_program
    from gradcli.tasks.newton.sturm import polynomial
    assert polynomial(read_program(text), "x", {}) is None


def test_check_holds_a_list_to_sturms_count():
    # two roots 1e-7 apart print alike at 6 places: one listed is one missed
    code, rec, _ = check("(x - 1)(x - 1.0000001)", "--over", "x=0:3", "--roots", "1.000000")
    assert code == 1 and rec["answers"][-1]["mistake"] == "missed"


def test_a_root_of_even_multiplicity_is_found_and_said():
    s = roots("(x - 1)^2 (x + 2)", -3, 3)
    assert [r.text for r in s.roots] == ["-2.000000", "1.000000"]
    assert [r.crossing for r in s.roots] == [True, False]
    assert any("touches 0" in w for w in s.warnings)


def test_a_near_miss_is_not_a_root():
    assert roots("(x - 1)^2 + 1e-10", 0, 3).roots == []


def test_a_pole_is_not_a_root():
    s = roots("tan(x)", -3, 3)
    assert [r.text for r in s.roots] == ["0.000000"] and len(s.rejected) == 2


def test_no_roots_is_an_answer():
    code, rec, _ = record("newton", "x^2 + 1", "--over", "x=-3:3")
    assert code == 0 and rec["roots"] == []


# ---------------------------------------------------------------- check

def check(*args):
    return record("check", *args)


def test_check_reads_each_iterate_at_the_precision_of_the_others():
    code, rec, _ = check("x^3 + x - 1", "--at", "x=1", "--newton", "0.75, 0.6860465, 0.6823396")
    assert code == 0 and rec["right"] == 3
    assert "7 decimal places" in rec["answers"][0]["note"]


def test_a_book_two_after_two_point_oh_oh_is_right():
    # x^2 - 4 from 3: x1 = 13/6, x2 = 2.0064..., x3 = 2.0000102..., x4 = 2.000000000026
    code, rec, _ = check("x^2 - 4", "--at", "x=3", "--newton",
                         "2.1666667, 2.0064103, 2.0000102, 2")
    assert code == 0, rec


def test_a_rounded_iterate_too_short_for_the_digits_rule_says_why_it_is_refused():
    # cos x = x from 1: x1 = 0.7503638678..., which a forum prints as 0.75; two
    # significant digits are graded within the tolerance, and the reason must not say
    # "x1 to 2 decimal places is 0.75" of the answer 0.75
    code, rec, _ = check("cos x = x", "--at", "x=1", "--newton", "0.75")
    (a,) = rec["answers"]
    assert code == 1 and a["mistake"] == "iterate"
    assert a["expected"] == "0.750364" and "fewer than 3 significant digits" in a["reason"]
    code, rec, _ = check("cos x = x", "--at", "x=1", "--newton", "0.76")
    assert code == 1 and "fewer than" not in rec["answers"][0]["reason"]


@pytest.mark.parametrize("answer,mistake", [
    ("0.5, -1.25", "sign-slip"),
    ("1.5, 1.4166666", "cut-off"),
    ("1.4166667, 1.4142157", "wrong-start"),
    ("1.5, 1.4166668", "iterate"),
])
def test_check_names_the_usual_mistakes(answer, mistake):
    code, rec, _ = check("x^2 - 2", "--at", "x=1", "--newton", answer)
    assert code == 1
    assert mistake in {a["mistake"] for a in rec["answers"] if not a["ok"]}


def test_an_iterate_past_a_zero_derivative_does_not_exist():
    code, rec, _ = check("x^2 - 2", "--at", "x=0", "--newton", "1")
    assert code == 1 and rec["answers"][0]["mistake"] == "no-iterate"


def test_check_roots_right_and_missed():
    code, rec, _ = check("x^3 - 2x", "--over", "x=-3:3", "--roots", "±1.414, 0")
    assert code == 0
    code, rec, _ = check("x^3 - 2x", "--over", "x=-3:3", "--roots", "-1.414, 1.414")
    assert code == 1
    missed = rec["answers"][-1]
    assert missed["mistake"] == "missed" and missed["mistake_detail"] == "0.000"


@pytest.mark.parametrize("answer,mistake", [
    ("-1.414, 0, 1.415", "not-a-root"),
    ("-1.414, 0, 1.4142135", "cut-off"),
])
def test_check_roots_mistakes(answer, mistake):
    code, rec, _ = check("x^3 - 2x", "--over", "x=-3:3", "--roots", answer)
    assert code == 1
    assert mistake in {a["mistake"] for a in rec["answers"] if not a["ok"]}


def test_one_root_listed_twice_at_two_precisions_is_not_two_roots():
    code, rec, _ = check("x^2 - 2", "--over", "x=0:3", "--roots", "1.4142, 1.41421")
    assert code == 1 and rec["answers"][1]["mistake"] == "repeated"


def test_a_root_outside_the_range():
    code, rec, _ = check("x^2 - 2", "--over", "x=0:3", "--roots", "1.414, -1.414")
    assert code == 1 and rec["answers"][1]["mistake"] == "outside-range"


@pytest.mark.parametrize("args,needle", [
    (["x^2 - 2", "--newton", "1.5"], "--at"),
    (["x^2 - 2", "--at", "x=1", "--newton", "1.5, abc"], "abc"),
    (["x^2 - 2", "--roots", "1.414"], "--over"),
    (["x^2 - 2", "--over", "x=0:2", "--roots", "1.414, 1.414"], "twice"),
    (["x^2 - 2", "--over", "x=0:2", "--roots", "1.414", "--critical", "1 min"], "two runs"),
    (["x^2 - 2", "--at", "x=1", "--newton", " "], "empty"),
])
def test_check_bad_input_exits_2(args, needle):
    code, out, err = run("check", *args)
    assert code == 2 and needle in err, (out, err)


@pytest.mark.parametrize("fmt", ["table", "plain", "json", "markdown", "latex"])
def test_check_every_format(fmt):
    code, out, err = run("check", "x^2 - 2", "--at", "x=1", "--newton", "1.5, 1.4166667",
                         "-o", fmt)
    assert code == 0, out + err


def test_a_wrong_iterate_carried_on_by_the_rule_is_named():
    # x2 = 1.42 is wrong; 1.4142254 is Newton's step from 1.42, not the true x3
    code, rec, _ = check("x^2 - 2", "--at", "x=1", "--newton", "1.5, 1.4200000, 1.4142254")
    assert code == 1
    assert [a["mistake"] for a in rec["answers"]] == [None, "iterate", "carried"]


def test_a_list_that_starts_with_x0_is_read_as_the_book_table():
    code, rec, _ = check("x^2 - 2", "--at", "x=1", "--newton", "1, 1.5, 1.4166667")
    assert code == 0 and [a["key"] for a in rec["answers"]] == ["x0", "x1", "x2"]


def test_a_slip_in_x1_is_not_another_start():
    code, rec, _ = check("x^3 - 3x + 1", "--at", "x=2", "--newton",
                         "1.666666666, 1.548611111, 1.532390162")
    assert code == 1 and rec["answers"][0]["mistake"] == "cut-off"


def test_a_pole_typed_as_a_root_is_not_one():
    code, rec, _ = check("tan(x)", "--over", "x=-1:4", "--roots", "0, 1.5708, 3.1416")
    assert code == 1 and rec["answers"][1]["mistake"] == "not-a-root"


def test_iterates_that_close_in_from_alternate_sides_are_not_a_cycle():
    # at 0 places they print 2, 1, 2, 1, ... while they converge to 1.5
    r = newton("atan(x - 1.5)", 2.2, digits=0)
    assert r.cycle is None and r.converged


def test_agreeing_iterates_where_f_never_reaches_0_are_no_root():
    code, rec, _ = record("newton", "x^2 + 1e-20", "--at", "x=0.001")
    assert code == 0 and rec["stop"] == "no-root" and rec["root"] is None
    assert not rec["converged"]
