"""Property tests: random expressions over every function; value and partials agree with SymPy.

Expressions are generated from the op table (every function, every arity the
table allows), evaluated at points away from kinks, and compared with SymPy's
symbolic derivative evaluated to 30 digits, to 1e-9 relative. Points where the
expression is undefined (SymPy must agree that it is), or where gradcli warns (a
kink, a nan), are set aside and counted; each property fails when it compared too
few examples (conftest.Tally).
"""
import math

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import Tally, run_property
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


TALLY = Tally()


def _sympy_at(text, at):
    """(SymPy's expression, its symbols, the point, its exact value there), or None where
    SymPy itself cannot compare (an infinity inside min)."""
    symbols = {}
    try:
        f = to_sympy(parse_expr(text), symbols)
        point = {symbols[k]: sp.Float(v, 30) for k, v in at.items() if k in symbols}
        return f, symbols, point, f.subs(point)
    except ValueError:
        return None


def _undefined(exact) -> bool:
    """SymPy's value is no finite real number."""
    if exact.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return True
    value = complex(exact.evalf(30))
    return not math.isfinite(value.real) or abs(value.imag) > 1e-12 * max(1.0, abs(value.real))


def _undefined_somewhere(text, at):
    """Whether some piece of the expression has no finite real value at the point, by
    SymPy; None where SymPy cannot say (it fails inside its own assumptions).

    Each piece of the tree as written is evaluated on its own (SymPy would simplify
    log(x)/log(x), which is log(x, x), to 1: defined where ln x is not)."""
    symbols = {}
    try:
        with sp.evaluate(False):
            f = to_sympy(parse_expr(text), symbols)
    except ValueError:
        return None
    point = {symbols[k]: sp.Float(v, 30) for k, v in at.items() if k in symbols}
    for piece in sp.postorder_traversal(f):
        if isinstance(piece, sp.Basic) and (not piece.is_Atom or piece.is_Symbol):
            try:
                if _undefined(piece.subs(point)):
                    return True
            except (TypeError, ValueError, ZeroDivisionError, KeyError, AttributeError):
                return None   # SymPy's own failure (seen: KeyError 'finite' in its assumptions)
    return False


def _compare(text, at):
    """Compare gradcli with SymPy at the point; the outcome goes to TALLY. A domain
    error where SymPy has a finite real value is a wrong refusal, and fails."""
    used = api.inputs_of(parse_expr_program(text))
    at = {k: v for k, v in at.items() if k in used}
    reference = _sympy_at(text, at)
    try:
        result = api.evaluate(text, at)
    except DomainError as exc:
        assert _undefined_somewhere(text, at) is not False, (text, at, exc.message)
        return TALLY("undefined")
    if reference is None:
        return TALLY("sympy cannot compare")
    f, symbols, point, exact = reference
    numbers = [result.value, *result.gradient.values()]
    if result.warnings:
        return TALLY("warned")   # a kink's convention or a nan, tested on their own
    if not all(math.isfinite(v) and abs(v) < 1e8 for v in numbers):
        return TALLY("huge")
    # Where the exact value is infinite (csc(pi)) the double one is a rounding of pi's error.
    if _undefined(exact):
        return TALLY("pole")
    expected = number(exact)
    assert result.value == pytest.approx(expected, rel=1e-9, abs=1e-9), text
    for name, g in result.gradient.items():
        d = number(sp.diff(f, symbols[name]).subs(point))
        assert g == pytest.approx(d, rel=1e-9, abs=1e-9), (text, name)
    return TALLY("compared")


@SETTINGS
@given(EXPRESSIONS, AT)
def _random_expressions(text, at):
    _compare(text, at)


def test_random_expressions_agree_with_sympy(record_property):
    run_property(_random_expressions, TALLY, record_property, least=150, share=0.5)


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


@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(DEEP, AT)
def _deep_random_expressions(text, at):
    before = TALLY.counts["compared"]
    _compare(text, at)
    if TALLY.counts["compared"] > before:
        COMPARED.add(text)


def test_deep_random_expressions_agree_with_sympy(record_property):
    """The deep property compares many distinct, non-trivial expressions (not a few repeats)."""
    COMPARED.clear()
    run_property(_deep_random_expressions, TALLY, record_property, least=50, share=0.5)
    sizes = sorted(_operations(t) for t in COMPARED)
    assert len(COMPARED) >= 50, len(COMPARED)
    assert sizes[len(sizes) * 9 // 10] >= 8, sizes
    assert sizes[-1] >= 15, sizes


@pytest.mark.slow  # 40 functions, each against SymPy: half a minute of CPU
@pytest.mark.parametrize("name,arity", FUNCTIONS, ids=[f for f, _ in FUNCTIONS])
def test_each_function_in_a_random_context(name, arity, record_property):
    """Every function appears, composed with random sub-expressions, at least a few times."""
    inner = st.recursive(LEAVES, _extend, max_leaves=3)

    @settings(max_examples=14, derandomize=True, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(data=st.data())
    def prop(data):
        text = data.draw(_call(name, arity, inner))
        # Narrow domains (log, acosh) of random arguments: the next point where this one
        # is undefined, so that each function is really compared a few times.
        orders = [data.draw(st.permutations(POINTS)) for _ in NAMES]
        for values in zip(*orders):
            at = dict(zip(NAMES, values))
            if _compare(text, at) != "undefined":
                break
    run_property(prop, TALLY, record_property, least=3)


@settings(max_examples=150, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.recursive(LEAVES, _extend, max_leaves=5), AT)
def _random_hessians(text, at):
    _hessian_outcome(text, at)


def _hessian_outcome(text, at):
    used = api.inputs_of(parse_expr_program(text))
    at = {k: v for k, v in at.items() if k in used}
    reference = _sympy_at(text, at)
    try:
        result = api.evaluate(text, at, hessian=True)
    except DomainError as exc:
        assert _undefined_somewhere(text, at) is not False, (text, at, exc.message)
        return TALLY("undefined")
    if result.warnings:
        return TALLY("warned")
    entries = [v for row in result.hessian.values() for v in row.values()]
    if not all(math.isfinite(v) and abs(v) < 1e8 for v in entries):
        return TALLY("huge")
    if reference is None:
        return TALLY("sympy cannot compare")
    f, symbols, point, _ = reference
    wants = {}
    for a, row in result.hessian.items():
        for b in row:
            exact = sp.diff(f, symbols[a], symbols[b]).subs(point)
            if exact.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
                return TALLY("pole")
            wants[a, b] = exact
    for (a, b), exact in wants.items():
        got = result.hessian[a][b]
        assert got == pytest.approx(number(exact), rel=1e-9, abs=1e-9), (text, a, b)
    TALLY("compared")


def test_random_hessians_agree_with_sympy(record_property):
    """--hessian (the backward pass differentiated again) against SymPy's second derivatives."""
    run_property(_random_hessians, TALLY, record_property, least=75, share=0.5)


