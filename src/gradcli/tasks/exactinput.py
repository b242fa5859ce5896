"""User text read exactly as SymPy: a function of one or two variables, or a constant.

The text is read by the language's own rules (read_program), its program
inlined into one tree and turned into SymPy by symbolic/realforms.py (real odd
roots as SPEC §3.11 reads them). The tasks that work exactly (mvt, the normal
line at a kink, implicit --order 2) and their graders read through here.
Imports SymPy.
"""
from __future__ import annotations

import sympy as S

from ..errors import UsageError
from ..language.expr import inputs_of
from ..reading import read_program
from ..symbolic.derivative import inline
from ..symbolic.realforms import to_sympy


def read_sympy(text: str, names=(), real_roots: bool = True):
    """(the text as SymPy, its variables in order of appearance, the program); see
    to_sympy for `real_roots`."""
    program = read_program(text, names)
    root, _ = inline(program)
    return to_sympy(root, inputs_of(program), real_roots), inputs_of(program), program


def constant(text: str, what: str):
    """A constant typed by the user (2, -pi/4, sqrt(3)) as an exact SymPy number."""
    value, variables, _ = read_sympy(text)
    if variables:
        raise UsageError(f"{what}: expected a number, got a formula in {', '.join(variables)}")
    value = S.nsimplify(value) if value.has(S.Float) else value
    if not (value.is_real and value.is_finite):
        raise UsageError(f"{what}: expected a finite real number, got {text.strip()}")
    return value
