"""Property tests: random expressions over every function; value and partials agree with SymPy.

Expressions are generated from the op table (every function, every arity the
table allows), evaluated at points away from kinks, and compared with SymPy's
symbolic derivative evaluated to 30 digits, to 1e-9 relative. Points where the
expression is undefined, or where gradcli warns (a kink, a nan), are skipped.
"""
import math

import pytest
import sympy as sp
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sympy_bridge import SYMPY, number, to_sympy

from gradcli import api, ops
from gradcli.errors import DomainError
from gradcli.language.parser import parse as parse_expr_program
from gradcli.language.parser import parse_expr

SETTINGS = settings(max_examples=300, derandomize=True, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
NAMES = ("x", "y", "z")
POINTS = (-2.5, -1.3, -0.6, 0.35, 0.8, 1.7, 2.2)
# Scalars only (docs/language.md): the vector operations have their own tests.
SCALAR = {name: op for name, op in ops.TABLE.items() if op.category != "vectors"}
OPERATORS = [op.symbol for op in SCALAR.values() if op.is_operator and op.arity == 2]
FUNCTIONS = [(op.extra.get("call_name", name), op.arity) for name, op in SCALAR.items()
             if not op.is_operator or "call_name" in op.extra]


def test_every_op_has_a_sympy_meaning():
    assert set(SCALAR) <= set(SYMPY)


def _call(name, arity, children):
    if isinstance(arity, int):
        counts = [arity]
    else:
        lo, hi = arity
        counts = list(range(lo, (hi or 3) + 1))
    return st.sampled_from(counts).flatmap(
        lambda n: st.lists(children, min_size=n, max_size=n).map(
            lambda args: f"{name}({', '.join(args)})"))


def _extend(children):
    binary = st.tuples(children, st.sampled_from(OPERATORS), children).map(
        lambda t: f"({t[0]}) {t[1]} ({t[2]})")
    unary = children.map(lambda c: f"-({c})")
    calls = st.one_of(*[_call(name, arity, children) for name, arity in FUNCTIONS])
    return st.one_of(binary, unary, calls)


LEAVES = st.one_of(st.sampled_from(NAMES), st.sampled_from(["2", "0.5", "3", "1.5", "pi", "e"]))
EXPRESSIONS = st.recursive(LEAVES, _extend, max_leaves=6)
AT = st.fixed_dictionaries({n: st.sampled_from(POINTS) for n in NAMES})


def _compare(text, at):
    used = api.inputs_of(parse_expr_program(text))
    at = {k: v for k, v in at.items() if k in used}
    try:
        result = api.evaluate(text, at)
    except DomainError:
        assume(False)
    assume(not result.warnings)
    numbers = [result.value, *result.gradient.values()]
    assume(all(math.isfinite(v) and abs(v) < 1e8 for v in numbers))
    symbols = {}
    try:
        f = to_sympy(parse_expr(text), symbols)
        point = {symbols[k]: sp.Float(v, 30) for k, v in at.items() if k in symbols}
        exact = f.subs(point)
    except ValueError:  # SymPy met an infinity it cannot compare (min of zoo)
        assume(False)
    # Where the exact value is infinite (csc(pi)) the double one is a rounding of pi's error.
    assume(exact.is_finite is not False and not exact.has(sp.zoo, sp.nan, sp.oo, -sp.oo))
    expected = number(exact)
    assert result.value == pytest.approx(expected, rel=1e-9, abs=1e-9), text
    for name, g in result.gradient.items():
        d = number(sp.diff(f, symbols[name]).subs(point))
        assert g == pytest.approx(d, rel=1e-9, abs=1e-9), (text, name)


@SETTINGS
@given(EXPRESSIONS, AT)
def test_random_expressions_agree_with_sympy(text, at):
    _compare(text, at)


# Deeper: up to 30 operations, almost always with a variable. Each example that is
# compared is recorded, and the last test of the file counts them.
# Built from operations defined everywhere, so that large trees are not all thrown
# away at a domain error (the shallow tests above cover every function).
_SMOOTH = ["sin", "cos", "tanh", "sigmoid", "atan", "softplus", "asinh", "cbrt"]


@st.composite
def _deep(draw):
    """An expression of 5 to 30 operations: each step joins the pieces made so far."""
    pieces = [draw(st.sampled_from(NAMES))]
    for _ in range(draw(st.integers(5, 30))):
        kind = draw(st.integers(0, 4))
        if kind == 0 or len(pieces) == 1 and kind == 1:
            pieces.append(draw(LEAVES))
            pieces[-2:] = [f"({pieces[-2]}){draw(st.sampled_from([' + ', ' - ', ' * ']))}"
                           f"({pieces[-1]})"]
        elif kind == 1:
            a, b = pieces.pop(draw(st.integers(0, len(pieces) - 1))), pieces.pop()
            pieces.append(f"({a}) / (1 + ({b})**2)")
        elif kind == 2:
            pieces.append(draw(LEAVES))
        else:
            pieces[-1] = f"{draw(st.sampled_from(_SMOOTH))}({pieces[-1]})"
    while len(pieces) > 1:
        b, a = pieces.pop(), pieces.pop()
        pieces.append(f"({a}) + ({b})")
    return pieces[0]


DEEP = _deep()
COMPARED = set()


def _operations(text):
    return sum(text.count(s) for s in [f"{f}(" for f in _SMOOTH] + [" + ", " - ", " * ", " / ", "-("])


@settings(max_examples=150, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(DEEP, AT)
def test_deep_random_expressions_agree_with_sympy(text, at):
    _compare(text, at)
    COMPARED.add(text)


@pytest.mark.parametrize("name,arity", FUNCTIONS, ids=[f for f, _ in FUNCTIONS])
@settings(max_examples=10, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data())
def test_each_function_in_a_random_context(name, arity, data):
    """Every function appears, composed with random sub-expressions, at least a few times."""
    inner = st.recursive(LEAVES, _extend, max_leaves=3)
    text = data.draw(_call(name, arity, inner))
    _compare(text, data.draw(AT))


@settings(max_examples=150, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.recursive(LEAVES, _extend, max_leaves=5), AT)
def test_random_hessians_agree_with_sympy(text, at):
    """--hessian (the backward pass differentiated again) against SymPy's second derivatives."""
    used = api.inputs_of(parse_expr_program(text))
    at = {k: v for k, v in at.items() if k in used}
    try:
        result = api.evaluate(text, at, hessian=True)
    except DomainError:
        assume(False)
    assume(not result.warnings)
    entries = [v for row in result.hessian.values() for v in row.values()]
    assume(all(math.isfinite(v) and abs(v) < 1e8 for v in entries))
    symbols = {}
    f = to_sympy(parse_expr(text), symbols)
    point = {symbols[k]: sp.Float(v, 30) for k, v in at.items()}
    for a, row in result.hessian.items():
        for b, got in row.items():
            exact = sp.diff(f, symbols[a], symbols[b]).subs(point)
            assume(not exact.has(sp.zoo, sp.nan, sp.oo, -sp.oo))
            assert got == pytest.approx(number(exact), rel=1e-9, abs=1e-9), (text, a, b)


def test_the_deep_examples_are_many_and_varied():
    """The deep property compares many distinct, non-trivial expressions (not a few repeats).

    Self-contained: it runs the property itself (its whole Hypothesis run), so it means
    the same run alone, first or last."""
    COMPARED.clear()
    test_deep_random_expressions_agree_with_sympy()
    sizes = sorted(_operations(t) for t in COMPARED)
    print(f"{len(COMPARED)} distinct expressions; operations: median "
          f"{sizes[len(sizes) // 2]}, 90th percentile {sizes[len(sizes) * 9 // 10]}, "
          f"largest {sizes[-1]}")
    assert len(COMPARED) >= 100, len(COMPARED)
    assert sizes[len(sizes) * 9 // 10] >= 8, sizes
    assert sizes[-1] >= 15, sizes
