"""The derivatives that common mistakes produce, built from the question's own tree.

A teacher who sees a wrong derivative asks which rule went wrong. This module
answers the same way: it differentiates the question again under a rule set
with one mistake in it, at one node of the question's tree (or, for the chain
rule, at every node at once), and offers each result as a candidate. The
checker evaluates the candidates at its sample points; the first one that
agrees with the student's answer everywhere names the mistake.

Each Candidate carries a stable key (the JSON "mistake"), the sub-expression
where the rule was misapplied (the JSON "mistake_detail") and a sentence for
people. The keys, in the order candidates are offered:

- chain-rule: an inner derivative missing (exp(2*x) -> exp(2*x)), at one node
  or at every node;
- product-rule: the derivatives multiplied, or one of the two terms missing;
- quotient-rule: the numerator's sign reversed, the denominator not squared,
  or the derivatives divided;
- power-rule: the exponent not lowered (x^3 -> 3*x^3), or the power rule used
  on a variable exponent (2^x -> x*2^(x-1)); an exponent left out as a factor
  (x^2 -> x) is left to check.py's "off by a factor";
- constant-kept: an additive constant kept instead of its derivative 0;
- wrong-variable: the partial with respect to another variable;
- sign: the sign of one function's derivative (cos -> sin) or of a
  subtraction reversed (offered last, and by check.py only after it has
  tested whether the whole answer is minus the derivative).

Global mistakes (the whole answer minus, off by a constant or a factor, right
on part of the domain) need no tree; check.py names those.

Differentiation here is the forward accumulation of symbolic.derivative over
the op table's own partials, with a hook for the one node done wrongly.
Nothing here evaluates numbers or prints to the user.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from . import ops
from .language.expr import BUILD, Apply, Const, Expr, Name, Num, Vector, as_expr, postorder
from .language.printer import to_text
from .symbolic.simplify import Simplifier

# Operators that are arithmetic, not "functions" with an inner argument of their own.
ARITHMETIC = {"add", "sub", "mul", "div", "neg", "pos", "pow"}
MAX_NODES = 400       # beyond this many distinct nodes, no diagnosis is attempted
MAX_CANDIDATES = 600  # and never more candidates than this


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


def _chain(node: Apply, dargs) -> Expr | None:
    """The correct rule: sum over the arguments of local derivative times inner derivative."""
    terms = []
    for i, da in enumerate(dargs):
        if da is None:
            continue
        local = _local(node, i)
        if isinstance(local, Num) and local.value == 0:
            continue
        terms.append(local * da)
    return _accumulate(terms)


def derivative(root: Expr, wrt: str, wrong: dict | None = None) -> Expr:
    """d root / d wrt, except that each node whose id is in `wrong` uses wrong[id](node, dargs).

    `dargs` are the (correct) derivatives of the node's arguments, None for zero.
    """
    wrong = wrong or {}
    d: dict = {}
    for node in postorder(root):
        if isinstance(node, Name):
            d[id(node)] = Num(1) if node.id == wrt else None
        elif isinstance(node, (Num, Const)):
            d[id(node)] = None
        elif isinstance(node, Apply):
            dargs = [d[id(a)] for a in node.args]
            rule = wrong.get(id(node))
            d[id(node)] = rule(node, dargs) if rule is not None else _chain(node, dargs)
        else:
            raise TypeError("vectors have no diagnosis")
    result = d[id(root)]
    return Num(0) if result is None else result


def _is_one(e) -> bool:
    return isinstance(e, Num) and e.value == 1


def _depends(dargs, i) -> bool:
    return dargs[i] is not None


def candidates(root: Expr, wrt: str, variables: list) -> Iterator[Candidate]:
    """Mistaken derivatives of `root` by `wrt`, most specific first (see the module doc)."""
    nodes = list(postorder(root))
    if len(nodes) > MAX_NODES or any(isinstance(n, Vector) for n in nodes):
        return
    for n in nodes:
        if isinstance(n, Apply) and (n.op not in ops.TABLE or ops.TABLE[n.op].vjp is not None):
            return
    # Which nodes depend on wrt, and their correct inner derivatives.
    d: dict = {}
    for node in nodes:
        if isinstance(node, Name):
            d[id(node)] = Num(1) if node.id == wrt else None
        elif isinstance(node, Apply):
            d[id(node)] = _chain(node, [d[id(a)] for a in node.args])
        else:
            d[id(node)] = None
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
        if count >= MAX_CANDIDATES:
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
        if count >= MAX_CANDIDATES:
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
        if count >= MAX_CANDIDATES:
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
            yield offer("quotient-rule", node, {id(node): lambda n, da: da[0] / da[1]},
                        lambda u=u, v=v: "the quotient rule: the derivative of a quotient is not "
                        f"the quotient of the derivatives (of {_text(u)} and {_text(v)})")

    # ---- power rule
    for node in applies:
        if node.op != "pow":
            continue
        base, exponent = node.args
        if count >= MAX_CANDIDATES:
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
            if count >= MAX_CANDIDATES:
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
        if count >= MAX_CANDIDATES:
            return
        if node.op not in ARITHMETIC and any(x is not None for x in (d[id(a)] for a in node.args)):
            yield offer("sign", node, {id(node): lambda n, da: -_chain(n, da)},
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
