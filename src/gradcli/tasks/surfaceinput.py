"""Whether a tangent question is a level surface's: `x^2 + y^2 + z^2 = 14`, not a program.

One '=' outside brackets, no statements (`u = x y; u^2`), no function head on the
left (`f(x) = x^2 sin x` is a definition) and three coordinates between the
equation and the point. Light: the surface's own work (surface.py) loads SymPy.
"""
from __future__ import annotations

import re

from .implicit import top_equals

_HEAD = re.compile(r"^\s*[A-Za-z_]\w*\s*\([^()]*\)\s*$")


def is_level_surface(text: str, at_names=()) -> bool:
    found = top_equals(text)
    if len(found) != 1 or ";" in text or "\n" in text.strip():
        return False
    left, right = text[:found[0]], text[found[0] + 1:]
    if _HEAD.match(left) or not left.strip() or not right.strip():
        return False
    from ..errors import GradcliError
    from ..inputs import inputs_of
    from ..reading import read_program
    try:
        names = set(inputs_of(read_program(left))) | set(inputs_of(read_program(right)))
    except GradcliError:
        return False
    return len(names | (set(at_names) if len(names) == 2 else set())) == 3
