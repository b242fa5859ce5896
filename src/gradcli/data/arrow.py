"""NumPy vectors to Arrow arrays and back, without a copy and without pandas.

pyarrow's own converters (`pa.array`, `Array.to_numpy`, even `pa.scalar`) import
pandas the first time they run, when it is installed, to ask whether their
argument is a pandas object: a fifth of a second and 40 MB for a command that
never touches a DataFrame. These build the arrays from their buffers instead.
"""
from __future__ import annotations

import numpy as np


def float_array(pa, values):
    """A float64 Arrow array over `values` (a 1-D array of numbers; copied only if it is
    not already contiguous float64)."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    return pa.Array.from_buffers(pa.float64(), values.size, [None, pa.py_buffer(values)])


def floats(array) -> np.ndarray:
    """The float64 values of an Arrow array without nulls, as a read-only NumPy view."""
    return np.frombuffer(array.buffers()[1], dtype=np.float64, count=len(array),
                         offset=array.offset * 8)


def large_strings(pa, offsets: np.ndarray, data) -> object:
    """A large_string Arrow array of len(offsets) - 1 texts: text i is
    data[offsets[i]:offsets[i + 1]] (offsets: int64)."""
    return pa.LargeStringArray.from_buffers(len(offsets) - 1, pa.py_buffer(offsets),
                                            pa.py_buffer(data))


def repeated_text(pa, text: bytes, n: int):
    """n copies of `text` as a large_string array."""
    return large_strings(pa, np.arange(n + 1, dtype=np.int64) * len(text), text * n)


def empty_strings(pa, n: int):
    """n empty large strings (a separator of nothing, for binary_join_element_wise)."""
    return repeated_text(pa, b"", n)
