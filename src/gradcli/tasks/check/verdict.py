"""Answers, verdicts and number grading: what every grader of `check` shares.

An Answer is one answer and its verdict; a Verdict is every answer checked
against one question. Numbers are graded as a teacher grades them
(grade_number): one typed with 3 or more significant digits is right when it
equals the true value correctly rounded to the digits typed (the exact decimal
expansion of the double, rounded; an exact tie either way). Other numbers are
compared as numpy.isclose does: |answer - expected| <= atol + rtol*|expected|.
Giving rtol or atol turns the digits rule off (docs/check.md, "How a verdict is
reached").

Also here, once for the whole package: how a number is written in a reason
(`num`), the largest |value| in a graph (`magnitude`, the scale of its
rounding error), and the checks on the variables an answer names. Nothing here
prints.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_HALF_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, \
    localcontext

from ...autodiff.engine import graph_nodes
from ...errors import DomainError, GradcliError, UsageError
from ...inputs import constant_value
from ...numbers import format_number, noise_free
from ...reading import read_program

RTOL = 1e-6
ATOL = 1e-9
# Equivalent formulas differ by rounding: never compare them tighter than this.
FORMULA_RTOL_FLOOR = 1e-9
DIGITS_MIN = 3        # a number typed with this many significant digits is graded by rounding
DIGITS_MAX = 15       # beyond this many, by a double's own precision
_SPECIAL = {"nan": math.nan, "inf": math.inf, "+inf": math.inf, "-inf": -math.inf}


@dataclass
class Answer:
    """One answer and its verdict."""

    kind: str                 # "value", "gradient" or "derivative"
    name: str                 # the result name for a value, else the variable
    answer: str               # the student's text
    expected: object = None   # the correct number at the given point
    computed: object = None   # the student's answer as a number at the given point
    ok: bool = False
    reason: str = ""          # why it is wrong (empty when right)
    correct: str | None = None          # the correct formula (derivatives)
    counterexample: dict | None = None  # {"at": {...}, "yours": s, "correct": t}
    note: str = ""            # the diagnosis: what kind of wrong, or how it was judged right
    points: int = 0           # points compared (derivatives)
    mistake: str | None = None         # derivatives: the stable key of the mistake named
    mistake_detail: str | None = None  # the sub-expression (or variable) it concerns
    digits: int | None = None          # numbers judged by the digits rule: digits given
    rounded: str | None = None         # ... and the value correctly rounded to them
    key: str | None = None    # the homework answers' own label (tangent, T2, dy/dx, D_u f, ...)
    step: dict | None = None  # derivatives: the step of diff --steps the named mistake breaks
    decided_by: str | None = None  # "proof", "digits", "counterexample" or "sampling"
    warnings: list = field(default_factory=list)  # how the answer's own text was read
    evidence: str = ""        # ... and that evidence in words, printed after the note
    expected_to: object = None  # precision -> the expected equation rounded (a table's digits)

    @property
    def told(self) -> str:
        """The evidence and the note, as the table and plain output print them."""
        return "; ".join(n for n in (self.evidence, self.note) if n)


@dataclass
class Verdict:
    """Every answer checked against one expression."""

    expression: str
    read_as: str
    at: dict
    answers: list
    rtol: float
    atol: float
    result_name: str = "f"
    warnings: list = field(default_factory=list)
    digits_rule: bool = True  # numbers of 3+ digits judged by rounding (no --rtol/--atol given)
    variables: tuple = ()     # the expression's inputs: one means df/dx in a label, more ∂f/∂x

    @property
    def ok(self) -> bool:
        return all(a.ok for a in self.answers)


def close_each(computed, expected, rtol: float, atol: float):
    """close() element by element over arrays of equal shape: a bool array."""
    import numpy as np
    a, b = np.asarray(computed, dtype=float), np.asarray(expected, dtype=float)
    return np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)


def close(computed, expected, rtol: float, atol: float) -> bool:
    """|computed - expected| <= atol + rtol*|expected|; nan matches nan, inf matches inf."""
    if hasattr(computed, "shape") or hasattr(expected, "shape") \
            or isinstance(computed, list) or isinstance(expected, list):
        import numpy as np
        a, b = np.asarray(computed, dtype=float), np.asarray(expected, dtype=float)
        if a.shape != b.shape:
            return False
        return bool(np.all(close_each(a, b, rtol, atol)))
    a, b = float(computed), float(expected)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


_DECIMAL = re.compile(r"[+-]?(?:(\d+)\.?(\d*)|\.(\d+))(?:[eE][+-]?\d+)?")


def significant_digits(text) -> int:
    """The significant digits typed in a plain decimal number; 0 for anything else.

    Leading zeros do not count; every other digit typed does, trailing zeros
    included (`4.540e-5` has 4, `300` has 3, `0.0012` has 2). A zero, an
    expression (`1/3`, `pi/4`) or a number given as a Python float has none.

    >>> significant_digits("3.1677"), significant_digits("-0.9093"), significant_digits("4.540e-5")
    (5, 4, 4)
    """
    if not isinstance(text, str):
        return 0
    m = _DECIMAL.fullmatch(text.strip())
    if not m:
        return 0
    digits = "".join(g or "" for g in m.groups()).lstrip("0")
    return len(digits)


def correctly_rounded(value: float, digits: int, rounding=ROUND_HALF_EVEN) -> Decimal:
    """The double `value` (its exact decimal expansion) rounded to `digits` significant digits."""
    exact = Decimal(value)
    if exact == 0:
        return exact
    quantum = Decimal(1).scaleb(exact.adjusted() - digits + 1)
    with localcontext() as ctx:
        ctx.prec = max(digits + 5, 28)
        rounded = exact.quantize(quantum, rounding=rounding)
        if rounded.adjusted() > exact.adjusted():  # a carry: 9.9996 -> 10.00, not 10.000
            rounded = rounded.quantize(quantum.scaleb(1))
        return rounded


def _decimal_text(d: Decimal, digits: int, scientific: bool) -> str:
    """`d` written with exactly `digits` significant digits (4.540e-5, 3.1677, 0.0000454)."""
    if scientific:
        return format(d, f".{digits - 1}e")
    if d == 0:
        return "0"
    text = format(d, "f")
    shown = len(text.replace("-", "").replace(".", "").lstrip("0"))
    if shown < digits:  # 10.00 must keep its zeros when a carry made the value 10
        text += ("" if "." in text else ".") + "0" * (digits - shown)
    return text


def grade_number(text, computed, expected):
    """The digits rule for one numeric answer: None when it does not apply, else a dict.

    It applies to a plain decimal number of DIGITS_MIN or more significant
    digits and a finite scalar expected value. The answer is right when it
    equals the expected double correctly rounded to the digits given (an exact
    tie may be rounded either way: half up and half down are both accepted;
    half-even is always one of them). Beyond DIGITS_MAX digits the answer
    reaches a double's own precision and is right within a few units in the
    last place of the expected double. Returns {"ok", "digits", "rounded",
    "reason", "note"}.
    """
    k = significant_digits(text)
    if k < DIGITS_MIN or isinstance(expected, bool):
        return None
    try:
        e, c = float(expected), float(computed)
    except (TypeError, ValueError):
        return None  # a vector or matrix: the tolerance rule
    if getattr(expected, "shape", ()) != () or not (math.isfinite(e) and math.isfinite(c)):
        return None
    scientific = "e" in text.lower()
    shown_digits = min(k, DIGITS_MAX)
    rounded = correctly_rounded(e, shown_digits)
    rounded_text = _decimal_text(rounded, shown_digits, scientific)
    if k > DIGITS_MAX:
        ok = abs(c - e) <= 4 * math.ulp(e)
    else:
        given = Decimal(text.strip())
        ok = given in (correctly_rounded(e, k, ROUND_HALF_UP),
                       correctly_rounded(e, k, ROUND_HALF_DOWN))
    out = {"ok": ok, "digits": k, "rounded": rounded_text, "reason": "", "note": ""}
    if ok:
        out["note"] = f"right (to the {k} digits given)"
        return out
    reason = f"to {shown_digits} digits the value is {rounded_text}"
    if k <= DIGITS_MAX and Decimal(text.strip()) == correctly_rounded(e, k, ROUND_DOWN) != rounded:
        reason += f" ({text.strip()} is cut off, not rounded)"
    out["reason"] = reason
    return out


def grade_numeric(a: Answer, text, rtol, atol, digits_rule: bool) -> None:
    """Mark a numeric answer right or wrong: the digits rule, else the tolerance."""
    if isinstance(a.computed, Undefined):
        why, a.computed, a.ok = a.computed.why, None, False
        a.reason = (f"your answer is undefined ({why}); the correct value is "
                    f"{plain_number(a.expected)}")
        return
    graded = grade_number(text, a.computed, a.expected) if digits_rule else None
    if graded is not None:
        a.ok, a.digits, a.rounded = graded["ok"], graded["digits"], graded["rounded"]
        a.reason, a.note = graded["reason"], graded["note"]
        return
    a.ok = close(a.computed, a.expected, rtol, atol)
    if not a.ok:
        a.reason = f"the correct value is {plain_number(a.expected)}"
        k = significant_digits(text) if digits_rule else 0
        if 0 < k < DIGITS_MIN and "." in text and _rounds_to(text, a.expected, k):
            # 0.87 for sin(pi/3): the value rounded, to too few digits to tell it apart (a
            # whole number such as 3 means 3 exactly, not a rounding)
            enough = _decimal_text(correctly_rounded(float(a.expected), DIGITS_MIN),
                                   DIGITS_MIN, False)
            a.reason = (f"{text.strip()} is the value rounded to {k} significant "
                        f"digit{'s' if k > 1 else ''}, too few to grade: give at least "
                        f"{DIGITS_MIN} ({enough}), or allow a rounded answer with --rtol")


def _rounds_to(text, expected, k) -> bool:
    try:
        e = float(expected)
    except (TypeError, ValueError):
        return False
    if getattr(expected, "shape", ()) != () or not math.isfinite(e):
        return False
    return Decimal(text.strip()) in (correctly_rounded(e, k, ROUND_HALF_UP),
                                     correctly_rounded(e, k, ROUND_HALF_DOWN))


class Undefined:
    """A numeric answer that is itself undefined (1/0, log(-1)): wrong, not an error."""

    def __init__(self, why: str):
        self.why = why


def number_or_why(answer, what: str):
    """number_answer, or Undefined where the answer's own value is undefined."""
    try:
        return number_answer(answer, what)
    except DomainError as exc:
        return Undefined(exc.message)


def number_answer(answer, what: str):
    """A numeric answer (3, -1e-3, 1/3, pi/4, nan, inf) as a number."""
    if not isinstance(answer, str):
        return answer
    text = answer.strip()
    if text.lower() in _SPECIAL:
        return _SPECIAL[text.lower()]
    try:
        read_program(text)
    except GradcliError as exc:
        exc.message = f"the answer {what} does not parse: {exc.message}"
        exc.source = text
        raise
    try:
        return constant_value(text, f"the answer {what}")
    except UsageError as exc:
        exc.hint = exc.hint or ("a numeric answer is a number such as 28, 1/3 or pi/4; "
                                "check a formula with --derivative FORMULA --wrt NAME")
        raise


def tolerances(rtol, atol) -> tuple:
    """(digits rule on?, rtol, atol): the rule holds unless a tolerance is given."""
    digits_rule = rtol is None and atol is None
    rtol = RTOL if rtol is None else rtol
    atol = ATOL if atol is None else atol
    if rtol < 0 or atol < 0:
        raise UsageError("--rtol and --atol must be zero or positive")
    return digits_rule, rtol, atol


def pairs_of(derivatives) -> list:
    """(variable, formula) pairs from a list of pairs or a dict."""
    return list(derivatives.items()) if isinstance(derivatives, dict) else list(derivatives or ())


def check_pairs(pairs, variables) -> None:
    """Each --wrt names a variable of the expression, and no variable twice."""
    seen = set()
    for name, _ in pairs:
        known_variable(name, "--wrt", variables, ())
        if name in seen:
            raise UsageError(f"two answers for the derivative with respect to '{name}'",
                             hint="give one --derivative per variable")
        seen.add(name)


def as_typed(answer) -> str:
    return answer.strip() if isinstance(answer, str) else format_number(answer)


def plain_number(value) -> str:
    try:
        return format_number(value)
    except (TypeError, ValueError):
        return str(value.tolist() if hasattr(value, "tolist") else value)


def known_variable(name, option, variables, intermediates):
    if name in variables or name in intermediates:
        return
    listed = ", ".join(variables) if variables else "none"
    raise UsageError(f"{option}: the expression has no variable '{name}'",
                     hint=f"its variables are: {listed}")


def largest(values) -> float:
    """The largest finite magnitude among `values` (0 if none)."""
    biggest = 0.0
    for m in values:
        if biggest < m < math.inf:
            biggest = m
    return biggest


def magnitude(root) -> float:
    """The largest |value| of any node under `root`: the scale of its rounding error."""
    def sizes():
        for node in graph_nodes(root):
            try:
                yield abs(float(node.data))
            except (TypeError, ValueError):
                pass
    return largest(sizes())


def num(x) -> str:
    if isinstance(x, float) and math.isfinite(x):
        return noise_free(x)
    return plain_number(x)


def shown(x) -> str:
    """A computed number in a sentence, rounded as the rest of the output is (6
    significant digits)."""
    if isinstance(x, float) and math.isfinite(x):
        return format_number(float(f"{x:.6g}"))
    return num(x)


def told_apart(a, b) -> tuple[str, str]:
    """Two numbers of a message rounded as the rest of the output is (6 significant
    digits), with just as many more as it takes to show that they differ."""
    if not all(isinstance(x, float) and math.isfinite(x) for x in (a, b)):
        return num(a), num(b)
    for digits in range(6, 18):
        ta, tb = (format_number(float(f"{x:.{digits}g}")) for x in (a, b))
        if ta != tb:
            return ta, tb
    return format_number(a), format_number(b)


def point_text(point) -> str:
    return ", ".join(f"{k} = {format_number(v)}" for k, v in point.items())
