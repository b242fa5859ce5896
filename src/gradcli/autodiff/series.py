"""Truncated power series about a point: Taylor-mode automatic differentiation.

A series is the list of its coefficients about the point a, f(a + t) = Σ_k c_k t^k
+ O(t^(N+1)), so c_k is f^(k)(a)/k!: the Taylor coefficients themselves, without a
factorial and without a derivative formula that doubles in size with each order.

The value graph of `lower` (one node per sub-expression, its value at a in the
number kind of the run: doubles, or Fractions for --exact) is walked once, in
topological order, and each node becomes a series:

- the arithmetic of the table's operators by the usual recurrences: a sum term
  by term, a product by the Cauchy product, a quotient q = a/b from
  b_0 q_k = a_k - Σ_{j≥1} b_j q_{k-j};
- a power f^y with a constant exponent by J. C. P. Miller's recurrence
  (f g' = y f' g), by repeated products where f(a) = 0 and y is a whole number;
  b^y as exp(y log b) and f^y with both varying as exp(y log f);
- every function of the op table by one generic rule, with no per-function
  code: its derivative rule (written in a namespace D, ops.py) runs over a D
  whose functions build series (D.cos(f) is the series of cos(f)), which gives
  h = op'(f) as a series, and g' = h f' integrates to
  g_k = (1/k) Σ_{j=1..k} j f_j h_{k-j}. A rule that names the result (exp's
  `out`, tan's 1 + out**2) reads the series being built: its coefficients up to
  k - 1 are known when g_k is computed. sin and cos come out as a pair, tan
  through 1 + tan², atan through 1/(1 + f²), each from its table record.

Series are built once and then advanced one order at a time, every series in
the order it was made: a node needs its arguments' coefficient k (made before
it) and, for the generic rule, its derivative's coefficients below k (made
after it, since the rule reads the result). Nothing here recurses over the
expression. Anything the recurrences cannot expand (a vector, x^1.5 at 0, a
derivative undefined at the point) raises Unsupported, and the caller expands
another way.

The number kind is the caller's: Fractions give exact coefficients; doubles
lose a high coefficient's digits wherever its terms cancel (c_20 of sin(x)/x at
1 is 1e-20 from terms near 1), so `precise` runs the same series in mpmath
(precise.py) at growing precision until two runs agree, and rounds.
"""
from __future__ import annotations

from fractions import Fraction

from .. import limits, ops
from ..errors import LimitError
from .engine import Value, apply, graph_nodes
from .precise import precise_backend

_NODE_LIMIT = 20_000  # series made while expanding one expression (a runaway rule)


class Unsupported(Exception):
    """A series these recurrences cannot expand; the caller takes another path."""


class Series:
    """Coefficients c_0..c_N of a truncated power series about the point."""

    __slots__ = ("c", "varies", "ctx")

    def __init__(self, ctx, c, varies):
        self.ctx = ctx
        self.c = c
        self.varies = varies

    def __add__(self, o):
        return self.ctx.add(self, self.ctx.lift(o))

    def __radd__(self, o):
        return self.ctx.add(self.ctx.lift(o), self)

    def __sub__(self, o):
        return self.ctx.sub(self, self.ctx.lift(o))

    def __rsub__(self, o):
        return self.ctx.sub(self.ctx.lift(o), self)

    def __mul__(self, o):
        return self.ctx.mul(self, self.ctx.lift(o))

    def __rmul__(self, o):
        return self.ctx.mul(self.ctx.lift(o), self)

    def __truediv__(self, o):
        return self.ctx.div(self, self.ctx.lift(o))

    def __rtruediv__(self, o):
        return self.ctx.div(self.ctx.lift(o), self)

    def __pow__(self, o):
        return self.ctx.pow(self, self.ctx.lift(o))

    def __rpow__(self, o):
        return self.ctx.pow(self.ctx.lift(o), self)

    def __neg__(self):
        return self.ctx.neg(self)

    def __pos__(self):
        return self


class SeriesD:
    """The namespace D over series: D.cos(f) is the series of cos(f), by the op table."""

    def __init__(self, ctx):
        self._ctx = ctx

    def __getattr__(self, name):
        op = ops.lookup(name)
        if op is None:
            raise Unsupported(f"no series for {name}")
        ctx = self._ctx

        def fn(*args):
            return ctx.apply(op, [ctx.lift(a) for a in args])
        setattr(self, name, fn)
        return fn


class Expansion:
    """The series of one expansion to order N, in one number kind (`number`: float,
    Fraction or mpmath's mpf), and the steps that advance them order by order.

    `value(op, args)`: op's value at the point from its arguments' values there, in
    that kind (the engine's checks and rules, or the table's rules over mpmath)."""

    def __init__(self, order: int, number, value):
        self.N = order
        self.number = number
        self.value = value
        self.zero = number(0)
        self.one = number(1)
        self.steps = []       # (series, step(k) -> c_k) for every varying series, in order
        self.memo = {}        # (op name, ids of the argument series) -> series
        self.pending = []     # generic series waiting for their derivative series
        self.D = SeriesD(self)
        self._keep = []       # every series made, so that no id in `memo` is reused

    # -- making series
    def const(self, value) -> Series:
        return Series(self, [value] + [self.zero] * self.N, False)

    def lift(self, x) -> Series:
        """A series as it is; a plain number (a rule's 1, 2) as a constant of the run's kind."""
        if isinstance(x, Series):
            return x
        if isinstance(x, bool) or not isinstance(x, (int, float, Fraction)):
            raise Unsupported("a rule gave something that is not a number")
        return self.const(self.number(x))

    def variable(self, a) -> Series:
        c = [a, self.one] + [self.zero] * (self.N - 1)
        return Series(self, c[:self.N + 1], True)

    def _varying(self, c0, step) -> Series:
        s = Series(self, [c0], True)
        self.steps.append((s, step))
        self._keep.append(s)
        if len(self._keep) > _NODE_LIMIT:
            raise Unsupported("too many series")
        return s

    # -- the operators
    def add(self, a, b, c0=None):
        if not (a.varies or b.varies):
            return self.const(a.c[0] + b.c[0])
        ac, bc = a.c, b.c
        return self._varying(ac[0] + bc[0] if c0 is None else c0, lambda k: ac[k] + bc[k])

    def sub(self, a, b, c0=None):
        if not (a.varies or b.varies):
            return self.const(a.c[0] - b.c[0])
        ac, bc = a.c, b.c
        return self._varying(ac[0] - bc[0] if c0 is None else c0, lambda k: ac[k] - bc[k])

    def neg(self, a, c0=None):
        if not a.varies:
            return self.const(-a.c[0])
        ac = a.c
        return self._varying(-ac[0] if c0 is None else c0, lambda k: -ac[k])

    def mul(self, a, b, c0=None):
        # (ab)_k = Σ_{j=0..k} a_j b_{k-j}
        ac, bc = a.c, b.c
        if c0 is None:
            c0 = ac[0] * bc[0]
        if not (a.varies or b.varies):
            return self.const(c0)
        if not a.varies:
            a0 = ac[0]
            return self._varying(c0, lambda k: a0 * bc[k])
        if not b.varies:
            b0 = bc[0]
            return self._varying(c0, lambda k: ac[k] * b0)
        return self._varying(c0, lambda k: sum(ac[j] * bc[k - j] for j in range(k + 1)))

    def div(self, a, b, c0=None):
        # q = a/b: b_0 q_k = a_k - Σ_{j=1..k} b_j q_{k-j}
        ac, bc = a.c, b.c
        b0 = bc[0]
        if b0 == 0:
            raise Unsupported("division by a series that is 0 at the point")
        if c0 is None:
            c0 = ac[0] / b0
        if not (a.varies or b.varies):
            return self.const(c0)
        if not b.varies:
            return self._varying(c0, lambda k: ac[k] / b0)
        q = None

        def step(k):
            qc = q.c
            return (ac[k] - sum(bc[j] * qc[k - j] for j in range(1, k + 1))) / b0
        q = self._varying(c0, step)
        return q

    def pow(self, f, y, c0=None):
        """f**y: a constant exponent by Miller's recurrence or by products; otherwise
        exp(y log f), through the table's exp and log."""
        if not y.varies:
            return self._constant_power(f, y.c[0], c0)
        if c0 is None:
            c0 = self.value(ops.TABLE["pow"], [f.c[0], y.c[0]])
        if f.c[0] <= 0:
            raise Unsupported("a varying exponent of a base that is not positive")
        # g = exp(w), w = y log f (log b for a constant base): g' = g w'
        w = self.mul(y, self.apply(ops.TABLE["log"], [f]))
        return self._integral(c0, [(w, None)])

    def _constant_power(self, f, y, c0):
        if c0 is None:
            c0 = self.value(ops.TABLE["pow"], [f.c[0], y])
        if not f.varies:
            return self.const(c0)
        f0 = f.c[0]
        if y == int(y) and 0 <= y and (f0 == 0 or y <= 2):
            return self._product_power(f, int(y), c0)
        if f0 == 0:
            raise Unsupported("a power of a series that is 0 at the point")
        # Miller: f g' = y f' g, so k f_0 g_k = Σ_{j=1..k} (y j - (k - j)) f_j g_{k-j}
        fc = f.c
        y = self.number(y)
        g = None

        def step(k):
            gc = g.c
            return sum((y * j - (k - j)) * fc[j] * gc[k - j]
                       for j in range(1, k + 1)) / (k * f0)
        g = self._varying(c0, step)
        return g

    def _product_power(self, f, n, c0):
        """f**n for a whole n by squaring and products (valid where f(a) = 0 too)."""
        if n == 0:
            return self.const(c0)
        result, base = None, f
        while n:
            if n & 1:
                result = base if result is None else self.mul(result, base)
            n >>= 1
            if n:
                base = self.mul(base, base)
        if result is not f:
            result.c[0] = c0  # the table's value (a correctly rounded power), as lower has it
        return result

    # -- every other function, by its derivative rule
    def apply(self, op, args, c0=None):
        """The series of op(*args), from the value graph (c0 given) or from a rule."""
        name = op.name
        if op.vjp is not None:
            raise Unsupported(f"{name} works on vectors")
        if name in _OPERATORS:
            return _OPERATORS[name](self, *args, c0=c0)
        if not any(a.varies for a in args):
            return self.const(self.value(op, [a.c[0] for a in args]) if c0 is None else c0)
        key = (name, tuple(id(a) for a in args))
        s = self.memo.get(key)
        if s is not None:
            return s
        if c0 is None:
            c0 = self.value(op, [a.c[0] for a in args])
        parts = []  # (argument, its derivative series) for each varying argument
        s = self._integral(c0, parts)
        self.memo[key] = s
        self.pending.append((s, op, args, parts))
        return s

    def _integral(self, c0, parts):
        """g from g' = Σ_i h_i f_i': g_k = (1/k) Σ_i Σ_{j=1..k} j (f_i)_j (h_i)_{k-j}.

        `parts` holds (f_i, h_i) pairs; h_i None is g itself (exp's rule: g' = g f')."""
        g = None

        def step(k):
            total = 0
            for f, h in parts:
                fc = f.c
                hc = g.c if h is None else h.c
                total += sum(j * fc[j] * hc[k - j] for j in range(1, k + 1))
            return total / k
        g = self._varying(c0, step)
        return g

    def _derivatives(self) -> None:
        """Give each generic series its derivative series, by the table's rule over D.

        A rule may make further series (cos for sin) that wait here in turn; the memo
        makes sin's cos and cos's sin one pair, so the list runs out.
        """
        while self.pending:
            s, op, args, parts = self.pending.pop()
            cache = {}
            for i, a in enumerate(args):
                if a.varies:
                    parts.append((a, self.lift(op.partial(self.D, i, s, args, cache))))

    def run(self):
        """Every series to order N."""
        self._derivatives()
        steps = self.steps
        for k in range(1, self.N + 1):
            for s, step in steps:
                s.c.append(step(k))


_OPERATORS = {"add": Expansion.add, "sub": Expansion.sub, "mul": Expansion.mul,
              "div": Expansion.div, "neg": Expansion.neg, "pow": Expansion.pow,
              "pos": lambda ctx, a, c0=None: a}

_SCALAR = (float, int, Fraction)

# Digits of the precise runs, tried in turn until two successive ones agree.
_DIGITS = (30, 60, 120, 240, 480, 960)


def taylor_coefficients(graph, name: str, order: int, precise: bool = False,
                        leaf=None) -> list:
    """c_0..c_order of the graph's output about the point of its input `name`.

    The graph comes from lower() at the point: in Fractions (--exact) the
    coefficients are exact Fractions; in doubles they are doubles, computed in
    doubles, or with `precise` in mpmath at growing precision until two runs agree
    and then rounded (a coefficient of sin(x)/x at 1 is a difference of numbers
    10^19 times larger: doubles keep none of its digits). Raises Unsupported where
    the recurrences cannot expand, a GradcliError (DomainError, InexactError) where
    the table's value rule refuses a value a derivative rule needs. `leaf(node)`, with
    `precise`: a leaf's exact value at the working precision (the point as typed,
    autodiff/typedpoint.py), where it is not the double the leaf holds.
    """
    for v in graph_nodes(graph.output, list(graph.inputs.values())):
        if type(v.data) not in _SCALAR:
            raise Unsupported("a vector")
    if not precise:
        number = Fraction if type(graph.inputs[name].data) is Fraction else float
        cs = _expand(graph, name, order, number, _engine_value, from_graph=True)
        if number is float and any(c - c != 0 for c in cs):
            raise Unsupported("a coefficient is not finite")
        if number is Fraction:
            _check_size(cs)
        return cs
    import mpmath as mp
    value = _precise_value(precise_backend(), mp)
    previous = None
    for digits in _DIGITS:
        with mp.workdps(digits):
            cs = _expand(graph, name, order, mp.mpf, value, from_graph=False, leaf=leaf)
            if not all(mp.isfinite(c) for c in cs):
                raise Unsupported("a coefficient is not finite")
            if previous is not None:
                # A coefficient settles when two runs agree, or as an exact 0 when it
                # shrinks with the digits carried (a cancellation that is complete).
                top = max(abs(c) for c in cs)
                shrink = mp.mpf(10) ** (-(digits - previous[0]) // 2)
                tiny = top * mp.mpf(10) ** (-digits // 2)
                zero = [abs(b) <= abs(a) * shrink and abs(b) <= tiny
                        for a, b in zip(previous[1], cs)]
                if all(z or _agree(a, b) for z, a, b in zip(zero, previous[1], cs)):
                    return [0.0 if z else float(b) for z, b in zip(zero, cs)]
            previous = (digits, cs)
    raise Unsupported("the coefficients do not settle")


def mpmath_coefficients(graph, name, order, leaf) -> list:
    """One run of the series in mpmath at the working precision (the caller's
    mp.workdps): the coefficients as mpf, values computed again from the leaves that
    `leaf(node)` gives. Raises Unsupported as taylor_coefficients does."""
    import mpmath as mp
    return _expand(graph, name, order, mp.mpf, _precise_value(precise_backend(), mp),
                   from_graph=False, leaf=leaf)


def _agree(a, b) -> bool:
    return abs(a - b) <= 1e-17 * abs(b)


def _expand(graph, name, order, number, value, from_graph, leaf=None) -> list:
    """One run of the series in one number kind; `from_graph`: the values of the graph's
    nodes are lower's (else they are computed again, from the inputs, by `value`)."""
    ctx = Expansion(order, number, value)
    variable = graph.inputs[name]
    made = {}
    for v in graph_nodes(graph.output, list(graph.inputs.values())):
        if v is variable:
            s = ctx.variable(number(v.data) if leaf is None else leaf(v))
        elif not v._parents:
            s = ctx.const(number(v.data) if leaf is None else leaf(v))
        else:
            args = [made[id(p)] for p in v._parents]
            c0 = number(v.data) if from_graph else value(v._op, [a.c[0] for a in args])
            s = ctx.const(c0) if not any(a.varies for a in args) \
                else ctx.apply(v._op, args, c0=c0)
        made[id(v)] = s
    try:
        ctx.run()
    except (ZeroDivisionError, OverflowError, ValueError) as exc:
        raise Unsupported(str(exc)) from None
    return made[id(graph.output)].c[:order + 1]


def _engine_value(op, c0s):
    """The engine's value (its domain checks; exact for Fractions, or InexactError)."""
    return apply(op, *[Value(c, False) for c in c0s]).data


def _precise_value(B, mp):
    def value(op, c0s):
        for check in op.domain:
            if len(c0s) > max(check.show) and not check.ok(B, *c0s):
                raise Unsupported(f"{op.name} is undefined at the point")
        try:
            out = op.value(B, *c0s)
        except (ArithmeticError, ValueError) as exc:
            raise Unsupported(str(exc)) from None
        if not isinstance(out, mp.mpf):
            raise Unsupported(f"{op.name} is not real at the point")
        return out
    return value


def _check_size(cs) -> None:
    bits = limits.MAX_EXACT_BITS
    if any(max(abs(c.numerator), c.denominator).bit_length() > bits for c in cs):
        raise LimitError(f"a Taylor coefficient is too large for exact arithmetic (the limit "
                         f"is {bits:,} bits in a numerator or denominator)",
                         hint="drop --exact to compute with doubles")


__all__ = ["Expansion", "Series", "SeriesD", "Unsupported", "taylor_coefficients"]
