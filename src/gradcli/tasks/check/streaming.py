"""`check --points FILE`: answers checked at every row of a points file, chunk by chunk.

Every row of the file is a point, evaluated in vectorised chunks by the
batch run (data/run.py). An answer is a constant (`--value`, `--grad`, the same at
every row) or a column of the file: `value` (or the result's name, `f`) for the
value, `grad_w` (or `df/dw`) for the partial by w, so the CSV that `eval
--points` writes checks as all right. A `--derivative` formula is evaluated at
every row and compared with the engine's partial there. Each row's answers are
right, wrong, or unchecked (the row could not be read, or the expression is
undefined there); `PointsCheck.exit_code` is 2 for unreadable rows, else 1 for
any wrong answer, else 3 for undefined rows.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import UsageError
from ...inputs import inputs_of
from ...language.expr import Program
from ...limits import MAX_ROWS_SHOWN
from ...reading import given_names, read_program
from .formula import correct_formula, parse_answer
from .verdict import ATOL, FORMULA_RTOL_FLOOR, RTOL, Undefined, as_typed, check_pairs, \
    close_each, known_variable, number_or_why, pairs_of


@dataclass
class PointAnswer:
    """One answer checked at every row of a points file: where it comes from and its tally."""

    kind: str                  # "value", "gradient" or "derivative"
    name: str                  # the result name for a value, else the variable
    answer: str                # the constant or formula as given, or "column NAME"
    column: str | None = None  # the file's column holding it, if any
    constant: object = None    # the number, for a constant numeric answer
    program: Program | None = None  # the formula, for a derivative
    right: int = 0
    wrong: int = 0
    skipped: int = 0  # rows left out: the formula or the true derivative is undefined there
    wrong_rows: list = field(default_factory=list)  # the first MAX_ROWS_SHOWN
    skipped_rows: list = field(default_factory=list)
    first_wrong: tuple | None = None  # (row, given, expected)
    correct: str | None = None        # the correct formula, for a wrong derivative

    @property
    def ok(self) -> bool:
        # As check() says of a formula undefined wherever the derivative is defined: wrong.
        return self.wrong == 0 and not (self.right == 0 and self.skipped)


@dataclass
class CheckedChunk:
    """The answers at the rows of one chunk: given, expected and right per row."""

    chunk: object
    result: object
    given: list       # per answer: an array of the answers (a formula's values)
    expected: list    # per answer: an array of the correct numbers
    ok: list          # per answer: a bool array
    checked: object   # bool array: rows that could be read and where the expression is defined
    compared: list    # per answer: a bool array, checked rows where both sides are defined


def answer_columns(names, variables, result_name: str = "f") -> dict:
    """{(kind, name): column} for the answer columns among `names` (see the module doc)."""
    found = {}
    for column in names:
        if column in variables:
            continue  # an input, never an answer
        key = None
        if column in ("value", result_name):
            key = ("value", result_name)
        elif column.startswith("grad_") or column.startswith(f"d{result_name}/d"):
            name = column[5:] if column.startswith("grad_") else column[len(result_name) + 3:]
            if name not in variables:
                listed = ", ".join(variables) or "none"
                raise UsageError(f"--points: column '{column}' would be the answer for the "
                                 f"partial by '{name}', but the expression has no variable "
                                 f"'{name}'", hint=f"its variables are: {listed}")
            key = ("gradient", name)
        if key is None:
            continue
        if key in found:
            raise UsageError(f"--points: columns '{found[key]}' and '{column}' both answer "
                             f"{'the value' if key[0] == 'value' else 'd/d' + key[1]}",
                             hint="keep one of them")
        found[key] = column
    return found


def _defined_number(answer, what: str):
    """number_answer for a constant checked at every row: an undefined one is bad input."""
    got = number_or_why(answer, what)
    if isinstance(got, Undefined):
        raise UsageError(f"the answer {what} is undefined: {got.why}",
                         hint="a numeric answer is a number such as 28, 1/3 or pi/4")
    return got


class PointsCheck:
    """Answers checked at every row of a points file; iterate for CheckedChunk."""

    def __init__(self, text, source, at=None, value=None, grad=None, derivatives=None,
                 rtol: float = RTOL, atol: float = ATOL, chunk_rows=None):
        from ...data.run import CHUNK_ROWS, BatchRun
        if rtol < 0 or atol < 0:
            raise UsageError("--rtol and --atol must be zero or positive")
        self.text, self.rtol, self.atol = text, rtol, atol
        program = read_program(text, given_names(at, grad, [v for v, _ in pairs_of(derivatives)]))
        variables = inputs_of(program)
        f = program.statements[-1].name or "f"
        self.result_name = f
        pairs = pairs_of(derivatives)
        grad = dict(grad or {})
        for name in grad:
            if name in program.defined:
                raise UsageError(f"--grad {name}: with --points only the partials by the "
                                 f"inputs are checked, and '{name}' is defined by the program",
                                 hint="check it at one point with --at")
            known_variable(name, "--grad", variables, ())
        check_pairs(pairs, variables)
        answers = []
        if value is not None:
            answers.append(PointAnswer("value", f, as_typed(value),
                                       constant=_defined_number(value, "--value")))
        for name, given in grad.items():
            answers.append(PointAnswer("gradient", name, as_typed(given),
                                       constant=_defined_number(given, f"--grad {name}")))
        for name, formula in pairs:
            answers.append(PointAnswer("derivative", name, formula.strip(),
                                       program=parse_answer(formula, program, variables,
                                                            f"∂{f}/∂{name}")))
        self.job = BatchRun(program, source, at, None, chunk_rows or CHUNK_ROWS)
        columns = answer_columns(self.job.names, variables, f)
        for a in answers:
            if a.kind != "derivative" and (a.kind, a.name) in columns:
                option = "--value" if a.kind == "value" else f"--grad {a.name}"
                raise UsageError(f"{option} is given both on the command line and as column "
                                 f"'{columns[(a.kind, a.name)]}' of {self.job.reader.label}",
                                 hint="keep one of them")
        for (kind, name), column in columns.items():
            answers.append(PointAnswer(kind, name, f"column {column}", column=column))
        if not answers:
            raise UsageError("nothing to check: give --value, --grad or --derivative, or "
                             f"answer columns in {self.job.reader.label}",
                             hint="answer columns are named value and grad_NAME (or f and "
                                  "df/dNAME, as eval --points writes them)")
        order = {"value": 0, "gradient": 1, "derivative": 2}
        answers.sort(key=lambda a: (order[a.kind], variables.index(a.name)
                                    if a.kind != "value" else 0))
        self.answers = answers
        self.program = program
        self.columns_used = self.job.columns_used
        self.job.reader.needed = self.columns_used + [a.column for a in answers if a.column]
        self.job.unused = [c for c in self.job.unused if c not in columns.values()]
        self.reader, self.unused = self.job.reader, self.job.unused
        self.warnings = list(program.warnings)
        from .heard import answer_warning
        self.warnings += [answer_warning(f"for d/d{a.name}", w) for a in answers
                          if a.program is not None for w in a.program.warnings]

    rows = property(lambda self: self.job.rows)
    bad_rows = property(lambda self: self.job.bad_rows)
    undefined_rows = property(lambda self: self.job.undefined_rows)

    @property
    def ok(self) -> bool:
        # A file of no rows checks nothing, which is no pass.
        return self.rows > 0 and all(a.ok for a in self.answers)

    @property
    def exit_code(self) -> int:
        if self.bad_rows or not self.rows:
            return 2
        return 1 if not self.ok else (3 if self.undefined_rows else 0)

    def __iter__(self):
        import numpy as np

        from ...data.evaluate import evaluate_arrays
        for chunk, result in self.job:
            checked = ~(chunk.invalid | result.undefined)
            index = np.flatnonzero(checked)
            given, expected, oks, compared = [], [], [], []
            for a in self.answers:
                if a.kind == "value":
                    truth = result.value
                else:
                    truth = result.gradient[a.name]
                rtol = self.rtol
                both = checked
                if a.column is not None:
                    mine = chunk.columns[a.column]
                elif a.program is None:
                    mine = np.full(chunk.n, float(a.constant))
                else:
                    mine = np.full(chunk.n, np.nan)
                    if index.size:
                        sub = evaluate_arrays(a.program, {k: v[index] for k, v in
                                                          chunk.columns.items()},
                                              self.job.bindings, n=index.size,
                                              row_numbers=chunk.first_row + index,
                                              gradient=False)
                        mine[index] = sub.value
                        # As check() does: compare where both the formula and the derivative
                        # are defined; report the rest.
                        answer_defined = np.zeros(chunk.n, dtype=bool)
                        answer_defined[index[~sub.undefined]] = True
                        both = checked & answer_defined & np.isfinite(truth)
                    else:
                        both = checked & False
                    rtol = max(rtol, FORMULA_RTOL_FLOOR)
                    skipped = chunk.first_row + np.flatnonzero(checked & ~both)
                    a.skipped += skipped.size
                    room = MAX_ROWS_SHOWN - len(a.skipped_rows)
                    a.skipped_rows.extend(int(r) for r in skipped[:max(room, 0)])
                ok = close_each(mine, truth, rtol, self.atol) & both
                wrong = both & ~ok
                a.right += int(ok.sum())
                a.wrong += int(wrong.sum())
                rows = chunk.first_row + np.flatnonzero(wrong)
                if rows.size and a.first_wrong is None:
                    i = int(rows[0]) - chunk.first_row
                    a.first_wrong = (int(rows[0]), float(mine[i]), float(truth[i]))
                room = MAX_ROWS_SHOWN - len(a.wrong_rows)
                a.wrong_rows.extend(int(r) for r in rows[:max(room, 0)])
                given.append(mine)
                expected.append(truth)
                oks.append(ok)
                compared.append(both)
            if any(not a.ok and a.kind == "derivative" and a.correct is None
                   for a in self.answers):
                for a in self.answers:
                    if not a.ok and a.kind == "derivative" and a.correct is None:
                        a.correct = correct_formula(self.text, a.name)
            yield CheckedChunk(chunk, result, given, expected, oks, checked, compared)


def check_points(text, source, at=None, value=None, grad=None, derivatives=None,
                 rtol: float = RTOL, atol: float = ATOL, chunk_rows=None) -> PointsCheck:
    """Check answers at every row of a points file (see the module doc); iterate the result.

    >>> import io
    >>> run = check_points("x**2", io.BytesIO(b"x,grad_x\\n3,6\\n1,3\\n"))
    >>> [c.ok[0].tolist() for c in run], run.exit_code
    ([[True, False]], 1)
    """
    return PointsCheck(text, source, at, value, grad, derivatives, rtol, atol, chunk_rows)
