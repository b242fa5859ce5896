"""The simplifier's sums: like terms, common factors, one denominator, multiplied out.

A sum is kept as a constant plus (coefficient, term) pairs. These rules are a
part of `Simplifier` (simplify.py), written here as a mixin so that each module
holds one kind of rule; they use the simplifier's tables and its product rules.
"""
from __future__ import annotations

import math
from fractions import Fraction

from ..language.expr import Apply, Expr, Num
from .canon import CAP, EXPAND, RESHAPE, _clean


class SumRules:
    """Sums in normal form (a mixin of Simplifier)."""

    def sum_view(self, node: Expr):
        """(const, [(coeff, term)]) for `node`, flattening a small sum."""
        if isinstance(node, Num):
            return node.value, []
        view = self._sums.get(id(node))
        if view is not None and len(view[1]) <= CAP:
            return view
        coeff, unit = self.split_coeff(node)
        return 0, [(coeff, unit)]

    def split_coeff(self, node: Expr):
        """node == coeff * unit with unit free of a numeric factor."""
        view = self._prods.get(id(node))
        if view is None or view[0] == 1:
            return 1, node
        key = ("unit", id(node))
        unit = self._built.get(key)
        if unit is None:
            unit = self._built[key] = self.product(1, view[1])
        return view[0], unit

    def prod_view(self, node: Expr):
        """(coeff, [(base, exponent)]) for `node`, flattening a small product."""
        if isinstance(node, Num):
            return node.value, []
        view = self._prods.get(id(node))
        if view is not None and len(view[1]) <= CAP:
            return view
        return 1, [(node, 1)]

    def neg_exp(self, e):
        if isinstance(e, Expr):
            const, terms = self.sum_view(e)
            return self.sum(-const, [(-c, t) for c, t in terms])
        return -e

    def add_exp(self, a, b):
        if not isinstance(a, Expr) and not isinstance(b, Expr):
            return _clean(a + b)
        ca, ta = self.sum_view(a) if isinstance(a, Expr) else (a, [])
        cb, tb = self.sum_view(b) if isinstance(b, Expr) else (b, [])
        node = self.sum(ca + cb, ta + tb)
        return node.value if isinstance(node, Num) else node

    def mul_exp(self, a, b):
        if not isinstance(a, Expr) and not isinstance(b, Expr):
            return _clean(a * b)
        node = self.product(1, [(x, 1) if isinstance(x, Expr) else (self.num(x), 1)
                                for x in (a, b)])
        return node.value if isinstance(node, Num) else node

    # ------------------------------------------------------------ sums
    def sum(self, const, terms: list) -> Expr:
        """const + sum(coeff*term), like terms collected, signs normalised."""
        const = _clean(const)
        index, merged = {}, []
        expanded = []
        for c, t in terms:
            inner = self._sums.get(id(t))
            if inner is not None and len(inner[1]) <= CAP:
                # c*(a + b) inside a sum is opened up, so that like terms meet: 2*(x + y) + x.
                const = _clean(const + c * inner[0])
                expanded.extend((_clean(c * ci), ti) for ci, ti in inner[1])
            else:
                expanded.append((c, t))
        for c, t in expanded:
            if isinstance(t, Num):
                const = _clean(const + c * t.value)
                continue
            i = index.get(id(t))
            if i is None:
                index[id(t)] = len(merged)
                merged.append([c, t])
            else:
                merged[i][0] = _clean(merged[i][0] + c)
        parts = [(c, t) for c, t in merged if c != 0]
        key = ("sum", type(const), const, tuple((type(c), c, id(t)) for c, t in parts))
        node = self._built.get(key)
        if node is None:
            node = self._built[key] = self._sum(const, parts)
        return node

    def _sum(self, const, parts) -> Expr:
        if not parts:
            return self.num(const)
        if len(parts) >= 2:
            one, parts = self._squares(parts)  # sin(u)**2 + cos(u)**2 == 1
            if one:
                return self.sum(_clean(const + one), parts)
        if const != 0:
            const, parts = self._pythagoras(const, parts)
        if len(parts) == 1 and const == 0:
            c, t = parts[0]
            if c == 1:
                return t
            coeff, factors = self.prod_view(t)
            return self.product(_clean(c * coeff), factors)
        plain = None
        if const == 0 and 2 <= len(parts) <= CAP:
            plain = self._common_factor(parts)
        if plain is None:
            plain = self._build_sum(const, list(parts))
        if 2 <= len(parts) <= CAP and not self._combining and self.size(plain) <= RESHAPE:
            # Two other shapes of the same sum, kept where they print shorter.
            combined = self._over_common_denominator(const, parts)
            if combined is not None and self.size(combined) <= self.size(plain):
                return combined
            expanded = self._multiplied_out(const, parts)
            if expanded is not None and self.size(expanded) < self.size(plain):
                return expanded
        return plain

    def _multiplied_out(self, const, parts):
        """The sum with its terms' small sum factors multiplied out (None if it has none):
        2*x*(3*x**3 - 5*x) + (x**2 + 2)*(9*x**2 - 5) -> 15*x**4 + 3*x**2 - 10. The caller
        keeps it only where it is shorter."""
        terms, opened = [], False
        for c, t in parts:
            coeff, factors = self.prod_view(t)
            if any(e == 1 and not isinstance(e, Expr) and id(b) in self._sums
                   for b, e in factors):
                opened = True
            terms.extend(self._expand(_clean(c * coeff), factors))
        if not opened or len(terms) > EXPAND * 2:
            return None
        summed = self._monomials(terms)
        self._combining = True
        try:
            return self.sum(const, summed)
        finally:
            self._combining = False

    def _squares(self, parts):
        """c*sin(u)**2 + c*cos(u)**2 -> c (as a number to add) and the other parts."""
        index = {}
        for i, (c, t) in enumerate(parts):
            base = self._trig_square(t)
            if base is not None:
                index[(base.op, id(base.args[0]))] = i
        for (op, arg), i in index.items():
            j = index.get(("cos", arg)) if op == "sin" else None
            if j is not None and parts[i][0] == parts[j][0]:
                return parts[i][0], [p for k, p in enumerate(parts) if k not in (i, j)]
        return 0, parts

    def _trig_square(self, t):
        """u's sin(u) or cos(u) when t is sin(u)**2 or cos(u)**2, else None."""
        coeff, factors = self.prod_view(t)
        if coeff != 1 or len(factors) != 1:
            return None
        base, exp = factors[0]
        if exp == 2 and not isinstance(exp, Expr) and isinstance(base, Apply) \
                and base.op in ("sin", "cos") and len(base.args) == 1:
            return base
        return None

    def _pythagoras(self, const, parts):
        """c + c*tan(u)**2 -> c*sec(u)**2 and c + c*cot(u)**2 -> c*csc(u)**2.

        tan's and cot's derivative rules are written 1 + tan(u)**2 (the engine's fast
        form); a textbook prints sec(u)**2.
        """
        for i, (c, t) in enumerate(parts):
            if c != const:
                continue
            coeff, factors = self.prod_view(t)
            if coeff != 1 or len(factors) != 1:
                continue
            base, exp = factors[0]
            if exp == 2 and not isinstance(exp, Expr) and isinstance(base, Apply) \
                    and base.op in ("tan", "cot") and len(base.args) == 1:
                other = self.apply("sec" if base.op == "tan" else "csc", base.args[0])
                square = self.product(1, [(other, 2)])
                return 0, parts[:i] + [(c, square)] + parts[i + 1:]
        return const, parts

    def _over_common_denominator(self, const, parts):
        """a/v + b/v**2 -> (a*v + b)/v**2 (the quotient rule's two terms as one fraction).

        Only where two terms share a denominator; the numerator is multiplied out (to at
        most EXPAND terms) so that it can simplify: 1/(x + 1) - x/(x + 1)**2 -> 1/(x + 1)**2.
        None if no two terms share one. The caller keeps whichever form is smaller.
        """
        views, dens, seen = [], {}, {}
        for c, t in parts:
            coeff, factors = self.prod_view(t)
            views.append((_clean(c * coeff), factors))
            for b, e in factors:
                if not isinstance(e, Expr):
                    seen[id(b)] = seen.get(id(b), 0) + 1
                    if e < 0 and (id(b) not in dens or -e > dens[id(b)][1]):
                        dens[id(b)] = (b, -e)
        # a denominator that another term also has (as a denominator, or on top:
        # sqrt(u) + x**2/sqrt(u) -> (u + x**2)/sqrt(u))
        if not any(seen[key] >= 2 for key in dens):
            return None
        lcm = 1
        for c, _ in views:
            if isinstance(c, Fraction):
                lcm = lcm * c.denominator // math.gcd(lcm, c.denominator)
        terms = []
        for c, factors in views:
            own = {id(b): e for b, e in factors if not isinstance(e, Expr) and id(b) in dens}
            top = [(b, e) for b, e in factors if isinstance(e, Expr) or id(b) not in dens]
            for key, (b, e) in dens.items():
                left = _clean(e + own.get(key, 0))
                if left != 0:
                    top.append((b, left))
            terms.extend(self._expand(_clean(c * lcm), top))
        if const != 0:
            terms.extend(self._expand(_clean(const * lcm), list(dens.values())))
        summed = self._monomials(terms)
        self._combining = True  # the numerator's own sums are not combined again: no nesting
        try:
            top_node = self.sum(0, summed)
        finally:
            self._combining = False
        k, top_factors = self.prod_view(top_node)
        coeff = _clean(Fraction(k, lcm) if isinstance(k, int) else k / lcm)
        return self.product(coeff, top_factors + [(b, -e) for b, e in dens.values()])

    def _expand(self, coeff, factors):
        """coeff * prod(factors) as [(coeff, factors)] terms, multiplying out small sums."""
        terms = [(coeff, [])]
        for b, e in factors:
            view = self._sums.get(id(b))
            if view is not None and e == 1 and not isinstance(e, Expr) and len(view[1]) <= CAP \
                    and len(terms) * (len(view[1]) + 1) <= EXPAND:
                k, parts = view
                new = []
                for tc, tf in terms:
                    if k != 0:
                        new.append((_clean(tc * k), tf))
                    for ci, ti in parts:
                        cu, fu = self.prod_view(ti)
                        new.append((_clean(tc * ci * cu), tf + fu))
                terms = new
            else:
                terms = [(tc, tf + [(b, e)]) for tc, tf in terms]
        return terms

    def scaled(self, c, term) -> Expr:
        """c * term, the number merged into the term's own product."""
        if c == 1:
            return term
        key = ("scaled", type(c), c, id(term))
        node = self._built.get(key)
        if node is None:
            coeff, factors = self.prod_view(term)
            node = self._built[key] = self.product(_clean(c * coeff), factors)
        return node

    def _build_sum(self, const, parts) -> Expr:
        # Big (unflattened) sums first so that the chain reads left to right without parentheses.
        parts.sort(key=lambda p: 0 if id(p[1]) in self._sums and p[0] > 0 else 1)
        if parts[0][0] < 0:
            for i, (c, _) in enumerate(parts):
                if c > 0:
                    parts.insert(0, parts.pop(i))
                    break
        const_first = const > 0 and all(c < 0 for c, _ in parts)
        node = self.num(const) if const_first else None
        for c, t in parts:
            if node is None:
                node = self.scaled(c, t)
            else:
                node = self.apply("add" if c > 0 else "sub", node, self.scaled(abs(c), t))
        if const != 0 and not const_first:
            node = self.apply("add" if const > 0 else "sub", node, self.num(abs(const)))
        self._sums[id(node)] = (const, parts)
        return node

    def _common_factor(self, parts):
        """Pull out a factor every term shares (not a bare name): a*f + b*f -> f*(a + b)."""
        views = [self.prod_view(t)[1] for _, t in parts]
        first = views[0]
        common = []
        for base, exp in first:
            found = []
            for factors in views[1:]:
                match = next((e for b, e in factors if b is base), None)
                if match is None:
                    break
                found.append(match)
            else:
                exps = [exp] + found
                # Only a factor with the same power everywhere: x**3 - 3*x**2 stays a polynomial.
                if not all(e is exp or e == exp for e in exps):
                    continue
                shared = exp
                # A bare name or number is not worth it: x*a + x*b stays as it is.
                if isinstance(base, Apply) or shared != 1:
                    common.append((base, shared))
        if not common:
            return None
        rest = []
        for (c, t), factors in zip(parts, views):
            coeff = self.prod_view(t)[0]
            remaining = []
            for b, e in factors:
                shared = next((ce for cb, ce in common if cb is b), None)
                if shared is None:
                    remaining.append((b, e))
                elif shared is not e:
                    left = self.add_exp(e, self.neg_exp(shared))
                    if left != 0:
                        remaining.append((b, left))
            rest.append((_clean(c * coeff), self.product(1, remaining)))
        inner = self.sum(0, rest)
        return self.product(1, common + [(inner, 1)])

    # ------------------------------------------------------------ products
    def _monomials(self, terms) -> list:
        """(coefficient, unit) for each (coefficient, factors) term of a multiplied-out sum."""
        summed = []
        for c, factors in terms:
            node = self.product(1, factors)
            if isinstance(node, Num):
                summed.append((c, node))
            else:
                k, unit = self.split_coeff(node)
                summed.append((_clean(c * k), unit))
        return summed
