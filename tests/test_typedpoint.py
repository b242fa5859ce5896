"""The point as typed (SPEC §2): at a closed-form point every number printed is the
correctly rounded double of the exact result, SymPy's N(expr, 50) rounded being the judge.

The fast part covers the textbook points against every function; the whole grid
(trig at every multiple of pi/12, roots, e, fractions) is under the slow mark.
"""
from __future__ import annotations

import json

import pytest
import sympy as S
from click.testing import CliRunner

from gradcli import api
from gradcli.cli import main
from gradcli.tasks.tangent import tangent
from gradcli.tasks.taylor import taylor

X, Y = S.symbols("x y")

FUNCTIONS = [
    ("sin(x)", S.sin(X)), ("cos(x)", S.cos(X)), ("tan(x)", S.tan(X)), ("exp(x)", S.exp(X)),
    ("ln(x)", S.log(X)), ("sqrt(x)", S.sqrt(X)), ("x^3", X**3), ("x^(-2)", X**-2),
    ("x^2 sin x", X**2 * S.sin(X)), ("sin(x)/x", S.sin(X) / X), ("x cos(x)", X * S.cos(X)),
    ("e^x cos(x)", S.exp(X) * S.cos(X)), ("cos x + sin x", S.cos(X) + S.sin(X)),
    ("tan(x)/(1 + x^2)", S.tan(X) / (1 + X**2)), ("sin(x)^2 - cos(x)^2", S.sin(X)**2 - S.cos(X)**2),
    ("sqrt(x) ln(x)", S.sqrt(X) * S.log(X)), ("(x^2 + 1)/(x - 3)", (X**2 + 1) / (X - 3)),
]
# The rest of the functions the exact point runs in the decimal module (decimalmath.py)
MORE_FUNCTIONS = [
    ("asin(x/4)", S.asin(X / 4)), ("acos(x/4)", S.acos(X / 4)), ("atan(x)", S.atan(X)),
    ("atan2(x, 2)", S.atan2(X, 2)), ("sinh(x)", S.sinh(X)), ("cosh(x)", S.cosh(X)),
    ("tanh(x)", S.tanh(X)), ("asinh(x)", S.asinh(X)), ("acosh(x^2 + 1)", S.acosh(X**2 + 1)),
    ("atanh(x/4)", S.atanh(X / 4)), ("cbrt(x)", S.sign(X) * S.Abs(X)**S.Rational(1, 3)),
    ("log2(x)", S.log(X, 2)), ("log10(x)", S.log(X, 10)), ("sec(x)", S.sec(X)),
    ("cot(x)", S.cot(X)), ("x^x", X**X), ("2^x", 2**X), ("sigmoid(x)", 1 / (1 + S.exp(-X))),
]
FAST_POINTS = ["pi/6", "pi/4", "pi/3", "pi/2", "2pi/3", "pi", "sqrt(2)", "sqrt(3)/2", "e",
               "1/3", "2/7", "-pi/4"]
ALL_POINTS = [f"{k}pi/12" for k in range(1, 24)] + [
    "-pi/3", "-5pi/6", "sqrt(2)", "sqrt(3)", "sqrt(3)/2", "e", "e/2", "1/e", "1/3", "2/7",
    "-2/3", "pi/2 + 1"]
TWO = [("x y", X * Y), ("x^2 y + sin(x y)", X**2 * Y + S.sin(X * Y)),
       ("exp(x) cos(y)", S.exp(X) * S.cos(Y)), ("x/y", X / Y)]
DIRECTIONS = ["1,1", "cos(pi/6),sin(pi/6)", "1/3,sqrt(2)", "-1,2"]


def rounded(expr):
    """SymPy's correctly rounded double of an exact number, None where not real and finite."""
    value = S.N(expr, 50)
    if not value.is_real or not value.is_finite:
        return None
    if abs(value) < 1e-40:
        return 0.0 if S.simplify(expr) == 0 else float(value)
    return float(value)


def point(text):
    return S.sympify(text.replace("pi", "*pi").lstrip("*").replace("(*pi", "(pi")
                     .replace("+ *pi", "+ pi").replace("-*pi", "-pi"),
                     locals={"e": S.E, "pi": S.pi})


class Tally:
    def __init__(self):
        self.results = 0
        self.differ = []

    def compare(self, what, ours, right):
        if right is None:
            return
        self.results += 1
        if ours != right or (right == 0 and str(ours) == "-0.0"):
            self.differ.append(f"{what}: ours {ours!r}, exact {right!r}")


def one_variable(tally, text, expr, at, taylor_order=0):
    a = point(at)
    exact_value = rounded(expr.subs(X, a))
    exact_slope = rounded(S.diff(expr, X).subs(X, a))
    if exact_value is None or exact_slope is None:
        return
    bindings = api.parse_bindings([f"x={at}"])
    result = api.evaluate(text, bindings, numerics=True, hessian=True)
    tally.compare(f"{text} at {at}: value", result.value, exact_value)
    tally.compare(f"{text} at {at}: f'", result.gradient["x"], exact_slope)
    tally.compare(f"{text} at {at}: f''", result.hessian["x"]["x"],
                  rounded(S.diff(expr, X, 2).subs(X, a)))
    line = tangent(text, bindings, evaluate=api.evaluate)
    intercept = rounded(expr.subs(X, a) - S.diff(expr, X).subs(X, a) * a)
    tally.compare(f"{text} at {at}: intercept", line.intercept, intercept)
    tally.compare(f"{text} at {at}: tangent slope", line.gradient["x"], exact_slope)
    if taylor_order:
        series = taylor(text, bindings, taylor_order)
        derivative = expr
        for k, term in enumerate(series.terms):
            right = rounded(derivative.subs(X, a) / S.factorial(k))
            tally.compare(f"{text} at {at}: Taylor c{k}", float(term.coefficient), right)
            derivative = S.diff(derivative, X)


def two_variables(tally, text, expr, at_x, at_y, direction):
    a, b = point(at_x), point(at_y)
    v = [point(c) for c in direction.split(",")]
    grad = [S.diff(expr, X).subs({X: a, Y: b}), S.diff(expr, Y).subs({X: a, Y: b})]
    derivative = rounded((grad[0] * v[0] + grad[1] * v[1]) / S.sqrt(v[0]**2 + v[1]**2))
    if derivative is None:
        return
    run = CliRunner().invoke(main, ["eval", text, "--at", f"x={at_x},y={at_y}",
                                    "--direction", direction, "-o", "json"])
    assert run.exit_code == 0, run.output
    record = json.loads(run.stdout)
    tally.compare(f"{text} at ({at_x}, {at_y}) along {direction}",
                  record["directional"]["derivative"], derivative)
    for name, g in zip("xy", grad):
        tally.compare(f"{text} at ({at_x}, {at_y}): d/d{name}", record["gradient"][name],
                      rounded(g))
    result = api.evaluate(text, api.parse_bindings([f"x={at_x},y={at_y}"]), hessian=True)
    for p, q in ((X, X), (X, Y), (Y, Y)):
        tally.compare(f"{text} at ({at_x}, {at_y}): d2/d{p}d{q}",
                      result.hessian[str(p)][str(q)],
                      rounded(S.diff(expr, p, q).subs({X: a, Y: b})))


def test_textbook_points_agree_with_sympy_to_the_last_bit():
    tally = Tally()
    for text, expr in FUNCTIONS:
        for at in FAST_POINTS:
            one_variable(tally, text, expr, at, 3)
    for (text, expr), direction in zip(TWO, DIRECTIONS):
        two_variables(tally, text, expr, "pi/3", "1/3", direction)
    assert tally.results >= 1400, tally.results
    assert not tally.differ, "\n".join(tally.differ[:20])


def test_more_functions_at_textbook_points_agree_with_sympy():
    tally = Tally()
    for text, expr in MORE_FUNCTIONS:
        for at in ("pi/6", "sqrt(2)", "1/3"):
            one_variable(tally, text, expr, at)
    assert tally.results >= 200, tally.results
    assert not tally.differ, "\n".join(tally.differ[:20])


@pytest.mark.slow
def test_more_functions_at_every_point_of_the_grid_agree_with_sympy():
    tally = Tally()
    for text, expr in MORE_FUNCTIONS:
        for at in ALL_POINTS:
            one_variable(tally, text, expr, at, 4)
    print(f"{tally.results} results compared")
    assert tally.results >= 4000, tally.results
    assert not tally.differ, "\n".join(tally.differ[:20])


@pytest.mark.slow
def test_every_point_of_the_grid_agrees_with_sympy():
    tally = Tally()
    for text, expr in FUNCTIONS:
        for at in ALL_POINTS:
            one_variable(tally, text, expr, at, 4)
    for text, expr in TWO:
        for at_x, at_y in [("pi/4", "pi/6"), ("sqrt(2)", "e"), ("2/7", "-pi/3"), ("1/3", "pi")]:
            for direction in DIRECTIONS:
                two_variables(tally, text, expr, at_x, at_y, direction)
    assert tally.results >= 4500, tally.results
    assert not tally.differ, "\n".join(tally.differ[:20])


def cli(*args):
    run = CliRunner().invoke(main, list(args))
    assert run.exit_code == 0, run.output
    return run


# The symptoms of issue 33, through the command.

def test_cos_at_pi_over_2_is_0_and_its_tangent_has_no_noise():
    assert cli("eval", "cos(x)", "--at", "x=pi/2", "-o", "plain").stdout == "f\t0\ndf/dx\t-1\n"
    record = json.loads(cli("tangent", "cos(x)", "--at", "x=pi/2", "-o", "json").stdout)
    assert record["value"] == 0 and record["gradient"] == {"x": -1.0}
    assert record["equation"] == "y = -(x - 1.5707963267948966)"
    table = cli("tangent", "cos(x)", "--at", "x=pi/2", "-o", "table").stdout
    assert "y = -(x - 1.5708)" in table and "e-17" not in table


def test_x2_sin_x_at_pi_is_0():
    assert cli("eval", "x^2 sin x", "--at", "x=pi", "-o", "plain").stdout.startswith("f\t0\n")
    out = cli("eval", "sin(x)", "--at", "x=pi/6", "--hessian", "-o", "plain").stdout
    assert out == "f\t0.5\ndf/dx\t0.8660254037844386\nd2f/dx2\t-0.5\n"
    out = cli("diff", "sin(x)", "--at", "x=pi/6", "--order", "2", "-o", "plain").stdout
    assert out == "d2f/dx2\t-sin(x)\t-0.5\n"


def test_sin_at_pi_over_6_is_one_half_in_json_and_plain():
    record = json.loads(cli("eval", "sin(x)", "--at", "x=pi/6", "-o", "json").stdout)
    assert record["value"] == 0.5 and "0.49999999999999994" not in json.dumps(record)
    assert cli("eval", "sin(x)", "--at", "x=pi/6", "-o", "plain").stdout.startswith("f\t0.5\n")


def test_tan_at_pi_over_4_is_1_with_slope_2():
    out = cli("tangent", "tan(x)", "--at", "x=pi/4", "-o", "plain").stdout
    assert "f\t1\n" in out and "df/dx\t2\n" in out
    assert "y = 2x - 0.5707963267948967" in out  # 1 - pi/2 correctly rounded (doubles: ...966)


def test_the_exact_result_settles_the_precision_warning():
    run = cli("eval", "cos x + sin x", "--at", "x=pi/4", "-o", "json")
    assert json.loads(run.stdout)["gradient"] == {"x": 0.0}
    assert "lost its digits" not in run.stderr


def test_the_expanded_tangent_at_pi_over_3_has_no_noise():
    out = cli("tangent", "cos(x)", "--at", "x=pi/3", "-o", "plain").stdout
    assert "0.5000000000000001" not in out and "f\t0.5\n" in out


def test_taylor_at_a_typed_point_has_its_exact_coefficients():
    record = json.loads(cli("taylor", "sin(x)", "--at", "x=pi/6", "--order", "2",
                            "-o", "json").stdout)
    assert [t["coefficient"] for t in record["terms"]] == [0.5, rounded(S.sqrt(3) / 2), -0.25]
    out = cli("taylor", "cos(x)", "--at", "x=pi/2", "--order", "3", "-o", "plain").stdout
    assert out.startswith("T3\t-(x - 1.5707963267948966) + (x - 1.5707963267948966)^3/6\n")


def test_where_f_is_undefined_at_the_exact_point_a_warning_says_so():
    for expr in ("tan(x)", "ln(cos(x))"):
        run = cli("eval", expr, "--at", "x=pi/2", "-o", "plain")
        assert ("warning: f is undefined or infinite at x = pi/2 exactly; the numbers shown "
                "are at the nearest double, x = 1.5707963267948966") in run.stderr, expr
    # a decimal point is the double it is: no such warning
    assert "undefined" not in cli("eval", "tan(x)", "--at", "x=1.5707963267948966").stderr


def test_an_exact_value_beside_an_infinite_partial():
    run = cli("eval", "sqrt(1 - sin(x))", "--at", "x=pi/2", "-o", "plain")
    assert run.stdout.startswith("f\t0\n") and "precision loss" not in run.stderr
    run = cli("eval", "exp(-x^2)", "--at", "x=20pi", "-o", "plain")
    assert run.stdout == "f\t0\ndf/dx\t0\n"


def test_a_typed_direction_is_exact():
    # Stewart 14.6, example 2: D_u f(1, 2) = (13 - 3 sqrt(3))/2
    record = json.loads(cli("eval", "x^3 - 3x y + 4y^2", "--at", "x=1,y=2", "--direction",
                            "cos(pi/6),sin(pi/6)", "-o", "json").stdout)
    assert record["directional"]["derivative"] == rounded((13 - 3 * S.sqrt(3)) / 2)
    assert record["directional"]["unit"] == [rounded(S.sqrt(3) / 2), 0.5]


def test_a_decimal_point_is_the_double_it_is():
    # 0.1 typed as a decimal is the double 0.1: its result is the double computation's
    bindings = api.parse_bindings(["x=0.1"])
    assert type(bindings) is dict
    assert api.evaluate("x*3", bindings).value == 0.1 * 3


def test_a_closed_form_is_kept_beside_its_double():
    bindings = api.parse_bindings(["x=pi/2,y=2,z=1/3"])
    assert bindings == {"x": 1.5707963267948966, "y": 2.0, "z": 1 / 3}
    assert bindings.typed == {"x": "pi/2", "z": "1/3"}


def test_the_typed_path_does_not_import_sympy():
    import subprocess
    import sys
    code = ("import sys; from gradcli import api; "
            "b = api.parse_bindings(['x=pi/2']); r = api.evaluate('cos(x)', b, numerics=True); "
            "assert r.value == 0.0; print('sympy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_check_grades_against_the_exact_points_numbers():
    out = cli("check", "tan(x)", "--at", "x=pi/4", "--tangent", "y = 2x + 1 - pi/2",
              "-o", "plain").stdout
    assert out == "tangent\tright\ty = 2x + 1 - pi/2\ty = 1 + 2*(x - 0.7853981633974483)\n"
    out = cli("check", "sin(x)", "--at", "x=pi/6", "--value", "1/2", "-o", "plain").stdout
    assert out == "f\tright\t1/2\t0.5\n"
    out = cli("check", "x^3 - 3x y + 4y^2", "--at", "x=1,y=2", "--direction",
              "cos(pi/6),sin(pi/6)", "--directional", "(13 - 3sqrt(3))/2", "-o", "plain").stdout
    assert out == "D_u f\tright\t(13 - 3sqrt(3))/2\t3.901923788646684\n"


def test_an_input_the_result_does_not_use_has_partial_zero():
    # found by the fuzz campaign: the typed point's intercept read a missing partial
    from click.testing import CliRunner
    from gradcli.cli import main
    result = CliRunner().invoke(main, ["tangent", "v0v0=x;1", "--at", "x=pi/4", "-o", "plain"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("tangent\ty = 1\n")


# critical's points and numbers where the points are closed forms: (f, --over or None, f in SymPy)
CRITICAL = [
    ("x^3 - 3x + y^2", None, X**3 - 3 * X + Y**2),
    ("x^3 + y^3 - 3x y", None, X**3 + Y**3 - 3 * X * Y),
    ("x^4 + y^4 - 4x y + 1", None, X**4 + Y**4 - 4 * X * Y + 1),
    ("x y e^(-x^2 - y^2)", "x=-3:3,y=-3:3", X * Y * S.exp(-X**2 - Y**2)),
    ("2x^3 + x y^2 + 5x^2 + y^2", None, 2 * X**3 + X * Y**2 + 5 * X**2 + Y**2),
    ("3x - x^3 - 2y^2 + y^4", None, 3 * X - X**3 - 2 * Y**2 + Y**4),
    ("x^2 + x y + y^2 - 3x", None, X**2 + X * Y + Y**2 - 3 * X),
    ("sin(x) + cos(y)", "x=0:7,y=0:7", S.sin(X) + S.cos(Y)),
    ("x sin(y)", "x=-3:3,y=-4:4", X * S.sin(Y)),
    ("sin(x) sin(y)", "x=1:6,y=1:6", S.sin(X) * S.sin(Y)),
    ("e^x (x^2 - 2 y^2)", None, S.exp(X) * (X**2 - 2 * Y**2)),
    ("x^2 y - 2 x y + 2 y^2 - 15 y", None, X**2 * Y - 2 * X * Y + 2 * Y**2 - 15 * Y),
    ("x^3 - 12x y + 8y^3", None, X**3 - 12 * X * Y + 8 * Y**3),
    ("cos(x) + cos(y) + cos(x + y)", "x=0:6,y=0:6", S.cos(X) + S.cos(Y) + S.cos(X + Y)),
    ("x^4 - 2x^2 + y^3 - 3y", None, X**4 - 2 * X**2 + Y**3 - 3 * Y),
]


def critical_points(tally, text, over, expr):
    args = ["critical", text, "-o", "json"] + (["--over", over] if over else [])
    record = json.loads(cli(*args).stdout)
    fx, fy = S.diff(expr, X), S.diff(expr, Y)
    for found in record["points"]:
        p = {X: S.sympify(found["exact"]["at"]["x"]), Y: S.sympify(found["exact"]["at"]["y"])}
        where = f"{text} at ({p[X]}, {p[Y]})"
        assert S.simplify(fx.subs(p)) == 0 and S.simplify(fy.subs(p)) == 0, where
        hxx, hxy, hyy = (S.diff(expr, *v).subs(p) for v in ((X, X), (X, Y), (Y, Y)))
        tally.compare(f"{where}: x", found["at"]["x"], rounded(p[X]))
        tally.compare(f"{where}: y", found["at"]["y"], rounded(p[Y]))
        tally.compare(f"{where}: f", found["value"], rounded(expr.subs(p)))
        tally.compare(f"{where}: D", found["test"]["D"], rounded(hxx * hyy - hxy**2))
        tally.compare(f"{where}: f_xx", found["test"]["f_xx"], rounded(hxx))
        for row, right_row in zip(found["hessian"], ((hxx, hxy), (hxy, hyy))):
            for ours, right in zip(row, right_row):
                tally.compare(f"{where}: hessian", ours, rounded(right))
    return record


def test_critical_points_at_closed_forms_agree_with_sympy():
    tally = Tally()
    for text, over, expr in CRITICAL[:2] + CRITICAL[7:8]:
        critical_points(tally, text, over, expr)
    assert tally.results >= 50, tally.results
    assert not tally.differ, "\n".join(tally.differ[:20])


@pytest.mark.slow
def test_every_critical_case_agrees_with_sympy_and_is_complete():
    tally = Tally()
    for text, over, expr in CRITICAL:
        record = critical_points(tally, text, over, expr)
        if over is None and record["complete"]:  # a polynomial: SymPy's own real solutions
            solved = S.solve([S.diff(expr, X), S.diff(expr, Y)], [X, Y], dict=True)
            real = [s for s in solved if all(v.is_real for v in s.values())]
            assert len(real) == len(record["points"]), text
    print(f"{tally.results} critical-point numbers compared")
    assert tally.results >= 400, tally.results
    assert not tally.differ, "\n".join(tally.differ[:20])
