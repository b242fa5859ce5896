"""The simplifier: what a careful student would write, in linear time.

Every simplified node is hash-consed (one object per structure), so identity is
structural equality and common sub-expressions are shared for free. Sums are
kept as a constant plus (coefficient, term) pairs and products as a coefficient
plus (base, exponent) pairs; that gives constant folding, like terms
(`x + x` -> `2*x`), like factors (`x*x**2` -> `x**3`), the 0/1 identities,
`x**1`, `x**0`, `--x` and sign normalisation from one place. A child sum or
product is flattened into its parent only while it has at most `CAP` parts,
which keeps the work linear however long a chain of `+` or `*` gets.

The forms are a textbook's: `1 + tan(u)**2` is `sec(u)**2` (and cot likewise),
`sin(u)**2 + cos(u)**2` is 1, `sin(u)/cos(u)` is `tan(u)`, `e**(-x)` stays on top,
and a small sum (up to RESHAPE operations) is also tried over a common denominator
(the quotient rule's two terms as one fraction) and multiplied out (at most EXPAND
terms), each kept only where it prints shorter, by the operation counts `size` gives.

The pass runs bottom-up over the DAG with an explicit stack,
never by recursion.
"""
from __future__ import annotations

from fractions import Fraction

from .. import ops
from ..autodiff.backends import MathBackend
from ..errors import DomainError
from ..language.expr import Apply, Const, Expr, Name, Num, Vector

from .canon import CAP, HALF, RESHAPE, _FUNCTION_ORDER, _OPS_CAP, _clean, _finite, _small
from .sums import SumRules


class Simplifier(SumRules):
    """Hash-consing node factory plus the sum/product normal forms of the nodes it built."""

    def __init__(self):
        self._table: dict = {}
        self._canon: set = set()  # ids of the interned nodes (kept alive by _table)
        self._built: dict = {}  # (kind, numbers, ids of interned nodes) -> node: no rebuilding
        self._sums: dict = {}   # id(node) -> (const, [(coeff, term), ...])
        self._prods: dict = {}  # id(node) -> (coeff, [(base, exponent), ...])
        self._ops: dict = {}  # id(node) -> operations in it, written out as a tree (capped)
        self._combining = False  # inside _over_common_denominator

    # ------------------------------------------------------------ hash-consing
    def intern(self, node: Expr) -> Expr:
        """The one shared object for this structure (children must already be interned)."""
        got = self._table.get(node)
        if got is None:
            node.span = None
            self._table[node] = node
            self._canon.add(id(node))
            if isinstance(node, Apply):
                ops_ = self._ops
                self._ops[id(node)] = min(_OPS_CAP, 1 + sum(ops_.get(id(a), 0) for a in node.args))
            got = node
        return got

    def size(self, node: Expr) -> int:
        """How many operations `node` prints (sub-expressions counted each time they appear)."""
        return self._ops.get(id(node), 0)

    def num(self, v) -> Expr:
        v = _clean(v)
        if not _finite(v) or v != v:
            raise DomainError("the derivative has a number too large for a double "
                              "(about 1.8e308)", overflow=True)
        if isinstance(v, Fraction):
            # A rational prints as p/q, a division the views still read as one number.
            node = self.apply("div", self.intern(Num(v.numerator)), self.intern(Num(v.denominator)))
            self._prods[id(node)] = (v, [])
            return node
        key = ("num", type(v), v)
        got = self._built.get(key)
        if got is None:
            got = self._built[key] = self.intern(Num(v))
        return got

    def apply(self, op: str, *args) -> Expr:
        key = ("apply", op, *map(id, args))  # the args are interned: their ids name them
        node = self._built.get(key)
        if node is None:
            node = self._built[key] = self.intern(Apply(op, tuple(args)))
        return node

    # ------------------------------------------------------------ the pass
    def simplify(self, roots: list) -> list:
        """Simplified, interned versions of `roots` (which may share sub-expressions).

        Nodes this simplifier already produced are kept as they are, so simplifying
        a derivative only visits the parts the derivative rules just built.
        """
        memo: dict = {}
        keep = []  # hold the old nodes so their ids stay unique during the pass
        canon = self._canon
        for root in roots:
            stack = [(root, False)]
            while stack:
                node, expanded = stack.pop()
                if id(node) in memo:
                    continue
                if expanded:
                    keep.append(node)
                    memo[id(node)] = self._node(node, [memo[id(c)] for c in node.children()])
                    continue
                if id(node) in canon:
                    memo[id(node)] = node
                    continue
                stack.append((node, True))
                for child in reversed(node.children()):
                    if id(child) not in memo:
                        stack.append((child, False))
        return [memo[id(r)] for r in roots]

    def _node(self, node: Expr, args: list) -> Expr:
        if isinstance(node, Num):
            return self.num(node.value)
        if isinstance(node, (Name, Const)):
            key = (type(node).__name__, node.id)
            got = self._built.get(key)
            if got is None:
                got = self._built[key] = self.intern(type(node)(node.id))
            return got
        if isinstance(node, Vector):
            return self.intern(Vector(tuple(args)))
        op = node.op
        if op == "pos":
            return args[0]
        if op in ("add", "sub", "neg"):
            const, terms = self.sum_view(args[0])
            if op == "neg":
                return self.sum(-const, [(-c, t) for c, t in terms])
            c2, t2 = self.sum_view(args[1])
            sign = 1 if op == "add" else -1
            return self.sum(const + sign * c2, terms + [(sign * c, t) for c, t in t2])
        if op == "mul":
            c1, f1 = self.prod_view(args[0])
            c2, f2 = self.prod_view(args[1])
            c = _clean(c1 * c2)
            return self.product(c if _finite(c) else None, f1 + f2, fallback=(op, args))
        if op == "div":
            c1, f1 = self.prod_view(args[0])
            c2, f2 = self.prod_view(args[1])
            if c2 == 0:
                return self.apply("div", *args)
            inv = Fraction(1, c2) if isinstance(c2, int) else 1 / c2
            c = _clean(c1 * inv)
            return self.product(c if _finite(c) else None,
                                f1 + [(b, self.neg_exp(e)) for b, e in f2], fallback=(op, args))
        if op == "pow":
            return self._pow(*args)
        return self._function(op, args)

    # ------------------------------------------------------------ views
    def product(self, coeff, factors: list, fallback=None) -> Expr:
        """coeff * prod(base**exp), like factors collected, numbers folded."""
        if coeff is None:
            return self.apply(fallback[0], *fallback[1])
        index, merged = {}, []
        for base, exp in factors:
            i = index.get(id(base))
            if i is None:
                index[id(base)] = len(merged)
                merged.append([base, exp])
            else:
                merged[i][1] = self.add_exp(merged[i][1], exp)
        if len(merged) >= 2:
            merged = self._quotient_identities(merged, index)
        kept = []
        for base, exp in merged:
            if exp == 0 and not isinstance(exp, Expr):
                continue
            if isinstance(base, Num) and not isinstance(exp, Expr):
                folded = self._fold_power(base.value, exp)
                if folded is not None and _finite(coeff * folded):
                    coeff = _clean(coeff * folded)
                    continue
            if isinstance(base, Num) and base.value == 1:
                continue
            if exp == 1 and not isinstance(exp, Expr) and id(base) in self._sums:
                # -(a + b) as a factor reads better than (-a - b): the sign joins the number.
                const, terms = self._sums[id(base)]
                if const <= 0 and all(c < 0 for c, _ in terms):
                    base = self.sum(-const, [(-c, t) for c, t in terms])
                    coeff = -coeff
            kept.append((base, exp))
        if coeff == 0:
            return self.num(0)
        key = ("product", type(coeff), coeff,
               tuple((id(b), id(e) if isinstance(e, Expr) else (type(e), e)) for b, e in kept))
        node = self._built.get(key)
        if node is None:
            node = self._built[key] = self._product(coeff, kept)
        return node

    def _quotient_identities(self, merged, index):
        """sin(u)**n/cos(u)**n -> tan(u)**n, cos(u)**n/sin(u)**n -> cot(u)**n."""
        for k, (base, exp) in enumerate(merged):
            if not (isinstance(base, Apply) and base.op == "sin" and len(base.args) == 1) \
                    or isinstance(exp, Expr) or exp == 0:
                continue
            cos = self._built.get(("apply", "cos", id(base.args[0])))
            j = index.get(id(cos)) if cos is not None else None
            if j is None or isinstance(merged[j][1], Expr) or merged[j][1] != -exp:
                continue
            name = "tan" if exp > 0 else "cot"
            merged = [m for m in merged]
            merged[k] = [self.apply(name, base.args[0]), abs(exp)]
            merged[j] = [cos, 0]  # dropped below with the other zero exponents
            return merged
        return merged

    def _product(self, coeff, kept) -> Expr:
        if not kept:
            return self.num(coeff)
        if len(kept) == 1 and kept[0][1] == 1 and id(kept[0][0]) in self._sums \
                and coeff == -1 and len(self._sums[id(kept[0][0])][1]) <= CAP:
            # A negated sum is distributed: -(a - b) -> b - a, -(x + 1) -> -x - 1.
            const, terms = self._sums[id(kept[0][0])]
            return self.sum(coeff * const, [(coeff * c, t) for c, t in terms])
        kept.sort(key=self._rank)
        plain = self._build_product(coeff, kept)
        if len(kept) >= 2 and not self._combining and self.size(plain) <= RESHAPE:
            cleared = self._clear_inner_fractions(coeff, kept)
            if cleared is not None and self.size(cleared) < self.size(plain):
                return cleared
        return plain

    def _clear_inner_fractions(self, coeff, kept):
        """A factor beside a sum with fractions in it is multiplied into the sum, where it
        clears them: x**2*(1/x**2 + 1) -> x**2 + 1, so d/dx atan(1/x) is -1/(x**2 + 1).
        None if no factor does; the caller keeps the shorter form."""
        for i, (base, exp) in enumerate(kept):
            view = self._sums.get(id(base))
            if view is None or isinstance(exp, Expr) or exp not in (1, -1) or len(view[1]) > CAP:
                continue
            need = {}
            for _, t in view[1]:
                for b, e in self.prod_view(t)[1]:
                    if not isinstance(e, Expr) and e < 0:
                        need[id(b)] = max(need.get(id(b), 0), -e)
            moved, rest = [], []
            for j, (b, e) in enumerate(kept):
                if j != i and id(b) in need and not isinstance(e, Expr) and e * exp > 0:
                    take = min(abs(e), need[id(b)])
                    moved.append((b, take))
                    if abs(e) != take:
                        rest.append((b, _clean(e - take * exp)))
                elif j != i:
                    rest.append((b, e))
            if not moved:
                continue
            self._combining = True
            try:
                terms = self._expand(1, [(base, 1)] + moved)
                inner = self.sum(0, self._monomials(terms))
                return self.product(coeff, rest + [(inner, exp)])
            finally:
                self._combining = False
        return None

    def _rank(self, factor) -> tuple:
        base = factor[0]
        if id(base) in self._prods and len(self._prods[id(base)][1]) > CAP:
            return (-1, 0, "")
        if isinstance(base, Num):
            return (0, 0, "")
        if isinstance(base, (Name, Const)) and not isinstance(factor[1], Expr):
            return (1, 0, base.id)
        if id(base) in self._sums:
            return (3, 0, "")
        if isinstance(base, Apply):
            # functions in a book's order (sin before cos), so sin(u)*cos(u) and
            # cos(u)*sin(u) are one product and like terms meet
            return (2, _FUNCTION_ORDER.get(base.op, len(_FUNCTION_ORDER)), base.op)
        return (2, -1, "")  # e**u, 2**u: first among the functions, as exp(u) is

    @staticmethod
    def _fold_power(b, e):
        if isinstance(e, int) and isinstance(b, (int, Fraction)) and _small(b):
            if abs(e) <= 64 and (b != 0 or e > 0):
                v = Fraction(b) ** e
                return _clean(v) if _small(v) else None
            return None
        if isinstance(e, int) and isinstance(b, float) and (b != 0 or e > 0):
            try:
                v = b ** e
            except OverflowError:
                return None
            return v if _finite(v) else None
        return None

    def _negative(self, e) -> bool:
        if not isinstance(e, Expr):
            return e < 0
        view = self._prods.get(id(e))
        return view is not None and view[0] < 0

    def _build_product(self, coeff, kept) -> Expr:
        # Every prefix of the printed chain gets its own view too, so a later rule that
        # picks up part of this product (a partial derivative of the chain) still sees factors.
        top, bottom = [], []
        for base, exp in kept:
            if self._negative(exp) and not (isinstance(exp, Expr)
                                            and isinstance(base, (Num, Const))):
                e = self.neg_exp(exp)
                bottom.append((self._power(base, e), (base, e)))
            else:
                top.append((self._power(base, exp), (base, exp)))
        num, den = coeff, 1
        if isinstance(coeff, Fraction):
            num, den = coeff.numerator, coeff.denominator
        sign = -1 if num < 0 else 1
        num = abs(num)
        if num != 1 or not top:
            top.insert(0, (self.num(num), None))
        if den != 1:
            bottom.insert(0, (self.num(den), None))
        if sign < 0:
            first, factor = top[0]
            if isinstance(first, Num):
                first = self.num(-first.value)
            else:
                first = self.apply("neg", first)
                self._remember(first, -1, [factor])
            top[0] = (first, factor)
        node = self._chain(top, sign * num if top[0][1] is None else sign)
        if bottom:
            den_node = self._chain(bottom, den)
            node = self.apply("div", node, den_node)
        self._prods[id(node)] = (coeff, kept)
        return node

    def _chain(self, items, coeff) -> Expr:
        node = items[0][0]
        factors = [f for _, f in items[:1] if f is not None]
        for item, factor in items[1:]:
            node = self.apply("mul", node, item)
            factors.append(factor)
            self._remember(node, coeff, list(factors))
        return node

    def _remember(self, node, coeff, factors):
        if id(node) not in self._prods:
            self._prods[id(node)] = (coeff, factors)

    def _power(self, base, exp) -> Expr:
        if not isinstance(exp, Expr):
            if exp == 1:
                return base
            if exp == HALF:
                return self._sqrt(base)
            if isinstance(base, Apply) and base.op == "exp" and isinstance(exp, int):
                # exp(u)**n == exp(n*u) for an integer n
                node = self.apply("exp", self.scaled(exp, base.args[0]))
                self._remember(node, 1, [(base, exp)])
                return node
            exp_node = self._exp_node(exp)
        else:
            exp_node = exp
        node = self.apply("pow", base, exp_node)
        self._remember(node, 1, [(base, exp)])
        return node

    def _sqrt(self, base) -> Expr:
        # sqrt(x) is x**(1/2) to the views, so x*sqrt(x) -> x**(3/2), sqrt(x)**2 -> x.
        node = self.apply("sqrt", base)
        self._prods[id(node)] = (1, [(base, HALF)])
        return node

    def _exp_node(self, e) -> Expr:
        return self.num(e)

    def _pow(self, base: Expr, exp: Expr) -> Expr:
        e = exp.value if isinstance(exp, Num) else self._fraction(exp)
        if e is None:  # a symbolic exponent
            return self.product(1, [(base, exp)])
        e = _clean(e)
        if isinstance(base, Num):
            folded = self._fold_power(base.value, e)
            return self.num(folded) if folded is not None else self.apply("pow", base, exp)
        if isinstance(e, int):
            # (c*x**a)**n == c**n * x**(a*n) for an integer n, whatever the signs.
            coeff, factors = self.prod_view(base)
            c = self._fold_power(coeff, e)
            if c is not None:
                return self.product(c, [(b, self.mul_exp(x, e)) for b, x in factors])
        return self.product(1, [(base, e)])

    def _fraction(self, node):
        """The exact value of a constant such as 1/2 or -3/4, if node is one."""
        view = self._prods.get(id(node))
        if view is not None and not view[1]:
            return view[0]
        return None

    # ------------------------------------------------------------ functions
    def _function(self, op: str, args: list) -> Expr:
        record = ops.TABLE[op]
        if args and all(isinstance(a, Num) and isinstance(a.value, int) for a in args):
            try:
                v = record.value(MathBackend, *(float(a.value) for a in args))
            except (ValueError, ZeroDivisionError, OverflowError, TypeError):
                v = None
            # Only exact results are folded (sqrt(4) -> 2, log(1) -> 0, sin(0) -> 0).
            if isinstance(v, float) and v.is_integer() and abs(v) < 2 ** 31:
                return self.num(int(v))
        if op == "log" and len(args) == 1 and isinstance(args[0], Const) and args[0].id == "e":
            return self.num(1)
        if op == "sqrt":
            return self.product(1, [(args[0], HALF)])
        return self.apply(op, *args)
