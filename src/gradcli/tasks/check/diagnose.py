"""Naming the mistake in a wrong derivative, as a teacher would.

A teacher who sees a wrong derivative asks which rule went wrong. `candidates`
answers the same way: it differentiates the question again with
symbolic.derivative's own forward accumulation and the op table's rules, but
with one rule done wrongly at one node of the question's tree (or, for the
chain rule, at every node at once), and offers each result as a candidate.
`diagnose` evaluates the candidates at the points formula.py compared; the
first one that agrees with the student's answer everywhere names the mistake.

Each Candidate carries a stable key (the JSON "mistake"), the sub-expression
where the rule was misapplied (the JSON "mistake_detail") and a sentence for
people. The keys, in the order candidates are offered:

- chain-rule: an inner derivative missing (exp(2*x) -> exp(2*x)), at one node
  or at every node;
- product-rule: the derivatives multiplied, or one of the two terms missing;
- quotient-rule: the numerator's sign reversed, its two terms added, the
  denominator not squared, or the derivatives divided;
- power-rule: the exponent not lowered (x^3 -> 3*x^3), or the power rule used
  on a variable exponent (2^x -> x*2^(x-1)); an exponent left out as a factor
  (x^2 -> x) is left to "off by a factor" below;
- constant-kept: an additive constant kept instead of its derivative 0;
- wrong-variable: the partial with respect to another variable;
- sign: the sign of one function's derivative (cos -> sin) or of a
  subtraction reversed (offered last, and only after testing whether the whole
  answer is minus the derivative).

After these, the slips of the derivative table that textbook lists of common
errors show (table_mistakes.py: e^x by the power rule, tan -> sec, the 1/2 of
sqrt lost, an antiderivative given, ...), each named only when SymPy proves it.

Global mistakes need no tree: the whole answer minus, off by a constant or a
factor, or right on part of the domain only (docs/check.md, "How a verdict is
reached"). Nothing here prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterator

from ... import ops
from ...autodiff.lower import lower
from ...errors import DomainError, GradcliError
from ...language.expr import BUILD, Apply, Const, Expr, Name, Num, Program, Statement, Vector, \
    as_expr, postorder
from ...language.printer import read_as, to_text
from ...limits import MAX_DIAGNOSE_CANDIDATES, MAX_DIAGNOSE_NODES
from ...symbolic.derivative import chain_rule, derivative, inline, node_derivatives
from ...symbolic.simplify import Simplifier
from . import table_mistakes
from .sampling import answer_value, true_derivative
from .verdict import magnitude, num, shown, told_apart

# Operators that are arithmetic, not "functions" with an inner argument of their own.
ARITHMETIC = {"add", "sub", "mul", "div", "neg", "pos", "pow"}


@dataclass
class Candidate:
    """A derivative some mistake produces: its key, where, and the sentence for people."""

    key: str
    detail: str            # the sub-expression where the rule was misapplied
    expr: Expr             # the mistaken derivative
    sentence: Callable[[], str]  # built only for the candidate that matches (it prints)


def _text(node: Expr) -> str:
    return to_text(node)


def _simplified_text(node: Expr) -> str:
    """A formula for display, simplified (a factor such as d(2*x) = 2)."""
    try:
        return _text(Simplifier().simplify([node])[0])
    except Exception:  # noqa: BLE001 - display only: the raw formula is still right
        return _text(node)


def _local(node: Apply, i: int) -> Expr:
    """The table's local derivative d node / d args[i], as a formula."""
    return as_expr(ops.TABLE[node.op].partial(BUILD, i, node, node.args))


def _accumulate(parts):
    """Sum of the non-None terms, or None when there is none (a zero derivative)."""
    total = None
    for term in parts:
        if term is None:
            continue
        total = term if total is None else total + term
    return total


def _is_one(e) -> bool:
    return isinstance(e, Num) and e.value == 1


def _depends(dargs, i) -> bool:
    return dargs[i] is not None


def candidates(root: Expr, wrt: str, variables: list) -> Iterator[Candidate]:
    """Mistaken derivatives of `root` by `wrt`, most specific first (see the module doc)."""
    nodes = list(postorder(root))
    if len(nodes) > MAX_DIAGNOSE_NODES or any(isinstance(n, Vector) for n in nodes):
        return
    for n in nodes:
        if isinstance(n, Apply) and (n.op not in ops.TABLE or ops.TABLE[n.op].vjp is not None):
            return
    # Which nodes depend on wrt, and their correct inner derivatives.
    d = node_derivatives(root, wrt)
    applies = [n for n in nodes if isinstance(n, Apply)]
    count = 0

    def offer(key, node, wrong, sentence):
        nonlocal count
        count += 1
        return Candidate(key, _text(node), derivative(root, wrt, wrong), sentence)

    # ---- chain rule: the inner derivative of one function's argument missing
    chain_nodes = []
    for node in applies:
        for rule, inner in _chain_drops(node, d):
            chain_nodes.append((node, rule, inner))
    for node, rule, inner in chain_nodes:
        if count >= MAX_DIAGNOSE_CANDIDATES:
            return
        yield offer("chain-rule", node, {id(node): rule}, _chain_sentence(inner, d[id(inner)]))
    if len(chain_nodes) > 1:
        wrong = {id(node): rule for node, rule, _ in chain_nodes}
        inners = ", ".join(dict.fromkeys(_text(inner) for _, _, inner in chain_nodes))
        yield Candidate("chain-rule", _text(root), derivative(root, wrt, wrong),
                        lambda: f"the chain rule: the inner derivatives (of {inners}) are missing")

    # ---- product rule
    for node in applies:
        if node.op != "mul" or not (_depends([d[id(a)] for a in node.args], 0)
                                    and _depends([d[id(a)] for a in node.args], 1)):
            continue
        u, v = node.args
        if count >= MAX_DIAGNOSE_CANDIDATES:
            return
        yield offer("product-rule", node, {id(node): lambda n, da: da[0] * da[1]},
                    lambda u=u, v=v: "the product rule: the derivative of a product is not the "
                    f"product of the derivatives (of {_text(u)} and {_text(v)}); "
                    "(u*v)' = u'*v + u*v'")
        yield offer("product-rule", node, {id(node): lambda n, da: da[0] * n.args[1]},
                    lambda u=u, v=v, dv=d[id(v)]: "the product rule: the term "
                    f"{_simplified_text(u * dv)} ({_text(u)} times the derivative of "
                    f"{_text(v)}) is missing")
        yield offer("product-rule", node, {id(node): lambda n, da: n.args[0] * da[1]},
                    lambda u=u, v=v, du=d[id(u)]: "the product rule: the term "
                    f"{_simplified_text(du * v)} (the derivative of {_text(u)} times "
                    f"{_text(v)}) is missing")

    # ---- quotient rule
    for node in applies:
        if node.op != "div" or d[id(node.args[1])] is None:
            continue
        u, v = node.args
        du = d[id(u)]
        if count >= MAX_DIAGNOSE_CANDIDATES:
            return

        def reversed_sign(n, da):
            top = n.args[0] * da[1] if da[0] is None else n.args[0] * da[1] - da[0] * n.args[1]
            return top / n.args[1] ** 2

        def not_squared(n, da):
            top = -(n.args[0] * da[1]) if da[0] is None else da[0] * n.args[1] - n.args[0] * da[1]
            return top / n.args[1]

        yield offer("quotient-rule", node, {id(node): reversed_sign},
                    lambda v=v: "the quotient rule: the numerator's sign is reversed; "
                    f"(u/v)' = (u'*v - u*v')/v^2 with v = {_text(v)}")
        yield offer("quotient-rule", node, {id(node): not_squared},
                    lambda v=v: f"the quotient rule: the denominator {_text(v)} is not squared; "
                    "(u/v)' = (u'*v - u*v')/v^2")
        if du is not None:
            # The commonest slip of all: + for - between the numerator's two terms.
            yield offer("quotient-rule", node,
                        {id(node): lambda n, da: (da[0] * n.args[1] + n.args[0] * da[1])
                         / n.args[1] ** 2},
                        lambda u=u, v=v: "the quotient rule: the numerator's terms are added; "
                        f"(u/v)' = (u'*v - u*v')/v^2, a difference, with u = {_text(u)} and "
                        f"v = {_text(v)}")
            yield offer("quotient-rule", node, {id(node): lambda n, da: da[0] / da[1]},
                        lambda u=u, v=v: "the quotient rule: the derivative of a quotient is not "
                        f"the quotient of the derivatives (of {_text(u)} and {_text(v)})")

    # ---- power rule
    for node in applies:
        if node.op != "pow":
            continue
        base, exponent = node.args
        if count >= MAX_DIAGNOSE_CANDIDATES:
            return
        if d[id(base)] is not None and d[id(exponent)] is None:
            yield offer("power-rule", node,
                        {id(node): lambda n, da: n.args[1] * n * da[0]},
                        lambda node=node, e=exponent: f"the power rule: the exponent of "
                        f"{_text(node)} was not lowered; d/dx x^n = n*x^(n-1), so the power "
                        f"becomes {_simplified_text(e - 1)}")
        elif d[id(base)] is None and d[id(exponent)] is not None:
            yield offer("power-rule", node,
                        {id(node): lambda n, da: n.args[1] * BUILD.pow(n.args[0], n.args[1] - 1)
                         * da[1]},
                        lambda node=node, b=base: f"the power rule n*x^(n-1) was used on "
                        f"{_text(node)}, whose exponent varies; d/dx a^x = a^x*ln(a), here "
                        f"with a = {_text(b)}")

    # ---- an additive constant kept
    for node in applies:
        if node.op not in ("add", "sub"):
            continue
        for i, arg in enumerate(node.args):
            if d[id(arg)] is not None or d[id(node.args[1 - i])] is None \
                    or (isinstance(arg, Num) and arg.value == 0):
                continue
            if count >= MAX_DIAGNOSE_CANDIDATES:
                return
            def kept(n, da, i=i):
                # the constant argument stays as it is; the other is differentiated
                left = n.args[0] if i == 0 else da[0]
                right = n.args[1] if i == 1 else da[1]
                return getattr(BUILD, n.op)(left, right)
            constant_text = _text(arg)
            if isinstance(arg, (Num, Const)) or not any(isinstance(x, Name)
                                                        for x in postorder(arg)):
                sentence = (lambda c=constant_text: f"a constant kept: the derivative of the "
                            f"constant {c} is 0")
            else:
                sentence = (lambda c=constant_text: f"a constant kept: {c} does not depend on "
                            f"{wrt}, so its derivative by {wrt} is 0")
            yield offer("constant-kept", arg, {id(node): kept}, sentence)

    # ---- the wrong variable
    for other in variables:
        if other == wrt:
            continue
        count += 1
        yield Candidate("wrong-variable", other, derivative(root, other),
                        lambda other=other: f"the derivative with respect to {other}, not {wrt}")

    # ---- the sign of one function's derivative, or of a subtraction
    for node in applies:
        if count >= MAX_DIAGNOSE_CANDIDATES:
            return
        if node.op not in ARITHMETIC and any(x is not None for x in (d[id(a)] for a in node.args)):
            yield offer("sign", node, {id(node): lambda n, da: -chain_rule(n, da)},
                        lambda node=node: f"a sign error: the derivative of {_text(node)} is "
                        f"{_simplified_text(d[id(node)])}")
        elif node.op == "sub" and d[id(node.args[1])] is not None:
            yield offer("sign", node,
                        {id(node): lambda n, da: _accumulate([da[0], da[1]])},
                        lambda node=node: f"a sign error: in the derivative of {_text(node)} "
                        f"the derivative of {_text(node.args[1])} must be subtracted, not added")


def _chain_drops(node: Apply, d: dict):
    """(rule, inner argument) pairs: node's derivative with one inner derivative dropped."""
    dargs = [d[id(a)] for a in node.args]
    if node.op in ARITHMETIC and node.op != "pow":
        return
    for i, da in enumerate(dargs):
        if da is None or _is_one(da):
            continue
        if node.op == "pow":
            # x^n with a compound base, or a^u with a compound exponent
            if dargs[1 - i] is not None:
                continue

        def rule(n, dd, i=i):
            terms = [(_local(n, j) if j == i else _local(n, j) * dj)
                     for j, dj in enumerate(dd) if dj is not None]
            return _accumulate(terms)
        yield rule, node.args[i]


def _chain_sentence(inner: Expr, dinner: Expr):
    return lambda: (f"the chain rule: the factor {_simplified_text(dinner)} (the derivative "
                    f"of {_text(inner)}) is missing")


# ------------------------------------------------------------ naming the mistake

def diagnose(program, answer_program, name, variables, rows, rtol, atol):
    """Name the mistake in a wrong formula: (key, detail, sentence), or (None, None, "").

    In this order: a mistake of one rule, found by rebuilding the derivative
    with that mistake from the question's tree (candidates, above) and comparing
    with the answer at every point; the whole answer's sign, an additive
    constant or a constant factor; right only on part of the domain (when the
    answer is right on a region around each point where it agrees, not merely
    at isolated points); right at the given point only.
    """
    right = [r for r in rows if r.ok]
    wrong = [r for r in rows if not r.ok]
    try:
        found = _named_mistake(program, name, variables, rows, rtol, atol,
                               lambda key: key != "sign")
        if found is None and len(rows) >= 3 and _minus_everywhere(rows):
            found = ("sign", _whole(program),
                     "the sign is wrong: your answer is minus the derivative")
        if found is None:
            found = _named_mistake(program, name, variables, rows, rtol, atol,
                                   lambda key: key == "sign")
        if found is None:
            found = _named_slip(program, answer_program, name, rows, rtol, atol)
    except Exception:  # noqa: BLE001 - naming the mistake is an extra; it never costs the verdict
        found = None
    if found is not None:
        return found
    # A global mistake must also fit the points where the answer agrees: truth + 1 is
    # "right" where the derivative is 1e9, within the relative tolerance.
    found = _global_mistake(program, wrong, rtol, atol) if len(wrong) >= 3 else None
    if found is not None and all(_fits(found[3], r, rtol) for r in right):
        return found[:3]
    region = [r for r in right if _right_nearby(program, answer_program, name, r, rtol, atol)]
    if len(region) >= 2 or (region and len(region) == len(right)):
        for v in variables:
            for sign, word, other in ((1, ">", "<"), (-1, "<", ">")):
                if all(sign * r.point[v] > 0 for r in region) \
                        and all(sign * r.point[v] < 0 for r in wrong):
                    return ("partial-domain", f"{v} {word} 0",
                            f"right only where {v} {word} 0: wrong where {v} {other} 0")
        if len(region) >= 2:
            return ("partial-domain", None, f"right on part of the domain only ({len(wrong)} of "
                    f"{len(rows)} points differ)")
    if any(r.given for r in right):
        return (None, None, f"right at the given point but wrong elsewhere ({len(wrong)} of "
                f"{len(rows)} points differ)")
    return None, None, ""


def _right_nearby(program, answer_program, name, row, rtol, atol) -> bool:
    """Whether the answer is also right at a point 0.1% away: a region, not a coincidence."""
    moved = {k: v * (1 + 1e-3) + 1e-4 for k, v in row.point.items()}
    truth = true_derivative(program, moved, name)
    if truth is None:
        return False
    try:
        s, s_mag = answer_value(answer_program, moved)
    except (DomainError, TypeError, ValueError):
        return False
    t, t_mag = truth
    return math.isfinite(s) and abs(s - t) <= atol + rtol * max(abs(t), t_mag)


def _whole(program) -> str:
    """The question as printed: its expression, or its program on one line."""
    if len(program.statements) == 1:
        return to_text(program.result)
    return read_as(program)


def _minus_everywhere(rows) -> bool:
    """Whether the answer is minus the derivative at every row."""
    if any(r.correct == 0 for r in rows):
        return False
    return all(abs(r.yours / r.correct + 1) <= 1e-7 for r in rows)


def _global_mistake(program, rows, rtol, atol):
    """The whole answer off by its sign, a constant or a factor, at every row given.

    (key, detail, sentence, model): model(derivative) is the answer this mistake
    predicts (None: no prediction).
    """
    truths = [r.correct for r in rows]
    diffs = [r.yours - r.correct for r in rows]
    spread = max(abs(r.yours) + abs(r.correct) for r in rows)
    whole = _whole(program)
    offset = diffs[0]
    if all(abs(t - truths[0]) <= atol + rtol * spread for t in truths):
        if all(abs(d - offset) <= atol + rtol * spread for d in diffs):
            return ("constant-offset", num(offset), f"the derivative is the constant "
                    f"{shown(truths[0])}", lambda t: t + offset)
        return (None, None, f"the derivative is the constant {shown(truths[0])}", None)
    ratios = [r.yours / r.correct for r in rows] if all(r.correct != 0 for r in rows) else None
    factor = ratios and ratios[0]
    same_ratio = ratios is not None and all(abs(q - factor) <= 1e-7 * abs(factor)
                                            for q in ratios)
    if same_ratio and abs(factor + 1) <= 1e-9:
        return ("sign", whole, "the sign is wrong: your answer is minus the derivative",
                lambda t: -t)
    if all(abs(d - offset) <= atol + rtol * spread for d in diffs):
        return ("constant-offset", num(offset), f"off by a constant: your answer minus the "
                f"derivative is {shown(offset)} at every point", lambda t: t + offset)
    if same_ratio:
        return ("constant-factor", num(factor), f"off by a factor: your answer is "
                f"{told_apart(factor, 1.0)[0]} times the derivative", lambda t: factor * t)
    return None


def _fits(model, row, rtol) -> bool:
    """Whether a global mistake's prediction is the answer at `row` too."""
    if model is None:
        return False
    predicted = model(row.correct)
    return abs(row.yours - predicted) <= 2 * row.tol + rtol * abs(predicted)


def _named_mistake(program, name, variables, rows, rtol, atol, wanted=lambda key: True):
    """The first mistake of mistakes.candidates (whose key is `wanted`) that is the answer
    at every row."""
    if len(rows) < 3:
        return None
    root, _ = inline(program)
    for cand in candidates(root, name, variables):
        if wanted(cand.key) and _agrees(Program((Statement(None, cand.expr),)), rows, rtol,
                                        atol):
            return cand.key, cand.detail, cand.sentence()
    return None


def _agrees(mistaken, rows, rtol, atol, telling=None) -> bool:
    """Whether the program `mistaken` is the answer at every row, and tells it from the
    derivative where the answer is wrong: at every such row, or (a proof follows) at
    `telling` rows at least."""
    told = 0
    for r in rows:
        try:
            g = lower(mistaken, r.point, wrt=set())
            c = float(g.output.data)
        except (GradcliError, TypeError, ValueError, ArithmeticError):
            return False
        if not math.isfinite(c):
            return False
        scale = max(abs(r.yours), abs(c), r.mag, magnitude(g.output))
        tol = atol + rtol * scale
        # Where the answer is wrong, the candidate must tell it from the derivative:
        # a match within a tolerance as wide as the error itself explains nothing.
        if abs(r.yours - c) > tol:
            return False
        if not r.ok and 4 * tol > abs(r.yours - r.correct):
            if telling is None:
                return False
        elif not r.ok:
            told += 1
    return telling is None or told >= telling


def _named_slip(program, answer_program, name, rows, rtol, atol):
    """A table mistake of table_mistakes.py that is the answer at every row and that SymPy
    proves is the answer; else an antiderivative given for the derivative, proved alike."""
    if len(rows) < 3:
        return None
    root, _ = inline(program)
    nodes = list(postorder(root))
    if len(nodes) > MAX_DIAGNOSE_NODES or any(isinstance(n, Vector) for n in nodes):
        return None
    for count, slip in enumerate(table_mistakes.slips(root, name)):
        if count >= MAX_DIAGNOSE_CANDIDATES:
            return None
        if _agrees(Program((Statement(None, slip.expr),)), rows, rtol, atol, telling=3) \
                and table_mistakes.proved(answer_program, slip.expr):
            return slip.key, slip.detail, slip.sentence()
    # The answer's own derivative is the question: numerically at every row, then by SymPy.
    question = Program((Statement(None, root),))
    for r in rows:
        own = true_derivative(answer_program, r.point, name)
        try:
            f = float(lower(question, r.point, wrt=set()).output.data)
        except (GradcliError, TypeError, ValueError, ArithmeticError):
            return None
        if own is None or abs(own[0] - f) > atol + rtol * max(abs(f), own[1]):
            return None
    if table_mistakes.proved_antiderivative(answer_program, root, name):
        return ("antiderivative", _whole(program), "an antiderivative, not the derivative: "
                f"the derivative of your answer is {_whole(program)}; differentiate, "
                "do not integrate")
    return None
