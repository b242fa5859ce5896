"""What a grader needs to know about a student's formula besides its value.

Two facts decide whether comparing a formula at a few points is a fair test:

- **Rounded decimals.** A decimal typed with 3 or more significant digits is
  right when it is the true number correctly rounded (the digits rule), wherever
  it stands in a formula. `rounding_slack` says how far the formula's value
  could move if each such decimal took any value within half a unit of its last
  digit: a difference within that slack is rounding, not a mistake. The slack
  comes from the typed digits alone, never from the size of other numbers in
  the answer, so `2x + 1/1000` gains nothing from the 1000.
- **Kinks and domain edges.** abs, sign, step, relu, max/min and the edges of
  sqrt, log, division and the like make a formula change its rule at places
  random points may miss (`sign(x + 1/10)` differs from `sign(x)` only on
  (-0.1, 0)). `edge_points` finds where those arguments cross zero along lines
  through a few base points and returns points just on both sides.

Nothing here prints; every walk over a formula is iterative.
"""
from __future__ import annotations

import math
from decimal import Decimal

from ... import ops
from ...autodiff.lower import lower
from ...errors import GradcliError
from ...language.expr import Apply, Num, Program, Statement, postorder, replace_leaves
from ...limits import MAX_EDGE_POINTS, MAX_EDGES, MAX_ROUNDED_LITERALS
from .verdict import DIGITS_MIN  # as the digits rule for a number answer

EDGE_SCAN = (-10.0, 10.0)
EDGE_GRID = 401


def _half_unit(text: str) -> float | None:
    """Half a unit in the last typed digit of a plain decimal of DIGITS_MIN+ digits."""
    # A literal's span may take in the parentheses and sign folded into it: (27.31), -(1.25).
    t = "".join(text.split()).replace("(", "").replace(")", "").lstrip("+-")
    try:
        d = Decimal(t)
    except ArithmeticError:
        return None
    if not d.is_finite() or d == 0:
        return None
    digits = d.as_tuple().digits
    if len(digits) < DIGITS_MIN or ("." not in t and "e" not in t.lower()):
        return None  # integers are exact: 2x means 2, not 1.5..2.5
    return float(Decimal(1).scaleb(d.as_tuple().exponent)) / 2


def rounded_literals(program: Program) -> list:
    """(Num node, half unit) for each decimal literal the digits rule applies to."""
    source = program.source or ""
    found = []
    for stmt in program.statements:
        for node in postorder(stmt.expr):
            if type(node) is Num and node.span is not None and isinstance(node.value, float):
                h = _half_unit(source[node.span[0]:node.span[1]])
                if h is not None:
                    found.append((node, h))
                    if len(found) >= MAX_ROUNDED_LITERALS:
                        return found
    return found


def _moved(program: Program, node, by: float) -> Program:
    statements = tuple(Statement(s.name, replace_leaves(
        s.expr, lambda n: Num(n.value + by, n.span) if n is node else n), s.span, s.name_span,
        s.params) for s in program.statements)
    return Program(statements, program.source, program.warnings)


def rounding_slack(program: Program, quantities, literals=None) -> list:
    """How far each of `quantities(program)` may move when the rounded decimals move.

    `quantities` maps a program to a list of floats (the answer's value at some
    points, a tangent's intercept and slopes, polynomial coefficients); the
    slack of each is the sum over rounded literals of its change when that
    literal moves by half a unit (first order, as the change is small).
    """
    literals = rounded_literals(program) if literals is None else literals
    base = quantities(program)
    slack = [0.0] * len(base)
    for node, h in literals:
        try:
            moved = quantities(_moved(program, node, h))
        except (GradcliError, ArithmeticError, TypeError, ValueError):
            continue
        for i, (a, b) in enumerate(zip(base, moved)):
            if a is not None and b is not None and math.isfinite(a) and math.isfinite(b):
                slack[i] += abs(b - a) * 1.0000001
    return slack


def _edge_arguments(program: Program) -> list:
    """Expressions whose sign change is a kink or a domain edge of the program."""
    found, seen = [], set()
    for stmt in program.statements:
        for node in postorder(stmt.expr):
            if type(node) is not Apply:
                continue
            op = ops.TABLE.get(node.op)
            if op is None or not (op.kinks or op.domain or op.jumps):
                continue
            if node.op in ("max", "min"):
                args = [Apply("sub", (a, b)) for i, a in enumerate(node.args)
                        for b in node.args[i + 1:]]
            elif node.op == "div":
                args = [node.args[1]]
            elif node.op == "pow":
                e = node.args[1]
                if type(e) is Num and float(e.value).is_integer() and e.value >= 0:
                    continue  # a polynomial power has no edge
                args = [node.args[0]]
            else:
                args = [node.args[0]]
            if op.edges:  # asin: both sides of -1 and 1, a - 1 and a + 1
                a = node.args[0]
                args = [Apply("sub", (a, Num(c))) if c > 0 else Apply("add", (a, Num(-c)))
                        for c in op.edges]
            for a in args:
                if hash(a) not in seen:
                    seen.add(hash(a))
                    found.append(a)
                    if len(found) >= MAX_EDGES:
                        return found
    return found


def _values_on_line(expr, named, base: dict, var: str, xs):
    """expr along var = xs (a NumPy array), the others fixed at base; None if it fails."""
    import numpy as np
    program = Program(named + (Statement(None, expr),))
    bindings = {k: v for k, v in base.items()}
    bindings[var] = xs
    try:
        with np.errstate(all="ignore"):
            out = lower(program, bindings, wrt=set()).output.data
    except (GradcliError, ArithmeticError, TypeError, ValueError):
        return None
    out = np.asarray(out, dtype=float)
    return np.broadcast_to(out, xs.shape) if out.shape != xs.shape else out


def edge_points(programs, variables, bases) -> list:
    """Points just on both sides of each place a kink or domain-edge argument is 0.

    Scans each variable over EDGE_SCAN through each base point, locates sign
    changes of every edge argument of every program, and refines them by
    bisection on the grid interval.
    """
    import numpy as np
    points = []
    xs = np.linspace(EDGE_SCAN[0], EDGE_SCAN[1], EDGE_GRID)
    for program in programs:
        named = tuple(s for s in program.statements if s.name is not None)
        for expr in _edge_arguments(program):
            for base in bases:
                for var in variables:
                    g = _values_on_line(expr, named, base, var, xs)
                    if g is None:
                        continue
                    sign = np.sign(g)
                    idx = np.nonzero((sign[:-1] * sign[1:] <= 0) & np.isfinite(g[:-1])
                                     & np.isfinite(g[1:]) & ((sign[:-1] != 0) | (sign[1:] != 0)))[0]
                    for i in idx[:4]:
                        lo, hi = float(xs[i]), float(xs[i + 1])
                        root = _bisect(expr, named, base, var, lo, hi)
                        root = 0.0 if abs(root) < 1e-12 else float(f"{root:.10g}")
                        delta = 1e-4 * max(1.0, abs(root))
                        for side in (root - delta, root + delta):
                            p = dict(base)
                            p[var] = side
                            points.append(p)
                        if len(points) >= MAX_EDGE_POINTS:
                            return points
    return points


def _bisect(expr, named, base, var, lo, hi) -> float:
    import numpy as np
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        g = _values_on_line(expr, named, base, var, np.array([lo, mid]))
        if g is None or not np.all(np.isfinite(g)):
            return mid
        if g[1] == 0:
            return mid
        if np.sign(g[0]) == np.sign(g[1]):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)
