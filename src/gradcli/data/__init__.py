"""The batch path, one way: sources -> evaluate a chunk -> sinks; and compile().

Every command that works on many points at once comes through here: eval,
diff and check --points, descend --data, plot's grids (the chunk evaluation
alone), and `gradcli.compile`. Nothing in this package imports output/, and
output/ does not import it: cli/ hands output/points.py what it needs of it
(the sink opener and the fast column text). The number text both write is
columntext.py's and shortest.py's, below them both.

- `sources`: the one reader: CSV and JSON Lines text, Parquet and Arrow IPC
  files (and large CSV files through pyarrow's reader), as PointChunks
  (`chunk`), a chunk at a time; `csvrows` reads NUL as data on Python 3.10 too.
- `evaluate`: one graph over a chunk's columns (ArrayResult: values, per-point
  gradients, undefined rows with their messages).
- `run`: BatchRun, a points file evaluated chunk by chunk, with the counts the
  exit code needs.
- `sinks`: `--output FILE.parquet|.arrow|.csv`, written to a temporary file
  and renamed when the run ends well.
- `textlines`: float columns as CSV or JSON Lines text (orjson, pyarrow), the
  same bytes as shortest.py; `arrow`: NumPy vectors to Arrow arrays and back.
- `compiled`: `gradcli.compile(text)`, a picklable function of a DataFrame.

The `data` extra (pyarrow; orjson for CSV text; pandas for compile) is optional,
so nothing here imports them at the top: this module only names formats by their
file extension and says how to install the extra. See docs/data.md.
"""
from __future__ import annotations

import os

from ..errors import UsageError

INSTALL = "pip install 'gradcli[data]'"

_KINDS = {".parquet": "parquet", ".pq": "parquet", ".arrow": "arrow", ".feather": "arrow",
          ".ipc": "arrow", ".csv": "csv"}
COLUMNAR = ("parquet", "arrow")
# Below this size a CSV file is read by the text reader: importing pyarrow costs more
# than the file does.
FAST_CSV_BYTES = 1 << 20


def kind_of(path) -> str | None:
    """'parquet', 'arrow', 'csv' or None, by the file name's extension."""
    if not isinstance(path, (str, os.PathLike)):
        return None
    return _KINDS.get(os.path.splitext(os.fspath(path))[1].lower())


def require(module: str, what: str):
    """The module (pyarrow, orjson), or a usage error (exit 2) that says how to install
    the extra."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError:
        raise UsageError(f"{what} needs {module}, which is not installed",
                         hint=f"install the data extra: {INSTALL}") from None


def require_pyarrow(what: str):
    """pyarrow, or a usage error (exit 2) that says how to install the extra."""
    return require("pyarrow", what)


_FOUND = {}


def installed(module: str) -> bool:
    """Whether `module` can be imported (looked up once, without importing it)."""
    if module not in _FOUND:
        import importlib.util
        import sys
        if module in sys.modules:
            _FOUND[module] = sys.modules[module] is not None
        else:
            try:
                _FOUND[module] = importlib.util.find_spec(module) is not None
            except (ImportError, ValueError):
                _FOUND[module] = False
    return _FOUND[module]


def has_pyarrow() -> bool:
    """Whether pyarrow can be imported (its readers and writers)."""
    return installed("pyarrow")


def has_fast_text() -> bool:
    """Whether batch text can be written in compiled code (data/textlines.py: orjson,
    pyarrow)."""
    return installed("pyarrow") and installed("orjson")
