"""The product's limits, in one place.

The size limits sit far above normal use (docs/limits.md: 1,000,000 operations
and 100,000 nested parentheses work) and exist so that hostile or accidental
input gets a clear LimitError (exit 2) instead of exhausting memory or time.
The parser, the lowering, exact arithmetic and batches read them;
docs/limits.md documents them. Below them, the bounds the commands set on
their own work (plot, critical, descend, taylor, diff, check): how far a
search or a diagnosis goes and how much a summary lists. Each has a line on
why it exists; the modules import them from here.
"""
from __future__ import annotations

from .errors import LimitError

# Characters of one expression or program; bytes read from -f FILE or stdin.
MAX_INPUT_CHARS = 64_000_000

# Tokens (numbers, names, operators, brackets) of one input. Memory grows with
# the number of nodes (about 1 KB each), so this bounds memory at a few GB:
# 4,000,000 tokens is about 2,000,000 binary operations.
MAX_TOKENS = 4_000_000

# Parentheses and brackets open at once: a chain of 1,000,000 operations written
# with one group per step (((x*0.5 + x)*0.5 + x)...) opens 500,000.
MAX_NESTING = 1_000_000

# Bits in the numerator or denominator of an exact (--exact) number. An
# integer power whose result would be larger stops before it is computed.
# About 3,900 decimal digits: large enough for any homework, small enough that
# every exact operation is instant and every number prints (Python refuses to
# print integers of more than 4,300 digits).
MAX_EXACT_BITS = 13_000

# Elements of one vector, matrix or broadcast result: 80 MB of doubles.
MAX_ELEMENTS = 10_000_000

# Axes of one array ([[[...]]] nesting of vector literals); NumPy's own bound is 32 or 64.
# vectors.MAX_DIMS reads it; beyond it is a ShapeError.
MAX_AXES = 32

# --jacobian takes one backward pass per element of the result: at most this many
# passes, this many numbers in the Jacobian, and this much work (passes times the
# steps of one pass, about a microsecond each).
MAX_JACOBIAN_OUTPUTS = 100_000
MAX_JACOBIAN_ENTRIES = 10_000_000
MAX_JACOBIAN_WORK = 2_000_000

# Characters of a terminal plot (--width x --height): plotext holds several hundred
# bytes per character (1000 x 1000 took 0.7 GB and 5 s).
MAX_PLOT_CELLS = 250_000

# Characters of one row of a --points or --data file (CSV line or JSON line).
MAX_ROW_CHARS = 1_000_000

# Warnings printed for one run (more are counted, not shown), and characters of
# an expression quoted inside one message: a huge input must not turn into
# gigabytes of warnings (2,000 nested max(...) ties once gave 24 MB).
MAX_WARNINGS = 50
MAX_QUOTE = 200

# Arguments of one call (max, min) past which trace shows local derivatives as
# numbers only: each formula names every argument, so formulas grow quadratically.
MAX_FORMULA_ARGS = 32

# Row errors and row warnings of one --points run shown on stderr, per kind (the rest
# are counted in one line); gradcli.compile warns of as many undefined rows per call.
MAX_MESSAGES = 20

# Points of one contour-map grid (plot over two ranges): 2,000 x 2,000 keeps the
# arrays of f and its two partials near 100 MB.
MAX_PLOT_GRID = 4_000_000

# Segments of one plot panel looked at more closely for a jump (a pole or a step);
# past it only the largest changes are, so a wildly oscillating f costs no more.
MAX_JUMP_SEGMENTS = 1_000

# Starting points of the numeric critical-point search over a box (about
# MAX_CRITICAL_STARTS ** (1/n) per axis): each is a Newton run, so this bounds the time.
MAX_CRITICAL_STARTS = 4_096

# Steps of one descend run: every step is kept for the JSON history; past this a run is a
# hang, not a result.
MAX_DESCEND_STEPS = 1_000_000

# Order of a Taylor polynomial (a published exercise asks for degree 16, sin x + cos x),
# and its terms (with several variables their number grows combinatorially with the order).
MAX_TAYLOR_ORDER = 20
MAX_TAYLOR_TERMS = 2_000

# diff --order: each order differentiates every derivative of the one before, so the
# formulas (and, with several variables, their number) grow quickly.
MAX_DIFF_ORDER = 10

# Prime marks on one function name (f', f'', ...): the same bound as diff --order.
MAX_PRIMES = 10

# diff --steps: steps kept for one derivative; the rest are counted and said to be left out.
MAX_SHOWN_STEPS = 100

# Nodes of a graph whose precision loss eval analyses: beyond this the analysis would
# cost many times the evaluation, and it is not made.
MAX_PRECISION_NODES = 20_000

# check: candidate points tried to find enough comparable ones for a formula answer.
MAX_SAMPLE_TRIES = 120
# check: beyond this many distinct nodes no mistake is diagnosed, and never more than this
# many candidate mistakes are tried (each is a formula compared at several points).
MAX_DIAGNOSE_NODES = 400
MAX_DIAGNOSE_CANDIDATES = 600
# check: literals of an answer given the slack of their last typed digit; beyond this the
# formula is compared as typed.
MAX_ROUNDED_LITERALS = 24
# check: kink arguments examined per formula, and points just either side of them in all.
MAX_EDGES = 12
MAX_EDGE_POINTS = 24
# check --points: wrong (or skipped) rows listed per answer in the summary.
MAX_ROWS_SHOWN = 10


def _count(n: int) -> str:
    return f"{n:,}"


def input_too_large(chars: int, file: str | None = None) -> LimitError:
    """The input text (or the file holding it) is longer than MAX_INPUT_CHARS."""
    if file is not None:
        return LimitError(f"{file} is longer than {_count(MAX_INPUT_CHARS)} bytes, the limit "
                          "for one expression or program",
                          hint="split the work into smaller expressions")
    return LimitError(f"the input is {_count(chars)} characters long; the limit is "
                      f"{_count(MAX_INPUT_CHARS)}",
                      hint="split the work into smaller expressions")


def too_many_tokens(span) -> LimitError:
    """The input has more than MAX_TOKENS tokens."""
    return LimitError(f"the input has more than {_count(MAX_TOKENS)} numbers, names and "
                      "operators; that is the limit", span=span,
                      hint="split the work into smaller expressions, or use vectors")


def too_deep(span) -> LimitError:
    """More than MAX_NESTING parentheses or brackets are open at once."""
    return LimitError(f"more than {_count(MAX_NESTING)} parentheses or brackets are open "
                      "at once here; that is the nesting limit", span=span,
                      hint="name intermediate results in a program (a = ...; b = ...)")


def quote(text: str) -> str:
    """Expression text for a message, shortened in the middle past MAX_QUOTE characters."""
    if len(text) <= MAX_QUOTE:
        return text
    head = MAX_QUOTE * 2 // 3
    return f"{text[:head]} … {text[-(MAX_QUOTE - head):]}"


class _More(str):
    """A 'N more warnings not shown' line that remembers N."""

    count = 0


def more_warnings(count: int) -> str:
    """The line that stands for warnings past MAX_WARNINGS."""
    line = _More(f"{count:,} more warning{'s' if count != 1 else ''} not shown")
    line.count = count
    return line


def cap_warnings(messages) -> list:
    """At most MAX_WARNINGS messages, everything else counted in one last line."""
    shown, hidden = [], 0
    for m in messages:
        if isinstance(m, _More):
            hidden += m.count
        elif len(shown) < MAX_WARNINGS:
            shown.append(m)
        else:
            hidden += 1
    return shown + [more_warnings(hidden)] if hidden else shown


def check_elements(count: int, what: str = "the result") -> None:
    """Raise before building an array of more than MAX_ELEMENTS elements."""
    if count > MAX_ELEMENTS:
        raise LimitError(f"{what} would have {_count(count)} elements; the limit is "
                         f"{_count(MAX_ELEMENTS)}",
                         hint="use smaller vectors, or --points FILE for many points")


def check_row(chars: int, line: int, where: str) -> None:
    """Raise when one line of a data file is longer than MAX_ROW_CHARS (it is not read on)."""
    if chars > MAX_ROW_CHARS:
        raise LimitError(f"{where}: line {line} is longer than {_count(MAX_ROW_CHARS)} "
                         "characters, the limit for one row",
                         hint="is the file really CSV or JSON Lines, one point per line?")


def read_capped(path: str, label: str) -> bytes:
    """The bytes of a file (or stdin, '-'), refused beyond MAX_INPUT_CHARS without reading
    further (/dev/zero, a huge file). OSError is the caller's to word."""
    import sys
    if path == "-":
        data = sys.stdin.buffer.read(MAX_INPUT_CHARS + 1)
    else:
        with open(path, "rb") as fh:
            data = fh.read(MAX_INPUT_CHARS + 1)
    if len(data) > MAX_INPUT_CHARS:
        raise input_too_large(len(data), label)
    return data
