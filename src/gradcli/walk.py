"""The iterative depth-first walk of the AST.

The AST is a DAG whose depth the user controls (100,000 nested parentheses),
so nothing may recurse over it. `postorder` visits each distinct node (by
identity) once, children before parents, with an explicit stack. The two walks
on the hottest paths are this one written out where they are used: the
engine's `topo_order` (which marks nodes instead of keeping a set of ids) and
`lower` (which lowers each node as the walk finishes it); a callback per node
cost more there than the work done at the node. Imports nothing of ours.
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
