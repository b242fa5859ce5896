"""The functions of docs/language.md against independent references.

Every name the language lists (aliases included) is in the op table and callable;
the reciprocal and inverse trigonometric and hyperbolic functions are checked
against mpmath (values, 40 digits) and SymPy (derivatives, symbolic `diff`
evaluated at the exact double), besides central finite differences; the stable
forms keep their digits where the textbook formulas lose them (near |x| = 1, at
|x| = 800); the CLI reports domain errors with exit 3, lists the functions and
gives --exact closed forms that read back as the same numbers.
"""
import json
import math
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from click.testing import CliRunner
from sympy_bridge import SYMPY

from gradcli import api, ops
from gradcli.autodiff.backends import MathBackend
from gradcli.cli import main
from gradcli.autodiff.engine import Value, apply, local_derivative

# docs/language.md's functions, written out: every function and alias a user may call.
SPEC_FUNCTIONS = {
    "exponentials": ["exp", "log", "ln", "log2", "log10", "sqrt", "cbrt", "pow"],
    "trigonometric": ["sin", "cos", "tan", "sec", "csc", "cot", "asin", "acos", "atan",
                      "asec", "acsc", "acot", "atan2", "arcsin", "arccos", "arctan",
                      "arcsec", "arccsc", "arccot"],
    "hyperbolic": ["sinh", "cosh", "tanh", "sech", "csch", "coth", "asinh", "acosh",
                   "atanh", "asech", "acsch", "acoth"],
    "machine learning": ["sigmoid", "relu", "softplus", "abs", "max", "min"],
    "steps": ["sign", "step"],
    "vectors": ["sum", "mean", "dot"],
}
# "with aliases arsinh/arcsinh and the like": both forms for every inverse.
HYPERBOLIC_ALIASES = {"asinh": ("arsinh", "arcsinh"), "acosh": ("arcosh", "arccosh"),
                      "atanh": ("artanh", "arctanh"), "asech": ("arsech", "arcsech"),
                      "acsch": ("arcsch", "arccsch"), "acoth": ("arcoth", "arccoth")}
TRIG_ALIASES = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asec": "arcsec",
                "acsc": "arccsc", "acot": "arccot"}

# A point inside each function's domain, for calling it once.
INSIDE = {"log": (2.0,), "ln": (2.0,), "log2": (2.0,), "log10": (2.0,), "sqrt": (2.0,),
          "acosh": (2.0,), "arcosh": (2.0,), "arccosh": (2.0,), "asec": (2.0,),
          "arcsec": (2.0,), "acsc": (2.0,), "arccsc": (2.0,), "acoth": (2.0,),
          "arcoth": (2.0,), "arccoth": (2.0,), "pow": (2.0, 3.0), "atan2": (1.0, 2.0),
          "max": (1.0, 2.0), "min": (1.0, 2.0)}


def _all_spec_names():
    names = [n for group in SPEC_FUNCTIONS.values() for n in group]
    names += [a for pair in HYPERBOLIC_ALIASES.values() for a in pair]
    return names


@pytest.mark.parametrize("name", _all_spec_names())
def test_every_spec_function_is_in_the_table_and_callable(name):
    op = ops.lookup_function(name)
    assert op is not None, f"{name} (docs/language.md) is not in the op table"
    assert name in ops.function_names()
    if op.category == "vectors":
        args = ([1.0, 2.0], [3.0, 4.0]) if op.accepts(2) else ([1.0, 2.0],)
    else:
        args = INSIDE.get(name, (0.5,))
    text = f"{name}({', '.join('abc'[:len(args)])})"
    result = api.evaluate(text, dict(zip("abc", args)))
    assert math.isfinite(result.value)
    # docs/library.md: every function works on Value as a method too.
    leaves = [Value(a) for a in args]
    out = getattr(leaves[0], name)(*leaves[1:])
    assert out.data == pytest.approx(result.value)


@pytest.mark.parametrize("name,aliases", list(HYPERBOLIC_ALIASES.items())
                         + [(k, (v,)) for k, v in TRIG_ALIASES.items()])
def test_aliases_name_the_same_record(name, aliases):
    for alias in aliases:
        assert ops.lookup_function(alias) is ops.TABLE[name]
        assert alias in ops.TABLE[name].aliases


NEW = ["sech", "csch", "coth", "asec", "acsc", "acot", "asech", "acsch", "acoth"]

MPMATH = {"sech": mpmath.sech, "csch": mpmath.csch, "coth": mpmath.coth,
          "asec": mpmath.asec, "acsc": mpmath.acsc, "acot": mpmath.acot,
          "asech": mpmath.asech, "acsch": mpmath.acsch, "acoth": mpmath.acoth}

# Several points of each domain, the edges and the far ends included.
POINTS = {
    "sech": [-30.0, -2.5, -0.3, 0.0, 1e-8, 0.7, 4.0, 40.0],
    "csch": [-30.0, -2.5, -0.3, -1e-8, 1e-8, 0.7, 4.0, 40.0],
    "coth": [-30.0, -2.5, -0.3, -1e-8, 1e-8, 0.7, 4.0, 40.0],
    "asec": [-1e10, -3.0, -1.0 - 1e-9, -1.0, 1.0, 1.0 + 1e-12, 1.5, 7.0, 1e200],
    "acsc": [-1e10, -3.0, -1.0 - 1e-9, -1.0, 1.0, 1.0 + 1e-12, 1.5, 7.0, 1e200],
    "acot": [-1e10, -3.0, -0.5, -1e-9, 1e-9, 0.5, 1.0, 7.0, 1e200],
    "asech": [1e-300, 1e-5, 0.1, 0.5, 0.9, 1.0 - 1e-12, 1.0],
    "acsch": [-1e10, -3.0, -1.0, -1e-8, 1e-300, 1e-8, 0.5, 2.0, 1e200],
    "acoth": [-1e10, -3.0, -1.0 - 1e-12, 1.0 + 1e-12, 1.0 + 1e-6, 1.5, 7.0, 1e200],
}


def _mp(x):
    return mpmath.mpf(x)  # exact: every double is an mpf


@pytest.mark.parametrize("name", NEW)
def test_values_agree_with_mpmath(name):
    with mpmath.workdps(40):
        for x in POINTS[name]:
            got = api.evaluate(f"{name}(x)", x=x).value
            want = MPMATH[name](_mp(x))
            assert mpmath.im(want) == 0, (name, x)
            want = float(mpmath.re(want))
            assert got == pytest.approx(want, rel=4e-16, abs=1e-300), (name, x)


def test_acot_follows_sympy_at_zero():
    # SymPy's convention: acot(0) = pi/2, odd elsewhere, a jump at 0.
    assert sp.acot(0) == sp.pi / 2
    assert api.evaluate("acot(x)", x=0).value == math.pi / 2
    assert api.evaluate("acot(x)", x=-0.0).value == math.pi / 2
    assert api.evaluate("acot(x)", x=-1e-300).value == -math.pi / 2
    r = api.evaluate("acot(x)", x=0)
    assert r.gradient["x"] == -1
    assert any(w.startswith("acot at 0") for w in r.warnings)


def _sympy_derivative(name, x, dps=40):
    """d name / dx at the double x, from SymPy's symbolic diff, to `dps` digits."""
    X = sp.Symbol("X", real=True)
    d = sp.diff(SYMPY[name](X), X)
    value = complex(d.subs(X, sp.Rational(*float(x).as_integer_ratio())).evalf(dps))
    assert abs(value.imag) <= 1e-30 * max(1.0, abs(value.real)), (name, x, value)
    return value.real


def _interior(name):
    """The points of POINTS away from kinks (where the derivative is a convention)."""
    op = ops.TABLE[name]
    return [x for x in POINTS[name] if not any(k.where(MathBackend, x) for k in op.kinks)]


@pytest.mark.parametrize("name", NEW)
def test_derivatives_agree_with_sympy_diff(name):
    for x in _interior(name):
        got = api.evaluate(f"{name}(x)", x=x).gradient["x"]
        want = _sympy_derivative(name, x)
        assert got == pytest.approx(want, rel=1e-12, abs=1e-300), (name, x)


@pytest.mark.parametrize("name", NEW)
def test_derivatives_agree_with_central_differences(name):
    op = ops.TABLE[name]
    for x in _interior(name):
        if abs(x) > 1e6 or abs(x) < 1e-4:
            continue  # a step of a relative 1e-6 says little about a derivative near 0 or 1e-20
        h = 1e-6 * abs(x)
        if op.domain and not all(c.ok(MathBackend, x - h) and c.ok(MathBackend, x + h)
                                 for c in op.domain):
            continue  # within a step of the edge of the domain
        if x in (1.0 + 1e-12, 1.0 - 1e-12, -1.0 - 1e-12, 1.0 + 1e-6, -1.0 - 1e-9, 1.0 + 1e-9):
            continue
        central = (op.value(MathBackend, x + h) - op.value(MathBackend, x - h)) / (2 * h)
        got = api.evaluate(f"{name}(x)", x=x).gradient["x"]
        assert got == pytest.approx(central, rel=1e-6, abs=1e-12), (name, x)


# ---------------------------------------------------------------- near |x| = 1

# At 1 - 1e-12 the textbook 1 - x**2 is off by only about 5e-13 relative (1 - 2*delta
# is a double there); at delta = 1e-9 and 1e-8 it was off by 2.5e-10.
NEAR_ONE = [(name, sign * (1 + side * delta))
            for name, side, signs in [("asin", -1, (1, -1)), ("acos", -1, (1, -1)),
                                      ("atanh", -1, (1, -1)), ("acosh", 1, (1,)),
                                      ("asec", 1, (1, -1)), ("acsc", 1, (1, -1)),
                                      ("asech", -1, (1,)), ("acoth", 1, (1, -1))]
            for sign in signs for delta in (1e-12, 1e-9, 1e-8)]


@pytest.mark.parametrize("name,x", NEAR_ONE, ids=[f"{n}@{x!r}" for n, x in NEAR_ONE])
def test_derivative_keeps_its_digits_near_one(name, x):
    want = _sympy_derivative(name, x)
    assert api.evaluate(f"{name}(x)", x=x).gradient["x"] == pytest.approx(want, rel=1e-12)
    # the general path (local_derivative) and arrays give the same digits
    out = ops.TABLE[name].value(MathBackend, x)
    assert local_derivative(ops.TABLE[name], 0, out, [x]) == pytest.approx(want, rel=1e-12)
    import numpy as np
    leaf = Value(np.array([x, x]))
    apply(ops.TABLE[name], leaf).backward(seed=np.ones(2))
    assert leaf.grad[0] == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("name,x", NEAR_ONE, ids=[f"{n}@{x!r}" for n, x in NEAR_ONE])
def test_value_keeps_its_digits_near_one(name, x):
    fn = {"asin": mpmath.asin, "acos": mpmath.acos, "atanh": mpmath.atanh,
          "acosh": mpmath.acosh, **MPMATH}[name]
    with mpmath.workdps(40):
        want = float(fn(_mp(x)))
    assert api.evaluate(f"{name}(x)", x=x).value == pytest.approx(want, rel=1e-12)


def test_diff_prints_the_textbook_rules():
    from gradcli.symbolic.derivative import differentiate_text as printed

    def differentiate_text(text, wrt):
        return printed(text, wrt).replace("^", "**")  # either power sign is a textbook's
    # The numbers use (1 - x)*(1 + x); the printed rules stay as a textbook has them.
    assert differentiate_text("asin(x)", "x") == "1/sqrt(1 - x**2)"
    assert differentiate_text("acos(x)", "x") == "-1/sqrt(1 - x**2)"
    assert differentiate_text("acosh(x)", "x") == "1/sqrt(x**2 - 1)"
    assert differentiate_text("atanh(x)", "x") == "1/(1 - x**2)"
    assert differentiate_text("sech(x)", "x") == "-sech(x)*tanh(x)"
    assert differentiate_text("csch(x)", "x") == "-csch(x)*coth(x)"
    assert differentiate_text("coth(x)", "x") == "-csch(x)**2"
    assert differentiate_text("asec(x)", "x") == "1/(abs(x)*sqrt(x**2 - 1))"
    assert differentiate_text("acsc(x)", "x") == "-1/(abs(x)*sqrt(x**2 - 1))"
    assert differentiate_text("acot(x)", "x") == "-1/(x**2 + 1)"
    assert differentiate_text("asech(x)", "x") == "-1/(x*sqrt(1 - x**2))"
    assert differentiate_text("acsch(x)", "x") == "-1/(abs(x)*sqrt(x**2 + 1))"
    assert differentiate_text("acoth(x)", "x") == "1/(1 - x**2)"


def test_trace_shows_the_rule_of_a_stable_form():
    # The stable numeric form is the same function, not a convention: trace
    # still substitutes the point into the printed rule.
    from gradcli.tasks.trace import trace
    t = trace("asin(x)", {"x": 0.3})
    (c,) = t.backward[0].contributions
    assert not c.convention and c.substituted_expr is not None


# ---------------------------------------------------------------- stability

@pytest.mark.parametrize("text,x,value", [
    ("sech(x)", 800, 0.0), ("sech(x)", -800, 0.0), ("csch(x)", 800, 0.0),
    ("csch(x)", -800, 0.0), ("coth(x)", 800, 1.0), ("coth(x)", -800, -1.0),
    ("acsc(x)", 1e200, 1e-200), ("acoth(x)", 1e200, 1e-200), ("acsch(x)", 1e200, 1e-200),
    ("asec(x)", 1e300, math.pi / 2), ("acot(x)", 1e300, 1e-300),
])
def test_finite_results_never_overflow(text, x, value):
    r = api.evaluate(text, x=x)
    assert r.value == pytest.approx(value, rel=1e-15, abs=0)
    assert math.isfinite(r.gradient["x"])


@pytest.mark.parametrize("text,x,derivative", [
    ("asinh(x)", 1e200, 1e-200), ("asinh(x)", -1e200, 1e-200), ("acosh(x)", 1e200, 1e-200),
    ("asec(x)", 1e100, 1e-200), ("acsc(x)", -1e100, 1e-200), ("acsch(x)", 1e100, -1e-200),
    ("acot(x)", 1e100, -1e-200),
])
def test_derivatives_for_large_arguments_do_not_overflow_to_zero(text, x, derivative):
    # sqrt(x**2 + 1) as written would be inf here, and the derivative 0
    assert api.evaluate(text, x=x).gradient["x"] == pytest.approx(derivative, rel=1e-14)


def test_smallest_arguments_give_their_finite_values():
    # 1/x overflows at 5e-324, asech and acsch of it do not (log(2/x) = 745.13...).
    with mpmath.workdps(40):
        for name in ("asech", "acsch"):
            want = float(MPMATH[name](mpmath.mpf(5e-324)))
            assert api.evaluate(f"{name}(x)", x=5e-324).value == pytest.approx(want, rel=1e-15)


# ---------------------------------------------------------------- CLI

def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("text,x,message", [
    ("csch(x)", "0", "csch(x) is undefined at x = 0: csch needs x ≠ 0"),
    ("coth(x)", "0", "coth(x) is undefined at x = 0: coth needs x ≠ 0"),
    ("asec(x)", "0.5", "asec(x) is undefined at x = 0.5: asec needs |x| ≥ 1"),
    ("arcsec(x)", "0.5", "asec needs |x| ≥ 1"),
    ("acsc(x)", "-0.5", "acsc(x) is undefined at x = -0.5: acsc needs |x| ≥ 1"),
    ("asech(x)", "0", "asech(x) is undefined at x = 0: asech needs 0 < x ≤ 1"),
    ("asech(x)", "1.5", "asech needs 0 < x ≤ 1"),
    ("arcsech(x)", "-1", "asech needs 0 < x ≤ 1"),
    ("acsch(x)", "0", "acsch(x) is undefined at x = 0: acsch needs x ≠ 0"),
    ("acoth(x)", "1", "acoth(x) is undefined at x = 1: acoth needs |x| > 1"),
    ("arcoth(x)", "0.5", "acoth needs |x| > 1"),
])
def test_domain_errors_exit_3_with_the_message(text, x, message):
    r = run("eval", text, "--at", f"x={x}", "-o", "plain")
    assert r.exit_code == 3
    assert message in r.stderr
    assert "Traceback" not in r.stderr


def test_functions_lists_the_new_functions():
    r = run("functions", "-o", "json")
    assert r.exit_code == 0
    records = {rec["name"]: rec for rec in json.loads(r.stdout)}
    for name in NEW:
        assert name in records, name
    assert records["coth"]["derivative"] == "d/dx = -csch(x)**2"
    assert records["asec"]["domain"] == "|x| ≥ 1"
    assert records["asech"]["aliases"] == ["arsech", "arcsech"]
    assert records["acot"]["aliases"] == ["arccot"]
    assert "pi/2" in records["acot"]["description"]
    plain = run("functions", "-o", "plain").stdout
    for name in NEW:
        assert f"\n{name}(x)\t1\t" in plain


@pytest.mark.parametrize("name", NEW + ["arcsech", "arccot"])
def test_exact_mode_gives_a_closed_form_that_reads_back_as_the_same_number(name):
    # No rational value: --exact gives the closed form (docs/numbers.md), and the text
    # printed is the number the doubles compute, value and derivative.
    x = "2" if name in ("asec", "acsc", "acoth") else "1/2"
    exact = run("eval", f"{name}(x)", "--at", f"x={x}", "--exact", "-o", "json")
    assert exact.exit_code == 0, exact.stderr
    rec = json.loads(exact.stdout)
    floats = json.loads(run("eval", f"{name}(x)", "--at", f"x={x}", "-o", "json").stdout)
    for closed, double in ((rec["value"], floats["value"]),
                           (rec["gradient"]["x"], floats["gradient"]["x"])):
        back = run("eval", str(closed), "-o", "json")
        assert back.exit_code == 0 and "warning" not in back.stderr, (closed, back.stderr)
        assert json.loads(back.stdout)["value"] == pytest.approx(double, rel=1e-13)


def test_exact_sech_at_1_is_a_closed_form_like_sin():
    r = run("eval", "sech(x)", "--at", "x=1", "--exact", "-o", "plain")
    s = run("eval", "sin(x)", "--at", "x=1", "--exact", "-o", "plain")
    assert r.exit_code == s.exit_code == 0
    assert s.stdout == "f\tsin(1)\ndf/dx\tcos(1)\n"
    assert r.stdout.startswith("f\t")


def test_exact_values_where_they_are_rational():
    assert api.evaluate("sech(x)", x=Fraction(0), exact=True).value == 1
    assert api.evaluate("asec(x)", x=Fraction(1), exact=True).value == 0
    assert api.evaluate("asech(x)", x=Fraction(1), exact=True).value == 0


def test_latex_names():
    from gradcli.language.parser import parse_expr
    from gradcli.language.printer import to_latex
    assert to_latex(parse_expr("sech(x)")) == r"\operatorname{sech}\left(x\right)"
    assert to_latex(parse_expr("coth(x)")) == r"\coth\left(x\right)"
    assert to_latex(parse_expr("asin(x)")) == r"\arcsin\left(x\right)"
    assert to_latex(parse_expr("arsech(x)")) == r"\operatorname{arsech}\left(x\right)"
    assert to_latex(parse_expr("acot(x)")) == r"\operatorname{arccot}\left(x\right)"


# ---------------------------------------------------------------- max/min ties

def test_tie_share_holds_no_state_between_calls():
    # The same argument list, changed between two calls: the second call sees the change.
    op = ops.TABLE["max"]
    args = [1.0, 1.0, 0.0]
    assert local_derivative(op, 0, 1.0, args) == 0.5
    args[1] = 0.0
    assert local_derivative(op, 0, 1.0, args) == 1.0
    assert not hasattr(ops, "_last_count")


class _CountingBackend(MathBackend):
    """MathBackend that counts how often the ties are counted."""

    calls = 0

    @staticmethod
    def count_equal(xs, target):
        _CountingBackend.calls += 1
        return MathBackend.count_equal(xs, target)


def test_tie_count_is_found_once_per_node():
    op = ops.TABLE["min"]
    args = [2.0] * 50 + [3.0]
    cache = {}
    _CountingBackend.calls = 0
    shares = [local_derivative(op, i, 2.0, args, _CountingBackend, cache=cache)
              for i in range(len(args))]
    assert _CountingBackend.calls == 1
    assert shares == [1 / 50] * 50 + [0.0]
    # and the symbolic rule builds its count once too: one shared node
    from gradcli.language.expr import BUILD, Apply, Name
    names = tuple(Name(f"x{i}") for i in range(5))
    out = Apply("max", names)
    cache = {}
    rules = [ops.TABLE["max"].partial(BUILD, i, out, names, cache) for i in range(5)]
    denominators = {id(r.args[1]) for r in rules}
    assert len(denominators) == 1
