"""Critical points in a box: where ∇f = 0, each classified by the second-derivative test.

Newton's method on ∇f = 0 (the Hessian from the engine's second backward pass)
starts from a grid over the box; every point it converges to inside the box is
refined to full precision, verified (|∇f| tiny compared with the size of f's
derivatives there), merged with its neighbours, and classified by the
eigenvalues of its Hessian: all positive a local minimum, all negative a local
maximum, both signs a saddle point, a zero eigenvalue "the test is inconclusive".
A grid search cannot prove that it found every critical point, and the result
says so; it never claims completeness. Nothing here prints.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from ..errors import DomainError, GradcliError, UsageError
from ..language.expr import inputs_of
from ..inputs import parse_over
from ..limits import MAX_CRITICAL_STARTS as MAX_STARTS
from ..reading import given_names, read_program

STEPS = 60


@dataclass
class CriticalPoint:
    """One point where the gradient vanishes, with its value, Hessian and kind."""

    point: dict
    value: float
    hessian: list
    eigenvalues: list
    kind: str             # "local minimum", "local maximum", "saddle point", "inconclusive"
    exact: dict | None = None   # name -> SymPy number, where the point is known exactly
    exact_value: object = None  # f there as a SymPy number
    exact_hessian: list | None = None  # the Hessian there as SymPy numbers (an exact point)


@dataclass
class Critical:
    """The critical points found in a box, and how the search was done."""

    expression: str
    read_as: str
    box: dict             # name -> (low, high)
    points: list
    starts: int
    complete: bool = False
    note: str = ""
    warnings: list = field(default_factory=list)
    method: str = "search"  # "algebra" | "interval" (complete, proven) | "search"
    sets: list = field(default_factory=list)   # (equation text, its kind): all critical


def parse_box(spec: str, split) -> dict:
    """'x=-3:3,y=-3:3' -> {'x': (-3.0, 3.0), 'y': (-3.0, 3.0)}."""
    box = {}
    for item in split(spec):
        name, eq, rng = item.partition("=")
        name = name.strip()
        if not eq or ":" not in rng or not name:
            raise UsageError(f"--over expects NAME=LOW:HIGH, got '{item}'",
                             hint="for example --over x=-3:3,y=-3:3")
        name, a, b = parse_over(item)
        if name in box:
            raise UsageError(f"--over gives '{name}' twice")
        box[name] = (a, b)
    return box


def classify(eigenvalues, scale: float) -> str:
    tol = 1e-8 * max(1.0, scale)
    if any(abs(e) <= tol for e in eigenvalues):
        return "inconclusive"
    if all(e > 0 for e in eigenvalues):
        return "local minimum"
    if all(e < 0 for e in eigenvalues):
        return "local maximum"
    return "saddle point"


def critical_points(text: str, box: dict, bindings: dict | None = None, *, evaluate,
                    per_axis: int | None = None, prove: bool = True) -> Critical | None:
    """The critical points of the scalar `text` in the box (every input in it), proven
    complete where critical_proof can, else searched for from a grid. A box with an
    infinite side is for the proof alone: None when it does not close there."""
    import numpy as np
    bindings = dict(bindings or {})
    names = list(box)
    program = read_program(text, given_names(box, bindings))
    inputs = inputs_of(program)
    unknown = [v for v in inputs if v not in box and v not in bindings]
    if unknown:
        raise UsageError(f"--over gives no range for {', '.join(unknown)}",
                         hint="every input needs a range, or a value with --at")
    unused = [v for v in names if v not in inputs]
    if unused:
        raise UsageError(f"--over gives a range for {', '.join(unused)}, which the expression "
                         "does not use", hint="search over the expression's own inputs: "
                         + (", ".join(inputs) or "it has none"))
    given = evaluate

    def evaluate(t, at, **kw):  # the program is read once, not at every point
        return given(t, at, program=program, **kw)

    probe = {n: _middle(lo, hi) for n, (lo, hi) in box.items()}
    try:
        first = evaluate(text, {**bindings, **probe})
    except DomainError:
        first = None
    if first is not None and not isinstance(first.value, (int, float)):
        raise UsageError("critical points need a scalar function",
                         hint="sum(...) a vector result, or search one element at a time")
    n = len(names)
    if not n:
        raise UsageError("critical points need a variable to search, and the expression has "
                         "none" if not inputs else "every input has a value from --at: "
                         "nothing is left to search", hint="search over an input with --over")
    if 2 ** n > MAX_STARTS:
        # Two starts per axis is already 2^n Newton runs: a grid search cannot cover this box.
        raise UsageError(f"critical points are searched in at most "
                         f"{int(math.log2(MAX_STARTS))} variables at once, and the expression "
                         f"has {n}: {', '.join(names[:6])}{', ...' if n > 6 else ''}",
                         hint="give the others values with --at, and search the rest with "
                              "--over")
    finite = all(math.isfinite(v) for ends in box.values() for v in ends)
    if prove:
        proven = _proven(text, box, bindings, names, evaluate, first)
        if proven is not None or not finite:
            return proven
    if per_axis is None:
        per_axis = max(2, min(9, int(round(MAX_STARTS ** (1 / n)))))
    grids = [np.linspace(lo, hi, per_axis) for lo, hi in box.values()]
    starts = list(itertools.product(*grids))
    ends = None
    if _elementwise(program):
        ends = _newton_all(program, names, np.array(starts, dtype=float), bindings, box,
                           evaluate)
    if ends is None:
        ends = []
        for start in starts:
            try:
                ends.append(_newton(text, names, np.array(start, dtype=float), bindings, box,
                                    evaluate))
            except (GradcliError, ArithmeticError, np.linalg.LinAlgError):
                continue
    # Many starts end at one point: merge them before the (costlier) refinement.
    distinct = []
    for x in ends:
        if x is not None and not any(found_close(x, p, box) for p in distinct):
            distinct.append(x)
    found = []
    for x in distinct:
        x = _snap(text, names, x, bindings, evaluate)
        if not _inside(x, box) or any(found_close(x, p, box) for p in found):
            continue
        found.append(x)
    points = []
    for x in sorted(found, key=lambda v: tuple(v)):
        at = {**bindings, **dict(zip(names, map(float, x)))}
        r = evaluate(text, at, hessian=True)
        h = np.array([[float(r.hessian[a][b]) for b in names] for a in names])
        eig, vecs = np.linalg.eigh((h + h.T) / 2)
        eig = [float(e) for e in eig]
        scale = max([abs(e) for e in eig] + [1.0])
        kind = classify(eig, scale)
        if kind == "inconclusive":
            null = [vecs[:, i] for i, e in enumerate(eig) if abs(e) <= 1e-8 * scale]
            kind = higher_order_kind(text, bindings, names, list(map(float, x)),
                                     float(r.value), eig, null, evaluate) or kind
        points.append(CriticalPoint(dict(zip(names, map(float, x))), float(r.value) + 0.0,
                                    h.tolist(), eig, kind))
    note = (f"{len(points)} critical point{'s' if len(points) != 1 else ''} found by Newton's "
            f"method from {len(starts)} starts on a {'×'.join([str(per_axis)] * n)} grid; a "
            "grid search cannot prove that there are no others in the box")
    read = first.read_as if first is not None else text
    return Critical(text, read, box, points, len(starts), False, note,
                    list(first.warnings) if first is not None else [])


def _proven(text, box, bindings, names, evaluate, first):
    """The Critical of a proof (critical_proof.py), or None where there is none."""
    import numpy as np
    from .critical_proof import prove_critical, set_text
    from ..symbolic.realforms import symbol
    proof = prove_critical(text, box, bindings)
    if proof is None:
        return None
    points = []
    for p in sorted(proof.points, key=lambda q: tuple(q.point[n] for n in names)):
        x = [p.point[n] for n in names]
        try:
            r = evaluate(text, {**bindings, **p.point}, hessian=True)
        except (GradcliError, ArithmeticError):
            return None
        h = np.array(p.hessian if p.hessian is not None else
                     [[float(r.hessian[a][b]) for b in names] for a in names])
        eig, vecs = np.linalg.eigh((h + h.T) / 2)
        eig = [float(e) + 0.0 for e in eig]
        scale = max([abs(e) for e in eig] + [1.0])
        kind = p.kind or classify(eig, scale)
        if p.kind is None and (p.exact is not None or kind == "inconclusive"):
            # An exact point with a singular Hessian: the smallest eigenvalues are its zeros.
            cut = 1e-8 * scale if kind == "inconclusive" else min(abs(e) for e in eig)
            null = [vecs[:, i] for i, e in enumerate(eig) if abs(e) <= cut]
            kind = higher_order_kind(text, bindings, names, x, float(r.value), eig, null,
                                     evaluate) or "inconclusive"
        value = float(p.value) if p.value is not None else float(r.value)
        points.append(CriticalPoint(dict(p.point), value + 0.0, h.tolist(), eig, kind,
                                    p.exact, p.value, p.exact_hessian))
    sets = []
    syms = [symbol(n) for n in names]
    for h_ in proof.sets:
        sets.append((set_text(h_, syms), proof.kinds.get(h_) or
                     _set_kind(text, bindings, names, h_, syms, box, evaluate)))
    whole = not all(math.isfinite(v) for ends in box.values() for v in ends)
    where = "in the whole " + ("line" if len(names) == 1 else "plane" if len(names) == 2
                               else "space") if whole else "in the box"
    count = f"{len(points)} critical point{'s' if len(points) != 1 else ''}"
    if sets:
        curves = (f"{len(sets)} {'curve' if len(names) == 2 else 'set'}"
                  f"{'s' if len(sets) != 1 else ''} of ")
        listed = " (" + "; ".join(t for t, _ in sets) + ")"
        count = (f"{count} and {curves}them{listed}" if points
                 else f"{curves}critical points{listed}")
    if proof.inner is not None:
        from ..closedtext import printed_text
        note = (f"{count} {where}, and no others: f is a function of u = "
                f"{printed_text(proof.inner)}, so ∇f = f'(u) ∇u is 0 exactly where f'(u) = 0 "
                "(each root a level set of u) or ∇u = 0 (Gröbner bases)")
    elif proof.method == "algebra":
        note = (f"{count} {where}, and no others: ∇f = 0 solved exactly (Gröbner bases; "
                "every real root of each eliminant was tried)")
    else:
        note = (f"{count} {where}, and no others: interval arithmetic proves each the only "
                "zero of ∇f in a small box around it, and ∇f nonzero on the rest of the box")
    read = first.read_as if first is not None else text
    return Critical(text, read, box, points, 0, True, note,
                    list(first.warnings) if first is not None else [], proof.method, sets)


def _set_kind(text, bindings, names, h, syms, box, evaluate) -> str:
    """What f does around one point of a set of critical points (it is constant along
    the set): a minimum or maximum that is not strict, or neither."""
    import sympy as S
    lo_hi = [(max(lo, -10.0), min(hi, 10.0)) for lo, hi in box.values()]
    k = max(i for i, s in enumerate(syms) if h.has(s))   # solved for; the others are set
    last, others = syms[k], syms[:k] + syms[k + 1:]
    ranges = dict(zip(syms, lo_hi))
    for t in (0.5, 0.3, 0.7, 0.1, 0.9):
        at = {s: S.Rational(repr(ranges[s][0] + t * (ranges[s][1] - ranges[s][0])))
              for s in others}
        try:
            roots = [r for r in _real_roots(S.Poly(h.subs(at), last))
                     if ranges[last][0] <= float(r) <= ranges[last][1]]
        except (S.PolynomialError, S.GeneratorsNeeded, ValueError, TypeError):
            roots = []
        if roots:
            x = [float(at[s]) if s in at else float(roots[0]) for s in syms]
            try:
                f0 = float(evaluate(text, {**bindings, **dict(zip(names, x))}).value)
            except (GradcliError, ArithmeticError):
                continue
            kind = higher_order_kind(text, bindings, names, x, f0, [0.0], [], evaluate)
            return {"local minimum": "minimum (not strict)",
                    "local maximum": "maximum (not strict)"}.get(kind, kind or "inconclusive")
    return "inconclusive"


def _real_roots(poly) -> list:
    """Its real roots: exact over the rationals, else (x^2 + y^2 = π/2 at a fixed x) to 30
    digits, as a point to probe f at needs no more."""
    import sympy as S
    try:
        return poly.real_roots()
    except NotImplementedError:
        return [r for r in S.Poly(poly.as_expr().evalf(40), *poly.gens).nroots(n=30)
                if r.is_real]


def _middle(lo, hi) -> float:
    if math.isfinite(lo) and math.isfinite(hi):
        return (lo + hi) / 2
    return lo + 1 if math.isfinite(lo) else hi - 1 if math.isfinite(hi) else 0.0


def higher_order_kind(text, bindings, names, point, f0, eigenvalues, null, evaluate):
    """The kind of a critical point where the Hessian is singular, or None if undecided.

    Nonzero eigenvalues of both signs already make a saddle. Otherwise f is
    compared with f(point) at small distances along the Hessian's null
    directions (where the second-order test says nothing and the first
    nonvanishing higher derivative decides: x^6 rises, x^3 changes sign) and
    along a fixed spread of other directions: higher everywhere is a minimum,
    lower everywhere a maximum, both a saddle point.
    """
    import random
    scale = max([abs(e) for e in eigenvalues] + [1.0])
    if any(e > 1e-8 * scale for e in eigenvalues) and any(e < -1e-8 * scale
                                                         for e in eigenvalues):
        return "saddle point"
    n = len(names)
    rng = random.Random(len(names) * 7919 + len(text))
    dirs = []
    for v in null:
        v = [float(c) for c in v]
        dirs += [v, [-c for c in v]]
    for i in range(n):
        e = [0.0] * n
        e[i] = 1.0
        dirs += [e, [-c for c in e]]
    for _ in range(32 if n > 1 else 0):
        v = [rng.gauss(0, 1) for _ in range(n)]
        norm = math.hypot(*v)
        dirs.append([c / norm for c in v])
    up = down = 0
    size = max(1.0, *(abs(c) for c in point))
    floor = 1e-13 * max(1.0, abs(f0))
    for r in (3e-2 * size, 1e-2 * size, 3e-3 * size):
        for d in dirs:
            p = {**bindings, **{m: c + r * e for m, c, e in zip(names, point, d)}}
            try:
                f = float(evaluate(text, p).value)
            except (GradcliError, ArithmeticError):
                continue
            if f > f0 + floor:
                up += 1
            elif f < f0 - floor:
                down += 1
    if up and down:
        return "saddle point"
    if up:
        return "local minimum"
    if down:
        return "local maximum"
    return None


def _snap(text, names, x, bindings, evaluate):
    """x with |∇f| made as small as Newton allows where the root is multiple, and each
    coordinate put on a short decimal or simple fraction where ∇f is no larger there.

    At a degenerate critical point (x^6 at 0) Newton converges only linearly,
    by the factor (m - 1)/m for a root of multiplicity m; a step m times as
    long lands on it, so steps of 1..12 times Newton's are tried.
    """
    import numpy as np
    from fractions import Fraction

    def norm_at(v):
        at = {**bindings, **dict(zip(names, map(float, v)))}
        try:
            r = evaluate(text, at, hessian=True)
        except (GradcliError, ArithmeticError):
            return math.inf, None, None
        g = np.array([float(r.gradient[k]) for k in names])
        h = np.array([[float(r.hessian[a][b]) for b in names] for a in names])
        if not (np.all(np.isfinite(g)) and np.all(np.isfinite(h))):
            return math.inf, None, None
        return float(np.linalg.norm(g)), g, h

    best, (best_norm, g, h) = x, norm_at(x)
    for _ in range(6):
        if g is None or best_norm == 0:
            break
        try:  # not lstsq: its cut-off drops the tiny curvature of a degenerate direction
            step = np.linalg.solve(h, g)
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(h, g, rcond=1e-300)[0]
        if not np.all(np.isfinite(step)):
            break
        improved = False
        for m in range(1, 13):
            y = best - m * step
            ny, gy, hy = norm_at(y)
            if ny < best_norm:
                best, best_norm, g, h, improved = y, ny, gy, hy, True
        if not improved:
            break
    snapped = []
    for c in best:
        c = float(c)
        options = [c, float(f"{c:.6g}"), float(Fraction(c).limit_denominator(64))]
        if abs(c) < 1e-6:
            options.append(0.0)
        snapped.append(sorted(set(options)))
    candidates = [best]
    for choice in itertools.product(*snapped):
        y = np.array(choice, dtype=float)
        if np.all(np.abs(y - best) <= 1e-6 * np.maximum(1.0, np.abs(best))):
            candidates.append(y)
    scored = [(norm_at(y)[0], i, y) for i, y in enumerate(candidates)]
    norm0 = scored[0][0]
    # A short form wins when ∇f there is no larger than at the Newton point.
    good = [(len(repr(tuple(map(float, y)))), i, y) for nrm, i, y in scored if nrm <= norm0]
    return min(good, key=lambda t: (t[0], t[1]))[2] if good else best


def found_close(x, y, box) -> bool:
    widths = [hi - lo for lo, hi in box.values()]
    return all(abs(a - b) <= 1e-6 * max(1.0, w) for a, b, w in zip(x, y, widths))


def _elementwise(program) -> bool:
    """Whether every operation of the program acts element by element, so that arrays of
    points evaluate as many single points at once (no vectors, sums or products of them)."""
    from .. import ops
    from ..language.expr import Apply, Vector, postorder
    for stmt in program.statements:
        for node in postorder(stmt.expr):
            if isinstance(node, Vector):
                return False
            if isinstance(node, Apply) and getattr(ops.lookup(node.op), "vjp", None) is not None:
                return False
    return True


def _newton_all(program, names, starts, bindings, box, evaluate):
    """Newton's iteration on ∇f = 0 from every start at once; the converged points.

    Each step evaluates ∇f and the Hessian at all live points in one pass over
    arrays. Where f is flat to high order (x^6 at 0) Newton converges only
    linearly, by a fixed ratio in each coordinate; Aitken's extrapolation of
    three iterates lands on the limit, and it is taken wherever ∇f is smaller
    there. None when the batch cannot stand for single points (then each start
    is iterated alone).
    """
    import numpy as np
    from ..autodiff.batch import batch_gradient_hessian
    k, n = starts.shape
    lo = np.array([a for a, _ in box.values()])
    hi = np.array([b for _, b in box.values()])
    width = hi - lo
    X = starts.copy()
    state = np.zeros(k, dtype=np.int8)  # 0 iterating, 1 converged, -1 given up
    prev1 = np.full_like(X, np.nan)
    prev2 = np.full_like(X, np.nan)

    def grad_hess(points):
        columns = {name: points[:, i].copy() for i, name in enumerate(names)}
        try:
            return batch_gradient_hessian(program, names, bindings, columns)
        except (GradcliError, ArithmeticError):
            pass
        # A point outside f's domain spoils the batch: evaluate one at a time, nan there.
        G = np.full((len(points), n), np.nan)
        H = np.full((len(points), n, n), np.nan)
        for j, row in enumerate(points):
            try:
                G[j:j + 1], H[j:j + 1] = batch_gradient_hessian(
                    program, names, bindings, {m: row[i:i + 1] for i, m in enumerate(names)})
            except (GradcliError, ArithmeticError):
                continue
        return G, H

    def inside(points, slack=0.0):
        pad = slack * width
        tol_lo = 1e-12 * np.maximum(1, np.abs(lo))
        tol_hi = 1e-12 * np.maximum(1, np.abs(hi))
        return np.all((points >= lo - pad - tol_lo) & (points <= hi + pad + tol_hi), axis=1)

    first = True
    for _ in range(4 * STEPS):
        idx = np.flatnonzero(state == 0)
        if not idx.size:
            break
        x = X[idx]
        with np.errstate(all="ignore"):
            d1 = prev1[idx] - prev2[idx]
            d2 = x - prev1[idx]
            denom = d2 - d1
            ratio = d2 / d1
            linear = (ratio > 0) & (ratio < 1) & (denom != 0)
            cand = np.where(linear, x - d2 * d2 / np.where(denom == 0, 1, denom), x)
        has = np.flatnonzero(np.any(cand != x, axis=1) & np.all(np.isfinite(cand), axis=1))
        G, H = grad_hess(np.vstack([x, cand[has]]))
        if first:
            if not _agrees(program, names, bindings, x[0], G[0], H[0], evaluate):
                return None
            first = False
        norms = np.where(np.all(np.isfinite(G), axis=1), np.linalg.norm(G, axis=1), np.inf)
        better = norms[len(x):] < norms[has]
        take = has[better]
        x[take] = cand[take]
        G[take] = G[len(x):][better]
        H[take] = H[len(x):][better]
        G, H = G[:len(x)], H[:len(x)]
        prev1[idx[take]] = np.nan
        ok = np.all(np.isfinite(G), axis=1) & np.all(np.isfinite(H), axis=(1, 2))
        state[idx[~ok]] = -1
        idx, x, G, H = idx[ok], x[ok], G[ok], H[ok]
        if not idx.size:
            continue
        size = np.maximum(1.0, np.max(np.abs(x), axis=1))
        scale = np.maximum(1.0, np.max(np.abs(H), axis=(1, 2)) * size)
        step = np.einsum("kij,kj->ki", np.linalg.pinv(H, rcond=n * np.finfo(float).eps), G)
        small = np.linalg.norm(step, axis=1) <= 1e-10 * size
        done = (np.linalg.norm(G, axis=1) <= 1e-12 * scale) & small
        state[idx[done]] = np.where(inside(x[done]), 1, -1)
        X[idx[done]] = x[done]
        live = ~done
        idx, x, step = idx[live], x[live], step[live]
        nxt = x - step
        bad = ~np.all(np.isfinite(nxt), axis=1) | ~inside(nxt, slack=0.5)
        state[idx[bad]] = -1
        prev2[idx] = prev1[idx]
        prev1[idx] = x
        X[idx] = nxt
    # Out of steps: a point where ∇f is already tiny is kept, as a single start's is.
    idx = np.flatnonzero(state == 0)
    if idx.size:
        G, _ = grad_hess(X[idx])
        keep = np.all(np.isfinite(G), axis=1) & (np.linalg.norm(G, axis=1) <= 1e-9) \
            & inside(X[idx])
        state[idx[keep]] = 1
    return [X[i] for i in np.flatnonzero(state == 1)]


def _agrees(program, names, bindings, x, g, h, evaluate) -> bool:
    """The batch's ∇f and Hessian at x equal a single evaluation's (a guard, once)."""
    import numpy as np
    at = {**bindings, **dict(zip(names, map(float, x)))}
    try:
        r = evaluate(program.source, at, hessian=True)
    except (GradcliError, ArithmeticError):
        return not np.all(np.isfinite(g))
    g1 = np.array([float(r.gradient[v]) for v in names])
    h1 = np.array([[float(r.hessian[a][b]) for b in names] for a in names])
    same = np.isclose(g1, g, rtol=1e-9, atol=1e-12, equal_nan=True)
    return bool(np.all(same) and np.all(np.isclose(h1, h, rtol=1e-9, atol=1e-12,
                                                   equal_nan=True)))


def _newton(text, names, x, bindings, box, evaluate):
    """Newton's iteration on ∇f = 0 from x; the converged point inside the box, or None."""
    import numpy as np
    for _ in range(STEPS):
        at = {**bindings, **dict(zip(names, map(float, x)))}
        r = evaluate(text, at, hessian=True)
        g = np.array([float(r.gradient[v]) for v in names])
        h = np.array([[float(r.hessian[a][b]) for b in names] for a in names])
        if not (np.all(np.isfinite(g)) and np.all(np.isfinite(h))):
            return None
        scale = max(1.0, float(np.max(np.abs(h))) * max(1.0, float(np.max(np.abs(x)))))
        step = np.linalg.lstsq(h, g, rcond=None)[0]
        small = np.linalg.norm(step) <= 1e-10 * max(1.0, float(np.max(np.abs(x))))
        if np.linalg.norm(g) <= 1e-12 * scale and small:
            return _polish(text, names, x, bindings, evaluate) if _inside(x, box) else None
        x = x - step
        if not np.all(np.isfinite(x)):
            return None
        if not _inside(x, box, slack=0.5):
            return None
    at = {**bindings, **dict(zip(names, map(float, x)))}
    g = np.array([float(evaluate(text, at).gradient[v]) for v in names])
    if np.linalg.norm(g) <= 1e-9 and _inside(x, box):
        return x
    return None


def _polish(text, names, x, bindings, evaluate):
    """A few more Newton steps, keeping the point where |∇f| is smallest (full precision)."""
    import numpy as np
    best, best_norm = x, math.inf
    for _ in range(4):
        at = {**bindings, **dict(zip(names, map(float, x)))}
        r = evaluate(text, at, hessian=True)
        g = np.array([float(r.gradient[v]) for v in names])
        norm = float(np.linalg.norm(g))
        if norm < best_norm:
            best, best_norm = x, norm
        if norm == 0:
            break
        h = np.array([[float(r.hessian[a][b]) for b in names] for a in names])
        x = x - np.linalg.lstsq(h, g, rcond=None)[0]
        if not np.all(np.isfinite(x)):
            break
    return best


def _inside(x, box, slack: float = 0.0) -> bool:
    for v, (lo, hi) in zip(x, box.values()):
        pad = slack * (hi - lo)
        if not lo - pad - 1e-12 * max(1, abs(lo)) <= v <= hi + pad + 1e-12 * max(1, abs(hi)):
            return False
    return True
