"""Grading Newton's method: the iterates x1, x2, ... from x0 (`check --newton`), and the
reading of typed numbers that roots.py (`check --roots`) shares.

Each iterate is graded against the newton task's own iterate (40 significant
digits). The digits rule reads every iterate of one answer at the precision of
the others (SPEC §3.11): with D the most decimal places typed in the answer, an
iterate is right when it equals the true iterate rounded to D places (an exact
tie either way), so a book's `2` after `2.0000012` is read as 2.0000000. A value
with fewer than 3 significant digits at D places, or typed as an expression
(`4/3`), is compared with the tolerance instead. Wrong iterates get their
mistake named: `sign-slip` (x_{n+1} = x_n + f/f' reproduces the whole answer),
`cut-off` (the iterate truncated, not rounded), `wrong-start` (the numbers
follow Newton's rule from one another, but not from x0), `carried` (right from
the previous wrong iterate), `no-iterate` (the iteration stops before it: f' = 0,
or f undefined), else `iterate`. An answer that lists x0 first is read as x0,
x1, ... and says so.
"""
from __future__ import annotations

import math
import re
from decimal import ROUND_DOWN, ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal, localcontext

from ...errors import UsageError
from ...inputs import constant_value, split_top_level
from ..newton import MAX_STEPS, decimal_text, newton
from .shared import Graded, scalar_point
from .verdict import DIGITS_MIN, Answer, num

_PLAIN = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)")
_LABEL = re.compile(r"^\s*[^\W\d]\w*\s*(?:=|≈|~)\s*")
_AND = re.compile(r"\s+(?:and|or)\s+|\s*;\s*")
PRECISE_DIGITS = 40
MAX_PLACES = 30       # well inside the 40 digits every iterate and root is known to
SHOWN_SHORT = 6       # places of the iterate shown beside a too-short answer


class _Item:
    """One number of an answer: as typed, its value, and its exact decimal when plain."""

    def __init__(self, text: str, what: str):
        self.text = text
        if _PLAIN.fullmatch(text):
            self.decimal = Decimal(text)
            self.places = max(0, -self.decimal.as_tuple().exponent)
            self.value = float(self.decimal)
            return
        self.decimal, self.places = None, 0
        try:
            value = constant_value(text, f"{what} '{text}'")
        except UsageError as exc:
            exc.hint = exc.hint or "give numbers separated by commas: 1.3333333, 1.2638889"
            raise
        if isinstance(value, bool) or not isinstance(value, (int, float)) and \
                type(value).__name__ != "Fraction":
            raise UsageError(f"{what}: '{text}' is not a number")
        self.value = float(value)
        if not math.isfinite(self.value):
            raise UsageError(f"{what}: '{text}' is not a finite number")


def read_items(answer: str, option: str, signs: bool) -> list:
    """'x1 = 1.5, x2 = 1.4167' or '±1.414 and 0' -> the numbers as _Items."""
    text = answer.strip()
    if not text:
        raise UsageError(f"--{option} is empty",
                         hint=f'for example: --{option} "1.3333333, 1.2638889"')
    if text.lower() in ("none", "no roots", "no root", "-") and signs:
        return []
    out = []
    for part in _AND.split(text):
        for piece in split_top_level(part, ",") if part.strip() else []:
            piece = _LABEL.sub("", piece.strip()).strip()
            if not piece:
                continue
            if signs and piece[:1] == "±":
                rest = piece[1:].strip()
                out += [_Item("-" + rest, f"--{option}"), _Item(rest, f"--{option}")]
            else:
                out.append(_Item(piece.replace("−", "-"), f"--{option}"))
    deep = [it for it in out if it.places > MAX_PLACES]
    if deep:
        raise UsageError(f"--{option}: {deep[0].text} has {deep[0].places} decimal places; "
                         f"at most {MAX_PLACES} are graded",
                         hint="give the numbers as the book prints them, rounded")
    if not out:
        raise UsageError(f"--{option} has no number",
                         hint=f'for example: --{option} "1.3333333, 1.2638889"')
    return out


def _exact(x) -> Decimal:
    import mpmath as mp
    return Decimal(mp.nstr(x, PRECISE_DIGITS, strip_zeros=False, min_fixed=-math.inf,
                           max_fixed=math.inf))


def significant(d: Decimal) -> int:
    return len(str(abs(d)).replace(".", "").lstrip("0"))


def reads_as(item: _Item, true, places: int, context, loose: bool = False) -> bool:
    """The digits rule at `places` decimals, else the tolerance (see the module doc).
    `loose`: the rounding decides whatever the number of digits (to name a mistake: the
    verdict itself is never loose)."""
    with localcontext() as ctx:  # room for every digit of a large iterate
        ctx.prec = 400
        return _reads_as_exactly(item, true, places, context, loose)


def _reads_as_exactly(item: _Item, true, places: int, context, loose: bool) -> bool:
    exact = _exact(true)
    if item.decimal is not None and (context.digits_rule or loose):
        q = Decimal(1).scaleb(-places)
        typed = item.decimal.quantize(q)
        if loose or significant(typed) >= DIGITS_MIN:
            return typed in (exact.quantize(q, rounding=ROUND_HALF_UP),
                             exact.quantize(q, rounding=ROUND_HALF_DOWN))
    t = float(exact)
    return abs(item.value - t) <= context.atol + context.rtol * abs(t)


def cut_off(item: _Item, true) -> bool:
    if item.decimal is None:
        return False
    q = Decimal(1).scaleb(-item.places)
    exact = _exact(true)
    with localcontext() as ctx:
        ctx.prec = 400
        return item.decimal == exact.quantize(q, rounding=ROUND_DOWN) \
            != exact.quantize(q, rounding=ROUND_HALF_UP)


def places_of(items) -> int:
    return max([i.places for i in items] + [0])


def places_text(k: int) -> str:
    return f"{k} decimal place{'s' if k != 1 else ''}"


# ---------------------------------------------------------------- --newton

OPTION = "newton"


def prepare(question, given, context):
    """(the typed iterates, the variable, x0), read before grading."""
    items = read_items(given["newton"], "newton", signs=False)
    if len(items) > MAX_STEPS:
        raise UsageError(f"--newton lists {len(items)} iterates; at most {MAX_STEPS}")
    if len(question.variables) != 1:
        raise UsageError("--newton grades Newton's method for f(x) = 0 in one variable; "
                         f"this expression has {len(question.variables)}",
                         hint="give the other inputs fixed values in the expression")
    point = scalar_point(question.at, question.variables, "--newton")
    return items, question.variables[0], point[question.variables[0]]


def grade(question, prepared, context) -> Graded:
    items, v, x0 = prepared
    run = newton(question.text, x0, steps=len(items), variable=v)
    true = [r.x for r in run.iterates]
    places = places_of(items)
    shown = places or 6
    answers = []
    if len(items) > 1 and _same_value(items[0], x0) and \
            all(reads_as(it, t, places, context) for it, t in zip(items[1:], true)):
        # x0 listed first, as a book's table starts: the others are x1, x2, ...
        a = Answer("newton", f"{v}0", items[0].text, key=f"{v}0",
                   expected=decimal_text(x0, shown), ok=True,
                   note=f"the starting point {v}0; the numbers after it are {v}1, {v}2, ...")
        answers.append(a)
        items, true = items[1:], true[:len(items) - 1]
    right = [i < len(true) and reads_as(it, true[i], places, context)
             for i, it in enumerate(items)]
    mistake = None
    if not all(right):
        mistake = _sign_slip(question.text, v, x0, items, places, context)
    if mistake is None and not right[0] and true and _far_off(items[0], true[0], places):
        mistake = _wrong_start(question.text, v, x0, items, places, context, run)
    for i, it in enumerate(items):
        key = f"{v}{i + 1}"
        a = Answer("newton", key, it.text, key=key)
        a.computed = it.value
        if i >= len(true):
            a.expected = a.correct = "none"
            a.mistake, a.reason = "no-iterate", f"there is no {key}: {run.why}"
            answers.append(a)
            continue
        a.expected = a.correct = decimal_text(true[i], shown)
        if right[i]:
            a.ok = True
            if places and it.places < places:
                a.note = f"read at the {places_text(places)} of the others"
            answers.append(a)
            continue
        a.reason = f"{key} to {places_text(shown)} is {a.expected}"
        if mistake is None and _too_short(it, true[i], places, context):
            # the typed number is the iterate rounded, too short for the digits rule:
            # "x1 to 2 decimal places is 0.75" would refuse 0.75 with 0.75
            a.mistake = "iterate"
            a.expected = a.correct = decimal_text(true[i], max(shown, SHOWN_SHORT))
            a.reason = (f"{key} is {a.expected}...: {it.text} has fewer than {DIGITS_MIN} "
                        "significant digits, too few to be judged by its rounding, so it is "
                        "compared within the tolerance; give at least "
                        f"{DIGITS_MIN} significant digits")
        elif mistake is not None:
            a.mistake, why = mistake
            a.reason += f"; {why}"
        elif cut_off(it, true[i]):
            a.mistake = "cut-off"
            a.reason += f" ({it.text} is cut off, not rounded)"
        elif i > 0 and _follows(question.text, v, items[i - 1], it, places, context):
            a.mistake = "carried"
            a.reason += (f"; your {key} follows by Newton's rule from your {v}{i}: the "
                         "mistake is earlier")
        else:
            a.mistake = "iterate"
        answers.append(a)
    return Graded(answers, list(run.warnings))


def _too_short(item: _Item, true, places: int, context) -> bool:
    """The typed decimal is the iterate correctly rounded at `places` but has fewer than
    DIGITS_MIN significant digits there, so the verdict fell to the tolerance."""
    return item.decimal is not None and context.digits_rule and \
        reads_as(item, true, places, context, loose=True)


def _same_value(item: _Item, x0: float) -> bool:
    return item.value == x0


def _follows(text, v, before: _Item, it: _Item, places, context) -> bool:
    """Whether `it` is one Newton step from the number `before` (as typed)."""
    try:
        step = newton(text, before.value, steps=1, variable=v)
    except (UsageError, ArithmeticError):
        return False
    return len(step.iterates) == 1 and reads_as(it, step.iterates[0].x, places, context,
                                                  loose=True)


def _sign_slip(text, v, x0, items, places, context):
    """(mistake, why) when x_(n+1) = x_n + f/f' gives every number of the answer."""
    slip = newton(text, x0, steps=len(items), variable=v, sign=+1)
    if len(slip.iterates) == len(items) and all(
            reads_as(it, r.x, places, context, loose=True)
            for it, r in zip(items, slip.iterates)):
        return ("sign-slip", f"your iterates are x_(n+1) = x_n + f(x_n)/f'(x_n): the step "
                             "goes the wrong way; Newton's rule subtracts f(x_n)/f'(x_n)")
    return None


def _far_off(item: _Item, true, places: int) -> bool:
    """More than a slip of the last digits: off by over 10 units of its last place (a
    rounding or typing slip in x1 is not another starting point)."""
    unit = 10.0 ** -max(places, 1) if item.decimal is not None else 1e-6 * max(1, abs(item.value))
    return abs(item.value - float(true)) > 10 * unit


def _wrong_start(text, v, x0, items, places, context, run):
    """(mistake, why) when the numbers follow Newton's rule from one another, but not
    from x0 (a list that starts at x2 says so), else None."""
    true = [r.x for r in run.iterates]
    if len(items) >= 2 and all(_follows(text, v, a, b, places, context)
                               for a, b in zip(items, items[1:])):
        if len(true) > len(items) - 1:
            later = newton(text, x0, steps=len(items) + 1, variable=v)
            if len(later.iterates) == len(items) + 1 and all(
                    reads_as(it, r.x, places, context, loose=True)
                    for it, r in zip(items, later.iterates[1:])):
                return ("wrong-start", f"your list starts at {v}2: {v}1 = "
                                       f"{decimal_text(true[0], places or 6)} is missing")
        return ("wrong-start", f"your numbers follow Newton's rule from one another, but your "
                               f"{v}1 does not come from {v}0 = {num(x0)}: they start from "
                               "another point")
    return None
