"""Many points at once: point files read in chunks, and one graph evaluated over arrays of points.

A batch is a file of points (CSV with a header row, or JSON Lines; "-" is
stdin): each row is one point, each column an input. Rows are read in chunks;
each chunk is one pass through the graph with every input a vector of that
chunk's values (never one graph per row), so memory stays bounded for any file
size. A row whose value is undefined becomes nan with a message naming its row;
the other rows of its chunk are evaluated again without it (the engine's
DomainError carries the mask of failing elements). A row that cannot be read (a
missing column, text in a number column) is reported with its row and column
and is nan as well.

The helper layer under every task that evaluates many points (batch, check
--points, plot, descend --data):

``evaluate_arrays(program, columns, bindings=None, wrt=None, first_row=1) -> ArrayResult``
    One vectorised evaluation. `columns` maps input names to 1-D float arrays of
    equal length n (one element per point); `bindings` maps further inputs to
    numbers shared by every point. Returns `ArrayResult` with `value` (n,),
    `gradient` {name: (n,)} per point for every input in `wrt` (default: all
    inputs, in order of first appearance), `undefined` (a bool mask of rows
    that are nan), `problems` [(row, message)] with rows numbered from
    `first_row`, and `kinks` [message]. Raises UsageError when the expression
    is not element-wise (a reduction or a vector literal would mix points).
    `plot` uses it on a grid of x values.

``BatchRun(program, source, bindings=None, wrt=None, chunk_rows=CHUNK_ROWS)``
    Reader and evaluation together (see batch.run, which returns one).

``read_points(source, chunk_rows=CHUNK_ROWS) -> PointReader``
    Iterates `PointChunk(first_row, n, columns, invalid, problems)` over the file
    (a path, "-" or a binary file object); `.names` are the columns,
    `.bytes_read` / `.total_bytes` serve a progress bar. `chunk.invalid` marks
    unreadable rows (their values are nan); `chunk.problems` say why.

``read_columns(source) -> dict[str, array]``
    The whole file as one float vector per column (for `descend --data`, which
    trains on all the rows at once); an unreadable row is a UsageError.
"""
from __future__ import annotations

import csv
import io
import json
import os
import stat
import sys
from collections import deque
from dataclasses import dataclass, field
from itertools import islice

import numpy as np

from . import csvrows, limits, ops
from .autodiff.engine import backend_for
from .autodiff.lower import lower
from .data import COLUMNAR, FAST_CSV_BYTES, has_pyarrow, kind_of
from .data.chunk import PointChunk
from .errors import DomainError, UsageError
from .inputs import check_wrt, inputs_of
from .language.expr import Apply, Vector, postorder
from .reading import given_names, read_program
from .language.printer import quoted
from .numbers import number_text

CHUNK_ROWS = 65_536
READ_CHARS = 1 << 20  # characters of a points file read at a time

@dataclass
class ArrayResult:
    """Value and per-point gradient of one vectorised evaluation."""

    value: np.ndarray
    gradient: dict
    undefined: np.ndarray
    problems: list = field(default_factory=list)
    kinks: list = field(default_factory=list)
    kinked: list = field(default_factory=list)  # (Kink, mask of the points on it), for plot


# ---------------------------------------------------------------- evaluation

def elementwise_check(program, bindings) -> None:
    """Points are evaluated side by side, so nothing may combine them."""
    for stmt in program.statements:
        for node in postorder(stmt.expr):
            if isinstance(node, Vector):
                raise UsageError("--points evaluates each row as its own point, so the "
                                 "expression cannot hold a vector literal",
                                 source=program.source, span=node.span,
                                 hint="give vectors with --at and evaluate without --points")
            if isinstance(node, Apply) and ops.TABLE[node.op].vjp is not None:
                name = ops.TABLE[node.op].symbol or node.op
                raise UsageError(f"--points evaluates each row as its own point, but {name} "
                                 "would combine the rows", source=program.source,
                                 span=node.span,
                                 hint="for a loss over a data set bind the columns as "
                                      "vectors (descend --data), or use eval --at x=[...]")
    for name, value in (bindings or {}).items():
        if np.ndim(value) != 0:
            raise UsageError(f"--at {name}: with --points every --at value must be a number "
                             "(each row is one point)")


def evaluate_arrays(program, columns: dict, bindings=None, wrt=None,
                    first_row: int = 1, row_numbers=None, n=None,
                    gradient: bool = True) -> ArrayResult:
    """One pass through the graph with each input a vector of points (see the module doc).

    `row_numbers` (an int array, one per point) overrides `first_row` in messages;
    `n` is the number of points when `columns` is empty; `gradient=False` skips
    the backward pass (values only).
    """
    if isinstance(program, str):
        program = read_program(program, given_names(bindings, columns, wrt))
    bindings = dict(bindings or {})
    elementwise_check(program, bindings)
    variables = inputs_of(program)
    wanted = check_wrt(wrt, variables) if gradient else []
    if n is None:
        n = len(next(iter(columns.values()))) if columns else 1
    data = {}
    for name in variables:
        if name in columns:
            data[name] = np.asarray(columns[name], dtype=float)
        elif name in bindings:
            # Shared numbers become full vectors so each point gets its own gradient.
            data[name] = np.full(n, float(bindings[name]))
    value = gradient = None  # made when the first pass leaves rows out
    undefined = np.zeros(n, dtype=bool)
    alive = np.arange(n)
    numbers = np.asarray(row_numbers) if row_numbers is not None else first_row + alive
    problems, kinks, kinked = [], [], []
    while alive.size:
        # Every point still in: the columns as they are, not copies (the common chunk).
        whole = alive.size == n
        sub = data if whole else {k: v[alive] for k, v in data.items()}
        try:
            graph = lower(program, sub, wrt=set(wanted))
        except DomainError as exc:
            rows = _failing_rows(exc, alive.size)
            if rows is None:
                raise
            for r in np.flatnonzero(rows):
                problems.append((int(numbers[alive[r]]), _row_message(exc, r)))
            undefined[alive[rows]] = True
            alive = alive[~rows]
            continue
        out = graph.output

        def on_kink(node, kink, graph=graph, alive=alive):
            if len(kinks) < limits.MAX_WARNINGS:  # each message costs its sub-expression's size
                kinks.append(_kink_message(graph, node, kink, numbers[alive]))
            on = np.zeros(n, dtype=bool)
            on[alive[_kink_hits(node, kink, alive.size)]] = True
            kinked.append((kink, on))

        if out.requires_grad:
            out.backward(seed=np.ones(alive.size) if np.ndim(out.data) else 1.0,
                         on_kink=on_kink)
        found = [out.data] + [graph.inputs[name].grad for name in wanted]
        if whole:
            vectors = _own_vectors(found, n, data.values())
        else:
            vectors = [np.full(n, np.nan) for _ in found]
            for vector, part in zip(vectors, found):
                vector[alive] = part
        value, gradient = vectors[0], dict(zip(wanted, vectors[1:]))
        break
    if value is None:  # no row had a value
        value = np.full(n, np.nan)
        gradient = {name: np.full(n, np.nan) for name in wanted}
    return ArrayResult(value, gradient, undefined, problems, kinks, kinked)


def _own_vectors(found, n, inputs) -> list:
    """Each of `found` as a vector of n floats that nothing else holds: an array the
    backward pass made is taken as it is; a number, an input's column or an array
    already taken (one gradient passed on to two inputs) is copied."""
    taken = {id(a) for a in inputs}
    out = []
    for a in found:
        if isinstance(a, np.ndarray) and a.shape == (n,) and a.dtype == np.float64 \
                and id(a) not in taken and a.flags.writeable:
            taken.add(id(a))
            out.append(a)
        else:
            out.append(np.array(np.broadcast_to(np.asarray(a, dtype=float), (n,))))
    return out


def _kink_hits(node, kink, m):
    """Which of the m points sit exactly on `kink` of `node`."""
    datas = [p.data for p in node._parents]
    try:
        return np.broadcast_to(np.asarray(kink.where(backend_for(datas), *datas), dtype=bool),
                               (m,))
    except (ValueError, ZeroDivisionError, OverflowError):
        return np.zeros(m, dtype=bool)


def _failing_rows(exc: DomainError, m: int):
    if exc.mask is None:
        return None
    mask = np.asarray(exc.mask, dtype=bool)
    if mask.shape == (m,):
        return mask if mask.any() else None
    if mask.ndim == 0 and mask:
        return np.ones(m, dtype=bool)
    return None


def _row_message(exc: DomainError, r: int) -> str:
    """The domain error of one row, in the user's terms: `log(x) is undefined at x = -1: ...`."""
    node = getattr(exc, "expr", None)
    if node is None:
        return exc.message
    parts = []
    for i in exc.show:
        if i >= len(node.args) or i >= len(exc.args_):
            continue
        arg = node.args[i]
        if arg.children() == () and not hasattr(arg, "id"):
            continue  # a literal number says nothing new
        v = exc.args_[i]
        v = v[r] if np.ndim(v) else v
        parts.append(f"{quoted(arg)} = {number_text(float(v))}")
    where = f" at {', '.join(parts)}" if parts else ""
    if exc.overflow:
        return f"{quoted(node)} overflows{where}: the result is too large for a double"
    return f"{quoted(node)} is undefined{where}: {exc.reason}"


def _kink_message(graph, node, kink, numbers) -> str:
    alive = numbers
    datas = [p.data for p in node._parents]
    try:
        hit = np.broadcast_to(np.asarray(kink.where(backend_for(datas), *datas), dtype=bool),
                              (alive.size,))
    except (ValueError, ZeroDivisionError, OverflowError):
        hit = np.zeros(alive.size, dtype=bool)
    rows = [int(numbers[r]) for r in np.flatnonzero(hit)]
    first = int(np.flatnonzero(hit)[0]) if rows else 0
    names = {"x": number_text(float(np.broadcast_to(datas[0], (alive.size,))[first]))}
    if len(datas) > 1:
        names["y"] = number_text(float(np.broadcast_to(datas[1], (alive.size,))[first]))
    message = kink.message.format(**names)
    expr = graph.exprs.get(id(node))
    if expr is not None:
        message += f" (in {quoted(expr)})"
    shown = ", ".join(str(r) for r in rows[:10])
    more = f" and {len(rows) - 10} more" if len(rows) > 10 else ""
    return f"{message}, at row{'s' if len(rows) > 1 else ''} {shown}{more}"


# ---------------------------------------------------------------- reading

class PointReader:
    """Chunks of a CSV or JSON Lines file of points (see the module doc)."""

    def __init__(self, source, chunk_rows: int = CHUNK_ROWS, needed=None):
        self.chunk_rows = chunk_rows
        self.needed = list(needed) if needed is not None else None
        self.label = "stdin" if source == "-" else str(getattr(source, "name", source))
        if source == "-":
            raw = sys.stdin.buffer
        elif hasattr(source, "read"):
            raw = source
        else:
            try:
                raw = open(source, "rb")
            except OSError as exc:
                raise UsageError(f"--points: cannot read {source}: {exc.strerror}") from None
        self._raw = raw
        try:
            self.total_bytes = os.fstat(raw.fileno()).st_size or None
        except (OSError, AttributeError, io.UnsupportedOperation):
            self.total_bytes = None
        self._text = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
        self._line_no = 0
        self._queue, self._tail = deque(), ""
        try:
            self._streamed = not stat.S_ISREG(os.fstat(raw.fileno()).st_mode)
        except (OSError, AttributeError, io.UnsupportedOperation, ValueError):
            self._streamed = not isinstance(raw, (io.BytesIO, io.BufferedReader))
        # csv's own field limit (131,072) is below the row limit: lift it to match.
        csv.field_size_limit(max(csv.field_size_limit(), limits.MAX_ROW_CHARS))
        self._next_row = 1
        self._pending = self._first_line()
        self.kind = "jsonl" if self._pending.lstrip().startswith("{") else "csv"
        if self.kind == "csv":
            self._line_iter = self._lines()
            header = next(csvrows.rows(self._line_iter), None)
            if not header or not any(h.strip() for h in header):
                raise UsageError(f"--points: {self.label} has no header row",
                                 hint="the first line names the columns, e.g. x,y")
            self.names = [h.strip() for h in header]
            seen = set()
            for i, name in enumerate(self.names):
                if not name:
                    raise UsageError(f"--points: column {i + 1} of {self.label} has no name")
                if name in seen:
                    raise UsageError(f"--points: {self.label} has two columns named '{name}'")
                seen.add(name)
        else:
            self.names = self._json_names()

    @property
    def bytes_read(self) -> int:
        try:
            return self._raw.tell()
        except (OSError, AttributeError, io.UnsupportedOperation):
            return 0

    def _physical_lines(self):
        """The file's lines, none longer than the row limit (a huge line is refused)."""
        queue = self._queue
        while True:
            while queue:
                yield queue.popleft()
            if not self._read_block():
                return

    def _read_block(self) -> bool:
        """Read about READ_CHARS characters and queue their whole lines; False at the end.

        A block at a time, split in C, costs a fraction of a readline() per line; the
        unfinished last line waits for the next block, and no more than the row limit of
        it is ever held. Pipes are read a line at a time.
        """
        if self._streamed:  # a pipe: each line as soon as it comes, as a stream wants
            text = self._text.readline(limits.MAX_ROW_CHARS + 1)
        else:
            text = self._text.read(READ_CHARS)
        if not text:
            if not self._tail:
                return False
            lines, self._tail = [self._tail], ""
        else:
            # newline="": lines end as readline() ends them (\n, \r\n or \r), kept as read.
            lines = io.StringIO(self._tail + text, newline="").readlines()
            self._tail = ""
            if lines[-1][-1:] not in ("\n", "\r") or lines[-1].endswith("\r"):
                self._tail = lines.pop()  # unfinished, or a \r whose \n may come next
        where = f"--points: {self.label}"
        if lines and max(map(len, lines)) > limits.MAX_ROW_CHARS:
            for i, line in enumerate(lines):
                limits.check_row(len(line.rstrip("\r\n")), self._line_no + i + 1, where)
        self._line_no += len(lines)
        limits.check_row(len(self._tail.rstrip("\r\n")), self._line_no + 1, where)
        self._queue.extend(lines)
        return True

    def _first_line(self) -> str:
        try:
            for line in self._physical_lines():
                if line.strip():
                    return line
        except UnicodeDecodeError as exc:
            raise UsageError(f"--points: {self.label} is not UTF-8 text ({exc.reason})") from None
        return ""

    def _lines(self):
        if self._pending:
            yield self._pending
            self._pending = ""
        try:
            yield from self._physical_lines()
        except UnicodeDecodeError as exc:
            raise UsageError(f"--points: {self.label} is not UTF-8 text ({exc.reason})") from None

    def _json_names(self) -> list:
        try:
            first = json.loads(self._pending)
        except json.JSONDecodeError:
            return []
        return [str(k) for k in first] if isinstance(first, dict) else []

    def close(self) -> None:
        if self._raw is not sys.stdin.buffer:
            self._raw.close()

    def __iter__(self):
        needed = self.needed if self.needed is not None else self.names
        if self.kind == "csv":
            while True:
                lines = list(islice(self._line_iter, self.chunk_rows))
                if not lines:
                    return
                chunk = self._plain_chunk(lines, needed)
                if chunk is None:  # quotes or uneven rows: the csv module reads them
                    rows = [r for r in csvrows.rows(lines) if r]  # blank lines are not points
                    if not rows:
                        continue
                    chunk = self._csv_chunk(rows, needed)
                yield chunk
        else:
            lines = (line for line in self._lines() if line.strip())
            while True:
                rows = list(islice(lines, self.chunk_rows))
                if not rows:
                    return
                yield self._json_chunk(rows, needed)

    def _plain_chunk(self, lines, needed):
        """The fast path: no quotes and every row complete, so split and convert whole columns."""
        blob = "".join(lines)
        if '"' in blob:
            return None
        rows = [r for r in blob.splitlines() if r]
        width = len(self.names)
        if not rows or any(r.count(",") != width - 1 for r in rows):
            return None
        fields = ",".join(rows).split(",")
        first, n = self._next_row, len(rows)
        invalid = np.zeros(n, dtype=bool)
        problems = []
        columns = {}
        for name in needed:
            j = self.names.index(name)
            columns[name] = self._numbers(fields[j::width], name, first, invalid, problems)
        self._next_row += n
        problems.sort(key=lambda p: p[0])
        return PointChunk(first, n, columns, invalid, problems)

    def _csv_chunk(self, rows, needed) -> PointChunk:
        first, n = self._next_row, len(rows)
        self._next_row += n
        width = len(self.names)
        invalid = np.zeros(n, dtype=bool)
        problems = []
        if not all(len(r) == width for r in rows):
            for i, r in enumerate(rows):
                if len(r) != width:
                    invalid[i] = True
                    if len(r) < width:
                        missing = ", ".join(f"'{c}'" for c in self.names[len(r):])
                        problems.append((first + i, f"row {first + i}: missing column "
                                                    f"{missing} ({len(r)} of {width} values)"))
                    else:
                        problems.append((first + i, f"row {first + i}: {len(r)} values but "
                                                    f"the header has {width} columns"))
                    rows[i] = (r + [""] * width)[:width]
        cols = list(zip(*rows))
        columns = {}
        for name in needed:
            j = self.names.index(name)
            columns[name] = self._numbers(cols[j], name, first, invalid, problems)
        problems.sort(key=lambda p: p[0])
        return PointChunk(first, n, columns, invalid, problems)

    @staticmethod
    def _numbers(texts, name, first, invalid, problems):
        try:
            return np.array(texts, dtype=float)
        except ValueError:
            pass
        out = np.empty(len(texts))
        for i, t in enumerate(texts):
            try:
                out[i] = float(t)
            except ValueError:
                out[i] = np.nan
                if not invalid[i]:
                    invalid[i] = True
                    shown = t.strip()
                    what = "is empty" if not shown else f"is {shown[:40]!r}, not a number"
                    problems.append((first + i, f"row {first + i}, column '{name}': the "
                                                f"value {what}"))
        return out

    def _json_chunk(self, lines, needed) -> PointChunk:
        first, n = self._next_row, len(lines)
        self._next_row += n
        invalid = np.zeros(n, dtype=bool)
        problems = []
        columns = {name: np.empty(n) for name in needed}
        for i, line in enumerate(lines):
            row = first + i
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                obj = None
                reason = f"not valid JSON ({exc.msg} at column {exc.colno})"
            except RecursionError:
                obj = None
                reason = "nested too deeply to be a point"
            else:
                reason = "not a JSON object"
            if not isinstance(obj, dict):
                invalid[i] = True
                problems.append((row, f"row {row}: {reason}"))
                for name in needed:
                    columns[name][i] = np.nan
                continue
            for name in needed:
                v = obj.get(name)
                number = _json_number(v)
                columns[name][i] = np.nan if number is None else number
                if number is None and not invalid[i]:
                    invalid[i] = True
                    what = "is missing" if name not in obj else \
                        f"is {json.dumps(v)[:40]}, not a number"
                    problems.append((row, f"row {row}, column '{name}': the value {what}"))
        return PointChunk(first, n, columns, invalid, problems)


def _json_number(v):
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return None
    return None


def column_names(source) -> list:
    """The column names of a points file, read from its first line (nothing for stdin).

    The parser reads these names whole (a column `xy` is not x*y), so they are
    needed before the expression is parsed; a file that cannot be read gives none
    here and its error later, from the reader.
    """
    if source in (None, "-") or not isinstance(source, (str, os.PathLike)):
        return []
    if kind_of(source) in COLUMNAR:
        if not has_pyarrow():
            return []  # the reader says how to install what reads it
        from .data import sources
        return sources.column_names(source, kind_of(source))
    try:
        with open(source, encoding="utf-8-sig", newline="") as f:
            first = f.readline(limits.MAX_ROW_CHARS)
    except (OSError, UnicodeDecodeError):
        return []
    if first.lstrip().startswith("{"):
        try:
            record = json.loads(first)
        except ValueError:
            return []
        return list(record) if isinstance(record, dict) else []
    return [h.strip() for h in next(csvrows.rows([first]), [])]


def read_points(source, chunk_rows: int = CHUNK_ROWS, needed=None):
    """A reader of `source` in chunks (see the module doc).

    Parquet and Arrow IPC files (by extension) are read by data/sources.py, which
    needs the data extra; so is a large CSV file when the extra is installed (the
    same values and messages, read faster).
    """
    kind = kind_of(source)
    if kind in COLUMNAR:
        from .data import sources
        return sources.open_reader(source, kind, chunk_rows, needed)
    if kind == "csv" and _large_file(source) and has_pyarrow():
        from .data import sources
        return sources.open_reader(source, kind, chunk_rows, needed,
                                   text_reader=lambda: PointReader(source, chunk_rows, needed))
    return PointReader(source, chunk_rows, needed)


def _large_file(path) -> bool:
    try:
        st = os.stat(path)
    except (OSError, TypeError, ValueError):
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size >= FAST_CSV_BYTES


def read_columns(source) -> dict:
    """Every row of `source`, one float vector per column; any unreadable row is an error."""
    reader = read_points(source)
    parts = {name: [] for name in reader.names}
    try:
        total = 0
        for chunk in reader:
            if chunk.problems:
                raise UsageError(f"{reader.label}: {chunk.problems[0][1]}")
            total += chunk.n * max(1, len(reader.names))
            limits.check_elements(total, f"the data of {reader.label}")
            for name in reader.names:
                parts[name].append(chunk.columns[name])
    finally:
        reader.close()
    return {name: (np.concatenate(p) if p else np.empty(0)) for name, p in parts.items()}


# ---------------------------------------------------------------- the whole run

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
