"""The record type of the op table (ops.py): what is known about one operation.

Kept apart from the table itself so that each reads in one sitting; ops.py
re-exports every name here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

# Printing precedence, loosest first; ATOM never needs parentheses.
SUM, PRODUCT, UNARY, POWER, ATOM = 1, 2, 3, 4, 5

CONSTANTS = {"pi": 3.141592653589793, "e": 2.718281828459045}


@dataclass(frozen=True)
class Check:
    """A domain condition: `ok(B, *args)` must hold, else `message` is the reason."""

    ok: Callable
    message: str
    show: tuple[int, ...] = (0,)  # the arguments named in the error


@dataclass(frozen=True)
class Kink:
    """A point where the derivative is a convention; `where(B, *args)` detects it."""

    where: Callable
    message: str  # may use {args} for the argument values
    wrt: int | None = None  # only relevant when this argument needs a gradient


@dataclass(frozen=True)
class Op:
    """Everything about one operation."""

    name: str
    arity: int | tuple[int, int | None]
    value: Callable
    partials: tuple[Callable, ...] | Callable
    category: str
    doc: str
    aliases: tuple[str, ...] = ()
    domain: tuple[Check, ...] = ()
    domain_text: str = "all reals"
    kinks: tuple[Kink, ...] = ()
    # Numeric rules over a backend B that replace `partials` for numbers: either a
    # convention (PyTorch's tie split, the exponent of 0**y) or, with
    # extra["stable_form"], the same function rearranged for accuracy. Which rule a
    # number gets is chosen in one place: numeric_rule / numeric_partial below.
    numeric_partials: tuple[Callable | None, ...] | Callable | None = None
    symbol: str | None = None  # infix or prefix symbol for operators
    prec: int = ATOM
    latex: str | None = None
    vjp: Callable | None = None  # for reductions whose gradient is not element-wise
    # The differentiation rule a textbook names for this operation (`diff --steps`): one
    # name, or for an operator a name for each pattern of which arguments vary with the
    # variable ((True, False): only the first), since c*u is the constant multiple rule
    # and u*v the product rule.
    rule: str | dict | None = None
    # The argument names a listing and a hint show (`atan2(y, x)`); None: x, y (a, b for
    # a function of any number of arguments).
    params: tuple[str, ...] | None = None
    # What a book writes as `name^-1 x`: the inverse function (sin^-1 x is asin).
    inverse: str | None = None
    # LaTeX around the argument where the book's notation is not the name and brackets:
    # (r"\sqrt{", "}") prints \sqrt{x}.
    latex_form: tuple[str, str] | None = None
    # Where a factor of this function stands in a simplified product (exp(x)*sin(x)*cos(x));
    # None: after every ranked one, by name.
    product_rank: int | None = None
    # The value jumps where the argument crosses 0 (sign, step): the rule's 0 does not hold
    # there, though no kink is reported (check looks on both sides).
    jumps: bool = False
    # The arguments, other than 0, where the derivative rule is infinite (asin, acosh:
    # -1 and 1): check looks on both sides of each, as it does of 0.
    edges: tuple[float, ...] = ()
    # The double result is the exact result of the double arguments (-x, abs, max): the
    # op adds no rounding of its own.
    exact_in_doubles: bool = False
    # Rationals to rationals by + - * / alone: --exact computes it without a closed form.
    rational: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def is_operator(self) -> bool:
        return self.symbol is not None

    def accepts(self, n: int) -> bool:
        if isinstance(self.arity, int):
            return n == self.arity
        lo, hi = self.arity
        return n >= lo and (hi is None or n <= hi)

    def arg_names(self) -> tuple[str, ...]:
        """The names of the arguments in a listing or a hint: `params`, else x, y (a, b
        for any number of arguments; x0, x1, ... beyond two)."""
        if self.params is not None:
            return self.params
        if not isinstance(self.arity, int):
            return ("a", "b")
        return ("x", "y")[:self.arity] if self.arity <= 2 else \
            tuple(f"x{i}" for i in range(self.arity))

    def arity_text(self) -> str:
        if isinstance(self.arity, int):
            return str(self.arity)
        lo, hi = self.arity
        return f"{lo} or more" if hi is None else f"{lo} to {hi}"

    def rule_name(self, varying: tuple) -> str:
        """The rule's name when the arguments marked True in `varying` depend on the variable."""
        rule = self.rule
        if isinstance(rule, dict):
            rule = rule.get(tuple(varying))
        return rule or self.category

    def partial(self, D, i: int, out, args, cache: dict | None = None):
        """The local derivative d out / d args[i], written in namespace D.

        `cache`: a dict the caller keeps for one node (and one D) while it asks for
        each of the node's arguments in turn, where a rule of many arguments keeps
        what all of them share (max/min's count of ties), so a node of N arguments
        is O(N) work, not O(N**2). Without one the rule computes everything afresh.
        """
        if callable(self.partials):
            return self.partials(D, i, out, args, {} if cache is None else cache)
        return self.partials[i](D, out, *args)

    def numeric_rule(self, i: int) -> str | None:
        """Which rule gives d out / d args[i] on numbers, when it is not `partials`.

        "convention": a numeric rule that is PyTorch's choice where the textbook rule
        has none (max/min's tie split, the exponent of 0**y); "stable": the textbook
        rule rearranged for accuracy (extra["stable_form"]: asin's
        1/sqrt((1 - x)*(1 + x))), the same number in exact arithmetic; None: the
        textbook rule `partials` itself.
        """
        numeric = self.numeric_partials
        if numeric is None or (not callable(numeric) and numeric[i] is None):
            return None
        return "stable" if self.extra.get("stable_form") else "convention"

    def numeric_partial(self, B, D, i: int, out, args, cache: dict | None = None):
        """d out / d args[i] as numbers over backend B: the numeric rule where the table
        has one for this argument (`numeric_rule`), else the textbook rule over D, the
        language's functions over B (local.numeric_d(B)). `cache` as for `partial`."""
        numeric = self.numeric_partials
        if numeric is not None:
            if callable(numeric):
                return numeric(B, i, out, args, {} if cache is None else cache)
            if numeric[i] is not None:
                return numeric[i](B, out, *args)
        return self.partial(D, i, out, args, cache)

    def numeric_rules(self, B) -> tuple | None:
        """`numeric_partial` over B as one function (D, out, *args) per argument, for a
        caller that calls them straight (the engine's loop over float scalars); None where
        the rules are not one per argument (log, max, min: one rule over all the
        arguments; reductions: a vjp)."""
        if self.vjp is not None or not isinstance(self.partials, tuple):
            return None
        numeric = self.numeric_partials
        if numeric is None:
            return self.partials
        if callable(numeric):
            return None
        return tuple(rule if own is None else
                     (lambda D, out, *args, _own=own: _own(B, out, *args))
                     for rule, own in zip(self.partials, numeric))
