"""Hostile input: size limits, syntax-error quality, output safety, and never running user text."""
from __future__ import annotations

import builtins
import json
import re
import sys

import pytest
from conftest import DEEP
from click.testing import CliRunner

from gradcli import limits
from gradcli.api import evaluate
from gradcli.cli import main
from gradcli.errors import GradcliError, LimitError, ParseError, UsageError, clean
from gradcli.language.parser import parse


def cli(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def error_of(text: str) -> GradcliError:
    with pytest.raises(GradcliError) as info:
        parse(text)
    return info.value


# ---------------------------------------------------------------- limits

def test_limits_are_far_above_the_spec_requirements():
    assert limits.MAX_NESTING > 100_000
    assert limits.MAX_TOKENS >= 2 * 1_000_000 + 1  # 1,000,000 binary operations
    assert limits.MAX_INPUT_CHARS >= limits.MAX_TOKENS


def test_input_size_limit(monkeypatch):
    monkeypatch.setattr(limits, "MAX_INPUT_CHARS", 1000)
    assert parse("+".join(["x"] * 400))  # 799 characters
    result = cli("eval", "+".join(["x"] * 501), "--at", "x=1")
    assert result.exit_code == 2
    assert "the input is 1,001 characters long; the limit is 1,000" in result.stderr
    assert "Traceback" not in result.stderr


def test_input_size_limit_stops_reading_endless_files(monkeypatch, tmp_path):
    monkeypatch.setattr(limits, "MAX_INPUT_CHARS", 1000)
    result = cli("eval", "-f", "/dev/zero")
    assert result.exit_code == 2
    assert "error: /dev/zero is longer than 1,000 bytes" in result.stderr
    result = cli("eval", "-f", "-", input="x+" * 600 + "x")
    assert result.exit_code == 2 and "error: stdin is longer than 1,000 bytes" in result.stderr
    path = tmp_path / "ok.txt"
    path.write_text("x+" * 400 + "x")
    assert cli("eval", "-f", str(path), "--at", "x=1", "-o", "plain").stdout.startswith("f\t401")


def test_token_limit(monkeypatch):
    monkeypatch.setattr(limits, "MAX_TOKENS", 1001)
    assert parse("+".join(["x"] * 501))  # 1001 tokens
    err = error_of("+".join(["x"] * 502))
    assert isinstance(err, LimitError) and err.exit_code == 2
    assert "more than 1,001 numbers, names and operators" in err.message
    assert err.span == (1001, 1002)  # the first token past the limit: a "+"


def test_nesting_far_above_the_recursion_limit_is_read():
    deep = "(" * DEEP + "x" + ")" * DEEP
    assert evaluate(deep, x=3).gradient == {"x": 1.0}


@pytest.mark.slow
def test_the_nesting_limit_is_a_million():
    too_deep = "(" * (limits.MAX_NESTING + 1) + "x" + ")" * (limits.MAX_NESTING + 1)
    err = error_of(too_deep)
    assert isinstance(err, LimitError)
    assert "more than 1,000,000 parentheses or brackets are open at once" in err.message
    assert err.span == (limits.MAX_NESTING, limits.MAX_NESTING + 1)


def test_nesting_limit_counts_brackets_and_reports_through_the_cli(monkeypatch):
    monkeypatch.setattr(limits, "MAX_NESTING", 10)
    assert parse("(" * 10 + "x" + ")" * 10)
    result = cli("eval", "[" * 6 + "(" * 5 + "x" + ")" * 5 + "]" * 6, "--at", "x=1")
    assert result.exit_code == 2
    assert "more than 10 parentheses or brackets" in result.stderr
    assert "hint: name intermediate results" in result.stderr


def test_exact_growth_limit_through_the_cli():
    assert cli("eval", "2**12999", "--exact").exit_code == 0
    result = cli("eval", "2**13000", "--exact")
    assert result.exit_code == 2
    assert "too large for exact arithmetic" in result.stderr


def test_vector_size_limit_through_the_cli(monkeypatch):
    monkeypatch.setattr(limits, "MAX_ELEMENTS", 100)
    ok = cli("eval", "sum(x*[[1],[2]]*[1,2,3])", "--at", "x=1", "-o", "plain")
    assert ok.exit_code == 0 and ok.stdout.startswith("f\t18\n")
    column = "[" + ",".join(f"[{i}]" for i in range(11)) + "]"
    row = "[" + ",".join(str(i) for i in range(10)) + "]"
    for expr in (f"sum({column}*{row}*x)", f"sum({column} @ [{row}] * x)",
                 "sum([" + ",".join(["x"] * 101) + "])"):
        result = cli("eval", expr, "--at", "x=1")
        assert result.exit_code == 2, expr
        assert "elements; the limit is 100" in result.stderr
        assert "Traceback" not in result.stderr


def test_jacobian_limits_through_the_cli(monkeypatch):
    vector = "[x" + ", y" * 999 + "]"  # 1,000 passes of 1,003 steps: within the work bound
    ok = cli("eval", vector, "--at", "x=1,y=2", "--jacobian", "-o", "json")
    assert ok.exit_code == 0
    assert json.loads(ok.stdout)["jacobian"]["y"][1] == 1
    wide = "[x" + ", y" * 20_000 + "]"  # 20,001 passes of 20,004 steps: once a hang
    result = cli("eval", wide, "--at", "x=1,y=2", "--jacobian")
    assert result.exit_code == 2
    assert "error: --jacobian needs 20,001 backward passes of 20,004 steps each; the limit " \
        "is 2,000,000 steps in all" in result.stderr
    monkeypatch.setattr(limits, "MAX_JACOBIAN_OUTPUTS", 10)
    result = cli("eval", "x*[1,2,3,4,5,6,7,8,9,10,11]", "--at", "x=1", "--jacobian")
    assert result.exit_code == 2 and "the result has 11 elements; the limit is 10" in result.stderr
    monkeypatch.setattr(limits, "MAX_JACOBIAN_ENTRIES", 10)
    result = cli("eval", "sum(x)*[1,2,3]", "--at", "x=[1,2,3,4]", "--jacobian")
    assert result.exit_code == 2 and "would hold 12 numbers; the limit is 10" in result.stderr


def test_array_axes_limit():
    ok = cli("eval", "sum(" + "[" * 32 + "x" + "]" * 32 + ")", "--at", "x=1", "-o", "plain")
    assert ok.exit_code == 0 and ok.stdout.startswith("f\t1\n")
    result = cli("eval", "[" * 70 + "x" + "]" * 70, "--at", "x=1")
    assert result.exit_code == 2
    assert "error: brackets nested more than 32 deep: an array has at most 32 axes" \
        in result.stderr


def test_vector_size_limit():
    limits.check_elements(limits.MAX_ELEMENTS)
    with pytest.raises(LimitError, match=r"would have 10,000,001 elements; the limit is "
                                         r"10,000,000"):
        limits.check_elements(limits.MAX_ELEMENTS + 1)


def test_batch_row_limit(monkeypatch, tmp_path):
    monkeypatch.setattr(limits, "MAX_ROW_CHARS", 100)
    path = tmp_path / "points.csv"
    path.write_text("x,y\n1,2\n" + "3," + "4" * 200 + "\n5,6\n")
    result = cli("eval", "x*y", "--points", str(path), "-o", "csv")
    assert result.exit_code == 2
    assert f"--points: {path}: line 3 is longer than 100 characters" in result.stderr
    path.write_text("x,y\n1,2\n" + "3," + "4" * 90 + "\n")
    assert cli("eval", "x*y", "--points", str(path), "-o", "csv").exit_code == 0


def test_long_csv_fields_and_deep_json_rows_are_read_or_refused_cleanly(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text('x\n"' + "1" * 200_000 + '"\n2\n')  # past csv's own field limit
    result = cli("eval", "x**2", "--points", str(path), "-o", "csv")
    assert result.exit_code in (0, 3) and "internal error" not in result.stderr
    assert result.stdout.splitlines()[-1] == "2,4,4"
    path = tmp_path / "p.jsonl"
    path.write_text('{"x": 1}\n' + "[" * 100_000 + "]" * 100_000 + '\n{"x": 3}\n')
    result = cli("eval", "x**2", "--points", str(path), "-o", "csv")
    assert result.exit_code == 2
    assert "row 2: nested too deeply to be a point" in result.stderr
    assert result.stdout.splitlines()[-1] == "3,9,6"


def test_warning_limit(monkeypatch):
    monkeypatch.setattr(limits, "MAX_WARNINGS", 3)
    result = cli("eval", "+".join(f"1/{k}x" for k in range(2, 7)), "--at", "x=1", "-o", "json")
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert len(lines) == 4 and lines[-1] == "warning: 2 more warnings not shown"
    assert json.loads(result.stdout)["warnings"][-1] == "2 more warnings not shown"


def test_quoted_expressions_are_shortened_so_warnings_stay_small():
    # Each tie of a nested max once quoted its whole sub-expression: quadratic output.
    text = "max(1," * 2000 + "x" + ")" * 2000
    result = cli("eval", text, "--at", "x=1", "-o", "plain")
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert len(lines) <= limits.MAX_WARNINGS + 1
    assert lines[-1] == "warning: 1,950 more warnings not shown"
    assert max(len(x) for x in lines) < 4 * limits.MAX_QUOTE + 300
    assert " … " in lines[0]
    assert limits.quote("x" * 10) == "x" * 10
    assert len(limits.quote("x" * 10_000)) == limits.MAX_QUOTE + 3


@pytest.mark.parametrize("command", ["trace", "check", "graph"])
def test_every_command_bounds_its_warnings(command):
    text = "max(1," * 2000 + "x" + ")" * 2000
    extra = ["--value", "1"] if command == "check" else []
    result = cli(command, text, "--at", "x=1", *extra, "-o", "json")
    assert result.exit_code in (0, 1), result.stderr
    lines = [x for x in result.stderr.splitlines() if x.startswith("warning:")]
    assert len(lines) <= limits.MAX_WARNINGS + 1
    assert len(result.stderr) < 100_000


def test_a_domain_error_quotes_a_huge_sub_expression_briefly():
    text = "log(" + "+".join(["x"] * 5000) + " - 5001)"
    result = cli("eval", text, "--at", "x=1")
    assert result.exit_code == 3
    first = result.stderr.splitlines()[0]
    assert first.startswith("error: ln(x + x + x") and " … " in first
    assert len(first) < 3 * limits.MAX_QUOTE


# ---------------------------------------------------------------- syntax errors, one per kind

# (input, words the message must contain, the column the caret starts at)
SYNTAX_ERRORS = [
    ("", "the expression is empty", 0),
    ("# a comment", "there is no expression, only comments", 11),
    ("x +", "the input ends after '+'", 2),
    ("sin(x", "missing ')': the '(' here is never closed", 3),
    ("[1, 2", "missing ']'", 0),
    ("x)", "unmatched ')'", 1),
    ("x]", "unmatched ']'", 1),
    ("(x]", "']' cannot close the '(' opened here; expected ')'", 0),
    ("()", "empty parentheses", 0),
    ("2 3", "'3' cannot follow '2' directly", 0),
    ("x[0]", "'x[' looks like indexing", 0),
    ("x + * y", "unexpected '*' after '+'", 4),
    ("x, y", "',' separates the arguments of a call", 1),
    ("2*(3, 4)", "',' inside parentheses that are not a call", 4),
    ("max(1,,2)", "an item is missing before this ','", 6),
    ("1..2", "'1..2' is not a number", 0),
    ("x + y = 3", "'=' can only follow a name at the start of a statement", 6),
    ("x == y", "'==' is not an operator here", 3),
    ("2 f(x) = x**2", "a statement defines a name or a function, and starts with it", 7),
    ("x +; y", "the statement stops at ';'", 3),
    ("x.y", "unexpected character '.'", 1),
    ("sinn(x)", "unknown function 'sinn'", 0),
    ("loss(y + 1)", "'loss' is not a function", 0),
    ("2 sin", "'sin' has nothing to apply to", 2),
    ("|a|b|c|", "this '|' could close the absolute value before it or open a new one", 2),
    ("atan2(x)", "atan2 takes 2 arguments, but 1 was given", 0),
    ("1e400", "too large for a double", 0),
    ("a = 1; a = 2", "'a' is defined twice", 7),
    ("b = a; a = 1", "'a' is used before it is defined", 4),
    ("pi = 3", "'pi' is a constant and cannot be assigned", 0),
    ("sin = 2", "'sin' is a function and cannot be assigned", 0),
]


@pytest.mark.parametrize("text,words,column", SYNTAX_ERRORS)
def test_each_kind_of_syntax_error_is_explained_in_words(text, words, column):
    err = error_of(text)
    assert err.exit_code == 2
    assert words in err.message
    assert err.span[0] == column
    said = err.message + " " + (err.hint or "")
    assert not re.search(r"\b[A-Z_]{3,}\b|\$END|Token\(", said), said


def test_syntax_errors_show_the_line_and_a_caret_through_the_cli():
    result = cli("eval", "x + * y", "--at", "x=1,y=2")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[:3] == [
        "error: unexpected '*' after '+': expected a number, a name or '('",
        "  x + * y",
        "      ^",
    ]


# ---------------------------------------------------------------- look-alike characters

@pytest.mark.parametrize("pasted,plain", [
    ("2\u2212x", "2-x"),          # minus sign
    ("2\u00d7x", "2*x"),          # multiplication sign
    ("x\u00f73", "x/3"),          # division sign
    ("2\u22c5x", "2*x"),          # dot operator
    ("2\u00b7x", "2*x"),          # middle dot
    ("2\u2217x", "2*x"),          # asterisk operator
    ("x\u22153", "x/3"),          # division slash
    ("2\u00a0*\u00a0x", "2*x"),   # no-break spaces
    ("\u03c0*x", "pi*x"),          # π
])
def test_unambiguous_lookalikes_are_read(pasted, plain):
    assert evaluate(pasted, x=1.5).value == evaluate(plain, x=1.5).value


def test_pi_sign_is_the_constant_everywhere():
    assert "'π' is a constant" in error_of("π = 3").message
    result = cli("eval", "sin(x)", "--at", "x=π/2", "-o", "plain")
    assert result.exit_code == 0 and result.stdout.startswith("f\t1\n")


@pytest.mark.parametrize("text,words,hint", [
    ("x\u2081 + 1", "'₁' is a subscript digit", "type x1 or x_1"),
    ("2\u2013x", "an en dash (U+2013) (–)", "type - for minus"),
    ("\u201cx\u201d", "a curly quote (“)", "quotes are not part of expressions"),
    ("x \u2264 1", "a less-or-equal sign (≤)", "comparisons are not part of the language"),
    ("$x^2$", "a dollar sign", "remove it"),
    (r"\frac{1}{x}", r"'\frac{1}{x}' is LaTeX", "type (1)/(x) instead"),
    (r"\dfrac{a+1}{2}", r"'\dfrac{a+1}{2}' is LaTeX", "type (a+1)/(2) instead"),
    (r"\sqrt{x}", r"'\sqrt{x}' is LaTeX", "type sqrt(x) instead"),
    (r"2 \cdot x", r"'\cdot' is a LaTeX command", "type * instead"),
    (r"\pi x", r"'\pi' is a LaTeX command", "type pi instead"),
    (r"\alpha", r"'\alpha' is a LaTeX command", "write plain text"),
    # a function's command: every function whose LaTeX (the op table's) is a command
    (r"\sin x", r"'\sin' is a LaTeX command", "type sin(x) instead"),
    (r"\sec x", r"'\sec' is a LaTeX command", "type sec(x) instead"),
    (r"\ln x", r"'\ln' is a LaTeX command", "type ln(x) instead"),
    (r"\arcsin x", r"'\arcsin' is a LaTeX command", "type asin(x) instead"),
    (r"\max(x, y)", r"'\max' is a LaTeX command", "type max(a, b) instead"),
    (r"\sigma", r"'\sigma' is a LaTeX command", "type a name such as sigma instead"),
    (r"\sum x", r"'\sum' is a LaTeX command", "write plain text"),
    ("x\\", "a backslash", "write plain text"),
    ("x\u200dy", "an invisible or control character (U+200D ZERO WIDTH JOINER)", "remove it"),
])
def test_lookalikes_say_what_they_are_and_what_to_type(text, words, hint):
    err = error_of(text)
    assert isinstance(err, ParseError)
    assert words in err.message
    assert hint in err.hint


# ---------------------------------------------------------------- output safety

ESC = "\x1b"


def test_markup_in_a_binding_name_prints_literally():
    result = cli("eval", "x", "--at", "[bold]x=1")
    assert result.exit_code == 2
    assert "error: --at: '[bold]x' is not a valid name" in result.stderr


def test_escape_bytes_in_messages_are_shown_as_escapes():
    result = cli("eval", "x", "--at", ESC + "[31mx=1")
    assert result.exit_code == 2
    assert ESC not in result.stderr
    assert r"'\x1b[31mx' is not a valid name" in result.stderr
    result = cli("eval", "x" + ESC + "[2J")
    assert result.exit_code == 2 and ESC not in result.stderr
    assert "U+001B" in result.stderr


def test_escape_bytes_in_option_values_are_shown_as_escapes():
    result = cli("eval", "x", "--at", "x=1", "-o", ESC + "[31mred")
    assert result.exit_code == 2
    assert ESC not in result.stderr and r"\x1b[31mred" in result.stderr


@pytest.mark.parametrize("fmt", ["table", "plain", "json", "csv"])
def test_control_characters_in_comments_never_reach_stdout(fmt):
    program = f"y = x**2  # [bold red]{ESC}[31m\x9b\u202e\x7f\nz = y + 1"
    result = cli("eval", program, "--at", "x=2", "-o", fmt)
    assert result.exit_code == 0, result.stderr
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]", result.stdout)
    if fmt == "json":
        record = json.loads(result.stdout)
        assert record["expression"] == program  # escaped in JSON, intact when read back
        assert "[bold red]" in record["expression"]


def test_warnings_are_cleaned_too():
    result = cli("eval", "1/2\x0cx", "--at", "x=2", "-o", "plain")
    assert result.exit_code == 0
    assert "\x0c" not in result.stderr and r"\x0c" in result.stderr


def test_clean_keeps_printable_text_and_escapes_the_rest():
    assert clean("sin(θ) ≤ 1\n\tok") == "sin(θ) ≤ 1\n\tok"
    assert clean("a\x1b[0mb\u202ec\x00") == r"a\x1b[0mb\u202ec\x00"
    assert UsageError("bad \x07").message == r"bad \x07"
    err = UsageError("x")
    err.message = "y\x1b"
    assert err.message == r"y\x1b"


@pytest.mark.parametrize("at,expected", [
    ("x=1e308", '"value": "inf"'),
    ("x=1e-320", '"value": 1e-320'),
    ("x=-0.0", '"value": -0.0'),
])
def test_json_stays_valid_at_the_edges_of_doubles(at, expected):
    result = cli("eval", "x*10" if "308" in at else "x", "--at", at, "-o", "json")
    if result.exit_code == 0:
        json.loads(result.stdout, parse_constant=lambda c: pytest.fail(c))
    else:
        assert result.exit_code == 3 and "overflows" in result.stderr


# ---------------------------------------------------------------- never runs user text

HOSTILE = [
    "__import__('os').system('id')",
    '__import__("os").system("id")',
    "__import__(os)",
    "eval(x)",
    "exec(x)",
    "open(x)",
    "compile(x)",
    "globals()",
    "x.__class__",
    "().__class__.__bases__[0].__subclasses__()",
    "lambda: 1",
    "[c for c in x]",
    "import os",
    "os.system",
    "breakpoint()",
    "getattr(x, y)",
    "x if y else z",
    "{x: 1}",
    "f'{x}'",
    "`id`",
    "$(id)",
    "x; rm -rf /",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_python_is_a_parse_error(text):
    with pytest.raises((ParseError, UsageError, GradcliError)) as info:
        parse(text)
    assert info.value.exit_code == 2


@pytest.mark.parametrize("text", HOSTILE)
def test_python_is_not_the_language(text):
    result = cli("eval", text, "--at", "x=1")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")


def test_evaluating_any_input_imports_nothing_and_calls_no_evaluator(monkeypatch):
    inputs = HOSTILE + [s for s, _, _ in SYNTAX_ERRORS] + [
        "(w*x+b)**2", "log(x - 3)", "1/0", "x**2; y = 1", r"\frac{1}{x}", "x²", "x" + ESC]
    formats = ["table", "plain", "json", "csv"]
    # Warm-up: every code path once, so lazy imports of gradcli itself are done.
    for text in inputs:
        for fmt in formats:
            cli("eval", text, "--at", "x=2", "-o", fmt)
    before = set(sys.modules)
    calls = []

    def forbidden(name):
        def fn(*a, **k):
            calls.append(name)
            raise AssertionError(f"{name} called")
        return fn

    for name in ("eval", "exec", "compile", "breakpoint"):
        monkeypatch.setattr(builtins, name, forbidden(name))
    for text in inputs:
        for fmt in formats:
            result = cli("eval", text, "--at", "x=2,w=1,b=1", "-o", fmt)
            assert result.exit_code in (0, 2, 3)
    monkeypatch.undo()
    assert calls == []
    assert set(sys.modules) - before == set()


@pytest.mark.parametrize("argv", [
    [b"eval", b"x\xff+1", b"--at", b"x=1"],
    [b"eval", b"x # \xff\x1b[31m", b"--at", b"x=1", b"-o", b"json"],
    [b"eval", b"x", b"--at", b"x\xff=1"],
    [b"eval", b"x", b"--at", b"x=1", b"--wrt", b"\x1b\xff"],
    [b"eval", b"\xe2\x88\x92x", b"--at", b"x=1", b"-o", b"table"],
])
def test_undecodable_and_escape_bytes_in_a_real_process(argv):
    import os
    import subprocess
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    proc = subprocess.run([sys.executable.encode(), b"-m", b"gradcli", *argv],
                          capture_output=True, env={**os.environ, "PYTHONPATH": src},
                          timeout=60)
    assert proc.returncode in (0, 2), proc.stderr
    assert b"Traceback" not in proc.stderr
    assert b"\x1b" not in proc.stdout + proc.stderr
    if proc.returncode:
        assert proc.stderr.startswith(b"error: ")
    elif b"json" in argv:
        assert json.loads(proc.stdout)["value"] == 1.0


@pytest.mark.parametrize("name", sorted(main.commands) + [None])
def test_help_text_has_no_control_characters(name):
    # click's \b marker only works as its own paragraph; elsewhere it prints a backspace.
    result = cli(*([name] if name else []), "--help")
    assert result.exit_code == 0
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", result.output), result.output
