"""One chunk of a points file: the record every point reader yields, whatever the format.

The readers of data/sources.py (CSV and JSON Lines text; Parquet, Arrow IPC
and CSV through pyarrow) yield the same record, so the evaluation
above them does not know which format it came from. Imports nothing heavy.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PointChunk:
    """Rows first_row .. first_row + n - 1 of a points file, as one float vector per column."""

    first_row: int
    n: int
    columns: dict
    invalid: object  # a bool NumPy array: rows that could not be read (their values are nan)
    problems: list = field(default_factory=list)
