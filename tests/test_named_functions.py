"""Functions with names: f(x) = ... defines one; f(2), f'(2), f''(x), g_x(1, 2) use it.

Against SymPy: generated functions, and every exercise of the textbook corpus
defined as f(...) = <the function as printed> and asked for its derivatives at a
point. Through the CLI: the issue's example, diff through a definition, and each
bad use with its message and exit 2.
"""
import json
import math
import os
import random

import pytest
import sympy as sp
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from gradcli import api
from gradcli.cli import main
from gradcli.errors import GradcliError
from gradcli.language.printer import read_as, to_latex
from gradcli.reading import read_program

from test_homework import X, Y, functions

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "textbook")
with open(os.path.join(HERE, "exercises.json"), encoding="utf-8") as _f:
    CORPUS = json.load(_f)
# Entries whose printed function gradcli reads otherwise on purpose (test_textbook.py).
SKIP = {"paul-c1-3.6-3", "openstax-c1-3.9-343", "openstax-c1-3.9-347", "activecalc-2.6.3-b"}


def cli(*args):
    return CliRunner().invoke(main, list(args))


def value(text, **at):
    return api.evaluate(text, at).value


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


# ---------------------------------------------------------------- against SymPy

@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(functions(names=("x",)), st.sampled_from([-1.3, -0.4, 0.6, 1.7]))
def test_primes_match_sympy(pair, a):
    text, f = pair
    program = f"f(x) = {text}; "
    assert close(value(program + f"f({a})"), float(f.subs(X, a)))
    assert close(value(program + f"f'({a})"), float(sp.diff(f, X).subs(X, a)))
    assert close(value(program + f"f''({a})"), float(sp.diff(f, X, 2).subs(X, a)))


@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(functions(), st.sampled_from([-1.1, 0.3, 1.4]), st.sampled_from([-0.8, 0.5, 1.2]))
def test_partials_match_sympy(pair, a, b):
    text, g = pair
    program = f"g(x, y) = {text}; "
    at = {X: a, Y: b}
    for mark, expected in (("g", g), ("g_x", sp.diff(g, X)), ("g_y", sp.diff(g, Y)),
                           ("g_xy", sp.diff(g, X, Y)), ("g_yy", sp.diff(g, Y, 2))):
        assert close(value(program + f"{mark}({a}, {b})"), float(expected.subs(at))), mark


@settings(max_examples=40, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(functions(names=("x",)), st.sampled_from([-0.9, 0.4, 1.3]))
def test_a_defined_function_composes_and_differentiates_through(pair, t):
    """f(3t + 1) and its derivative by t: the chain rule through the definition."""
    text, f = pair
    T = sp.Symbol("t")
    composed = f.subs(X, 3 * T + 1)
    result = api.evaluate(f"f(x) = {text}; f(3t + 1)", {"t": t})
    assert close(result.value, float(composed.subs(T, t)))
    # A constant f leaves t unused: no partial by t (and a warning that says so).
    assert close(result.gradient.get("t", 0.0), float(sp.diff(composed, T).subs(T, t)))


CASES = [pytest.param(entry, id=entry["id"]) for entry in CORPUS if entry["id"] not in SKIP]


@pytest.mark.parametrize("entry", CASES)
def test_textbook_functions_defined_by_name(entry):
    """Each published exercise as `f(x) = <printed function>; f'(a)` (or f_x(a, b) …)."""
    variables = entry["variables"]
    rng = random.Random(entry["id"])
    domain = entry["sympy"].get("domain", {})
    point = {v: round(rng.uniform(*domain.get(v, (0.3, 1.7))), 3) for v in variables}
    symbols = {v: sp.Symbol(v) for v in variables}
    subs = {symbols[v]: point[v] for v in variables}
    args = ", ".join(str(point[v]) for v in variables)
    head = f"f({', '.join(variables)}) = {entry['function']}; "
    for var, answer in entry["sympy"]["answers"].items():
        mark = "f'" if len(variables) == 1 else f"f_{var}"
        expected = complex(sp.sympify(answer, locals=symbols).evalf(30, subs=subs))
        got = value(head + f"{mark}({args})")
        assert math.isclose(got, expected.real, rel_tol=1e-8, abs_tol=1e-8), (mark, got)


# ---------------------------------------------------------------- reading and printing

def test_use_before_definition_is_refused():
    with pytest.raises(GradcliError, match="'g' is used before it is defined"):
        read_program("f(x) = x^2 sin x; f'(2) + g_x(1, 2); g(x, y) = x y")


def test_read_as_and_latex():
    program = read_program("g(x, y) = x y; f(x) = x^2 sin x; f'(2) + g_x(1, 2)")
    assert read_as(program) == "g(x, y) = x*y; f(x) = (x**2)*sin(x); f'(2) + g_x(1, 2)"
    original = program.original.statements[-1].expr
    assert to_latex(original) == r"f'\left(2\right) + g_{x}\left(1, 2\right)"


def test_a_program_ending_in_a_definition_is_that_function():
    result = api.evaluate("f(x) = x^2 sin x", {"x": 2.0})
    assert close(result.value, 4 * math.sin(2))
    assert close(result.gradient["x"], 4 * math.sin(2) + 4 * math.cos(2))


def test_parameters_shadow_the_programs_names():
    assert value("x = 2; f(x) = x^2; f(3) + x") == 11
    assert value("a = 3; f(x) = a x; f(2) + f'(5)") == 9


def test_functions_build_on_earlier_functions():
    # g(x) = x^2 + 2x, so g'(1) = 4
    assert value("f(x) = x^2; g(x) = f(x) + f'(x); g'(1)") == 4


def test_prime_marks():
    assert value("f(x) = x^3; f′(2) + f″(2) + f'''(2)") == 12 + 12 + 6
    assert value("f(x, y) = x^2 y^3; f_xy(1, 2) + f_x_y(1, 2) - f_yx(1, 2)") == 24


def test_bare_application_and_juxtaposition():
    assert value("f(x) = x^2; f 3") == 9
    assert value("f(x) = x^2; 2f(3) + f(2)f(3)") == 54


# ---------------------------------------------------------------- the CLI

def test_the_issue_example_prints_the_number():
    result = cli("eval", "f(x) = x^2 sin x; f'(2)", "-o", "plain")
    assert result.exit_code == 0, result.output
    expected = 4 * math.sin(2) + 4 * math.cos(2)
    assert result.output.split("\t")[0] == "f'(2)"  # labelled as typed
    assert close(float(result.output.split("\t")[1]), expected)


def test_diff_differentiates_through_a_definition():
    result = cli("diff", "f(x) = x^2 sin x; f(3x)", "-o", "plain")
    assert result.exit_code == 0, result.output
    assert result.output == "df/dx\t18*x*sin(3*x) + 27*x^2*cos(3*x)\n"
    alone = cli("diff", "f(x) = x^2 sin x", "-o", "plain")
    assert alone.output == "df/dx\t2*x*sin(x) + x^2*cos(x)\n"


def test_json_keeps_the_definition_in_read_as():
    result = cli("eval", "f(t) = t^3; f''(x)", "--at", "x=2", "-o", "json")
    record = json.loads(result.stdout)
    assert record["read_as"] == "f(t) = t**3; f''(x)"
    assert record["value"] == 12 and record["gradient"] == {"x": 6}


def test_a_domain_error_points_at_the_call():
    result = cli("eval", "f(x) = ln x; f(-1)")
    assert result.exit_code == 3
    assert "f(x) = ln x; f(-1)\n               ^^^^^" in result.output


@pytest.mark.parametrize("text, message", [
    ("f(x) = x; f(x) = 2", "'f' is defined twice"),
    ("f = 2; f(x) = x", "'f' is defined twice, as a function and as a value"),
    ("f(x) = f(x) + 1; 2", "'f' is used in its own definition"),
    ("f(x, y) = x y; f'(2)", "f(x, y) has 2 parameters, so a prime does not say which"),
    ("f(x) = x; f(1, 2)", "f takes 1 argument, as in f(x), but 2 were given"),
    ("g(x, y) = x y; g(1)", "g takes 2 arguments, as in g(x, y), but 1 was given"),
    ("h'(2)", "a prime marks the derivative of a function the program defines, and h is "
              "not one"),
    ("sin'(2)", "and sin is not one"),
    ("g(x, y) = x y; g_z(1, 2)", "z is not a parameter of g(x, y)"),
    ("f(2) = 3", "the parameters of f(…) must be names"),
    ("f(x, x) = 3", "the parameter 'x' is listed twice"),
    ("f(f) = f^2; f(2)", "the parameter 'f' has its function's own name"),
    ("sin(x) = 3", "'sin' is a built-in function and cannot be defined again"),
    ("f(x) = x; f'(x) = 2", "cannot be defined: define the function itself"),
    ("f(x) = x^2; f", "'f' has nothing to apply to"),
    ("f(x) = x^2; f''''''''''''(1)", "at most 10 primes"),
    ("f(x) = x^2; f^-1(3)", "f has no inverse written this way"),
])
def test_bad_uses_are_exit_2_with_a_message(text, message):
    result = cli("eval", text)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "hint:" in result.output and "Traceback" not in result.output
