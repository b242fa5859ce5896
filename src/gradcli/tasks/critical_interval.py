"""Every zero of ∇f in a box, proven by interval arithmetic (the Krawczyk test).

∇f and its Jacobian (f's Hessian) are evaluated over whole boxes in mpmath's
interval context, whose every operation rounds outward, so the result holds
every value the function takes on the box. A box is discarded when one
component of ∇f over it excludes 0 (no zero there), or when the Krawczyk
image K = m - Y∇f(m) + (I - Y H(X))(X - m) misses it; when K lies inside the
box's interior, the box holds exactly one zero (Krawczyk's theorem). Other
boxes are cut in two across their widest side, slightly off centre so that a
zero at a round number does not sit on a cut. The search gives up (None) past
a budget of boxes or when a box shrinks to nothing unresolved: a degenerate
zero (where the Hessian is singular) never passes the test, and then the
caller falls back to the grid search. Imports SymPy and mpmath.
"""
from __future__ import annotations

MAX_BOXES = 6000
CUT = 0.4921875          # an off-centre cut (63/128), exact in binary
SMALL = 8                # the Krawczyk test waits for boxes this many times smaller


def _functions(exprs, syms):
    """A function of the coordinates (intervals) returning the list of `exprs` over them,
    or None when an expression uses something the interval context lacks."""
    import mpmath
    import sympy as S
    from sympy.printing.pycode import MpmathPrinter
    for e in exprs:
        for fn in e.atoms(S.Function):
            # The printer calls mpmath.<name>: the interval context must have it.
            if not callable(getattr(mpmath.iv, type(fn).__name__, None)):
                return None
        for p in e.atoms(S.Pow):
            if not (p.exp.is_Integer or p.exp in (S.Half, -S.Half)):
                return None
    # The printer writes every constant as mpmath.mpf(p)/mpmath.mpf(q), mpmath.pi, ...:
    # with `mpmath` bound to the interval context each is an enclosing interval.
    fn = S.lambdify(list(syms), exprs, modules=[{"mpmath": mpmath.iv}],
                    printer=MpmathPrinter, cse=True)
    iv = mpmath.iv

    def intervals(*args):  # a constant entry (the 0 of a Hessian) comes back as an int
        return [v if hasattr(v, "a") else iv.mpf(v) for v in fn(*args)]
    return intervals


def prove_zeros(grad, hess, syms, box):
    """[(enclosing box, approximate zero)] for every zero of `grad` (SymPy expressions) in
    `box` (name -> (lo, hi), finite), each proven unique in its box; None when the proof
    does not close."""
    import mpmath
    import numpy as np
    iv = mpmath.iv
    g_of = _functions(grad, syms)
    h_of = _functions([e for row in hess for e in row], syms)
    if g_of is None or h_of is None:
        return None
    import sympy as S
    # The Hessian at a box's centre only picks the preconditioner Y: doubles do.
    h_mid = S.lambdify(list(syms), [e for row in hess for e in row], "math", cse=True)
    n = len(syms)
    bounds = [box[str(s)] for s in syms]
    # A zero on the box's own edge must lie inside some searched box: widen a hair.
    start = [(lo - 1e-9 * max(1.0, hi - lo), hi + 1e-9 * max(1.0, hi - lo))
             for lo, hi in bounds]
    floor = [1e-11 * max(1.0, abs(lo), abs(hi)) for lo, hi in start]
    stack = [start]
    proven = []
    boxes = 0
    while stack:
        boxes += 1
        if boxes > MAX_BOXES:
            return None
        x = stack.pop()
        X = [iv.mpf(list(b)) for b in x]
        try:
            gx = g_of(*X)
        except (ZeroDivisionError, ValueError, ArithmeticError):
            gx = None
        if gx is not None and any(not _has_zero(g) for g in gx):
            continue
        small = all(hi - lo <= (b - a) / SMALL for (lo, hi), (a, b) in zip(x, start))
        # On a large box the test fails (H(X) is too wide): it waits for a smaller one.
        verdict, shrunk = (("split", x) if gx is None or not small
                           else _krawczyk(g_of, h_of, h_mid, x, X, n, iv, np))
        if verdict == "none":
            continue
        if verdict == "unique":
            proven.append(shrunk)
            continue
        x = shrunk
        widths = [hi - lo for lo, hi in x]
        k = max(range(n), key=lambda i: widths[i] / max(1.0, abs(x[i][0]), abs(x[i][1])))
        if widths[k] <= floor[k]:
            return None
        cut = x[k][0] + CUT * widths[k]
        left, right = list(x), list(x)
        left[k], right[k] = (x[k][0], cut), (cut, x[k][1])
        stack += [right, left]
    out = []
    for b in proven:
        mid = _newton_in(g_of, h_of, b, iv, np)
        out.append((b, mid))
    return out


def _has_zero(interval) -> bool:
    """Whether 0 may be in the interval: an undefined end (nan, out of f's domain)
    excludes nothing."""
    import math
    try:
        a, b = float(interval.a), float(interval.b)
    except (AttributeError, TypeError, ValueError):
        return True
    return math.isnan(a) or math.isnan(b) or a <= 0 <= b


def _krawczyk(g_of, h_of, h_mid, x, X, n, iv, np):
    """("none" | "unique" | "split", the box shrunk to X ∩ K)."""
    mid = [(lo + hi) / 2 for lo, hi in x]
    try:
        gm = g_of(*[iv.mpf(m) for m in mid])
        hx = h_of(*X)
        jm = np.array(h_mid(*mid), dtype=float).reshape(n, n)
    except (ZeroDivisionError, ValueError, ArithmeticError, TypeError):
        return "split", x
    try:
        y = np.linalg.inv(jm)
    except (np.linalg.LinAlgError, ValueError, OverflowError, TypeError):
        return "split", x
    if not np.all(np.isfinite(y)):
        return "split", x
    yv = [[iv.mpf(float(y[i, j])) for j in range(n)] for i in range(n)]
    d = [X[j] - mid[j] for j in range(n)]
    inside, shrunk = True, []
    for i in range(n):
        k = iv.mpf(mid[i])
        for j in range(n):
            k -= yv[i][j] * gm[j]
            m_ij = (1 if i == j else 0) - sum((yv[i][t] * hx[t * n + j] for t in range(n)),
                                              iv.mpf(0))
            k += m_ij * d[j]
        lo, hi = float(k.a), float(k.b)
        if hi < x[i][0] or lo > x[i][1]:
            return "none", x
        if not (x[i][0] < lo and hi < x[i][1]):
            inside = False
        # X ∩ K holds every zero of X; widened a hair, so that a zero K pins exactly
        # (a linear component) still lies inside the next box, not on its edge.
        pad = 1e-10 * max(1.0, abs(lo), abs(hi)) + 0.01 * (hi - lo)
        shrunk.append((max(lo - pad, x[i][0]), min(hi + pad, x[i][1])))
    # The interval context works in doubles: lo and hi are K's ends exactly.
    if inside:
        return "unique", x
    return "split", shrunk


def _newton_in(g_of, h_of, b, iv, np):
    """The zero in a proven box to double precision (Newton from its centre, kept inside)."""
    n = len(b)
    x = np.array([(lo + hi) / 2 for lo, hi in b])
    for _ in range(40):
        pts = [iv.mpf(float(c)) for c in x]
        g = np.array([float(v.mid) for v in g_of(*pts)])
        h = np.array([float(v.mid) for v in h_of(*pts)]).reshape(n, n)
        try:
            step = np.linalg.solve(h, g)
        except np.linalg.LinAlgError:
            break
        nxt = np.clip(x - step, [lo for lo, _ in b], [hi for _, hi in b])
        if np.all(nxt == x):
            break
        x = nxt
    return [float(c) for c in x]
