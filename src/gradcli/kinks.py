"""Kink conventions as warnings: which function, where, and the value it was given there.

A backward pass reports each kink (|x| at 0, max at a tie) it crossed; these
helpers turn them into bounded messages in the user's terms, for evaluate,
trace and gradcheck alike.
"""
from __future__ import annotations

from . import limits
from .autodiff.engine import backend_for
from .language.expr import Const, Num
from .language.printer import quoted
from .numbers import format_number, number_text


class KinkWarnings:
    """Collects the kink conventions a backward pass used, as bounded warnings."""

    def __init__(self, graph):
        self.graph = graph
        self.messages = []
        self.skipped = 0

    def on_kink(self, node, kink) -> None:
        if len(self.messages) >= limits.MAX_WARNINGS:
            self.skipped += 1  # counted only: a message costs the size of its sub-expression
            return
        self.messages.append(kink_message(self.graph, node, kink))

    def add_to(self, warnings: list) -> None:
        for message in self.messages:
            if message not in warnings:
                warnings.append(message)
        if self.skipped:
            warnings.append(limits.more_warnings(self.skipped))


def kink_message(graph, node, kink) -> str:
    """A kink convention in the user's terms: which function, where, what was used."""
    expr = graph.exprs.get(id(node))
    datas = [p.data for p in node._parents]
    hit = _kink_mask(node, kink, datas)
    shown = datas[:2] if hit is None else _first_hit(datas[:2], hit)
    names = {"x": _show(shown[0])}
    if len(datas) > 1:
        names["y"] = _show(shown[1])
    message = kink.message.format(**names)
    if expr is None:
        return message
    where = []
    for arg, data in zip(expr.args, datas):
        if not isinstance(arg, (Const,)) and not _is_literal(arg):
            if hit is not None and hasattr(data, "shape"):
                from .autodiff.shapes import describe_elements
                where.append(describe_elements(quoted(arg), data, hit))
            else:
                where.append(f"{quoted(arg)} = {_show(data)}")
    text = quoted(expr)
    return f"{message} (in {text}" + (f", where {', '.join(where)})" if where else ")")


def kink_text(kink) -> str:
    """A kink's convention without argument values, for many points or steps at once."""
    return kink.message.format_map(_Unfilled())


class _Unfilled(dict):
    """Leaves a placeholder such as {x} as the bare name."""

    def __missing__(self, key):
        return key


def _kink_mask(node, kink, datas):
    """Where, element by element, an array kink holds (None for scalars)."""
    if not any(hasattr(d, "shape") for d in datas):
        return None
    try:
        return kink.where(backend_for(datas), *datas)
    except (ValueError, ZeroDivisionError, OverflowError):
        return None


def _first_hit(datas, hit):
    """The arguments' values at the first element where an array kink holds."""
    import numpy as np
    try:
        shape = np.broadcast_shapes(np.shape(hit), *(np.shape(d) for d in datas))
        where = np.argwhere(np.broadcast_to(hit, shape))
        if not len(where):
            return datas
        index = tuple(where[0])
        return [float(np.broadcast_to(d, shape)[index]) for d in datas]
    except ValueError:
        return datas


def _is_literal(arg) -> bool:
    return isinstance(arg, Num)


def _show(value) -> str:
    try:
        return format_number(value)
    except (TypeError, ValueError):
        if getattr(value, "size", 0) <= 12:
            return number_text(value)
        return "[…]"
