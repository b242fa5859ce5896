"""A batch's columns as text: their names, the header line, and rows of numbers.

Below both output/ (which prints a batch's rows) and data/ (whose --output CSV
file holds the same text), so that neither imports the other. Every number is
repr's shortest round-trip text without a whole number's ".0" (`28`, `0.1`,
`nan`), or number_text's at a --precision; shortest.py writes whole columns of
it at once, data/textlines.py the same bytes faster where the data extra is
installed.
"""
from __future__ import annotations

import io
import re

from .numbers import number_text

_POINT_ZERO = re.compile(r"\.0(?=[,\t\n])")


def batch_keys(run, result_name: str = "f") -> list[str]:
    """Column names of batch output: the columns used, f, then df/dx for each partial
    (`run` has `columns_used` and `wanted`, the inputs differentiated)."""
    return list(run.columns_used) + [result_name] + [f"d{result_name}/d{n}" for n in run.wanted]


def batch_header(keys, sep: str = ",") -> str:
    """The header line of CSV (quoted as needed) or tab-separated batch output."""
    import csv  # only for this format: eval -o plain starts without it
    if sep == "\t":
        return "\t".join(keys) + "\n"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(keys)
    return out.getvalue()


def columns_rows(cols) -> list:
    """Columns of floats as rows (lists of floats)."""
    return [list(r) for r in zip(*(c.tolist() for c in cols))]


def batch_delimited(rows, precision=None, sep: str = ",") -> str:
    """Rows of floats as delimited text, numbers as the shortest round-trip text."""
    if not rows:
        return ""
    if precision is None:
        text = "\n".join(sep.join(map(repr, r)) for r in rows) + "\n"
        return _POINT_ZERO.sub("", text)
    return "".join(sep.join(number_text(v, precision) for v in r) + "\n" for r in rows)


def columns_delimited(cols, precision=None, sep: str = ",", lines=None) -> bytes:
    """Float arrays as delimited ASCII text, a row per element: batch_delimited's text,
    made a whole column at a time when the numbers are the shortest round-trip text.

    `lines` writes the columns (the interface of shortest.lines, which it defaults to;
    data/textlines.column_lines gives the same bytes faster).
    """
    if precision is not None or not cols:
        return batch_delimited(columns_rows(cols), precision, sep).encode("ascii")
    if lines is None:
        from .shortest import lines  # NumPy: only batches come here
    return lines(cols, [""] + [sep] * (len(cols) - 1) + ["\n"])
