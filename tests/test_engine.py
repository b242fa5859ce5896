"""The engine: textbook examples, accumulation, zero_grad, deep graphs."""
import math

import pytest
from conftest import DEEP

from gradcli import Value
from gradcli.errors import DomainError


def test_textbook_example():
    x, w, b = Value(2.0), Value(3.0), Value(1.0)
    y = (w * x + b) ** 2
    y.backward()
    assert (y.data, w.grad, x.grad, b.grad) == (49.0, 28.0, 42.0, 14.0)


def test_second_backward_accumulates_in_leaves_only():
    x, w, b = Value(2.0), Value(3.0), Value(1.0)
    y = (w * x + b) ** 2
    y.backward()
    y.backward()
    assert w.grad == 56.0 and x.grad == 84.0 and b.grad == 28.0


def test_zero_grad_clears_the_graph():
    x = Value(3.0)
    y = x * x + x
    y.backward()
    assert x.grad == 7.0
    y.zero_grad()
    assert x.grad == 0
    y.backward()
    assert x.grad == 7.0


def test_variable_used_several_times_accumulates():
    x = Value(3.0)
    y = x * x + x
    y.backward()
    assert x.grad == 2 * 3 + 1


def test_every_function_is_a_method():
    x = Value(0.5)
    y = x.sin() + x.exp() + x.log(2) + x.max(Value(0.1)) + x.sigmoid() + x.atan2(Value(1.0))
    y.backward()
    expected = math.cos(0.5) + math.exp(0.5) + 1 / (0.5 * math.log(2)) + 1 \
        + (1 / (1 + math.exp(-0.5))) * (1 - 1 / (1 + math.exp(-0.5))) + 1.0 / (1 + 0.25)
    assert x.grad == pytest.approx(expected, rel=1e-12)


def test_domain_error_names_the_rule():
    with pytest.raises(DomainError, match="ln needs a positive argument"):
        Value(-1.0).log()


def test_deep_chain_has_no_recursion_limit():
    x = Value(1.0)
    y = x
    for _ in range(DEEP):
        y = y * 1.0 + 0.0
    y.backward()
    assert x.grad == 1.0


def test_constants_get_no_gradient():
    x = Value(2.0)
    y = x * 3 + 1
    y.backward()
    assert x.grad == 3.0


@pytest.mark.filterwarnings("ignore:overflow:RuntimeWarning")
def test_a_rule_whose_textbook_form_overflows_beside_an_array_gives_the_true_values():
    import numpy as np

    from gradcli import ops
    from gradcli.autodiff.engine import local_derivative
    t = np.array([-1e308, 1.0])
    out = np.arctan2(1e308, t)
    # -y/(x**2 + y**2), where x**2 + y**2 overflows: the rule scales x and y first,
    # so the (subnormal) true values come out instead of 0.
    d = local_derivative(ops.TABLE["atan2"], 1, out, [1e308, t])
    assert isinstance(d, np.ndarray) and d.shape == (2,)
    assert d[0] == pytest.approx(-5e-309, rel=1e-9, abs=0)
    assert d[1] == pytest.approx(-1e-308, rel=1e-9, abs=0)
    assert local_derivative(ops.TABLE["atan2"], 1, float(out[0]), [1e308, -1e308]) == \
        pytest.approx(-5e-309, rel=1e-9, abs=0)


def test_backward_of_a_vector_needs_its_gradient_as_in_pytorch():
    import numpy as np

    from gradcli.errors import ShapeError
    w = Value(2.0)
    z = w * Value(np.array([1.0, 2.0, 3.0]), requires_grad=False)
    with pytest.raises(ShapeError) as info:
        z.backward()
    assert "only for a scalar result" in info.value.message and "(3,)" in info.value.message
    assert w.grad == 0
    z.backward(gradient=np.array([1.0, 0.0, 2.0]))
    assert w.grad == 7.0
    w.zero_grad()
    z.backward(seed=np.ones(3))  # the older name still works
    assert w.grad == 6.0
