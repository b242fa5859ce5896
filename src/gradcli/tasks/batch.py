"""The --points task of eval and diff: a program (or each derivative) at every row of a points file.

Over the batch path of data/ (data/run.py reads the file in chunks and
evaluates one graph per chunk); output/points.py prints the rows as they come.

``run(program, source, bindings=None, wrt=None, chunk_rows=CHUNK_ROWS) -> BatchRun``
    Reader and evaluation together: iterate it for `(chunk, result)` pairs;
    `.inputs`, `.names`, and when done `.bad_rows`, `.undefined_rows` and
    `.exit_code` (2 if any row could not be read, else 3 if any was undefined,
    else 0). `diff --at --points` and `check --points` call this.

``diff_run(text, source, wrt=None, order=1, bindings=None, chunk_rows=CHUNK_ROWS) -> DiffRun``
    `diff --points`: like `run`, but each result's `gradient` maps every
    derivative's key ("w", "x,y") to its values at the chunk's rows. First
    derivatives are the engine's gradient from the same pass as `run`; higher
    ones evaluate each printed derivative program with `evaluate_arrays` on the
    rows where the expression is defined. `.derivatives` are symbolic's
    Derivative records, `.result_name` the expression's name.
"""
from __future__ import annotations

import numpy as np

from ..data.evaluate import ArrayResult, evaluate_arrays
from ..data.run import BatchRun
from ..data.sources import CHUNK_ROWS, column_names
from ..reading import given_names, read_program
from ..language.printer import diff_label
from ..symbolic.derivative import check_order, differentiate, program_source


def points_program(text: str, source, bindings=None, wrt=None):
    """The program of `text` for a points file: its column names are inputs, not unknowns."""
    return read_program(text, given_names(bindings, wrt, column_names(source)))


def run(program, source, bindings=None, wrt=None, chunk_rows: int = CHUNK_ROWS) -> BatchRun:
    """Evaluate every row of a points file in chunks (see the module doc)."""
    return BatchRun(program, source, bindings, wrt, chunk_rows)


class DiffRun:
    """A points file with every symbolic derivative of `order` evaluated at each row."""

    def __init__(self, text, source, wrt=None, order=1, bindings=None,
                 chunk_rows=CHUNK_ROWS):
        check_order(order)
        found = differentiate(text, wrt, order)
        self.derivatives = found.derivatives
        self.result_name = found.result_name
        self.order = order
        variables = found.variables
        wanted = sorted({v for d in self.derivatives for v in d.wrt}, key=variables.index)
        self.batch = BatchRun(found.program, source, bindings, wanted, chunk_rows)
        for d in self.derivatives:
            if len(d.wrt) > 1:
                d.program.source = program_source(d.program)
        self.reader, self.names = self.batch.reader, self.batch.names
        self.inputs, self.unused = self.batch.inputs, self.batch.unused
        self.columns_used = self.batch.columns_used
        self.extra_undefined = 0

    rows = property(lambda self: self.batch.rows)
    bad_rows = property(lambda self: self.batch.bad_rows)
    undefined_rows = property(lambda self: self.batch.undefined_rows + self.extra_undefined)

    @property
    def exit_code(self) -> int:
        return 2 if self.bad_rows else (3 if self.undefined_rows else 0)

    def __iter__(self):
        for chunk, result in self.batch:
            values = {}
            undefined = result.undefined.copy()
            problems = list(result.problems)
            for d in self.derivatives:
                if len(d.wrt) == 1:
                    values[d.key] = result.gradient[d.wrt[0]]
                    continue
                # Rows where the expression itself is undefined stay so, as with diff --at.
                index = np.flatnonzero(~(result.undefined | chunk.invalid))
                out = np.full(chunk.n, np.nan)
                if index.size:
                    sub = evaluate_arrays(d.program, {k: v[index] for k, v in
                                                      chunk.columns.items()},
                                          self.batch.bindings,
                                          row_numbers=chunk.first_row + index,
                                          n=index.size, gradient=False)
                    out[index] = sub.value
                    undefined[index[sub.undefined]] = True
                    what = diff_label(self.result_name, d.wrt)
                    problems += [(row, f"{what} is undefined: {message}")
                                 for row, message in sub.problems]
                values[d.key] = out
            self.extra_undefined += int(undefined.sum() - result.undefined.sum())
            problems.sort(key=lambda p: p[0])
            yield chunk, ArrayResult(result.value, values, undefined, problems, result.kinks)


def diff_run(text, source, wrt=None, order: int = 1, bindings=None,
             chunk_rows: int = CHUNK_ROWS) -> DiffRun:
    """Every derivative of `order` at every row of a points file (see the module doc)."""
    return DiffRun(text, source, wrt, order, bindings, chunk_rows)
