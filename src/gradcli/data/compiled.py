"""`gradcli.compile(text, **bindings)`: an expression as a picklable function of a DataFrame.

The function takes a pandas DataFrame (or a mapping of names to arrays) and
returns a DataFrame with the columns of `gradcli eval --points FILE -o csv`:
the columns the expression uses, its value (`f`, or the program's result
name), then `df/dx` for every input. Inputs come from the frame's columns or
from the keyword bindings given to compile (numbers, or constant expressions
as text: `compile("(w*x+b)**2", w=3, b="1/2")`), as `--at` binds them on the
command line. The work is one vectorised pass per call, the same as a chunk
of `--points`: for a Dask DataFrame, `ddf.map_partitions(f, meta=f.meta(ddf.columns))`
runs it partition by partition, on any scheduler (docs/data.md, docs/dask.md).

Rows whose value is undefined are nan, with a RuntimeWarning naming their row
(numbered from 1 within the frame given); other rows are unaffected.

Pickling keeps only the text and the bindings; each process parses the text
again the first time it is called (once per set of column names).
"""
from __future__ import annotations

import warnings

import numpy as np

from ..columntext import batch_keys
from ..errors import UsageError
from ..inputs import constant_value, inputs_of
from ..limits import MAX_MESSAGES
from ..reading import given_names, read_program
from .evaluate import elementwise_check, evaluate_arrays


class _Shape:
    """What batch_keys reads of a run: the columns used and the inputs differentiated."""

    def __init__(self, columns_used, wanted):
        self.columns_used, self.wanted = columns_used, wanted


class Compiled:
    """A compiled expression (see the module doc); call it on a DataFrame."""

    def __init__(self, text: str, bindings: dict):
        if not isinstance(text, str):
            raise TypeError(f"gradcli.compile expects the expression as text, got "
                            f"{type(text).__name__}")
        self.text = text
        self.bindings = {}
        for name, value in bindings.items():
            if isinstance(value, str):
                value = constant_value(value, f"{name}=")
            if np.ndim(value) != 0:
                raise UsageError(f"{name}: every bound value must be a number (each row is "
                                 "one point)")
            self.bindings[name] = float(value)
        self._programs = {}
        self._parse(())  # errors in the text show now, not in a worker later

    def _parse(self, columns: tuple):
        program = self._programs.get(columns)
        if program is None:
            program = read_program(self.text, given_names(self.bindings, columns))
            elementwise_check(program, self.bindings)
            self._programs[columns] = program
        return program

    def __getstate__(self):
        return {"text": self.text, "bindings": self.bindings}

    def __setstate__(self, state):
        self.text, self.bindings = state["text"], state["bindings"]
        self._programs = {}

    def __repr__(self) -> str:
        bound = "".join(f", {k}={v!r}" for k, v in self.bindings.items())
        return f"gradcli.compile({self.text!r}{bound})"

    def columns(self, names) -> list:
        """The output column names for input columns `names` (what the call returns)."""
        names = [str(n) for n in names]
        program = self._parse(tuple(names))
        used, wanted, _ = self._inputs(program, names)
        return batch_keys(_Shape(used, wanted), program.statements[-1].name or "f")

    def meta(self, names):
        """An empty DataFrame with the columns (float64) a call on a frame with columns
        `names` returns: Dask's `map_partitions(f, meta=f.meta(ddf.columns))` then knows
        the result without a trial call on made-up rows."""
        pd = _pandas()
        return pd.DataFrame({key: np.empty(0) for key in self.columns(names)})

    def _inputs(self, program, names):
        variables = inputs_of(program)
        present = set(names)
        for name in self.bindings:
            if name in present:
                raise UsageError(f"'{name}' is both a column and bound by a keyword argument",
                                 hint=f"drop {name}=... or the column")
        missing = [v for v in variables if v not in present and v not in self.bindings]
        if missing:
            listed = ", ".join(map(str, names)) or "none"
            raise UsageError(f"no column '{missing[0]}' and no value bound for it",
                             hint=f"the columns are: {listed}; or bind it: "
                                  f"gradcli.compile(..., {missing[0]}=VALUE)")
        used = [v for v in variables if v in present]
        return used, variables, variables

    def __call__(self, frame):
        pd = _pandas()
        if isinstance(frame, pd.DataFrame):
            names = [str(c) for c in frame.columns]
            index = frame.index
            get = frame.__getitem__
            keys = list(frame.columns)
        else:
            keys = list(frame)
            names = [str(k) for k in keys]
            index = None
            get = frame.__getitem__
        program = self._parse(tuple(names))
        used, wanted, variables = self._inputs(program, names)
        by_name = dict(zip(names, keys))
        columns = {}
        for name in used:
            try:
                columns[name] = np.asarray(get(by_name[name]), dtype=float)
            except (TypeError, ValueError):
                raise UsageError(f"column '{name}' does not hold numbers") from None
        n = len(index) if index is not None else (
            len(next(iter(columns.values()))) if columns else
            len(np.asarray(get(keys[0]))) if keys else 0)
        result_name = program.statements[-1].name or "f"
        keys_out = batch_keys(_Shape(used, wanted), result_name)
        if n == 0:
            out = {k: np.empty(0) for k in keys_out}
        else:
            result = evaluate_arrays(program, columns, self.bindings, wanted, n=n)
            values = [columns[c] for c in used] + [result.value] + \
                [result.gradient[v] for v in wanted]
            out = dict(zip(keys_out, values))
            _warn(result)
        return pd.DataFrame(out, index=index, columns=keys_out)


def _warn(result) -> None:
    problems = result.problems
    for row, message in problems[:MAX_MESSAGES]:
        warnings.warn(f"row {row}: {message}", RuntimeWarning, stacklevel=3)
    if len(problems) > MAX_MESSAGES:
        warnings.warn(f"... and {len(problems) - MAX_MESSAGES} more undefined rows (nan)",
                      RuntimeWarning, stacklevel=3)


def _pandas():
    try:
        import pandas
    except ImportError:
        raise UsageError("gradcli.compile returns a pandas DataFrame, and pandas is not "
                         "installed", hint="install the data extra: "
                                           "pip install 'gradcli[data]'") from None
    return pandas


def compile(text: str, /, **bindings) -> Compiled:  # noqa: A001 (gradcli.compile by name)
    """`text` as a picklable function of a DataFrame (see the module doc)."""
    return Compiled(text, bindings)
