"""Grading a derivative formula: compared with the true derivative at many points.

A symbolic derivative is compared numerically: at the given point and at
random points of moderate size (sampling.py) where both the answer and the
true derivative are defined; a point where both are within the tolerance of 0
proves nothing and is not counted. Rounded decimals typed in the formula widen
the tolerance by what their rounding can move (probes.py). A wrong answer gets
a point where the two differ and, where it can be named, its mistake
(diagnose.py) and the step of `diff --steps` it breaks. Nothing here prints.
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
from .probes import rounded_literals, rounding_slack
from .sampling import LARGE, SAMPLES, SAMPLES_LARGE, Row, answer_value, edge_candidates, \
    exact_value, ill_conditioned, sample_points, true_derivative
from .verdict import FORMULA_RTOL_FLOOR, Answer, num, point_text


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


def check_formula(text, program, variables, name, formula, answer_program, at, rtol,
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
    # --rtol's default is for numbers typed by hand; an exact formula is compared as tightly
    # as rounding allows (2000x + 1/1000 for d/dx 1000x^2 is 5e-7 off, and wrong).
    tol_rtol = FORMULA_RTOL_FLOOR if digits_rule else max(rtol, FORMULA_RTOL_FLOOR)
    random_rows = quiet_random = 0
    nodes = sum(size(stmt.expr) for stmt in program.statements)
    samples = SAMPLES if nodes < LARGE else SAMPLES_LARGE
    literals = rounded_literals(answer_program) if digits_rule else []
    edges = edge_candidates(program, answer_program, variables, at, seed) \
        if nodes < LARGE else []
    samples += len(edges)
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
        tol = atol + tol_rtol * max(abs(t), t_mag)
        slack = _slack_at(answer_program, point, literals) if literals and math.isfinite(s) \
            else 0.0
        if slack:  # rounded decimals: their digits decide, not --rtol's default
            tol = atol + FORMULA_RTOL_FLOOR * max(abs(t), t_mag) + slack
        ok = math.isfinite(s) and abs(s - t) <= tol
        if not ok and math.isfinite(s) and abs(s - t) <= 64 * 2.0 ** -52 * s_mag:
            # The answer's own rounding could explain the gap ((x+1e10)*2 - 2e10 for 2x):
            # evaluate it exactly, where every operation allows, and judge that.
            exact = exact_value(answer_program, point)
            if exact is not None:
                s = exact
                ok = abs(s - t) <= tol
        if not ok and not given and ill_conditioned(program, answer_program, point, name,
                                                     s, t, tol):
            continue
        row = Row(point, given, s, t, ok, "", tol, s_mag)
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
        a.correct = correct_formula(text, name)
        if undefined:
            r = undefined[0]
            a.counterexample = {"at": dict(r.point), "yours": None, "correct": r.correct}
            a.reason = (f"your answer is undefined at every point where the derivative is "
                        f"defined: at {point_text(r.point)} ({r.why}) the derivative is "
                        f"{num(r.correct)}")
        else:
            a.reason = "no point was found where the derivative is defined"
        return a
    wrong = [r for r in compared if not r.ok]
    a.ok = not wrong
    if a.ok:
        a.note = caveat
        return a
    a.correct = correct_formula(text, name)
    # The given point, else a random one: a point beside a kink reads as contrived.
    shown = next((r for r in wrong if r.given), None) \
        or next((r for r in wrong if r.given is False), wrong[0])
    a.counterexample = {"at": dict(shown.point), "yours": shown.yours, "correct": shown.correct}
    a.reason = (f"at {point_text(shown.point)} your answer gives {num(shown.yours)}, but the "
                f"derivative is {num(shown.correct)}")
    key, detail, sentence = diagnose(program, answer_program, name, variables, compared,
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
            f"derivative is {num(r.correct)} (compared where both are defined)")


def correct_formula(text, name) -> str | None:
    try:
        return differentiate_text(text, name)
    except GradcliError:
        return None
