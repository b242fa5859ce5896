"""Float columns as CSV lines through orjson and pyarrow: the same bytes as output/shortest.py.

Text output of a batch is repr's shortest round-trip text of each number
without a trailing ".0" (`28`, `0.1`, `-0`, `nan`, `inf`, `1e-05`,
`1e+16`). orjson (Rust) finds the same shortest digits about twenty times
faster than repr, and for 0 and every 1e-4 <= |x| < 1e16 it writes the
very same characters. Elsewhere it differs in form (`0.00001` for 1e-05,
`1e-7` for 1e-07, `1e16` in orjson before 3.12, `null` for nan and
infinity), so those cells get repr's text, once per distinct value: a
column of such numbers is written at about repr's speed, twice as fast as
output/shortest.py writes it. An orjson that writes the probes otherwise
than repr is not used: output/shortest.py writes the lines then.

Each column is dumped as one JSON array, and its commas are the ends of its
values: with the brackets off, the text and the commas' positions are an
Arrow string array without a copy, each value carrying its separator (the
last column's commas become newlines). pyarrow joins the columns row by row.
Those other cells are written 0 by orjson and spliced with repr's text.
tests/test_data.py compares the two writers on random bit patterns and on
the hard values.

``lines(columns, sep=",") -> bytes``
    Row i is columns[0][i], sep, columns[1][i], ..., then a newline.
``write(fh, columns, sep=",")``
    The same lines written to a binary file.
"""
from __future__ import annotations

import numpy as np

from . import require
from .arrow import empty_strings, large_strings

# repr and orjson (3.9 to 3.13) write 0 and every |x| in [LOW, HIGH) alike: positionally,
# the same digits. lines() checks that on PROBES before it trusts the installed orjson.
LOW, HIGH = 1e-4, 1e16
PROBES = [0.0, -0.0, 1e-4, -1.5e-4, 0.1, 0.30000000000000004, 1 / 3, 28.0, -100.0,
          123456789012345.6, 131439629882.54477, 9.007199254740992e15, 9.999999999999998e15]


def _column(pa, orjson, values: np.ndarray, end: bytes):
    """One column as a large_string array of its texts, each followed by `end`."""
    magnitude = np.abs(values)
    odd = ~((magnitude >= LOW) & (magnitude < HIGH)) & (magnitude != 0)  # nan and inf too
    at = np.flatnonzero(odd)
    plain = values if not at.size else np.where(odd, 0.0, values)  # odd cells: below
    text = orjson.dumps(plain, option=orjson.OPT_SERIALIZE_NUMPY)
    if ((plain == np.trunc(plain)) & ~odd).any():  # repr's ".0" of a whole number, dropped
        text = text.replace(b".0,", b",").replace(b".0]", b"]")
    text = text[1:-1] + b","
    if end != b",":
        text = text.translate(bytes.maketrans(b",", end))
    ends = np.flatnonzero(np.frombuffer(text, dtype=np.uint8) == end[0])
    offsets = np.empty(values.size + 1, dtype=np.int64)
    offsets[0] = 0
    offsets[1:] = ends + 1
    if at.size:
        text, offsets = _mended(text, offsets, values, at)
    return large_strings(pa, offsets, text)


def _mended(text: bytes, offsets: np.ndarray, values: np.ndarray, at: np.ndarray):
    """(text, offsets) with the cells `at` (written 0 by orjson) in repr's text, found
    once per distinct value."""
    unique, inverse = np.unique(values[at].view(np.int64), return_inverse=True)
    reprs = []
    for v in unique.view(np.float64).tolist():
        t = repr(v)
        reprs.append((t[:-2] if t.endswith(".0") else t).encode("ascii"))
    inverse = inverse.ravel()
    pieces, done = [], 0
    for i, k in zip(at.tolist(), inverse.tolist()):
        pieces.append(text[done:offsets[i]])
        pieces.append(reprs[k])
        done = int(offsets[i + 1]) - 1  # the cell's end (its separator) stays
    pieces.append(text[done:])
    lengths = np.diff(offsets)
    lengths[at] = np.array([len(r) for r in reprs], dtype=np.int64)[inverse] + 1
    offsets = np.empty_like(offsets)
    offsets[0] = 0
    np.cumsum(lengths, out=offsets[1:])
    return b"".join(pieces), offsets


_TRUSTED = {}


def _trusted(orjson) -> bool:
    """Whether this orjson writes PROBES as repr does (once per process)."""
    if "orjson" not in _TRUSTED:
        text = orjson.dumps(np.array(PROBES), option=orjson.OPT_SERIALIZE_NUMPY)
        _TRUSTED["orjson"] = text == ("[" + ",".join(map(repr, PROBES)) + "]").encode()
    return _TRUSTED["orjson"]


def lines(columns, sep: str = ",") -> bytes:
    """The CSV (or tab-separated) lines of float columns (see the module doc); `sep` is
    one character."""
    return bytes(_text(columns, sep))


def write(fh, columns, sep: str = ",") -> None:
    """lines(columns, sep) written to the binary file `fh`, without copying them first."""
    fh.write(_text(columns, sep))


def _text(columns, sep: str):
    """lines(columns, sep) as a bytes-like object (a view of pyarrow's joined buffer)."""
    pa = require("pyarrow", "CSV text")
    orjson = require("orjson", "CSV text")
    import pyarrow.compute as pc

    if not columns or len(columns[0]) == 0:
        return b""
    if not _trusted(orjson):
        from ..output import shortest
        return shortest.lines([np.asarray(c, dtype=np.float64) for c in columns],
                              [""] + [sep] * (len(columns) - 1) + ["\n"])
    ends = [sep.encode("ascii")] * (len(columns) - 1) + [b"\n"]
    texts = [_column(pa, orjson, np.ascontiguousarray(c, dtype=np.float64), end)
             for c, end in zip(columns, ends)]
    joined = pc.binary_join_element_wise(*texts, empty_strings(pa, len(texts[0]))) \
        if len(texts) > 1 else texts[0]
    _, offsets, data = joined.buffers()
    bounds = np.frombuffer(offsets, dtype=np.int64)
    first, last = bounds[joined.offset], bounds[joined.offset + len(joined)]
    return memoryview(data)[first:last]
