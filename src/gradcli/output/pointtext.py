"""The point a result was computed at, as the user typed it: `x = π/2`, not
`x = 1.5707963267948966`.

A value of --at typed as a closed form means that exact number (SPEC §2, "The
point as typed"), and inputs.TypedBindings keeps its text; the `at` line over a
table shows that text in the book's notation (π, √2), and every other value as
its digits. Standard library only: the decimal path imports nothing more.
"""
from __future__ import annotations

import re

from ..numbers import number_text

_PI = re.compile(r"(?<![A-Za-z_])pi(?![A-Za-z_0-9])")
_ROOT = re.compile(r"sqrt\((\d+)\)")
_TIMES = re.compile(r"(\d)\*(?=[π√])")
_BINARY = re.compile(r"(?<=[\w)π])([+-])(?=[\w(π√])")


def book_typed(text: str) -> str:
    """A typed closed form in the book's notation: 2*pi/3 -> 2π/3, sqrt(2)/2 -> √2/2,
    1+pi -> 1 + π (each reads back as the same number)."""
    t = text.replace(" ", "").replace("**", "^")
    t = _ROOT.sub(r"√\1", _PI.sub("π", t))
    return _BINARY.sub(r" \1 ", _TIMES.sub(r"\1", t))


def value_text(at, name: str, value, precision=None) -> str:
    """One coordinate of a point: its typed closed form where it has one, else digits."""
    typed = getattr(at, "typed", None) or {}
    if name in typed:
        return book_typed(typed[name])
    return number_text(value, precision)


def at_text(at: dict, precision=None) -> str:
    """`x = π/2, y = 1`."""
    return ", ".join(f"{k} = {value_text(at, k, v, precision)}" for k, v in at.items())


__all__ = ["book_typed", "value_text", "at_text"]
