"""Where a function of one variable changes its rule: the real zeros of its kink and
domain-edge arguments, on the whole line.

The arguments are those of |.|, sign, log, roots, denominators and the inverse
trigonometric edges. A polynomial argument is solved exactly (its real roots);
any other is scanned for sign changes over every scale (1e-8 .. 1e12) and each
change refined by bisection. formulaproof.py cuts a variable's line at these
zeros, kinkcurves.py the lines of several variables. SymPy is imported here.
"""
from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import sympy as sp

MAX_CUTS = 40
MAX_DEGREE = 40          # a polynomial argument beyond this is scanned, not solved
_EDGE_FUNCTIONS = (sp.asin, sp.acos, sp.atanh, sp.acoth, sp.asec, sp.acsc, sp.acosh)

def cut_arguments(exprs):
    """(kink arguments, domain-edge arguments): the pieces' borders."""
    kinks, edges = set(), set()
    for e in exprs:
        for f in e.atoms(sp.Abs, sp.sign):
            kinks.add(f.args[0])
        for f in e.atoms(sp.log):
            edges.add(f.args[0])
        for f in e.atoms(sp.Pow):
            if f.exp.is_number and (f.exp.is_negative or not f.exp.is_integer):
                edges.add(f.base)
        for f in e.atoms(*_EDGE_FUNCTIONS):
            edges.update((f.args[0] - 1, f.args[0] + 1))
    bare = set()
    for arg in edges:
        while isinstance(arg, (sp.Abs, sp.sign)) or (arg.is_Pow and arg.exp.is_positive):
            arg = arg.args[0]
        bare.add(arg)
    return kinks, bare - kinks


def scan(f, x) -> list:
    """Sign changes of f along the line over every scale, refined by bisection."""
    g = sp.lambdify(x, f, "math")

    def at(t):
        try:
            v = float(g(t))
        except (ArithmeticError, ValueError, TypeError):
            return math.nan
        return v

    grid = sorted({0.0} | {s * 10 ** (k / 20) for k in range(-160, 241) for s in (-1, 1)})
    values = [at(t) for t in grid]
    found = []
    # The cells nearest 0 first: an oscillating argument (sin(xy) - 1/2) has more zeros than
    # MAX_CUTS, and those at the scale of the question matter most.
    cells = sorted(zip(grid, grid[1:], values, values[1:]),
                   key=lambda c: min(abs(c[0]), abs(c[1])))
    for lo, hi, a, b in cells:
        if not (math.isfinite(a) and math.isfinite(b)) or (a > 0) == (b > 0) or a * b > 0:
            if a == 0:
                found.append(lo)
            continue
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            m = at(mid)
            if not math.isfinite(m) or m == 0:
                break
            if (m > 0) == (a > 0):
                lo, a = mid, m
            else:
                hi = mid
        found.append(0.5 * (lo + hi))
        if len(found) >= MAX_CUTS:
            break
    return [Fraction(repr(r)) for r in found]


def nested_zeros(arg, x, depth) -> tuple:
    """The zeros of an argument with |.| or sign inside (|x + 4| - 1/1000): for each sign of
    the inner arguments, the zeros of the polynomial that leaves, where those signs hold."""
    inner = sorted(arg.atoms(sp.Abs, sp.sign), key=sp.default_sort_key)
    if len(inner) > 4 or depth > 3:
        return [], False
    out, complete = [], True
    for signs in product((1, -1), repeat=len(inner)):
        fixed = {f: s * f.args[0] if isinstance(f, sp.Abs) else sp.Integer(s)
                 for f, s in zip(inner, signs)}
        zeros, whole = real_zeros(arg.xreplace(fixed), x, depth + 1)
        complete = complete and whole
        for r in zeros:
            at = sp.Rational(r.numerator, r.denominator)
            if all(s * sp.N(f.args[0].subs(x, at), 30) >= -sp.Float("1e-25")
                   for f, s in zip(inner, signs)):
                out.append(r)
    return out, complete


def real_zeros(arg, x, depth=0) -> tuple:
    """(the real zeros of arg in x as Fractions, all of them found?)."""
    if arg.has(sp.Abs, sp.sign):
        return nested_zeros(arg, x, depth)
    try:
        arg = sp.together(arg)
        parts = [p for p in (sp.numer(arg), sp.denom(arg)) if p.has(x)]
    except Exception:  # SymPy cannot split the argument: no zeros claimed, not complete
        return [], False
    out, complete = [], True
    for p in parts:
        try:
            if p.is_polynomial(x):
                poly = sp.Poly(p, x)
                if poly.degree() > MAX_DEGREE:
                    raise ValueError
                if poly.domain.is_ZZ or poly.domain.is_QQ:
                    roots = [sp.N(r, 45) for r in poly.real_roots()]
                else:
                    roots = [sp.re(r) for r in sp.Poly(sp.N(p, 50), x).nroots(n=45, maxsteps=200)
                             if abs(sp.im(r)) < sp.Float("1e-30")]
                out += [Fraction(str(r)) if not r.is_Rational else Fraction(int(r.p), int(r.q))
                        for r in roots]
                continue
        except Exception:  # an unsolvable polynomial: scanned like any other argument
            pass
        complete = False
        try:
            out += scan(p, x)
        except Exception:  # not even a scan: complete is already False, so no proof follows
            pass
    return out, complete


def shortest(lo: Fraction, hi: Fraction) -> Fraction:
    """The decimal with fewest digits strictly between lo and hi (lo < hi)."""
    width = hi - lo
    e = math.floor(math.log10(max(abs(lo), abs(hi), width))) + 1
    while True:
        unit = Fraction(10) ** e
        q = (lo // unit + 1) * unit
        if lo < q < hi:
            return q
        e -= 1
