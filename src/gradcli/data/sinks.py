"""`--output FILE.parquet|.arrow|.csv`: a batch's columns written to a file, whole or not at all.

The rows go to a temporary file beside FILE, chunk by chunk as they are
evaluated (memory stays bounded by the chunk); when the run ends, the file
is renamed to FILE in one step, and when it fails (a file that turns out
unreadable halfway, an interrupt) the temporary file is removed, so FILE is
never left half written and an older FILE is kept as it was. Columns and
their names are those of `eval --points -o csv`; every column is float64.

Parquet and Arrow IPC need the data extra; CSV does not (its text is the
text writer's, columntext.py and shortest.py, made by orjson and pyarrow when they are
installed (data/textlines.py): the same bytes).
"""
from __future__ import annotations

import errno
import os

from ..columntext import batch_header, columns_delimited
from ..errors import UsageError
from . import has_fast_text, kind_of, require_pyarrow
from .arrow import float_array

NAMES = {"parquet": "Parquet", "arrow": "Arrow IPC", "csv": "CSV"}


def output_kind(path: str) -> str:
    """'parquet', 'arrow' or 'csv' from the file name, or a usage error."""
    kind = kind_of(path)
    if kind is None:
        raise UsageError(f"--output {path}: the file name must end in .parquet, .arrow "
                         "(.feather, .ipc) or .csv",
                         hint="the extension chooses the format, e.g. --output results.parquet")
    return kind


class Sink:
    """A batch's columns on their way to `path` (see the module doc)."""

    def __init__(self, path: str, keys: list, precision=None):
        self.path = path
        self.precision = precision  # significant digits of a CSV file's text; None: all
        self.kind = output_kind(path)
        self.keys = list(keys)
        self.rows = 0
        if self.kind != "csv":
            self._pa = require_pyarrow(f"--output {path}")
        try:
            fd, self._tmp = _create_beside(path)
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror}") from None
        self._fh = os.fdopen(fd, "wb")
        self._writer = None
        try:
            self._open()
        except BaseException:
            self.abort()
            raise

    def _open(self) -> None:
        if self.kind == "csv":
            self._fh.write(batch_header(self.keys, ",").encode("utf-8"))
            return
        pa = self._pa
        self._schema = pa.schema([(k, pa.float64()) for k in self.keys])
        if self.kind == "parquet":
            import pyarrow.parquet as pq
            # Computed doubles rarely repeat and their low bytes are noise: a dictionary
            # costs four times the writing and a byte codec a quarter more, for a few
            # per cent of the size. Recompress the file if it is to be kept.
            self._writer = pq.ParquetWriter(self._fh, self._schema, use_dictionary=False,
                                            compression="none")
        else:
            self._writer = pa.ipc.new_file(self._fh, self._schema)

    def write(self, columns: list) -> None:
        """One chunk's columns (float arrays, in the order of `keys`)."""
        n = len(columns[0]) if columns else 0
        if not n:
            return
        self.rows += n
        if self.kind == "csv":
            _write_csv(self._fh, columns, self.precision)
            return
        pa = self._pa
        batch = pa.RecordBatch.from_arrays([float_array(pa, c) for c in columns],
                                           schema=self._schema)
        self._writer.write_batch(batch)

    def commit(self) -> None:
        """Finish the file and put it in place of `path`."""
        try:
            if self._writer is not None:
                self._writer.close()
            self._fh.close()
            os.replace(self._tmp, self.path)
        except OSError as exc:
            self.abort()
            raise UsageError(f"cannot write {self.path}: {exc.strerror}") from None
        except BaseException:
            self.abort()
            raise

    def abort(self) -> None:
        """Drop the temporary file: `path` stays as it was."""
        for close in (getattr(self._writer, "close", None), self._fh.close):
            if close is None:
                continue
            try:
                close()
            except Exception:  # already failing: the first error is the one to report
                pass
        try:
            os.remove(self._tmp)
        except OSError:
            pass

    @property
    def description(self) -> str:
        return f"{NAMES[self.kind]}, {self.rows} row{'s' if self.rows != 1 else ''}, " \
               f"{len(self.keys)} column{'s' if len(self.keys) != 1 else ''}"


def _write_csv(fh, columns, precision=None) -> None:
    if precision is not None:  # rounded as -o csv --precision prints them
        fh.write(columns_delimited(columns, precision))
        return
    fragments = [""] + [","] * (len(columns) - 1) + ["\n"]
    if has_fast_text():
        from . import textlines
        textlines.write(fh, columns, fragments)
        return
    from .. import shortest
    fh.write(shortest.lines(columns, fragments))


def _create_beside(path: str):
    """(descriptor, name) of a new file `.NAME.<8 random letters>.part` beside `path`, open
    for writing.

    Created with mode 0o666, which the kernel reduces by the umask, so that the finished
    file has the permissions any new file gets; the umask is never read or changed here
    (os.umask is process-wide: setting it races with other threads' files).
    """
    folder = os.path.dirname(os.path.abspath(path))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | \
        getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        name = os.path.join(folder, f".{os.path.basename(path)}.{os.urandom(4).hex()}.part")
        try:
            return os.open(name, flags, 0o666), name
        except FileExistsError:
            continue  # another run's temporary file: draw another name
    raise FileExistsError(errno.EEXIST, "no free temporary name", folder)


def open_sink(path: str, keys: list, precision=None) -> Sink:
    """A sink writing `keys` columns to `path` (see the module doc); `precision` rounds
    the numbers of a CSV file."""
    return Sink(path, keys, precision)
