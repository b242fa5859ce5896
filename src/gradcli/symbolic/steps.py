"""Step-by-step derivatives (`diff --steps`): the derivation a textbook writes, one rule at a time.

The expression is walked from the top, with an explicit stack: each sub-expression
that varies with the variable gets one step naming its rule (the op table's
`rule`: product, quotient, power, trigonometric, ...), the rule written over
placeholders (u, v, ...) from the table's own derivative rules, what the
placeholders stand for, and its derivative. A function of a sub-expression
that is not the variable itself is the chain rule, its inner function named.
Sums are taken term by term, and a term that does not vary is a constant (held
constant, for a partial derivative).

Every step's derivative comes from one forward pass over the expression
(derivative.node_derivatives) and one simplifier, so a derivation costs a
linear amount of work however many steps it has; at most MAX_SHOWN_STEPS are kept.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import ops
from ..language.expr import BUILD, Apply, Expr, Name, Num, free_names, postorder
from ..language.printer import _pieces, _text_leaf, _text_parts, to_latex, to_text
from ..limits import MAX_SHOWN_STEPS
from .derivative import HELPER_STEMS, node_derivatives
from .simplify import Simplifier

MAX_TEXT = 200  # characters of one sub-expression or result shown before it is shortened
MAX_FORMULA_PARTS = 6  # a rule over more placeholders than this is named, not written out
_SUMS = ("add", "sub")


@dataclass
class Step:
    """One rule applied to one sub-expression."""

    number: int
    expression: Expr
    rule: str
    outer: str | None = None  # the chain rule: the outer function's own rule
    parts: list = field(default_factory=list)  # [(placeholder, sub-expression)]
    formula: tuple | None = None  # (left, right): the rule over the placeholders
    result: Expr | None = None  # d(expression)/d(wrt), simplified
    uses: list = field(default_factory=list)  # the numbers of the steps this one relies on
    held: list = field(default_factory=list)  # variables the constant rule holds constant
    part_steps: list = field(default_factory=list)  # the step of each placeholder's derivative
    constants: list = field(default_factory=list)  # [(letter, constant argument)] in the formula
    # ("sum", signed terms) or ("apply", which arguments vary): what the formula is built from
    _plan: tuple | None = ()

    @property
    def inner(self) -> Expr | None:
        """The chain rule's inner function u."""
        return self.parts[0][1] if self.rule == "chain" and self.parts else None

    @property
    def rules(self) -> list:
        """The rule names this step uses (a chain step: chain and the outer rule)."""
        return [self.rule] + ([self.outer] if self.outer else [])


@dataclass
class Derivation:
    """Every step of one derivative, and diff's answer."""

    wrt: str
    held_constant: list
    steps: list
    total: int  # steps of the whole derivation: more than len(steps) when some are left out
    label: str = ""
    answer: str = ""  # diff's printed derivative
    program: object = None  # and the program it prints
    root: Expr | None = None  # the expression differentiated


def placeholders(avoid) -> list:
    """Placeholder letters that begin no name of the expression (no u beside u_max)."""
    firsts = {name[:1] for name in avoid}
    return [c for c in HELPER_STEMS if c not in firsts]


def _varying(root: Expr, wrt: str) -> set:
    """ids of the nodes that depend on `wrt`."""
    varies = set()
    for node in postorder(root):
        if isinstance(node, Name):
            if node.id == wrt:
                varies.add(id(node))
        elif any(id(c) in varies for c in node.children()):
            varies.add(id(node))
    return varies


def _terms(node: Expr) -> list:
    """A chain of + and - as [(sign, term)], left to right, iteratively."""
    terms, stack = [], [(node, 1)]
    while stack:
        item, sign = stack.pop()
        if isinstance(item, Apply) and item.op in _SUMS:
            left, right = item.args
            stack.append((right, sign if item.op == "add" else -sign))
            stack.append((left, sign))
        else:
            terms.append((sign, item))
    return terms


def _is_var(node: Expr, wrt: str) -> bool:
    return isinstance(node, Name) and node.id == wrt


class _Planner:
    """Decides each step's rule, placeholders and sub-steps."""

    def __init__(self, wrt: str, varies: set, variables: list, letters: list):
        self.wrt, self.varies, self.letters = wrt, varies, letters
        self.variables = set(variables)

    def plan(self, step: Step, shown: bool = True) -> list:
        """Fill in `step`'s rule and placeholders; return the sub-expressions it needs."""
        node, wrt = step.expression, self.wrt
        if _is_var(node, wrt):
            step.rule = "variable"
            return []
        if id(node) not in self.varies:
            step.rule = "constant"
            if shown:  # a walk over the constant: only for the steps that are printed
                step.held = [v for v in free_names(node) if v in self.variables and v != wrt]
            return []
        if node.op in _SUMS:
            terms = _terms(node)
            step.rule = ops.TABLE["sub" if any(s < 0 for s, _ in terms) else "add"].rule
            step._plan = ("sum", terms)
            compound = self._name(step, [t for _, t in terms],
                                  [id(t) in self.varies for _, t in terms])
            # A number's 0 and the variable's 1 are written into the sum's own formula, so
            # they get no step no other step refers to; a term held constant in a partial
            # derivative (y^3 in d/dx) keeps its step, which says why it is 0.
            held = [t for _, t in terms if id(t) not in self.varies
                    and any(v in self.variables and v != wrt for v in free_names(t))]
            return compound + held
        op = ops.TABLE[node.op]
        varying = tuple(id(a) in self.varies for a in node.args)
        step.rule = op.rule_name(varying)
        step._plan = ("apply", varying)
        compound = self._name(step, node.args, varying)
        moving = [a for a, v in zip(node.args, varying) if v]
        if (not op.is_operator or op.name == "pow") and len(moving) == 1 and compound:
            step.outer, step.rule = step.rule, "chain"
        return compound

    def _name(self, step: Step, args, varying) -> list:
        """Give each varying argument that is not the variable itself a placeholder."""
        compound, names = [], {}
        for arg, v in zip(args, varying):
            if v and not _is_var(arg, self.wrt) and arg not in names:
                names[arg] = None
                compound.append(arg)
        if len(compound) <= min(MAX_FORMULA_PARTS, len(self.letters)):
            step.parts = list(zip(self.letters, compound))
        else:
            step._plan = None  # too many to write the rule out: named only
        return compound


def derive(root: Expr, wrt: str, variables: list, max_steps: int = MAX_SHOWN_STEPS) -> Derivation:
    """The derivation of d(root)/d(wrt): steps from the whole expression down, iteratively."""
    varies = _varying(root, wrt)
    letters = placeholders(variables)
    planner = _Planner(wrt, varies, variables, letters)
    seen: dict = {}  # sub-expression (by structure) -> its step
    steps, total = [], 0
    stack = [(root, None)]
    while stack:
        node, parent = stack.pop()
        known = seen.get(node)
        if known is not None:
            if parent is not None:
                parent.uses.append(known.number)
            continue
        total += 1
        step = Step(total, node, "")
        seen[node] = step
        if parent is not None:
            parent.uses.append(step.number)
        subs = planner.plan(step, total <= max_steps)
        if total <= max_steps:
            steps.append(step)
        for sub in reversed(subs):
            stack.append((sub, step))
    for step in steps:
        step.part_steps = [seen[arg] for _, arg in step.parts]
    _results(root, wrt, steps + [p for s in steps for p in s.part_steps if p.number > max_steps])
    simp = Simplifier()
    firsts = {v[:1] for v in variables}
    for step in steps:
        _formula(step, wrt, simp, firsts)
    held = [v for v in variables if v != wrt]
    return Derivation(wrt, held, steps, total, root=root)


def _results(root: Expr, wrt: str, steps: list) -> None:
    """Each step's derivative: one forward pass, then one simplifier for all of them."""
    d = node_derivatives(root, wrt)
    raw = [d.get(id(s.expression)) for s in steps]
    simplified = Simplifier().simplify([Num(0) if r is None else r for r in raw])
    for step, result in zip(steps, simplified):
        step.result = result


def _prime(letter: str) -> Name:
    return Name(letter + "'")


_CONSTANT_LETTERS = "cknabm"


def _constant_letter(op: str, index: int, taken: set) -> str | None:
    """The textbook's letter for a constant argument: x^n, a^u, c*u (one not taken)."""
    first = "n" if op == "pow" and index == 1 else "a" if op == "pow" else "c"
    for letter in first + _CONSTANT_LETTERS:
        if letter not in taken:
            return letter
    return None


def _formula(step: Step, wrt: str, simp: Simplifier, firsts: set = frozenset()) -> None:
    """The rule over placeholders, from the op table's own derivative rule.

    Constant arguments of an operation are letters too (x^n with n = 2, c*u with
    c = 3), so that the line reads as the rule a textbook states.
    """
    if not step._plan or (step._plan[0] == "sum" and len(step._plan[1]) > MAX_FORMULA_PARTS):
        return
    named = {arg: Name(letter) for letter, arg in step.parts}
    var = Name(wrt)

    def stand_in(arg):
        if _is_var(arg, wrt):
            return var, Num(1)
        if arg in named:
            return named[arg], _prime(named[arg].id)
        return arg, None

    kind = step._plan[0] if step._plan else None
    if kind == "sum":
        left = right = None
        for sign, term in step._plan[1]:
            shown, moved = stand_in(term)
            if left is None:
                left = shown if sign > 0 else Apply("neg", (shown,))
            else:
                left = Apply("add" if sign > 0 else "sub", (left, shown))
            if moved is not None:
                piece = moved if sign > 0 else -moved
                right = piece if right is None else right + piece
        right = Num(0) if right is None else right
    elif kind == "apply":
        node = step.expression
        op = ops.TABLE[node.op]
        if not isinstance(op.arity, int) and len(node.args) > MAX_FORMULA_PARTS:
            return
        pairs = [stand_in(a) for a in node.args]
        taken = set(firsts) | {letter for letter, _ in step.parts} | {wrt[:1]}
        for i, (shown, moved) in enumerate(pairs):
            if moved is None and len(node.args) <= 2:
                letter = _constant_letter(node.op, i, taken)
                if letter is not None:
                    taken.add(letter)
                    step.constants.append((letter, shown))
                    pairs[i] = (Name(letter), None)
        args = tuple(p[0] for p in pairs)
        left = Apply(node.op, args)
        right, cache = None, {}
        for i, (_, moved) in enumerate(pairs):
            if moved is None:
                continue
            term = moved * op.partial(BUILD, i, left, args, cache)
            right = term if right is None else right + term
        right = Num(0) if right is None else right
    else:
        return
    step.formula = (left, simp.simplify([right])[0])


# ---------------------------------------------------------------- printing

def short(root: Expr) -> str:
    """The expression as `diff` prints it (`^`, `e^u`), its middle left out past MAX_TEXT.

    A derivative deep inside a long chain is a shared DAG whose text is far longer
    than the DAG: only the two ends are printed.
    """
    head, complete = _ends(root, backwards=False)
    if complete:
        return head
    keep = MAX_TEXT * 2 // 3
    tail, _ = _ends(root, backwards=True)
    return f"{head[:keep]} … {tail[-(MAX_TEXT - keep):]}"


def _ends(root: Expr, backwards: bool):
    """(the first or last MAX_TEXT-odd characters, whether that is the whole text)."""
    parts = lambda node: _text_parts(node, False, True)  # noqa: E731
    got, size = [], 0
    for piece in _pieces(root, _text_leaf, parts, backwards=backwards):
        got.append(piece)
        size += len(piece)
        if size > MAX_TEXT:
            break
    if backwards:
        got.reverse()
    return "".join(got), size <= MAX_TEXT


def is_short(root: Expr) -> bool:
    """Whether `short` prints the whole expression."""
    return _ends(root, backwards=False)[1]


def latex(root: Expr) -> str | None:
    """LaTeX for an expression short enough to print in full, else None."""
    if not is_short(root):
        return None
    text = to_latex(root)
    for c in HELPER_STEMS:  # u' and not \mathrm{u'}
        text = text.replace(r"\mathrm{%s'}" % c, c + "'")
    return text


def text(root: Expr) -> str:
    """The full text, as `diff` prints it."""
    return to_text(root, textbook=True)
