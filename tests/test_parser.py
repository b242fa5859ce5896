"""The language (docs/language.md): readings, tokens, programs, and every bad input's message and hint."""
import pytest

from gradcli import api
from gradcli.errors import ParseError, UnknownName
from gradcli.language.parser import parse
from gradcli.language.printer import read_as, to_text


def value(text, **at):
    return api.evaluate(text, at).value


@pytest.mark.parametrize("text,reading,number", [
    ("-x**2", "-(x**2)", -9),
    ("2**3**2", "2**(3**2)", 512),
    ("2**-1", "2**(-1)", 0.5),
    ("2^-1", "2**(-1)", 0.5),
    ("1/2x", "(1/2)*x", 1.5),
    ("2x^2", "2*(x**2)", 18),
    ("2^2 x", "(2**2)*x", 12),
    ("6/2(1+x)", "(6/2)*(1 + x)", 12),
    ("2 x", "2*x", 6),
    ("3(x+1)", "3*(x + 1)", 12),
    ("(x+1)(x-1)", "(x + 1)*(x - 1)", 8),
    ("x/y/z", "(x/y)/z", 0.375),
    ("x - (y - z)", "x - (y - z)", 5),
    ("-2**2", "-(2**2)", -4),
    ("+x", "+x", 3),
])
def test_precedence_examples(text, reading, number):
    assert read_as(parse(text)) == reading
    assert value(text, x=3, y=2, z=4) == pytest.approx(number)


def test_names_are_read_whole():
    assert read_as(parse("3x2")) == "3*x2"
    assert read_as(parse("2ex")) == "2*e*x"
    assert read_as(parse("2ex", names={"ex"})) == "2*ex"
    assert read_as(parse("2pi")) == "2*pi"
    assert value("2pi") == pytest.approx(6.283185307179586)
    assert value("3x2", x2=5) == 15
    assert value("2ex", ex=4) == 8


@pytest.mark.parametrize("text,warned", [("1/2x", True), ("6/2(1+x)", True), ("1/(2x)", False),
                                         ("2x/3", False)])
def test_division_then_implicit_multiplication_warns(text, warned):
    warnings = parse(text).warnings
    assert bool(warnings) is warned
    if warned:
        assert "is read as (" in warnings[0]
        assert "juxtaposition binds like '*'" in warnings[0]


@pytest.mark.parametrize("text,number", [("3.", 3), (".5", 0.5), ("1e-3", 0.001),
                                         ("2.5E+4", 25000), ("3.14", 3.14), ("1E3", 1000)])
def test_number_tokens(text, number):
    assert value(text) == number


def test_unicode_names_and_case():
    r = api.evaluate("θ*σ + X - x", {"θ": 2, "σ": 3, "X": 1, "x": 1})
    assert r.value == 6 and r.gradient == {"θ": 3, "σ": 2, "X": 1, "x": -1}


def test_constants():
    assert value("pi") == pytest.approx(3.141592653589793)
    assert value("e") == pytest.approx(2.718281828459045)


def test_programs_comments_and_crlf():
    text = "z = w*x + b        # pre-activation\r\ny = sigmoid(z)\r\n\r\nloss = (y - t)**2\r\n"
    r = api.evaluate(text, {"w": 0.5, "x": 2, "b": 0, "t": 1}, intermediates=True)
    assert list(r.gradient) == ["w", "x", "b", "t", "z", "y"]
    assert r.result_name == "loss"
    assert read_as(parse(text)) == "z = w*x + b; y = sigmoid(z); loss = (y - t)**2"
    assert value("a = x*2; a + 1", x=3) == 7
    assert value("# only a comment\nx", x=4) == 4


def test_program_names_are_shared_nodes():
    r = api.evaluate("a = x*x\nb = a + a\nb", x=3)
    assert r.value == 18 and r.gradient["x"] == 12


def err(text):
    with pytest.raises((ParseError, UnknownName)) as info:
        parse(text)
    e = info.value
    assert e.exit_code == 2 and e.source == text and e.span is not None
    return e


@pytest.mark.parametrize("text,message,hint", [
    ("(x+1", "missing ')': the '(' here is never closed", "add ')' at the end"),
    ("[1, 2", "missing ']': the '[' here is never closed", "add ']' at the end"),
    ("x+1)", "unmatched ')': there is no '(' for it", "remove it, or add '(' where the group begins"),
    ("x+", "the input ends after '+': expected a number, a name or '(' after it",
     "complete the expression after '+' or remove it"),
    ("2**", "the input ends after '**'", "complete the expression after '**' or remove it"),
    ("*x", "unexpected '*': expected a number, a name or '('", "put an operand before '*', or remove it"),
    ("x +* y", "unexpected '*' after '+'", "put an operand between '+' and '*'"),
    ("1 2", "'2' cannot follow '1' directly", "write 1*2 to multiply, or add the missing operator"),
    ("loss(y+1)", "'loss' is not a function", "to multiply, write loss*(y+1)"),
    ("sinn(x)", "unknown function 'sinn'", "did you mean sin?"),
    ("sin(x, y)", "sin takes 1 argument, but 2 were given", "see `gradcli functions` for sin"),
    ("atan2(x)", "atan2 takes 2 arguments, but 1 was given", "see `gradcli functions` for atan2"),
    ("a = 1; a = 2; a", "'a' is defined twice", "use a new name such as a2"),
    ("a = a + 1", "'a' is used in its own definition", "define each name on an earlier line"),
    ("a = b; b = 1; a", "'b' is used before it is defined", "define each name on an earlier line"),
    ("pi = 3", "'pi' is a constant and cannot be assigned", "choose another name"),
    ("sin = 2", "'sin' is a function and cannot be assigned", "choose another name"),
    ("x == 1", "'==' is not an operator here", "a statement is name = expression"),
    # (the minus sign, x and ÷, and Unicode spaces are read: see test_harden.py)
    ("x \u2013 1", "an en dash (U+2013)", "type - for minus"),
    ("\u201cx\u201d", "a curly quote (\u201c)", "quotes are not part of expressions"),
    ("x\x00", "an invisible or control character (U+0000)", "remove it"),
    ("x $ 1", "a dollar sign, as around LaTeX math ($)", "remove it"),
    ("x @@ 1", "unexpected '@' after '@'", "put an operand"),
    ("", "the expression is empty", "try for example"),
    ("   \n  ", "the expression is empty", "try for example"),
])
def test_bad_input_message_and_hint(text, message, hint):
    e = err(text)
    assert message in e.message
    assert hint in e.hint


def test_glued_function_name_suggests_a_call():
    with pytest.raises(UnknownName) as info:
        api.evaluate("sinx", {})
    assert info.value.message == "no value for 'sinx'"
    assert info.value.hint.startswith("did you mean sin(x)?")


def test_error_spans_point_at_the_problem():
    e = err("1 + (2 * x")
    assert e.span == (4, 5)
    e = err("a = 1\nb = a\na = 3\nb")
    assert e.span == (12, 13)


def test_huge_number_literal_is_an_error():
    e = err("1e999")
    assert "too large for a double" in e.message


def test_parse_is_thread_safe():
    import sys
    import threading
    texts = [f"{i}/2x + {i}*y" for i in range(60)] + [f"({i}x" for i in range(20)]

    def outcome(text):
        try:
            program = parse(text)
            return to_text(program.result), tuple(program.warnings)
        except ParseError as exc:
            return exc.message, exc.span

    expected = {t: outcome(t) for t in texts}
    got, interval = {}, sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, so that shared state would show
    try:
        threads = [threading.Thread(target=lambda k=k: got.update(
            {t: outcome(t) for t in texts[k::4] * 10})) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert got == expected
