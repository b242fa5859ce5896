"""Precision loss: where rounding makes a double-precision value or partial meaningless.

A running error bound, to first order, over the graph `eval` has just computed:
each node's absolute error is its own rounding plus its inputs' errors times
its local derivatives (the op table's rules, evaluated as the engine does);
each gradient's error adds, per chain-rule term, the upstream error times the
local derivative, the upstream gradient times the local derivative's own
error (found by evaluating the rule again at inputs moved by their error), and
the rounding of the sum. Inputs are taken as exact (they are the doubles the
user gave); the rounding of + - * / is measured exactly, that of other
functions is taken as one unit in the last place.

Where the bound says a printed number may be wrong in its leading digits, the
result is one warning that names the sub-expression the error comes from
(`1 + x` absorbing `x`, a subtraction cancelling its digits, chain-rule terms
that cancel) and the point. The bound is a screen: what it flags is evaluated
again in arbitrary precision (mpmath, at growing precision until two agree),
and only a value or partial that really differs from that by more than
THRESHOLD is reported, with the right number beside it. (Where the graph
cannot be computed in arbitrary precision, a division by zero or a value
that turns complex there, the bound alone decides, which may also flag an
exact 0 that is right.) Graphs beyond MAX_NODES are not analysed: the cost
would be many times the evaluation's.

Only the failures that mean "not defined here" are caught (ArithmeticError,
ValueError from a math domain, gradcli's DomainError and LimitError); any
other exception is a bug and propagates (the CLI's exit 4).
"""
from __future__ import annotations

import math
from fractions import Fraction

from ..autodiff.engine import MathBackend, graph_nodes, local_derivative, topo_order
from ..autodiff.precise import run_graph
from ..errors import DomainError, LimitError
from ..limits import MAX_PRECISION_NODES as MAX_NODES

# Above this relative error bound a value or partial is reported (about seven
# digits: well below the point where a printed number's leading digits change).
THRESHOLD = 1e-7
_ULP = 2.0 ** -52
_HALF_ULP = 2.0 ** -53


def _rounding(op, out: float, datas: list) -> float:
    """The absolute rounding error this node adds to its exact result on its own inputs."""
    name = op.name
    if op.exact_in_doubles:
        return 0.0
    if not math.isfinite(out) or not all(math.isfinite(d) for d in datas):
        return 0.0  # an inf or nan is reported as such, not as rounding
    if name in ("add", "sub", "mul", "div") or (name == "pow" and _small_integer(datas[1])):
        a, b = Fraction(datas[0]), Fraction(datas[1])
        try:
            exact = (a + b if name == "add" else a - b if name == "sub" else a * b
                     if name == "mul" else a / b if name == "div" else a ** int(datas[1]))
        except ZeroDivisionError:
            return 0.0
        return float(abs(exact - Fraction(out)))
    if name == "sqrt" and Fraction(out) ** 2 == Fraction(datas[0]):
        return 0.0
    if out == 0 or all(d == 0 for d in datas):
        return 0.0  # f(0) (exp(0) = 1) and exact zeros (log(1) = 0) are exact
    return _ULP * abs(out)


def _small_integer(y) -> bool:
    return float(y).is_integer() and abs(y) <= 64


def _local(op, i, out, datas) -> float:
    try:
        d = local_derivative(op, i, out, datas, MathBackend)
    except (ArithmeticError, ValueError):  # a rule undefined here: its error cannot be bounded
        return math.inf
    return float(d) if isinstance(d, (int, float)) else math.inf


def _value(op, datas):
    try:
        return float(op.value(MathBackend, *datas))
    except (ArithmeticError, ValueError):  # 1/0, exp(1000), log(-1) at moved inputs
        return math.nan


def _local_error(op, i, out, datas, errors) -> float:
    """How far the local derivative d out/d datas[i] may be off, given its inputs' errors."""
    d = _local(op, i, out, datas)
    total = _ULP * 4 * abs(d)
    for j, e in enumerate(errors):
        if e == 0:
            continue
        # A step the double can represent (an error below x's last place would vanish
        # in x + e), the change then scaled back to the error: first order, as the rest.
        step = max(e, 1e-7 * abs(datas[j]), 1e-300)
        worst = 0.0
        for sign in (1, -1):
            moved = list(datas)
            moved[j] = datas[j] + sign * step
            other = _local(op, i, _value(op, moved), moved)
            gap = abs(other - d)
            worst = max(worst, gap if gap == gap else math.inf)
        total += worst * (e / step) if worst != math.inf else math.inf
    return total


class Loss:
    """What one analysis found: the bound per output and the node each error comes from."""

    def __init__(self):
        self.value_error = 0.0
        self.value_source = None
        self.grad_errors = {}   # input name -> absolute bound
        self.grad_sources = {}  # input name -> (node that made the largest term, its size)


def analyse(graph, wanted) -> Loss | None:
    """The error bounds of the value and of the partials by `wanted`, or None if not analysed."""
    out = graph.output
    if type(out.data) is not float or not math.isfinite(out.data):
        return None
    nodes = graph_nodes(out)
    if len(nodes) > MAX_NODES:
        return None
    err = {}
    source = {}
    for node in nodes:
        op = node._op
        key = id(node)
        if op is None:
            if type(node.data) is not float:
                return None
            err[key] = 0.0
            continue
        datas = [p.data for p in node._parents]
        if type(node.data) is not float or any(type(d) is not float for d in datas):
            return None  # vectors: their elements are not analysed
        own = _rounding(op, node.data, datas)
        total, best, who = own, own, (node if own else None)
        for i, p in enumerate(node._parents):
            e = err[id(p)]
            if e == 0:
                continue
            term = abs(_local(op, i, node.data, datas)) * e
            if term != term:
                term = math.inf
            total += term
            if term > best or who is None:
                best, who = term, source.get(id(p))
        err[key] = total
        source[key] = who
    loss = Loss()
    loss.value_error = err[id(out)]
    loss.value_source = source.get(id(out))
    if out.requires_grad:
        _gradient_errors(out, err, wanted, graph, loss)
    return loss


def _gradient_errors(out, err, wanted, graph, loss) -> None:
    gerr = {}
    biggest = {}  # node -> (the child node whose term was largest, |term|)
    for node in reversed(topo_order(out)):
        op = node._op
        if op is None:
            continue
        g = node.grad
        if type(g) is not float:
            return
        ge = gerr.get(id(node), 0.0)
        datas = [p.data for p in node._parents]
        errors = [err[id(p)] for p in node._parents]
        for i, p in enumerate(node._parents):
            if not p.requires_grad:
                continue
            d = _local(op, i, node.data, datas)
            term = g * d
            e = abs(d) * ge + abs(g) * _local_error(op, i, node.data, datas, errors)
            e += _HALF_ULP * (abs(term) + abs(p.grad if type(p.grad) is float else 0.0))
            if e != e:
                e = math.inf
            gerr[id(p)] = gerr.get(id(p), 0.0) + e
            size = abs(term)
            if size > biggest.get(id(p), (None, -1.0))[1]:
                biggest[id(p)] = (node, size)
    for name in wanted:
        leaf = graph.inputs.get(name)
        if leaf is None:
            continue
        loss.grad_errors[name] = gerr.get(id(leaf), 0.0)
        if id(leaf) in biggest:
            loss.grad_sources[name] = biggest[id(leaf)]


def _relative(error: float, value: float) -> float:
    if error == 0:
        return 0.0
    if value == 0 or not math.isfinite(value):
        return math.inf if math.isfinite(value) else 0.0
    return error / abs(value)


def warning(graph, result_name: str, value, gradient: dict, at: dict, wanted,
            value_settled: bool = False) -> str | None:
    """One warning for every value and partial whose digits rounding may have destroyed.

    `value_settled`: the value is already the exact result's (a point typed as a closed
    form, autodiff/typedpoint.py), and the partials left out of `wanted` are too."""
    if value_settled and not wanted:
        return None
    loss = analyse(graph, wanted)
    if loss is None:
        return None
    from ..numbers import format_number
    suspects = {}  # None for the value, else the input's name -> (ours, bound)
    if not value_settled and _relative(loss.value_error, value) > THRESHOLD:
        suspects[None] = value
    for name in wanted:
        g = gradient.get(name)
        if type(g) is float and math.isfinite(g) and \
                _relative(loss.grad_errors.get(name, 0.0), g) > THRESHOLD:
            suspects[name] = g
    if not suspects:
        return None
    true = _precise(graph, [n for n in suspects if n is not None])
    bad, grad_bad, worst = [], [], 0.0
    for name, ours in suspects.items():
        label = result_name if name is None else f"d{result_name}/d{name}"
        if true is None:  # no arbitrary precision here: the bound decides
            bound = loss.value_error if name is None else loss.grad_errors[name]
            worst = max(worst, _relative(bound, ours))
            bad.append(f"{label} = {format_number(ours)}")
        else:
            right = true.get(name)
            if right is None or _agrees(ours, right):
                continue
            worst = max(worst, abs(ours - right) / abs(right) if right else math.inf)
            bad.append(f"{label} = {format_number(ours)} (it is {_short(right)})")
        if name is not None:
            grad_bad.append(name)
    if not bad:
        return None
    where = ", ".join(f"{k} = {format_number(v)}" for k, v in at.items()
                      if isinstance(v, float))
    size = "more than 100%" if worst >= 1 else f"about {worst:.0e}"
    verb = "may be wrong" if true is None else "lost its digits"
    if len(bad) > 1 and true is not None:
        verb = "lost their digits"
    parts = [f"precision loss{' at ' + where if where else ''}: "
             f"{_join(bad)} {verb} to rounding in double precision "
             f"(relative error {size})"]
    named = _exprs(graph)
    cause = None
    if len(bad) > len(grad_bad) and loss.value_source is not None:
        cause = _cause(loss.value_source, named)
    elif grad_bad:
        node, size_ = loss.grad_sources.get(grad_bad[0], (None, 0.0))
        text = _name(node, named)
        cause = (f"the chain rule adds terms as large as {format_number(_round(size_))}"
                 + (f" (through {text})" if text else "") + " that cancel")
    if cause:
        parts.append(cause)
    if _rational_only(graph):
        parts.append("--exact computes it exactly")
    else:
        parts.append("rewrite the expression to avoid it, or evaluate it at another point")
    return "; ".join(parts)


def _round(x: float) -> float:
    return float(f"{x:.3g}")


def _join(items: list) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _cause(node, named) -> str | None:
    """Why `node` (the source of the largest error) rounds: absorption, cancellation, or other."""
    from ..numbers import format_number
    text = _name(node, named)
    op = node._op
    if op is None or text is None:
        return None
    if op.name in ("add", "sub") and len(node._parents) == 2:
        a, b = (p.data for p in node._parents)
        out = node.data
        small = min(abs(a), abs(b))
        if small and (out == a or out == b):
            return (f"{text} rounds to {format_number(out)}: the smaller term "
                    f"({format_number(small)}) is absorbed entirely")
        big = max(abs(a), abs(b))
        if big and abs(out) < big * 1e-6:
            lost = min(16, int(round(math.log10(big / abs(out))))) if out else 16
            return f"{text} subtracts nearly equal numbers and loses about {lost} of 16 digits"
    return f"{text} is where the rounding error starts"


def _exprs(graph):
    """node id -> printed sub-expression, from a lowering that keeps each node's Expr."""
    from ..autodiff.lower import lower
    bindings = {name: leaf.data for name, leaf in graph.inputs.items()}
    wrt = {name for name, leaf in graph.inputs.items() if leaf.requires_grad}
    try:
        again = lower(graph.program, bindings, wrt=wrt, keep_exprs=True)
    except (DomainError, LimitError):  # no names then; the warning still stands
        return {}
    first = graph_nodes(graph.output)
    second = graph_nodes(again.output)
    if len(first) != len(second):
        return {}
    return {id(a): again.exprs[id(b)] for a, b in zip(first, second) if id(b) in again.exprs}


def _name(node, named) -> str | None:
    if node is None:
        return None
    expr = named.get(id(node))
    if expr is None:
        return None
    from ..language.printer import quoted
    return quoted(expr)


def _rational_only(graph) -> bool:
    """Whether --exact can compute the whole graph (+ - * / and integer powers only)."""
    for node in graph_nodes(graph.output):
        op = node._op
        if op is None:
            if not isinstance(node.data, float):
                return False
            continue
        if op.rational:
            continue
        exponent = node._parents[1] if op.name == "pow" else None
        if (exponent is not None and exponent._op is None and not exponent.requires_grad
                and _small_integer(exponent.data)):
            continue
        return False
    return True


def _agrees(ours: float, right: float) -> bool:
    if right == 0:
        return ours == 0
    return abs(ours - right) <= THRESHOLD * abs(right)


def _short(x: float) -> str:
    from ..numbers import format_number
    return format_number(float(f"{x:.6g}"))


# Digits tried in turn; a result is taken once two successive ones agree (a
# cancellation of k digits needs about k more).
_DIGITS = (40, 120, 400, 1200)


def _precise(graph, names) -> dict | None:
    """The value (key None) and the partials by `names` in arbitrary precision, as floats."""
    import mpmath as mp
    nodes = graph_nodes(graph.output)
    previous = None
    for digits in _DIGITS:
        with mp.workdps(digits):
            try:
                got = _run_precise(nodes, graph, names, mp)
            except (ArithmeticError, ValueError, DomainError):
                return None  # not computable in arbitrary precision: the bound decides
        # Zeros that agree are trusted only at the last step: a cancellation deeper
        # than the digits carried gives an exact 0 at every lower precision.
        if previous is not None and all(_close(got[k], previous[k]) and
                                        (got[k] != 0 or digits == _DIGITS[-1]) for k in got):
            return got
        previous = got
    return previous


def _close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b))


def _run_precise(nodes, graph, names, mp) -> dict:
    value, grad = run_graph(nodes, graph.output, lambda node: mp.mpf(node.data), mp)
    got = {None: float(value[id(graph.output)])}
    for name in names:
        leaf = graph.inputs.get(name)
        got[name] = float(grad.get(id(leaf), 0)) if leaf is not None else 0.0
    return got
