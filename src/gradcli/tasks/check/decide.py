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
DIGITS_RTOL = 1e-12   # beside the typed digits' own slack, only the doubles' rounding


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


def sample(a_root, b_root, variables, seed, at=None, beside=()) -> tuple:
    """(counterexample or None, points compared) by gradcli's engine: the given point first,
    then every point `beside` a kink (kink_points), then random ones of both signs and
    moderate size."""
    a, b = program_of(a_root), program_of(b_root)
    rng = seeded_rng(*seed)
    points = ([{v: float(at[v]) for v in variables}] if at and all(v in at for v in variables)
              else [])
    points += list(beside)
    fixed = len(points)
    points += [{v: float(f"{random_step(rng):.3g}") for v in variables} for _ in range(TRIES)]
    compared = 0
    for i, p in enumerate(points):
        x, y = maybe_value(a, p), maybe_value(b, p)
        if x is None or y is None:
            continue
        compared += 1
        if not close_to(x[0], y[0], RTOL, 1e-12, x[1], y[1]):
            return {"at": p, "yours": x[0], "correct": y[0]}, compared
        if compared >= ENOUGH and i >= fixed:
            break
    return None, compared


MAX_BESIDE = 120   # points beside kink curves compared by sample()


def kink_points(s, c, variables) -> list:
    """Points on both sides of every kink or domain edge of the two SymPy forms, wherever it
    is (kinkcurves.py); none where either has no form or neither has a kink."""
    if s is None or c is None:
        return []
    from ...symbolic.tosympy import symbol
    from .kinkcurves import curve_points
    from .linezeros import cut_arguments
    try:
        kinks, edges = cut_arguments((s, c))
        if not kinks and not edges:
            return []
        order = [symbol(v) for v in variables]
        found = curve_points(kinks | edges, order)
    except Exception:  # SymPy fails on the arguments: the random points remain
        return []
    return [{v: float(p[sym]) for v, sym in zip(variables, order)} for p in found[:MAX_BESIDE]]


def rounded_in(root, literals) -> list:
    """The student's rounded decimals (probes.rounded_literals) that stand in this root."""
    from ...language.expr import postorder
    if not literals:
        return []
    here = {id(n) for n in postorder(root)}
    return [(node, h) for node, h in literals if id(node) in here]


def _digits_rule(student_root, correct_root, variables, seed, literals, at) -> Comparison:
    """A formula with rounded decimals (0.333x for x/3): right where, at every point, the
    two differ by no more than moving each typed decimal within half its last unit."""
    from .probes import rounding_slack
    a, b = program_of(student_root), program_of(correct_root)
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
        slack = rounding_slack(a, lambda prog: [(maybe_value(prog, p) or (float("nan"),))[0]],
                               literals)[0]
        if not close_to(x[0], y[0], DIGITS_RTOL, 1e-12 + slack, y[1]):
            return Comparison(False, "point", {"at": p, "yours": x[0], "correct": y[0]},
                              compared)
        if compared >= ENOUGH:
            break
    return Comparison(compared > 0, "digits", None, compared)


def _precise_counterexample(s, c, variables, seed):
    """A rational point where SymPy, at 50 digits, finds s and c apart, or None."""
    import sympy as sp

    from ...symbolic.tosympy import symbol
    rng = seeded_rng(*seed, "precise")
    for _ in range(6):
        point = {v: sp.Rational(f"{random_step(rng):.3g}") for v in variables}
        subs = {symbol(v): q for v, q in point.items()}
        try:
            a, b = sp.N(s.subs(subs), 50), sp.N(c.subs(subs), 50)
        except (TypeError, ValueError, ZeroDivisionError):
            continue
        if not (a.is_real and b.is_real and a.is_finite and b.is_finite):
            continue
        if abs(a - b) > sp.Float("1e-35", 50) * max(1, abs(a), abs(b)):
            return {"at": {v: float(q) for v, q in point.items()}, "yours": float(a),
                    "correct": float(b)}
    return None


def compare(student_root, correct_root, variables, seed, at=None, literals=()) -> Comparison:
    """Comparison of the student's root with the correct one (see the module doc); with
    rounded decimals typed (`literals`), the digits rule decides at every point."""
    mine = rounded_in(student_root, literals)
    if mine:
        return _digits_rule(student_root, correct_root, variables, seed, mine, at)
    s, c = sympy_of(student_root), sympy_of(correct_root)
    word = proven(s, c, cheap=True)
    if word is True:
        return Comparison(True, "sympy")
    counter, compared = sample(student_root, correct_root, variables, seed, at,
                               kink_points(s, c, variables))
    if counter is not None:
        return Comparison(False, "sympy+point" if word is False else "point", counter, compared)
    if word is None:
        # No point tells them apart: SymPy's full simplification decides where it can.
        word = proven(s, c)
        if word is True:
            return Comparison(True, "sympy")
    if word is None and s is not None and c is not None:
        # Closer than doubles can see (x*(1 + 10^-10) for x): the difference at 50 digits.
        counter = _precise_counterexample(s, c, variables, seed)
        if counter is not None:
            return Comparison(False, "sympy-digits", counter, compared)
    if word is False:
        return Comparison(False, "sympy", None, compared)
    return Comparison(compared > 0, "sampling", None, compared)


def same(student_root, candidate_root, variables, seed) -> bool:
    """Whether the student's formula is this (wrong) candidate: SymPy's proof, or sampling
    where SymPy cannot say."""
    counter, compared = sample(student_root, candidate_root, variables, seed)
    if counter is not None:
        return False
    s, c = sympy_of(student_root), sympy_of(candidate_root)
    word = proven(s, c)
    if word is not None:
        return word
    if s is not None and c is not None and _precise_counterexample(s, c, variables, seed):
        return False
    return compared > 0


def how_text(c: Comparison) -> str:
    return {"sympy": "decided by SymPy: the difference simplifies to "
                     + ("0" if c.equal else "a nonzero number"),
            "sympy+point": "decided by SymPy (the difference is not 0) and a point where "
                           "the two differ",
            "point": "decided by a point where the two differ",
            "sympy-digits": "decided by SymPy: at 50 digits the two differ at a point",
            "digits": f"judged by the digits rule: equal within the rounding of the typed "
                      f"decimals at {c.compared} points",
            "sampling": f"judged by sampling: equal at {c.compared} points (SymPy could not "
                        "simplify the difference to 0)"}[c.how]


def decided_by(results) -> str:
    """The JSON word for the weakest evidence among comparisons: "proof" (SymPy proved every
    one equal), "counterexample" (a point, or SymPy, refuted one), else "sampling"."""
    hows = [r.how for r in results]
    if any(not r.equal and r.how in ("point", "sympy+point", "sympy-digits", "sympy")
           for r in results):
        return "counterexample"
    return "proof" if hows and all(h == "sympy" for h in hows) else "sampling"


def value(root, point):
    """The double of a root at a point, or None where undefined."""
    got = maybe_value(program_of(root), point)
    return None if got is None else got[0]
