"""Float columns as CSV lines through pyarrow: the same bytes as output/shortest.py, in compiled code.

Text output of a batch is repr's shortest round-trip text of each number
without a trailing ".0" (`28`, `0.1`, `-0`, `nan`, `inf`, `1e-05`,
`1e+16`). pyarrow's cast of a double to a string finds the same shortest
digits (double-conversion), but chooses the positional or exponent form
by other rules (`1.3143962988254477e+11`, `0.00001`) and writes one-digit
exponents (`1e-7` against repr's `1e-07`). So the cast's text stands where
both write a number positionally (from 1e-4 up to 1e15, wherever the cast
wrote no exponent), and repr writes the rest (tiny, huge, long, nan),
once per distinct value. tests/test_data.py compares the two writers
on random bit patterns and on the hard values.

``lines(columns, sep=",") -> bytes``
    Row i is columns[0][i], sep, columns[1][i], ..., then a newline.
"""
from __future__ import annotations

import numpy as np

from . import require_pyarrow

# repr and the cast agree on the form of |x| in [LOW, HIGH): positional, same digits.
LOW, HIGH = 1e-4, 1e15


def _texts(pa, pc, values: np.ndarray):
    """One column as a large_string array of its shortest round-trip texts."""
    out = pc.cast(pa.array(values, type=pa.float64()), pa.large_string())
    a = np.abs(values)
    other = ~((a >= LOW) & (a < HIGH)) & (a != 0)  # nan, inf and the far ranges (not -0)
    # Below HIGH the cast still writes an exponent where the digits run long
    # (1.3143962988254477e+11); repr writes those positionally.
    other |= pc.match_substring(out, "e").to_numpy(zero_copy_only=False)
    if other.any():
        at = np.flatnonzero(other)
        unique, inverse = np.unique(values[at].view(np.int64), return_inverse=True)
        texts = []
        for v in unique.view(np.float64).tolist():
            t = repr(v)
            texts.append(t[:-2] if t.endswith(".0") else t)
        replacement = pa.array(np.array(texts, dtype=object)[inverse.ravel()],
                               type=pa.large_string())
        out = pc.replace_with_mask(out, pa.array(other), replacement)
    return out


def lines(columns, sep: str = ",") -> bytes:
    """The CSV (or tab-separated) lines of float columns (see the module doc)."""
    pa = require_pyarrow("CSV output")
    import pyarrow.compute as pc

    if not columns or len(columns[0]) == 0:
        return b""
    texts = [_texts(pa, pc, np.ascontiguousarray(c, dtype=float)) for c in columns]
    large = pa.large_string()
    joined = pc.binary_join_element_wise(*texts, pa.scalar(sep, large)) \
        if len(texts) > 1 else texts[0]
    joined = pc.binary_join_element_wise(joined, pa.scalar("\n", large), pa.scalar("", large))
    _, offsets, data = joined.buffers()
    ends = np.frombuffer(offsets, dtype=np.int64)
    first, last = ends[joined.offset], ends[joined.offset + len(joined)]
    return data.to_pybytes()[first:last] if first else memoryview(data)[:last].tobytes()
