"""Gradient descent: agreement with PyTorch, convergence, divergence, data files."""
import json
import math
import os

import numpy as np
import pytest

from gradcli.tasks.descend import Diverged, descend, load_data
from gradcli.errors import GradcliError, ShapeError, UnknownName, UsageError
from gradcli.output.formats import rounder, shown_steps

GOLDEN = os.path.join(os.path.dirname(__file__), "golden", "torch_descend.json")
CASES = json.load(open(GOLDEN))["cases"]


def columns_of(case):
    rows = np.array(case["rows"], dtype=float)
    return {name: rows[:, j] for j, name in enumerate(case["columns"])}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_agrees_with_pytorch_per_epoch_and_final(case):
    result = descend(case["expression"], case["start"], lr=case["lr"], steps=case["epochs"],
                     data=columns_of(case), momentum=case["momentum"])
    losses = [s.loss for s in result.history]
    assert len(losses) == case["epochs"]
    for ours, theirs in zip(losses, case["losses"]):
        assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-9)
    assert list(result.final_params) == list(case["final"])
    for name, value in case["final"].items():
        assert result.final_params[name] == pytest.approx(value, rel=1e-9, abs=1e-9)


def test_classic_exercise_numbers_rounded_to_four_decimals():
    case = next(c for c in CASES if c["name"] == "classic")
    result = descend(case["expression"], case["start"], lr=0.1, steps=2, data=columns_of(case))
    r = rounder(4)
    assert [r(s.loss) for s in result.history] == [0.3033, 0.2942]
    assert {k: r(v) for k, v in result.final_params.items()} == \
        {"w1": 0.1036, "w2": -0.1425, "b": -0.0167}


def test_vector_parameter_trains_like_separate_weights():
    case = next(c for c in CASES if c["name"] == "twenty-rows")
    data = columns_of(case)
    vec = descend("mean((sigmoid(w @ [x1, x2, x3] + b) - y)**2)", {"w": np.zeros(3), "b": 0.0},
                  lr=case["lr"], steps=case["epochs"], data=data)
    final = vec.final_params["w"]
    assert final.shape == (3,)
    for j in range(3):
        assert final[j] == pytest.approx(case["final"][f"w{j + 1}"], rel=1e-9, abs=1e-9)
    assert vec.final_params["b"] == pytest.approx(case["final"]["b"], rel=1e-9, abs=1e-9)


def test_convex_quadratic_reaches_its_minimum():
    # Positive definite: minimum 0 at (1, -2).
    f = "(x - 1)**2 + 2*(y + 2)**2 + (x - 1)*(y + 2)"
    result = descend(f, {"x": 5.0, "y": 5.0}, lr=0.2, steps=1000, tol=1e-10)
    assert result.stopped == "tol"
    assert result.steps_run < 1000
    assert result.final_params["x"] == pytest.approx(1, abs=1e-9)
    assert result.final_params["y"] == pytest.approx(-2, abs=1e-9)
    assert result.final_loss == pytest.approx(0, abs=1e-18)
    assert result.final_grad_norm < 1e-10
    losses = [s.loss for s in result.history]
    assert all(a >= b for a, b in zip(losses, losses[1:]))


def test_vector_quadratic_minimum():
    result = descend("sum((w - [1, 2, 3])**2)", {"w": np.array([0.0, 0.0, 0.0])},
                     lr=0.25, steps=200, tol=1e-12)
    assert np.allclose(result.final_params["w"], [1, 2, 3], atol=1e-12)


def test_one_step_exact_and_history_semantics():
    # (x - 3)**2 at x = 0: loss 9, gradient -6; lr 0.25 moves x to 1.5.
    result = descend("(x - 3)**2", {"x": 0.0}, lr=0.25, steps=2)
    first, second = result.history
    assert (first.step, first.loss, first.grad_norm, first.params) == (1, 9.0, 6.0, {"x": 1.5})
    assert (second.loss, second.params) == (2.25, {"x": 2.25})
    assert (result.final_loss, result.final_params) == (0.5625, {"x": 2.25})


def test_momentum_follows_torch_sgd():
    # buf = m*buf + g; x -= lr*buf, with buf = g at the first step.
    x, buf, lr, m = 1.0, None, 0.1, 0.9
    for _ in range(5):
        g = 2 * x
        buf = g if buf is None else m * buf + g
        x -= lr * buf
    result = descend("x**2", {"x": 1.0}, lr=lr, steps=5, momentum=m)
    assert result.final_params["x"] == pytest.approx(x, rel=1e-15)


def test_wrt_trains_only_the_named_parameters():
    result = descend("(x - 1)**2 + (y - 2)**2", {"x": 0.0, "y": 0.0}, wrt=["x"], lr=0.5,
                     steps=3)
    assert result.params == ["x"]
    assert result.final_params == {"x": 1.0}


def test_divergence_names_the_step():
    with pytest.raises(Diverged) as info:
        descend("x**2", {"x": 1.0}, lr=1.5, steps=2000)
    err = info.value
    assert err.exit_code == 3
    assert err.step == 513
    assert "diverged at step 513" in err.message and "overflows" in err.message
    assert err.result.stopped == "diverged"
    assert len(err.result.history) == 512
    assert "smaller --lr" in err.hint


def test_divergence_by_leaving_the_domain():
    # x = 1 - 2*1 = -1 after one step: log(-1) at step 2.
    with pytest.raises(Diverged) as info:
        descend("log(x)", {"x": 1.0}, lr=2, steps=20)
    assert info.value.step == 2
    assert "ln needs a positive argument" in info.value.message


def test_undefined_start_is_reported_as_step_one():
    with pytest.raises(Diverged) as info:
        descend("sqrt(x)", {"x": -1.0}, lr=0.1, steps=3)
    assert info.value.step == 1
    assert "at the start" in info.value.message


def test_infinite_gradient_is_divergence():
    with pytest.raises(Diverged, match="gradient with respect to x is not finite"):
        descend("sqrt(x)", {"x": 0.0}, lr=0.1, steps=3)


@pytest.mark.parametrize("kw,fragment", [
    ({"lr": 0}, "--lr must be a positive number"),
    ({"lr": -0.1}, "--lr must be a positive number"),
    ({"lr": float("nan")}, "--lr must be a positive number"),
    ({"lr": float("inf")}, "--lr must be a positive number"),
    ({"steps": 0}, "--steps must be a positive whole number"),
    ({"steps": -3}, "--steps must be a positive whole number"),
    ({"steps": 2.5}, "--steps must be a positive whole number"),
    ({"steps": 10 ** 7}, "--steps 10000000 is more than gradcli runs"),
    ({"tol": 0}, "--tol must be a positive number"),
    ({"momentum": -0.5}, "--momentum must be 0 or more"),
])
def test_bad_settings_exit_2(kw, fragment):
    args = {"lr": 0.1, "steps": 5}
    args.update(kw)
    with pytest.raises(GradcliError, match=fragment.replace("-", r"\-")) as info:
        descend("x**2", {"x": 1.0}, **args)
    assert info.value.exit_code == 2


def test_non_scalar_loss_is_a_shape_error():
    with pytest.raises(ShapeError, match="mean"):
        descend("(w*x - y)**2", {"w": 1.0}, data={"x": np.array([1.0, 2.0]),
                                                 "y": np.array([1.0, 3.0])}, lr=0.1, steps=2)


def test_nothing_to_train():
    with pytest.raises(UsageError, match="nothing to train"):
        descend("mean(x)", {}, data={"x": np.array([1.0, 2.0])}, lr=0.1, steps=2)


def test_missing_start_value_names_the_input():
    with pytest.raises(UnknownName, match="no value for 'b'"):
        descend("(w - b)**2", {"w": 1.0}, lr=0.1, steps=2)


# ------------------------------------------------------------------ data files

def write(tmp_path, text, name="data.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_load_data_columns_are_float_vectors(tmp_path):
    path = write(tmp_path, "\ufeffx1, x2 ,y\n1,2,1\n\n2.5,-1e-3,0\n")
    data = load_data(path)
    assert list(data.columns) == ["x1", "x2", "y"]
    assert data.rows == 2
    assert data.columns["x2"].tolist() == [2.0, -0.001]


def test_load_data_reads_json_lines_too(tmp_path):
    data = load_data(write(tmp_path, '{"x": 1, "y": 2}\n{"x": 3, "y": 4}\n', "data.jsonl"))
    assert data.columns["y"].tolist() == [2.0, 4.0]


@pytest.mark.parametrize("text,fragments", [
    ("", ["is empty"]),
    ("  \n\n", ["no header row"]),
    ("x,y\n", ["header (x, y) but no rows"]),
    ("x,y\n1,2\n3,abc\n", ["row 2, column 'y'", "'abc', not a number"]),
    ("x,y\n1,2\n3\n", ["row 2", "missing column 'y'"]),
    ("x,y\n1,\n", ["row 1, column 'y'", "empty"]),
    ("x,y\n1,2\n4,nan\n", ["row 2, column 'y'", "not a finite number"]),
    ("x,x\n1,2\n", ["two columns named 'x'"]),
    ("x,2y\n1,2\n", ["column 2", "'2y' is not a name"]),
    ("x,sin\n1,2\n", ["'sin' is a function"]),
    ("x,pi\n1,2\n", ["'pi' is a constant"]),
    ("x,\n1,2\n", ["column 2", "no name"]),
])
def test_bad_data_names_file_row_and_column(tmp_path, text, fragments):
    path = write(tmp_path, text)
    with pytest.raises(UsageError) as info:
        load_data(path)
    assert info.value.exit_code == 2
    assert info.value.message.startswith("--data: ")
    assert path in info.value.message
    for fragment in fragments:
        assert fragment in info.value.message


def test_unreadable_data_file(tmp_path):
    with pytest.raises(UsageError, match="--data: cannot read"):
        load_data(str(tmp_path / "missing.csv"))


def test_missing_column_names_the_file_and_its_columns(tmp_path):
    data = load_data(write(tmp_path, "x1,x2\n1,2\n"))
    with pytest.raises(UsageError) as info:
        descend("mean((w*x1 + b - y)**2)", {"w": 0.0, "b": 0.0}, data=data, lr=0.1, steps=2)
    message = info.value.message
    assert "'y' is neither a column of" in message and "data.csv" in message
    assert "x1, x2" in message


def test_column_clashing_with_a_parameter(tmp_path):
    data = load_data(write(tmp_path, "x,b\n1,2\n"))
    with pytest.raises(UsageError, match="column 'b' clashes with the parameter 'b'"):
        descend("mean((w*x + b)**2)", {"w": 0.0, "b": 0.0}, data=data, lr=0.1, steps=2)


def test_wrt_naming_a_column_is_refused(tmp_path):
    data = load_data(write(tmp_path, "x,y\n1,2\n"))
    with pytest.raises(UsageError, match="'x' is a column"):
        descend("mean((w*x - y)**2)", {"w": 0.0}, wrt=["x"], data=data, lr=0.1, steps=2)


def test_unused_column_is_a_warning(tmp_path):
    data = load_data(write(tmp_path, "x,y,z\n1,2,3\n"))
    result = descend("mean((w*x - y)**2)", {"w": 0.0}, data=data, lr=0.1, steps=1)
    assert any("column 'z' is not used" in w for w in result.warnings)


# ------------------------------------------------------------------ output helpers

def test_shown_steps():
    assert shown_steps(2, None) == [1, 2]
    assert shown_steps(100, None) == [1] + list(range(10, 101, 10))
    assert shown_steps(7, 3) == [1, 3, 6, 7]
    assert shown_steps(0, None) == []


def test_rounder_rounds_numbers_and_arrays():
    r = rounder(2)
    assert r(0.12345) == 0.12
    assert r(np.array([0.123, 1.987])).tolist() == [0.12, 1.99]
    assert math.isnan(r(float("nan")))
    assert rounder(None)(0.12345) == 0.12345


def test_kink_conventions_are_reported_once_with_their_step():
    result = descend("abs(x) + relu(x)", {"x": 0.5}, lr=0.25, steps=4)
    assert result.final_params == {"x": 0.0}
    assert result.warnings == [
        "step 2: abs at 0: left -1, right 1; using 0 as PyTorch does",
        "step 2: relu at 0: left 0, right 1; using 0 as PyTorch does"]


def test_programs_train_too():
    program = "z = w*x + b\nloss = mean((z - y)**2)"
    data = {"x": np.array([0.0, 1.0, 2.0]), "y": np.array([1.0, 3.0, 5.0])}
    result = descend(program, {"w": 0.0, "b": 0.0}, data=data, lr=0.1, steps=2000, tol=1e-12)
    assert result.final_params["w"] == pytest.approx(2, abs=1e-10)
    assert result.final_params["b"] == pytest.approx(1, abs=1e-10)


def test_api_descend_is_the_library_function():
    from gradcli import api
    assert api.descend("(x - 3)**2", {"x": 0.0}, lr=0.5, steps=1).final_params == {"x": 3.0}
