"""Generated Newton's-method answers, right and wrong, graded by `check --newton` and
`check --roots` against an independent judge: SymPy differentiates, mpmath iterates
and finds the roots at 50 digits (tests/textbook/verify_newton.py's reading rule).

Right answers: the true iterates (or roots) rounded to 3..9 decimal places, an exact
iterate sometimes typed short (`1.5` beside `1.4166667`). Wrong answers: the sign slip
x_(n+1) = x_n + f/f', one iterate off by one unit in its last place, one iterate cut
off instead of rounded, the iterates from another start; for roots, a root missed,
one off by a unit, one cut off, a number that is not a root. The judge decides each
verdict; gradcli must agree on every one. The fast subset (20 + 20 iterate tables, 5 + 5
root lists) runs always; the full 200 + 200 per kind under `-m slow`.
"""
import os
import random
import sys
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal

import mpmath as mp
import pytest
import sympy

from gradcli.tasks.check import check_homework

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "textbook"))
import verify_newton as judge  # noqa: E402

X = sympy.Symbol("x", real=True)


def _text(v, k, rounding=ROUND_HALF_EVEN) -> str:
    # 40 significant digits, rounded, first: an iterate that is exactly -2.45 is carried
    # in binary as -2.44999...9 (50 digits), and its cut-off is -2.450000000, not -2.449999999.
    d = Decimal(mp.nstr(v, 40, strip_zeros=False, min_fixed=-mp.inf, max_fixed=mp.inf))
    q = d.quantize(Decimal(1).scaleb(-k), rounding=rounding)
    return format(abs(q) if q == 0 else q, "f")


def _function(rng):
    """(gradcli text, SymPy text) of a function with a real root near the start."""
    kind = rng.randrange(5)
    a, b, c = rng.randint(1, 5), rng.randint(-4, 4), rng.randint(-6, 6) or 1
    if kind == 0:
        return f"{a}x^3 + {b}x^2 - 3x + {c}", f"{a}*x**3 + {b}*x**2 - 3*x + {c}"
    if kind == 1:
        return f"x^2 - {a + 1}", f"x**2 - {a + 1}"
    if kind == 2:
        return f"cos x - x/{a}", f"cos(x) - x/{a}"
    if kind == 3:
        return f"e^x - {a + 1}", f"exp(x) - {a + 1}"
    return f"x^5 + {a}x - {c}", f"x**5 + {a}*x - {c}"


def _iterates(sym, x0, n, sign=-1):
    # At 60 digits whatever another test left mpmath's precision at (a shared global).
    with mp.workdps(60):
        return _iterates_at(sym, x0, n, sign)


def _iterates_at(sym, x0, n, sign):
    f, df = judge.functions(sym)
    x, out = mp.mpf(x0), []
    for _ in range(n):
        d = df(x)
        if d == 0 or not mp.isfinite(d):
            return None
        x = x + sign * f(x) / d
        if not mp.isfinite(x) or abs(x) > 1e6:
            return None
        out.append(x)
    return out


def _judge_newton(sym, x0, answer) -> bool:
    items = judge.numbers(answer)
    true = _iterates(sym, x0, len(items))
    k = max(judge.places(t) for t in items)
    return all(judge.rounds_to(t, v, k) for t, v in zip(items, true))


def _newton_case(rng, want_right):
    """(text, sym, x0, answer, slip) or None when the draw does not fit."""
    text, sym = _function(rng)
    x0 = rng.choice([-2, -1.5, -1, -0.5, 0.5, 1, 1.5, 2, 2.5, 3])
    n = rng.randint(2, 5)
    true = _iterates(sym, x0, n + 1)
    if true is None:
        return None
    k = rng.randint(3, 9)
    texts = [_text(v, k) for v in true[:n]]
    if want_right:
        # An iterate that is exact at fewer places may be typed short, as books do.
        texts = [t.rstrip("0").rstrip(".") if rng.random() < 0.3 and "." in t else t
                 for t in texts]
        if all(judge.places(t) == 0 for t in texts):
            texts = [_text(v, k) for v in true[:n]]
        return text, sym, x0, ", ".join(texts), None
    how = rng.choice(["sign-slip", "digit", "cut-off", "start"])
    if how == "sign-slip":
        slip = _iterates(sym, x0, n, sign=+1)
        if slip is None:
            return None
        texts = [_text(v, k) for v in slip]
    elif how == "digit":
        i = rng.randrange(n)
        unit = Decimal(1).scaleb(-k) * rng.choice([-1, 1])
        texts[i] = format(Decimal(texts[i]) + unit, "f")
    elif how == "cut-off":
        cut = [i for i, v in enumerate(true[:n]) if _text(v, k, ROUND_DOWN) != texts[i]]
        if not cut:
            return None
        i = rng.choice(cut)
        texts[i] = _text(true[i], k, ROUND_DOWN)
    else:
        other = _iterates(sym, x0 + rng.choice([-1, 1, 0.5]), n)
        if other is None:
            return None
        texts = [_text(v, k) for v in other]
    return text, sym, x0, ", ".join(texts), how


_JUDGED = {}


def _true_roots(entry):
    """The judge's roots, once per function (a grid of 2000, finer than gradcli's 800)."""
    key = (entry["sympy"]["function"], tuple(entry["sympy"]["over"]))
    if key not in _JUDGED:
        _JUDGED[key] = judge.true_roots(entry, points=2000)
    return _JUDGED[key]


def _roots_ok(entry, answer):
    items = judge.numbers(answer)
    left = list(_true_roots(entry))
    for t in items:
        match = next((r for r in left if judge.rounds_to(t, r, judge.places(t))), None)
        if match is None:
            return False
        left.remove(match)
    return not left


def _roots_case(rng, want_right):
    kind = rng.randrange(3)
    a, b = rng.choice([2, 3, 5, 6, 7]), rng.randint(-3, 3)
    if kind == 0:
        text, sym, over = f"(x^2 - {a})(x - {b})", f"(x**2 - {a})*(x - {b})", "x=-4:4"
    elif kind == 1:
        text, sym, over = f"cos x - x/{a}", f"cos(x) - x/{a}", "x=-8:8"
    else:
        text, sym, over = f"x^3 - {a}x + 1", f"x**3 - {a}*x + 1", "x=-4:4"
    entry = {"sympy": {"function": sym, "over": over.split("=")[1].split(":")}}
    true = _true_roots(entry)
    k = rng.randint(3, 8)
    texts = [_text(r, k) for r in true]
    if want_right:
        rng.shuffle(texts)
        return text, over, " and ".join(texts) if rng.random() < 0.3 else ", ".join(texts), \
            entry
    how = rng.choice(["missed", "digit", "cut-off", "not-a-root"])
    if how == "missed" and len(texts) > 1:
        texts.pop(rng.randrange(len(texts)))
    elif how == "cut-off":
        cut = [i for i, r in enumerate(true) if _text(r, k, ROUND_DOWN) != texts[i]]
        if not cut:
            return None
        i = rng.choice(cut)
        texts[i] = _text(true[i], k, ROUND_DOWN)
    elif how == "not-a-root":
        texts.append(_text((true[0] + (true[1] if len(true) > 1 else true[0] + 2)) / 2, k))
    else:
        i = rng.randrange(len(texts))
        texts[i] = format(Decimal(texts[i]) + Decimal(1).scaleb(-k), "f")
    return text, over, ", ".join(texts), entry


def _run_newton(count, seed):
    rng = random.Random(seed)
    tally = {"right": 0, "wrong": 0}
    wrong_verdicts = []
    while min(tally.values()) < count:
        want_right = tally["right"] < count and (tally["wrong"] >= count or rng.random() < 0.5)
        case = _newton_case(rng, want_right)
        if case is None:
            continue
        text, sym, x0, answer, how = case
        truth = _judge_newton(sym, x0, answer)
        if truth != want_right:
            continue  # a "wrong" draw that happens to be right (or the reverse): not counted
        verdict = check_homework(text, {"x": x0}, newton=answer)
        tally["right" if truth else "wrong"] += 1
        if verdict.ok != truth:
            wrong_verdicts.append((text, x0, answer, truth))
        elif not truth:
            named = {a.mistake for a in verdict.answers if not a.ok}
            expected = {"sign-slip": "sign-slip", "cut-off": "cut-off"}.get(how)
            if None in named or (expected and expected not in named):
                wrong_verdicts.append((text, x0, answer, f"{how} not named", named))
    return tally, wrong_verdicts


def _run_roots(count, seed):
    rng = random.Random(seed)
    tally = {"right": 0, "wrong": 0}
    wrong_verdicts = []
    while min(tally.values()) < count:
        want_right = tally["right"] < count and (tally["wrong"] >= count or rng.random() < 0.5)
        case = _roots_case(rng, want_right)
        if case is None:
            continue
        text, over, answer, entry = case
        truth = _roots_ok(entry, answer.replace(" and ", ", "))
        if truth != want_right:
            continue
        verdict = check_homework(text, {}, roots=answer, over=over)
        tally["right" if truth else "wrong"] += 1
        if verdict.ok != truth:
            wrong_verdicts.append((text, over, answer, truth))
    return tally, wrong_verdicts


def test_newton_iterates_20_right_and_20_wrong():
    tally, wrong = _run_newton(20, seed=34)
    assert tally == {"right": 20, "wrong": 20} and wrong == []


def test_roots_5_right_and_5_wrong():
    tally, wrong = _run_roots(5, seed=35)
    assert tally == {"right": 5, "wrong": 5} and wrong == []


@pytest.mark.slow
def test_newton_iterates_200_right_and_200_wrong():
    tally, wrong = _run_newton(200, seed=340)
    assert tally == {"right": 200, "wrong": 200} and wrong == []


@pytest.mark.slow
def test_roots_200_right_and_200_wrong():
    tally, wrong = _run_roots(200, seed=350)
    assert tally == {"right": 200, "wrong": 200} and wrong == []
