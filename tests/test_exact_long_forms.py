"""Exact forms of powers with transcendental exponents and of long numbers.

A logarithm of a power prints as a book writes it (π ln(π/4), not ln((π/4)^π)
or ln(π^π/2^(2π))); powers of 2 and 4 meet before simplify and powers with the
same transcendental exponent are joined (2√5π^π/4^π, not
2√5π^π(4^π + 4·2^(2π))/(5·2^(4π)) nor 2^(1 - 2π)√5π^π); a long number gets its normal form over its
transcendental parts instead of simplify and radsimp, which took seconds. Every
form printed reads back as the same number (the read-back of
test_exact_roundtrip.py judges the commands).
"""
import time

import pytest
import sympy as sp
from click.testing import CliRunner

from gradcli.cli import main
from gradcli import closedtext
from gradcli.closedtext import closed_text

PI = sp.pi


def cli(*args):
    return CliRunner().invoke(main, list(args))


def reads_back(text, value):
    from test_exact_roundtrip import read_back
    got = read_back(text, ())
    return abs(sp.N(got - value, 40)) <= sp.Float("1e-30") * max(1, abs(sp.N(value, 40)))


@pytest.mark.parametrize("value,text", [
    (sp.log((PI / 4) ** PI), "π*ln(π/4)"),
    (sp.log(PI ** PI / 2 ** (2 * PI)), "π*ln(π/4)"),
    (sp.log(PI ** 2 / 4), "2 ln(π/2)"),
    (3 * sp.log((PI / 4) ** PI) + 1, "3π*ln(π/4) + 1"),
    (sp.log(sp.sqrt(2)), "ln(2)/2"),          # unchanged: a split that leaves one log
    (sp.log(PI / 6), "ln(π/6)"),              # unchanged: nothing to take out
])
def test_a_logarithm_of_a_power_prints_as_a_book_does(value, text):
    assert closed_text(value) == text
    assert reads_back(text, value)


def _long_coefficient():
    """A Taylor coefficient as the engine builds it: over 60 operations of nested fractions
    in π, ln(10), ln(23π/6) and e^(23π/6)."""
    L, T = sp.log(23 * PI / 6), sp.log(10)
    inner = -23 * PI * L**2 / (3 * T) + 8 * L / T + 4 * L**2 / T
    value = (-192 * T / (23 * PI * L**2) + 288 * inner / (529 * PI**2)
             - 48 * T / (23 * PI * L**2) + 288 * T / (529 * PI**2 * L**3)
             + (144 * inner / (529 * PI**2) - 20 * T / (PI * L**3)) / L
             + 4 * T / L) * sp.exp(23 * PI / 6)
    assert sp.count_ops(value) > closedtext._HEAVY
    return value


def test_a_long_number_takes_the_normal_form_route_not_simplify(monkeypatch):
    value = _long_coefficient()

    def refused(*args, **kwargs):
        raise AssertionError("simplify or radsimp on a long number")
    closedtext._simplified.cache_clear()
    monkeypatch.setattr(sp, "simplify", refused)
    monkeypatch.setattr(sp, "radsimp", refused)
    text = closed_text(value)
    monkeypatch.undo()
    assert sp.count_ops(closedtext.simplified(value)) < sp.count_ops(value)
    assert reads_back(text, value)


def test_a_root_of_a_long_sum_takes_the_normal_form_route(monkeypatch):
    r2, r3, r6 = sp.sqrt(2), sp.sqrt(3), sp.sqrt(6)
    square = 2592 * r3 + 4860 + 8959 * r3 * PI**2 + 15606 * PI**2 - 6358 * r6 * PI**2 \
        - 10982 * r2 * PI**2 - 1944 * r6 - 3240 * r2
    value = 18 * (r2 + r6 - 2 - r3) / sp.sqrt(square)
    assert sp.count_ops(value) <= closedtext._HEAVY   # short, but a root of 8 terms

    def refused(*args, **kwargs):
        raise AssertionError("simplify on a root of a long sum")
    closedtext._simplified.cache_clear()
    monkeypatch.setattr(sp, "simplify", refused)
    text = closed_text(value)
    monkeypatch.undo()
    assert reads_back(text, value)


# ---------------------------------------------------------------- through the commands

DIRECTIONAL = [
    # (function, point, direction, row, its text) ; before: f ln((π/4)^π),
    # D_u f √2(ln(π^π/2^(2π)) + 4)/2
    ("log(x^pi)*y", "x=pi/4,y=1", "1,1", "D_u f", "√2(π*ln(π/4) + 4)/2"),
    # before: steepest ascent ((√(ln(π)^2 + 4 ln(2)^2 + ... ) ln(π/4) + √(...))/(...), ...]
    ("x^x*y", "x=pi/4,y=1", "1,1", "steepest ascent",
     "[(ln(π/4) + 1)/√(2 ln(π/4) + ln(π/4)^2 + 2), 1/√(2 ln(π/4) + ln(π/4)^2 + 2)]"),
    # before: 2√5π^π*(4^π + 4*2^(2π))/(5*2^(4π))
    ("(x)^(pi) y", "x=pi/4,y=2", "1,2", "D_u f", "2√5π^π/4^π"),
    # before: 5*2^(-2π - 1/2)*π^π
    ("x^pi*y", "x=pi/4,y=1", "1,1", "D_u f", "5√2π^π/(2*4^π)"),
    # before: df/dx (π/4)^(π/4)*ln(π/4) + π*(π/4)^(π/4 - 1)/4 ... D_u 2^(-π/2 - 1/2)*...
    ("x^x*y", "x=pi/4,y=2", "1,2", "df/dx", "2π^(π/4)*(ln(π/4) + 1)/4^(π/4)"),
]


@pytest.mark.slow
@pytest.mark.parametrize("text,at,direction,row,shown", DIRECTIONAL,
                         ids=[c[0] for c in DIRECTIONAL])
def test_directional_derivatives_print_book_forms_that_read_back(text, at, direction, row,
                                                                  shown):
    from test_exact_roundtrip import judge
    result = cli("eval", text, "--at", at, "--direction", direction, "--exact", "-o", "plain")
    assert result.exit_code == 0, result.output
    rows = dict(line.split("\t", 1) for line in result.stdout.splitlines() if "\t" in line)
    assert rows[row] == shown, rows
    checked, problems = judge(("directional", text.replace("log", "ln"), at, direction), {})
    assert checked and not problems, problems


SLOW_BEFORE = [
    # 2.0 s and about 5 s on an idle machine before (simplify and radsimp in the printer)
    ["taylor", "(exp(2x))/(log10(2x))", "--at", "x=23pi/12", "--order", "4", "--exact"],
    ["eval", "(3x)^3 tan(y/2)", "--at", "x=17pi/12,y=pi/12", "--direction", "0,1", "--exact"],
]


@pytest.mark.slow
@pytest.mark.parametrize("args", SLOW_BEFORE, ids=[a[0] for a in SLOW_BEFORE])
def test_long_exact_forms_print_in_well_under_three_seconds(args):
    cli(*args)  # SymPy and the engine's closed arithmetic imported once
    closedtext._simplified.cache_clear()
    start = time.process_time()
    result = cli(*args, "-o", "plain")
    spent = time.process_time() - start
    assert result.exit_code == 0, result.output
    assert spent < 3, spent
