"""`eval --check`: each partial beside a central finite-difference estimate.

A gradcheck of the user's own expression, as autograd's check_grads and
PyTorch's gradcheck do for their rules; where the two disagree, the note names
the kink or jump that explains it. Nothing here prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .. import limits
from ..autodiff.engine import backend_for, topo_order
from ..autodiff.lower import lower
from ..errors import DomainError
from ..kinks import kink_message
from ..numbers import format_number, noise_free


@dataclass
class FiniteDifference:
    """A partial beside its central finite-difference estimate."""

    name: str
    gradient: object
    estimate: object          # the central difference (or one-sided where needed)
    rel_error: object         # |g - fd| / max(|g|, |fd|); 0 when both are 0
    ok: bool
    note: str = ""


def _as_double(v):
    from fractions import Fraction
    return float(v) if isinstance(v, Fraction) else v


def finite_differences(result) -> dict:
    """{input: FiniteDifference} for the scalar inputs of an EvalResult (gradcheck).

    h = cbrt(machine epsilon) * max(1, |x|). The two agree when
    |g - fd| <= 1e-5*max(|g|, |fd|) + 1e-8*max(1, |f|); where they do not and
    the point is at a kink or jump, the note names it.
    """
    graph = result.graph
    program = graph.program
    # Exact (--exact) results are checked in doubles, like any other.
    point = {k: _as_double(v) for k, v in result.at.items() if k in graph.inputs}
    f0 = _as_double(result.value)
    out = {}
    kinks = _kinks_by_input(graph)
    for name in result.inputs:
        g = _as_double(result.gradient.get(name))
        x = point.get(name)
        if not isinstance(x, float) or not isinstance(g, (int, float)):
            out[name] = FiniteDifference(name, g, None, None, True,
                                         "not checked: only scalar inputs are")
            continue
        h = 6.0554544523933395e-06 * max(1.0, abs(x))
        h = (x + h) - x
        up = _value_at(program, point, name, x + h)
        down = _value_at(program, point, name, x - h)
        note = ""
        if up is not None and down is not None:
            fd = (up - down) / (2 * h)
        elif up is not None:
            fd = (up - f0) / h
            note = f"one-sided (the expression is undefined at {name} = {_num(x - h)})"
        elif down is not None:
            fd = (f0 - down) / h
            note = f"one-sided (the expression is undefined at {name} = {_num(x + h)})"
        else:
            out[name] = FiniteDifference(name, g, math.nan, math.nan, False,
                                         f"the expression is undefined on both sides of {name}")
            continue
        g = float(g)
        if math.isfinite(g) and math.isfinite(fd):
            big = max(abs(g), abs(fd))
            rel = abs(g - fd) / big if big else 0.0
            ok = abs(g - fd) <= 1e-5 * big + 1e-8 * max(1.0, abs(float(f0)))
        else:
            rel = 0.0 if g == fd else math.inf
            ok = g == fd
        if not ok:
            note = "; ".join(n for n in (note, _why_disagree(
                program, point, name, x, h, f0, up, down, fd, kinks.get(name))) if n)
        out[name] = FiniteDifference(name, g, fd, rel, ok, note)
    return out


def _why_disagree(program, point, name, x, h, f0, up, down, fd, kinks) -> str:
    """Explain a finite difference that disagrees with the partial: a kink or a jump."""
    where = f"{name} = {format_number(x)}"
    if kinks:
        text = "; ".join(kinks)
        if up is not None and down is not None:
            return (f"{where} is at a kink, where the central difference averages the two "
                    f"sides (left {_num((f0 - down) / h)}, right {_num((up - f0) / h)}): {text}")
        return f"{where} is at a kink: {text}"
    if up is None or down is None:
        return ""
    left, right = (f0 - down) / h, (up - f0) / h
    if abs(left - right) > 1e-3 * max(1.0, abs(left), abs(right)):
        return (f"the one-sided differences disagree (left {_num(left)}, right {_num(right)}): "
                f"a kink lies within {_num(h)} of {where}")
    # A jump makes the difference quotient grow like 1/h; a smooth function does not.
    small = h / 16
    up2 = _value_at(program, point, name, x + small)
    down2 = _value_at(program, point, name, x - small)
    if up2 is not None and down2 is not None:
        fd2 = (up2 - down2) / (2 * small)
        if abs(fd2) > 8 * abs(fd) > 0:
            return (f"the difference quotient grows as the step shrinks ({_num(fd)} at h = "
                    f"{_num(h)}, {_num(fd2)} at h/16): the expression jumps at {where}")
    return ""


def _value_at(program, point, name, x):
    moved = dict(point)
    moved[name] = x
    try:
        v = float(lower(program, moved, wrt=set()).output.data)
    except (DomainError, TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _kinks_by_input(graph) -> dict:
    """{input name: [kink messages]} for kinks at the point on a path from that input."""
    order = topo_order(graph.output)  # parents first; only nodes that carry a gradient
    leaves = {id(leaf): name for name, leaf in graph.inputs.items()}
    deps = {}
    found = {}
    messages = 0
    for node in order:
        names = set()
        if id(node) in leaves:
            names.add(leaves[id(node)])
        for p in node._parents:
            names |= deps.get(id(p), set())
        deps[id(node)] = names
        op = node._op
        if op is None or not op.kinks:
            continue
        datas = [p.data for p in node._parents]
        B = backend_for(datas)
        for kink in op.kinks:
            try:
                hit = kink.where(B, *datas)
            except (ValueError, ZeroDivisionError, OverflowError, TypeError):
                continue
            if B.any(hit):
                messages += 1
                if messages > limits.MAX_WARNINGS:
                    continue  # a message costs the size of its sub-expression: bounded
                message = kink_message(graph, node, kink)
                for name in names:
                    if message not in found.setdefault(name, []):
                        found[name].append(message)
    return found


def _num(x) -> str:
    """A difference quotient shown to 12 digits: its last digits are rounding noise."""
    if isinstance(x, float) and math.isfinite(x):
        return noise_free(x)
    try:
        return format_number(x)
    except (TypeError, ValueError):
        return str(x)


__all__ = ["FiniteDifference", "finite_differences"]
