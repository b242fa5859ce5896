"""Grading the roots of f in a range (`check --roots ... --over x=A:B`).

Each listed root is right when it is a root that `gradcli newton --over`'s search
found, read by the digits rule at its own decimal places (newton.py's reading of
typed numbers), or where f changes sign within what that rule allows it (a root
the search missed); else `not-a-root` (or `cut-off`, `outside-range`, `repeated`). The
search's roots the list misses are one more answer (`missed`); for a polynomial,
Sturm's count of its roots in the range decides that answer too, else the
search cannot prove that it found every root, and the verdict says so.
"""
from __future__ import annotations

from decimal import Decimal

from ...errors import UsageError
from ...inputs import parse_over
from ..newton import Curve, decimal_text, roots
from .newton import PRECISE_DIGITS, cut_off, places_of, places_text, read_items, reads_as, \
    significant
from .shared import Graded
from .verdict import DIGITS_MIN, Answer, num

OPTION = "roots"


def prepare(question, given, context):
    """(the typed roots, the variable, the range), read before grading."""
    if given.get("over") is None:
        raise UsageError("--roots needs the range to search: --over x=A:B",
                         hint='for example: --roots "-1.414, 1.414" --over x=-3:3')
    name, low, high = parse_over(given["over"])
    items = read_items(given["roots"], "roots", signs=True)
    seen = []
    for it in items:
        if any(it.value == s for s in seen):
            raise UsageError(f"--roots lists {it.text} twice", hint="list each root once")
        seen.append(it.value)
    return items, name, low, high


def grade(question, prepared, context) -> Graded:
    items, name, low, high = prepared
    bindings = {k: v for k, v in question.at.items() if k != name}
    search = roots(question.text, low, high, variable=name, bindings=bindings)
    found = search.roots
    # Roots are separate numbers: each is read at its own decimal places.
    shown = places_of(items) or 6
    matched = set()
    answers = []
    curve = Curve(question.text, name, bindings, "--over")
    curve.lower_at(found[0].value if found else (low + high) / 2)
    for it in items:
        a = Answer("roots", name, it.text, key="root")
        a.computed = it.value
        index = next((i for i, r in enumerate(found) if i not in matched
                      and reads_as(it, r.precise, it.places, context)), None)
        if index is not None:
            matched.add(index)
            a.ok = True
            a.expected = a.correct = decimal_text(found[index].precise, it.places or shown)
            answers.append(a)
            continue
        again = next((i for i in sorted(matched)
                      if reads_as(it, found[i].precise, it.places, context)), None)
        if again is not None:
            a.mistake = "repeated"
            a.expected = a.correct = "listed already"
            a.reason = (f"{it.text} is the root {name} ≈ "
                        f"{decimal_text(found[again].precise, it.places or shown)} again, "
                        "listed already: each root once")
            answers.append(a)
            continue
        nearest = min(found, key=lambda r: abs(r.value - it.value), default=None)
        a.expected = a.correct = (decimal_text(nearest.precise, it.places or shown)
                                  if nearest is not None else "none")
        if _sign_change_within(curve, it, it.places, context):
            if low <= it.value <= high:
                a.ok = True
                a.note = (f"a root: f changes sign within half a unit of the last place "
                          f"of {it.text}; gradcli's search did not find it")
            else:
                a.mistake = "outside-range"
                a.reason = (f"{it.text} is a root, but outside the range "
                            f"{num(low)} ≤ {name} ≤ {num(high)} of --over")
            answers.append(a)
            continue
        if nearest is not None and cut_off(it, nearest.precise):
            a.mistake = "cut-off"
            a.reason = (f"the root to {places_text(it.places)} is "
                        f"{decimal_text(nearest.precise, it.places)} ({it.text} is cut "
                        "off, not rounded)")
        else:
            a.mistake = "not-a-root"
            a.reason = f"not a root: f({it.text}) = {_f_text(curve, it.value)}, not 0"
            if nearest is not None:
                a.reason += f"; the nearest root is {name} ≈ {a.expected}"
        answers.append(a)
    missed = [r for i, r in enumerate(found) if i not in matched]
    a = Answer("roots", "missed", f"{len(items)} listed" if items else "none listed",
               key="roots", expected=f"{len(found)} found by gradcli", ok=not missed,
               note=search.note)
    a.correct = ", ".join(decimal_text(r.precise, shown) for r in found) or "none found"
    if missed:
        a.mistake = "missed"
        a.mistake_detail = ", ".join(decimal_text(r.precise, shown) for r in missed)
        a.reason = ("your list misses " + ", ".join(f"{name} ≈ {decimal_text(r.precise, shown)}"
                                                    for r in missed)
                    + f", found by gradcli in {num(low)} ≤ {name} ≤ {num(high)}")
    right = sum(1 for b in answers if b.ok)
    if not missed and search.proved is not None and right < search.proved:
        # A polynomial's count is a proof: fewer right roots than it are a root missed,
        # even one the search could not tell apart from another.
        a.ok, a.mistake = False, "missed"
        a.expected = f"{search.proved} by Sturm's theorem"
        a.reason = (f"Sturm's theorem counts {search.proved} distinct real roots in "
                    f"{num(low)} ≤ {name} ≤ {num(high)}, and your list has {right}")
    answers.append(a)
    return Graded(answers, list(search.warnings))


def _f_text(curve, x: float) -> str:
    import mpmath as mp
    try:
        with mp.workdps(30):
            return num(float(curve.value(mp.mpf(x))))
    except ArithmeticError:
        return "undefined"


def _sign_change_within(curve, it, places: int, context) -> bool:
    """Whether f is 0 at the typed number or changes sign within what the digits rule
    allows it (half a unit of the last of `places` decimals), else within the tolerance."""
    import mpmath as mp
    with mp.workdps(PRECISE_DIGITS):
        half = mp.mpf(context.atol) + mp.mpf(context.rtol) * abs(mp.mpf(it.value))
        if it.decimal is not None and context.digits_rule and \
                significant(it.decimal.quantize(Decimal(1).scaleb(-places))) >= DIGITS_MIN:
            half = mp.mpf(10) ** -places / 2
        x = mp.mpf(str(it.decimal)) if it.decimal is not None else mp.mpf(it.value)
        try:
            at, left, right = (curve.value(x), curve.value(x - half),
                               curve.value(x + half))
            if at == 0:
                return True
            if not left * right < 0:
                return False
            # A sign change is a root only where f goes to 0 (a pole or a jump does not).
            lo, hi, flo = x - half, x + half, left
            for _ in range(120):
                mid = (lo + hi) / 2
                fm = curve.value(mid)
                if fm == 0:
                    return True
                if (fm < 0) == (flo < 0):
                    lo, flo = mid, fm
                else:
                    hi = mid
            return abs(fm) <= mp.mpf(10) ** -15 * max(1, abs(left), abs(right))
        except ArithmeticError:
            return False
