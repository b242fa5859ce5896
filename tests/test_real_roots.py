"""x^(p/q) with q odd is the real root for a negative base (SPEC §3.11): value,
derivative, `diff`, the SymPy reference and the exact paths agree."""
import pytest
import sympy as sp
from click.testing import CliRunner

from gradcli.cli import main
from gradcli.language.expr import odd_root_exponent
from gradcli.language.parser import parse
from gradcli.symbolic.derivative import derivative
from sympy_bridge import number, to_sympy


def run(*args):
    return CliRunner().invoke(main, list(args))


def _expr(text):
    return parse(text).statements[0].expr


@pytest.mark.parametrize("text, expected", [
    ("2/3", (2, 3)), ("-1/3", (-1, 3)), ("1/3 - 1", (-2, 3)), ("(4/6)", (2, 3)),
    ("1/5", (1, 5)), ("1/2", None), ("2", None), ("0.2", None), ("x/3", None),
    ("6/3", None)])
def test_odd_root_exponent_reads_written_fractions(text, expected):
    y = odd_root_exponent(_expr(text))
    assert (None if y is None else (y.numerator, y.denominator)) == expected


def test_value_and_derivative_at_minus_eight():
    out = run("eval", "x^(2/3)", "--at", "x=-8", "--format", "json")
    assert out.exit_code == 0, out.output
    import json
    data = json.loads(out.output)
    assert data["value"] == 4.0  # the root first: pow(8, 0.666...) would give 3.9999999999999996
    assert data["gradient"]["x"] == pytest.approx(-1 / 3, rel=1e-15)


def test_exact_value_and_derivative():
    out = run("eval", "x^(2/3)", "--at", "x=-8", "--exact")
    assert out.exit_code == 0, out.output
    lines = dict(line.split("\t")[:2] for line in out.output.splitlines())
    assert (lines["f"], lines["df/dx"]) == ("4", "-1/3")


@pytest.mark.parametrize("text, at, value, slope", [
    ("x^(1/3)", -8, -2, 1 / 12),
    ("(x-2)^{2/3}", -6, 4, -1 / 3),
    ("x^(5/3)", -1, -1, 5 / 3),
    ("x^(-1/3)", -8, -0.5, -1 / 48),
])
def test_more_real_roots(text, at, value, slope):
    out = run("eval", text, "--at", f"x={at}")
    assert out.exit_code == 0, out.output
    lines = dict(line.split("\t")[:2] for line in out.output.splitlines())
    assert float(lines["f"]) == pytest.approx(value, rel=1e-14)
    assert float(lines["df/dx"]) == pytest.approx(slope, rel=1e-13)


def test_second_derivative_matches_sympy():
    # d2/dx2 x^(2/3) = -2/(9 x^(4/3)); at -8: -2/(9*16) = -1/72
    out = run("diff", "x^(2/3)", "--order", "2", "--at", "x=-8")
    assert out.exit_code == 0, out.output
    assert float(out.output.split("\t")[-1]) == pytest.approx(-1 / 72, rel=1e-13)


@pytest.mark.parametrize("text", ["x^(2/3)", "x^(1/3)*(x+4)", "x^(5/3) - 5x^(2/3)",
                                  "(x^2 - 4)^(1/3)", "x^(-2/5)"])
@pytest.mark.parametrize("at", [-8, -2.5, -0.3, 0.7, 3])
def test_symbolic_derivative_agrees_with_sympy(text, at):
    e = _expr(text)
    symbols = {}
    point = sp.Rational(repr(at))
    reference = sp.diff(to_sympy(e, symbols), symbols["x"]).subs(symbols["x"], point)
    ours = to_sympy(derivative(e, "x"), symbols).subs(symbols["x"], point)
    assert number(ours) == pytest.approx(number(reference), rel=1e-12)
    out = run("diff", text, "--at", f"x={at}")
    assert out.exit_code == 0, out.output
    assert float(out.output.split("\t")[-1]) == pytest.approx(number(reference), rel=1e-12)


def test_the_sympy_reference_is_the_real_root():
    symbols = {}
    f = to_sympy(_expr("x^(2/3)"), symbols)
    assert number(f.subs(symbols["x"], -8)) == pytest.approx(4)
    assert number(sp.diff(f, symbols["x"]).subs(symbols["x"], -8)) == pytest.approx(-1 / 3)


@pytest.mark.parametrize("text", ["x^(1/2)", "x^0.2", "x^(2/4)"])
def test_other_exponents_still_need_a_nonnegative_base(text):
    out = run("eval", text, "--at", "x=-8")
    assert out.exit_code == 3 or out.exit_code == 2, out.output
    assert "negative base" in out.output


@pytest.mark.parametrize("x, expected", [(-2.0, 1.5874010519681996), (0.5, 0.6299605249474366),
                                         (1e10, 4641588.833612779), (-27.0, 9.0)])
def test_the_power_is_correctly_rounded(x, expected):
    # expected: |x|^(2/3) to 40 digits (mpmath), rounded once to a double
    out = run("eval", "x^(2/3)", "--at", f"x={x!r}", "-o", "plain")
    assert float(out.output.split("\t")[1].split()[0]) == expected
