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
  through a few base points, at every scale and, with several variables, along
  the diagonals too, and returns points just on both sides. (Where SymPy reads
  both formulas, kinkcurves.py finds every kink curve; this scan is for the rest.)

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

FAR_BASES = (23.3, 1000.7)   # with several variables, lines also run through (s, -s, ...)


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
                if a not in seen:  # structural equality: one scan for a repeated argument
                    seen.add(a)
                    found.append(a)
                    if len(found) >= MAX_EDGES:
                        return found
    return found


def _values_on_line(expr, named, base: dict, direction: dict, ts):
    """expr along base + ts * direction (ts a NumPy array); None if it fails."""
    import numpy as np
    program = Program(named + (Statement(None, expr),))
    bindings = {k: v + direction[k] * ts if direction.get(k) else v for k, v in base.items()}
    try:
        with np.errstate(all="ignore"):
            out = lower(program, bindings, wrt=set()).output.data
    except (GradcliError, ArithmeticError, TypeError, ValueError):
        return None
    out = np.asarray(out, dtype=float)
    return np.broadcast_to(out, ts.shape) if out.shape != ts.shape else out


def _lines(variables, bases) -> list:
    """(base, direction) of each line scanned: every variable's own through each base point
    and, with several variables, through points far out too, and the diagonals (1, 1, ...)
    and (1, -1, ...) through all of them, so that a kink curve away from the lines through
    the base points is met too."""
    def axis(var):
        return {v: 1.0 if v == var else 0.0 for v in variables}
    if len(variables) > 1:
        bases = bases + [{v: s * (-1) ** i for i, v in enumerate(variables)}
                         for s in FAR_BASES]
    lines = [(b, axis(var)) for b in bases for var in variables]
    if len(variables) > 1:
        diagonals = [{v: 1.0 for v in variables},
                     {v: float((-1) ** i) for i, v in enumerate(variables)}]
        lines += [(b, d) for b in bases for d in diagonals]
    return lines


def edge_points(programs, variables, bases) -> list:
    """Points just on both sides of each place a kink or domain-edge argument is 0.

    Scans lines through each base point (_lines) over every scale, |t| from 1e-8
    to 1e12 and 0, locates sign changes of every edge argument of every
    program, and refines them on a finer grid. Each argument gets its share of
    the points, the crossings nearest the base points first.
    """
    import numpy as np
    ts = np.array(sorted({0.0} | {s * 10 ** (k / 20) for k in range(-160, 241)
                                  for s in (-1.0, 1.0)}))
    lines = _lines(variables, bases)
    arguments, seen = [], set()
    for program in programs:
        named = tuple(s for s in program.statements if s.name is not None)
        for expr in _edge_arguments(program):
            if (expr, named) not in seen:  # a name may mean another thing in each program
                seen.add((expr, named))
                arguments.append((expr, named))
    share = max(8, MAX_EDGE_POINTS * len(variables) // max(1, len(arguments)))
    points = []
    for expr, named in arguments[:MAX_EDGES]:
        crossings = []
        for base, direction in lines:
            g = _values_on_line(expr, named, base, direction, ts)
            if g is None:
                continue
            sign = np.sign(g)
            idx = np.nonzero((sign[:-1] * sign[1:] <= 0) & np.isfinite(g[:-1])
                             & np.isfinite(g[1:]) & ((sign[:-1] != 0) | (sign[1:] != 0)))[0]
            crossings += [(min(abs(ts[i]), abs(ts[i + 1])), n, i, base, direction)
                          for n, i in enumerate(idx[:8])]
        crossings.sort(key=lambda c: (c[1], c[0]))  # each line's first, nearest first
        for _, _, i, base, direction in crossings[:share // 2]:
            root = _refine(expr, named, base, direction, float(ts[i]), float(ts[i + 1]))
            root = 0.0 if abs(root) < 1e-12 else float(f"{root:.10g}")
            # beside the kink at the scale of the point there (a line from a far base
            # point may cross it near the origin), and beyond the refinement's error
            size = max(abs(base[v] + direction[v] * root) for v in variables)
            delta = max(1e-4 * max(1.0, size), 1e-9 * abs(root))
            for side in (root - delta, root + delta):
                points.append({v: base[v] + direction[v] * side for v in variables})
    return points


def _refine(expr, named, base, direction, lo, hi) -> float:
    """A sign change inside (lo, hi) located to 4e-9 of the interval by four finer grids."""
    import numpy as np
    for _ in range(4):
        ts = np.linspace(lo, hi, 129)
        g = _values_on_line(expr, named, base, direction, ts)
        if g is None:
            break
        sign = np.sign(g)
        idx = np.nonzero((sign[:-1] * sign[1:] <= 0) & np.isfinite(g[:-1]) & np.isfinite(g[1:]))[0]
        if not len(idx):
            break
        lo, hi = float(ts[idx[0]]), float(ts[idx[0] + 1])
    return 0.5 * (lo + hi)
