"""∇f and the Hessian of a scalar program at many points at once, over arrays.

Every operation of the program must act element by element (the caller checks):
then one array per input stands for as many separate points.
"""
from __future__ import annotations

from .engine import Unformed, topo_order
from .lower import lower
def batch_gradient_hessian(program, names: list, bindings: dict, columns: dict):
    """∇f and the Hessian of a scalar program at many points at once: (G, H) with
    G[k, i] = ∂f/∂names[i] and H[k, i, j] = ∂²f/∂names[i]∂names[j] at point k.

    `columns` maps each name to a 1-D array of coordinates. Every operation is
    elementwise, so one backward pass seeded with ones gives each point's own
    gradient, and a second pass through each partial its row of the Hessian.
    A DomainError anywhere is raised (the caller falls back to single points).
    """
    import numpy as np
    size = len(next(iter(columns.values())))
    graph = lower(program, {**bindings, **columns}, wrt=set(names))
    out = graph.output
    ones = np.ones(size)
    leaves = [graph.inputs[name] for name in names]
    G = np.zeros((size, len(names)))
    H = np.zeros((size, len(names), len(names)))
    if not out.requires_grad:
        return G, H
    for leaf in leaves:
        leaf.grad = 0
    with np.errstate(all="ignore"):
        out.backward(gradient=ones, create_graph=True)
        first = [leaf.grad for leaf in leaves]
        for i, g in enumerate(first):
            G[:, i] = np.broadcast_to(getattr(g, "data", g), (size,))
            for leaf in leaves:
                leaf.grad = 0
            if not hasattr(g, "backward") or not g.requires_grad:
                continue
            unformed = [n for n in topo_order(g) if type(n) is Unformed]
            for n in unformed:
                n.grad = 0
            g.backward(gradient=ones)
            if any(np.any(n.grad != 0) for n in unformed):
                H[:, i, :] = np.nan
                continue
            for j, leaf in enumerate(leaves):
                H[:, i, j] = np.broadcast_to(getattr(leaf.grad, "data", leaf.grad), (size,))
    return G, H
