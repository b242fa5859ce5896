"""The options of `gradcli eval`, declared once: cli/ builds click options from them, launch.py parses argv by them.

Each record says what a user may type (the flags), where the value goes (the
parameter name), whether it takes a value, and what values are allowed. The
click application and the click-free fast path both read this table, so the
two cannot drift apart. An option several commands take (--at, --chunk) is
built by one function here, each command saying only what it means there.
The formats of -o are not here: they are those output/writers.py has a writer
for (formats_of), added by cli/ and launch.py. Imports nothing.
"""
from __future__ import annotations


class Option:
    """One command-line option. (A plain class: a dataclass costs a millisecond of eval's
    start-up to define.)"""

    __slots__ = ("flags", "dest", "help", "takes_value", "multiple", "choices", "int_range",
                 "metavar", "kind", "default", "required", "show_default")

    def __init__(self, flags: tuple, dest: str, help: str, takes_value: bool = True,
                 multiple: bool = False, choices: tuple | None = None,
                 int_range: tuple | None = None, metavar: str | None = None,
                 kind: str = "text", default=None, required: bool = False,
                 show_default: bool = False):
        self.flags = flags              # ("-o", "--format")
        self.dest = dest                # the parameter the value is passed as
        self.help = help
        self.takes_value = takes_value
        self.multiple = multiple
        self.choices = choices          # allowed values
        self.int_range = int_range      # (low, high), inclusive (None: open): an integer option
        self.metavar = metavar
        self.kind = kind                # "text", "int" or "float": what the value is read as
        self.default = default
        self.required = required
        self.show_default = show_default

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


AT_METAVAR = "NAME=VALUE,..."
AT_HELP = "Bind inputs (repeatable). VALUE is a constant expression: 3, -1e-3, pi/4."


def at(help: str = AT_HELP) -> Option:
    """--at NAME=VALUE,... (repeatable): the point, for every command that takes one."""
    return Option(("--at",), "at", help, multiple=True, metavar=AT_METAVAR)


CHUNK = Option(("--chunk",), "chunk_rows", CHUNK_HELP, int_range=CHUNK_RANGE, metavar="N")


def output_options(formats) -> tuple:
    """-o/--format (one of `formats`), --precision and --debug: every command that prints."""
    return (Option(("-o", "--format"), "fmt", FORMAT_HELP, choices=tuple(formats)),
            Option(("--precision",), "precision", PRECISION_HELP, int_range=(1, 17),
                   metavar="N"),
            Option(("--debug",), "debug", DEBUG_HELP, takes_value=False))


# The kinds of result eval prints (output/writers.py): its -o offers their formats.
EVAL_KINDS = ("eval", "eval-direction", "eval-points")

EVAL = (
    at(),
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
    CHUNK,
    Option(("--output",), "output", OUTPUT_HELP, metavar="FILE"),
)

# What launch.py answers without click: these options of EVAL (and -o, --precision), in
# these formats.
FAST_DESTS = frozenset({"at", "wrt", "show_all", "fmt", "precision"})
FAST_FORMATS = ("plain", "json", "csv")


# ---------------------------------------------------------------- the other commands
# Options that several commands share, with the same meaning, are declared once here.


WRT = Option(("--wrt",), "wrt",
           "Only these inputs get gradients.",
           metavar="A,B")


CHECK = (
    at("The point (repeatable). Optional when only --derivative answers are given."),
    Option(("--value",), "value",
           "Your value of the expression.",
           metavar="V"),
    Option(("--grad",), "grad",
           "Your partial derivatives at the point (repeatable).",
           multiple=True, metavar="NAME=V,..."),
    Option(("--derivative",), "derivative",
           "Your symbolic derivative (repeatable); the i-th goes with the i-th --wrt.",
           multiple=True, metavar="FORMULA"),
    Option(("--wrt",), "wrt",
           "The variable of each --derivative, in order (repeat it, or list: --wrt w,x). "
           "Optional when the expression has one variable.",
           multiple=True, metavar="NAME"),
    Option(("--rtol",), "rtol",
           "Relative tolerance: right when |answer - expected| <= atol + "
           "rtol*|expected|. Default 1e-6. Given, it overrides the digits rule.",
           kind="float", metavar="R"),
    Option(("--atol",), "atol",
           "Absolute tolerance. Default 1e-9. Given, it overrides the digits rule.",
           kind="float", metavar="A"),
    Option(("--points",), "points",
           "Check at every row of FILE (CSV with a header, or JSON Lines; '-' for "
           "stdin). Answers may be columns: value (or f) and grad_NAME (or df/dNAME).",
           metavar="FILE"),
    CHUNK,
    Option(("--tangent",), "tangent",
           "Your tangent line or plane at --at: z = ... (y = ... for one variable), "
           "any linear equation in z, or the right-hand side alone.",
           metavar="EQUATION"),
    Option(("--directional",), "directional",
           "Your directional derivative at --at along --direction.",
           metavar="V"),
    Option(("--direction",), "direction",
           "The direction of --directional, one number per input in the order of "
           "--at, or named (x=3,y=4); normalised, as eval --direction does.",
           metavar="A,B,..."),
    Option(("--critical",), "critical",
           'Your critical points and their kinds in the box --over: "(0,0) saddle; '
           '(1,1) min" (coordinates in the order of --over; or "none").',
           metavar="POINTS"),
    Option(("--over",), "over",
           "The box gradcli searches for the critical points of --critical; the interval "
           "of a curve analysis (open) or of --abs-max/--abs-min (closed).",
           metavar="NAME=LOW:HIGH,..."),
    Option(("--taylor",), "taylor",
           "Your Taylor polynomial about --at, of degree --order.",
           metavar="POLYNOMIAL"),
    Option(("--order",), "order",
           "The order of the Taylor polynomial of --taylor.",
           int_range=(0, 20), metavar="N"),
    Option(("--implicit",), "implicit",
           "Your dy/dx for the curve EXPR (an equation F = G), as a formula in x and "
           "y; --wrt names x when the equation has other variables.",
           metavar="FORMULA"),
    Option(("--of",), "of",
           "With --implicit: the dependent variable (default: the other one).",
           metavar="Y"),
    Option(("--newton",), "newton",
           'Your Newton iterates x1, x2, ... from x0 given with --at: "1.3333333, 1.2638889".',
           metavar="X1,X2,..."),
    Option(("--roots",), "roots",
           'Your roots of EXPR = 0 in the range --over x=A:B: "-1.414, 1.414" (or "none").',
           metavar="R1,R2,..."),
    Option(("--mvt",), "mvt",
           'Every c of the mean value theorem on --over x=A:B: "c = 1 and c = 3", '
           '"c = ±2/sqrt(3)", or "does not apply".',
           metavar="ANSWER"),
    Option(("--normal",), "normal",
           "Your normal line to y = f(x) at --at: y = ..., x = a, or any linear equation; "
           'to a surface: "(x, y, z) = (1, 2, 5) + t(2, 4, -1)", the symmetric '
           "equations, or the direction alone.",
           metavar="EQUATION"),
) + (
    Option(("--div",), "div",
           "Your divergence of the field [P, Q, R] (with --at: its value there).",
           metavar="FORMULA"),
    Option(("--curl",), "curl",
           'Your curl: "[..., ..., ...]", or one formula for a field [P, Q].',
           metavar="FORMULA"),
    Option(("--laplacian",), "laplacian",
           "Your Laplacian of EXPR (with --at: its value there).",
           metavar="FORMULA"),
    Option(("--jacobian-det",), "jacobian_det",
           "Your Jacobian determinant of the map [u, v] (or 3 by 3).",
           metavar="FORMULA"),
    Option(("--partial",), "partial",
           'Your higher or mixed partial: "xyy = 12xy" (repeatable; with --at a number '
           "is its value there).",
           multiple=True, metavar="LETTERS=FORMULA"),
    *(Option((f"--{name}",), name.replace("-", "_"), f"Your {what} (as gradcli analyze "
             "computes it, on --over's open interval if given); 'none' for none.",
             metavar=metavar)
      for name, what, metavar in (
          ("increasing", "intervals where f increases: \"(-inf, -1) U (1, inf)\"",
           "INTERVALS"),
          ("decreasing", "intervals where f decreases", "INTERVALS"),
          ("relative-max", "relative maxima: \"x = -1\", \"-1 and 2\" or \"(-1, 2)\"",
           "POINTS"),
          ("relative-min", "relative minima", "POINTS"),
          ("concave-up", "intervals where f is concave up", "INTERVALS"),
          ("concave-down", "intervals where f is concave down", "INTERVALS"),
          ("inflection", "inflection points: \"x = 0\"", "POINTS"))),
    Option(("--abs-max",), "abs_max",
           "Your absolute maximum on the closed interval --over x=A:B: \"5 at x = 3\" "
           "(the value, the point or both; several points joined by 'and'); on a "
           "rectangle --over, a region --where or a constraint --subject-to: "
           "\"9 at (1, 2) and (-1, 2)\".",
           metavar="ANSWER"),
    Option(("--abs-min",), "abs_min",
           "Your absolute minimum on --over x=A:B: \"-4 at x = 1\".",
           metavar="ANSWER"),
    Option(("--where",), "where",
           "With --abs-max/--abs-min: the closed region, as extrema --where reads it.",
           metavar="INEQUALITIES"),
    Option(("--subject-to",), "subject_to",
           "With --abs-max/--abs-min: a constraint, as extrema --subject-to reads it "
           "(repeatable).", multiple=True, metavar="EQUATION"),
    Option(("--with",), "with_",
           'With --derivative: the chain rule, "x = s cos t, y = s sin t"; your '
           "derivative in the parameters or in the book's mixed form.",
           metavar="NAME=FORMULA,..."),
)


TANGENT = (
    at("The point of tangency (every input)."),
    Option(("--estimate",), "estimate",
           "Also the linear approximation at this point, beside the true value.",
           metavar="NAME=VALUE,..."),
    Option(("--exact",), "exact",
           "Exact rational arithmetic where possible.",
           takes_value=False),
    Option(("--normal",), "normal",
           "The normal line instead (y = f(x): perpendicular to the tangent; x = a where "
           "f'(a) = 0).", takes_value=False),
)


TAYLOR = (
    at("The point to expand about (every input)."),
    Option(("--order",), "order",
           "The highest total degree.",
           int_range=(0, 20), default=2, show_default=True),
    Option(("--wrt",), "wrt",
           "Expand in these inputs only (the others fixed).",
           metavar="A,B"),
    Option(("--exact",), "exact",
           "Exact rational coefficients where possible.",
           takes_value=False),
)


CRITICAL = (
    Option(("--over",), "over",
           "The box to search: a range for every input (default: -5:5 for each, said in "
           "a note).", metavar="NAME=LOW:HIGH,..."),
    at("Values for parameters that are not searched."),
)



ANALYZE = (
    Option(("--over",), "over",
           "Study f on the open interval A < x < B (default: its whole domain); "
           "-inf and inf allowed.", metavar="x=A:B"),
    Option(("--steps",), "steps",
           "Show the method: f' with its zeros and undefined points, the sign charts of "
           "f' and f'', the tests' conclusions.", takes_value=False),
)


EXTREMA = (
    Option(("--over",), "over",
           "The closed interval A <= x <= B, or a rectangle x=A:B,y=C:D.",
           metavar="x=A:B[,y=C:D]"),
    Option(("--where",), "where",
           'A closed region of the plane bounded by lines and conics: "x^2 + y^2 <= 4" '
           'or "x >= 0, y >= 0, x + y <= 8".', metavar="INEQUALITIES"),
    Option(("--subject-to",), "subject_to",
           'A constraint "x^2 + y^2 = 1" (Lagrange multipliers); repeat for a second one.',
           multiple=True, metavar="EQUATION"),
    Option(("--steps",), "steps",
           "Show the method: the systems solved and the table of candidates.",
           takes_value=False),
)

IMPLICIT = (
    Option(("--wrt",), "wrt",
           "The independent variable (default: x, when the "
           "equation's variables are x and one other).",
           metavar="X"),
    Option(("--of",), "of",
           "The dependent variable (default: the equation's other variable).",
           metavar="Y"),
    at("Also the value of the derivative at this point of the curve."),
    Option(("--order",), "order",
           "1 for dy/dx, 2 for d²y/dx² (simplified with the curve's equation where that "
           "shortens it).", int_range=(1, 2), default=1, show_default=True),
)


MVT = (
    Option(("--over",), "over",
           "The closed interval [A, B] (exact: 0:pi, -1:8).",
           required=True, metavar="NAME=A:B"),
    Option(("--steps",), "steps",
           "Show the method: continuity, differentiability, the secant's slope and "
           "the equation solved.", takes_value=False),
)


NEWTON = (
    at("The starting point x0 (and values for other inputs): Newton's iteration table."),
    Option(("--over",), "over",
           "Without --at: find every root in this range (NAME=A:B), to --digits decimal "
           "places.", metavar="NAME=A:B"),
    Option(("--steps", "--iterations"), "steps",
           "The number of iterations (x1 ... xN); without it, iterate until two successive "
           "iterates agree to --digits decimal places.",
           int_range=(1, 100), metavar="N"),
    Option(("--digits",), "digits",
           "Decimal places of the iterates and roots, and of the stopping rule.",
           int_range=(0, 12), default=6, show_default=True, metavar="K"),
    Option(("--wrt",), "wrt",
           "The variable of f(x) = 0 when the expression has other inputs (given with --at).",
           metavar="X"),
)


REPL = (
    Option(("--no-history",), "no_history",
           "Keep no history file (the history of this session stays in memory).",
           takes_value=False),
)


DIFF = (
    Option(("--wrt",), "wrt",
           "Differentiate by these variables (default: all).",
           metavar="A,B"),
    Option(("--order",), "order",
           "Order of the derivatives: 2 gives every second partial (xx, xy, yy).",
           kind="int", default=1, show_default=True, metavar="N"),
    at("Also evaluate each derivative at this point (repeatable)."),
    Option(("--points",), "points",
           "Evaluate each derivative at every row of FILE (CSV with a header, "
           "JSON Lines, or with the data extra Parquet and Arrow IPC; '-' for "
           "stdin), vectorised, one output row per point.",
           metavar="FILE"),
    CHUNK,
    Option(("--steps",), "steps",
           "Show the derivation one rule at a time (sum, product, quotient, chain, "
           "...), then diff's answer.",
           takes_value=False),
    Option(("--output",), "output",
           OUTPUT_HELP,
           metavar="FILE"),
) + (
    Option(("--partial",), "partial",
           "A higher or mixed partial, its letters in the order of differentiation as the "
           "book's f_xyy (repeatable); longer names with commas: x1,x1,x2.",
           multiple=True, metavar="LETTERS"),
    Option(("--div",), "div",
           "The divergence of the field [P, Q, R] (variables --wrt, else x, y, z).",
           takes_value=False),
    Option(("--curl",), "curl",
           "The curl of the field [P, Q, R], or Q_x - P_y of [P, Q]; grad(f) is a field.",
           takes_value=False),
    Option(("--laplacian",), "laplacian",
           "The Laplacian f_xx + f_yy (+ f_zz) of EXPR.",
           takes_value=False),
    Option(("--jacobian-det",), "jacobian_det",
           "The Jacobian determinant of [x(u, v), y(u, v)] (or 3 by 3), variables --wrt.",
           takes_value=False),
    Option(("--with",), "with_",
           'The chain rule: the variables of EXPR as functions of parameters, '
           '"x = s cos t, y = s sin t"; --wrt names parameters, --at gives their values.',
           metavar="NAME=FORMULA,..."),
)


TRACE = (
    at(),
    WRT,
)


GRAPH = (
    at(),
    WRT,
    Option(("--output",), "output",
           "Write the graph to FILE: .svg, .png or .pdf (drawn by Graphviz's dot), "
           ".dot/.gv, .mmd (Mermaid) or .json.",
           metavar="FILE"),
)


DESCEND = (
    at("Starting values of the parameters (repeatable)."),
    Option(("--lr",), "lr",
           "Learning rate (a positive number).",
           required=True, metavar="R"),
    Option(("--steps",), "steps",
           "Number of steps (epochs).",
           kind="int", required=True, metavar="N"),
    Option(("--wrt",), "wrt",
           "Parameters to train (default: the --at inputs that are not data columns).",
           metavar="A,B"),
    Option(("--data",), "data_file",
           "CSV with a header row (or JSON Lines); each column becomes a vector input "
           "('-' for stdin).",
           metavar="FILE"),
    Option(("--tol",), "tol",
           "Stop when the gradient norm falls below T.",
           metavar="T"),
    Option(("--momentum",), "momentum",
           "Momentum, as torch.optim.SGD applies it.",
           default="0", show_default=True, metavar="M"),
    Option(("--every",), "every",
           "Print every K-th step (default: about 10 rows; json/csv: every step).",
           int_range=(1, None), metavar="K"),
    Option(("--round",), "decimals",
           "Round losses and parameters to D decimals in the output.",
           int_range=(0, 17), metavar="D"),
)


PLOT = (
    Option(("--over",), "over",
           "The variable and its range, e.g. x=-3:3 or t=0:2*pi; two ranges "
           "(x=-2:2,y=-2:2) draw a contour map of f(x, y).",
           required=True, metavar="NAME=A:B[,NAME=C:D]"),
    at("Values of the other inputs (repeatable); with two ranges, values of "
       "both plotted names mark that point, its gradient and its level curve."),
    Option(("--points",), "points",
           "Number of evenly spaced sample points (default 201); with two ranges, "
           "per axis (default 81).",
           kind="int", metavar="N"),
    Option(("--output",), "output",
           "Write a PNG or SVG (needs matplotlib) instead of drawing in the terminal.",
           metavar="FILE.png|FILE.svg"),
    Option(("--width",), "width",
           "Width: terminal columns (default: the terminal's), or pixels for --output "
           "(default 800).",
           int_range=(20, 10000), metavar="W"),
    Option(("--height",), "height",
           "Height: terminal rows (default: fits the terminal), or pixels for --output "
           "(default 600; 700 for a contour map).",
           int_range=(10, 10000), metavar="H"),
)


def plot_output_options(formats) -> tuple:
    """plot's -o: "plot" draws (the task's picture), the others print the samples; --debug."""
    return (Option(("-o", "--format"), "fmt",
                   "Draw the plot, or print the samples as JSON or CSV.",
                   choices=("plot", *formats), default="plot", show_default=True),
            Option(("--debug",), "debug", DEBUG_HELP, takes_value=False))
