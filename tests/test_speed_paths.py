"""Two paths that were slow, kept fast, with their shortcuts proven to decide as the slow
way does: the chain rule's trigsimp (cos(y x^2) with x = t^4 - 2t, y = 1 - t^6 took 47 s),
and analyze's cusps and values (x^(2/3)(6 - x)^(1/3) took 1.1 s)."""
import time

import pytest
import sympy as S

from gradcli.closedtext import _one_root, simplified
from gradcli.tasks.chainrule import chain_rule, trig_simplified
from gradcli.tasks.onevar import _infinite_at

x, t = S.symbols("x t", real=True)


@pytest.mark.parametrize("expr", [
    S.cos((1 - t**6) * (t**4 - 2*t)**2) * t, S.sin(t**2) * S.cos(t**2),
    S.sin(t**2)**2 + S.cos(t**2)**2 + t, S.sin(t) * S.cos(t) + S.sin(t**3 + 1),
])
def test_trig_simplified_is_equal_and_no_longer(expr):
    out = trig_simplified(expr)
    for p in (S.Rational(-7, 5), S.Rational(1, 3), S.Rational(9, 4)):
        assert abs((out - expr).subs(t, p).evalf(40)) < 1e-30
    assert S.count_ops(out) <= S.count_ops(expr)


def test_the_pythagorean_identity_still_applies_to_a_polynomial_argument():
    assert trig_simplified(S.sin(t**2 + 1)**2 + S.cos(t**2 + 1)**2) == 1


@pytest.mark.parametrize("d,c,infinite", [
    (S.diff(x**S.Rational(2, 3), x), 0, True),
    (S.diff(x**S.Rational(4, 3), x), 0, False),          # f' -> 0: the limit decides
    (S.diff(x**S.Rational(2, 3) * (6 - x)**S.Rational(1, 3), x), 6, True),
    (S.diff((6 - x)**S.Rational(1, 3), x), 6, True),
    (S.sign(x) / x, 0, False),                            # not algebra it can prove
    (S.sin(x) / x, 0, False),                             # 0/0: the limit decides
])
def test_infinite_at_proves_only_what_it_can(d, c, infinite):
    assert _infinite_at(d, x, c) is infinite


@pytest.mark.slow
@pytest.mark.parametrize("f,c", [(x**S.Rational(2, 3), 0), ((6 - x)**S.Rational(1, 3), 6),
                                 (x**S.Rational(2, 3) * (6 - x)**S.Rational(1, 3), 0),
                                 (x**S.Rational(1, 3) * (x - 2)**2, 0),
                                 (x**S.Rational(4, 3) * (x + 1), 0)])
def test_infinite_at_agrees_with_sympys_limit(f, c):
    d = S.diff(f, x)
    limits = [S.limit(d, x, c, side) for side in "+-"]
    assert _infinite_at(d, x, c) is any(v.is_infinite for v in limits)


@pytest.mark.parametrize("v,one", [
    (2 * 2**S.Rational(2, 3), True), (S.Rational(-3, 4), True), (3 / S.sqrt(2), True),
    (S.sqrt(2) + 1, False), (S.sqrt(2) * S.sqrt(3) * S.pi, False), (S.log(2), False),
])
def test_one_root_is_a_rational_times_one_root(v, one):
    assert _one_root(v) is one


@pytest.mark.slow
@pytest.mark.parametrize("c", [1, 2, -3, S.Rational(1, 2), S.Rational(-5, 3)])
@pytest.mark.parametrize("p", [2, 3, 4, 6, 8, 12, 27, 50])
def test_the_form_of_one_root_is_simplifys(c, p):
    for q in (S.Rational(1, 2), S.Rational(2, 3), S.Rational(-1, 3), S.Rational(3, 4)):
        v = c * S.Integer(p)**q
        slow = S.radsimp(S.simplify(v))
        assert simplified(v) == (v if S.count_ops(slow) > S.count_ops(v) else slow)


@pytest.mark.slow
def test_the_chain_rule_of_pauls_problem_1_takes_well_under_two_seconds():
    start = time.process_time()
    r = chain_rule("cos(y x^2)", "x = t^4 - 2t, y = 1 - t^6")
    assert time.process_time() - start < 2
    truth = S.diff(S.cos((1 - t**6) * (t**4 - 2*t)**2), t)
    assert S.simplify(r.derivatives["t"].subs(S.Symbol("t", real=True), t) - truth) == 0


@pytest.mark.slow
def test_analyze_of_a_cusp_and_a_vertical_tangent_takes_well_under_a_second():
    from gradcli.tasks.analyze import analyze
    analyze("x^2", None)  # SymPy's first use, imported and warmed
    start = time.process_time()
    a = analyze("x^(2/3)(6 - x)^(1/3)", None)
    assert time.process_time() - start < 1
    assert a.study.critical == [0, 4, 6] and sorted(a.study.undefined) == [0, 6]
    assert [c for c, _ in a.relative_max] == [4] and [v for _, v in a.relative_max] \
        == [2 * 2**S.Rational(2, 3)]
