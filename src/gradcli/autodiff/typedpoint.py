"""The point as typed: every number printed for a closed-form point (`pi/2`, `1/3`,
`sqrt(2)`, `e`) is the correctly rounded double of the exact result (SPEC §2).

The double-precision graph eval has built is run again in mpmath (the op table's
value rules, autodiff/precise.py) with each typed input at the exact number its
text denotes and the constants pi and e exact, at 30 then 60 digits and more:
a result is taken once two precisions round to the same double, and a result
whose magnitude keeps falling as the precision grows (cos(pi/2): about 1e-31 at
30 digits, 1e-61 at 60) is exactly 0. A result that does not settle by the
last precision keeps its double (and eval's precision check still looks at it).

The runs are made in the decimal module first (autodiff/decimalmath.py: no import
cost); a graph that needs what only mpmath has is run again there. SymPy stays out
of this path.
"""
from __future__ import annotations

import math

from ..errors import DomainError, LimitError

# Digits tried in turn: cos(pi/2) needs two to show it falls; a result that lost k
# digits to cancellation needs about k more.
_DIGITS = (30, 60, 120, 240)
# A result at or below this many of its precision's digits under the graph's
# largest number, falling by at least _FALL_DIGITS digits between two precisions, is an exact 0.
_NEAR_ZERO_DIGITS = 8
_FALL_DIGITS = 10


_CONSTANTS = {}


def _constant_graph(text: str):
    """The nodes and output of a constant's graph, lowered once per text."""
    found = _CONSTANTS.get(text)
    if found is None:
        from ..language.parser import parse
        from .engine import graph_nodes
        from .lower import lower
        out = lower(parse(text), {}).output
        found = _CONSTANTS[text] = (graph_nodes(out), out)
    return found


def constant_value(text: str, mp):
    """The exact number `text` denotes, at mpmath's working precision."""
    nodes, out = _constant_graph(text)
    value, _ = run_graph_at(nodes, out, {}, mp)
    return value[id(out)]


def _leaf(node, inputs: dict, mp):
    exact = inputs.get(id(node))
    if exact is not None:
        return exact
    if node.label == "pi" and node._op is None and not node.requires_grad:
        return +mp.pi
    if node.label == "e" and node._op is None and not node.requires_grad:
        return +mp.e
    return mp.mpf(node.data)


def leaves(graph, typed: dict):
    """node -> its exact value at mpmath's working precision: a typed input's closed
    form, pi and e exact, any other leaf its double (for series.taylor_coefficients)."""
    import mpmath as mp
    texts = {id(graph.inputs[n]): t for n, t in typed.items() if n in graph.inputs}

    def leaf(node):
        text = texts.get(id(node))
        return constant_value(text, mp) if text is not None else _leaf(node, {}, mp)
    return leaf


class Results:
    """One precision's run: .value, .grad[name], .at[name] (mpmath numbers), and .scale,
    the largest magnitude in the graph (what a rounding error is relative to)."""

    def __init__(self, value, grad, at, scale, mp):
        self.mp = mp  # the context it ran in: derived quantities are computed there too
        self.value = value
        self.grad = grad
        self.at = at
        self.scale = scale


class TypedPoint:
    """A lowered graph at the exact point the user typed, run at any precision."""

    def __init__(self, graph, typed: dict, names, backward: bool = True):
        from .engine import graph_nodes
        self.backward = backward
        self.graph = graph
        self.typed = typed
        self.names = list(names)
        self.nodes = graph_nodes(graph.output)

    def run(self, mp) -> Results:
        at = {}
        for name, leaf in self.graph.inputs.items():
            text = self.typed.get(name)
            at[name] = constant_value(text, mp) if text is not None else mp.mpf(leaf.data)
        return self.run_at(at, mp)

    def run_at(self, at: dict, mp) -> Results:
        """The value and the partials with the inputs at `at` (name -> mpmath number)."""
        graph = self.graph
        inputs = {id(leaf): at[name] for name, leaf in graph.inputs.items()}
        value, grad = run_graph_at(self.nodes, graph.output, inputs, mp, self.backward)
        grads = {}
        for name in self.names:
            node = graph.inputs.get(name)
            if node is None:
                node = graph.intermediates.get(name)
            grads[name] = mp.mpf(1) if node is graph.output else grad.get(id(node), mp.mpf(0))
        scale = max([mp.mpf(1)] + [abs(v) for v in value.values()])
        return Results(value[id(graph.output)], grads, at, scale, mp)

    def settle(self, derived, decimal_first: bool = True) -> list | None:
        """The correctly rounded doubles of `derived(results)` (a list of numbers of
        results.mp), None for each one that does not settle; None in all where the graph
        cannot be run.

        The decimal module runs it first; anything that fails there (a function it
        lacks, a float mixed in, a domain error) is run again in mpmath, so the
        verdict on where the graph is defined is always mpmath's."""
        if decimal_first:
            from .decimalmath import DECIMAL, Unsupported
            try:
                return self._settle(derived, DECIMAL, raise_errors=True)
            except (Unsupported, TypeError, AttributeError, ArithmeticError, ValueError,
                    DomainError, LimitError):
                pass
        import mpmath as mp
        return self._settle(derived, mp)

    def _settle(self, derived, mp, raise_errors: bool = False) -> list | None:
        previous, done = None, None
        self.growing = set()
        for digits in _DIGITS:
            with mp.workdps(digits):
                try:
                    results = self.run(mp)
                    got = [mp.mpf(x) for x in derived(results)]
                except (ArithmeticError, ValueError, DomainError, LimitError):
                    if raise_errors:
                        raise
                    return None  # not real or not defined at the exact point: doubles stay
                scale = results.scale
            if previous is not None:
                done = [d if d is not None else _rounded(a, b, scale, digits // 2, mp)
                        for d, a, b in zip(done, previous, got)]
                if None not in done:
                    return done
            else:
                done = [None] * len(got)
            previous, before = got, previous
        # what still grows tenfold per digit carried is a pole at the exact point
        self.growing = {i for i, (a, b) in enumerate(zip(before or (), previous))
                        if done[i] is None and abs(b) >= abs(a) * 10 ** (digits // 4)}
        return done


def run_graph_at(nodes, output, inputs: dict, mp, backward: bool = True):
    from .precise import run_graph
    return run_graph(nodes, output, lambda node: _leaf(node, inputs, mp), mp, backward)


def _rounded(a, b, scale, digits_a: int, mp):
    """The double of a result computed as `a` and then `b` at twice the digits, or None."""
    if not (mp.isfinite(a) and mp.isfinite(b)):
        return float(b) if a == b else None
    if b == 0 or (abs(a) <= scale * mp.mpf(10) ** (_NEAR_ZERO_DIGITS - digits_a)
                  and abs(b) <= abs(a) * mp.mpf(10) ** -_FALL_DIGITS):
        return 0.0
    fa, fb = float(a), float(b)
    return fb + 0.0 if fa == fb and math.isfinite(fb) else None  # + 0.0: no -0 from underflow


def refine(result, typed: dict) -> set:
    """Put the correctly rounded value and partials of the typed point into `result`
    (an EvalResult); the ones that settled (None for the value, else the input's name).

    Where f itself is undefined or infinite at the exact point (ln(cos(x)) or tan(x) at
    pi/2) the doubles stay, with a warning that they are the nearest double's."""
    graph = result.graph
    if graph is None or any(type(n.data) is not float
                            for n in graph.inputs.values()) or type(result.value) is not float:
        return set()
    names = [n for n, g in result.gradient.items() if type(g) is float]
    point = TypedPoint(graph, typed, names)
    if any(type(n.data) is not float for n in point.nodes):
        return set()
    got = point.settle(lambda r: [r.value] + [r.grad.get(n, 0) for n in names])
    if got is None:  # a partial undefined at the exact point (sqrt(x - 1/3) at 1/3)
        point = TypedPoint(graph, typed, [], backward=False)
        got = point.settle(lambda r: [r.value])
        got = got and got + [None] * len(names)
    if not got or (got[0] is None and 0 in point.growing) or (
            got[0] is not None and not math.isfinite(got[0])):
        result.warnings.append(_undefined(result, typed))
        return set()
    if point.backward:  # the tangent's intercept and --direction need the partials
        result.exact_point = point
    settled = set()
    for key, new in zip([None] + names, got):
        old = result.value if key is None else result.gradient[key]
        if new is None or (not math.isfinite(new) and math.isfinite(old)):
            continue
        if key is None:
            result.value = new
        else:
            result.gradient[key] = new
        settled.add(key)
    return settled


def _undefined(result, typed: dict) -> str:
    from ..numbers import format_number
    exact = ", ".join(f"{name} = {text}" for name, text in typed.items())
    near = ", ".join(f"{name} = {format_number(result.at[name])}" for name in typed)
    return (f"{result.result_name} is undefined or infinite at {exact} exactly; the numbers "
            f"shown are at the nearest double{'s' if len(typed) > 1 else ''}, {near}")


def hessian(result) -> None:
    """The second partials of `result` (an EvalResult refined at its typed point), each
    correctly rounded where it settles: mpmath differentiates the exact partials
    numerically at the working precision (its error falls with the digits as a
    rounding error does, so two precisions agreeing settle it as for the rest)."""
    point = getattr(result, "exact_point", None)
    matrix = result.hessian
    if point is None or not matrix:
        return
    names = [n for n in matrix if n in point.graph.inputs and type(matrix[n]) is dict]
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i:]
             if type(matrix[a].get(b)) is float]
    if not pairs:
        return
    point = TypedPoint(point.graph, point.typed, names)

    def derived(r):
        mp = r.mp
        return [mp.diff(lambda t, a=a, b=b: point.run_at({**r.at, b: t}, mp).grad.get(a, 0),
                        r.at[b])
                for a, b in pairs]

    got = point.settle(derived, decimal_first=False)  # mpmath's diff
    for (a, b), h in zip(pairs, got or ()):
        if h is not None:
            matrix[a][b] = matrix[b][a] = h


def intercept(point: TypedPoint, names) -> float | None:
    """f(a) - Σ f_i(a)·a_i, the tangent's intercept, correctly rounded."""
    got = point.settle(lambda r: [r.value - sum(r.grad.get(n, 0) * r.at[n] for n in names)])
    return got[0] if got else None


def linear(point: TypedPoint, names, estimate: dict) -> float | None:
    """f(a) + Σ f_i(a)·(b_i - a_i) at the estimate point b (as typed, where it was)."""
    typed = getattr(estimate, "typed", None) or {}

    def derived(r):
        mp = r.mp
        b = {n: constant_value(typed[n], mp) if n in typed else mp.mpf(estimate[n])
             for n in names}
        return [r.value + sum(r.grad.get(n, 0) * (b[n] - r.at[n]) for n in names)]
    got = point.settle(derived)
    return got[0] if got else None


def directional(result, along, order, texts) -> None:
    """D_u f, v, u, ∇f/|∇f| and |∇f| of `along` (a tasks.tangent.Directional) from the exact
    point and the exact direction, each correctly rounded where it settles."""
    point = getattr(result, "exact_point", None) or TypedPoint(result.graph, {}, order)
    if result.graph is None or type(result.value) is not float:
        return
    if any(type(n.data) is not float for n in point.nodes):
        return
    k = len(order)

    def derived(r):
        mp = r.mp
        v = [constant_value(t, mp) for t in texts]
        norm = mp.sqrt(mp.fsum(x * x for x in v))
        u = [x / norm for x in v]
        g = [r.grad.get(n, 0) for n in order]
        rate = mp.sqrt(mp.fsum(x * x for x in g))
        steep = [x / rate for x in g] if rate else [mp.mpf(0)] * k
        return [mp.fsum(a * b for a, b in zip(g, u)), rate, *u, *steep, *v]

    if point.names != list(order):
        point = TypedPoint(result.graph, point.typed, order)
    got = point.settle(derived)
    if got is None:
        return
    if got[0] is not None:
        along.derivative = got[0]
    if got[1] is not None:
        along.rate = got[1]
    unit, steep, given = got[2:2 + k], got[2 + k:2 + 2 * k], got[2 + 2 * k:]
    if None not in given:
        along.given = given
    if None not in unit:
        along.unit = unit
    if along.steepest and None not in steep:
        along.steepest = steep
