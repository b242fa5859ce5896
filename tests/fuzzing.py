"""Shared by tests/test_fuzz.py and bench/fuzz.py: input strategies and the invariant.

The invariant, for every input and every command: the exit code is 0, 1, 2 or 3;
no Python traceback and no "internal error"; a message on stderr when the code
is not 0; stdout parseable in the requested format when it is 0; no control
characters (ESC) in either stream; no grammar symbols in messages; and the run
ends within a few seconds.
"""
from __future__ import annotations

import csv
import functools
import io
import json
import os
import re
import signal
import sys
import threading
import time

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
if SRC not in sys.path:
    sys.path.insert(0, SRC)

from click.testing import CliRunner  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gradcli import ops  # noqa: E402
from gradcli.cli import main  # noqa: E402

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz_corpus.txt")
# The time bound of a run: the long campaign (bench/fuzz.py) sets it; the test suite
# asserts no timing (a loaded machine is not a bug), only the hang guard below.
SECONDS = float(os.environ["GRADCLI_FUZZ_SECONDS"]) if os.environ.get("GRADCLI_FUZZ_SECONDS") \
    else None
HANG = 60  # a run this long is stopped and reported as a hang

# Lark terminal names and other parser internals that must never reach a user.
GRAMMAR_SYMBOLS = re.compile(
    r"\b(NUMBER|NAME|LPAR|RPAR|LSQB|RSQB|COMMA|EQUAL|PLUS|MINUS|TIMES|DIVIDE|MATMUL|POW|"
    r"IMPLICIT|FJUX|FUNC|BAR_CLOSE|LBRACE|RBRACE|SUP|COMMENT|_SEP)\b|\$END|Token\(|__ANON|UnexpectedToken|UnexpectedCharacters")
# Metavariables in option syntax (--at NAME=VALUE, --wrt NAME), as click's help writes
# them, are usage, not grammar symbols.
METAVARIABLES = re.compile(r"--wrt NAME\b|\bNAME=(?:VALUE|A:B)\b")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


class Failure(AssertionError):
    """An input that broke the invariant, with the reason."""


# ---------------------------------------------------------------- commands

def commands() -> dict:
    """Every command the CLI has now: name -> click command."""
    return dict(main.commands)


def formats_of(command) -> list[str]:
    for p in command.params:
        if p.name == "fmt":
            return list(getattr(p.type, "choices", ()) or ())
    return []


def takes_expression(command) -> bool:
    return any(p.name == "expr" for p in command.params)


def flags_of(command) -> list[str]:
    """Flag options that need no value (except --debug, which shows tracebacks on purpose)."""
    out = []
    for p in command.params:
        if getattr(p, "is_flag", False) and p.name not in ("debug", "help"):
            out.append(p.opts[-1])
    return out


# What a command needs besides EXPR and --at to do anything at all.
REQUIRED = {
    "descend": ["--lr", "0.1", "--steps", "3"],
    "plot": ["--over", "x=-1:1"],
    "check": ["--value", "1"],
}


def expression_args(name: str, expr: str, at: list[str] = (), fmt: str | None = None,
                    extra=()) -> list[str]:
    """The argument list that runs command `name` on `expr`."""
    args = [name, expr]
    for a in at:
        args += ["--at", a]
    args += REQUIRED.get(name, [])
    args += list(extra)
    if fmt:
        args += ["-o", fmt]
    return args


# ---------------------------------------------------------------- the invariant

def _alarm(signum, frame):
    raise TimeoutError("the run did not end")


def run(args: list[str], stdin=None):
    """Run the CLI in-process on `args`, with a hard stop for hangs."""
    runner = CliRunner()
    main_thread = threading.current_thread() is threading.main_thread()
    if main_thread:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(HANG)
    start = time.perf_counter()
    try:
        result = runner.invoke(main, args, input=stdin, catch_exceptions=True)
    finally:
        if main_thread:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
    return result, time.perf_counter() - start


def requested_format(args: list[str]) -> str:
    fmt = "plain"  # CliRunner's stdout is not a terminal
    if "--help" in args or "-h" in args:
        return "help"
    for i, a in enumerate(args):
        if a in ("-o", "--format") and i + 1 < len(args):
            fmt = args[i + 1]
        elif a.startswith("--format="):
            fmt = a.split("=", 1)[1]
    return fmt


def check(args: list[str], stdin=None) -> int:
    """Run and assert the invariant; returns the exit code. Raises Failure."""
    result, elapsed = run(args, stdin)
    where = f"args={_short(args)!r}" + (f" stdin={_short([stdin])[0]!r}"
                                         if stdin is not None else "")
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        import traceback
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        raise Failure(f"uncaught {type(exc).__name__}: {exc}\n{where}\n{tb}")
    code = result.exit_code
    out, err = result.stdout, result.stderr
    if code not in (0, 1, 2, 3):
        raise Failure(f"exit code {code}\n{where}\nstderr: {err[-2000:]}")
    if "Traceback" in out or "Traceback" in err:
        raise Failure(f"a traceback was printed\n{where}\n{err[:4000]}")
    if "internal error" in err:
        raise Failure(f"internal error\n{where}\n{_tail(err)}")
    if code not in (0, 1) and not err.strip():
        raise Failure(f"exit {code} with nothing on stderr\n{where}")
    if code == 1 and not (err.strip() or out.strip()):
        # check's "an answer is wrong" is a verdict, printed on stdout
        raise Failure(f"exit 1 with nothing on stdout or stderr\n{where}")
    if CONTROL.search(out) or CONTROL.search(err):
        raise Failure(f"a control character reached the output\n{where}\n"
                      f"stdout: {out[:500]!r}\nstderr: {err[:500]!r}")
    typed = " ".join(args) + (str(stdin) if stdin is not None else "")
    for m in GRAMMAR_SYMBOLS.finditer(METAVARIABLES.sub("", err)):
        if m.group(0) not in typed:  # the user's own text may be quoted back
            raise Failure(f"a grammar symbol reached a message\n{where}\n{err[:2000]}")
    empty_batch = "--points" in args and not out.strip()  # a file of no rows: no lines
    # A session prints what its lines ask for (tests/test_repl.py): no lines, nothing.
    empty_session = args[:1] == ["repl"] and not out.strip() and not stdin
    if (code == 0 or (code == 1 and out.strip())) and not empty_batch and not empty_session:
        try:
            parse_output(out, requested_format(args), args[0] if args else "")
        except Exception as e:  # noqa: BLE001 - any parse failure is the finding
            raise Failure(f"stdout is not valid {requested_format(args)}: {e}\n{where}\n"
                          f"{out[:2000]}") from None
    # A few seconds for a fuzzer-sized input, plus one per 10,000 characters of a
    # blown-up one (every stage is linear, so big inputs may take proportionally longer).
    size = sum(len(a) for a in args) + (len(stdin) if stdin is not None else 0)
    if SECONDS is not None and elapsed > SECONDS + size / 10_000:
        raise Failure(f"the run took {elapsed:.1f} s\n{where}")
    return code


def _tail(err: str) -> str:
    """The error lines of stderr, without the (possibly huge) source line."""
    return "\n".join(x[:300] for x in err.splitlines() if not x.startswith("  "))[-2000:]


def _short(args) -> list:
    """Arguments as shown in a report: long ones cut, with their length."""
    args = [a if isinstance(a, str) else repr(a) for a in args]
    return [a if len(a) <= 300 else a[:200] + f"…({len(a)} in all)…" + a[-40:] for a in args]


def _no_constant(name):
    raise ValueError(f"JSON with {name}: not valid JSON")


TAB_SEPARATED = {"eval", "functions"}  # key<TAB>value lines


def parse_output(out: str, fmt: str, command: str = "") -> None:
    """Raise unless `out` is well-formed in `fmt`."""
    if not out.strip():
        raise ValueError("nothing on stdout")
    if fmt == "json":
        try:
            json.loads(out, parse_constant=_no_constant)
        except json.JSONDecodeError:
            for line in out.splitlines():  # JSON Lines
                if line.strip():
                    json.loads(line, parse_constant=_no_constant)
    elif fmt == "csv":
        rows = list(csv.reader(io.StringIO(out)))
        widths = {len(r) for r in rows if r}
        if len(widths) != 1:
            raise ValueError(f"CSV rows of different lengths {sorted(widths)}")
    elif fmt == "plain" and command in TAB_SEPARATED:
        for line in out.splitlines():
            if "\t" not in line:
                raise ValueError(f"plain line without a tab: {line!r}")


# ---------------------------------------------------------------- strategies

NAMES = ["x", "y", "w", "b", "t", "θ"]
UNARY = sorted(n for n in ops.function_names()
               if ops.lookup_function(n) and ops.lookup_function(n).accepts(1))
BINARY = sorted(n for n in ops.function_names()
                if ops.lookup_function(n) and ops.lookup_function(n).accepts(2))
INFIX = ["+", "-", "*", "/", "**", "^", "@"]

EXTREME_NUMBERS = [
    "0", "0.0", "-0.0", "1", "1e308", "1.7976931348623157e308", "1e309", "-1e308",
    "4.9e-324", "5e-324", "2.2250738585072014e-308", "2.225073858507201e-308", "1e-320",
    "1e-400", "9007199254740993", "123456789012345678901234567890", "1" + "0" * 30,
    "9" * 400, "0." + "0" * 400 + "1", "1" * 5000, ".5", "5.", "1E+5", "2.5E-4", "1e0",
    "0e0", "00000001", "1e+00000000000000000000308", "1e99999999999999999999",
    "3.141592653589793238462643383279", "1e22", "1e23", "0.1", "709.79", "710", "-745.2",
    "1e-7", "1e15", "1e16", "1e-16",
]


def number_token():
    return st.one_of(
        st.sampled_from(EXTREME_NUMBERS),
        st.integers(min_value=0, max_value=10 ** 40).map(str),
        st.floats(min_value=0, allow_nan=False, allow_infinity=False).map(repr),
        st.integers(min_value=1, max_value=3000).map(lambda n: "9" * n),
        st.integers(min_value=1, max_value=400).map(lambda n: "0." + "0" * n + "1"),
    )


def _leaf(numbers):
    return st.one_of(numbers.map(lambda n: [n]),
                     st.sampled_from(NAMES).map(lambda n: [n]),
                     st.sampled_from(["pi", "e"]).map(lambda n: [n]))


def expression_tokens(numbers=None, vectors=True, max_leaves=10):
    """Token lists of valid expressions of the grammar."""
    numbers = numbers if numbers is not None else st.sampled_from(["1", "2", "3", "0.5", "10"])

    def extend(children):
        options = [
            st.tuples(children, st.sampled_from(INFIX if vectors else INFIX[:-1]), children)
              .map(lambda t: t[0] + [t[1]] + t[2]),
            st.tuples(st.sampled_from(["-", "+"]), children).map(lambda t: [t[0]] + t[1]),
            children.map(lambda c: ["("] + c + [")"]),
            st.tuples(st.sampled_from(UNARY), children)
              .map(lambda t: [t[0], "("] + t[1] + [")"]),
            st.tuples(st.sampled_from(BINARY), children, children)
              .map(lambda t: [t[0], "("] + t[1] + [","] + t[2] + [")"]),
            st.tuples(numbers, children).map(lambda t: [t[0], "("] + t[1] + [")"]),
            st.tuples(numbers, st.sampled_from(NAMES)).map(lambda t: [t[0], t[1]]),
        ]
        if vectors:
            options.append(st.lists(children, min_size=1, max_size=3).map(
                lambda cs: ["["] + sum(([","] + c for c in cs[1:]), cs[0]) + ["]"]))
        return st.one_of(*options)

    return st.recursive(_leaf(numbers), extend, max_leaves=max_leaves)


@functools.lru_cache(maxsize=None)
def program_tokens():
    """A program: statements, some named, separated by ';' or new lines."""
    def build(parts):
        out = []
        for i, (named, toks, sep) in enumerate(parts):
            if i:
                out.append(sep)
            if named and i < len(parts) - 1:
                out += [f"v{i}", "="]
            out += toks
        return out
    part = st.tuples(st.booleans(), expression_tokens(max_leaves=5),
                     st.sampled_from([";", "\n", "\r\n", " # note\n"]))
    return st.lists(part, min_size=1, max_size=4).map(build)


def join(tokens, spaced) -> str:
    return (" " if spaced else "").join(tokens)


@st.composite
def mutated_expression(draw):
    """A valid expression with one token dropped, swapped or duplicated."""
    toks = draw(st.one_of(_valid_tokens(), program_tokens()))
    kind = draw(st.sampled_from(["drop", "swap", "dup", "swap_adjacent"]))
    i = draw(st.integers(0, len(toks) - 1))
    toks = list(toks)
    if kind == "drop":
        del toks[i]
    elif kind == "dup":
        toks.insert(i, toks[i])
    else:
        j = i + 1 if kind == "swap_adjacent" else draw(st.integers(0, len(toks) - 1))
        j = min(j, len(toks) - 1)
        toks[i], toks[j] = toks[j], toks[i]
    return join(toks, draw(st.booleans()))


@st.composite
def extreme_expression(draw):
    """A valid expression whose numbers are huge, tiny, subnormal or long digit strings."""
    toks = draw(_extreme_tokens())
    return join(toks, draw(st.booleans()))


@functools.lru_cache(maxsize=None)
def _valid_tokens():
    return expression_tokens()


@functools.lru_cache(maxsize=None)
def _extreme_tokens():
    return expression_tokens(numbers=number_token(), max_leaves=8)


def valid_expression():
    return st.tuples(_valid_tokens(), st.booleans()).map(lambda t: join(*t))


def binding_value():
    """Text for the right-hand side of --at."""
    simple = st.one_of(
        st.sampled_from(EXTREME_NUMBERS + ["-" + n for n in EXTREME_NUMBERS[:12]] +
                        ["pi/4", "sqrt(2)", "1/3", "-1e-3", "e", "-pi"]),
        st.floats(allow_nan=False, allow_infinity=False).map(repr),
        st.integers(-10 ** 30, 10 ** 30).map(str),
    )
    vec = st.lists(simple, min_size=1, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]")
    return st.one_of(simple, vec)


def names_in(expr: str) -> list[str]:
    return [n for n in NAMES if re.search(rf"(?<![\w]){n}(?![\w])", expr)]


@st.composite
def bindings_for(draw, expr: str):
    """--at options for the free names of `expr`, sometimes one short, sometimes one extra."""
    names = names_in(expr)
    if names and draw(st.integers(0, 9)) == 0:
        names = names[1:]
    if draw(st.integers(0, 19)) == 0:
        names = names + ["unused"]
    return [f"{n}={draw(binding_value())}" for n in names]


# Text near the language: its own characters plus look-alikes and hostile bytes.
GRAMMAR_ALPHABET = ("0123456789.eE+-*/^@()[],;=#\n\r\t xyzwbsinlogexpqrtpi_maxπ×÷−²“'\"\\{}"
                    "\x1b\x00\u202e\u200b[]:|!%$")


def grammar_text():
    return st.text(alphabet=GRAMMAR_ALPHABET, max_size=40)


# ---------------------------------------------------------------- the corpus

CORPUS_LARGE = os.path.join(os.path.dirname(CORPUS), "fuzz_corpus_large.txt")


def corpus(path=CORPUS) -> list[dict]:
    """Every input that ever failed: {"args": [...], "stdin": text or null}, one JSON a line."""
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line and not line.startswith("#"):
                entries.append(json.loads(line))
    return entries


def save(args, stdin=None, path=None) -> None:
    """Add a failing input to the corpus (once); inputs over 50,000 characters to the large one."""
    if path is None:
        size = sum(len(a) for a in args) + (len(stdin) if stdin is not None else 0)
        path = CORPUS_LARGE if size > 50_000 else CORPUS
    entry = {"args": list(args), "stdin": stdin if not isinstance(stdin, bytes)
             else {"hex": stdin.hex()}}
    line = json.dumps(entry, ensure_ascii=True)
    existing = set()
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            existing = {x.strip() for x in fh}
    if line not in existing:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")


def stdin_of(entry):
    s = entry.get("stdin")
    if isinstance(s, dict):
        return bytes.fromhex(s["hex"])
    return s
