"""A numerical witness against an incomplete Lagrange solution (`extrema --subject-to`).

SymPy's solve can return part of the solutions of a polynomial system in three
unknowns or more, silently. So the exact answer is put to a test it must pass
before it is printed: random points are projected onto the constraint set (Newton
steps along the constraints' gradients), the best of them climbed further by
projected gradient steps, and if any beats the claimed maximum (minimum), or comes
as close to it far from every listed point, the answer is refused (exit 3).
Nothing is added to the answer from here: a sample only ever refutes. Uses NumPy.
"""
from __future__ import annotations

from .onevar import NotExact

SAMPLES = 1500
CLIMB = 25


def refute(f, gs, symbols, result) -> None:
    """Raise NotExact when a sample of the constraint set beats the max or min of `result`."""
    import numpy as np
    import sympy as S
    n = len(symbols)
    fn = S.lambdify(symbols, f, "numpy")
    grad_f = S.lambdify(symbols, [S.diff(f, s) for s in symbols], "numpy")
    g_fn = S.lambdify(symbols, gs, "numpy")
    jac = S.lambdify(symbols, [[S.diff(g, s) for s in symbols] for g in gs], "numpy")
    coords = [abs(float(v.evalf(20))) for c in result.candidates for v in c.at.values()]
    radius = 2 * (1 + max(coords, default=1.0))
    rng = np.random.default_rng(20261205)
    pts = rng.uniform(-radius, radius, size=(SAMPLES, n))
    with np.errstate(all="ignore"):
        pts = _project(pts, g_fn, jac, n, len(gs))
        if pts.size == 0:
            return
        scale = 1 + max(abs(float(result.max.value.evalf(20))) if result.max.value is not None
                        else 0, abs(float(result.min.value.evalf(20)))
                        if result.min.value is not None else 0)
        for side, sign in ((result.max, 1.0), (result.min, -1.0)):
            if side.value is None or side.along:
                continue
            best = float(side.value.evalf(20))
            values = _signed(fn, pts, sign)
            top = pts[np.argsort(-values)[:40]]
            for _ in range(CLIMB):
                step = sign * 0.02 * radius * _unit(_columns(grad_f, top, n))
                top = _project(top + step, g_fn, jac, n, len(gs), rounds=6)
                if top.size == 0:
                    break
            found = np.concatenate([pts, top]) if top.size else pts
            values = _signed(fn, found, sign)
            if np.max(values) > sign * best + 1e-7 * scale:
                raise NotExact("SymPy's solution of the Lagrange system is incomplete: a "
                               "point of the constraint set does better than every "
                               "solution it gave", hint="gradcli claims nothing it cannot "
                                                        "prove; try the plane (two variables)")
            listed = np.array([[float(at[s.name].evalf(20)) for s in symbols]
                               for at in side.at])
            near = found[values > sign * best - 1e-9 * scale]
            if len(near) and len(listed) and np.max(np.min(np.linalg.norm(
                    near[:, None, :] - listed[None, :, :], axis=2), axis=1)) > 0.05 * radius:
                raise NotExact("SymPy's solution of the Lagrange system is incomplete: the "
                               "extreme value is reached at a point it did not give")


def _signed(fn, pts, sign):
    """sign·f at the points; -inf where f is not finite (never a witness)."""
    import numpy as np
    v = sign * np.asarray(fn(*pts.T), dtype=float) * np.ones(len(pts))
    return np.where(np.isfinite(v), v, -np.inf)


def _columns(fn, pts, n):
    import numpy as np
    return np.stack([np.asarray(c, dtype=float) * np.ones(len(pts)) for c in fn(*pts.T)],
                    axis=1)


def _unit(v):
    import numpy as np
    norm = np.linalg.norm(v, axis=1, keepdims=True)
    return np.where(norm > 0, v / np.where(norm > 0, norm, 1), 0)


def _project(pts, g_fn, jac, n, m, rounds=30):
    """Newton steps onto {g = 0}: p - Jᵀ(JJᵀ)⁻¹g(p); the points that get there."""
    import numpy as np
    for _ in range(rounds):
        g = np.stack([np.asarray(c, dtype=float) * np.ones(len(pts)) for c in g_fn(*pts.T)],
                     axis=1)
        if np.all(np.abs(g[np.isfinite(g)]) < 1e-13):
            break
        J = np.stack([np.stack([np.asarray(c, dtype=float) * np.ones(len(pts)) for c in row],
                               axis=1) for row in jac(*pts.T)], axis=1)   # (N, m, n)
        JJt = J @ np.transpose(J, (0, 2, 1)) + 1e-14 * np.eye(m)
        step = np.transpose(J, (0, 2, 1)) @ np.linalg.solve(JJt, g[:, :, None])
        pts = pts - step[:, :, 0]
    g = np.stack([np.asarray(c, dtype=float) * np.ones(len(pts)) for c in g_fn(*pts.T)],
                 axis=1)
    ok = np.all(np.isfinite(pts), axis=1) & np.all(np.abs(g) < 1e-9, axis=1)
    return pts[ok]
