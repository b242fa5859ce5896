"""A derivative formula with rounded decimals decided by proof, each decimal on its own.

`-1.5708 x exp(1/(x^2+1))/(x^2+1)^2` for d/dx π·exp(1/(x²+1))/4 is right because
-1.5708 is -π/2 correctly rounded and, with -π/2 in its place, the formula IS the
derivative. So each rounded decimal (probes.rounded_literals: 3 or more
significant digits; shorter decimals and whole numbers are exact) becomes an
unknown c_i. Where the formula is linear in the unknowns (a coefficient, a
constant factor, a constant term: the common case) it is A0 + Σ c_i·B_i, and
the one set of exact numbers c_i* that can make it the derivative is solved for
from the formula at n rational points where the B_i are independent. Then:

- formulaproof proves the formula with c* in place equal to the derivative, and
  every decimal is c_i* correctly rounded (digits.rounds_right: on the exact
  value, an exact tie either way): right, "decided_by": "proof";
- the identity holds but a decimal is not its number's rounding: wrong, by
  proof, the decimal named with its correct rounding (one decimal's slack never
  covers another's mistake);
- formulaproof finds a point where the formula with c* differs: c* was the only
  candidate, so no rounding of any decimal makes the formula right (the form is
  wrong): wrong, "decided_by": "counterexample".

A decimal the question itself gives (0.0198 in 2000e^(0.0198t)) is that
number exactly, not an unknown, wherever it stands. Anything else (not linear
in the unknowns, dependent unknowns, no SymPy form, SymPy out of time) returns
None and formula.py samples as before. SymPy is
imported here (through formulaproof).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import sympy as sp

from ...language.expr import Name, Num, Program, Statement, postorder, replace_leaves
from .digits import is_decimal_text, places_words, rounded_as, rounds_right, significant, \
    typed_decimal
from .formulaproof import capped, decide_forms, sympy_forms
from .probes import rounded_literals
from .verdict import DIGITS_MIN

# Where the unknowns are solved for: plain rationals off the usual kinks (0, ±1) and
# domain edges, some far out (sqrt(x - 5)), the same on every run.
SOLVE_AT = ("1/3", "2/7", "-3/5", "5/11", "7/4", "-9/4", "13/6", "-1/9", "3/2", "-5/3",
            "11/5", "-17/7", "37/6", "-41/5", "53/4", "-97/7", "301/9")
MAX_UNKNOWNS = 8
SOLVE_SECONDS = 0.4      # CPU: the linear solve and the exact numbers' simplification
INDEPENDENT = 1e-8       # a new row of the system whose own part is below this is dependent
_PREFIX = "_c"


@dataclass
class Settled:
    """What the proof said about a formula with rounded decimals."""

    ok: bool
    decided_by: str                    # "proof" or "counterexample"
    how: str                           # the evidence in words
    values: list = field(default_factory=list)   # (typed text, exact number it stands for)
    wrong: list = field(default_factory=list)    # sentences: a decimal not its rounding
    counterexample: dict | None = None  # the typed formula against the derivative
    compared: int = 0


def _own_literals(answer_program: Program, question: Program) -> list:
    """(Num node, typed text) of each rounded decimal the student typed (not the
    question's intermediates the answer may name)."""
    theirs = {id(s) for s in question.statements}
    own = {id(n) for s in answer_program.statements if id(s) not in theirs
           for n in postorder(s.expr)}
    source = answer_program.source or ""
    out = []
    for node, _ in rounded_literals(answer_program):
        if id(node) in own:
            out.append((node, _signed(node, source[node.span[0]:node.span[1]])))
    return out


def _signed(node, text: str) -> str:
    """The literal's digits with the sign of its value: a span may take in the brackets and
    signs folded into it ((6.283), -(-6.283))."""
    digits = "".join(text.split()).replace("(", "").replace(")", "").lstrip("+-")
    return ("-" if node.value < 0 else "") + digits


def _short_literals(answer_program: Program, question: Program) -> list:
    """(Num node, typed text) of each decimal of fewer than DIGITS_MIN significant digits
    (6.3): an exact number to the digits rule, though often a rounding meant."""
    theirs = {id(s) for s in question.statements}
    source = answer_program.source or ""
    out = []
    for s in answer_program.statements:
        if id(s) in theirs:
            continue
        for node in postorder(s.expr):
            if type(node) is Num and node.span is not None and isinstance(node.value, float):
                text = _signed(node, source[node.span[0]:node.span[1]])
                d = typed_decimal(text)
                if d is not None and d != 0 and is_decimal_text(text) \
                        and significant(d) < DIGITS_MIN:
                    out.append((node, text))
    return out


def _with_names(answer_program: Program, literals) -> Program:
    """The answer with each rounded decimal a name _c0, _c1, ..."""
    names = {id(node): Name(f"{_PREFIX}{i}") for i, (node, _) in enumerate(literals)}
    statements = tuple(Statement(s.name, replace_leaves(s.expr, lambda n: names.get(id(n), n)),
                                 s.span, s.name_span, s.params)
                       for s in answer_program.statements)
    return Program(statements, answer_program.source, answer_program.warnings)


def _number(expr):
    """expr (a SymPy number) at 30 digits as a float, None where not real and finite."""
    try:
        v = sp.N(expr, 30)
    except Exception:  # SymPy cannot evaluate it: the point tells nothing
        return None
    if not v.is_real or not v.is_finite:
        return None
    f = float(v)
    return f if math.isfinite(f) else None


def _solve(answer, truth, unknowns, symbols):
    """The exact c* that make answer = truth at n independent points, or None where the
    answer is not linear in the unknowns or no n independent points are found."""
    slopes = [sp.diff(answer, c) for c in unknowns]
    if any(s == 0 or s.free_symbols & set(unknowns) for s in slopes):
        return None
    rest = truth - answer.xreplace({c: sp.S.Zero for c in unknowns})
    n = len(unknowns)
    rows, rhs, basis = [], [], []
    for i in range(len(SOLVE_AT)):
        subs = {s: sp.Rational(SOLVE_AT[(i + 3 * j) % len(SOLVE_AT)])
                for j, s in enumerate(symbols)}
        row = [b.xreplace(subs) for b in slopes]
        r = rest.xreplace(subs)
        floats = [_number(v) for v in row + [r]]
        if any(v is None for v in floats):
            continue
        own = _independent_part(floats[:n], basis)
        if own is None:
            continue
        basis.append(own)
        rows.append(row)
        rhs.append(r)
        if len(rows) == n:
            break
    if len(rows) < n:
        return None
    if n == 1:
        values = [rhs[0] / rows[0][0]]
    else:
        values = list(sp.Matrix(rows).LUsolve(sp.Matrix(rhs)))
    out = []
    for v in values:
        v = _plain(v)
        if _number(v) is None:
            return None
        out.append(v)
    return out


def _independent_part(row, basis):
    """The row's part orthogonal to the rows kept (unit vectors), normalised; None where
    it is below INDEPENDENT of the row (then the row adds no equation)."""
    size = math.sqrt(sum(v * v for v in row))
    if size == 0:
        return None
    own = list(row)
    for q in basis:
        dot = sum(a * b for a, b in zip(own, q))
        own = [a - dot * b for a, b in zip(own, q)]
    left = math.sqrt(sum(v * v for v in own))
    if left <= INDEPENDENT * size:
        return None
    return [v / left for v in own]


def _plain(value):
    """The exact number as SymPy writes it most simply, where that is quick."""
    if value.is_Rational:
        return value
    for step in (sp.cancel, sp.radsimp, sp.simplify):
        try:
            value = step(value)
        except Exception:  # SymPy fails on hard input: the form as it is stays exact
            break
        if value.is_Rational or sp.count_ops(value) <= 6:
            break
    return value


def describe(value) -> str:
    """An exact number for a reason: its closed form where short, and its decimals
    (√2/2 = 0.7071067812…, 2001/2000 = 1.0005)."""
    from ...closedtext import printed_text
    approx = f"{float(sp.N(value, 20)):.10g}"
    if not (value.is_Rational and sp.Rational(approx) == value):
        approx += "…"
    exact = None
    if value.is_Rational or sp.count_ops(value) <= 6:
        try:
            exact = printed_text(value)  # _plain simplified it: no second simplify
        except Exception:  # no closed form SymPy can print: the number says it
            exact = None
    return approx if exact is None or exact == approx.rstrip("…") else f"{exact} = {approx}"


def too_few_digits(program: Program, answer_program: Program, name: str, variables,
                   at=None) -> str:
    """For a wrong formula: where its short decimals (6.3x for 2πx) are the right numbers
    rounded, a sentence that says so; else ""."""
    short = _short_literals(answer_program, program)
    if not short:
        return ""
    settled = decide_rounded(program, answer_program, name, variables, at,
                             _own_literals(answer_program, program) + short)
    if settled is None or settled.decided_by != "proof" or settled.wrong:
        return ""
    said = [f"{t} is {describe(v)} rounded to {places_words(t)}, too few digits to grade "
            f"(a decimal of fewer than {DIGITS_MIN} significant digits is the exact number "
            f"it spells): give at least {DIGITS_MIN} ({float(sp.N(v, 20)):#.{DIGITS_MIN}g})"
            for t, v in settled.values if any(t == u for _, u in short)
            and sp.Rational(str(typed_decimal(t))) != v]  # 0.5 for 1/2 is no rounding
    return "; ".join(said)


def decide_rounded(program: Program, answer_program: Program, name: str, variables,
                   at=None, literals=None) -> Settled | None:
    """See the module doc; None: not decided here (sampling decides). `literals`: the
    (Num node, text) to solve for, by default the rounded decimals the student typed."""
    if any(v.startswith(_PREFIX) for v in variables):
        return None
    if literals is None:
        # a decimal the question itself gives (0.0198 in 2000e^(0.0198t)) is that number
        given = {abs(n.value) for s in program.statements for n in postorder(s.expr)
                 if type(n) is Num and isinstance(n.value, float)}
        typed = _own_literals(answer_program, program)
        literals = [(n, t) for n, t in typed if abs(n.value) not in given]
        if typed and not literals:
            return _as_given(program, answer_program, name, variables, at)
    if not literals or len(literals) > MAX_UNKNOWNS \
            or any(typed_decimal(t) is None for _, t in literals):
        return None
    try:
        forms = sympy_forms(program, _with_names(answer_program, literals), name, variables)
    except Exception:  # no SymPy form (an op without one, a shape): sampling decides
        return None
    if forms is None:
        return None
    q, answer, truth, symbols = forms
    unknowns = [sp.Symbol(f"{_PREFIX}{i}", real=True) for i in range(len(literals))]
    if not set(unknowns) <= answer.free_symbols:
        return None
    ordered = [symbols[v] for v in variables]
    values = capped(lambda: _solve(answer, truth, unknowns, ordered), SOLVE_SECONDS)
    if values is None:
        return None
    exact = answer.xreplace(dict(zip(unknowns, values)))
    decision = decide_forms(program, name, variables, (q, exact, truth, symbols), at)
    texts = [t for _, t in literals]
    if decision.decided_by == "proof":
        return _graded(texts, values, decision)
    if decision.decided_by == "counterexample":
        typed = answer.xreplace({c: sp.Rational(str(node.value)) if isinstance(node.value, float)
                                 else sp.Integer(node.value)
                                 for c, (node, _) in zip(unknowns, literals)})
        return _no_rounding(texts, values, decision, typed, symbols)
    return None


def _as_given(program, answer_program, name, variables, at) -> Settled | None:
    """Every decimal of the answer is one the question gives: the formula as typed is
    decided as an exact one is."""
    try:
        forms = sympy_forms(program, answer_program, name, variables)
    except Exception:  # no SymPy form (an op without one, a shape): sampling decides
        return None
    if forms is None:
        return None
    decision = decide_forms(program, name, variables, forms, at)
    if decision.decided_by is None:
        return None
    how = decision.how + " (its decimals are the question's own, exactly)"
    return Settled(decision.decided_by == "proof", decision.decided_by, how,
                   counterexample=decision.counterexample, compared=decision.compared)


def _graded(texts, values, decision) -> Settled:
    """The identity is proven with the exact numbers: each decimal must be its rounding."""
    wrong = [f"{t} stands for {describe(v)}: rounded to {places_words(t)} that is "
             f"{rounded_as(t, v)}" for t, v in zip(texts, values) if not rounds_right(t, v)]
    if wrong:
        how = ("decided by proof: with the exact number each decimal stands for in place "
               "the difference simplifies to 0")
    else:
        stands = " and ".join(f"{t} is exact" if sp.Rational(str(typed_decimal(t))) == v
                              else f"{t} is {describe(v)} correctly rounded"
                              for t, v in zip(texts, values))
        how = (f"decided by proof: {stands}, and with "
               f"{'it' if len(texts) == 1 else 'them'} in place "
               f"{decision.how.removeprefix('decided by proof: ')}")
    return Settled(not wrong, "proof", how, list(zip(texts, values)), wrong,
                   compared=decision.compared)


def _no_rounding(texts, values, decision, typed, symbols) -> Settled:
    """No values of the decimals make the formula the derivative: the form is wrong."""
    cx = dict(decision.counterexample)
    subs = {symbols[v]: sp.Rational(repr(float(p))) for v, p in cx["at"].items()}
    yours = _number(typed.xreplace(subs))
    if yours is not None:
        cx["yours"] = yours
    if len(texts) == 1:
        how = (f"decided by a counterexample: no value of the decimal {texts[0]} makes the "
               "formula the derivative (the only one that fits at one point fails at "
               "another, computed to 60 digits)")
    else:
        how = (f"decided by a counterexample: no values of the decimals {', '.join(texts)} "
               f"make the formula the derivative (the only ones that fit at {len(texts)} "
               "points fail at another, computed to 60 digits)")
    return Settled(False, "counterexample", how, list(zip(texts, values)), [],
                   counterexample=cx, compared=decision.compared)
