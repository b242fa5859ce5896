"""csv rows of a points file that read a NUL character as data on every Python.

``rows(lines)`` is csv.reader(lines) where NUL is an ordinary character.
"""
from __future__ import annotations

import csv
import sys

# Python 3.10's csv module stops at a NUL character ("line contains NUL"); 3.11
# reads it as an ordinary character. On 3.10 each NUL is written as _ESC + "0"
# (and _ESC itself as _ESC + _ESC) before csv sees the line, and the fields are
# decoded after, so a NUL in a points file is the same data error on every Python.
_ESC = "\ue000"


def rows(lines):
    """csv.reader over `lines`, reading NUL characters as data on every Python."""
    if sys.version_info >= (3, 11):
        return csv.reader(lines)
    return _nul_safe_rows(lines)


def _nul_encode(line: str) -> str:
    if "\0" not in line and _ESC not in line:
        return line
    return line.replace(_ESC, _ESC + _ESC).replace("\0", _ESC + "0")


def _nul_decode(text: str) -> str:
    if _ESC not in text:
        return text
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == _ESC and i + 1 < len(text):
            out.append("\0" if text[i + 1] == "0" else _ESC)
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _nul_safe_rows(lines):
    for row in csv.reader(_nul_encode(line) for line in lines):
        yield [_nul_decode(f) for f in row]
