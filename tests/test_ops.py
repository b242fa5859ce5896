"""Every op-table entry against central finite differences, generated from the table.

The sample points come from the table itself: a grid of candidates filtered by
each record's domain checks and kinks (or the record's own `extra["samples"]`).
A new op whose domain leaves fewer than three usable points fails here until
it brings its own samples; a domain check no candidate can trip must be listed
in UNREACHABLE_CHECKS with the reason.
"""
import itertools
import math

import pytest
import sympy as sp
from sympy_bridge import number, to_sympy

from gradcli import api, ops
from gradcli.autodiff.backends import MathBackend
from gradcli.autodiff.engine import Value, apply, local_derivative
from gradcli.errors import DomainError
from gradcli.language.expr import Apply, BUILD, Name, as_expr
from gradcli.language.printer import to_text

GRID = (-2.3, -0.7, 0.4, 0.9, 1.7, 2.0, 3.1)
SPECIALS = (0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, math.pi / 2)
ARG_NAMES = ("x", "y", "z")
# cos(x) is never exactly 0 at a double, so sec's check guards exact arithmetic only.
UNREACHABLE_CHECKS = {("sec", 0)}


def arities(op):
    if isinstance(op.arity, int):
        return [op.arity]
    lo, hi = op.arity
    top = 3 if hi is None else min(hi, 3)
    return list(range(lo, top + 1))


def _domain_ok(op, args):
    for check in op.domain:
        if len(args) > max(check.show) and not check.ok(MathBackend, *args):
            return False
    return True


def _at_kink(op, args):
    for kink in op.kinks:
        try:
            if kink.where(MathBackend, *args):
                return True
        except (ValueError, ZeroDivisionError):
            return True
    return False


def samples(op, n):
    """Points inside the domain, away from kinks, where the value is finite."""
    given = op.extra.get("samples")
    if given is not None:
        return [tuple(p) for p in given if len(p) == n]
    points = []
    for args in itertools.product(GRID, repeat=n):
        if n > 1 and len(set(args)) < n:
            continue  # ties are kinks for max/min, and equal points say little
        if not _domain_ok(op, args) or _at_kink(op, args):
            continue
        try:
            value = op.value(MathBackend, *args)
        except (ValueError, OverflowError, ZeroDivisionError):
            continue
        if math.isfinite(value) and abs(value) < 1e6:
            points.append(args)
    # A spread of points, not all of a large product.
    step = max(1, len(points) // 12)
    return points[::step]


def is_array_op(op):
    return op.category == "vectors"


CASES = [(name, n) for name, op in ops.TABLE.items() if not is_array_op(op)
         for n in arities(op)]


def _central(op, args, i):
    h = 1e-5 * max(1.0, abs(args[i]))
    up = list(args)
    down = list(args)
    up[i] += h
    down[i] -= h
    return (op.value(MathBackend, *up) - op.value(MathBackend, *down)) / (2 * h)


@pytest.mark.parametrize("name,n", CASES, ids=[f"{a}/{n}" for a, n in CASES])
def test_gradient_matches_central_differences(name, n):
    op = ops.TABLE[name]
    assert len(samples(op, n)) >= 3, \
        f"{name} with {n} arguments: give extra['samples'] in its op-table record"
    for args in samples(op, n):
        leaves = [Value(a) for a in args]
        out = apply(op, *leaves)
        assert out.data == pytest.approx(op.value(MathBackend, *args), rel=1e-15)
        out.backward()
        for i, leaf in enumerate(leaves):
            expected = _central(op, args, i)
            assert leaf.grad == pytest.approx(expected, rel=1e-6, abs=1e-7), \
                f"d{name}/darg{i} at {args}"


COMPARED_WITH_SYMPY = set()


@pytest.mark.parametrize("name,n", CASES, ids=[f"{a}/{n}" for a, n in CASES])
def test_printed_rule_gives_the_engine_number(name, n):
    """The formula `functions` and `diff` print is the rule the engine computes with."""
    op = ops.TABLE[name]
    names = [Name(a) for a in ARG_NAMES[:n]]
    out_expr = Apply(op.name, tuple(names))
    for args in samples(op, n)[:4]:
        out = op.value(MathBackend, *args)
        for i in range(n):
            formula = to_text(as_expr(op.partial(BUILD, i, out_expr, tuple(names))))
            bindings = {a: v for a, v in zip(ARG_NAMES, args) if a in formula}
            printed = api.evaluate(formula, bindings).value
            numeric = local_derivative(op, i, out, list(args))
            assert printed == pytest.approx(numeric, rel=1e-12, abs=1e-15), (formula, args)
            # An independent oracle: SymPy's own derivative of the same function.
            symbols = {}
            f = to_sympy(out_expr, symbols)
            point = {symbols[a]: sp.Float(v, 30) for a, v in zip(ARG_NAMES, args) if a in symbols}
            exact = sp.diff(f, symbols[ARG_NAMES[i]]).subs(point)
            if exact.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
                continue
            assert numeric == pytest.approx(number(exact), rel=1e-12, abs=1e-15), (name, args)
            COMPARED_WITH_SYMPY.add(name)



def test_every_rule_was_compared_with_sympy():
    """The oracle above is not skipped wholesale: each op met SymPy's derivative somewhere.

    Self-contained: it runs the oracle over every case itself, so it means the same
    run alone or after the test above."""
    COMPARED_WITH_SYMPY.clear()
    for name, n in CASES:
        test_printed_rule_gives_the_engine_number(name, n)
    missing = sorted({name for name, _ in CASES} - COMPARED_WITH_SYMPY)
    assert not missing, missing


CHECKS = [(name, k) for name, op in ops.TABLE.items() if not is_array_op(op)
          for k in range(len(op.domain))]


def _failing_point(op, check):
    for n in arities(op):
        if max(check.show) >= n:
            continue
        for args in itertools.product(SPECIALS, repeat=n):
            others = [c for c in op.domain if c is not check and max(c.show) < n]
            if not check.ok(MathBackend, *args) and all(c.ok(MathBackend, *args) for c in others):
                return args
    return None


@pytest.mark.parametrize("name,k", CHECKS, ids=[f"{a}#{k}" for a, k in CHECKS])
def test_domain_check_raises_its_message(name, k):
    op = ops.TABLE[name]
    check = op.domain[k]
    point = _failing_point(op, check)
    if (name, k) in UNREACHABLE_CHECKS:
        assert point is None
        return
    assert point is not None, f"no candidate point violates {name}'s check {check.message!r}"
    with pytest.raises(DomainError) as info:
        apply(op, *[Value(a) for a in point])
    assert info.value.exit_code == 3
    assert check.message in info.value.message


def _source(op, n):
    names = ARG_NAMES[:n]
    if op.name == "pow":
        return "x**y"
    if op.is_operator:
        return f"{op.symbol}x" if n == 1 else f"x {op.symbol} y"
    return f"{op.name}({', '.join(names)})"


KINKS = [(name, k) for name, op in ops.TABLE.items() if not is_array_op(op)
         for k in range(len(op.kinks))]


@pytest.mark.parametrize("name,k", KINKS, ids=[f"{a}~{k}" for a, k in KINKS])
def test_every_kink_warns(name, k):
    op = ops.TABLE[name]
    kink = op.kinks[k]
    for n in arities(op):
        for args in itertools.product(SPECIALS, repeat=n):
            if not _domain_ok(op, args) or not kink.where(MathBackend, *args):
                continue
            result = api.evaluate(_source(op, n), dict(zip(ARG_NAMES, args)))
            head = kink.message.split("{")[0]
            assert any(w.startswith(head) for w in result.warnings), (args, result.warnings)
            return
    pytest.fail(f"no candidate point is at {name}'s kink {kink.message!r}")


def test_pytorch_conventions_at_kinks():
    assert api.evaluate("relu(x)", x=0).gradient["x"] == 0
    assert api.evaluate("abs(x)", x=0).gradient["x"] == 0
    assert api.evaluate("sqrt(x)", x=0).gradient["x"] == math.inf
    assert api.evaluate("max(x, y, z)", x=1, y=1, z=0).gradient == {"x": 0.5, "y": 0.5, "z": 0}
    assert api.evaluate("max(x, y, z)", x=1, y=1, z=1).gradient["x"] == pytest.approx(1 / 3)
    assert api.evaluate("x**y", x=0, y=2).gradient == {"x": 0, "y": 0}
    assert math.isnan(api.evaluate("x**y", x=-2, y=2).gradient["y"])
    r = api.evaluate("atan2(y, x)", y=0, x=0)
    assert r.value == 0 and all(math.isnan(g) for g in r.gradient.values())


def test_stable_functions():
    assert api.evaluate("softplus(x)", x=800).value == 800
    assert api.evaluate("sigmoid(x)", x=-800).value == 0
    assert api.evaluate("exp(x)", x=-1000).value == 0
    assert api.evaluate("cbrt(x)", x=-8).value == -2
    assert api.evaluate("0**0").value == 1



def test_which_rule_a_number_gets_is_the_records_choice():
    # Op.numeric_rule: None (the textbook rule), "stable" (the same function rearranged)
    # or "convention" (PyTorch's value where the textbook rule has none).
    assert ops.TABLE["sin"].numeric_rule(0) is None
    assert ops.TABLE["div"].numeric_rule(1) == "stable"
    assert ops.TABLE["tanh"].numeric_rule(0) == "stable"
    assert ops.TABLE["pow"].numeric_rule(0) is None
    assert ops.TABLE["pow"].numeric_rule(1) == "convention"
    assert ops.TABLE["max"].numeric_rule(0) == "convention"
    # numeric_rules: the same numbers one function per argument, where that is how
    # the record's rules come.
    from gradcli.autodiff.local import numeric_d
    D = numeric_d(MathBackend)
    for name in ("div", "tanh", "sin", "pow"):
        op = ops.TABLE[name]
        args = (0.7, 1.3)[:op.arity]
        out = op.value(MathBackend, *args)
        rules = op.numeric_rules(MathBackend)
        for i, rule in enumerate(rules):
            assert rule(D, out, *args) == op.numeric_partial(MathBackend, D, i, out, args)
    assert ops.TABLE["max"].numeric_rules(MathBackend) is None

@pytest.mark.parametrize("text,at,message", [
    ("log(x)", {"x": 0}, "ln(x) is undefined at x = 0: ln needs a positive argument"),
    ("1/x", {"x": 0}, "1/x is undefined at x = 0: division by zero"),
    ("sqrt(x)", {"x": -1}, "sqrt(x) is undefined at x = -1: sqrt needs a non-negative argument"),
    ("asin(x)", {"x": 2}, "asin(x) is undefined at x = 2"),
    ("exp(x)", {"x": 1000}, "exp(x) overflows at x = 1000"),
    ("0**x", {"x": -1}, "0**x is undefined at x = -1: zero cannot be raised to a negative power"),
    ("log(x - 3)", {"x": 2}, "ln(x - 3) is undefined at x - 3 = -1: ln needs a positive argument"),
    ("x**0.5", {"x": -4}, "a negative base needs an integer exponent"),
    ("x*log(x)", {"x": 0}, "ln(x) is undefined at x = 0"),
])
def test_domain_errors_name_the_subexpression(text, at, message):
    with pytest.raises(DomainError) as info:
        api.evaluate(text, at)
    assert message in info.value.message
    assert info.value.exit_code == 3


# ---------------------------------------------------------------- array operations
# Reductions, products and literals: the same finite differences, element by
# element, on vectors and matrices; an output array is reduced with a fixed
# upstream gradient (a vector-Jacobian product).

def _arrays():
    import numpy as np
    return np, [np.array([0.3, -1.2, 2.0]), np.array([1.1, 0.4, -0.7]),
                np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]]),
                np.array([[1.0, 2.0], [-0.5, 0.3], [0.7, -1.1]]), 0.8]


def array_samples(op, n):
    from gradcli.errors import GradcliError
    np, candidates = _arrays()
    points = []
    for args in itertools.product(range(len(candidates)), repeat=n):
        values = [candidates[i] for i in args]
        try:
            out = apply(op, *[Value(np.array(v, dtype=float) if np.ndim(v) else v)
                              for v in values])
        except (GradcliError, ValueError):
            continue  # shapes that do not fit this operation
        if np.all(np.isfinite(out.data)):
            points.append(values)
    return points


ARRAY_CASES = [(name, n) for name, op in ops.TABLE.items() if is_array_op(op)
               for n in arities(op)]


@pytest.mark.parametrize("name,n", ARRAY_CASES, ids=[f"{a}/{n}" for a, n in ARRAY_CASES])
def test_array_op_gradient_matches_central_differences(name, n):
    np, _ = _arrays()
    op = ops.TABLE[name]
    points = array_samples(op, n)
    assert len(points) >= 2, f"{name} with {n} arguments: no sample shapes fit"
    for values in points[:6]:
        values = [np.array(v, dtype=float) for v in values]
        out_shape = np.shape(op.value(_np_backend(), *values))
        seed = np.linspace(0.5, 1.5, int(np.prod(out_shape))).reshape(out_shape) \
            if out_shape else 1.0

        def f(vs):
            return float(np.sum(seed * op.value(_np_backend(), *vs)))

        leaves = [Value(v.copy() if v.ndim else float(v)) for v in values]
        out = apply(op, *leaves)
        out.backward(seed=seed if out_shape else None)
        for i, leaf in enumerate(leaves):
            grad = np.broadcast_to(np.asarray(leaf.grad, dtype=float), values[i].shape)
            for idx in np.ndindex(values[i].shape):
                up = [v.copy() for v in values]
                down = [v.copy() for v in values]
                up[i][idx] += 1e-6
                down[i][idx] -= 1e-6
                expected = (f(up) - f(down)) / 2e-6
                assert grad[idx] == pytest.approx(expected, rel=1e-6, abs=1e-7), \
                    (name, i, idx)


def _np_backend():
    from gradcli.autodiff.backends import numpy_backend
    return numpy_backend()


def test_the_records_facts_hold():
    # The fields other layers read instead of lists of names (printer, post-lexer,
    # simplifier, check's probes, the precision bound).
    for name, op in ops.TABLE.items():
        if op.inverse is not None:
            inverse = ops.lookup_function(op.inverse)
            assert inverse is not None and inverse.accepts(1), name
            for x in (0.3, 1.7):  # f(inverse(f(x))) == f(x) where both are defined
                try:
                    y = op.value(MathBackend, x)
                    back = inverse.value(MathBackend, y)
                except (ValueError, ZeroDivisionError):
                    continue
                assert op.value(MathBackend, back) == pytest.approx(y), (name, x)
        if op.latex_form is not None:
            assert op.arity == 1 and not op.is_operator, name
        if op.params is not None:
            assert op.accepts(len(op.params)), name
        for c in op.edges:
            assert c != 0
            # the derivative rule is infinite (or undefined) at the edge
            try:
                d = local_derivative(op, 0, op.value(MathBackend, c), [c])
            except (ValueError, ZeroDivisionError, DomainError):
                continue
            assert not math.isfinite(d), (name, c, d)
        if op.exact_in_doubles:  # the result is an argument, its negation, 0 or ±1
            for args in ([(0.1,), (-2.3,)] if op.accepts(1) else []) + [(0.1, -2.3)] * (
                    op.accepts(2)):
                got = op.value(MathBackend, *args)
                assert got in (*args, *(-a for a in args), 0.0, 1.0, -1.0), (name, args)
        if op.rational:
            assert op.is_operator, name
    ranks = [op.product_rank for op in ops.TABLE.values() if op.product_rank is not None]
    assert sorted(ranks) == list(range(len(ranks)))
    assert {n for n, op in ops.TABLE.items() if op.jumps} == {"sign", "step"}
