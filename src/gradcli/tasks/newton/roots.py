"""Every root of f in a range [low, high], to K decimal places (`gradcli newton --over`).

Sign changes of f on a grid of samples, each bracket narrowed in doubles and
finished by Newton's method in mpmath (kept only where f really reaches 0: a
pole or a jump changes sign without a root); Newton's method from every local
minimum of |f| on the grid where f does not change sign (a root of even
multiplicity, where f touches 0); and beside each root found, Newton on
f(x)/(x - r) for a second root the grid's step hides. Where f is a polynomial,
Sturm's theorem (sturm.py) counts its roots in the range, and the result is
complete when the search found that many; otherwise a sampled search cannot
prove that there are no other roots, and the result never claims it. f and f'
come from curve.py's Curve. Nothing here prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ...errors import DomainError
from .curve import DEFAULT_DIGITS, WORK_DPS, Curve, Undefined, check_digits, decimal_text, short

GRID = 800             # intervals of the grid


@dataclass
class Root:
    """A root found in the range: rounded, its double, and whether f changes sign there."""

    text: str
    value: float
    crossing: bool
    precise: object = None   # the root in mpmath


@dataclass
class RootSearch:
    """Every root found in [low, high], and how the search was done."""

    expression: str
    read_as: str
    variable: str
    low: float
    high: float
    digits: int
    roots: list
    note: str
    rejected: list = field(default_factory=list)   # sign changes that are not roots
    complete: bool = False
    proved: int | None = None   # the number of roots Sturm's theorem counts (polynomials)
    warnings: list = field(default_factory=list)


def roots(text: str, low: float, high: float, *, digits: int = DEFAULT_DIGITS,
          variable: str | None = None, bindings: dict | None = None,
          samples: int = GRID) -> RootSearch:
    """Every root of f = `text` found in [low, high] (see the module doc)."""
    import mpmath as mp
    import numpy as np
    digits = check_digits(digits)
    curve = Curve(text, variable, bindings, "--over")
    xs = np.linspace(low, high, samples + 1)
    f, df = curve.doubles(xs)
    defined = np.flatnonzero(np.isfinite(f))
    if not defined.size:
        raise DomainError(f"f is undefined at every sampled point of [{short(low)}, "
                          f"{short(high)}]")
    curve.lower_at(float(xs[defined[0]]))
    found, rejected = [], []
    with mp.workdps(WORK_DPS):
        scale = float(np.max(np.abs(f[defined]))) or 1.0
        for i in range(samples + 1):
            if f[i] == 0:
                _add(found, _polish(curve, xs[i], low, high) or mp.mpf(float(xs[i])),
                     crossing=None)
        for i in range(samples):
            a, b = f[i], f[i + 1]
            if np.isfinite(a) and np.isfinite(b) and a * b < 0:
                r = _bisect(curve, xs[i], xs[i + 1], a)
                if r is None:
                    rejected.append(f"f changes sign between {short(xs[i])} and "
                                    f"{short(xs[i + 1])} without a root (a jump, or a point "
                                    "where f is undefined)")
                    continue
                _add(found, r, crossing=True)
        # f touches 0 without crossing (a root of even multiplicity) near a local minimum of |f|
        size = np.abs(f)
        for i in range(samples + 1):
            if not np.isfinite(size[i]) or f[i] == 0:
                continue
            left = size[i - 1] if i > 0 else math.inf
            right = size[i + 1] if i < samples else math.inf
            if not (size[i] <= left and size[i] <= right):
                continue
            if (i > 0 and f[i - 1] * f[i] < 0) or (i < samples and f[i] * f[i + 1] < 0):
                continue
            r = _newton_from(curve, xs[i], low, high, scale)
            if r is not None:
                _add(found, r, crossing=None)
        # Two roots within one step of the grid hide each other: look beside each root
        # found for another, by Newton on f(x)/(x - r).
        spacing = (high - low) / samples
        for r, _ in list(found):
            for side in (-1, 1):
                other = _deflated(curve, r, r + side * spacing / 2, low, high, spacing, scale)
                if other is not None:
                    _add(found, other, crossing=None)
        out = []
        for r, crossing in sorted(found, key=lambda t: t[0]):
            if crossing is None:
                crossing = _crosses(curve, r)
            out.append(Root(decimal_text(r, digits), float(r), crossing, r))
    count = f"{len(out)} root{'s' if len(out) != 1 else ''}"
    note = (f"{count} found from sign changes of f at {samples + 1} evenly spaced points "
            f"(spacing {short(spacing)}), Newton's method from each local minimum of |f| "
            "there and beside each root found; a sampled search cannot prove that there are "
            "no others (two roots closer than the spacing, or a touch of 0 between samples, "
            "can hide)")
    gaps = np.flatnonzero(~np.isfinite(f))
    if gaps.size:
        note += (f"; f is undefined at {gaps.size} of the sampled points (the first at "
                 f"{curve.variable} = {short(xs[gaps[0]])}), where no root is looked for")
    search = RootSearch(text, curve.read_as or text, curve.variable, float(low), float(high),
                        digits, out, note, rejected)
    _proof(search, curve, samples)
    for r in out:
        if not r.crossing:
            search.warnings.append(f"f touches 0 at {curve.variable} ≈ {r.text} without "
                                   "changing sign (a root of even multiplicity)")
    return search


def _proof(search: RootSearch, curve, samples: int) -> None:
    """For a polynomial, Sturm's count of its distinct real roots in the range: complete
    when the search found that many; said plainly when it found fewer."""
    from .sturm import count, polynomial
    p = polynomial(curve.program, curve.variable, curve.bindings)
    if p is None:
        return
    n = count(p, search.low, search.high)
    search.proved = n
    found = len(search.roots)
    if n == found:
        search.complete = True
        search.note = (f"complete: Sturm's theorem counts {n} distinct real root"
                       f"{'s' if n != 1 else ''} of this polynomial in {short(search.low)} ≤ "
                       f"{search.variable} ≤ {short(search.high)}, and the search found "
                       f"{'it' if n == 1 else 'all ' + str(n)}")
        return
    search.warnings.append(f"Sturm's theorem counts {n} distinct real root"
                           f"{'s' if n != 1 else ''} of this polynomial in the range, but "
                           f"the search found {found}: "
                           + ("some lie closer together than it can tell apart" if n > found
                              else "some of those found are not exact roots"))


def _add(found: list, r, crossing) -> None:
    import mpmath as mp
    if r is None:
        return
    for i, (q, c) in enumerate(found):
        if abs(q - r) <= mp.mpf("1e-12") * max(1, abs(r)):
            if crossing and not c:
                found[i] = (q, True)
            return
    found.append((r, crossing))


def _crosses(curve, r) -> bool:
    """Whether f has opposite signs just left and right of the root r."""
    import mpmath as mp
    h = max(mp.mpf("1e-15"), abs(r) * mp.mpf("1e-15"))
    try:
        left = curve.value(r - h)
        right = curve.value(r + h)
    except Undefined:
        return True
    return left * right < 0


def _polish(curve, x, low, high, bracket=None):
    """Newton in mpmath from x; the root (kept inside `bracket` when given), or x itself."""
    import mpmath as mp
    x = mp.mpf(float(x))
    best = x
    try:
        best_f = abs(curve.value(x))
    except Undefined:
        return None
    for _ in range(80):
        try:
            fx, dfx = curve.precise(x)
        except Undefined:
            break
        if abs(fx) < best_f:
            best, best_f = x, abs(fx)
        if fx == 0 or dfx == 0:
            break
        step = fx / dfx
        x = x - step
        if bracket is not None and not bracket[0] <= x <= bracket[1]:
            break
        if not low <= x <= high:
            break
        if abs(step) <= mp.mpf(10) ** (-WORK_DPS + 3) * max(1, abs(x)):
            try:
                if abs(curve.value(x)) < best_f:
                    best = x
            except Undefined:
                pass
            break
    return best


def _bisect(curve, a: float, b: float, fa: float):
    """The root in the bracket [a, b] where f changes sign, or None for a jump or a pole."""
    import mpmath as mp
    import numpy as np
    # Narrowed in doubles first, on finer grids inside the bracket (cheap), then in mpmath.
    for _ in range(3):
        xs = np.linspace(a, b, 65)
        f, _ = curve.doubles(xs)
        change = np.flatnonzero(np.isfinite(f[:-1]) & np.isfinite(f[1:]) & (f[:-1] * f[1:] <= 0))
        if not change.size or not np.all(np.isfinite(f)):
            break
        i = int(change[0])
        if f[i] == 0:
            a = b = float(xs[i])
            break
        a, b, fa = float(xs[i]), float(xs[i + 1]), float(f[i])
    lo, hi, flo = mp.mpf(float(a)), mp.mpf(float(b)), fa
    if lo == hi:
        return _polish(curve, lo, lo, hi)
    quick = _polish(curve, (lo + hi) / 2, float(a), float(b), bracket=(lo, hi))
    if quick is not None:
        try:
            if abs(curve.value(quick)) <= mp.mpf(10) ** (-WORK_DPS // 2) * max(1, abs(fa)):
                return quick
        except Undefined:
            pass
    for _ in range(60):
        mid = (lo + hi) / 2
        try:
            fm = curve.value(mid)
        except Undefined:
            return None
        if fm == 0:
            return mid
        if (fm < 0) == (flo < 0):
            lo, flo = mid, fm
        else:
            hi = mid
    r = _polish(curve, (lo + hi) / 2, float(a), float(b), bracket=(mp.mpf(float(a)),
                                                                   mp.mpf(float(b))))
    if r is None:
        return None
    try:
        fr = abs(curve.value(r))
    except Undefined:
        return None
    # A root: |f| there is at the level of the working precision. A jump or a pole: it is not.
    return r if fr <= mp.mpf(10) ** (-WORK_DPS // 2) * max(1, abs(fa)) else None


def _deflated(curve, r, x, low, high, spacing, scale):
    """A root other than r within a grid step of it: Newton on g(x) = f(x)/(x - r), whose
    derivative is (f'(x)(x - r) - f(x))/(x - r)^2; None when there is none."""
    import mpmath as mp
    x = mp.mpf(x)
    for _ in range(60):
        try:
            fx, dfx = curve.precise(x)
        except Undefined:
            return None
        d = x - r
        if d == 0:
            return None
        g, dg = fx / d, (dfx * d - fx) / d ** 2
        if dg == 0:
            return None
        step = g / dg
        x = x - step
        if not (low <= x <= high) or abs(x - r) > 2 * spacing:
            return None
        if abs(step) <= mp.mpf(10) ** (-WORK_DPS + 5) * max(1, abs(x)):
            break
    try:
        fx = abs(curve.value(x))
    except Undefined:
        return None
    if abs(x - r) <= mp.mpf("1e-12") * max(1, abs(r)):
        return None
    return x if fx <= mp.mpf(10) ** (-WORK_DPS + 12) * max(1.0, scale) else None


def _newton_from(curve, x, low, high, scale):
    """A root where f touches 0, from a local minimum of |f|: Newton (slow, linear, at a
    multiple root) in mpmath; None unless f reaches 0 to the working precision."""
    import mpmath as mp
    x = mp.mpf(float(x))
    for _ in range(400):
        try:
            fx, dfx = curve.precise(x)
        except Undefined:
            return None
        if fx == 0:
            break
        if dfx == 0:
            return None
        step = fx / dfx
        x = x - step
        if not low <= x <= high:
            return None
        if abs(step) <= mp.mpf(10) ** (-WORK_DPS + 3) * max(1, abs(x)):
            break
    try:
        fx = abs(curve.value(x))
    except Undefined:
        return None
    return x if fx <= mp.mpf(10) ** (-WORK_DPS + 12) * max(1.0, scale) else None
