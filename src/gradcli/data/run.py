"""The batch run: a points file read chunk by chunk, each chunk evaluated, counted as it goes.

data/sources.py reads the chunks, data/evaluate.py evaluates each one; the run
checks the expression against the file's columns first (a missing column, a
name both a column and bound with --at), leaves unreadable rows nan and counts
them and the undefined ones for the exit code. tasks/batch.py (eval and diff
--points) and tasks/check/streaming.py (check --points) build on it; what prints
the rows (output/points.py) or writes them to a file (data/sinks.py) takes the
(chunk, result) pairs it yields.

``BatchRun(program, source, bindings=None, wrt=None, chunk_rows=CHUNK_ROWS)``
    Iterate it for `(chunk, result)` pairs: `chunk` a PointChunk
    (data/chunk.py), `result` an ArrayResult (data/evaluate.py). `.names` are
    the file's columns, `.columns_used` those the expression reads, `.unused`
    the others, `.wanted` the inputs differentiated; when done, `.rows`,
    `.bad_rows`, `.undefined_rows` and `.exit_code` (2 if any row could not be
    read, else 3 if any was undefined, else 0).
"""
from __future__ import annotations

import numpy as np

from ..errors import UsageError
from ..inputs import check_wrt, inputs_of
from ..reading import given_names, read_program
from .evaluate import ArrayResult, elementwise_check, evaluate_arrays
from .sources import CHUNK_ROWS, read_points


class BatchRun:
    """A points file evaluated chunk by chunk; iterate for (chunk, result) pairs."""

    def __init__(self, program, source, bindings=None, wrt=None, chunk_rows=CHUNK_ROWS):
        self.program = read_program(program, given_names(bindings, wrt)) \
            if isinstance(program, str) else program
        self.bindings = dict(bindings or {})
        elementwise_check(self.program, self.bindings)
        variables = inputs_of(self.program)
        self.wanted = check_wrt(wrt, variables)
        self.reader = read_points(source, chunk_rows)
        self.names = self.reader.names
        for name in self.bindings:
            if name in self.names:
                raise UsageError(f"'{name}' is both a column of {self.reader.label} and "
                                 f"bound with --at", hint=f"drop --at {name}=... or the column")
        missing = [v for v in variables if v not in self.names and v not in self.bindings]
        if missing:
            listed = ", ".join(self.names) or "none"
            raise UsageError(f"--points: {self.reader.label} has no column '{missing[0]}'",
                             hint=f"its columns are: {listed}; or bind --at "
                                  f"{missing[0]}=VALUE for every row")
        self.inputs = variables
        self.columns_used = [v for v in variables if v in self.names]
        self.unused = [c for c in self.names if c not in variables]
        self.reader.needed = self.columns_used
        self.bad_rows = 0
        self.undefined_rows = 0
        self.rows = 0

    def __iter__(self):
        try:
            for chunk in self.reader:
                valid = ~chunk.invalid
                result = _evaluate_valid(self, chunk, valid)
                self.rows += chunk.n
                self.bad_rows += int(chunk.invalid.sum())
                self.undefined_rows += int(result.undefined.sum())
                yield chunk, result
        finally:
            self.reader.close()

    @property
    def exit_code(self) -> int:
        return 2 if self.bad_rows else (3 if self.undefined_rows else 0)


def _evaluate_valid(run, chunk, valid) -> ArrayResult:
    """Evaluate the readable rows of a chunk; unreadable ones stay nan."""
    if valid.all():
        return evaluate_arrays(run.program, chunk.columns, run.bindings, run.wanted,
                               chunk.first_row, n=chunk.n)
    n = chunk.n
    value = np.full(n, np.nan)
    gradient = {name: np.full(n, np.nan) for name in run.wanted}
    undefined = np.zeros(n, dtype=bool)
    problems, kinks = [], []
    index = np.flatnonzero(valid)
    if index.size:
        sub = evaluate_arrays(run.program, {k: v[index] for k, v in chunk.columns.items()},
                              run.bindings, run.wanted, row_numbers=chunk.first_row + index,
                              n=index.size)
        value[index] = sub.value
        for name in run.wanted:
            gradient[name][index] = sub.gradient[name]
        undefined[index] = sub.undefined
        problems, kinks = sub.problems, sub.kinks
    return ArrayResult(value, gradient, undefined, problems, kinks)
