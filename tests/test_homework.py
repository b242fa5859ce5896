"""The homework toolkit against SymPy: tangents, Taylor polynomials, implicit derivatives,
critical points and directional derivatives, as a library and through the CLI."""
import json
import math
import random

import pytest
import sympy as sp
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from gradcli import api
from gradcli.cli import main
from gradcli.tasks.critical import critical_points
from gradcli.errors import DomainError, GradcliError
from gradcli.tasks.implicit import implicit
from gradcli.tasks.tangent import directional, tangent
from gradcli.tasks.taylor import taylor

X, Y = sp.symbols("x y")


def cli(*args):
    return CliRunner().invoke(main, list(args))


def value(text, **at):
    return api.evaluate(text, at).value


# ---------------------------------------------------------------- generated functions

_ATOMS = ["x", "y", "2", "3", "0.5"]
_UNARY = [("sin", sp.sin), ("cos", sp.cos), ("exp", sp.exp), ("atan", sp.atan),
          ("tanh", sp.tanh)]


@st.composite
def functions(draw, depth=3, names=("x", "y")):
    """(text in the language, the same function in SymPy)."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        a = draw(st.sampled_from([n for n in _ATOMS if n not in ("x", "y") or n in names]))
        return a, sp.sympify(a, locals={"x": X, "y": Y})
    kind = draw(st.integers(0, 3))
    a_text, a = draw(functions(depth - 1, names))
    if kind == 0:
        name, f = draw(st.sampled_from(_UNARY))
        return f"{name}({a_text})", f(a)
    b_text, b = draw(functions(depth - 1, names))
    if kind == 1:
        return f"({a_text}) + ({b_text})", a + b
    if kind == 2:
        return f"({a_text})*({b_text})", a * b
    return f"({a_text})/(1 + ({b_text})^2)", a / (1 + b ** 2)


def _num(e):
    return float(sp.N(e, 30))


# ---------------------------------------------------------------- tangent planes

@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(functions(), st.sampled_from([-1.2, -0.3, 0.4, 1.1]), st.sampled_from([-0.7, 0.2, 0.9]))
def test_tangent_plane_matches_sympy(pair, a, b):
    text, f = pair
    at = {"x": a, "y": b}
    used = [n for n in ("x", "y") if f.has(sp.Symbol(n))]
    assume(used)
    at = {n: at[n] for n in used}
    # Every generated function is defined and smooth everywhere: a refusal is a failure.
    t = tangent(text, at, evaluate=api.evaluate)
    subs = {sp.Symbol(n): v for n, v in at.items()}
    assert t.value == pytest.approx(_num(f.subs(subs)), rel=1e-9, abs=1e-12)
    for n in used:
        assert t.gradient[n] == pytest.approx(_num(sp.diff(f, sp.Symbol(n)).subs(subs)),
                                              rel=1e-9, abs=1e-12)
    # The printed equation is a formula in the language: it reads back and agrees with
    # f(a) + grad f(a) . (p - a) at another point.
    rhs = t.equation.split(" = ", 1)[1]
    p = {n: v + 0.37 for n, v in at.items()}
    linear = t.value + sum(t.gradient[n] * (p[n] - at[n]) for n in used)
    assert api.evaluate(rhs, p).value == pytest.approx(linear, rel=1e-9, abs=1e-9)


def test_tangent_plane_of_a_textbook_example():
    # Stewart 14.4, example 1: z = 2x^2 + y^2 at (1, 1, 3) has tangent plane z = 4x + 2y - 3.
    t = tangent("2x^2 + y^2", {"x": 1, "y": 1}, evaluate=api.evaluate)
    assert t.equation == "z = 3 + 4*(x - 1) + 2*(y - 1)"
    r = cli("tangent", "2x^2 + y^2", "--at", "x=1,y=1", "-o", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["equation"] == t.equation


def test_linear_approximation_beside_the_true_value():
    # OpenStax Vol. 1 §4.2: L(x) = 2 + (x - 4)/4 approximates sqrt(4.1) by 2.025.
    r = cli("tangent", "sqrt(x)", "--at", "x=4", "--estimate", "x=4.1", "-o", "json")
    rec = json.loads(r.stdout)
    assert r.exit_code == 0
    assert rec["equation"] == "y = 2 + 0.25*(x - 4)"
    assert rec["estimate"]["linear"] == pytest.approx(2.025)
    assert rec["estimate"]["true"] == pytest.approx(math.sqrt(4.1))


def test_exact_tangent():
    r = cli("tangent", "x^3/3 + x y", "--at", "x=1/2,y=2", "--exact", "-o", "plain")
    assert r.exit_code == 0 and "tangent\tz = 25/24 + 9(x - 1/2)/4 + (y - 2)/2" in r.stdout
    assert "expanded\tz = 9x/4 + y/2 - 13/12" in r.stdout


def test_negative_point_and_slope_print_as_a_book_does():
    t = tangent("x^2", {"x": -3}, evaluate=api.evaluate)
    assert t.equation == "y = 9 - 6*(x + 3)"


# ---------------------------------------------------------------- directional derivatives

def test_directional_derivative_of_a_textbook_example():
    # Stewart 14.6, example 2: f = x^3 - 3xy + 4y^2, u at angle pi/6: D_u f(1, 2) = (13 - 3√3)/2.
    r = cli("eval", "x^3 - 3x y + 4y^2", "--at", "x=1,y=2", "--direction",
            "cos(pi/6),sin(pi/6)", "-o", "json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)["directional"]
    assert d["derivative"] == pytest.approx((13 - 3 * math.sqrt(3)) / 2, rel=1e-12)
    assert d["steepest_ascent"]["rate"] == pytest.approx(math.hypot(-3, 13))


def test_a_direction_is_normalised_with_a_note():
    r = cli("eval", "x*y", "--at", "x=1,y=2", "--direction", "3,4", "-o", "json")
    d = json.loads(r.stdout)["directional"]
    assert d["unit"] == pytest.approx([0.6, 0.8])
    assert d["derivative"] == pytest.approx(2 * 0.6 + 1 * 0.8)
    assert "normalised" in r.stderr


@pytest.mark.parametrize("direction,words", [("0,0", "length zero"), ("1,2,3", "has 3 components")])
def test_a_bad_direction_is_a_usage_error(direction, words):
    r = cli("eval", "x*y", "--at", "x=1,y=2", "--direction", direction)
    assert r.exit_code == 2 and words in r.stderr


def test_directional_is_the_gradient_dotted_with_u():
    d = directional({"x": 3.0, "y": -1.0}, [1, 1])
    assert d.derivative == pytest.approx((3 - 1) / math.sqrt(2))
    assert d.steepest == pytest.approx([3 / math.sqrt(10), -1 / math.sqrt(10)])


# ---------------------------------------------------------------- Taylor polynomials

@pytest.mark.parametrize("text,f,a,n", [
    ("e^x", sp.exp(X), 0, 5), ("sin x", sp.sin(X), 0, 7), ("ln x", sp.log(X), 1, 4),
    ("1/(1 - x)", 1 / (1 - X), 0, 4), ("sqrt(x)", sp.sqrt(X), 4, 3),
    ("atan(x)", sp.atan(X), 0.5, 4), ("cos(2x) e^x", sp.cos(2 * X) * sp.exp(X), 0.3, 5),
])
def test_taylor_one_variable_matches_sympy_series(text, f, a, n):
    t = taylor(text, {"x": a}, n)
    series = sp.series(f, X, sp.nsimplify(a), n + 1).removeO()
    for dx in (-0.2, 0.05, 0.3):
        p = a + dx
        assert value(t.polynomial, x=p) == pytest.approx(_num(series.subs(X, p)), rel=1e-9,
                                                          abs=1e-12)


def test_taylor_prints_as_a_book():
    assert taylor("e^x", {"x": 0}, 4).polynomial == "1 + x + x^2/2 + x^3/6 + x^4/24"
    assert taylor("sin x", {"x": 0}, 5).polynomial == "x - x^3/6 + x^5/120"
    t = taylor("ln x", {"x": 1}, 3)
    assert t.polynomial == "(x - 1) - (x - 1)^2/2 + (x - 1)^3/3"
    assert t.remainder == "O(|x - 1|^4)"


@settings(max_examples=40, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(functions(depth=2), functions(depth=2), st.sampled_from([-0.5, 0.0, 0.6]),
       st.sampled_from([-0.4, 0.3]))
def test_taylor_two_variables_matches_sympy(first, second, a, b):
    text = f"({first[0]})*sin(x) + ({second[0]})*y"  # both variables, whatever was drawn
    f = first[1] * sp.sin(X) + second[1] * Y
    t = taylor(text, {"x": a, "y": b}, 3)   # defined and smooth everywhere: never refused
    # SymPy's multivariate Taylor polynomial, written out from its partial derivatives.
    poly = 0
    for i in range(4):
        for j in range(4 - i):
            d = sp.diff(f, X, i, Y, j).subs({X: a, Y: b})
            poly += d / (sp.factorial(i) * sp.factorial(j)) * (X - a) ** i * (Y - b) ** j
    for dx, dy in ((0.1, -0.05), (-0.07, 0.12)):
        p = {"x": a + dx, "y": b + dy}
        want = _num(poly.subs({X: p["x"], Y: p["y"]}))
        assert value(t.polynomial, **p) == pytest.approx(want, rel=1e-8, abs=1e-10)


def test_taylor_through_the_cli():
    r = cli("taylor", "e^x cos y", "--at", "x=0,y=0", "--order", "2", "-o", "json")
    assert r.exit_code == 0
    rec = json.loads(r.stdout)
    assert rec["polynomial"] == "1 + x + x^2/2 - y^2/2"
    assert rec["remainder"] == "O((|x| + |y|)^3)"


# ---------------------------------------------------------------- implicit differentiation

@pytest.mark.parametrize("equation,sympy_eq,point", [
    ("x^2 + y^2 = 25", X ** 2 + Y ** 2 - 25, {"x": 3, "y": 4}),
    ("x^3 + y^3 = 6xy", X ** 3 + Y ** 3 - 6 * X * Y, {"x": 3, "y": 3}),
    ("sin(x + y) = y^2 cos x", sp.sin(X + Y) - Y ** 2 * sp.cos(X), {"x": 0.4, "y": 0.7}),
    ("e^(xy) = x + y", sp.exp(X * Y) - X - Y, {"x": 0, "y": 1}),
])
def test_implicit_matches_sympy_idiff(equation, sympy_eq, point):
    r = implicit(equation, "x", at=point)
    want = sp.idiff(sympy_eq, Y, X).subs({X: point["x"], Y: point["y"]})
    assert r.value == pytest.approx(_num(want), rel=1e-12, abs=1e-12)
    for _ in range(3):  # the printed formula at other points, too
        p = {"x": random.uniform(0.2, 0.9), "y": random.uniform(0.2, 0.9)}
        want = sp.idiff(sympy_eq, Y, X).subs({X: p["x"], Y: p["y"]})
        assert value(r.formula, **p) == pytest.approx(_num(want), rel=1e-9)


def test_implicit_circle_through_the_cli():
    r = cli("implicit", "x^2 + y^2 = 25", "--wrt", "x", "--at", "x=3,y=4", "-o", "plain")
    assert r.exit_code == 0
    assert r.stdout == "dy/dx\t-x/y\ndy/dx at x = 3, y = 4\t-0.75\n"


def test_implicit_needs_an_equation():
    r = cli("implicit", "x^2 + y^2", "--wrt", "x")
    assert r.exit_code == 2 and "needs '='" in r.stderr


def test_implicit_with_a_vertical_tangent_is_undefined():
    r = cli("implicit", "x^2 + y^2 = 25", "--wrt", "x", "--at", "x=5,y=0")
    assert r.exit_code == 3 and "vertical tangent" in r.stderr


# ---------------------------------------------------------------- critical points

def test_critical_points_of_a_textbook_example():
    # Stewart 14.7, example 3: f = x^4 + y^4 - 4xy + 1 has a saddle at (0, 0) and local
    # minima at (1, 1) and (-1, -1).
    c = critical_points("x^4 + y^4 - 4x y + 1", {"x": (-3, 3), "y": (-3, 3)},
                        evaluate=api.evaluate)
    found = {(round(p.point["x"], 9), round(p.point["y"], 9)): p.kind for p in c.points}
    assert found == {(-1, -1): "local minimum", (0, 0): "saddle point", (1, 1): "local minimum"}
    # A polynomial: ∇f = 0 is solved exactly, and the list is proven complete.
    assert c.complete and c.method == "algebra" and "no others" in c.note
    assert not critical_points("x^4 + y^4 - 4x y + 1", {"x": (-3, 3), "y": (-3, 3)},
                               evaluate=api.evaluate, prove=False).complete


@pytest.mark.parametrize("f,box", [
    ("sin(x)*sin(y)", {"x": (-4, 4), "y": (-4, 4)}),
    ("x*log(x) + y^2", {"x": (0.1, 3), "y": (-1, 1)}),   # Newton steps leave the domain
    ("x*y*exp(-(x^2 + y^2)/2)", {"x": (-3, 3), "y": (-3, 3)}),
    pytest.param("x^2 + y^2 + z^2 + x*y*z", {"x": (-3, 3), "y": (-3, 3), "z": (-3, 3)},
                 marks=pytest.mark.slow),  # 3 variables: 10 s of CPU
])
def test_all_starts_at_once_find_what_each_start_alone_finds(f, box, monkeypatch):
    from gradcli.tasks import critical
    batch = critical_points(f, box, evaluate=api.evaluate)
    monkeypatch.setattr(critical, "_elementwise", lambda program: False)
    alone = critical_points(f, box, evaluate=api.evaluate)
    assert len(batch.points) >= 1
    assert [(p.point, p.kind) for p in batch.points] == [(p.point, p.kind) for p in alone.points]


def test_only_elementwise_programs_are_searched_all_starts_at_once():
    from gradcli.reading import read_program
    from gradcli.tasks.critical import _elementwise
    assert _elementwise(read_program("x*y + sin(x)^2"))
    assert not _elementwise(read_program("sum([x - 1, y + 2]^2)"))
    assert not _elementwise(read_program("dot([x, y], [y, x])"))


@settings(max_examples=25, derandomize=True, deadline=None)
@given(st.integers(-2, 2), st.integers(-2, 2), st.sampled_from([1, -1]), st.sampled_from([1, -1]))
def test_critical_point_of_a_quadratic_is_found_and_classified(a, b, s, t):
    text = f"{s}*(x - {a})^2 + {t}*(y - {b})^2"
    c = critical_points(text, {"x": (-3, 3), "y": (-3, 3)}, evaluate=api.evaluate)
    assert len(c.points) == 1
    p = c.points[0]
    assert p.point["x"] == pytest.approx(a, abs=1e-9) and p.point["y"] == pytest.approx(b, abs=1e-9)
    kind = "local minimum" if s > 0 and t > 0 else "local maximum" if s < 0 and t < 0 \
        else "saddle point"
    assert p.kind == kind


def test_a_box_without_critical_points_is_exit_2():
    r = cli("critical", "x^2 + y^2", "--over", "x=1:2,y=1:2")
    assert r.exit_code == 2 and "no critical point" in r.stderr


def test_critical_through_the_cli_json():
    r = cli("critical", "x^3 - 3x + y^2", "--over", "x=-3:3,y=-3:3", "-o", "json")
    assert r.exit_code == 0
    rec = json.loads(r.stdout)
    kinds = sorted(p["kind"] for p in rec["points"])
    assert kinds == ["local minimum", "saddle point"] and rec["complete"] is True
    assert rec["method"] == "algebra"
    assert [p["exact"] for p in rec["points"]] == [{"at": {"x": "-1", "y": "0"}, "value": "2"},
                                                   {"at": {"x": "1", "y": "0"}, "value": "-2"}]


def test_direction_in_csv_is_one_header_and_one_row():
    r = cli("eval", "x*y", "--at", "x=1,y=2", "--direction", "1,0", "-o", "csv")
    assert r.exit_code == 0
    header, values = r.stdout.splitlines()
    assert header.split(",")[-4:] == ["u", "D_u f", "steepest ascent", "|grad f|"]
    assert "D_u f" in header and values.split(",")[:2] == ["1", "2"]


# ---------------------------------------------------------------- defaults a newcomer expects

def test_taylor_without_at_is_the_maclaurin_polynomial_with_a_note():
    r = cli("taylor", "e^x sin x", "--order", "3", "-o", "json")
    assert r.exit_code == 0, r.stderr
    rec = json.loads(r.stdout)
    assert rec["polynomial"] == "x + x^2 + x^3/3" and rec["at"] == {"x": 0.0}
    assert "Maclaurin" in rec["warnings"][0] and "Maclaurin" in r.stderr


def test_critical_without_over_searches_a_default_box_and_says_so():
    r = cli("critical", "sin(x) + y^2", "-o", "json")
    assert r.exit_code == 0, r.stderr
    rec = json.loads(r.stdout)
    assert rec["over"] == {"x": [-5.0, 5.0], "y": [-5.0, 5.0]}
    assert [(p["exact"]["at"]["x"], p["kind"]) for p in rec["points"]] == \
        [("-3*pi/2", "saddle point"), ("-pi/2", "local minimum"), ("pi/2", "saddle point"),
         ("3*pi/2", "local minimum")]
    assert rec["method"] == "interval" and rec["complete"] is True
    assert "no --over given" in r.stderr and "-5 ≤ x ≤ 5" in r.stderr


def test_critical_without_over_solves_a_polynomial_in_the_whole_plane():
    r = cli("critical", "x^3 - 3x + y^2", "-o", "json")
    assert r.exit_code == 0, r.stderr
    rec = json.loads(r.stdout)
    assert rec["over"] == {"x": ["-inf", "inf"], "y": ["-inf", "inf"]}
    assert sorted((p["at"]["x"], p["kind"]) for p in rec["points"]) == \
        [(-1.0, "saddle point"), (1.0, "local minimum")]
    assert rec["complete"] is True and "in the whole plane, and no others" in rec["note"]
    assert "no --over given" not in r.stderr


def test_critical_shows_the_books_second_derivative_test():
    """Calculus III classifies by D = f_xx f_yy - f_xy^2 and f_xx; one variable by f''."""
    r = cli("critical", "x^3 - 3x + y^2", "--over", "x=-2:2,y=-2:2", "-o", "json")
    tests = {p["at"]["x"]: p["test"] for p in json.loads(r.stdout)["points"]}
    assert tests == {-1.0: {"D": -12.0, "f_xx": -6.0}, 1.0: {"D": 12.0, "f_xx": 6.0}}
    r = cli("critical", "x^3 - 3x + y^2", "--over", "x=-2:2,y=-2:2", "-o", "plain")
    assert "saddle point\tf = 2\tD = -12, f_xx = -6" in r.stdout
    r = cli("critical", "x^3 - 3x", "--over", "x=-2:2", "-o", "markdown")
    assert "| x = -1 | 2 | f'' = -6 | local maximum |" in r.stdout


def test_critical_refuses_more_variables_than_its_grid_can_cover():
    # 13 names: two starts per axis is 8,192 Newton runs, past the bound (the fuzzer's
    # double-struck sentence ran for minutes before)
    text = " ".join(f"x{i}" for i in range(13))
    result = CliRunner().invoke(main, ["critical", text])
    assert result.exit_code == 2
    assert "at most 12 variables" in result.output
