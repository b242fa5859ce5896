"""Fuzzing the command line: hostile, near-valid and extreme inputs for every command.

Each test draws inputs with hypothesis (fixed seed, bounded examples, so the run
is fast and repeatable) and asserts the invariant of tests/fuzzing.py: exit code
0-3, no traceback, a message on failure, parseable output on success, no control
characters, no grammar symbols, a few seconds at most. bench/fuzz.py runs the
same strategies for as long as one likes; every input that ever failed is kept
in tests/fuzz_corpus.txt and replayed here.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import fuzzing
from fuzzing import check

# No shrinking: a failure is reported as drawn (shrinking huge inputs took minutes).
# Hostile inputs are large and slow by design, and many draws are rejected by the
# grammar strategies: those three health checks say nothing here; the others stay on.
QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
FAST = settings(max_examples=15, derandomize=True, deadline=None, database=None,
                phases=[Phase.explicit, Phase.generate], suppress_health_check=QUIET)
# The campaign in CI is repeatable too: 1,000 inputs, each run under every command that
# reads an expression (about 20,000 runs, a few minutes of CPU). bench/fuzz.py draws
# fresh inputs for as long as one likes.
BIG = settings(max_examples=1000, derandomize=True, deadline=None, database=None,
               suppress_health_check=QUIET)

EXPRESSION_COMMANDS = sorted(n for n, c in fuzzing.commands().items()
                             if fuzzing.takes_expression(c))


def _formats(name):
    return fuzzing.formats_of(fuzzing.commands()[name]) or [None]


def _run_everywhere(expr, at=(), draw_fmt=None, stdin=None):
    """The invariant for `expr` under every command that reads an expression."""
    for name in EXPRESSION_COMMANDS:
        formats = _formats(name)
        fmt = draw_fmt(formats) if draw_fmt else formats[0]
        check(fuzzing.expression_args(name, expr, at, fmt))


# ---------------------------------------------------------------- (a) arbitrary input

@FAST
@given(st.text(max_size=50))
def test_arbitrary_unicode_text(text):
    _run_everywhere(text, ["x=1"])


@FAST
@given(fuzzing.grammar_text(), st.data())
def test_text_from_the_languages_alphabet(text, data):
    _run_everywhere(text, ["x=2", "y=-1"], draw_fmt=lambda fs: data.draw(st.sampled_from(fs)))


@FAST
@given(st.binary(max_size=60))
def test_arbitrary_bytes_on_stdin(blob):
    for name in EXPRESSION_COMMANDS:
        args = [name, "-f", "-", "--at", "x=1"] + fuzzing.REQUIRED.get(name, [])
        check(args, stdin=blob)


@FAST
@given(st.lists(st.text(max_size=12), max_size=5))
def test_arbitrary_argument_lists(argv):
    for name in fuzzing.commands():
        check([name, *argv])


POINTS_ALPHABET = "xy,0123456789.-e\n\r\" {}:[]nainf\t\x00\x1b"


@FAST
@given(st.one_of(st.binary(max_size=80),
                 st.text(alphabet=POINTS_ALPHABET, max_size=80).map(lambda t: ("x,y\n" + t).encode()),
                 st.text(alphabet=POINTS_ALPHABET, max_size=80).map(lambda t: t.encode())),
       st.sampled_from(["csv", "json", "plain", "table"]))
def test_arbitrary_points_files(blob, fmt):
    for args in (["eval", "x*y"], ["diff", "x*y", "--at", "x=1,y=1"],
                 ["check", "x*y", "--value", "1"]):
        if fmt not in fuzzing.formats_of(fuzzing.commands()[args[0]]):
            continue
        check(args + ["--points", "-", "-o", fmt], stdin=blob)


# ---------------------------------------------------------------- (b) near-valid input

@FAST
@given(fuzzing.mutated_expression(), st.data())
def test_one_mutation_from_a_valid_expression(expr, data):
    at = data.draw(fuzzing.bindings_for(expr))
    _run_everywhere(expr, at, draw_fmt=lambda fs: data.draw(st.sampled_from(fs)))


@FAST
@given(fuzzing.valid_expression(), st.data())
def test_valid_expressions_with_every_flag(expr, data):
    at = data.draw(fuzzing.bindings_for(expr))
    for name in EXPRESSION_COMMANDS:
        command = fuzzing.commands()[name]
        flags = data.draw(st.lists(st.sampled_from(fuzzing.flags_of(command) + ["--help"]),
                                   max_size=2, unique=True))
        fmt = data.draw(st.sampled_from(_formats(name)))
        precision = data.draw(st.sampled_from([[], ["--precision", "3"],
                                               ["--precision", "17"]]))
        check(fuzzing.expression_args(name, expr, at, fmt, flags + precision))


# ---------------------------------------------------------------- (c) extreme numbers

@FAST
@given(fuzzing.extreme_expression(), st.data())
def test_extreme_numbers_in_expressions(expr, data):
    at = data.draw(fuzzing.bindings_for(expr))
    _run_everywhere(expr, at, draw_fmt=lambda fs: data.draw(st.sampled_from(fs)))


@FAST
@given(st.sampled_from(fuzzing.EXTREME_NUMBERS), st.sampled_from(["", "-"]), st.data())
def test_extreme_numbers_bound_with_at(number, sign, data):
    expr = data.draw(st.sampled_from(["x", "x**2", "exp(x)", "log(x)", "1/x", "sqrt(x)",
                                      "x*y", "sigmoid(x)", "softplus(x)", "x**x", "tanh(x)"]))
    at = [f"x={sign}{number}", f"y={number}"] if "y" in expr else [f"x={sign}{number}"]
    _run_everywhere(expr, at, draw_fmt=lambda fs: data.draw(st.sampled_from(fs)))


# ---------------------------------------------------------------- every command, every format

@pytest.mark.parametrize("name", sorted(fuzzing.commands()))
def test_every_command_in_every_format(name):
    command = fuzzing.commands()[name]
    for fmt in fuzzing.formats_of(command) or [None]:
        if fuzzing.takes_expression(command):
            for expr in ("(w*x+b)**2", "-x**2", "log(x - 3)", "x y", "", "sin(x"):
                check(fuzzing.expression_args(name, expr, ["w=3", "x=2", "b=1"], fmt))
        else:
            check([name] + (["-o", fmt] if fmt else []))


# ---------------------------------------------------------------- the regression corpus

def test_the_oracle_tells_grammar_symbols_from_metavariables():
    usage = "error: --at expects NAME=VALUE; try --derivative FORMULA --wrt NAME"
    assert not fuzzing.GRAMMAR_SYMBOLS.search(fuzzing.METAVARIABLES.sub("", usage))
    for leak in ("expected NAME or NUMBER", "unexpected RPAR", "got Token('NAME', 'x')"):
        assert fuzzing.GRAMMAR_SYMBOLS.search(fuzzing.METAVARIABLES.sub("", leak)), leak


def test_regression_corpus_replays_cleanly():
    entries = fuzzing.corpus()
    assert entries, "tests/fuzz_corpus.txt holds every input that ever failed"
    for entry in entries:
        check(entry["args"], fuzzing.stdin_of(entry))


@pytest.mark.slow
def test_large_regression_corpus_replays_cleanly():
    for entry in fuzzing.corpus(fuzzing.CORPUS_LARGE):
        check(entry["args"], fuzzing.stdin_of(entry))


# ---------------------------------------------------------------- the larger campaign

@pytest.mark.slow
@BIG
@given(st.one_of(fuzzing.mutated_expression(), fuzzing.extreme_expression(),
                 fuzzing.grammar_text(), st.text(max_size=80)), st.data())
def test_campaign(expr, data):
    at = data.draw(fuzzing.bindings_for(expr))
    _run_everywhere(expr, at, draw_fmt=lambda fs: data.draw(st.sampled_from(fs)))
