"""The homework checker: compare a student's answers with what the engine computes.

`check()` returns a Verdict: one Answer per value, partial derivative or
symbolic derivative given, each right or wrong with the reason. Nothing here
prints.

Numbers are graded as a teacher grades them (grade_number): one typed with 3
or more significant digits is right when it equals the true value correctly
rounded to the digits typed (the exact decimal expansion of the double,
rounded; an exact tie either way). Other numbers are compared as numpy.isclose
does: |answer - expected| <= atol + rtol*|expected|. Giving rtol or atol
turns the digits rule off.

A symbolic derivative is compared numerically: at the given point and at
random points of moderate size (|v| in 0.1..3, both signs, the same points on
every run) where both the answer and the true derivative are defined; a point
where both are within the tolerance of 0 proves nothing and is not counted.
The true numbers come from the engine's backward pass; the answer is evaluated
by the same engine. A wrong answer gets a point where the two differ and, where
it can be named, its mistake (a stable key and a sentence): one rule misapplied
at one node of the question's tree (mistakes.py: chain, product, quotient or
power rule, a sign, a constant kept, the wrong variable), else the whole
answer's sign, a constant or a factor off, or right only on part of the domain
(a region, checked by moving each agreeing point a little).

`check_points()` is `check --points FILE`: every row of the file is a point,
evaluated in vectorised chunks through gradcli.arrays. An answer is a constant
(`--value`, `--grad`, the same at every row) or a column of the file: `value`
(or the result's name, `f`) for the value, `grad_w` (or `df/dw`) for the
partial by w, so the CSV that `eval --points` writes checks as all right. A
`--derivative` formula is evaluated at every row and compared with the engine's
partial there. Each row's answers are right, wrong, or unchecked (the row could
not be read, or the expression is undefined there); `PointsCheck.exit_code` is
2 for unreadable rows, else 1 for any wrong answer, else 3 for undefined rows.
"""
from __future__ import annotations

import math
import re
import zlib
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_HALF_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, \
    localcontext

from .autodiff.engine import backend_for, backend_inputs, graph_nodes, local_derivative, topo_order
from .autodiff.lower import lower
from .errors import DomainError, GradcliError, ShapeError, UnknownName, UsageError
from .evaluation import evaluate
from .inputs import constant_value, inputs_of, split_top_level
from .language.expr import Program, Statement, first_span, size
from .reading import given_names, parse
from .language.printer import read_as, to_text
from .mistakes import candidates
from .answer_probes import edge_points, rounded_literals, rounding_slack
from .numbers import format_number
from .symbolic.derivative import differentiate_text, inline

RTOL = 1e-6
ATOL = 1e-9
# Equivalent formulas differ by rounding: never compare them tighter than this.
FORMULA_RTOL_FLOOR = 1e-9
SAMPLES = 16          # random points compared besides the given one
LARGE = 20_000        # nodes: beyond this, SAMPLES_LARGE points keep the time near an eval's
SAMPLES_LARGE = 4
MAX_TRIES = 120       # candidate points tried to find SAMPLES comparable ones
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
    if isinstance(a.computed, _Undefined):
        why, a.computed, a.ok = a.computed.why, None, False
        a.reason = f"your answer is undefined ({why}); the correct value is {_number(a.expected)}"
        return
    graded = grade_number(text, a.computed, a.expected) if digits_rule else None
    if graded is not None:
        a.ok, a.digits, a.rounded = graded["ok"], graded["digits"], graded["rounded"]
        a.reason, a.note = graded["reason"], graded["note"]
        return
    a.ok = close(a.computed, a.expected, rtol, atol)
    if not a.ok:
        a.reason = f"the correct value is {_number(a.expected)}"


class _Undefined:
    """A numeric answer that is itself undefined (1/0, log(-1)): wrong, not an error."""

    def __init__(self, why: str):
        self.why = why


def number_or_why(answer, what: str):
    """number_answer, or _Undefined where the answer's own value is undefined."""
    try:
        return number_answer(answer, what)
    except DomainError as exc:
        return _Undefined(exc.message)


def number_answer(answer, what: str):
    """A numeric answer (3, -1e-3, 1/3, pi/4, nan, inf) as a number."""
    if not isinstance(answer, str):
        return answer
    text = answer.strip()
    if text.lower() in _SPECIAL:
        return _SPECIAL[text.lower()]
    try:
        parse(text)
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


def derivative_names(text: str, bindings: dict, grads: dict, wrt, derivatives) -> list[str]:
    """The variable of each --derivative answer: the --wrt names in order (each may list
    several, `w,x`), or the expression's one variable when --wrt is not given."""
    names = [n for spec in wrt for n in split_top_level(spec)]
    if derivatives and not names:
        variables = inputs_of(parse(text, given_names(bindings, grads)))
        if len(variables) != 1:
            raise UsageError("--derivative needs --wrt NAME: the expression has "
                             f"{len(variables)} variables ({', '.join(variables) or 'none'})",
                             hint="give one --wrt per --derivative, in the same order")
        names = variables
    if len(names) != len(derivatives):
        raise UsageError(f"{len(derivatives)} --derivative answer(s) but {len(names)} --wrt "
                         "name(s)", hint="the i-th --derivative goes with the i-th --wrt")
    return names


def tolerances(rtol, atol) -> tuple:
    """(digits rule on?, rtol, atol): the rule holds unless a tolerance is given."""
    digits_rule = rtol is None and atol is None
    rtol = RTOL if rtol is None else rtol
    atol = ATOL if atol is None else atol
    if rtol < 0 or atol < 0:
        raise UsageError("--rtol and --atol must be zero or positive")
    return digits_rule, rtol, atol


def check(text: str, at: dict | None = None, value=None, grad: dict | None = None,
          derivatives=None, rtol: float | None = None, atol: float | None = None,
          program: Program | None = None) -> Verdict:
    """Check a student's answers for the expression `text` at the point `at`.

    `value`: the value of the expression; `grad`: {variable: partial};
    `derivatives`: (variable, formula) pairs (or a dict). Answers are text in
    the language (or numbers). Raises GradcliError for bad input, never for a
    wrong answer.

    A number typed with 3 or more significant digits is right when it is the
    true value correctly rounded to those digits (grade_number); other numbers
    are compared with the tolerances. Giving `rtol` or `atol` (None: the
    defaults RTOL, ATOL) turns the digits rule off: the tolerances decide.

    >>> check("(w*x+b)**2", {"w": 3, "x": 2, "b": 1}, grad={"w": 28}).ok
    True
    """
    digits_rule, rtol, atol = tolerances(rtol, atol)
    program = program or parse(text, given_names(at, grad, [v for v, _ in _pairs(derivatives)]))
    variables = inputs_of(program)
    pairs = _pairs(derivatives)
    grad = dict(grad or {})
    if value is None and not grad and not pairs:
        raise UsageError("nothing to check: give --value, --grad or --derivative",
                         hint='for example: gradcli check "x**2" --at x=3 --grad x=6')
    at = dict(at or {})
    last = program.statements[-1].name
    intermediates = [n for n in program.defined if n != last]
    for name in grad:
        _known_variable(name, "--grad", variables, intermediates)
    _check_pairs(pairs, variables)

    # Every answer is read before any computing: bad input (exit 2) comes first.
    f = program.statements[-1].name or "f"
    value_number = None if value is None else number_or_why(value, "--value")
    grad_numbers = {name: number_or_why(given, f"--grad {name}") for name, given in grad.items()}
    formulas = [(name, formula, parse_answer(formula, program, variables, f"∂{f}/∂{name}"))
                for name, formula in pairs]
    result = None
    if value is not None or grad or at:
        if not at and variables:
            raise UsageError("--value and --grad need the point: add --at",
                             hint="add --at " + ",".join(f"{v}=VALUE" for v in variables))
        wanted = [n for n in grad if n in variables]
        result = evaluate(text, at, program=program, wrt=wanted or [],
                              intermediates=any(n not in variables for n in grad))
    answers = []
    if value is not None:
        computed = value_number
        a = Answer("value", f, _shown(value), expected=result.value, computed=computed)
        grade_numeric(a, value, rtol, atol, digits_rule)
        answers.append(a)
    for name, given in grad.items():
        computed = grad_numbers[name]
        expected = result.gradient[name]
        a = Answer("gradient", name, _shown(given), expected=expected, computed=computed)
        grade_numeric(a, given, rtol, atol, digits_rule)
        answers.append(a)
    if pairs:
        for name, v in at.items():
            if not isinstance(v, (int, float)):
                raise UsageError(f"symbolic answers are checked at scalar points; '{name}' "
                                 "is not a number", hint="check numeric answers with --grad")
        used = {k: float(v) for k, v in at.items() if k in variables}
        for name, formula, answer_program in formulas:
            answers.append(_check_formula(text, program, variables, name, formula,
                                          answer_program, used if at else None, rtol, atol,
                                          digits_rule))
    return Verdict(expression=text, read_as=read_as(program), at=dict(at), answers=answers,
                   rtol=rtol, atol=atol, result_name=f,
                   warnings=list(result.warnings) if result else list(program.warnings),
                   digits_rule=digits_rule)


def _pairs(derivatives) -> list:
    """(variable, formula) pairs from a list of pairs or a dict."""
    return list(derivatives.items()) if isinstance(derivatives, dict) else list(derivatives or ())


def _check_pairs(pairs, variables) -> None:
    """Each --wrt names a variable of the expression, and no variable twice."""
    seen = set()
    for name, _ in pairs:
        _known_variable(name, "--wrt", variables, ())
        if name in seen:
            raise UsageError(f"two answers for the derivative with respect to '{name}'",
                             hint="give one --derivative per variable")
        seen.add(name)


def _shown(answer) -> str:
    return answer.strip() if isinstance(answer, str) else format_number(answer)


def _number(value) -> str:
    try:
        return format_number(value)
    except (TypeError, ValueError):
        return str(value.tolist() if hasattr(value, "tolist") else value)


def _known_variable(name, option, variables, intermediates):
    if name in variables or name in intermediates:
        return
    listed = ", ".join(variables) if variables else "none"
    raise UsageError(f"{option}: the expression has no variable '{name}'",
                     hint=f"its variables are: {listed}")


# ------------------------------------------------------------- symbolic answers

def parse_answer(formula: str, program: Program, variables, what: str) -> Program:
    """The student's formula as a program that may use the question's variables and names."""
    try:
        answer = parse(formula, given_names(variables, program.defined))
    except GradcliError as exc:
        exc.message = f"the answer for {what} does not parse: {exc.message}"
        exc.source = formula
        raise
    defined = set(program.defined)
    used = inputs_of(answer)
    for name in used:
        if name not in variables and name not in defined:
            listed = ", ".join(variables) if variables else "none"
            span = first_span(answer, name)
            raise UnknownName(f"the answer for {what} uses '{name}', which the question "
                              "does not have", source=formula, span=span,
                              hint=f"the question's variables are: {listed}")
    if any(n in defined for n in used):
        # The answer may name the question's intermediates (z in `z = w*x + b; z**2`).
        clash = [n for n in answer.defined if n in defined]
        if clash:
            raise UsageError(f"the answer for {what} defines '{clash[0]}', which the "
                             "question already defines", hint="use another name")
        named = tuple(s for s in program.statements if s.name is not None)
        answer = Program(named + tuple(answer.statements), formula, answer.warnings)
    return answer


def _largest(values) -> float:
    """The largest finite magnitude among `values` (0 if none)."""
    biggest = 0.0
    for m in values:
        if biggest < m < math.inf:
            biggest = m
    return biggest


def _magnitude(root) -> float:
    """The largest |value| of any node under `root`: the scale of its rounding error."""
    def sizes():
        for node in graph_nodes(root):
            try:
                yield abs(float(node.data))
            except (TypeError, ValueError):
                pass
    return _largest(sizes())


def _backward_magnitude(root) -> float:
    """The largest term added into any gradient by the last backward pass."""
    def terms():
        for node in topo_order(root):
            if node._op is None or not node.requires_grad or node._op.vjp is not None:
                continue
            datas = [p.data for p in node._parents]
            B = backend_for(datas)  # once per node, as the engine does
            out, datas = backend_inputs(B, node.data, datas)
            for i, p in enumerate(node._parents):
                if not p.requires_grad:
                    continue
                try:
                    yield abs(float(node.grad * local_derivative(node._op, i, out, datas, B,
                                                                 converted=True)))
                except (TypeError, ValueError, OverflowError, ZeroDivisionError):
                    continue
    return _largest(terms())


def _true_derivative(program, point, name, strict=False):
    """(d/dname at point, magnitude) by the engine's backward pass; None where undefined.

    `strict` (the given point): a DomainError propagates, as in eval, and a
    non-finite derivative is returned as it is.
    """
    try:
        graph = lower(program, point, wrt={name})
    except DomainError:
        if strict:
            raise
        return None
    out = graph.output
    if getattr(out.data, "shape", ()) != ():
        raise ShapeError("symbolic answers are checked for a scalar expression; this one's "
                         f"value has shape {tuple(out.data.shape)}",
                         hint="wrap it in sum(...) or check numbers with --grad")
    if out.requires_grad:
        out.backward()
    t = graph.inputs[name].grad
    try:
        t = float(t)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(t) and not strict:
        return None
    return t, _backward_magnitude(out)


def _answer_value(answer: Program, point):
    """(value, magnitude) of the student's formula, or a DomainError where it is undefined."""
    g = lower(answer, point, wrt=set())
    shape = getattr(g.output.data, "shape", ())
    if shape != ():
        raise UsageError(f"the answer is a vector or matrix (shape {tuple(shape)}); the "
                         "derivative of a scalar expression by one variable is a number",
                         source=answer.source,
                         hint="give one formula per variable, each with its --wrt")
    return float(g.output.data), _magnitude(g.output)


def _ill_conditioned(program, answer_program, point, name, s, t, tol) -> bool:
    """True where a 1e-11 relative nudge of the point moves either side by more than tol.

    There rounding alone decides the digits (sin of 3**38, say), so the point proves nothing.
    """
    nudged = {k: v * (1 + 1e-11) for k, v in point.items()}
    truth = _true_derivative(program, nudged, name)
    try:
        s2, _ = _answer_value(answer_program, nudged)
    except DomainError:
        return True
    return truth is None or abs(truth[0] - t) > tol or not abs(s2 - s) <= tol


MODERATE = (0.1, 3.0)  # |value| of the random points: well scaled, where exp and powers neither
WIDE_AFTER = 60        # underflow nor overflow; after this many tries, wider (a narrow domain)


def _exact_value(answer_program, point):
    """The answer at `point` computed with exact rationals, or None where it cannot be."""
    try:
        g = lower(answer_program, point, wrt=set(), exact=True)
        return float(g.output.data)
    except (GradcliError, ArithmeticError, TypeError, ValueError):
        return None


def _slack_at(answer_program, point, literals) -> float:
    """How far the answer may move at `point` by rounding its typed decimals."""
    return rounding_slack(answer_program, lambda p: [_answer_value(p, point)[0]], literals)[0]


def _edge_candidates(program, answer_program, variables, at, seed) -> list:
    """Points on both sides of each kink or domain edge of the question and the answer."""
    import random
    rng = random.Random(seed ^ 0x5EED)
    bases = [dict(at)] if at is not None else []
    while len(bases) < 2:
        bases.append({v: rng.choice((-1, 1)) * 10 ** rng.uniform(-1, 0.4) for v in variables})
    return edge_points([program, answer_program], variables, bases)


def _candidates(variables, at, seed, edges=()):
    """Points to compare at: the given one, the points beside each kink or domain edge,
    then random ones of both signs and moderate size.

    |v| in [0.1, 3] (and, when a point is given, every third one near it); after
    WIDE_AFTER tries without enough comparable points, |v| in [0.1, 100].
    """
    import random
    if at is not None:
        yield dict(at), True
    for point in edges:
        yield point, None
    rng = random.Random(seed)
    lo, hi = math.log10(MODERATE[0]), math.log10(MODERATE[1])
    for i in range(MAX_TRIES):
        point = {}
        for v in variables:
            if at is not None and i % 3 == 2:
                base = at[v]
                x = base * (1 + rng.uniform(-0.5, 0.5)) + rng.uniform(-1, 1)
            elif i < WIDE_AFTER:
                x = rng.choice((-1, 1)) * 10 ** rng.uniform(lo, hi)
            else:
                x = rng.choice((-1, 1)) * 10 ** rng.uniform(-1, 2)
            point[v] = float(f"{x:.3g}") or 0.5
        yield point, False


@dataclass
class _Row:
    """One point compared: the answer (None where undefined) and the derivative there."""

    point: dict
    given: bool
    yours: float | None
    correct: float
    ok: bool
    why: str = ""          # why the answer is undefined there
    tol: float = 0.0       # the tolerance used at this point
    mag: float = 0.0       # the largest magnitude inside the answer's graph there


def _check_formula(text, program, variables, name, formula, answer_program, at, rtol,
                   atol, digits_rule=False) -> Answer:
    """Compare a formula with d/d`name` at the given point and at random points.

    A point where the answer and the derivative are both within the tolerance
    of 0 proves nothing and is left out (exp(2*x) and exp(x) agree to 1e-9
    at x = -20); if every point is such a point, both are 0 and the answer is right.
    """
    a = Answer("derivative", name, formula.strip())
    seed = zlib.crc32(f"{text}\0{name}".encode())
    rows = []         # informative points, and points where only the answer is undefined
    quiet = []        # points where both are within the tolerance of 0
    tol_rtol = max(rtol, FORMULA_RTOL_FLOOR)
    random_rows = quiet_random = 0
    nodes = sum(size(stmt.expr) for stmt in program.statements)
    samples = SAMPLES if nodes < LARGE else SAMPLES_LARGE
    literals = rounded_literals(answer_program) if digits_rule else []
    edges = _edge_candidates(program, answer_program, variables, at, seed) \
        if nodes < LARGE else []
    samples += len(edges)
    for point, given in _candidates(variables, at, seed, edges):
        if random_rows >= samples or quiet_random >= 3 * samples:
            break
        truth = _true_derivative(program, point, name, strict=given)
        if given:
            a.expected = truth[0]
            truth = truth if math.isfinite(truth[0]) else None
        try:
            s, s_mag = _answer_value(answer_program, point)
        except DomainError as exc:
            if given:
                a.computed = None
            if truth is None:
                continue
            rows.append(_Row(point, given, None, truth[0], False, exc.message))
            random_rows += not given
            continue
        if given:
            a.computed = s
        if truth is None:
            continue
        t, t_mag = truth
        # The scale comes from the question alone: a large number inside the answer
        # (2x + 1/1000, x^3 + 0*10^12) must not widen its own tolerance.
        tol = atol + tol_rtol * max(abs(t), t_mag)
        slack = _slack_at(answer_program, point, literals) if literals and math.isfinite(s) \
            else 0.0
        if slack:  # rounded decimals: their digits decide, not --rtol's default
            tol = atol + FORMULA_RTOL_FLOOR * max(abs(t), t_mag) + slack
        ok = math.isfinite(s) and abs(s - t) <= tol
        if not ok and math.isfinite(s) and abs(s - t) <= 64 * 2.0 ** -52 * s_mag:
            # The answer's own rounding could explain the gap ((x+1e10)*2 - 2e10 for 2x):
            # evaluate it exactly, where every operation allows, and judge that.
            exact = _exact_value(answer_program, point)
            if exact is not None:
                s = exact
                ok = abs(s - t) <= tol
        if not ok and not given and _ill_conditioned(program, answer_program, point, name,
                                                     s, t, tol):
            continue
        row = _Row(point, given, s, t, ok, "", tol, s_mag)
        if math.isfinite(s) and abs(s) <= tol and abs(t) <= tol:
            quiet.append(row)
            quiet_random += not given
            continue
        rows.append(row)
        random_rows += not given
    compared = [r for r in rows if r.yours is not None]
    undefined = [r for r in rows if r.yours is None]
    a.points = len(compared)
    # Points where only the answer is undefined are left out of the verdict (the
    # derivative there may be a limit, as d/dy 0**y = 0), but they are reported.
    caveat = _undefined_note(undefined, compared, variables)
    if not compared:
        if quiet and all(r.ok for r in quiet):
            a.ok, a.points = True, len(quiet)
            a.note = "; ".join(n for n in ("your answer and the derivative are 0 (within the "
                                           "tolerance) at every point compared", caveat) if n)
            return a
        a.ok = False
        a.correct = _correct_formula(text, name)
        if undefined:
            r = undefined[0]
            a.counterexample = {"at": dict(r.point), "yours": None, "correct": r.correct}
            a.reason = (f"your answer is undefined at every point where the derivative is "
                        f"defined: at {_point_text(r.point)} ({r.why}) the derivative is "
                        f"{_num(r.correct)}")
        else:
            a.reason = "no point was found where the derivative is defined"
        return a
    wrong = [r for r in compared if not r.ok]
    a.ok = not wrong
    if a.ok:
        a.note = caveat
        return a
    a.correct = _correct_formula(text, name)
    # The given point, else a random one: a point beside a kink reads as contrived.
    shown = next((r for r in wrong if r.given), None) \
        or next((r for r in wrong if r.given is False), wrong[0])
    a.counterexample = {"at": dict(shown.point), "yours": shown.yours, "correct": shown.correct}
    a.reason = (f"at {_point_text(shown.point)} your answer gives {_num(shown.yours)}, but the "
                f"derivative is {_num(shown.correct)}")
    key, detail, sentence = _diagnose(program, answer_program, name, variables, compared,
                                      tol_rtol, atol)
    a.mistake, a.mistake_detail = key, detail
    a.step = _step_of(program, name, variables, detail) if key else None
    where = ""
    if a.step is not None:
        where = (f"step {a.step['number']} of `gradcli diff \"{text}\" --steps` is where the "
                 f"work leaves the path ({a.step['rule']} rule"
                 f"{'s' if ' and ' in a.step['rule'] else ''} on {a.step['expression']})")
    a.note = "; ".join(n for n in (sentence, where, caveat) if n)
    return a


def _step_of(program, wrt, variables, detail) -> dict | None:
    """The step of the derivation (diff --steps) at the sub-expression a mistake concerns."""
    from .symbolic.steps import derive
    try:
        root, _ = inline(program)
        if size(root) > 400:
            return None  # the derivation of a large question is not worth a pointer
        derivation = derive(root, wrt, variables)
    except GradcliError:
        return None
    for step in derivation.steps:
        if to_text(step.expression) == detail:
            return {"number": step.number, "rule": " and ".join(step.rules),
                    "expression": to_text(step.expression)}
    return None


def _undefined_note(undefined, compared, variables) -> str:
    """Where the answer is undefined but the derivative is not."""
    if not undefined:
        return ""
    for v in variables:
        for sign, word in ((1, ">"), (-1, "<")):
            if all(sign * r.point[v] > 0 for r in undefined) \
                    and all(sign * r.point[v] <= 0 for r in compared):
                return (f"your answer is undefined where {v} {word} 0, where the derivative "
                        f"is defined (compared where both are defined)")
    r = undefined[0]
    return (f"your answer is undefined at {_point_text(r.point)} ({r.why}), where the "
            f"derivative is {_num(r.correct)} (compared where both are defined)")


def _diagnose(program, answer_program, name, variables, rows, rtol, atol):
    """Name the mistake in a wrong formula: (key, detail, sentence), or (None, None, "").

    In this order: a mistake of one rule, found by rebuilding the derivative
    with that mistake from the question's tree (mistakes.py) and comparing
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
    truth = _true_derivative(program, moved, name)
    if truth is None:
        return False
    try:
        s, s_mag = _answer_value(answer_program, moved)
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
            return ("constant-offset", _num(offset), f"the derivative is the constant "
                    f"{_num(truths[0])}", lambda t: t + offset)
        return (None, None, f"the derivative is the constant {_num(truths[0])}", None)
    ratios = [r.yours / r.correct for r in rows] if all(r.correct != 0 for r in rows) else None
    factor = ratios and ratios[0]
    same_ratio = ratios is not None and all(abs(q - factor) <= 1e-7 * abs(factor)
                                            for q in ratios)
    if same_ratio and abs(factor + 1) <= 1e-9:
        return ("sign", whole, "the sign is wrong: your answer is minus the derivative",
                lambda t: -t)
    if all(abs(d - offset) <= atol + rtol * spread for d in diffs):
        return ("constant-offset", _num(offset), f"off by a constant: your answer minus the "
                f"derivative is {_num(offset)} at every point", lambda t: t + offset)
    if same_ratio:
        return ("constant-factor", _num(factor), f"off by a factor: your answer is "
                f"{_num(factor)} times the derivative", lambda t: factor * t)
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
        if not wanted(cand.key):
            continue
        mistaken = Program((Statement(None, cand.expr),))
        for r in rows:
            try:
                g = lower(mistaken, r.point, wrt=set())
                c = float(g.output.data)
            except (GradcliError, TypeError, ValueError, ArithmeticError):
                break
            if not math.isfinite(c):
                break
            scale = max(abs(r.yours), abs(c), r.mag, _magnitude(g.output))
            tol = atol + rtol * scale
            # Where the answer is wrong, the candidate must tell it from the derivative:
            # a match within a tolerance as wide as the error itself explains nothing.
            if abs(r.yours - c) > tol or (not r.ok and 4 * tol > abs(r.yours - r.correct)):
                break
        else:
            return cand.key, cand.detail, cand.sentence()
    return None


def _correct_formula(text, name) -> str | None:
    try:
        return differentiate_text(text, name)
    except GradcliError:
        return None


def _num(x) -> str:
    if isinstance(x, float) and math.isfinite(x):
        return format_number(float(f"{x:.12g}"))
    return _number(x)


def _point_text(point) -> str:
    return ", ".join(f"{k} = {format_number(v)}" for k, v in point.items())


# ------------------------------------------------------------ check --points

@dataclass
class PointAnswer:
    """One answer checked at every row of a points file: where it comes from and its tally."""

    kind: str                  # "value", "gradient" or "derivative"
    name: str                  # the result name for a value, else the variable
    answer: str                # the constant or formula as given, or "column NAME"
    column: str | None = None  # the file's column holding it, if any
    constant: object = None    # the number, for a constant numeric answer
    program: Program | None = None  # the formula, for a derivative
    right: int = 0
    wrong: int = 0
    skipped: int = 0  # rows left out: the formula or the true derivative is undefined there
    wrong_rows: list = field(default_factory=list)  # the first MAX_ROWS_SHOWN
    skipped_rows: list = field(default_factory=list)
    first_wrong: tuple | None = None  # (row, given, expected)
    correct: str | None = None        # the correct formula, for a wrong derivative

    @property
    def ok(self) -> bool:
        # As check() says of a formula undefined wherever the derivative is defined: wrong.
        return self.wrong == 0 and not (self.right == 0 and self.skipped)


@dataclass
class CheckedChunk:
    """The answers at the rows of one chunk: given, expected and right per row."""

    chunk: object
    result: object
    given: list       # per answer: an array of the answers (a formula's values)
    expected: list    # per answer: an array of the correct numbers
    ok: list          # per answer: a bool array
    checked: object   # bool array: rows that could be read and where the expression is defined
    compared: list    # per answer: a bool array, checked rows where both sides are defined


MAX_ROWS_SHOWN = 10


def answer_columns(names, variables, result_name: str = "f") -> dict:
    """{(kind, name): column} for the answer columns among `names` (see the module doc)."""
    found = {}
    for column in names:
        if column in variables:
            continue  # an input, never an answer
        key = None
        if column in ("value", result_name):
            key = ("value", result_name)
        elif column.startswith("grad_") or column.startswith(f"d{result_name}/d"):
            name = column[5:] if column.startswith("grad_") else column[len(result_name) + 3:]
            if name not in variables:
                listed = ", ".join(variables) or "none"
                raise UsageError(f"--points: column '{column}' would be the answer for the "
                                 f"partial by '{name}', but the expression has no variable "
                                 f"'{name}'", hint=f"its variables are: {listed}")
            key = ("gradient", name)
        if key is None:
            continue
        if key in found:
            raise UsageError(f"--points: columns '{found[key]}' and '{column}' both answer "
                             f"{'the value' if key[0] == 'value' else 'd/d' + key[1]}",
                             hint="keep one of them")
        found[key] = column
    return found


def _defined_number(answer, what: str):
    """number_answer for a constant checked at every row: an undefined one is bad input."""
    got = number_or_why(answer, what)
    if isinstance(got, _Undefined):
        raise UsageError(f"the answer {what} is undefined: {got.why}",
                         hint="a numeric answer is a number such as 28, 1/3 or pi/4")
    return got


class PointsCheck:
    """Answers checked at every row of a points file; iterate for CheckedChunk."""

    def __init__(self, text, source, at=None, value=None, grad=None, derivatives=None,
                 rtol: float = RTOL, atol: float = ATOL, chunk_rows=None):
        from .arrays import CHUNK_ROWS, BatchRun
        if rtol < 0 or atol < 0:
            raise UsageError("--rtol and --atol must be zero or positive")
        self.text, self.rtol, self.atol = text, rtol, atol
        program = parse(text, given_names(at, grad, [v for v, _ in _pairs(derivatives)]))
        variables = inputs_of(program)
        f = program.statements[-1].name or "f"
        self.result_name = f
        pairs = _pairs(derivatives)
        grad = dict(grad or {})
        for name in grad:
            if name in program.defined:
                raise UsageError(f"--grad {name}: with --points only the partials by the "
                                 f"inputs are checked, and '{name}' is defined by the program",
                                 hint="check it at one point with --at")
            _known_variable(name, "--grad", variables, ())
        _check_pairs(pairs, variables)
        answers = []
        if value is not None:
            answers.append(PointAnswer("value", f, _shown(value),
                                       constant=_defined_number(value, "--value")))
        for name, given in grad.items():
            answers.append(PointAnswer("gradient", name, _shown(given),
                                       constant=_defined_number(given, f"--grad {name}")))
        for name, formula in pairs:
            answers.append(PointAnswer("derivative", name, formula.strip(),
                                       program=parse_answer(formula, program, variables,
                                                            f"∂{f}/∂{name}")))
        self.job = BatchRun(program, source, at, None, chunk_rows or CHUNK_ROWS)
        columns = answer_columns(self.job.names, variables, f)
        for a in answers:
            if a.kind != "derivative" and (a.kind, a.name) in columns:
                option = "--value" if a.kind == "value" else f"--grad {a.name}"
                raise UsageError(f"{option} is given both on the command line and as column "
                                 f"'{columns[(a.kind, a.name)]}' of {self.job.reader.label}",
                                 hint="keep one of them")
        for (kind, name), column in columns.items():
            answers.append(PointAnswer(kind, name, f"column {column}", column=column))
        if not answers:
            raise UsageError("nothing to check: give --value, --grad or --derivative, or "
                             f"answer columns in {self.job.reader.label}",
                             hint="answer columns are named value and grad_NAME (or f and "
                                  "df/dNAME, as eval --points writes them)")
        order = {"value": 0, "gradient": 1, "derivative": 2}
        answers.sort(key=lambda a: (order[a.kind], variables.index(a.name)
                                    if a.kind != "value" else 0))
        self.answers = answers
        self.program = program
        self.columns_used = self.job.columns_used
        self.job.reader.needed = self.columns_used + [a.column for a in answers if a.column]
        self.job.unused = [c for c in self.job.unused if c not in columns.values()]
        self.reader, self.unused = self.job.reader, self.job.unused
        self.warnings = list(program.warnings)

    rows = property(lambda self: self.job.rows)
    bad_rows = property(lambda self: self.job.bad_rows)
    undefined_rows = property(lambda self: self.job.undefined_rows)

    @property
    def ok(self) -> bool:
        # A file of no rows checks nothing, which is no pass.
        return self.rows > 0 and all(a.ok for a in self.answers)

    @property
    def exit_code(self) -> int:
        if self.bad_rows or not self.rows:
            return 2
        return 1 if not self.ok else (3 if self.undefined_rows else 0)

    def __iter__(self):
        import numpy as np

        from .arrays import evaluate_arrays
        for chunk, result in self.job:
            checked = ~(chunk.invalid | result.undefined)
            index = np.flatnonzero(checked)
            given, expected, oks, compared = [], [], [], []
            for a in self.answers:
                if a.kind == "value":
                    truth = result.value
                else:
                    truth = result.gradient[a.name]
                rtol = self.rtol
                both = checked
                if a.column is not None:
                    mine = chunk.columns[a.column]
                elif a.program is None:
                    mine = np.full(chunk.n, float(a.constant))
                else:
                    mine = np.full(chunk.n, np.nan)
                    if index.size:
                        sub = evaluate_arrays(a.program, {k: v[index] for k, v in
                                                          chunk.columns.items()},
                                              self.job.bindings, n=index.size,
                                              row_numbers=chunk.first_row + index,
                                              gradient=False)
                        mine[index] = sub.value
                        # As check() does: compare where both the formula and the derivative
                        # are defined; report the rest.
                        answer_defined = np.zeros(chunk.n, dtype=bool)
                        answer_defined[index[~sub.undefined]] = True
                        both = checked & answer_defined & np.isfinite(truth)
                    else:
                        both = checked & False
                    rtol = max(rtol, FORMULA_RTOL_FLOOR)
                    skipped = chunk.first_row + np.flatnonzero(checked & ~both)
                    a.skipped += skipped.size
                    room = MAX_ROWS_SHOWN - len(a.skipped_rows)
                    a.skipped_rows.extend(int(r) for r in skipped[:max(room, 0)])
                ok = close_each(mine, truth, rtol, self.atol) & both
                wrong = both & ~ok
                a.right += int(ok.sum())
                a.wrong += int(wrong.sum())
                rows = chunk.first_row + np.flatnonzero(wrong)
                if rows.size and a.first_wrong is None:
                    i = int(rows[0]) - chunk.first_row
                    a.first_wrong = (int(rows[0]), float(mine[i]), float(truth[i]))
                room = MAX_ROWS_SHOWN - len(a.wrong_rows)
                a.wrong_rows.extend(int(r) for r in rows[:max(room, 0)])
                given.append(mine)
                expected.append(truth)
                oks.append(ok)
                compared.append(both)
            if any(not a.ok and a.kind == "derivative" and a.correct is None
                   for a in self.answers):
                for a in self.answers:
                    if not a.ok and a.kind == "derivative" and a.correct is None:
                        a.correct = _correct_formula(self.text, a.name)
            yield CheckedChunk(chunk, result, given, expected, oks, checked, compared)


def check_points(text, source, at=None, value=None, grad=None, derivatives=None,
                 rtol: float = RTOL, atol: float = ATOL, chunk_rows=None) -> PointsCheck:
    """Check answers at every row of a points file (see the module doc); iterate the result.

    >>> import io
    >>> run = check_points("x**2", io.BytesIO(b"x,grad_x\\n3,6\\n1,3\\n"))
    >>> [c.ok[0].tolist() for c in run], run.exit_code
    ([[True, False]], 1)
    """
    return PointsCheck(text, source, at, value, grad, derivatives, rtol, atol, chunk_rows)


__all__ = ["Answer", "Verdict", "check", "close", "close_each", "parse_answer",
           "grade_numeric", "grade_number", "number_answer", "number_or_why",
           "PointAnswer", "PointsCheck", "CheckedChunk", "check_points", "answer_columns",
           "RTOL", "ATOL"]
