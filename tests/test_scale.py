"""Deep and large inputs: no RecursionError, shared names stay linear (timings live in bench/)."""
from fractions import Fraction

import pytest
from conftest import DEEP

from gradcli import api
from gradcli.autodiff.engine import topo_order


@pytest.mark.slow
def test_100000_nested_parentheses():
    n = 100_000
    r = api.evaluate("(" * n + "x*x" + ")" * n, x=3)
    assert r.value == 9 and r.gradient == {"x": 6}


@pytest.mark.slow
def test_100000_nested_functions():
    n = 100_000
    r = api.evaluate("sin(" * n + "x" + ")" * n, x=0)
    assert r.value == 0 and r.gradient == {"x": 1}


@pytest.mark.slow
def test_100000_term_sum():
    n = 100_000
    r = api.evaluate("+".join(["x"] * n), x=2)
    assert r.value == 2 * n and r.gradient == {"x": n}


@pytest.mark.slow
def test_1000000_term_sum():
    n = 1_000_000
    r = api.evaluate("+".join(["x"] * (n // 2) + ["y"] * (n // 2)), x=2, y=1)
    assert r.value == 3 * n // 2 and r.gradient == {"x": n // 2, "y": n // 2}


def test_program_using_each_name_twice_is_linear():
    n = 10_000
    lines = ["a0 = x"] + [f"a{i} = a{i - 1}*0.5 + a{i - 1}*0.5" for i in range(1, n)]
    r = api.evaluate("\n".join(lines), x=3)
    assert r.value == pytest.approx(3) and r.gradient["x"] == pytest.approx(1)
    # One node per operation: 3 per line plus the leaf, never 2**n copies.
    nodes = topo_order(r.graph.output)
    assert len(nodes) <= 3 * n + 1


def test_deep_hessian():
    n = 2_000
    r = api.evaluate("(" * n + "x*y" + ")" * n, x=3, y=2, hessian=True)
    assert r.hessian == {"x": {"x": 0, "y": 1}, "y": {"x": 1, "y": 0}}


def test_deep_exact():
    n = DEEP
    r = api.evaluate("+".join(["x/3"] * n), x=1, exact=True)
    assert r.value == Fraction(n, 3) and r.gradient == {"x": Fraction(n, 3)}


@pytest.mark.slow
def test_time_per_input_stays_flat_from_1000_to_50000_inputs():
    """A ratio within one run, not a timing: linear work keeps it near 1 (quadratic gave 10)."""
    import time

    from click.testing import CliRunner

    from gradcli.cli import main

    def per_input(n, runs):
        expr = " + ".join(f"{i % 7 + 1}*x{i}" for i in range(n))
        at = ",".join(f"x{i}={i % 5}" for i in range(n))
        best = float("inf")
        for _ in range(runs):
            start = time.process_time()  # this process's CPU time: other load does not count
            result = CliRunner().invoke(main, ["eval", expr, "--at", at, "-o", "json"])
            best = min(best, time.process_time() - start)
            assert result.exit_code == 0, result.output
        return best / n

    # At 5 x 10^4 one list scan per input (a quadratic term) more than doubles the time
    # per input, and the old quadratic code gave 10; linear work keeps the ratio near 1
    # (measured: 0.7). The bound is generous, for a shared machine.
    small, large = per_input(1_000, 5), per_input(50_000, 2)
    assert large / small < 3, (small, large)
