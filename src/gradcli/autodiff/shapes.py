"""Shapes of arrays: the checks that turn a NumPy shape failure into a ShapeError, `@`'s gradient.

Below the engine and the backends (they import it lazily, once an array
appears), above nothing but the op table, limits, numbers and errors: the
shape rules and messages of `dot`, `@` and broadcasting, a value as an array,
the words for the elements where something holds, and the error of a
gradient asked of a non-scalar result. NumPy is imported here.
"""
from __future__ import annotations

import numpy as np

from .. import limits, ops
from ..errors import ShapeError, UsageError
from ..numbers import number_text


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


# ---------------------------------------------------------------- messages

def describe_elements(text: str, value, mask, limit: int = 3) -> str:
    """`x[1] = -2, x[3] = -1` for the elements of `value` where `mask` is set."""
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
