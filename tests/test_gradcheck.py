"""eval --check as a library: finite_differences() beside the engine's partials."""

import pytest

from gradcli import api
from gradcli.tasks.gradcheck import finite_differences


def fd(text, **at):
    return finite_differences(api.evaluate(text, at))


def test_finite_differences_agree_on_smooth_functions():
    checks = fd("(w*x+b)**2", w=3, x=2, b=1)
    assert set(checks) == {"w", "x", "b"}
    for c in checks.values():
        assert c.ok and c.rel_error < 1e-8 and not c.note
    assert checks["w"].estimate == pytest.approx(28, rel=1e-8)
    c = fd("sigmoid(x)*exp(-x**2) + atan2(y, x)", x=0.3, y=-2)
    assert all(v.ok for v in c.values())


def test_finite_difference_at_a_kink_names_it():
    c = fd("relu(x)*y", x=0, y=2)["x"]
    assert not c.ok
    assert c.gradient == 0 and c.estimate == pytest.approx(1, rel=1e-6)
    assert c.rel_error == pytest.approx(1)
    assert "x = 0 is at a kink" in c.note and "relu at 0" in c.note
    assert "left 0, right 2" in c.note
    assert fd("relu(x)*y", x=0, y=2)["y"].ok


def test_finite_difference_one_sided_at_a_domain_edge():
    c = fd("sqrt(x)", x=0)["x"]
    assert not c.ok and c.note.startswith("one-sided")
    assert "sqrt at 0" in c.note


def test_finite_difference_at_a_jump():
    c = fd("sign(y) + y", y=0)["y"]
    assert not c.ok and "jumps at y = 0" in c.note


def test_finite_difference_near_a_kink():
    c = fd("relu(x - 1e-7)", x=0)["x"]
    assert not c.ok and "a kink lies within" in c.note
