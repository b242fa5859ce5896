"""Is the student's formula the right one? SymPy decides where it can, a point otherwise.

The order of evidence: SymPy simplifying the difference to 0 proves the
answer right; a point where gradcli's own engine gives the two formulas
different values proves it wrong (SymPy saying the difference is a nonzero
number proves it too); only when SymPy cannot simplify and no point tells
them apart is the answer judged right by sampling, and the verdict says so.
Every result carries `how`, the evidence named. Nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...language.expr import Program, Statement
from ...symbolic.derivative import inline
from .shared import close_to, maybe_value, random_step, seeded_rng

TRIES = 40        # random points tried for a counterexample
ENOUGH = 16       # points where both are defined, after which sampling stops
RTOL = 1e-9


@dataclass
class Comparison:
    equal: bool
    how: str                      # "sympy", "sympy+point", "point" or "sampling"
    counterexample: dict | None = None
    compared: int = 0


def program_of(root) -> Program:
    return Program((Statement(None, root),))


def root_of(program: Program):
    return inline(program)[0]


def sympy_of(root):
    """The SymPy form of a root, or None where an operation has none."""
    from ...symbolic.tosympy import NoSympyForm, to_sympy
    try:
        return to_sympy(root)
    except (NoSympyForm, TypeError, ValueError):
        return None


def proven(a, b, cheap: bool = False) -> bool | None:
    """SymPy's word on a == b (True, False) or None when it cannot say."""
    if a is None or b is None:
        return None
    from ...symbolic.tosympy import is_zero
    return is_zero(a - b, cheap)


def sample(a_root, b_root, variables, seed, at=None) -> tuple:
    """(counterexample or None, points compared) by gradcli's engine: the given point first,
    then random ones of both signs and moderate size."""
    a, b = program_of(a_root), program_of(b_root)
    rng = seeded_rng(*seed)
    points = ([{v: float(at[v]) for v in variables}] if at and all(v in at for v in variables)
              else [])
    points += [{v: float(f"{random_step(rng):.3g}") for v in variables} for _ in range(TRIES)]
    compared = 0
    for p in points:
        x, y = maybe_value(a, p), maybe_value(b, p)
        if x is None or y is None:
            continue
        compared += 1
        if not close_to(x[0], y[0], RTOL, 1e-12, x[1], y[1]):
            return {"at": p, "yours": x[0], "correct": y[0]}, compared
        if compared >= ENOUGH:
            break
    return None, compared


def compare(student_root, correct_root, variables, seed, at=None) -> Comparison:
    """Comparison of the student's root with the correct one (see the module doc)."""
    s, c = sympy_of(student_root), sympy_of(correct_root)
    word = proven(s, c, cheap=True)
    if word is True:
        return Comparison(True, "sympy")
    counter, compared = sample(student_root, correct_root, variables, seed, at)
    if counter is not None:
        return Comparison(False, "sympy+point" if word is False else "point", counter, compared)
    if word is None:
        # No point tells them apart: SymPy's full simplification decides where it can.
        word = proven(s, c)
        if word is True:
            return Comparison(True, "sympy")
    if word is False:
        return Comparison(False, "sympy", None, compared)
    return Comparison(compared > 0, "sampling", None, compared)


def same(student_root, candidate_root, variables, seed) -> bool:
    """Whether the student's formula is this (wrong) candidate: SymPy's proof, or sampling
    where SymPy cannot say."""
    counter, compared = sample(student_root, candidate_root, variables, seed)
    if counter is not None:
        return False
    word = proven(sympy_of(student_root), sympy_of(candidate_root))
    return word if word is not None else compared > 0


def how_text(c: Comparison) -> str:
    return {"sympy": "decided by SymPy: the difference simplifies to "
                     + ("0" if c.equal else "a nonzero number"),
            "sympy+point": "decided by SymPy (the difference is not 0) and a point where "
                           "the two differ",
            "point": "decided by a point where the two differ",
            "sampling": f"judged by sampling: equal at {c.compared} points (SymPy could not "
                        "simplify the difference to 0)"}[c.how]


def value(root, point):
    """The double of a root at a point, or None where undefined."""
    got = maybe_value(program_of(root), point)
    return None if got is None else got[0]
