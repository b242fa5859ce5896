"""f and f' of a one-variable expression for Newton's method, and the numbers it prints.

`Curve` lowers the expression's graph once and walks it at any point: in
mpmath (the iterates, at WORK_DPS significant digits, f and f' by the op table's
value and derivative rules) and in doubles over arrays (the root search's grid).
An equation as a book prints it (`cos x = x`) is read as its difference.
`decimal_text` rounds to the decimal places asked, as a book prints them.
"""
from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Decimal, localcontext

from ...errors import DomainError, GradcliError, UsageError
from ...language.expr import inputs_of
from ...reading import given_names, read_program

DEFAULT_DIGITS = 6     # Stewart's "correct to six decimal places"
MAX_DIGITS = 12        # every decimal printed is the iterate's own (literals are doubles)
WORK_DPS = 40          # the iterates' working precision, in significant digits


class Curve:
    """f and f' of a program in one variable (other inputs bound), in mpmath and in doubles."""

    def __init__(self, text: str, variable: str | None, bindings: dict | None, where: str):
        self.text = text
        self.bindings = {k: float(v) for k, v in (bindings or {}).items()}
        names = given_names(self.bindings, {variable: 0} if variable else {})
        self.program = _read_equation(text, names)
        inputs = inputs_of(self.program)
        free = [v for v in inputs if v not in self.bindings]
        if variable is None:
            if len(free) != 1:
                listed = ", ".join(free) if free else "none"
                raise UsageError("Newton's method solves f(x) = 0 in one variable; "
                                 f"this expression has {len(free)} without a value "
                                 f"({listed})",
                                 hint=f"{where} names the variable; give the others values "
                                      "with --at (x=1.5,a=2)" if free else
                                 "write a function of one variable, such as x^3 - 2x - 5")
            variable = free[0]
        elif variable not in inputs and len(free) == 1:
            raise UsageError(f"the expression has no variable {variable}; its variable is "
                             f"{free[0]}", hint=f"give {where} {free[0]}=...")
        elif free != [variable] and free:
            others = [v for v in free if v != variable]
            raise UsageError(f"Newton's method solves f({variable}) = 0 in {variable}; give "
                             f"{', '.join(others)} a value with --at",
                             hint=f"for example --at {variable}=1," + ",".join(
                                 f"{o}=2" for o in others))
        self.variable = variable
        self.read_as = None
        self._graph = None

    # A graph's shape does not depend on the point: lowered once, walked at every iterate.
    def lower_at(self, x: float):
        """The graph, lowered at x the first time (where f must be defined)."""
        if self._graph is None:
            from ...autodiff.lower import lower
            from ...autodiff.engine import graph_nodes, topo_order
            from ...language.printer import read_as
            graph = lower(self.program, {**self.bindings, self.variable: float(x)},
                          wrt={self.variable})
            if getattr(graph.output.data, "shape", ()) != ():
                raise UsageError("Newton's method needs a function with one number for a value",
                                 hint="sum(...) a vector result, or solve one element at a time")
            self._graph = graph
            self._nodes = graph_nodes(graph.output)
            self._order = list(reversed(topo_order(graph.output)))
            self.read_as = read_as(self.program)
        return self._graph

    def value(self, x):
        """f(x) alone in mpmath (defined where f' may not be: sqrt at 0)."""
        return self.precise(x, derivative=False)[0]

    def precise(self, x, derivative: bool = True):
        """(f(x), f'(x)) in mpmath at the current precision; ArithmeticError where undefined."""
        import mpmath as mp
        from ...autodiff.engine import numeric_d
        from ...autodiff.precise import precise_backend
        graph = self._graph
        leaf = graph.inputs.get(self.variable)
        B = precise_backend()
        D = numeric_d(B)
        value = {}
        try:
            for node in self._nodes:
                if node is leaf:
                    value[id(node)] = mp.mpf(x)
                elif node._op is None:
                    value[id(node)] = mp.mpf(node.data)
                else:
                    value[id(node)] = _real(node._op.value(B, *[value[id(p)]
                                                                for p in node._parents]))
            if not derivative:
                fx = value[id(graph.output)]
                if not mp.isfinite(fx):
                    raise Undefined("not finite")
                return fx, None
            grad = {id(graph.output): mp.mpf(1)}
            for node in self._order:
                op = node._op
                g = grad.get(id(node))
                if op is None or g is None:
                    continue
                args = [value[id(p)] for p in node._parents]
                cache = {}
                for i, p in enumerate(node._parents):
                    if p.requires_grad:
                        d = _real(op.numeric_partial(B, D, i, value[id(node)], args, cache))
                        grad[id(p)] = grad.get(id(p), 0) + g * d
        except (ValueError, TypeError, ZeroDivisionError, OverflowError, DomainError) as exc:
            raise Undefined(str(exc)) from None
        fx = value[id(graph.output)]
        dfx = grad.get(id(leaf), mp.mpf(0)) if leaf is not None else mp.mpf(0)
        if not (mp.isfinite(fx) and mp.isfinite(dfx)):
            raise Undefined("not finite")
        return fx, dfx

    def doubles(self, xs):
        """f and f' at many points as float arrays, nan where undefined."""
        import numpy as np
        from ...autodiff.lower import lower
        xs = np.asarray(xs, dtype=float)
        try:
            with np.errstate(all="ignore"):
                graph = lower(self.program, {**self.bindings, self.variable: xs},
                              wrt={self.variable})
                out = graph.output
                if out.requires_grad:
                    out.backward(gradient=np.ones_like(xs))
                leaf = graph.inputs.get(self.variable)
                f = np.broadcast_to(np.asarray(out.data, dtype=float), xs.shape).copy()
                g = leaf.grad if leaf is not None and leaf.grad is not None else 0.0
                df = np.broadcast_to(np.asarray(g, dtype=float), xs.shape).copy()
            return f, df
        except (GradcliError, ArithmeticError, ValueError):
            pass
        # A point outside f's domain spoils the batch: one point at a time, nan there (and
        # f' nan alone where f is defined but f' is not, as sqrt at 0).
        f, df = np.full(xs.shape, np.nan), np.full(xs.shape, np.nan)
        for i, x in enumerate(xs):
            try:
                graph = lower(self.program, {**self.bindings, self.variable: float(x)},
                              wrt={self.variable})
                f[i] = float(graph.output.data)
                graph.output.backward()
                leaf = graph.inputs.get(self.variable)
                df[i] = float(leaf.grad) if leaf is not None and leaf.grad is not None else 0.0
            except (GradcliError, ArithmeticError, ValueError, TypeError):
                continue
        return f, df


def _read_equation(text: str, names):
    """The program of f; an equation as a book prints it is read as its difference."""
    return read_program(as_difference(text, names), names)


def as_difference(text: str, names=()) -> str:
    """`cos x = x` -> `(cos x) - (x)`: an equation as a book prints it, as f(x) = 0; any
    text that reads as a program (`f(x) = x^2 - 2` is a definition) is left as it is."""
    try:
        read_program(text, names)
        return text
    except GradcliError:
        pass
    depth, found = 0, []
    for i, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "=" and depth == 0:
            found.append(i)
    if len(found) != 1 or "\n" in text or ";" in text:
        return text
    left, right = text[:found[0]].strip(), text[found[0] + 1:].strip()
    return f"({left}) - ({right})" if left and right else text


class Undefined(ArithmeticError):
    """f or f' has no real finite value at the point."""


def _real(v):
    import mpmath as mp
    if isinstance(v, mp.mpc):
        if v.imag != 0:
            raise ValueError("not real")
        return v.real
    return v


def decimal_text(x, digits: int) -> str:
    """x (mpmath or float) rounded to `digits` decimal places, as a book prints it."""
    import mpmath as mp
    d = Decimal(mp.nstr(mp.mpf(x), WORK_DPS, strip_zeros=False, min_fixed=-math.inf,
                        max_fixed=math.inf)) if not isinstance(x, float) else Decimal(x)
    with localcontext() as ctx:  # room for every digit of a large iterate
        ctx.prec = max(60, d.adjusted() + digits + 5)
        q = d.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)
    if q == 0:
        q = abs(q)
    return format(q, "f")


def check_digits(digits: int) -> int:
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= MAX_DIGITS:
        raise UsageError(f"--digits must be a whole number of decimal places from 0 to "
                         f"{MAX_DIGITS}, got {digits}")
    return digits


def short(x) -> str:
    from ...numbers import format_number
    return format_number(float(f"{float(x):.6g}"))
