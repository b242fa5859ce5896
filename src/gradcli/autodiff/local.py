"""The local derivative of one operation at numbers, on the backend the numbers need.

`backend_for` picks the backend `B` of the op table's rules from the data: doubles
through math, arrays through NumPy, Fractions exactly (exact.py), SymPy numbers
as closed forms (closed.py). `local_derivative` runs an op's derivative rule
there; trace, check and the precision bound use it as backward does.
"""
from __future__ import annotations

import math
from fractions import Fraction

from .. import ops
from .backends import MathBackend, numpy_backend


class _NumericD:
    """The namespace `D` over a numeric backend: D.cos(x) is the table's value rule for cos."""

    def __init__(self, B):
        self.B = B

    def __getattr__(self, name):
        op = ops.lookup(name)
        B = self.B
        if op is None:
            fn = getattr(B, name)
        else:
            value = op.value

            def fn(*args):
                return value(B, *args)
        setattr(self, name, fn)
        return fn


_D = {}


def numeric_d(B) -> _NumericD:
    d = _D.get(B)
    if d is None:
        d = _D[B] = _NumericD(B)
    return d


_exact_backend = None


def backend_for(datas):
    """MathBackend for floats; NumPy for arrays; the exact backend for Fractions."""
    B = MathBackend
    for d in datas:
        t = type(d)
        if t is float or t is int:
            continue
        if t is Fraction:
            if B is MathBackend:
                B = _get_exact_backend()
            continue
        if t is bool:
            continue
        if t.__module__.startswith("sympy"):
            return _get_closed_backend()
        return numpy_backend()
    return B


_closed_backend = None


def _get_closed_backend():
    global _closed_backend
    if _closed_backend is None:
        from .closed import ClosedBackend
        _closed_backend = ClosedBackend
    return _closed_backend


def _get_exact_backend():
    global _exact_backend
    if _exact_backend is None:
        from .exact import ExactBackend
        _exact_backend = ExactBackend
    return _exact_backend


def backend_inputs(B, out, datas):
    """(out, datas) as backend B computes with them (Fractions for the exact one).

    Done once per node: converting per argument was quadratic in a wide max.
    """
    if B.name == "closed":
        from .closed import closed_inputs
        return closed_inputs(out, datas)
    if B.name != "exact":
        return out, datas
    from .exact import to_exact
    return to_exact(out), [to_exact(d) for d in datas]


def local_derivative(op: ops.Op, i: int, out, datas, B=None, converted: bool = False,
                     cache: dict | None = None):
    """d out / d datas[i] as a number (or array); inf/nan where the rule divides by zero.

    `converted`: out and datas already went through backend_inputs for B.
    `cache`: one dict per node, passed for each of its arguments (see Op.partial),
    so that a node of many arguments is linear work.
    """
    if cache is None:
        cache = {}
    if B is None:
        B = backend_for(datas)
    if not converted:
        out, datas = backend_inputs(B, out, datas)
    try:
        d = op.numeric_partial(B, numeric_d(B), i, out, datas, cache)
        # SymPy does not raise at 1/0: it gives zoo (no sign), where PyTorch's signed inf
        # is the convention gradcli follows and warns about; a closed form is never printed.
        if B.name != "closed" or not _infinite_closed(d):
            return d
    except (ZeroDivisionError, OverflowError, ValueError):
        pass
    # Where a float rule fails (1/0, log(0)) IEEE arithmetic gives PyTorch's inf/nan.
    import numpy as np
    NB = numpy_backend()
    # Arrays too: a Python float beside an array (a bound input in a batch) overflows
    # in Python (1e308**2) where NumPy would give inf.
    with np.errstate(all="ignore"):
        fdatas = [_as_floats(d) for d in datas]
        fout = _as_floats(out)
        d = op.numeric_partial(NB, numeric_d(NB), i, fout, fdatas)
    return float(d) if np.ndim(d) == 0 else d


def _infinite_closed(d) -> bool:
    import sympy as S
    return isinstance(d, S.Basic) and d.has(S.zoo, S.nan, S.oo, -S.oo)


def _as_floats(d):
    """d as doubles; an exact number beyond a double's range becomes inf, as IEEE rounds it."""
    import numpy as np
    try:
        return np.asarray(d, dtype=np.float64)
    except OverflowError:
        return np.float64(math.inf if d > 0 else -math.inf)
