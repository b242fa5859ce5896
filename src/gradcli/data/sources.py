"""Parquet, Arrow IPC and large CSV files as chunks of points, one record batch at a time.

`open_reader` returns an object with the interface of arrays.PointReader
(`names`, `label`, `kind`, `needed`, `total_bytes`, `bytes_read`, iteration
over PointChunk, `close`), so that eval, diff and check --points and descend
--data read these formats without knowing them. Only the record batches of
the columns the expression uses are in memory at a time: a Parquet file is
read batch by batch (its row groups are the unit on disk), an Arrow IPC file
record batch by record batch, each sliced into chunks.

CSV through pyarrow: the text reader's rules stay the rules. pyarrow reads a
clean file (every row complete, every value a number) several times faster;
at the first block it refuses, the text reader takes over from the first
row not yet given out, so that a bad row gets the text reader's message and
row number, and the other rows are not lost.
"""
from __future__ import annotations

import os

import numpy as np

from ..errors import UsageError
from . import require_pyarrow
from .arrow import floats
from .chunk import PointChunk


def open_reader(source, kind: str, chunk_rows: int, needed=None, text_reader=None):
    """A reader of `source` (a path) in chunks of at most `chunk_rows` rows.

    `kind` is 'parquet', 'arrow' or 'csv'; for 'csv', `text_reader()` opens the
    text reader (which has already checked the header) to fall back on.
    """
    if kind == "csv":
        return CsvReader(source, chunk_rows, needed, text_reader)
    return ColumnarReader(source, kind, chunk_rows, needed)


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


def column_names(source, kind: str) -> list:
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
