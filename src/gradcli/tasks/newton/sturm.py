"""How many distinct real roots a polynomial has in [low, high], by Sturm's theorem.

Where f is a polynomial in its variable (sums, products, quotients by numbers and
whole powers of the variable, the numbers and the other inputs' values read as
the doubles the engine computes with), its coefficients are exact fractions, and
the Sturm sequence p, p', -rem(p, p'), ... counts its distinct real roots in
(a, b] as V(a) - V(b), V the number of sign changes: a proof, not a search.
roots.py compares that count with the roots it found. Anything else (pi, sin, a
program of several statements, a degree over MAX_DEGREE) gives None: no claim.
"""
from __future__ import annotations

from fractions import Fraction

MAX_DEGREE = 12        # exact remainders stay small enough to be quick
MAX_POWER = 12


def polynomial(program, variable: str, bindings: dict):
    """The coefficients of f (constant first, as Fractions), or None when f is not a
    polynomial in `variable` that this reads."""
    from ...language.expr import Apply, Name, Num, postorder
    if len(program.statements) != 1:
        return None
    value = {}
    for node in postorder(program.statements[0].expr):
        if isinstance(node, Num):
            try:
                p = [Fraction(node.value)]
            except (TypeError, ValueError):
                return None
        elif isinstance(node, Name):
            if node.id == variable:
                p = [Fraction(0), Fraction(1)]
            elif node.id in bindings:
                p = [Fraction(float(bindings[node.id]))]
            else:
                return None
        elif isinstance(node, Apply):
            args = [value.get(id(a)) for a in node.args]
            if any(a is None for a in args):
                return None
            p = _apply(node.op, args)
            if p is None:
                return None
        else:
            return None
        value[id(node)] = _trim(p)
    p = value.get(id(program.statements[0].expr))
    return p if p is not None and 1 <= len(p) - 1 <= MAX_DEGREE else None


def _apply(op: str, args: list):
    if op in ("add", "sub") and len(args) == 2:
        a, b = args
        sign = 1 if op == "add" else -1
        n = max(len(a), len(b))
        return [(a[i] if i < len(a) else 0) + sign * (b[i] if i < len(b) else 0)
                for i in range(n)]
    if op == "neg" and len(args) == 1:
        return [-c for c in args[0]]
    if op == "pos" and len(args) == 1:
        return list(args[0])
    if op == "mul" and len(args) == 2:
        return _mul(*args)  # None past MAX_DEGREE
    if op == "div" and len(args) == 2 and len(args[1]) == 1 and args[1][0] != 0:
        return [c / args[1][0] for c in args[0]]
    if op == "pow" and len(args) == 2 and len(args[1]) == 1:
        k = args[1][0]
        if k.denominator != 1 or not 0 <= k <= MAX_POWER:
            return None
        out = [Fraction(1)]
        for _ in range(int(k)):
            out = _mul(out, args[0])
            if out is None:
                return None
        return out
    return None


def _mul(a, b):
    if len(a) + len(b) - 2 > MAX_DEGREE:
        return None
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _trim(p):
    while len(p) > 1 and p[-1] == 0:
        p = p[:-1]
    return p


def _rem(a, b):
    """The remainder of a divided by b (coefficients constant first)."""
    a = list(a)
    while len(a) >= len(b) and any(a):
        q = a[-1] / b[-1]
        shift = len(a) - len(b)
        for i, c in enumerate(b):
            a[shift + i] -= q * c
        a = _trim(a[:-1]) if len(a) > 1 else a
        if len(a) < len(b):
            break
    return _trim(a)


def _value(p, x: Fraction) -> Fraction:
    out = Fraction(0)
    for c in reversed(p):
        out = out * x + c
    return out


def _deflate(p, r: Fraction):
    """p divided by (x - r), for p(r) = 0 (synthetic division)."""
    out, carry = [], Fraction(0)
    for c in reversed(p):
        carry = carry * r + c
        out.append(carry)
    return _trim(list(reversed(out[:-1])) or [Fraction(0)])


def count(p, low: float, high: float) -> int:
    """The number of distinct real roots of p in [low, high]: those at the ends, then
    Sturm's count in the open interval of p with them divided out."""
    a, b = Fraction(low), Fraction(high)
    ends = 0
    for r in (a, b):
        if _value(p, r) == 0:
            ends += 1
            while len(p) > 1 and _value(p, r) == 0:
                p = _deflate(p, r)
    if len(p) == 1:
        return ends
    return ends + _sturm(p, a, b)


def _sturm(p, a: Fraction, b: Fraction) -> int:
    """Distinct roots in (a, b), where p(a) and p(b) are not 0."""
    derivative = _trim([i * c for i, c in enumerate(p)][1:] or [Fraction(0)])
    chain = [p, derivative]
    while len(chain[-1]) > 1 or chain[-1][0] != 0:
        r = _rem(chain[-2], chain[-1])
        if len(r) == 1 and r[0] == 0:
            break
        chain.append([-c for c in r])

    def changes(x):
        signs = [v for v in (_value(q, x) for q in chain) if v != 0]
        return sum(1 for s, t in zip(signs, signs[1:]) if (s < 0) != (t < 0))
    return changes(a) - changes(b)
