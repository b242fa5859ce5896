"""Grading a derivative formula: by proof where algebra can, by points otherwise.

formulaproof.py decides first: SymPy proves the answer equal to the true
derivative on every piece of the line between the kinks of the question and
the answer, or finds a point where the two differ at 60 digits. The points
compared here in doubles are the given point, the points algebra chose (both
sides of each kink, however far out) and points of moderate size that depend
on the variables alone (sampling.py). A gap in doubles is a mistake only when
it exceeds the question's own rounding there (relative to the true value, with
the largest term of its evaluation as the floor) and, where algebra can look,
holds at 60 digits. A point where both are within that tolerance of 0 proves
nothing and is not counted. A formula with rounded decimals is decided by proof
where it is linear in them, each decimal matched to the exact number it stands
for (literalproof.py); else each may move by half a unit in its last place
(probes.py). A wrong answer gets a point where the two differ
and, where it can be named, its mistake (diagnose.py) and the step of
`diff --steps` it breaks. Every answer says what decided it (`decided_by`).
Nothing here prints.
"""
from __future__ import annotations

import math
import zlib

from ...errors import DomainError, GradcliError, UnknownName, UsageError
from ...inputs import inputs_of
from ...language.expr import Program, first_span, size
from ...language.printer import to_text
from ...reading import given_names, read_program
from ...symbolic.derivative import differentiate_text, inline
from .diagnose import diagnose
from .formulaproof import Decision, decide_derivative
from .literalproof import decide_rounded, too_few_digits
from .probes import rounded_literals, rounding_slack
from .sampling import LARGE, SAMPLES, SAMPLES_LARGE, Row, answer_value, edge_candidates, \
    exact_value, ill_conditioned, sample_points, true_derivative
from .verdict import (FORMULA_RTOL_FLOOR, Answer, num, point_text, shown as rounded6,
                      told_apart)


def parse_answer(formula: str, program: Program, variables, what: str) -> Program:
    """The student's formula as a program that may use the question's variables and names."""
    try:
        answer = read_program(formula, given_names(variables, program.defined))
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


def _slack_at(answer_program, point, literals) -> float:
    """How far the answer may move at `point` by rounding its typed decimals."""
    return rounding_slack(answer_program, lambda p: [answer_value(p, point)[0]], literals)[0]


# Beside the true value and the largest term of the question's evaluation, the rounding of
# doubles a right formula may show: a few hundred units in the last place.
QUESTION_ROUNDING = 256 * 2.0 ** -52
NUDGE_GAP = 1e5


def check_formula(text, program, variables, name, formula, answer_program, at, rtol,
                   atol, digits_rule=False) -> Answer:
    """Compare a formula with d/d`name`: algebra first (formulaproof.py), then at the given
    point, both sides of every kink and points of moderate size.

    A point where the answer and the derivative are both within the tolerance
    of 0 proves nothing and is left out (exp(2*x) and exp(x) agree to 1e-9
    at x = -20); if every point is such a point, both are 0 and the answer is right.
    """
    a = Answer("derivative", name, formula.strip())
    # The points depend on the variables, never on how the question or the answer is spelled.
    seed = zlib.crc32("\0".join((name, *variables)).encode())
    rows = []         # informative points, and points where only the answer is undefined
    quiet = []        # points where both are within the tolerance of 0
    # --rtol's default is for numbers typed by hand; an exact formula is compared as tightly
    # as rounding allows (2000x + 1/1000 for d/dx 1000x^2 is 5e-7 off, and wrong).
    tol_rtol = FORMULA_RTOL_FLOOR if digits_rule else max(rtol, FORMULA_RTOL_FLOOR)
    random_rows = quiet_random = 0
    nodes = sum(size(stmt.expr) for stmt in program.statements)
    samples = SAMPLES if nodes < LARGE else SAMPLES_LARGE
    literals = rounded_literals(answer_program) if digits_rule else []
    settled = decide_rounded(program, answer_program, name, variables, at) \
        if literals and nodes < LARGE else None
    if settled is not None and settled.decided_by == "proof":
        return _proven(a, settled, text, program, name, answer_program, at)
    algebra = decide_derivative(program, answer_program, name, variables, at,
                                judging=not literals) if nodes < LARGE else Decision()
    # Without a SymPy form, the kinks are looked for by a scan of the line (probes.py).
    edges = algebra.points or (edge_candidates(program, answer_program, variables, at, seed)
                               if nodes < LARGE else [])
    # Proven or refuted: the given point and algebra's points are compared in doubles too
    # (the value there, where the answer is undefined), but no random ones.
    samples = len(edges) if algebra.decided_by else samples + len(edges)
    for point, given in sample_points(variables, at, seed, edges):
        if random_rows >= samples or quiet_random >= 3 * samples:
            break
        truth = true_derivative(program, point, name, strict=given)
        if given:
            a.expected = truth[0]
            truth = truth if math.isfinite(truth[0]) else None
        try:
            s, s_mag = answer_value(answer_program, point)
        except DomainError as exc:
            if given:
                a.computed = None
            if truth is None:
                continue
            rows.append(Row(point, given, None, truth[0], False, exc.message))
            random_rows += not given
            continue
        if given:
            a.computed = s
        if truth is None:
            continue
        t, t_mag = truth
        # The scale comes from the question alone: a large number inside the answer
        # (2x + 1/1000, x^3 + 0*10^12) must not widen its own tolerance.
        tol = QUESTION_ROUNDING * max(abs(t), t_mag) if digits_rule \
            else atol + tol_rtol * max(abs(t), t_mag)
        slack = _slack_at(answer_program, point, literals) if literals and math.isfinite(s) \
            else 0.0
        if slack:  # rounded decimals: their digits decide, not --rtol's default (nor its
            # atol and floor, which at 8 digits are as wide as the digits' own half unit)
            tol = QUESTION_ROUNDING * max(abs(t), t_mag) + slack
        ok = math.isfinite(s) and abs(s - t) <= tol
        if not ok and math.isfinite(s) and abs(s - t) <= 64 * 2.0 ** -52 * s_mag:
            # The answer's own rounding could explain the gap ((x+1e10)*2 - 2e10 for 2x):
            # evaluate it exactly, where every operation allows, and judge that.
            exact = exact_value(answer_program, point)
            if exact is not None:
                s = exact
                ok = abs(s - t) <= tol
        # Ill-conditioned: a 1e-11 nudge of the point moves a side by more than the gap
        # (with the question's own tolerance, by NUDGE_GAP times it: then the doubles'
        # rounding of the point alone, 1e-16, could make the gap).
        if not ok and not given and ill_conditioned(
                program, answer_program, point, name, s, t,
                max(tol, NUDGE_GAP * abs(s - t)) if digits_rule and not slack else tol):
            continue
        row = Row(point, given, s, t, ok, "", tol, s_mag)
        if math.isfinite(s) and abs(s) <= tol and abs(t) <= tol:
            quiet.append(row)
            quiet_random += not given
            continue
        rows.append(row)
        random_rows += not given
    a = _verdict(a, rows, quiet, algebra, literals, text, program, answer_program, name,
                 variables, tol_rtol, atol)
    if settled is not None:
        a = _refuted(a, settled, text, name)
    if digits_rule and not a.ok and nodes < LARGE:
        short = too_few_digits(program, answer_program, name, variables, at)
        a.note = "; ".join(n for n in (short, a.note) if n)
    return a


def _proven(a, settled, text, program, name, answer_program, at) -> Answer:
    """The identity proven with the exact numbers the decimals stand for (literalproof.py):
    right when each is correctly rounded, else wrong with the decimal named; at a given
    point, both values there as the other verdicts show them."""
    a.ok, a.decided_by, a.evidence, a.points = settled.ok, "proof", settled.how, settled.compared
    if at:
        try:
            a.expected = true_derivative(program, dict(at), name, strict=True)[0]
            a.computed = answer_value(answer_program, dict(at))[0]
        except DomainError as exc:
            if a.expected is not None and math.isfinite(a.expected):
                a.note = (f"your answer is undefined at {point_text(at)} ({exc.message}), "
                          f"where the derivative is {rounded6(a.expected)} (compared where both "
                          "are defined)")
        except GradcliError:  # no value there: none is shown, the proof stands
            pass
    if not a.ok:
        a.correct = correct_formula(text, name)
        a.reason = "; ".join(settled.wrong)
    return a


def _refuted(a, settled, text, name) -> Answer:
    """No rounding of the decimals makes the formula right: wrong, whatever sampling saw
    within the decimals' slack; its point and named mistake are kept where it has them."""
    if a.ok or a.counterexample is None:
        cx = settled.counterexample
        a.ok, a.counterexample, a.note = False, cx, ""
        a.correct = a.correct or correct_formula(text, name)
        yours, correct = told_apart(cx["yours"], cx["correct"])
        a.reason = (f"at {point_text(cx['at'])} your answer gives {yours}, but the "
                    f"derivative is {correct}")
    a.decided_by, a.evidence = "counterexample", settled.how
    return a


def _verdict(a, rows, quiet, algebra, literals, text, program, answer_program, name,
             variables, tol_rtol, atol) -> Answer:
    """The answer's verdict from the points compared and what algebra said."""
    compared = [r for r in rows if r.yours is not None]
    undefined = [r for r in rows if r.yours is None]
    if algebra.judge is not None:
        for r in compared:
            # A gap in doubles that vanishes at 60 digits is rounding, not a mistake.
            if not r.ok and algebra.judge(r.point)[0] == "same":
                r.ok = True
    a.points = max(len(compared), algebra.compared)
    # Points where only the answer is undefined are left out of the verdict (the
    # derivative there may be a limit, as d/dy 0**y = 0), but they are reported.
    caveat = _undefined_note(undefined, compared, variables)
    wrong = [r for r in compared if not r.ok]
    confirmed = algebra.judge is not None and bool(wrong)
    if algebra.decided_by == "proof" and not confirmed:
        a.ok, a.decided_by, a.evidence, a.note = True, "proof", algebra.how, caveat
        return a
    if algebra.decided_by == "counterexample" or confirmed:
        a.decided_by = "counterexample"
        if algebra.counterexample is not None and not any(r.given for r in wrong):
            # algebra's point first: the plainest number where the two differ
            row = _row_at(program, answer_program, name, algebra.counterexample)
            wrong.insert(0, row)
            compared.append(row)
    else:
        a.decided_by = "sampling"
    if not compared:
        if quiet and all(r.ok for r in quiet):
            a.ok, a.points = True, len(quiet)
            a.evidence = _sampled(len(quiet))
            a.note = "; ".join(n for n in ("your answer and the derivative are 0 (within the "
                                           "tolerance) at every point compared", caveat) if n)
            return a
        a.ok = False
        a.correct = correct_formula(text, name)
        if undefined:
            r = undefined[0]
            a.counterexample = {"at": dict(r.point), "yours": None, "correct": r.correct}
            a.reason = (f"your answer is undefined at every point where the derivative is "
                        f"defined: at {point_text(r.point)} ({r.why}) the derivative is "
                        f"{rounded6(r.correct)}")
        else:
            a.reason = "no point was found where the derivative is defined"
        return a
    a.ok = not wrong
    if a.ok:
        a.note, a.evidence = caveat, _sampled(len(compared), literals)
        return a
    a.correct = correct_formula(text, name)
    # The given point, else a random one: a point beside a kink reads as contrived.
    shown = next((r for r in wrong if r.given), None) or wrong[0] \
        if a.decided_by == "counterexample" else \
        next((r for r in wrong if r.given), None) \
        or next((r for r in wrong if r.given is False), wrong[0])
    a.counterexample = {"at": dict(shown.point), "yours": shown.yours, "correct": shown.correct}
    yours, correct = told_apart(shown.yours, shown.correct)
    a.reason = (f"at {point_text(shown.point)} your answer gives {yours}, but the "
                f"derivative is {correct}")
    if yours == correct:
        a.reason += " (the two differ beyond the digits shown)"
    key, detail, sentence = diagnose(program, answer_program, name, variables,
                                      _telling(compared, tol_rtol, atol), tol_rtol, atol)
    a.mistake, a.mistake_detail = key, detail
    a.step = _step_of(program, name, variables, detail) if key else None
    where = ""
    if a.step is not None:
        where = (f"step {a.step['number']} of `gradcli diff \"{text}\" --steps` is where the "
                 f"work leaves the path ({a.step['rule']} rule"
                 f"{'s' if ' and ' in a.step['rule'] else ''} on {a.step['expression']})")
    a.evidence = algebra.how if algebra.decided_by == "counterexample" else \
        "decided by a counterexample (confirmed to 60 digits)" if confirmed else \
        "decided by sampling (a point where the two differ in doubles)"
    a.note = "; ".join(n for n in (sentence, where, caveat) if n)
    return a


def _telling(rows, rtol, atol) -> list:
    """The rows a mistake can be named from: not those where the gap is within the naming
    tolerance (a point far out, x = 1000, where the answer's terms are 1e6)."""
    def telling(r):
        return r.ok or abs(r.yours - r.correct) >= 4 * (atol + rtol * max(
            abs(r.yours), abs(r.correct), r.mag))
    kept = [r for r in rows if telling(r)]
    return kept if len(kept) >= 3 else rows


def _sampled(n, literals=()) -> str:
    if literals:
        return (f"decided by sampling: within the rounding of the typed decimals at {n} "
                f"points")
    return f"decided by sampling: equal at {n} points (no proof was found)"


def _row_at(program, answer_program, name, cx) -> Row:
    """The row of algebra's counterexample: its values computed to 60 digits, rounded."""
    try:
        s_mag = answer_value(answer_program, cx["at"])[1]
    except GradcliError:
        s_mag = 0.0
    return Row(cx["at"], False, cx["yours"], cx["correct"], False, "", 0.0, s_mag)


def _step_of(program, wrt, variables, detail) -> dict | None:
    """The step of the derivation (diff --steps) at the sub-expression a mistake concerns."""
    from ...symbolic.steps import derive
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
    return (f"your answer is undefined at {point_text(r.point)} ({r.why}), where the "
            f"derivative is {rounded6(r.correct)} (compared where both are defined)")


def correct_formula(text, name) -> str | None:
    try:
        return differentiate_text(text, name)
    except GradcliError:
        return None
