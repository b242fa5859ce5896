"""The simplifier's numbers and limits: what it folds exactly, and how far it goes.

Shared by the simplifier (simplify.py) and its sum rules (sums.py).
"""
from __future__ import annotations

import math
from fractions import Fraction

from .. import ops

CAP = 8  # the most parts of a child sum/product that are merged into its parent
HALF = Fraction(1, 2)  # the exponent of sqrt, compared on every power
_BIG = 2 ** 64  # exact integer folding stops here, so no input can build a huge number
_OPS_CAP = 2 ** 62  # printed sizes are compared, never printed: a DAG's tree size saturates
EXPAND = 16  # the most terms a numerator is multiplied out to when fractions are combined
# Function factors in a product stand in the op table's product_rank order (exp(x)*sin(x)).
_FUNCTION_ORDER = {name: op.product_rank for name, op in ops.TABLE.items()
                   if op.product_rank is not None}
RESHAPE = 200  # sums up to this many operations are also tried over one denominator or
# multiplied out (what a student would do by hand); beyond that, not: it costs time and
# no one reads a formula that long for its shape


def _clean(v):
    """int for integral Fractions and floats, the number itself otherwise.

    Exact numbers too large to read back as anything but a double become doubles,
    so folding never builds a huge integer.
    """
    if isinstance(v, Fraction):
        if v.denominator == 1:
            v = v.numerator
        elif not _small(v):
            return _to_float(v)
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= _BIG:
        return _to_float(v)
    if isinstance(v, float) and v.is_integer() and abs(v) < 2 ** 53:
        return int(v)
    return v


def _to_float(v) -> float:
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def _finite(v) -> bool:
    return not isinstance(v, float) or math.isfinite(v)


def _small(v) -> bool:
    if isinstance(v, int):
        return abs(v) < _BIG
    if isinstance(v, Fraction):
        return abs(v.numerator) < _BIG and v.denominator < _BIG
    return True
