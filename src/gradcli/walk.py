"""The one iterative depth-first walk, shared by the AST and the autograd graph.

Both are DAGs whose depth the user controls (100,000 nested parentheses, a
million-node graph), so nothing may recurse over them. `postorder` visits each
distinct node (by identity) once, children before parents, with an explicit
stack; the AST walks it over `children()`, the engine over the parents that need
a gradient. Imports nothing of ours.
"""
from __future__ import annotations

from typing import Callable, Iterable

_EMIT = object()  # marker on the stack: the node under it is complete


def postorder(root, children: Callable[[object], Iterable]) -> list:
    """Each node reachable from `root` once, after all of its `children(node)`.

    `children(node)` lists them in the order to walk them, the first walked first.
    """
    order = []
    emit = order.append
    seen = set()
    mark = seen.add
    stack = [root]
    push = stack.append
    pop = stack.pop
    while stack:
        node = pop()
        if node is _EMIT:
            emit(pop())
            continue
        if id(node) in seen:
            continue
        mark(id(node))
        kids = children(node)
        if not kids:
            emit(node)
            continue
        push(node)
        push(_EMIT)  # below the children: popped once they are all in the order
        for child in reversed(kids):
            if id(child) not in seen:
                push(child)
    return order
