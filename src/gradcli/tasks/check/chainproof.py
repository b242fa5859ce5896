"""The proof behind the chain-rule grader (chainrule.py): either form of ∂z/∂p, and its mistakes.

An answer is right in either form a book prints: the substituted form in the
parameters, or the mixed form with the outer letters (`2x cos t + 2y sin t`).
Proof: the inner functions are substituted into the answer and the
difference from ∂z/∂p is sampled at seeded points of the parameters (a point
where they differ proves the answer wrong), then simplified by SymPy to 0
(which proves it right). Where SymPy cannot decide, agreement at every sample
point is accepted and said in the note. With --at, an answer that is a number
is the value there: exact when typed exactly, by the digits rule when a
decimal. Named: `chain-term-dropped` (one product of the sum missing),
`inner-derivatives-swapped` (dx/dt and dy/dt exchanged), `wrong-parameter`
(the derivative by another parameter).
"""
from __future__ import annotations

import itertools

import sympy as S

from ...errors import GradcliError, UsageError
from ..chainrule import chain_rule
from ..exactinput import read_sympy
from .shared import Graded, seeded_rng
from .verdict import Answer, grade_number


SAMPLES = 12
DECIMAL_PLACES = 30


def _names(given, params) -> list:
    wrt = [n for spec in (given.get("wrt") or ()) for n in spec.split(",") if n.strip()]
    wrt = [n.strip() for n in wrt]
    answers = given.get("derivatives") or []
    if not answers:
        raise UsageError("--with goes with --derivative: your ∂z/∂s (or dz/dt) to grade",
                         hint='for example --with "x = s cos t, y = s sin t" '
                              '--derivative "2x cos t + 2y sin t" --wrt s')
    if not wrt and len(params) == 1:
        wrt = list(params) * len(answers)
    if len(wrt) != len(answers):
        raise UsageError(f"{len(answers)} --derivative answer(s) and {len(wrt)} --wrt name(s): "
                         "each derivative needs its parameter",
                         hint="--wrt " + ",".join(params[:len(answers)]))
    return wrt


def prepare(question, given, context):
    """(the chain rule, [(parameter, the answer as typed, the answer as SymPy)])."""
    from ..chainrule import parse_with
    from ...symbolic.realforms import symbol
    pairs = parse_with(given["with_"])
    # The parameters as the chain rule will find them, before computing anything.
    params = []
    for _, formula in pairs:
        for v in read_sympy(formula)[1]:
            if v not in params:
                params.append(v)
    outer = read_sympy(question.text)[1]
    for v in outer:
        if v not in dict(pairs) and v not in params:
            params.append(v)
    wrt = _names(given, params)
    allowed = set(params) | set(outer)
    answers = []
    for p, typed in zip(wrt, given["derivatives"]):
        typed = typed if isinstance(typed, str) else typed[1]  # (name, formula) from the API
        if not typed.strip():
            raise UsageError("--derivative is empty", hint="for example 2x cos t + 2y sin t")
        expr, variables, _ = read_sympy(typed)
        extra = [v for v in variables if v not in allowed]
        if extra:
            raise UsageError(f"your derivative uses {', '.join(extra)}, which is neither a "
                             f"variable of the expression nor a parameter "
                             f"({', '.join(sorted(allowed))})", source=typed)
        answers.append((p, typed, expr))
    point = given.get("exact_at")
    rule = chain_rule(question.text, given["with_"], list(dict.fromkeys(wrt)), point)
    return rule, answers, [symbol(p) for p in params]


def _substituted(rule, expr):
    from ...symbolic.realforms import symbol
    return expr.xreplace({symbol(v): e for v, e in rule.inner.items()})


def _exact(expr):
    """Decimals typed in a formula as the rationals they are (0.5 is 1/2)."""
    floats = expr.atoms(S.Float)
    return expr.xreplace({f: S.Rational(str(f)) for f in floats}) if floats else expr


def _value(expr, point):
    try:
        v = complex(expr.xreplace(point).evalf(DECIMAL_PLACES))
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    if v != v or abs(v.imag) > 1e-12 * max(1.0, abs(v.real)) or abs(v.real) == float("inf"):
        return None
    return v.real


def same(a, b, symbols, seed) -> tuple:
    """(True, note) where a = b, proven by SymPy or, where it cannot decide, at every sample
    point; (False, point) at a point where they differ."""
    rng = seeded_rng(str(a), str(b), seed)
    compared = 0
    for _ in range(SAMPLES * 3):
        if compared >= SAMPLES:
            break
        point = {s: S.Rational(round(rng.uniform(-2.5, 2.5), 3)).limit_denominator(1000)
                 for s in symbols}
        if any(abs(v) < S.Rational(1, 10) for v in point.values()):
            continue
        va, vb = _value(a, point), _value(b, point)
        if va is None or vb is None:
            continue
        compared += 1
        if abs(va - vb) > 1e-9 * max(1.0, abs(va), abs(vb)):
            return False, point
    if proven_zero(a - b):
        return True, "proven equal by algebra"
    if compared == 0:
        return False, None
    return True, f"equal at {compared} sample points (the algebra could not decide)"


def proven_zero(d) -> bool:
    """d is 0 by algebra, the cheap ways first (simplify alone costs seconds)."""
    if S.cancel(d) == 0:
        return True
    if d.has(S.sin, S.cos, S.tan) and S.cancel(S.trigsimp(S.expand_trig(d))) == 0:
        return True
    return S.simplify(d) == 0 or d.equals(0) is True


def _mistake(rule, p, sub, symbols) -> tuple:
    """(key, detail, why) of a known mistake that gives exactly this answer, or Nones."""
    terms = rule.terms(p)
    inner = {v: e for v, e in rule.inner.items()}
    from ...symbolic.realforms import symbol
    subs = {symbol(v): e for v, e in inner.items()}

    def close(candidate):
        return same(sub, candidate.xreplace(subs), symbols, "m")[0]
    if len(terms) > 1:
        for i, (v, fv, dv) in enumerate(terms):
            rest = S.Add(*[f * d for j, (_, f, d) in enumerate(terms) if j != i])
            if close(rest):
                link = f"∂{rule.z}/∂{v}·∂{v}/∂{p}" if v != p else f"∂{rule.z}/∂{p}"
                return ("chain-term-dropped", v,
                        f"the term {link} of the chain rule is missing")
    links = [(v, fv, dv) for v, fv, dv in terms if v != p]
    for (i, a), (j, b) in itertools.combinations(enumerate(links), 2):
        swapped = [(f, d) for _, f, d in links]
        swapped[i], swapped[j] = (a[1], b[2]), (b[1], a[2])
        extra = [f * d for v, f, d in terms if v == p]
        if close(S.Add(*[f * d for f, d in swapped], *extra)):
            return ("inner-derivatives-swapped", f"{a[0]},{b[0]}",
                    f"∂{a[0]}/∂{p} and ∂{b[0]}/∂{p} are swapped: ∂{rule.z}/∂{a[0]} goes with "
                    f"∂{a[0]}/∂{p}")
    whole = rule.f.xreplace(subs)
    for q in rule.params:
        if q != p and close(S.diff(whole, symbol(q))):
            return ("wrong-parameter", q, f"this is ∂{rule.z}/∂{q}, not ∂{rule.z}/∂{p}")
    return None, None, None


def grade(question, prepared, context) -> Graded:
    from ...closedtext import printed_text
    rule, answers, symbols = prepared
    out = []
    for p, typed, expr in answers:
        d = "d" if rule.total else "∂"
        a = Answer("chain", p, typed.strip(), key=f"{d}{rule.z}/{d}{p}")
        correct = rule.derivatives[p]
        a.correct = printed_text(correct)
        a.expected = a.correct
        if not expr.free_symbols and rule.at is not None:
            _grade_value(a, typed, expr, rule.values[p], context)
            out.append(a)
            continue
        sub = _substituted(rule, _exact(expr))
        ok, info = same(sub, correct, symbols, typed)
        a.ok = ok
        if ok:
            a.note = info
        else:
            key, detail, why = _mistake(rule, p, sub, symbols)
            a.mistake, a.mistake_detail = key or "chain-rule", detail
            a.reason = why or f"{d}{rule.z}/{d}{p} is {a.correct} (mixed form: " \
                              f"{_mixed(rule, p)})"
            if why:
                a.reason += f"; {d}{rule.z}/{d}{p} is {a.correct}"
            if isinstance(info, dict):
                a.reason += " (they differ at " + ", ".join(
                    f"{k} = {v}" for k, v in info.items()) + ")"
        out.append(a)
    return Graded(out, list(rule.warnings))


def _mixed(rule, p) -> str:
    from ..chainrule import mixed_text
    return mixed_text(rule, p)


def _grade_value(a, typed, expr, value, context):
    """A number answered with --at: the value there, exact or by the digits rule."""
    from ...closedtext import printed_text
    a.expected = printed_text(value)
    decimal = _is_decimal(typed)
    if decimal and context.digits_rule:
        graded = grade_number(typed.strip(), float(expr), float(value))
        if graded is not None:
            a.ok, a.digits, a.rounded = graded["ok"], graded["digits"], graded["rounded"]
            a.reason, a.note = graded["reason"], graded["note"]
            return
    if decimal:
        a.ok = abs(float(expr) - float(value)) <= context.atol + context.rtol * abs(float(value))
    else:
        try:
            a.ok = S.simplify(expr - value) == 0
        except (TypeError, ValueError, GradcliError):
            a.ok = False
    if not a.ok:
        a.mistake = "value"
        a.reason = f"the value at the point is {printed_text(value)}"


def _is_decimal(typed: str) -> bool:
    from decimal import Decimal, InvalidOperation
    text = typed.strip()
    try:
        Decimal(text)
    except InvalidOperation:
        return False
    return "." in text or "e" in text.lower()
