"""Point sources: CSV, JSON Lines, Parquet and Arrow IPC files as chunks of points.

The start of the batch path (then data/evaluate.py, data/run.py, data/sinks.py).
Every reader yields PointChunk(first_row, n, columns, invalid, problems) (data/chunk.py),
whatever the format, so that eval, diff and check --points and descend --data
read them all without knowing them.

``read_points(source, chunk_rows=CHUNK_ROWS, needed=None) -> reader``
    Iterates the chunks of `source` (a path, "-" or a binary file object);
    `.names` are the columns, `.label` names the file, `.needed` the columns
    to convert (default: all), `.bytes_read` / `.total_bytes` serve a
    progress bar, `.close()` ends it. `chunk.invalid` marks unreadable rows
    (their values are nan); `chunk.problems` say why, with row and column.
``column_names(source) -> list``
    The columns of a points file, read before the expression is parsed.
``read_columns(source) -> dict[str, array]``
    The whole file as one float vector per column (for `descend --data`, which
    trains on all the rows at once); an unreadable row is a UsageError.

The readers: `PointReader` reads CSV (with a header row) and JSON Lines text,
a block of lines at a time. `ColumnarReader` reads Parquet and Arrow IPC files
through pyarrow (the data extra) record batch by record batch: only the
batches of the columns the expression uses are in memory at a time (a Parquet
file's row groups are the unit on disk). `CsvReader` reads a large CSV file
through pyarrow's reader while the text reader's rules stay the rules:
pyarrow reads a clean file (every row complete, every value a number) several
times faster; at the first block it refuses, the text reader takes over from
the first row not yet given out, so that a bad row gets the text reader's
message and row number, and the other rows are not lost.
"""
from __future__ import annotations

import csv
import io
import json
import os
import stat
import sys
from collections import deque
from itertools import islice

import numpy as np

from .. import limits
from ..errors import UsageError
from . import COLUMNAR, FAST_CSV_BYTES, csvrows, has_pyarrow, kind_of, require_pyarrow
from .arrow import floats
from .chunk import PointChunk

CHUNK_ROWS = 65_536
READ_CHARS = 1 << 20  # characters of a points file read at a time


# ---------------------------------------------------------------- the entry points

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
        return _columnar_names(source, kind_of(source))
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

    Parquet and Arrow IPC files (by extension) are read through pyarrow, which needs
    the data extra; so is a large CSV file when the extra is installed (the same
    values and messages, read faster).
    """
    kind = kind_of(source)
    if kind in COLUMNAR:
        return ColumnarReader(source, kind, chunk_rows, needed)
    if kind == "csv" and _large_file(source) and has_pyarrow():
        return CsvReader(source, chunk_rows, needed,
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


# ---------------------------------------------------------------- CSV and JSON Lines text

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


# ---------------------------------------------------------------- through pyarrow

def _numeric(pa, type_) -> bool:
    return (pa.types.is_integer(type_) or pa.types.is_floating(type_)
            or pa.types.is_decimal(type_))


def _arrow_error(pa):
    return (pa.ArrowException, OSError, ValueError)


class _Columns:
    """What both readers share: chunks made from record batches, and progress by rows."""

    label: str
    names: list
    needed: list | None
    total_bytes: int | None
    total_rows: int | None
    rows_read: int = 0

    @property
    def bytes_read(self) -> int:
        if not self.total_bytes or not self.total_rows:
            return int(self.total_bytes * self._batches_done / self._batch_count) \
                if self._batch_count else 0
        return int(self.total_bytes * min(1.0, self.rows_read / self.total_rows))

    _batches_done = 0
    _batch_count = 0

    def _chunk(self, batch, first_row: int) -> PointChunk:
        """A record batch (or table slice) of the needed columns as float vectors."""
        pa = self._pa
        n = batch.num_rows
        invalid = np.zeros(n, dtype=bool)
        problems = []
        columns = {}
        for name in self._wanted():
            array = batch.column(name) if hasattr(batch, "column") else batch[name]
            if isinstance(array, pa.ChunkedArray):
                array = array.combine_chunks()
            if array.null_count:
                missing = array.is_null().to_numpy(zero_copy_only=False)
                for i in np.flatnonzero(missing & ~invalid):
                    problems.append((first_row + int(i), f"row {first_row + int(i)}, column "
                                                         f"'{name}': the value is missing"))
                invalid |= missing
                import pyarrow.compute as pc  # only for a column with missing values
                array = pc.fill_null(array.cast(pa.float64()), float("nan"))
            elif array.type != pa.float64():
                array = array.cast(pa.float64())
            columns[name] = floats(array)
        problems.sort(key=lambda p: p[0])
        return PointChunk(first_row, n, columns, invalid, problems)

    def _wanted(self) -> list:
        return self.needed if self.needed is not None else self.names


class ColumnarReader(_Columns):
    """A Parquet or Arrow IPC file, chunk by chunk (see the module doc)."""

    def __init__(self, source, kind: str, chunk_rows: int, needed=None):
        self._pa = pa = require_pyarrow(f"--points {source}")
        self.kind = kind
        self.chunk_rows = chunk_rows
        self.needed = list(needed) if needed is not None else None
        self.label = str(source)
        what = "Parquet" if kind == "parquet" else "Arrow IPC"
        self._what = what
        try:
            self.total_bytes = os.path.getsize(source) or None
        except OSError as exc:
            raise UsageError(f"--points: cannot read {source}: {exc.strerror}") from None
        self._file = None
        try:
            if kind == "parquet":
                import pyarrow.parquet as pq
                # Read, not mapped, and not buffered ahead: mapped pages of the whole
                # file, or the row groups pre_buffer gathers (80 MB at 4 million rows),
                # would count as the process's memory, which must stay a chunk's.
                self._file = pq.ParquetFile(source, pre_buffer=False)
                schema = self._file.schema_arrow
                self.total_rows = self._file.metadata.num_rows
            else:
                self._file, schema, self.total_rows = _open_ipc(pa, source)
        except _arrow_error(pa) as exc:
            raise UsageError(f"--points: {self.label} is not a readable {what} file "
                             f"({_reason(exc)})",
                             hint=f"check that the file was written completely as {what}"
                             ) from None
        self._schema = schema
        self.names = list(schema.names)
        seen = set()
        for name in self.names:
            if name in seen:
                raise UsageError(f"--points: {self.label} has two columns named '{name}'")
            seen.add(name)

    def _check_types(self) -> None:
        pa = self._pa
        for name in self._wanted():
            type_ = self._schema.field(name).type
            if not _numeric(pa, type_):
                raise UsageError(f"--points: column '{name}' of {self.label} holds {type_}, "
                                 "not numbers",
                                 hint="every column the expression uses must be integer or "
                                      "floating point")

    def close(self) -> None:
        closer = getattr(self._file, "close", None)
        if closer is not None:
            closer()

    def __iter__(self):
        self._check_types()
        pa = self._pa
        wanted = self._wanted()
        first = 1
        try:
            for batch in self._batches(wanted):
                for start in range(0, batch.num_rows, self.chunk_rows):
                    piece = batch.slice(start, self.chunk_rows)
                    self.rows_read = first - 1 + piece.num_rows
                    yield self._chunk(piece, first)
                    first += piece.num_rows
        except _arrow_error(pa) as exc:
            raise UsageError(f"--points: {self.label} could not be read after row "
                             f"{first - 1} ({_reason(exc)})",
                             hint=f"the file may be cut short; write it again as "
                                  f"{self._what}") from None

    def _batches(self, wanted):
        if self.kind == "parquet":
            yield from self._file.iter_batches(batch_size=self.chunk_rows, columns=wanted,
                                               use_threads=False)
            return
        reader = self._file
        if hasattr(reader, "get_batch"):
            self._batch_count = reader.num_record_batches
            for i in range(reader.num_record_batches):
                self._batches_done = i + 1
                yield reader.get_batch(i).select(wanted)
        else:
            for batch in reader:
                yield batch.select(wanted)


def _open_ipc(pa, source):
    """(reader, schema, rows or None) of an Arrow IPC file, or of an IPC stream in a file."""
    import pyarrow.ipc as ipc
    try:
        # Read batch by batch, not mapped (see ColumnarReader: memory stays a chunk's).
        reader = ipc.open_file(pa.OSFile(str(source)))
        return reader, reader.schema, None
    except pa.ArrowInvalid:
        reader = ipc.open_stream(pa.OSFile(str(source)))
        return reader, reader.schema, None


def _reason(exc) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]


class CsvReader(_Columns):
    """A CSV file through pyarrow's reader, the text reader taking over at a block it refuses."""

    kind = "csv"

    def __init__(self, source, chunk_rows: int, needed, text_reader):
        self._pa = require_pyarrow(f"--points {source}")
        self._text_reader = text_reader
        head = text_reader()  # checks the header and names the columns, as always
        self.names = head.names
        self.label = head.label
        head.close()
        self.chunk_rows = chunk_rows
        self.needed = list(needed) if needed is not None else None
        self.total_bytes = os.path.getsize(source) or None
        self.total_rows = None
        self._source = source
        self._fallback = None

    @property
    def bytes_read(self) -> int:
        if self._fallback is not None:
            return self._fallback.bytes_read
        try:
            return self._fh.tell() if self._fh is not None else 0
        except (OSError, ValueError):
            return 0

    _fh = None

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
        if self._fallback is not None:
            self._fallback.close()

    def __iter__(self):
        import pyarrow.csv as pcsv
        pa = self._pa
        wanted = self._wanted()
        self._fh = fh = open(self._source, "rb")
        # About chunk_rows rows a block: the header line's width is a fair guess at a
        # row's, and a block never holds more than 64 MB of text.
        header_bytes = len(fh.readline())
        fh.seek(0)
        block = int(min(1 << 26, max(1 << 16, self.chunk_rows * max(16, header_bytes) * 2)))
        done = 0
        try:
            reader = pcsv.open_csv(
                fh,
                read_options=pcsv.ReadOptions(use_threads=False, block_size=block,
                                              column_names=self.names, skip_rows=1),
                convert_options=pcsv.ConvertOptions(
                    column_types={n: pa.float64() for n in wanted}, include_columns=wanted,
                    null_values=[], strings_can_be_null=False,
                    quoted_strings_can_be_null=False))
            while True:
                try:
                    batch = reader.read_next_batch()
                except StopIteration:
                    return
                for start in range(0, batch.num_rows, self.chunk_rows):
                    piece = batch.slice(start, self.chunk_rows)
                    chunk = self._chunk(piece, done + 1)
                    done += piece.num_rows
                    yield chunk
        except (pa.ArrowInvalid, UnicodeDecodeError):
            pass  # the text reader says what is wrong, with its row number
        yield from self._text_from(done)

    def _text_from(self, done: int):
        """The text reader's chunks from data row done + 1 on."""
        self._fallback = reader = self._text_reader()
        reader.needed = self.needed
        for chunk in reader:
            last = chunk.first_row + chunk.n - 1
            if last <= done:
                continue
            if chunk.first_row <= done:
                k = done - chunk.first_row + 1
                chunk = PointChunk(done + 1, chunk.n - k,
                                   {name: v[k:] for name, v in chunk.columns.items()},
                                   chunk.invalid[k:],
                                   [p for p in chunk.problems if p[0] > done])
            yield chunk


def _columnar_names(source, kind: str) -> list:
    """The column names of a Parquet or Arrow IPC file, from its schema (nothing if it
    cannot be read: the reader reports that)."""
    pa = require_pyarrow(f"--points {source}")
    try:
        if kind == "parquet":
            import pyarrow.parquet as pq
            return list(pq.read_schema(source).names)
        reader, schema, _ = _open_ipc(pa, source)
        return list(schema.names)
    except _arrow_error(pa):
        return []
