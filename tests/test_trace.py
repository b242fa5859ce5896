"""trace.py: the engine's backward pass as records, checked against the engine and eval."""
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradcli import evaluate
from gradcli.output import ledger
from gradcli.autodiff.engine import Value
from gradcli.language.expr import free_names
from gradcli.language.parser import parse
from gradcli.tasks.trace import trace


def steps(t):
    return [(s.node, s.upstream, [(c.input, c.formula, c.substituted, c.local, c.contribution,
                                   c.total, c.previous) for c in s.contributions])
            for s in t.backward]


def test_textbook_square_of_affine():
    t = trace("(w*x+b)**2", {"w": 3, "x": 2, "b": 1})
    assert [(n.name, n.kind, n.formula, n.value) for n in t.forward] == [
        ("w", "input", None, 3.0), ("x", "input", None, 2.0), ("b", "input", None, 1.0),
        ("v1", "op", "w*x", 6.0), ("v2", "op", "v1 + b", 7.0), ("2", "literal", None, 2.0),
        ("f", "op", "v2**2", 49.0)]
    assert steps(t) == [
        ("f", 1.0, [("v2", "2*v2", "2*7", 14.0, 14.0, 14.0, None)]),
        ("v2", 14.0, [("v1", "1", "1", 1, 14.0, 14.0, None), ("b", "1", "1", 1, 14.0, 14.0, None)]),
        ("v1", 14.0, [("w", "x", "2", 2.0, 28.0, 28.0, None),
                      ("x", "w", "3", 3.0, 42.0, 42.0, None)]),
    ]
    assert t.gradient == {"w": 28.0, "x": 42.0, "b": 14.0}
    assert [n.grad for n in t.forward] == [28.0, 42.0, 14.0, 14.0, 14.0, None, 1.0]


def test_a_variable_used_twice_accumulates_visibly():
    t = trace("x*x + x", {"x": 3})
    assert steps(t) == [
        ("f", 1.0, [("v1", "1", "1", 1, 1.0, 1.0, None), ("x", "1", "1", 1, 1.0, 1.0, None)]),
        ("v1", 1.0, [("x", "x", "3", 3.0, 3.0, 4.0, 1.0), ("x", "x", "3", 3.0, 3.0, 7.0, 4.0)]),
    ]
    assert [c.accumulated for c in t.backward[1].contributions] == [True, True]
    assert t.gradient == {"x": 7.0}


def test_program_names_its_intermediates():
    t = trace("z = w*x + b\ny = sigmoid(z)\nloss = (y - t)**2",
              {"w": 0.5, "x": 2, "b": -1, "t": 1})
    assert [n.name for n in t.forward if n.kind == "op"] == ["v1", "z", "y", "v2", "loss"]
    assert t.output == "loss" and t.result_name == "loss"
    sig = t.backward[2]
    assert (sig.node, sig.contributions[0].formula, sig.contributions[0].substituted) == \
        ("y", "y*(1 - y)", "0.5*(1 - 0.5)")
    assert t.gradient == evaluate("z = w*x + b\ny = sigmoid(z)\nloss = (y - t)**2",
                                  w=0.5, x=2, b=-1, t=1).gradient


def test_generated_names_avoid_the_users_names():
    t = trace("v1*f + f", {"v1": 2, "f": 5})
    names = [n.name for n in t.forward]
    assert names == ["v1", "f", "v2", "v3"]
    assert t.output == "v3"


def test_negative_values_are_parenthesised_in_the_formula_at_the_point():
    t = trace("sin(x)*y", {"x": -2, "y": -3})
    by_input = {c.input: c for s in t.backward for c in s.contributions}
    assert by_input["x"].formula == "cos(x)" and by_input["x"].substituted == "cos(-2)"
    assert by_input["v1"].substituted == "-3"


def test_constants_and_literals_are_not_differentiated():
    t = trace("pi*x + 2", {"x": 1})
    kinds = {n.name: n.kind for n in t.forward}
    assert kinds["pi"] == "constant" and kinds["2"] == "literal"
    inputs = [c.input for s in t.backward for c in s.contributions]
    assert "pi" not in inputs and "2" not in inputs
    assert t.gradient == {"x": math.pi}


def test_constant_expression_has_no_backward_steps():
    t = trace("2*3", {})
    assert t.backward == [] and t.value == 6.0 and t.gradient == {}
    assert "No gradient flows" in ledger.markdown(t)


def test_wrt_limits_the_gradients():
    t = trace("x*y", {"x": 2, "y": 3}, wrt=["x"])
    assert t.gradient == {"x": 3.0}
    assert [c.input for s in t.backward for c in s.contributions] == ["x"]


def test_kink_warning_is_kept():
    t = trace("relu(x)", {"x": 0})
    assert any("relu at 0" in w for w in t.warnings)
    assert t.gradient == {"x": 0.0}


# ------------------------------------------------------------ against the engine

UNARY = ["sin", "cos", "exp", "tanh", "sigmoid", "atan", "softplus", "neg", "sqrt_sq", "relu"]
BINARY = ["+", "-", "*", "/", "max"]


@st.composite
def expressions(draw, depth=0):
    names = ["x", "y", "z"]
    if depth > 3 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(names + ["2", "0.5", "pi"]))
    kind = draw(st.sampled_from(["unary", "binary", "binary", "square"]))
    if kind == "unary":
        fn = draw(st.sampled_from(UNARY))
        inner = draw(expressions(depth + 1))
        if fn == "neg":
            return f"-({inner})"
        if fn == "sqrt_sq":
            return f"sqrt(({inner})**2 + 1)"
        return f"{fn}({inner})"
    if kind == "square":
        return f"({draw(expressions(depth + 1))})**2"
    op = draw(st.sampled_from(BINARY))
    left, right = draw(expressions(depth + 1)), draw(expressions(depth + 1))
    if op == "/":
        return f"({left})/(({right})**2 + 1)"
    if op == "max":
        return f"max({left}, {right})"
    return f"({left}) {op} ({right})"


point = st.floats(-2, 2, allow_nan=False).map(lambda v: round(v, 3))


@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(expressions(), point, point, point)
def test_every_number_is_the_engines(text, x, y, z):
    program = parse(text)
    bindings = {k: v for k, v in {"x": x, "y": y, "z": z}.items()
                if k in free_names(program.result)}
    t = trace(text, bindings)
    result = evaluate(text, bindings)
    # The partials and the value are eval's, exactly.
    assert t.value == result.value
    assert t.gradient == result.gradient
    values = {n.name: n.value for n in t.forward}
    grads = {t.output: 1.0}
    for s in t.backward:
        node = t.node(s.node)
        assert s.upstream == node.grad
        for c in s.contributions:
            # The engine's arithmetic: contribution = upstream * local, added to the total.
            assert c.contribution == s.upstream * c.local
            before = grads.get(c.input, 0)
            assert c.previous == (grads[c.input] if c.input in grads else None)
            assert c.total == before + c.contribution
            grads[c.input] = c.total
            if c.convention:  # a tie in max: PyTorch's share, not the rule's value
                continue
            # The printed rule, evaluated at the point, is the local derivative.
            names = free_names(parse(c.formula).result)
            printed = evaluate(c.formula, {n: values[n] for n in names}).value
            assert printed == pytest.approx(c.local, rel=1e-12, abs=1e-300)
            at_point = evaluate(c.substituted, {}).value
            assert at_point == pytest.approx(c.local, rel=1e-12, abs=1e-300)
    for name, g in t.gradient.items():
        assert grads.get(name, 0) == g
    for n in t.forward:
        if n.grad is not None and n.kind == "input":
            assert n.grad == t.gradient[n.name]


def test_same_numbers_as_a_hand_built_value_graph():
    w, x, b = Value(3.0), Value(2.0), Value(1.0)
    v1 = w * x
    v2 = v1 + b
    f = v2 ** 2
    f.backward()
    t = trace("(w*x+b)**2", {"w": 3, "x": 2, "b": 1})
    assert [n.grad for n in t.forward if n.kind != "literal"] == \
        [w.grad, x.grad, b.grad, v1.grad, v2.grad, f.grad]


# ------------------------------------------------------------ size

def test_deep_expression_traces_without_recursion():
    text = "sin(" * 10000 + "x" + ")" * 10000
    t = trace(text, {"x": 0.5})
    assert len(t.forward) == 10001 and len(t.backward) == 10000
    assert t.gradient == evaluate(text, x=0.5).gradient
    for render in (ledger.plain, ledger.markdown, ledger.latex):
        text_out = render(t)
        assert "sin" in text_out and text_out.count("\n") > 100  # every step, not a stub
    assert len(ledger.record(t)["backward"]) == 10000


def test_wide_expression_traces_without_recursion():
    text = " + ".join(f"x*{i % 7 + 1}" for i in range(5000))
    t = trace(text, {"x": 0.5})
    assert len([n for n in t.forward if n.kind == "op"]) == 9999
    assert t.gradient == {"x": float(sum(i % 7 + 1 for i in range(5000)))}
    # Source text per node stays short however large the expression.
    assert max(len(n.expression) for n in t.forward) <= 60


def test_a_convention_is_marked_not_passed_off_as_the_rule():
    # At a three-way tie max splits the gradient evenly, and so does its printed rule.
    t = trace("max(x, y, x)", {"x": 1, "y": 1})
    cs = t.backward[0].contributions
    assert [c.local for c in cs] == [1 / 3, 1 / 3, 1 / 3]
    assert not any(c.convention for c in cs)
    # PyTorch's d/dy x**y at x = 0 is 0, where the rule y*log(x) has no value.
    t = trace("x**y", {"x": 0, "y": 2})
    assert [(c.input, c.local, c.convention) for c in t.backward[0].contributions] == \
        [("x", 0.0, False), ("y", 0.0, True)]
    assert "(PyTorch's convention here)" in ledger.markdown(t)
    # Away from the conventions the rule's value is shown as usual.
    t = trace("max(x, y)", {"x": 2, "y": 1})
    assert [c.substituted for c in t.backward[0].contributions] == \
        ["(1 + sign(2 - 1))/2", "(1 + sign(1 - 2))/2"]
    assert not any(c.convention for c in t.backward[0].contributions)


def test_vectors_trace_like_eval():
    import numpy as np
    text = "sum((w*x - y)**2) + dot([w, b], [b, 1])"
    at = {"w": 2.0, "b": 0.5, "x": np.array([1.0, 2.0, 3.0]), "y": np.array([1.0, 1.0, 1.0])}
    t = trace(text, at)
    e = evaluate(text, at)
    assert t.value == e.value
    for name, g in e.gradient.items():
        assert np.array_equal(np.asarray(t.gradient[name]), np.asarray(g))
    reductions = [c for s in t.backward if s.op in ("sum", "dot") for c in s.contributions]
    assert reductions and all(c.local is None and c.substituted is None for c in reductions)
    assert "[w, b]" in [n.formula for n in t.forward]
    assert "applied as a vector-Jacobian product" in ledger.markdown(t)
    assert ledger.latex(t) and ledger.plain(t) and ledger.record(t)
