"""Second derivatives by differentiating the backward pass (double backward): at one
point (the Hessian of eval --hessian), or at many points at once over arrays.

For many points every operation of the program must act element by element (the
caller checks): then one array per input stands for as many separate points.
"""
from __future__ import annotations

from .engine import Unformed, topo_order
from .lower import lower


def second_partials(out, leaves, seed=None):
    """Differentiate the backward pass itself (double backward): for each leaf a, the pair
    (∂out/∂a, [∂²out/∂a∂b for each leaf b] or the names of the nodes whose derivative
    is undefined at the point, which spoil that row). `seed`: the upstream gradient of a
    non-scalar result (ones, for many points at once). The leaves' .grad are left at 0."""
    for leaf in leaves:
        leaf.grad = 0
    out.backward(gradient=seed, create_graph=True)
    first = [leaf.grad for leaf in leaves]
    for g in first:
        for leaf in leaves:
            leaf.grad = 0
        if not hasattr(g, "backward") or not g.requires_grad:
            yield g, None
            continue
        unformed = [n for n in topo_order(g) if type(n) is Unformed]
        for n in unformed:
            n.grad = 0
        g.backward(gradient=seed)
        spoilt = sorted({n.label for n in unformed if _nonzero(n.grad)})
        yield g, (spoilt if spoilt else [leaf.grad for leaf in leaves])
    for leaf in leaves:
        leaf.grad = 0


def _nonzero(grad) -> bool:
    any_ = getattr(grad, "any", None)
    return bool(any_()) if any_ is not None else grad != 0


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
    with np.errstate(all="ignore"):
        for i, (g, row) in enumerate(second_partials(out, leaves, ones)):
            G[:, i] = np.broadcast_to(getattr(g, "data", g), (size,))
            if row is None:      # ∂f/∂a is constant: its row of the Hessian is 0
                continue
            if row and isinstance(row[0], str):
                H[:, i, :] = np.nan
                continue
            for j, second in enumerate(row):
                H[:, i, j] = np.broadcast_to(getattr(second, "data", second), (size,))
    return G, H
