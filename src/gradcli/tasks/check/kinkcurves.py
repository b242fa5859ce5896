"""Points on both sides of every kink curve of a function of several variables.

A kink or domain edge of f(x, y, ...) is where an argument of |.|, sign, a log,
a root or a denominator is 0: a curve (a surface, ...) that lines through a few
base points may never meet. |x - 15y| meets the line y = -1.37 at one place
only, and (x - 30)^2 + (y - 30)^2 = 1 meets no line x = c or y = c with c
small; a wrong answer that differs only beyond such a curve passes every point
on those lines. Here every such curve is found wherever it is:

- **Polynomial arguments** (after clearing denominators, factored): a
  cylindrical decomposition. The variables are eliminated one by one, the last
  first, by the leading coefficients, discriminants and pairwise resultants of
  the factors; what is left in the first variable is solved exactly and a value
  taken inside each piece of its line, just beside each cut and beyond the ends,
  near and far out. Each value is lifted: the factors are solved exactly for the
  next variable there, and again a value inside each piece and beside each cut.
  Every cell the curves cut space into gets a point, however far out or narrow
  (two curves 1e-3 apart get a point between them).
- **Other arguments** (exp(x) - 50y, sin(xy)): solved for each variable in turn
  at values of the others over every scale (linezeros.real_zeros: exactly where
  the argument is a polynomial in that variable, else by a sign scan over
  1e-8 .. 1e12), and scanned along the diagonals through those values.

The points depend on the curves alone, never on how either formula is spelled.
Nothing here prints; SymPy is imported here (the check's algebra path only).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import sympy as sp

from .linezeros import real_zeros, scan, shortest

MAX_FACTORS = 10          # polynomial factors kept at each elimination level
MAX_FACTOR_DEGREE = 6     # total degree beyond which a factor is scanned, not eliminated
MAX_LIFTED = 40           # values of the outer variables lifted to the next one
MAX_CURVE_POINTS = 240    # points returned in all
MAX_OTHER = 4             # non-polynomial arguments solved and scanned
MAX_CELL_VALUES = 12      # values of the polynomial cells' points a non-polynomial one is
                          # solved at, for each variable
# The others' values where a non-polynomial argument is solved for one variable: every
# scale from a tenth to beyond ten thousand, both signs.
SCALES = ("0.37", "-1.37", "5.17", "-23.3", "137.1", "-1000.7", "25173.3")
FARTHEST = Fraction(10) ** 15   # zeros beyond this (exp(x) = 50y at x = 25173) are left out
EMPTY = ("0.731", "-1.37")  # a variable whose line no curve cuts: any value stands for all


def curve_points(arguments, symbols) -> list:
    """Points ({Symbol: Fraction}) beside every zero set of the arguments, in the order:
    the cells of the polynomial arguments, then the others' solved and scanned points."""
    return curve_cells(arguments, symbols)[0]


def curve_cells(arguments, symbols) -> tuple:
    """(curve_points, every cell has a point?): the second is True only where every
    argument is a polynomial of small degree, nothing was cut short and there are two
    variables (where eliminating one by discriminants and resultants is known to leave
    every cell a point of its own)."""
    polys, other = _split(arguments, symbols)
    complete = [len(symbols) == 2 and not other and len(polys) <= MAX_FACTORS]
    points = _cells(polys[:MAX_FACTORS], symbols, complete) if polys else []
    if other:
        # a scan may stop exactly on a curve (the tie x = y = 0 of max(x, y, 0), where
        # the derivative is undefined and conventions differ): such points are left out
        on = _on_curves(sorted(arguments, key=sp.default_sort_key), symbols)
        points += [p for p in _solved(other[:MAX_OTHER], symbols, points) if not on(p)]
    unique, seen = [], set()
    for p in points:
        key = tuple(p[s] for s in symbols)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    complete = complete[0] and len(unique) <= MAX_CURVE_POINTS
    return unique[:MAX_CURVE_POINTS], complete


def _on_curves(arguments, symbols):
    """point -> whether an argument is 0 there (in doubles, where a scan's stop at a grid
    point such as t = 0 is exactly 0; beside a curve the values are 1e-4 of it apart)."""
    import math
    compiled = []
    for arg in arguments:
        try:
            compiled.append(sp.lambdify(symbols, arg, "math"))
        except Exception:  # no float form: that argument is not checked
            continue

    def on(point) -> bool:
        values = [float(point[s]) for s in symbols]
        for f in compiled:
            try:
                if f(*values) == 0:
                    return True
            except (ArithmeticError, ValueError, TypeError):
                continue
        return False
    return on


def _split(arguments, symbols) -> tuple:
    """(irreducible polynomial factors, other arguments), each without repeats."""
    wanted = set(symbols)
    polys, other = [], []
    for arg in sorted(arguments, key=sp.default_sort_key):
        try:
            together = sp.together(arg)
            parts = [sp.numer(together), sp.denom(together)]
        except Exception:  # SymPy cannot put it over one denominator: scanned as it is
            parts = [arg]
        for part in parts:
            if not part.free_symbols & wanted:
                continue
            found = _polynomial_factors(part, tuple(symbols))
            if found is None:
                if part not in other:
                    other.append(part)
                continue
            for f in found:
                if f not in polys and -f not in polys:
                    polys.append(f)
    return polys, other


@lru_cache(maxsize=256)
def _polynomial_factors(expr, symbols):
    """The irreducible factors of a polynomial argument that hold a variable, or None where
    it is not a polynomial of small degree (|.| or sign inside, exp, sin, ...)."""
    if expr.has(sp.Abs, sp.sign):
        return None
    try:
        if not expr.is_polynomial(*symbols):
            return None
        if sp.Poly(expr, *symbols).total_degree() > MAX_FACTOR_DEGREE:
            return None
        _, factors = sp.factor_list(expr, *symbols)
    except Exception:  # SymPy cannot treat it as a polynomial: scanned instead
        return None
    return [f for f, _ in factors if f.free_symbols & set(symbols)]


def _project(polys, v, rest, complete) -> list:
    """The factors whose zeros, in the remaining variables, are where the zeros of `polys`
    in v appear, vanish or meet: leading coefficients, discriminants, pairwise resultants,
    and the factors without v as they are."""
    out = [p for p in polys if not p.has(v)]
    with_v = [p for p in polys if p.has(v)]
    for p in with_v:
        poly = sp.Poly(p, v)
        out.append(poly.LC())
        if poly.degree() >= 2:
            out.append(sp.discriminant(poly).as_expr())
    for p, q in combinations(with_v, 2):
        out.append(sp.resultant(p, q, v))
    factors = []
    for e in out:
        if not e.free_symbols & set(rest):
            continue
        found = _polynomial_factors(sp.expand(e), tuple(rest)) or []
        for f in found:
            if f not in factors and -f not in factors:
                factors.append(f)
    if len(factors) > MAX_FACTORS or any(_polynomial_factors(sp.expand(e), tuple(rest)) is None
                                         for e in out if e.free_symbols & set(rest)):
        complete[0] = False
    return sorted(factors, key=lambda f: (sp.Poly(f, *rest).total_degree(),
                                          sp.default_sort_key(f)))[:MAX_FACTORS]


def _cells(polys, symbols, complete) -> list:
    """A point in every cell of the arrangement of the polynomials' zero sets (see the
    module doc): eliminate from the last variable down, then lift from the first.
    `complete` ([bool]) is set False where anything is cut short."""
    levels = [polys]
    for k in range(len(symbols) - 1, 0, -1):
        try:
            levels.append(_project(levels[-1], symbols[k], symbols[:k], complete))
        except Exception:  # SymPy fails on an elimination: the lower levels get no cuts
            levels.append([])
            complete[0] = False
    levels.reverse()       # levels[k]: the factors in symbols[:k + 1]
    samples = [{}]
    last = len(symbols) - 1
    for k, v in enumerate(symbols):
        lifted = []
        for sample in samples:
            cuts = _cuts_at(levels[k], v, sample, complete)
            values = _inner(cuts) if k == last else _outer(cuts)
            lifted += [{**sample, v: value} for value in values]
        cap = MAX_LIFTED if k < last else MAX_CURVE_POINTS
        if len(lifted) > cap:
            complete[0] = False
        samples = lifted[:cap]
    return samples


def _cuts_at(polys, v, sample, complete) -> list:
    """The real zeros in v of the polynomials with the earlier variables at `sample`."""
    subs = {s: sp.Rational(q.numerator, q.denominator) for s, q in sample.items()}
    cuts = set()
    for p in polys:
        at = p.xreplace(subs)
        if not at.has(v):
            continue
        zeros, whole = _zeros(at, v)
        if not whole or any(abs(z) >= FARTHEST for z in zeros):
            complete[0] = False
        cuts.update(z for z in zeros if abs(z) < FARTHEST)
    return sorted(cuts)


def _zeros(expr, v) -> tuple:
    """(the real zeros of a polynomial in v, all of them?): a linear or quadratic one's by
    formula, others' by linezeros.real_zeros (exact real roots; a scan where SymPy cannot
    isolate them, which may miss some)."""
    try:
        poly = sp.Poly(expr, v)
        if poly.degree() in (1, 2) and (poly.domain.is_QQ or poly.domain.is_ZZ):
            return _low_degree([Fraction(int(c.p), int(c.q)) for c in poly.all_coeffs()]), True
    except Exception:  # not a polynomial SymPy can hold: the general path
        pass
    return real_zeros(sp.expand(expr), v)


def _low_degree(coeffs) -> list:
    """The real zeros of a linear or quadratic polynomial with rational coefficients (highest
    first): exact, or to 50 digits where a root is irrational (a hundred times faster than
    isolating them in SymPy)."""
    from decimal import Decimal, localcontext
    if len(coeffs) == 2:
        return [-coeffs[1] / coeffs[0]]
    a, b, c = coeffs
    disc = b * b - 4 * a * c
    if disc < 0:
        return []
    if disc == 0:
        return [-b / (2 * a)]
    with localcontext() as ctx:
        ctx.prec = 50
        root = Fraction((Decimal(disc.numerator) / Decimal(disc.denominator)).sqrt())
    return sorted(((-b - root) / (2 * a), (-b + root) / (2 * a)))


def _room(cuts, i) -> Fraction:
    """The width of the narrower piece beside cuts[i] (an open end counts as its scale)."""
    c = cuts[i]
    lower = c - cuts[i - 1] if i else max(Fraction(1), abs(c))
    upper = cuts[i + 1] - c if i + 1 < len(cuts) else max(Fraction(1), abs(c))
    return min(lower, upper)


def _near(cut, width) -> tuple:
    """Values just below and just above a cut, nearer than `width` (the piece beside)."""
    delta = min(width / 8, Fraction(1, 1000) * max(1, abs(cut)))
    return shortest(cut - delta, cut - delta / 2), shortest(cut + delta / 2, cut + delta)


def _ends(cuts) -> list:
    """Beyond the first and the last cut: near, one scale out and a thousand out."""
    out = []
    for edge, sign in ((cuts[0], -1), (cuts[-1], 1)):
        m = max(Fraction(1), abs(edge))
        out += [shortest(*sorted((edge + sign * m, edge + 2 * sign * m))),
                edge + sign * 1000 * m]
    return out


def _outer(cuts) -> list:
    """An outer variable's values: inside each piece first (the cells), then beyond the
    ends, then beside each cut."""
    if not cuts:
        return [Fraction(t) for t in EMPTY]
    inside = [shortest(lo + (hi - lo) / 4, hi - (hi - lo) / 4) for lo, hi in zip(cuts, cuts[1:])]
    beside = [v for i, c in enumerate(cuts) for v in _near(c, _room(cuts, i))]
    return inside + _ends(cuts) + beside


def _inner(cuts) -> list:
    """The last variable's values: just beside each cut, inside each piece, beyond the ends."""
    if not cuts:
        return [Fraction(t) for t in EMPTY]
    out = [v for i, c in enumerate(cuts) for v in _near(c, _room(cuts, i))]
    out += [shortest(lo + (hi - lo) / 4, hi - (hi - lo) / 4) for lo, hi in zip(cuts, cuts[1:])]
    return out + _ends(cuts)


def _solved(others, symbols, cells=()) -> list:
    """Beside the zeros of non-polynomial arguments: each solved for one variable at the
    others' values over every scale and at the values of the polynomial cells' points
    (where sin(x) = y crosses a small disk far out, x = 300), and scanned along the
    diagonals through them."""
    scales = [Fraction(t) for t in SCALES]
    points = []
    for arg in others:
        for i, v in enumerate(symbols):
            rest = [s for s in symbols if s is not v]
            if not rest:  # one variable: linezeros.py finds its zeros on the whole line
                continue
            values = {s: scales + _spread(sorted({c[s] for c in cells})) for s in rest}
            for j in range(max(len(vs) for vs in values.values())):
                fixed = {s: values[s][(j + n) % len(values[s])] for n, s in enumerate(rest)}
                at = arg.xreplace({s: sp.Rational(q.numerator, q.denominator)
                                   for s, q in fixed.items()})
                if not at.has(v):
                    continue
                try:
                    zeros = sorted((z for z in real_zeros(at, v)[0] if abs(z) < FARTHEST),
                                   key=abs)[:6]
                except Exception:  # neither solved nor scanned: the next value
                    continue
                points += [{**fixed, v: value} for value in _inner(sorted(set(zeros)))
                           if zeros]
        points += _diagonals(arg, symbols, scales)
    return points


def _spread(values) -> list:
    """At most MAX_CELL_VALUES of the sorted values, spread evenly over them."""
    if len(values) <= MAX_CELL_VALUES:
        return values
    step = len(values) / MAX_CELL_VALUES
    return [values[int(k * step)] for k in range(MAX_CELL_VALUES)]


def _diagonals(arg, symbols, scales) -> list:
    """Beside the zeros of arg along the lines through the origin and through each scale's
    point in the directions (1, 1, ...) and (1, -1, ...)."""
    t = sp.Dummy("t", real=True)
    out = []
    directions = [[1] * len(symbols), [(-1) ** n for n in range(len(symbols))]]
    for base in [Fraction(0)] + scales[1:3]:
        for d in directions:
            start = sp.Rational(base.numerator, base.denominator)
            line = {s: start + k * t for s, k in zip(symbols, d)}
            try:
                zeros = sorted((z for z in scan(arg.xreplace(line), t) if abs(z) < FARTHEST),
                                   key=abs)[:6]
            except Exception:  # the line is not scannable: the next one
                continue
            for value in _inner(sorted(set(zeros))) if zeros else []:
                out.append({s: base + k * value for s, k in zip(symbols, d)})
    return out
