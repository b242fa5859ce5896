"""Vectors and matrices over the engine: literals as one node, and gradients of non-scalar results.

Arrays flow through the same op table as numbers (the engine picks the NumPy
backend when a node's data is an array). This module builds a literal
`[a, b]` into one node and gives the two answers to a non-scalar result: a
vector-Jacobian product with an upstream `seed` (as PyTorch's
`backward(gradient=...)`) and the full Jacobian. The shape rules and messages
below the engine are in shapes.py.

NumPy is imported here, so this module is only imported once an array appears.
"""
from __future__ import annotations

import numpy as np

from .. import limits, ops
from ..errors import LimitError, ShapeError
from .engine import Value, topo_order
from .shapes import _size, shape_of, shape_text


# NumPy 1 allows 32 axes and NumPy 2 allows 64; the smaller holds on both.
MAX_DIMS = limits.MAX_AXES


def make_vector(values, node=None) -> Value:
    """The node for a literal `[a, b, ...]` whose elements are already nodes.

    Elements must all have the same shape (then the literal has one more axis).
    A literal of constants is one constant leaf; one with variable elements is a
    `stack` node, whose gradient hands slice i back to element i.
    """
    span = getattr(node, "span", None)
    if not values:
        raise ShapeError("[] is empty: a vector needs at least one element", span=span)
    first = shape_of(values[0].data)
    for i, v in enumerate(values):
        shape = shape_of(v.data)
        if shape != first:
            item_span = span
            if node is not None and i < len(node.items):
                item_span = getattr(node.items[i], "span", None) or span
            raise ShapeError(_ragged_message(first, shape, i), span=item_span,
                             hint="every row of a matrix needs the same number of elements")
    if len(first) >= MAX_DIMS:
        raise ShapeError(f"brackets nested more than {MAX_DIMS} deep: an array has at most "
                         f"{MAX_DIMS} axes", span=span)
    limits.check_elements(len(values) * _size(first), "this vector literal")
    data = np.stack([np.asarray(v.data, dtype=float) for v in values])
    requires = any(v.requires_grad for v in values)
    if not requires:
        return Value(data, requires_grad=False)
    return Value(data, True, None, tuple(values), ops.TABLE["stack"])


def _ragged_message(first, shape, i) -> str:
    if len(first) == 1 and len(shape) == 1:
        return (f"ragged matrix: row 1 has {first[0]} elements but row {i + 1} has "
                f"{shape[0]}")
    return (f"ragged literal: element 1 is {shape_text(first)} but element {i + 1} is "
            f"{shape_text(shape)}")


# ---------------------------------------------------------------- non-scalar results

def seeded_backward(out: Value, seed, on_kink=None) -> None:
    """backward(gradient=seed): fill the gradients of a vector-Jacobian product.

    The seed must have exactly the result's shape, as in PyTorch.
    """
    s = np.asarray(seed, dtype=float)
    if s.shape != shape_of(out.data):
        raise ShapeError(f"--seed has {shape_text(s.shape)} but the result has "
                         f"{shape_text(shape_of(out.data))}; they must be the same, as in "
                         "PyTorch's backward(gradient=...)")
    if s.ndim == 0:
        # An exact seed (--exact) stays a Fraction so the gradients stay exact.
        seed = seed if type(seed).__name__ == "Fraction" else float(s)
    out.backward(seed=seed if s.ndim == 0 else s, on_kink=on_kink)


def jacobian(out: Value, inputs: dict, on_kink=None) -> dict:
    """{name: J} with J[i..., j...] = d out[i...] / d input[j...] (rows = outputs).

    J has shape out.shape + input.shape, as torch.autograd.functional.jacobian
    gives; one backward pass per element of the result.
    """
    out_shape = shape_of(out.data)
    m = int(np.prod(out_shape))
    if m > limits.MAX_JACOBIAN_OUTPUTS:
        raise LimitError(f"--jacobian: the result has {m:,} elements; the limit is "
                         f"{limits.MAX_JACOBIAN_OUTPUTS:,} (one backward pass each)",
                         hint="use --seed for one vector-Jacobian product instead")
    entries = sum(m * int(np.prod(shape_of(v.data))) for v in inputs.values())
    if entries > limits.MAX_JACOBIAN_ENTRIES:
        raise LimitError(f"--jacobian would hold {entries:,} numbers; the limit is "
                         f"{limits.MAX_JACOBIAN_ENTRIES:,}", hint="use --seed or --wrt instead")
    order = topo_order(out)
    steps = len(order) + sum(len(node._parents) for node in order)
    if m * steps > limits.MAX_JACOBIAN_WORK:
        raise LimitError(f"--jacobian needs {m:,} backward passes of {steps:,} steps each; "
                         f"the limit is {limits.MAX_JACOBIAN_WORK:,} steps in all",
                         hint="use --seed for one vector-Jacobian product, or sum(...) "
                              "the result")
    rows = {name: np.zeros((m,) + shape_of(v.data)) for name, v in inputs.items()}
    for k in range(m):
        for v in inputs.values():
            v.grad = 0
        if out_shape == ():
            seed = 1.0
        else:
            seed = np.zeros(m)
            seed[k] = 1.0
            seed = seed.reshape(out_shape)
        if out.requires_grad:
            out.backward(seed=seed, on_kink=on_kink)
        for name, v in inputs.items():
            rows[name][k] = v.grad
    for v in inputs.values():
        v.grad = 0
    return {name: r.reshape(out_shape + shape_of(inputs[name].data)) for name, r in rows.items()}
