"""Where a derivative formula is compared, and the numbers on both sides there.

The true derivative comes from the engine's backward pass (with the largest
term it added, the scale of its rounding); the answer is evaluated by the same
engine. The points are the given one, points on both sides of each kink or
domain edge, then random points of moderate size (|v| in 0.1..3, both signs,
the same on every run). Nothing here prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ...autodiff.engine import backend_for, backend_inputs, local_derivative, topo_order
from ...autodiff.lower import lower
from ...errors import DomainError, GradcliError, ShapeError, UsageError
from ...language.expr import Program
from ...limits import MAX_SAMPLE_TRIES
from .probes import edge_points
from .verdict import largest, magnitude

SAMPLES = 16          # random points compared besides the given one
LARGE = 20_000        # nodes: beyond this, SAMPLES_LARGE points keep the time near an eval's
SAMPLES_LARGE = 4


def backward_magnitude(root) -> float:
    """The largest term added into any gradient by the last backward pass."""
    def terms():
        for node in topo_order(root):
            if node._op is None or not node.requires_grad or node._op.vjp is not None:
                continue
            datas = [p.data for p in node._parents]
            B = backend_for(datas)  # once per node, as the engine does
            out, datas = backend_inputs(B, node.data, datas)
            for i, p in enumerate(node._parents):
                if not p.requires_grad:
                    continue
                try:
                    yield abs(float(node.grad * local_derivative(node._op, i, out, datas, B,
                                                                 converted=True)))
                except (TypeError, ValueError, OverflowError, ZeroDivisionError):
                    continue
    return largest(terms())


def true_derivative(program, point, name, strict=False):
    """(d/dname at point, magnitude) by the engine's backward pass; None where undefined.

    `strict` (the given point): a DomainError propagates, as in eval, and a
    non-finite derivative is returned as it is.
    """
    try:
        graph = lower(program, point, wrt={name})
    except DomainError:
        if strict:
            raise
        return None
    out = graph.output
    if getattr(out.data, "shape", ()) != ():
        raise ShapeError("symbolic answers are checked for a scalar expression; this one's "
                         f"value has shape {tuple(out.data.shape)}",
                         hint="wrap it in sum(...) or check numbers with --grad")
    if out.requires_grad:
        out.backward()
    t = graph.inputs[name].grad
    try:
        t = float(t)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(t) and not strict:
        return None
    return t, backward_magnitude(out)


def answer_value(answer: Program, point):
    """(value, magnitude) of the student's formula, or a DomainError where it is undefined."""
    g = lower(answer, point, wrt=set())
    shape = getattr(g.output.data, "shape", ())
    if shape != ():
        raise UsageError(f"the answer is a vector or matrix (shape {tuple(shape)}); the "
                         "derivative of a scalar expression by one variable is a number",
                         source=answer.source,
                         hint="give one formula per variable, each with its --wrt")
    return float(g.output.data), magnitude(g.output)


def ill_conditioned(program, answer_program, point, name, s, t, tol) -> bool:
    """True where a 1e-11 relative nudge of the point moves either side by more than tol.

    There rounding alone decides the digits (sin of 3**38, say), so the point proves nothing.
    """
    nudged = {k: v * (1 + 1e-11) for k, v in point.items()}
    truth = true_derivative(program, nudged, name)
    try:
        s2, _ = answer_value(answer_program, nudged)
    except DomainError:
        return True
    return truth is None or abs(truth[0] - t) > tol or not abs(s2 - s) <= tol


MODERATE = (0.1, 3.0)  # |value| of the random points: well scaled, where exp and powers neither
WIDE_AFTER = 60        # underflow nor overflow; after this many tries, wider (a narrow domain)


def exact_value(answer_program, point):
    """The answer at `point` computed with exact rationals, or None where it cannot be."""
    try:
        g = lower(answer_program, point, wrt=set(), exact=True)
        return float(g.output.data)
    except (GradcliError, ArithmeticError, TypeError, ValueError):
        return None


def edge_candidates(program, answer_program, variables, at, seed) -> list:
    """Points on both sides of each kink or domain edge of the question and the answer."""
    import random
    rng = random.Random(seed ^ 0x5EED)
    bases = [dict(at)] if at is not None else []
    while len(bases) < 2:
        bases.append({v: rng.choice((-1, 1)) * 10 ** rng.uniform(-1, 0.4) for v in variables})
    return edge_points([program, answer_program], variables, bases)


def sample_points(variables, at, seed, edges=()):
    """Points to compare at: the given one, the points beside each kink or domain edge,
    then random ones of both signs and moderate size.

    |v| in [0.1, 3] (and, when a point is given, every third one near it); after
    WIDE_AFTER tries without enough comparable points, |v| in [0.1, 100].
    """
    import random
    if at is not None:
        yield dict(at), True
    for point in edges:
        yield point, None
    rng = random.Random(seed)
    lo, hi = math.log10(MODERATE[0]), math.log10(MODERATE[1])
    for i in range(MAX_SAMPLE_TRIES):
        point = {}
        for v in variables:
            if at is not None and i % 3 == 2:
                base = at[v]
                x = base * (1 + rng.uniform(-0.5, 0.5)) + rng.uniform(-1, 1)
            elif i < WIDE_AFTER:
                x = rng.choice((-1, 1)) * 10 ** rng.uniform(lo, hi)
            else:
                x = rng.choice((-1, 1)) * 10 ** rng.uniform(-1, 2)
            point[v] = float(f"{x:.3g}") or 0.5
        yield point, False


@dataclass
class Row:
    """One point compared: the answer (None where undefined) and the derivative there."""

    point: dict
    given: bool
    yours: float | None
    correct: float
    ok: bool
    why: str = ""          # why the answer is undefined there
    tol: float = 0.0       # the tolerance used at this point
    mag: float = 0.0       # the largest magnitude inside the answer's graph there
