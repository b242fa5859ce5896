"""Checks the textbook corpus itself with SymPy (not gradcli).

For every entry of exercises.json and every printed partial derivative, the
script differentiates the entry's ``sympy.function`` and compares the result
with ``sympy.answers[var]``:

1. ``simplify(derivative - answer) == 0`` (with a time limit), otherwise
2. numeric agreement at 5 random points drawn from ``sympy.domain`` (default
   [0.3, 1.7] for every variable), to a relative tolerance of 1e-9, evaluated
   with 30 significant digits.  Points where either side is not a finite real
   number are skipped and redrawn.

It also checks the shape of every entry.  Run from anywhere:

    python tests/textbook/verify_corpus.py

Exit status 0 when every entry passes, 1 otherwise.  Needs SymPy only.
"""
import json
import math
import os
import random
import signal
import sys

import sympy
from sympy.parsing.sympy_parser import parse_expr

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "exercises.json")

DEFAULT_RANGE = (0.3, 1.7)
POINTS = 5
MAX_DRAWS = 400
REL_TOL = sympy.Float("1e-9")
ABS_FLOOR = sympy.Float("1e-20")
SIMPLIFY_SECONDS = 20

REQUIRED = ("id", "source", "function", "variables", "answers", "sympy", "notes")


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def simplify_is_zero(expr):
    """True if SymPy proves expr == 0 within the time limit, else False."""
    use_alarm = hasattr(signal, "SIGALRM")
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(SIMPLIFY_SECONDS)
    try:
        return sympy.simplify(expr) == 0
    except _Timeout:
        return False
    finally:
        if use_alarm:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)


def finite_real(value):
    value = sympy.N(value, 30)
    if not value.is_number:
        return None
    re, im = value.as_real_imag()
    re, im = sympy.N(re, 30), sympy.N(im, 30)
    if im != 0 and abs(im) > ABS_FLOOR * max(1, abs(re)):
        return None
    try:
        if not math.isfinite(float(re)):
            return None
    except (TypeError, ValueError):
        return None
    return re


def numeric_agree(deriv, answer, symbols, domain, rng):
    """Returns (ok, message)."""
    agreed = 0
    for _ in range(MAX_DRAWS):
        point = {}
        for name, sym in symbols.items():
            lo, hi = domain.get(name, DEFAULT_RANGE)
            point[sym] = sympy.Float(rng.uniform(lo, hi), 30)
        d = finite_real(deriv.subs(point))
        a = finite_real(answer.subs(point))
        if d is None or a is None:
            continue
        scale = max(abs(d), abs(a))
        if abs(d - a) > max(REL_TOL * scale, ABS_FLOOR):
            shown = {str(k): float(v) for k, v in point.items()}
            return False, "at %s: derivative %s, book %s" % (shown, sympy.N(d, 15), sympy.N(a, 15))
        agreed += 1
        if agreed == POINTS:
            return True, "numeric"
    return False, "only %d usable points in the domain after %d draws" % (agreed, MAX_DRAWS)


def check_entry(entry, rng):
    """Returns a list of (var, method) on success; raises ValueError on failure."""
    missing = [k for k in REQUIRED if k not in entry]
    if missing:
        raise ValueError("missing fields %s" % missing)
    variables = entry["variables"]
    answers = entry["answers"]
    spec = entry["sympy"]
    if not answers:
        raise ValueError("no printed answers")
    if not set(answers) <= set(variables):
        raise ValueError("answers for variables not listed: %s" % sorted(set(answers) - set(variables)))
    if set(spec.get("answers", {})) != set(answers):
        raise ValueError("sympy.answers keys %s differ from answers keys %s"
                         % (sorted(spec.get("answers", {})), sorted(answers)))
    domain = spec.get("domain", {})
    symbols = {v: sympy.Symbol(v, real=True) for v in variables}
    local = dict(symbols)
    f = parse_expr(spec["function"], local_dict=local)
    extra = {str(s) for s in f.free_symbols} - set(variables)
    if extra:
        raise ValueError("sympy.function has symbols %s not in variables" % sorted(extra))
    results = []
    for var in variables:
        if var not in answers:
            continue
        answer = parse_expr(spec["answers"][var], local_dict=local)
        deriv = sympy.diff(f, symbols[var])
        if simplify_is_zero(deriv - answer):
            results.append((var, "simplify"))
            continue
        ok, how = numeric_agree(deriv, answer, symbols, domain, rng)
        if not ok:
            raise ValueError("d/d%s does not match the book's answer: %s" % (var, how))
        results.append((var, how))
    return results


def main():
    with open(CORPUS, encoding="utf-8") as fh:
        corpus = json.load(fh)
    rng = random.Random(20261203)
    ids = [e.get("id") for e in corpus]
    failures = []
    if len(ids) != len(set(ids)):
        failures.append(("<corpus>", "duplicate ids"))
    by_method = {"simplify": 0, "numeric": 0}
    checked = 0
    single = multi = 0
    for entry in corpus:
        try:
            results = check_entry(entry, rng)
        except Exception as exc:  # report every failure, keep going
            failures.append((entry.get("id"), "%s: %s" % (type(exc).__name__, exc)))
            continue
        if len(entry["variables"]) > 1:
            multi += 1
        else:
            single += 1
        for _, method in results:
            by_method[method] += 1
            checked += 1
    for ident, why in failures:
        print("FAIL %s: %s" % (ident, why))
    passed = len(corpus) - len(failures)
    print("%d/%d entries pass (%d single-variable, %d multivariable); %d derivatives checked"
          " (%d by simplify, %d numerically)"
          % (passed, len(corpus), single, multi, checked, by_method["simplify"], by_method["numeric"]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
