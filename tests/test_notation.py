"""Math as it is printed (docs/language.md): every example of the page, read right or refused.

Each reading is checked twice: `read_as` (fully parenthesised, in the plain
language) and the value at a point, against the same formula written with
explicit `*` and parentheses. A property test writes random trees in printed
notation (juxtaposition, bare function arguments, ^, superscripts, |x|, √) and
parses them back to the same tree.
"""
import json
import math

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from gradcli import api
from gradcli.cli import main
from gradcli.errors import GradcliError
from gradcli.language.expr import Apply, Const, Name, Num
from gradcli.language.parser import parse, parse_expr
from gradcli.language.printer import read_as

AT = {"x2": 1.7, "σ": 0.2, "x": 0.7, "y": 1.3, "z": 0.4, "t": 0.9, "w": 0.6, "a": 1.1, "b": 2.5, "c": 0.3}


def value(text, names=()):
    program = parse(text, names)
    free = api.inputs_of(program)
    return api.evaluate(text, {k: AT[k] for k in free}, program=program).value


# (as printed, how it is read, warned?)
READINGS = [
    # juxtaposition multiplies any two factors, at the level of *
    ("2x", "2*x", False),
    ("2 x", "2*x", False),
    ("x y", "x*y", False),
    ("x cos(x)", "x*cos(x)", False),
    ("sin(x)cos(x)", "sin(x)*cos(x)", False),
    ("-7csc(7w)cot(7w)", "-7*csc(7*w)*cot(7*w)", False),
    ("(x+1)y", "(x + 1)*y", False),
    ("(x+1)(x-1)", "(x + 1)*(x - 1)", False),
    ("e^z y^4", "exp(z)*(y**4)", False),
    ("2(x+1)", "2*(x + 1)", False),
    ("1/2x", "(1/2)*x", True),
    ("2x^2", "2*(x**2)", False),
    ("x^2y", "(x**2)*y", False),
    ("3^w ln(3)", "(3**w)*ln(3)", False),
    ("2^2 x", "(2**2)*x", False),
    ("6/2(1+x)", "(6/2)*(1 + x)", True),
    # a variable followed by ( multiplies
    ("x(y+2)", "x*(y + 2)", True),
    # functions without parentheses
    ("sin x", "sin(x)", False),
    ("ln x", "ln(x)", False),
    ("sin 3x", "sin(3*x)", False),
    ("sin x^2", "sin(x**2)", False),
    ("sin xy", "sin(x*y)", True),
    ("tan t^2z", "tan((t**2)*z)", False),
    ("sin x cos x", "sin(x)*cos(x)", False),
    ("x sin x", "x*sin(x)", False),
    ("cos x/(2√sin x)", "cos(x)/(2*sqrt(sin(x)))", False),
    ("ln x + 1", "ln(x) + 1", False),
    ("sin cos x", "sin(cos(x))", False),
    ("sin -x", "sin(-x)", False),
    ("cos (x - 3)", "cos(x - 3)", False),
    # powers of functions, inverse notation
    ("sin^2 x", "sin(x)**2", False),
    ("sin^2(x)", "sin(x)**2", False),
    ("sin**2(x)", "sin(x)**2", False),
    ("sin²x", "sin(x)**2", False),
    ("ln^2(x)", "ln(x)**2", False),
    ("sin^-1 x", "asin(x)", True),
    ("sin^(-1)(x)", "asin(x)", True),
    ("sin⁻¹x", "asin(x)", True),
    ("tan^-1(3t - 1)", "atan(3*t - 1)", True),
    ("sinh^-1 x", "asinh(x)", True),
    # glued letters
    ("xy", "x*y", True),
    ("3xy^2", "3*x*(y**2)", True),
    ("2xe^x", "2*x*exp(x)", True),
    ("2tz", "2*t*z", True),
    ("2ex", "2*e*x", True),
    ("3x2", "3*x2", False),
    ("x^2 - 3xy + y^2", "x**2 - 3*x*y + y**2", True),
    # printed symbols
    ("√x", "sqrt(x)", False),
    ("√(x+1)", "sqrt(x + 1)", False),
    ("√sin x", "sqrt(sin(x))", False),
    ("∛x", "cbrt(x)", False),
    ("x²", "x**2", False),
    ("x⁻¹", "x**(-1)", False),
    ("e⁻²", "exp(-2)", False),
    ("|x|", "abs(x)", False),
    ("||x| - 1|", "abs(abs(x) - 1)", False),
    ("2|x - 1|", "2*abs(x - 1)", False),
    ("2·x", "2*x", False),
    ("2⋅x", "2*x", False),
    ("2∙x", "2*x", False),
    ("2×x", "2*x", False),
    ("2∗x", "2*x", False),
    ("6÷2", "6/2", False),
    ("x − 1", "x - 1", False),
    ("π x", "pi*x", False),
    ("σ(x)", "sigmoid(x)", False),
    ("σ x", "σ*x", False),
    # grouping
    ("{x+1}^2", "(x + 1)**2", False),
    ("[ln(t)]^2", "ln(t)**2", False),
    ("[x,]", "[x,]", False),
    ("[[1, 2]]", "[[1, 2]]", False),
    ("[[1], [2]]", "[[1,], [2,]]", False),
    ("log[sin x + 2]", "ln(sin(x) + 2)", True),
    # logarithms
    ("log x", "ln(x)", True),
    ("log_2(x)", "log(x, 2)", False),
    ("log_2 x", "log(x, 2)", False),
    ("log_{10}(x)", "log(x, 10)", False),
    ("log_b x", "log(x, b)", False),
    ("log_3(t)", "log(t, 3)", False),
    # more printed forms
    ("xln x", "x*ln(x)", True),
    ("tan^{-1}(x)", "atan(x)", True),
    ("sin^{2}(x)", "sin(x)**2", False),
    ("e^{-x^2}", "exp(-(x**2))", False),
    ("ln|sec x + tan x|", "ln(abs(sec(x) + tan(x)))", False),
    ("te^{-t}", "t*exp(-t)", True),
    ("-csc^2 x", "-(csc(x)**2)", False),
    ("3 sin 2x", "3*sin(2*x)", False),
    ("x²e^x", "(x**2)*exp(x)", False),
    ("2^x ln 2", "(2**x)*ln(2)", False),
    # unchanged
    ("-x**2", "-(x**2)", False),
    ("2**3**2", "2**(3**2)", False),
    ("2**-1", "2**(-1)", False),
]


@pytest.mark.parametrize("text,reading,warned", READINGS)
def test_every_reading_of_the_spec(text, reading, warned):
    program = parse(text)
    assert read_as(program) == reading
    assert bool(program.warnings) == warned, program.warnings
    # read_as reads back to the same tree
    assert parse(reading).result == program.result


@pytest.mark.parametrize("text,reading,_", [r for r in READINGS if "[" not in r[0]])
def test_every_reading_has_the_value_of_its_explicit_form(text, reading, _):
    got, want = value(text), value(reading)
    assert got == pytest.approx(want, rel=1e-12, abs=1e-15)


def test_names_of_the_input_are_read_whole():
    assert read_as(parse("3xy^2", names={"xy"})) == "3*(xy**2)"
    assert read_as(parse("xy = 2; 3xy")) == "xy = 2; 3*xy"
    assert read_as(parse("loss(x+1)", names={"loss"})) == "loss*(x + 1)"
    # Greek letters' names, longer names and names with digits or _ are whole
    for name in ("mu", "xi", "eta", "rho", "tau", "phi", "chi", "psi", "loss", "bias", "cost",
                 "x2", "w_1"):
        assert read_as(parse(name)) == name


def test_a_glued_split_is_warned_once():
    program = parse("xy + xy^2")
    assert len(program.warnings) == 1 and "'xy' is read as x*y" in program.warnings[0]


def test_log_prints_as_ln_in_the_input_it_reads():
    assert parse("ln(x)").result == parse("log(x)").result


# (as printed, words of the message, where the caret starts)
REFUSED = [
    ("2 3", "'3' cannot follow '2' directly", 0),
    ("sine(x)", "unknown function 'sine'", 0),
    ("SQRT(x)", "'SQRT'", 0),
    ("loss(x)", "'loss' is not a function", 0),
    ("2 sin", "'sin' has nothing to apply to", 2),
    ("(sin)", "'sin' has nothing to apply to", 1),
    ("atan2 x", "atan2 takes 2 arguments, so it needs parentheses", 0),
    ("sin^x", "a power on a function name must be a positive whole number", 0),
    ("sin^x(2)", "a power on a function name must be a positive whole number", 0),
    ("exp^-1 x", "exp has no inverse written this way", 0),
    ("lnx", "'lnx' is not a name gradcli reads", 0),
    ("|a|b|c|", "could close the absolute value before it or open a new one", 2),
    ("|x|y|x|", "could close the absolute value before it or open a new one", 2),
    ("x[0]", "looks like indexing", 0),
    ("(x+1)[2]", "looks like indexing", 4),
    ("for x in y", "a word of Python", 0),
]


@pytest.mark.parametrize("text,words,col", REFUSED)
def test_refused_with_a_caret_and_the_fix(text, words, col):
    with pytest.raises(GradcliError) as info:
        parse(text)
    assert words in info.value.message
    assert info.value.span[0] == col
    assert info.value.hint


@pytest.mark.parametrize("text,words", [(t, w) for t, w, _ in REFUSED])
def test_refused_through_the_cli_with_exit_2(text, words):
    result = CliRunner().invoke(main, ["eval", text, "--at", "x=1,y=2"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "^" in result.stderr and "hint:" in result.stderr


def test_suggestions():
    def hint(text):
        with pytest.raises(GradcliError) as info:
            parse(text)
        return info.value.hint
    assert "sin" in hint("sine(x)")
    assert "sqrt" in hint("SQRT(x)")
    assert "ln(x)" in hint("lnx")
    result = CliRunner().invoke(main, ["eval", "sinx"])
    assert result.exit_code == 2 and "sin(x)" in result.stderr


def test_cli_shows_read_as_and_warns_once():
    result = CliRunner().invoke(main, ["eval", "3xy^2 + xy", "--at", "x=2,y=3", "-o", "json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["read_as"] == "3*x*(y**2) + x*y"
    assert record["value"] == 60
    assert record["gradient"] == {"x": 30, "y": 38}
    assert len(record["warnings"]) == 1
    assert result.stderr.count("warning:") == 1


def test_a_variable_given_with_at_is_whole_through_the_cli():
    result = CliRunner().invoke(main, ["eval", "3xy^2", "--at", "xy=2", "-o", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["gradient"] == {"xy": 12}


def test_check_accepts_the_printed_answer_as_typed():
    result = CliRunner().invoke(main, ["check", "x^2 - 3xy + y^2", "--derivative", "2x - 3y",
                                       "--wrt", "x"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["check", "tan^-1(3t - 1)", "--derivative",
                                       "3/(1 + (3t - 1)^2)", "--wrt", "t"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["check", "ln(t)/(t - 1)", "--derivative",
                                       "(1 - 1/t - ln(t))/(t - 1)^2", "--wrt", "t"])
    assert result.exit_code == 0, result.output


def test_no_internal_error_for_the_bracketed_answer():
    result = CliRunner().invoke(main, ["check", "(5t - 1)/ln(t)", "--derivative",
                                       "(5ln(t) - 1/t - 5)/[ln(t)]^2", "--wrt", "t"])
    assert result.exit_code in (0, 1)
    assert "internal error" not in result.output


# ------------------------------------------------------- random trees in print

_VARS = ["x", "y", "t"]
_FUNCS = ["sin", "cos", "tan", "exp", "log", "sqrt", "sigmoid", "tanh", "abs"]


@st.composite
def printed(draw, depth=3):
    """(text in printed notation, the tree it must be read as)."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        kind = draw(st.integers(0, 2))
        if kind == 0:
            v = draw(st.sampled_from(_VARS))
            return v, Name(v)
        if kind == 1:
            n = draw(st.integers(1, 9))
            return str(n), Num(n)
        return "pi", Const("pi")
    form = draw(st.integers(0, 9))
    a_text, a = draw(printed(depth - 1))
    if form == 0:  # a coefficient glued to a parenthesised factor: 3(…)
        n = draw(st.integers(2, 9))
        return f"{n}({a_text})", Apply("mul", (Num(n), a))
    if form == 1:  # juxtaposed groups (…)(…)
        b_text, b = draw(printed(depth - 1))
        return f"({a_text})({b_text})", Apply("mul", (a, b))
    if form == 2:  # a call, or a bare function of a single name
        f = draw(st.sampled_from(_FUNCS))
        if isinstance(a, Name) and draw(st.booleans()):
            return f"{f} {a_text}", Apply(f, (a,))
        return f"{f}({a_text})", Apply(f, (a,))
    if form == 3:  # a power in ^ or a superscript
        n = draw(st.integers(2, 3))
        sup = "²" if n == 2 else "³"
        text = f"({a_text}){sup}" if draw(st.booleans()) else f"({a_text})^{n}"
        return text, Apply("pow", (a, Num(n)))
    if form == 4:  # a power of a function
        f = draw(st.sampled_from(["sin", "cos", "tan", "ln"]))
        op = "log" if f == "ln" else f
        return f"{f}^2({a_text})", Apply("pow", (Apply(op, (a,)), Num(2)))
    if form == 5:  # absolute value and roots
        if draw(st.booleans()):
            return f"|{a_text}|", Apply("abs", (a,))
        return f"√({a_text})", Apply("sqrt", (a,))
    if form == 6:  # the inverse notation
        f = draw(st.sampled_from(["sin", "tan", "cos"]))
        return f"{f}^-1({a_text})", Apply("a" + f, (a,))
    b_text, b = draw(printed(depth - 1))
    op, sym = draw(st.sampled_from([("add", " + "), ("sub", " - "), ("mul", "*"),
                                    ("div", "/")]))
    return f"({a_text}){sym}({b_text})", Apply(op, (a, b))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(printed())
def test_random_trees_in_print_read_back(pair):
    text, tree = pair
    program = parse(text)
    assert program.result == tree, (text, read_as(program))
    # and read_as, in the plain language, reads back to the same tree
    assert parse_expr(read_as(program)) == tree


@pytest.mark.parametrize("text,reading,_", READINGS)
def test_the_terminals_reading_reads_back_the_same(text, reading, _):
    from gradcli.language.printer import screen_reading
    shown = screen_reading(reading)
    assert parse(shown).result == parse(text).result, shown


def test_the_terminal_shows_a_power_as_a_book_prints_it_without_brackets():
    from gradcli.language.printer import screen_reading
    assert screen_reading("(x**2)*sin(x)") == "x²*sin(x)"
    assert screen_reading("3*x*(y**2)") == "3*x*y²"
    assert screen_reading("(x**(-2))*y") == "x⁻²*y"
    # a bracket that groups more than a power of one name stays
    assert screen_reading("((x + 1)**2)*y") == "((x + 1)^2)*y"
    assert screen_reading("(x**2)**3") == "(x^2)^3"
