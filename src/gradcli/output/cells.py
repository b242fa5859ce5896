"""Text in a rich table that wraps as a book does: never inside a formula or a bracket while
a space between words will do, continuation lines hang-indented (linebreaks.py's rule,
the one streams.fit applies to messages).

rich's own wrapping breaks at any space, so a cell such as `the secant's slope:
(f(2) - f(-2))/(2 - (-2)) = 3` came out as `(2 -` / `(-2)) = 3` at 60 columns.
`Broken` is a renderable that measures itself for the table and breaks at the
width the table gives it; `rows_table` lays out the label/value rows of the
homework commands with it, tab-separated parts of a value in aligned columns.
"""
from __future__ import annotations

import re

from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from .linebreaks import break_spans, longest_word


class Broken:
    """`text` (str or rich Text) wrapped at the width it is given, at linebreaks' safe
    points, continuation lines `hang` spaces in."""

    def __init__(self, text, hang: int = 2, style: str = "", columns: bool = False):
        self.text = text if isinstance(text, Text) else Text(str(text), style=style)
        self.hang, self.columns = hang, columns

    def __rich_measure__(self, console, options):
        plain = self.text.plain
        widest = max((len(line) for line in plain.split("\n")), default=0)
        return Measurement(min(widest, longest_word(plain) + self.hang), widest)

    def __rich_console__(self, console, options):
        width = options.max_width
        plain, pieces, offset = self.text.plain, [], 0
        for line in plain.split("\n"):
            for k, (s, e) in enumerate(break_spans(line, width, self.hang, self.columns)):
                piece = self.text[offset + s: offset + e]
                piece.rstrip()
                if k:
                    hang = self.hang if self.hang <= width // 2 else min(2, width // 4)
                    piece = Text(" " * hang) + piece
                pieces.append(piece)
            offset += len(line) + 1
        out = Text("\n").join(pieces)
        out.overflow = "fold"  # only a word longer than the whole line is ever cut
        yield out


_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$|^[-+]?inf$|^nan$")


def aligned_parts(values) -> list:
    """Each value's tab-separated parts padded to line up column by column with the other
    values' (numbers to the right), the column where its last part starts, and whether
    it has parts."""
    split = [str(v).split("\t") for v in values]
    widths, numeric = {}, {}
    for parts in split:
        for k, part in enumerate(parts[:-1]):
            widths[k] = max(widths.get(k, 0), len(part))
            numeric[k] = numeric.get(k, True) and bool(_NUMBER.match(part.strip()))
    out = []
    for parts in split:
        head = ""
        for k, part in enumerate(parts[:-1]):
            head += (part.rjust if numeric[k] else part.ljust)(widths[k]) + "   "
        out.append((head + parts[-1], len(head) if len(parts) > 1 else 2, len(parts) > 1))
    return out


def rows_table(rows, title: str | None = None):
    """Label/value rows (the homework commands' plain rows) as a two-column table; a
    value's tab-separated parts line up in columns from row to row."""
    table = Table(show_header=False, box=None, title=escape(title) if title else None,
                  title_justify="left", pad_edge=False)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    rows = list(rows)
    for (key, _), (value, hang, columns) in zip(rows, aligned_parts(v for _, v in rows)):
        table.add_row(Text(str(key)), Broken(value, hang, columns=columns))
    return table


__all__ = ["Broken", "aligned_parts", "rows_table"]
