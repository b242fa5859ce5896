"""--exact: rational arithmetic, exact derivatives, clear refusals, bounded powers."""
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from gradcli import api
from gradcli.cli import main
from gradcli.errors import DomainError, InexactError, LimitError
from gradcli.autodiff.exact import MAX_BITS, exact_pow, to_exact


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_rational_value_and_gradient():
    r = api.evaluate("x/y + x**2", x=Fraction(1, 2), y=3, exact=True)
    assert r.value == Fraction(5, 12)
    assert r.gradient == {"x": Fraction(4, 3), "y": Fraction(-1, 18)}
    assert all(type(v) is Fraction for v in [r.value, *r.gradient.values()])


def test_decimals_are_read_as_decimals():
    assert api.evaluate("0.1 + 0.2", exact=True).value == Fraction(3, 10)
    assert to_exact(0.1) == Fraction(1, 10)
    assert api.evaluate("1e-3*x", x="2.5E+4", exact=True).value == 25
    assert api.evaluate("3. + .5", exact=True).value == Fraction(7, 2)


def test_cli_plain_json_and_at_fractions():
    out = run("eval", "(w*x+b)**2", "--at", "w=1/3,x=3/4,b=-1", "--exact", "-o", "plain")
    assert out.exit_code == 0
    assert out.stdout == "f\t9/16\ndf/dw\t-9/8\ndf/dx\t-1/2\ndf/db\t-3/2\n"
    out = run("eval", "x/3", "--at", "x=1/7", "--exact", "-o", "json")
    record = json.loads(out.stdout)
    assert record["value"] == "1/21" and record["gradient"] == {"x": "1/3"}
    assert record["at"] == {"x": "1/7"}
    out = run("eval", "x*6", "--at", "x=1/2", "--exact", "-o", "json")
    assert json.loads(out.stdout)["value"] == 3


def test_exact_roots_and_rational_points():
    assert api.evaluate("sqrt(x)", x=Fraction(9, 4), exact=True).value == Fraction(3, 2)
    assert api.evaluate("cbrt(x)", x=-8, exact=True).value == -2
    assert api.evaluate("x**(3/2)", x=4, exact=True).gradient["x"] == 3
    assert api.constant_value("log2(8) + log10(1/100)", "value", exact=True) == 1
    with pytest.raises(InexactError, match="the derivative of log2.x. with respect to x "
                                           "needs log.2."):
        api.evaluate("log2(x)", x=8, exact=True)
    r = api.evaluate("sin(x) + exp(x) + sigmoid(x)", x=0, exact=True)
    assert r.value == Fraction(3, 2) and r.gradient["x"] == Fraction(9, 4)


@pytest.mark.parametrize("text,at,named", [
    ("sin(x)", {"x": 1}, "sin(1)"),
    ("sqrt(x)", {"x": 2}, "sqrt(2)"),
    ("x**0.5", {"x": 2}, "2**(1/2)"),
    ("sec(x)", {"x": 2}, "sec(2)"),
    ("pi*x", {"x": 1}, "pi"),
    ("x**y", {"x": 2, "y": 3}, "log(2)"),
])
def test_inexact_operations_are_named(text, at, named):
    with pytest.raises(InexactError) as info:
        api.evaluate(text, at, exact=True)
    assert named in info.value.message
    assert info.value.exit_code == 2


def test_cli_exact_gives_closed_forms_where_no_rational_exists():
    out = run("eval", "sin(x)", "--at", "x=1", "--exact", "-o", "plain")
    assert out.exit_code == 0 and out.stdout == "f\tsin(1)\ndf/dx\tcos(1)\n"
    out = run("eval", "x", "--at", "x=sqrt(2)", "--exact", "-o", "plain")
    assert out.exit_code == 0 and out.stdout.startswith("f\t√2\n")
    out = run("eval", "x**y", "--at", "x=2,y=3", "--exact", "-o", "json")
    assert out.exit_code == 0
    assert json.loads(out.stdout)["gradient"] == {"x": 12, "y": "8 ln(2)"}


def test_cli_exact_says_plainly_where_it_has_no_closed_form():
    out = run("eval", "sum(x)", "--at", "x=[1, 2]", "--exact")
    assert out.exit_code == 2 and "--exact" in out.stderr


def test_domain_errors_stay_exit_3():
    with pytest.raises(DomainError) as info:
        api.evaluate("1/x", x=0, exact=True)
    assert info.value.exit_code == 3
    assert run("eval", "1/x", "--at", "x=0", "--exact").exit_code == 3


@pytest.mark.parametrize("text", ["10**10**10", "2**(2**20)", "(1/3)**-100000",
                                  "x**100000", "7**13001"])
def test_huge_powers_are_refused(text):
    with pytest.raises(LimitError):
        api.evaluate(text, x=3, exact=True)


def test_repeated_squaring_is_bounded():
    lines = ["a0 = x"] + [f"a{i} = a{i - 1}*a{i - 1}" for i in range(1, 40)]
    with pytest.raises(LimitError):
        api.evaluate("\n".join(lines), x=3, exact=True)


def test_trivial_bases_take_any_exponent():
    assert exact_pow(Fraction(1), Fraction(10 ** 30)) == 1
    assert exact_pow(Fraction(-1), Fraction(10 ** 30 + 1)) == -1
    assert exact_pow(Fraction(0), Fraction(10 ** 30)) == 0
    assert exact_pow(Fraction(2), Fraction(MAX_BITS - 2)).numerator.bit_length() == MAX_BITS - 1


def test_kinks_keep_pytorch_numbers_exactly():
    r = api.evaluate("abs(x) + relu(x) + max(x, y)", x=0, y=0, exact=True)
    assert r.gradient == {"x": Fraction(1, 2), "y": Fraction(1, 2)}
    assert len(r.warnings) == 3


def test_exact_with_check_and_seed():
    out = run("eval", "x**2", "--at", "x=1/3", "--exact", "--check", "-o", "plain")
    assert out.exit_code == 0
    assert out.stdout.splitlines()[:3] == ["f\t1/9", "df/dx\t2/3", "fd df/dx\t0.6666666666666666"]
    out = run("eval", "x**2", "--at", "x=1/3", "--exact", "--seed", "2/3", "-o", "plain")
    assert out.stdout == "f\t1/9\ndf/dx\t4/9\n"


def test_random_rational_expressions_are_exact():
    """+ - * / and integer powers of fractions agree exactly with SymPy's rationals."""
    import sympy as sp
    from hypothesis import HealthCheck, assume, given, settings
    from hypothesis import strategies as st
    from sympy_bridge import to_sympy

    from gradcli.language.parser import parse_expr

    leaves = st.one_of(st.sampled_from(["x", "y"]), st.sampled_from(["2", "0.5", "3/7", "-1.25"]))

    def extend(children):
        return st.one_of(
            st.tuples(children, st.sampled_from(["+", "-", "*", "/"]), children).map(
                lambda t: f"({t[0]}) {t[1]} ({t[2]})"),
            st.tuples(children, st.sampled_from(["2", "3", "-1", "-2", "0"])).map(
                lambda t: f"({t[0]})**{t[1]}"))

    @settings(max_examples=150, derandomize=True, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much])
    @given(st.recursive(leaves, extend, max_leaves=6),
           st.sampled_from([Fraction(1, 3), Fraction(-5, 4), Fraction(7)]),
           st.sampled_from([Fraction(2, 9), Fraction(-1, 2)]))
    def check(text, x, y):
        try:
            r = api.evaluate(text, {"x": x, "y": y}, exact=True)
        except DomainError:
            assume(False)
        symbols = {}
        f = to_sympy(parse_expr(text), symbols, exact=True)
        point = {s: sp.Rational(x if n == "x" else y) for n, s in symbols.items()}
        assert sp.Rational(r.value) == f.subs(point)
        for name, g in r.gradient.items():
            assert type(g) is Fraction and sp.Rational(g) == sp.diff(f, symbols[name]).subs(point)

    check()


@pytest.mark.parametrize("literal", ["1e-32099999999", "9999999999999999999991e-32099999999",
                                     "1e-9000", "0.5e-7000"])
def test_a_literal_whose_exponent_is_past_the_limit_is_refused_at_once(literal):
    # Fraction would first compute 10**32099999999: the run never ended.
    with pytest.raises(LimitError, match="too large for exact arithmetic"):
        api.evaluate(f"x*{literal}", x=1, exact=True)


def test_zero_and_moderate_exponents_stay_exact():
    assert api.evaluate("x*0e-99999999999999", x=1, exact=True).value == 0
    assert api.evaluate("x*1e-3000", x=1, exact=True).value == Fraction(1, 10 ** 3000)
    assert api.evaluate("x*0.000025e3", x=1, exact=True).value == Fraction(1, 40)
