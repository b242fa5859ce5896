"""Float columns as lines of text through orjson and pyarrow: the same bytes as shortest.py.

A batch's CSV, plain and JSON Lines output write each number as repr's
shortest round-trip text (CSV without a whole number's ".0": `28`, `0.1`,
`-0`, `nan`, `1e-05`, `1e+16`). orjson (Rust) finds the same shortest digits
about twenty times faster than repr, and for 0 and every 1e-4 <= |x| < 1e16
it writes the very same characters. Elsewhere it differs in form (`0.00001`
for 1e-05, `1e-7` for 1e-07, `1e16` in orjson before 3.12, `null` for nan
and infinity), so those cells get repr's text, once per distinct value: a
column of such numbers is written at about repr's speed, twice as fast as
shortest.py writes it. An orjson that writes the probes otherwise
than repr is not used: shortest.py writes the lines then.

Each column is dumped as one JSON array, and its commas are the ends of its
values: with the brackets off, the text and the commas' positions are an
Arrow string array without a copy. Each value keeps its comma, turned into
the first character of the text that follows it in a line (`,` in CSV,
`}` or `,` in JSON Lines, a newline at the end), and pyarrow joins the
columns and the rest of that text row by row. The cells orjson writes
otherwise are written 0 by it and spliced with repr's text.
tests/test_data.py compares the two writers on random bit patterns and on
the hard values.

``lines(columns, fragments, point_zero=None, nan_texts=None) -> bytes``
    The interface of shortest.lines: row i is fragments[0],
    columns[0][i], fragments[1], ..., columns[-1][i], fragments[-1];
    `point_zero[c]` keeps a whole number's ".0" in column c (JSON);
    `nan_texts[c]` maps "nan", "inf" and "-inf" to the text column c prints.
``write(fh, columns, fragments, ...)``
    The same lines written to a binary file without a copy.
``column_lines(columns, fragments, point_zero=None, nan_texts=None) -> bytes``
    The lines by whichever writer is faster: this one for a chunk of
    FAST_TEXT_ROWS rows or more when orjson and pyarrow are installed, else
    shortest.py. cli/ hands it to output/points.py, which prints a batch's rows
    (output/ does not import this package).
"""
from __future__ import annotations

import numpy as np

from .. import shortest
from ..shortest import repr_text
from . import has_fast_text, require
from .arrow import empty_strings, large_strings, repeated_text

# From this many rows a chunk of text is written here when orjson and pyarrow are installed:
# below it, importing them costs more than they save.
FAST_TEXT_ROWS = 4096
# repr and orjson (3.9 to 3.13) write 0 and every |x| in [LOW, HIGH) alike: positionally,
# the same digits. lines() checks that on PROBES before it trusts the installed orjson.
LOW, HIGH = 1e-4, 1e16
PROBES = [0.0, -0.0, 1e-4, -1.5e-4, 0.1, 0.30000000000000004, 1 / 3, 28.0, -100.0,
          123456789012345.6, 131439629882.54477, 9.007199254740992e15, 9.999999999999998e15]


def _column(pa, orjson, values: np.ndarray, end: bytes, point_zero: bool, nan_text: dict):
    """One column as a large_string array of its texts, each followed by the byte `end`."""
    magnitude = np.abs(values)
    odd = ~((magnitude >= LOW) & (magnitude < HIGH)) & (magnitude != 0)  # nan and inf too
    at = np.flatnonzero(odd)
    plain = values if not at.size else np.where(odd, 0.0, values)  # odd cells: below
    text = orjson.dumps(plain, option=orjson.OPT_SERIALIZE_NUMPY)
    if not point_zero and ((plain == np.trunc(plain)) & ~odd).any():
        text = text.replace(b".0,", b",").replace(b".0]", b"]")  # repr's ".0" dropped
    text = text[1:-1] + b","
    if end != b",":
        text = text.translate(bytes.maketrans(b",", end))
    ends = np.flatnonzero(np.frombuffer(text, dtype=np.uint8) == end[0])
    offsets = np.empty(values.size + 1, dtype=np.int64)
    offsets[0] = 0
    offsets[1:] = ends + 1
    if at.size:
        text, offsets = _mended(text, offsets, values, at, point_zero, nan_text)
    return large_strings(pa, offsets, text)


def _mended(text: bytes, offsets: np.ndarray, values: np.ndarray, at: np.ndarray,
            point_zero: bool, nan_text: dict):
    """(text, offsets) with the cells `at` (written 0 by orjson) in repr's text, found
    once per distinct value."""
    unique, inverse = np.unique(values[at].view(np.int64), return_inverse=True)
    reprs = [repr_text(v, point_zero, nan_text).encode("ascii")
             for v in unique.view(np.float64).tolist()]
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


def lines(columns, fragments, point_zero=None, nan_texts=None) -> bytes:
    """Row i of `columns` as one line of text between `fragments` (see the module doc)."""
    return bytes(_text(columns, fragments, point_zero, nan_texts))


def column_lines(columns, fragments, point_zero=None, nan_texts=None) -> bytes:
    """lines(...) for a large chunk when the data extra is installed, else shortest.lines:
    the same bytes either way (see the module doc)."""
    if len(columns[0]) >= FAST_TEXT_ROWS and has_fast_text():
        return lines(columns, fragments, point_zero, nan_texts)
    return shortest.lines(columns, fragments, point_zero, nan_texts)


def write(fh, columns, fragments, point_zero=None, nan_texts=None) -> None:
    """lines(...) written to the binary file `fh`, without copying them first."""
    fh.write(_text(columns, fragments, point_zero, nan_texts))


def _text(columns, fragments, point_zero, nan_texts):
    """lines(...) as a bytes-like object (a view of pyarrow's joined buffer)."""
    k = len(columns)
    n = len(columns[0]) if k else 0
    if not n:
        return b""
    columns = [np.ascontiguousarray(c, dtype=np.float64) for c in columns]
    point_zero = point_zero or [False] * k
    nan_texts = nan_texts or [{}] * k
    pa = require("pyarrow", "fast text output")
    orjson = require("orjson", "fast text output")
    # Each column's values end with the first byte of the text after them.
    if not _trusted(orjson) or not all(fragments[1:]):
        return shortest.lines(columns, fragments, point_zero, nan_texts)
    import pyarrow.compute as pc

    parts = []
    if fragments[0]:
        parts.append(repeated_text(pa, fragments[0].encode("ascii"), n))
    for c in range(k):
        after = fragments[c + 1].encode("ascii")
        parts.append(_column(pa, orjson, columns[c], after[:1], point_zero[c], nan_texts[c]))
        if len(after) > 1:
            parts.append(repeated_text(pa, after[1:], n))
    joined = pc.binary_join_element_wise(*parts, empty_strings(pa, n)) \
        if len(parts) > 1 else parts[0]
    _, offsets, data = joined.buffers()
    bounds = np.frombuffer(offsets, dtype=np.int64)
    first, last = bounds[joined.offset], bounds[joined.offset + len(joined)]
    return memoryview(data)[first:last]
