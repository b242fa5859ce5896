"""Vectors and matrices: PyTorch golden values, finite differences, shapes, seeds, Jacobians."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gradcli import Value, evaluate, ops
from gradcli.errors import DomainError, LimitError, ShapeError
from gradcli.autodiff.lower import lower
from gradcli.language.parser import parse

GOLDEN = json.loads((Path(__file__).parent / "golden" / "torch_vectors.json").read_text())
CASES = GOLDEN["cases"]
SRC = str(Path(__file__).resolve().parent.parent / "src")


def close(a, b, rtol=1e-12, atol=1e-12):
    return np.allclose(np.asarray(a, float), np.asarray(b, float), rtol=rtol, atol=atol)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_pytorch(case):
    kw = {}
    if "seed" in case:
        kw["seed"] = case["seed"]
    if "jacobian" in case:
        kw["jacobian"] = True
    r = evaluate(case["expression"], case["at"], **kw)
    assert close(r.value, case["value"])
    for name, g in case.get("gradient", {}).items():
        assert np.shape(r.gradient[name]) == np.shape(g), name
        assert close(r.gradient[name], g), (name, r.gradient[name], g)
    for name, j in case.get("jacobian", {}).items():
        assert np.shape(r.jacobian[name]) == np.shape(j), name
        assert close(r.jacobian[name], j), (name, r.jacobian[name], j)


def _central(expr, at, name, seed=None, h=1e-6):
    """d <seed, f> / d at[name] by central differences, element by element."""
    base = {k: np.array(v, dtype=float) for k, v in at.items()}
    x = base[name]
    grad = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        vals = []
        for step in (h, -h):
            moved = dict(base)
            moved[name] = x.copy()
            moved[name][idx] += step
            point = {k: (float(v) if v.ndim == 0 else v) for k, v in moved.items()}
            value = np.asarray(lower(parse(expr), point).output.data)
            vals.append(float(np.sum(value * (1.0 if seed is None else np.asarray(seed)))))
        grad[idx] = (vals[0] - vals[1]) / (2 * h)
    return grad


@pytest.mark.parametrize("case", [c for c in CASES if "gradient" in c and c["name"] != "max_tie"],
                         ids=[c["name"] for c in CASES if "gradient" in c and c["name"] != "max_tie"])
def test_gradients_match_central_differences(case):
    kw = {"seed": case["seed"]} if "seed" in case else {}
    r = evaluate(case["expression"], case["at"], **kw)
    for name in case["at"]:
        fd = _central(case["expression"], case["at"], name, case.get("seed"))
        assert np.allclose(r.gradient[name], fd, rtol=1e-6, atol=1e-6), (name, r.gradient[name], fd)


def test_value_api_is_pytorch_like():
    x = Value(np.array([1.0, 2.0, 3.0]))
    w = Value(np.array([0.5, 1.0, 1.5]))
    y = (x * w).sum()
    y.backward()
    assert y.data == 7.0
    assert w.grad.tolist() == [1.0, 2.0, 3.0] and x.grad.tolist() == [0.5, 1.0, 1.5]


def test_value_matmul_operator():
    A = Value([[1.0, 2.0], [3.0, 4.0]])
    x = Value([1.0, -1.0])
    y = (A @ x).sum()
    y.backward()
    assert y.data == -2.0
    assert x.grad.tolist() == [4.0, 6.0] and A.grad.tolist() == [[1, -1], [1, -1]]


_UNARY = sorted(name for name, op in ops.TABLE.items()
                if op.arity == 1 and op.vjp is None and not op.is_operator)


@pytest.mark.parametrize("name", _UNARY)
def test_every_function_on_arrays_matches_the_scalar_engine(name):
    """The op table's rules on NumPy arrays give each element what the float path gives."""
    points = [-2.5, -0.6, 0.3, 0.7, 1.5, 2.5]
    scalar = {}
    for p in points:
        try:
            scalar[p] = evaluate(f"{name}(x)", x=p)
        except DomainError:
            pass
    assert scalar, name
    xs = list(scalar)
    r = evaluate(f"sum({name}(x))", x=xs)
    assert r.value == pytest.approx(sum(s.value for s in scalar.values()), rel=1e-14)
    expected = [scalar[p].gradient["x"] for p in xs]
    assert np.allclose(r.gradient["x"], expected, rtol=1e-14, atol=0), name


def test_value_accepts_lists_and_leaves_accumulate():
    x = Value([1, 2, 3])
    y = (x * x).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [4, 8, 12]  # twice 2x, as PyTorch accumulates
    y.zero_grad()
    assert x.grad == 0


def test_array_backward_is_quiet_about_nan(recwarn):
    r = evaluate("sum(x**y)", x=[-1, 2], y=[2, 2])
    assert np.isnan(r.gradient["y"][0]) and r.gradient["y"][1] == pytest.approx(4 * np.log(2))
    assert any("negative base -1" in w and "x[0] = -1" in w for w in r.warnings)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_gradients_have_the_shape_of_their_inputs():
    r = evaluate("sum(A @ v) + c*mean(A)", A=[[1, 2], [3, 4], [5, 6]], v=[1, -1], c=2)
    assert r.gradient["A"].shape == (3, 2)
    assert r.gradient["v"].shape == (2,)
    assert isinstance(r.gradient["c"], float)
    # d/dA sum(A @ v) = 1 v^T ; d/dA c*mean(A) = c/6
    assert close(r.gradient["A"], np.outer([1, 1, 1], [1, -1]) + 2 / 6)
    assert close(r.gradient["v"], [9, 12])
    assert r.gradient["c"] == pytest.approx(3.5)


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
                                   ((5, 2, 3), (3, 4)), ((3,), (5, 3, 2)), ((2, 1, 2, 3), (4, 3, 2))])
def test_matmul_gradients_for_every_shape_combination(sa, sb):
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    s = rng.normal(size=np.matmul(a, b).shape)
    seed = float(s) if np.ndim(s) == 0 else s
    r = evaluate("a @ b", a=a, b=b, seed=seed)
    at = {"a": a, "b": b}
    for name in at:
        fd = _central("a @ b", at, name, seed)
        assert np.allclose(r.gradient[name], fd, rtol=1e-6, atol=1e-6)


def test_seed_worked_by_hand():
    # f = x**2, J = diag(2x) = diag(2, 4, 6); seed^T J = [1*2, 0*4, 2*6]
    r = evaluate("x**2", x=[1, 2, 3], seed=[1, 0, 2])
    assert r.gradient["x"].tolist() == [2.0, 0.0, 12.0]
    # f = A @ x; seed^T A = [1, 1] @ [[1, 2], [3, 4]] = [4, 6]; d/dA = outer(seed, x)
    r = evaluate("A @ x", A=[[1, 2], [3, 4]], x=[5, 6], seed=[1, 1])
    assert r.gradient["x"].tolist() == [4.0, 6.0]
    assert r.gradient["A"].tolist() == [[5.0, 6.0], [5.0, 6.0]]
    # A scalar seed on a scalar result scales the gradient, as in PyTorch.
    assert evaluate("x**2", x=3, seed=2).gradient["x"] == 12.0


def test_seed_must_have_the_result_shape():
    with pytest.raises(ShapeError, match=r"--seed has shape \(2,\) but the result has shape \(3,\)"):
        evaluate("x**2", x=[1, 2, 3], seed=[1, 1])
    with pytest.raises(ShapeError, match="a scalar"):
        evaluate("x**2", x=[1, 2, 3], seed=1)


def test_jacobian_worked_by_hand():
    r = evaluate("x**2", x=[1, 2, 3], jacobian=True)
    assert r.jacobian["x"].tolist() == [[2, 0, 0], [0, 4, 0], [0, 0, 6]]
    r = evaluate("A @ x + c", A=[[1, 2], [3, 4], [5, 6]], x=[1, 1], c=1, jacobian=True)
    assert r.jacobian["x"].tolist() == [[1, 2], [3, 4], [5, 6]]  # rows = outputs
    assert r.jacobian["c"].tolist() == [1, 1, 1]
    assert r.jacobian["A"].shape == (3, 3, 2)
    assert r.jacobian["A"][1].tolist() == [[0, 0], [1, 1], [0, 0]]
    # For a scalar result the Jacobian is the gradient.
    r = evaluate("sum(x*w)", x=[1, 2, 3], w=[0.5, 1, 1.5], jacobian=True)
    assert r.jacobian["x"].tolist() == r.gradient["x"].tolist() == [0.5, 1, 1.5]


def test_jacobian_is_bounded():
    with pytest.raises(LimitError):
        evaluate("x*2", x=np.zeros(200_000), jacobian=True)


def test_non_scalar_result_names_its_shape_and_the_ways_out():
    with pytest.raises(ShapeError) as info:
        evaluate("x*w", x=[1, 2, 3], w=[1, 1, 1])
    err = info.value
    assert err.exit_code == 2
    assert "shape (3,)" in err.message
    assert "sum(...)" in err.hint and "--seed [1, 1, 1]" in err.hint and "--jacobian" in err.hint


def test_non_scalar_constant_needs_no_gradient():
    assert evaluate("[1, 2]*2").value.tolist() == [2, 4]


@pytest.mark.parametrize("expr,at,words", [
    ("x + y", {"x": [1, 2], "y": [1, 2, 3]}, ["(2,)", "(3,)", "+", "x + y"]),
    ("dot(x, y)", {"x": [1, 2], "y": [1, 2, 3]}, ["(2,)", "(3,)", "dot"]),
    ("dot(A, y)", {"A": [[1, 2]], "y": [1, 2]}, ["(1, 2)", "dot"]),
    ("A @ x", {"A": [[1, 2], [3, 4]], "x": [1, 2, 3]}, ["(2, 2)", "(3,)", "@"]),
    ("sum(x @ 2)", {"x": [1, 2]}, ["(2,)", "a scalar", "@"]),
    ("max(x, y, z)", {"x": [1, 2], "y": [1, 2, 3], "z": 1}, ["(2,)", "(3,)", "max"]),
])
def test_shape_errors_name_both_shapes_and_the_operation(expr, at, words):
    with pytest.raises(ShapeError) as info:
        evaluate(expr, at)
    for w in words:
        assert w in info.value.message
    assert info.value.span is not None


def test_ragged_and_empty_literals_are_errors():
    with pytest.raises(ShapeError, match="row 1 has 2 elements but row 2 has 1"):
        evaluate("sum([[1, 2], [x]])", x=1)
    with pytest.raises(ShapeError, match="empty"):
        evaluate("sum([])")
    with pytest.raises(ShapeError, match="ragged"):
        evaluate("sum(x)", x=[[1, 2], [3]])


def test_domain_error_names_the_elements():
    with pytest.raises(DomainError) as info:
        evaluate("sum(log(x))", x=[1, -2, 3, -4])
    msg = info.value.message
    assert "x[1] = -2" in msg and "x[3] = -4" in msg and "ln needs a positive argument" in msg
    assert info.value.mask.tolist() == [False, True, False, True]
    with pytest.raises(DomainError, match=r"A\[1, 0\] = 0"):
        evaluate("sum(1/A)", A=[[1, 2], [0, 4]])


def test_kink_warning_names_the_element():
    r = evaluate("sum(relu(x))", x=[1, 0, -1])
    assert r.gradient["x"].tolist() == [1, 0, 0]
    assert any("x[1] = 0" in w for w in r.warnings)


def test_reductions_of_scalars_and_size():
    r = evaluate("sum(x) + mean(x) + size(x)", x=3)
    assert r.value == 7 and r.gradient["x"] == 2
    r = evaluate("size(A) * mean(A)", A=[[1, 2], [3, 4]])
    assert r.value == 10 and r.gradient["A"].tolist() == [[1, 1], [1, 1]]


def test_scalar_eval_does_not_import_numpy():
    code = ("import sys; from gradcli.cli import main\n"
            "try:\n    main(['eval', 'sin(x)*x**2', '--at', 'x=2', '-o', 'json'])\n"
            "except SystemExit:\n    pass\n"
            "print('NUMPY' if 'numpy' in sys.modules else 'CLEAN')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip().endswith("CLEAN"), out.stdout + out.stderr
    code = code.replace("'x=2'", "'x=[1,2]'").replace("sin(x)*x**2", "sum(sin(x))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip().endswith("NUMPY")
