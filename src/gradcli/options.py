"""The options of `gradcli eval`, declared once: cli/ builds click options from them, launch.py parses argv by them.

Each record says what a user may type (the flags), where the value goes (the
parameter name), whether it takes a value, and what values are allowed. The
click application and the click-free fast path both read this table, so the
two cannot drift apart. Imports nothing.
"""
from __future__ import annotations


class Option:
    """One command-line option. (A plain class: a dataclass costs a millisecond of eval's
    start-up to define.)"""

    __slots__ = ("flags", "dest", "help", "takes_value", "multiple", "choices", "int_range",
                 "metavar")

    def __init__(self, flags: tuple, dest: str, help: str, takes_value: bool = True,
                 multiple: bool = False, choices: tuple | None = None,
                 int_range: tuple | None = None, metavar: str | None = None):
        self.flags = flags              # ("-o", "--format")
        self.dest = dest                # the parameter the value is passed as
        self.help = help
        self.takes_value = takes_value
        self.multiple = multiple
        self.choices = choices          # allowed values
        self.int_range = int_range      # (low, high), inclusive: an integer option
        self.metavar = metavar

    def __repr__(self) -> str:
        return f"Option({'/'.join(self.flags)} -> {self.dest})"


PRECISION_HELP = ("Round numbers to N significant digits (default: 6 in the formats people "
                  "read, table, markdown, latex and pictures; every digit in plain, json and "
                  "csv).")
FORMAT_HELP = "Output format (default: table on a terminal, plain when piped)."
DEBUG_HELP = "Show a Python traceback on errors."
CHUNK_HELP = "With --points: rows per vectorised pass (default 65536)."
CHUNK_RANGE = (1, 10_000_000)
OUTPUT_HELP = ("With --points: write the rows to FILE instead of stdout, as Parquet, Arrow IPC "
               "or CSV by its extension (.parquet, .arrow, .csv; Parquet and Arrow need "
               "pip install 'gradcli[data]').")


def output_options(formats) -> tuple:
    """-o/--format (one of `formats`), --precision and --debug: every command that prints."""
    return (Option(("-o", "--format"), "fmt", FORMAT_HELP, choices=tuple(formats)),
            Option(("--precision",), "precision", PRECISION_HELP, int_range=(1, 17),
                   metavar="N"),
            Option(("--debug",), "debug", DEBUG_HELP, takes_value=False))


EVAL_FORMATS = ("table", "plain", "json", "csv", "markdown", "latex")

EVAL = (
    Option(("--at",), "at",
           "Bind inputs (repeatable). VALUE is a constant expression: 3, -1e-3, pi/4.",
           multiple=True, metavar="NAME=VALUE,..."),
    Option(("--wrt",), "wrt", "Only these partial derivatives.", metavar="A,B"),
    Option(("--all",), "show_all", "Also the gradients of a program's intermediate names.",
           takes_value=False),
    Option(("--hessian",), "hessian", "Also the matrix of second partial derivatives.",
           takes_value=False),
    Option(("--exact",), "exact", "Exact rational arithmetic (prints fractions such as 3/4).",
           takes_value=False),
    Option(("--check",), "gradcheck", "Beside each partial, a central finite-difference "
           "estimate and the relative error.", takes_value=False),
    Option(("--seed",), "seed",
           "Upstream gradient for a non-scalar result (a vector-Jacobian product, as "
           "PyTorch's backward(gradient=...)), e.g. --seed '[1,0,2]' (quoted: zsh globs "
           "brackets).", metavar="VALUE"),
    Option(("--jacobian",), "jacobian",
           "The full Jacobian of a (non-scalar) result: rows are its elements.",
           takes_value=False),
    Option(("--direction",), "direction",
           "Also the directional derivative D_u f along this direction (normalised to a unit "
           "vector u; one number per input in the order of --at, or named: x=3,y=4), the "
           "direction of steepest ascent and its rate |grad f|.", metavar="A,B,..."),
    Option(("--points",), "points",
           "Evaluate at every row of FILE (CSV with a header, JSON Lines, or with the data "
           "extra Parquet and Arrow IPC; '-' for stdin), vectorised, one output row per "
           "point.", metavar="FILE"),
    Option(("--chunk",), "chunk_rows", CHUNK_HELP, int_range=CHUNK_RANGE, metavar="N"),
    Option(("--output",), "output", OUTPUT_HELP, metavar="FILE"),
) + output_options(EVAL_FORMATS)

# What launch.py answers without click: these options of EVAL, in these formats.
FAST_DESTS = frozenset({"at", "wrt", "show_all", "fmt", "precision"})
FAST_FORMATS = ("plain", "json", "csv")
