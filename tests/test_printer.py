"""The printer: to_text round-trips through the parser; to_latex prints homework LaTeX."""
import pytest
from conftest import DEEP
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradcli import ops
from gradcli.language.expr import Apply, Const, Name, Num
from gradcli.language.parser import parse_expr
from gradcli import limits
from gradcli.language.printer import quoted, to_latex, to_text

FUNCTIONS = sorted(n for n, op in ops.TABLE.items() if not op.is_operator and op.vjp is None)


def _arity(name):
    op = ops.TABLE[name]
    if isinstance(op.arity, int):
        return op.arity
    return op.arity[0] + 1 if op.arity[1] is None else op.arity[1]


@st.composite
def asts(draw, depth=4):
    """Random ASTs of the shapes the parser builds (a negative number is a literal)."""
    leaves = st.one_of(
        st.sampled_from(["x", "y", "w_1", "θ"]).map(Name),
        st.sampled_from(["pi", "e"]).map(Const),
        st.integers(0, 99).map(Num),
        st.integers(-9, -1).map(Num),
        st.sampled_from([0.5, 2.25, 1e-7, 3e20]).map(Num))
    if depth == 0:
        return draw(leaves)
    kind = draw(st.integers(0, 9))
    if kind <= 2:
        return draw(leaves)
    if kind <= 6:
        op = draw(st.sampled_from(["add", "sub", "mul", "div", "pow"]))
        left, right = draw(asts(depth - 1)), draw(asts(depth - 1))
        if op == "pow" and left == Const("e"):
            return Apply("exp", (right,))  # the parser reads e^u as exp(u)
        return Apply(op, (left, right))
    if kind == 7:
        arg = draw(asts(depth - 1))
        op = draw(st.sampled_from(["neg", "pos"]))
        if isinstance(arg, Num) and op == "neg":
            return Num(-arg.value) if arg.value >= 0 else Apply("pos", (arg,))
        return Apply(op, (arg,))
    name = draw(st.sampled_from(FUNCTIONS))
    return Apply(name, tuple(draw(asts(depth - 1)) for _ in range(_arity(name))))


@settings(max_examples=300, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(asts())
def test_parse_of_printed_text_is_the_same_tree(expr):
    text = to_text(expr)
    assert parse_expr(text) == expr, text


@settings(max_examples=300, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(asts())
def test_textbook_text_reads_back_the_same_tree(expr):
    text = to_text(expr, textbook=True)
    assert "**" not in text and "exp(" not in text
    assert parse_expr(text) == expr, text  # e^u reads back as exp(u)


@settings(max_examples=100, derandomize=True, deadline=None)
@given(asts())
def test_clarified_text_reads_back_the_same(expr):
    assert parse_expr(to_text(expr, clarify=True)) == expr


@settings(max_examples=200, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(asts(), st.integers(0, 200), st.sampled_from(["sin(", "max(1, ", "-(", "(x + "]),
       st.booleans())
def test_quoted_prints_only_the_ends_a_message_keeps(expr, depth, wrapper, clarify):
    text = wrapper * depth + to_text(expr) + ")" * depth
    tree = parse_expr(text)
    assert quoted(tree, clarify) == limits.quote(to_text(tree, clarify))


@pytest.mark.parametrize("text,expected", [
    ("a - (b - c)", "a - (b - c)"),
    ("(a - b) - c", "a - b - c"),
    ("a/(b*c)", "a/(b*c)"),
    ("(a/b)*c", "a/b*c"),
    ("-x**2", "-x**2"),
    ("(-x)**2", "(-x)**2"),
    ("2**3**2", "2**3**2"),
    ("(2**3)**2", "(2**3)**2"),
    ("x*(-3)", "x*(-3)"),
    ("2^-1", "2**(-1)"),
    ("2x", "2*x"),
])
def test_parentheses_only_where_needed(text, expected):
    assert to_text(parse_expr(text)) == expected


def test_deep_expression_prints_without_recursion():
    text = "(" * DEEP + "x" + "+1)" * DEEP
    expr = parse_expr(text)
    printed = to_text(expr)
    assert printed.startswith("x + 1 + 1") and len(printed) == 1 + 4 * DEEP
    assert to_latex(expr).startswith("x + 1")
    assert len(to_latex(parse_expr("sin(" * DEEP + "x" + ")" * DEEP))) > DEEP


@pytest.mark.parametrize("text,latex", [
    ("2*x*(w*x + b)", r"2x \left(wx + b\right)"),
    ("cos(x)/x - sin(x)/x**2",
     r"\frac{\cos\left(x\right)}{x} - \frac{\sin\left(x\right)}{x^{2}}"),
    ("sqrt(1 - x**2)", r"\sqrt{1 - x^{2}}"),
    ("cbrt(x)", r"\sqrt[3]{x}"),
    ("sin(x)**2", r"\sin^{2}\left(x\right)"),
    ("x**(y + 1)", r"x^{y + 1}"),
    ("log(x, 2)", r"\log_{2}\left(x\right)"),
    ("abs(x - 1)", r"\left|x - 1\right|"),
    ("-(a + b)", r"-\left(a + b\right)"),
    ("a - (b - c)", r"a - \left(b - c\right)"),
    ("x1*theta + pi", r"x_{1} \theta + \pi"),
    ("sigmoid(z)", r"\sigma\left(z\right)"),
    ("relu(loss)", r"\operatorname{relu}\left(\mathrm{loss}\right)"),
    ("1e-7*x", r"10^{-7} \cdot x"),
    ("x*(-3)", r"x \cdot \left(-3\right)"),
])
def test_latex(text, latex):
    assert to_latex(parse_expr(text)) == latex


@pytest.mark.parametrize("text,latex", [
    ("2*x*y", r"2xy"),
    ("2*x*sin(x)", r"2x \sin\left(x\right)"),
    ("3*x**2", r"3x^{2}"),
    ("1/(2*sqrt(x))", r"\frac{1}{2\sqrt{x}}"),
    ("x**2*y", r"x^{2}y"),
    ("2*(x + 1)", r"2\left(x + 1\right)"),
    ("pi*x", r"\pi x"),
    ("theta*sin(x)", r"\theta \sin\left(x\right)"),
    ("sin(x)*cos(x)", r"\sin\left(x\right) \cos\left(x\right)"),
    ("w*loss", r"w \mathrm{loss}"),
    ("2*3", r"2 \cdot 3"),
    ("x*2**y", r"x \cdot 2^{y}"),
    ("2*x*3", r"2x \cdot 3"),
    ("-2*x", r"-2x"),
    ("(1/2)*x", r"\frac{1}{2}x"),
    ("2.5*x", r"2.5x"),
])
def test_latex_products_are_written_side_by_side(text, latex):
    assert to_latex(parse_expr(text)) == latex


@pytest.mark.parametrize("text,latex", [
    ("log(x)", r"\ln\left(x\right)"),
    ("log(x)**2", r"\ln^{2}\left(x\right)"),
    ("exp(-x)", r"e^{-x}"),
    ("tanh(x)**2", r"\tanh^{2}\left(x\right)"),
    ("sin(x)**(-1)", r"\left(\sin\left(x\right)\right)^{-1}"),
])
def test_latex_ln_exp_and_powers_of_functions(text, latex):
    assert to_latex(parse_expr(text)) == latex


@pytest.mark.parametrize("text,plain,textbook", [
    ("log(x) + 1", "ln(x) + 1", "ln(x) + 1"),
    ("log(x, 2)", "log(x, 2)", "log(x, 2)"),
    ("x**2", "x**2", "x^2"),
    ("exp(x)", "exp(x)", "e^x"),
    ("exp(-x)", "exp(-x)", "e^(-x)"),
    ("exp(2*x)", "exp(2*x)", "e^(2*x)"),
    ("exp(sin(x))", "exp(sin(x))", "e^sin(x)"),
    ("exp(x)**2", "exp(x)**2", "(e^x)^2"),
    ("2**exp(x)", "2**exp(x)", "2^(e^x)"),
    ("x**y**2", "x**y**2", "x^(y^2)"),
    ("-exp(x)", "-exp(x)", "-e^x"),
])
def test_text_prints_ln_and_textbook_powers(text, plain, textbook):
    from gradcli.api import evaluate
    expr = parse_expr(text)
    assert to_text(expr) == plain
    assert to_text(expr, textbook=True) == textbook
    point = {"x": 0.7, "y": 1.3}
    used = {k: v for k, v in point.items() if k in text}
    assert evaluate(textbook, used).value == pytest.approx(evaluate(text, used).value, rel=1e-12)


def test_latex_uses_the_table_for_every_function():
    for name in FUNCTIONS:
        args = ", ".join("xyz"[i] for i in range(_arity(name)))
        out = to_latex(parse_expr(f"{name}({args})"))
        assert out and "(" not in out.replace(r"\left(", "").replace(r"\right)", "")
