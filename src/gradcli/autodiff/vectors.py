"""Vectors and matrices: literals, shape rules, and gradients of non-scalar results.

Arrays flow through the same op table as numbers (the engine picks the NumPy
backend when a node's data is an array); this module holds what is particular
to shapes: building a literal `[a, b]` into one node, the checks that turn a
NumPy shape failure into a ShapeError naming both shapes and the operation,
the gradient of `@`, the words for undefined elements, and the two answers to
a non-scalar result: a vector-Jacobian product with an upstream `seed` (as
PyTorch's `backward(gradient=...)`) and the full Jacobian.

NumPy is imported here, so this module is only imported once an array appears.
"""
from __future__ import annotations

import numpy as np

from .. import limits, ops
from .engine import Value, topo_order
from ..errors import LimitError, ShapeError, UsageError


def shape_text(shape) -> str:
    """(3,) -> 'shape (3,)'; () -> 'a scalar'."""
    shape = tuple(shape)
    return "a scalar" if shape == () else f"shape {shape}"


def shape_of(data) -> tuple:
    return tuple(np.shape(data))


# ---------------------------------------------------------------- shape checks

def check_dot(sx, sy) -> None:
    """dot(a, b) takes two vectors of the same length, as torch.dot does."""
    sx, sy = tuple(sx), tuple(sy)
    if len(sx) != 1 or len(sy) != 1:
        raise ShapeError(f"dot needs two vectors, got {shape_text(sx)} and {shape_text(sy)}",
                         hint="for matrices use @; for a scalar factor use *")
    if sx != sy:
        raise ShapeError(f"dot needs two vectors of the same length, got shapes {sx} and {sy}")


def check_matmul(sx, sy) -> None:
    """`@` follows NumPy's matmul: no scalars, inner sizes equal, stack axes broadcast."""
    sx, sy = tuple(sx), tuple(sy)
    if not sx or not sy:
        raise ShapeError(f"@ needs vectors or matrices on both sides, got {shape_text(sx)} "
                         f"and {shape_text(sy)}", hint="to scale by a number use *")
    inner_right = sy[0] if len(sy) == 1 else sy[-2]
    if sx[-1] != inner_right:
        which = "only axis" if len(sy) == 1 else "second-to-last axis"
        raise ShapeError(f"@ cannot multiply shapes {sx} and {sy}: the last axis of the left "
                         f"({sx[-1]}) must equal the {which} of the right ({inner_right})")
    stack = ()
    if len(sx) > 2 or len(sy) > 2:
        try:
            stack = np.broadcast_shapes(sx[:-2], sy[:-2])
        except ValueError:
            raise ShapeError(f"@ cannot multiply shapes {sx} and {sy}: the stacking axes "
                             f"{sx[:-2]} and {sy[:-2]} do not broadcast") from None
    rows = sx[-2] if len(sx) > 1 else 1
    cols = sy[-1] if len(sy) > 1 else 1
    limits.check_elements(_size(stack) * rows * cols, f"@ of shapes {sx} and {sy}")


def check_broadcast(op: ops.Op, datas) -> None:
    """Element-wise operands must broadcast (NumPy's rule); else a ShapeError with every shape."""
    shapes = [np.shape(d) for d in datas]
    try:
        out = np.broadcast_shapes(*shapes)
    except ValueError:
        what = op.symbol if op.is_operator else op.extra.get("call_name", op.name)
        listed = " and ".join(str(tuple(s)) for s in shapes)
        raise ShapeError(f"shapes {listed} do not broadcast for {what}: from the last axis "
                         "back, sizes must be equal or 1",
                         hint="element-wise operations pair elements; for a matrix product "
                              "use @, for an inner product dot(a, b)") from None
    what = op.symbol if op.is_operator else op.extra.get("call_name", op.name)
    limits.check_elements(_size(out), f"{what} of shapes "
                          + " and ".join(str(tuple(s)) for s in shapes))


def _size(shape) -> int:
    n = 1
    for k in shape:
        n *= int(k)
    return n


def matmul_vjp(g, x, y):
    """Contributions of the upstream gradient `g` of x @ y to x and to y (any matmul shapes)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    g2 = np.asarray(g, dtype=float)
    # Give vectors their missing axis back, so one matrix formula serves every case.
    x2 = x[None, :] if x.ndim == 1 else x
    y2 = y[:, None] if y.ndim == 1 else y
    if y.ndim == 1:
        g2 = g2[..., None]
    if x.ndim == 1:
        g2 = np.expand_dims(g2, -2)
    gx = g2 @ np.swapaxes(y2, -1, -2)
    gy = np.swapaxes(x2, -1, -2) @ g2
    if x.ndim == 1:
        gx = gx[..., 0, :]
    if y.ndim == 1:
        gy = gy[..., :, 0]
    return gx, gy


# ---------------------------------------------------------------- literals

def as_array(value, what: str = "a value"):
    """A nested list (or array) of numbers as a float array; ragged lists are a ShapeError."""
    if isinstance(value, np.ndarray):
        return value.astype(float, copy=False)
    try:
        arr = np.array(value, dtype=float)
    except ValueError:
        raise ShapeError(f"{what} is ragged: the rows of a matrix must all have the same "
                         "length") from None
    except TypeError:
        raise UsageError(f"{what} must be a number or a list of numbers") from None
    if arr.size == 0:
        raise ShapeError(f"{what} is empty: a vector needs at least one element")
    return arr


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


# ---------------------------------------------------------------- messages

def describe_elements(text: str, value, mask, limit: int = 3) -> str:
    """`x[1] = -2, x[3] = -1` for the elements of `value` where `mask` is set."""
    from ..output.formats import number_text
    v = np.asarray(value)
    if v.ndim == 0:
        return f"{text} = {number_text(float(v))}"
    m = np.asarray(mask, dtype=bool)
    try:
        shape = np.broadcast_shapes(m.shape, v.shape)
        m = np.broadcast_to(m, shape)
        v = np.broadcast_to(v, shape)
    except ValueError:
        return f"{text} = {number_text(v)}"
    where = np.argwhere(m)
    parts = []
    for idx in where[:limit]:
        index = ", ".join(str(int(i)) for i in idx)
        parts.append(f"{text}[{index}] = {number_text(float(v[tuple(idx)]))}")
    if len(where) > limit:
        parts.append(f"and {len(where) - limit} more element{'s' if len(where) - limit > 1 else ''}")
    return ", ".join(parts) if parts else f"{text} = {number_text(v)}"


def nonscalar_error(shape) -> ShapeError:
    """A gradient needs a scalar result: the error with the three ways out."""
    shape = tuple(shape)
    size = int(np.prod(shape))
    seed = _ones_text(shape) if size <= 8 else f"[...] (an array of shape {shape})"
    return ShapeError(
        f"the result has shape {shape}, but a gradient needs a scalar result",
        hint=f"wrap it in sum(...); or pass --seed {seed}, the upstream gradient (a "
             "vector-Jacobian product, as PyTorch's backward(gradient=...)); "
             "or ask for the full --jacobian")


def _ones_text(shape) -> str:
    text = "1"
    for n in reversed(shape):
        text = "[" + ", ".join([text] * n) + "]"
    return text


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
