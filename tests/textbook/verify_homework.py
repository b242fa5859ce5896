"""Checks the homework corpus itself with SymPy (not gradcli).

Every entry of homework.json carries a SymPy transcription of its question and of
the book's printed answer.  This script solves each question with SymPy and
confirms that the printed answer is its solution, and that the entry's
perturbed answer (one coefficient changed by 1e-3 relative, one critical point
moved or misclassified) is not:

- ``tangent-line`` / ``tangent-plane``: the answer equals
  f(p) + sum of f_v(p) (v - p_v) identically;
- ``directional``: the answer equals grad f(p) . v/|v|;
- ``critical``: the listed points are exactly the real solutions of grad f = 0
  inside the box, each with the kind given by the second-derivative test
  (``inconclusive`` where the Hessian is singular; for one variable,
  ``neither`` where the first derivative that is not 0 there has odd order);
- ``taylor``: the answer equals the degree-n Taylor polynomial of f about p;
- ``implicit``: with F = lhs - rhs, the answer equals -F_x/F_y identically, or,
  when a point is given, the point lies on the curve and the answer is the
  slope there;
- ``gradient``: every printed partial equals the partial derivative at p.

An entry whose ``sympy.rounded`` is true has a printed decimal for its answer: it
must be the true number correctly rounded to the significant digits printed
(leading zeros do not count), and the perturbed decimal must not be.

Equality is decided by ``simplify(difference) == 0`` or, when simplify does not
reduce the difference to 0 within 20 s, by agreement at 5 random points of the
entry's ``sympy.domain`` (default [0.3, 1.7]) to a relative tolerance of 1e-12
in 30-digit arithmetic.  A perturbed answer must differ at some point by more
than 1e-6 relative.  Run from anywhere:

    python tests/textbook/verify_homework.py

Exit status 0 when every entry passes, 1 otherwise.  Needs SymPy only.
"""
import json
import os
import random
import sys
from collections import Counter
from decimal import ROUND_HALF_EVEN, Decimal

import mpmath
import sympy
from sympy.parsing.sympy_parser import parse_expr

# The derivative corpus's own checker, beside this file: a finite real value, and the
# time-limited simplification.
from verify_corpus import finite_real as _real  # noqa: E402
from verify_corpus import simplify_is_zero as _simplifies_to_zero  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "homework.json")

KINDS = {"tangent-line": 8, "tangent-plane": 6, "directional": 6, "critical": 8, "taylor": 8,
         "implicit": 6, "gradient": 0}
REQUIRED = ("id", "kind", "source", "question", "point", "answer", "check", "wrong", "sympy",
            "notes")
DEFAULT_RANGE = (0.3, 1.7)
POINTS = 5
MAX_DRAWS = 400
REL_TOL = sympy.Float("1e-12")
WRONG_REL = sympy.Float("1e-6")
ABS_FLOOR = sympy.Float("1e-20")
KINDS_OF_POINTS = ("min", "max", "saddle", "inconclusive", "neither")


class Entry:
    """One corpus entry's SymPy transcription, parsed."""

    def __init__(self, entry):
        self.raw = entry
        self.spec = entry["sympy"]
        self.names = list(self.spec["variables"])
        self.symbols = {n: sympy.Symbol(n, real=True) for n in self.names}
        self.domain = self.spec.get("domain", {})

    def parse(self, text):
        expr = parse_expr(str(text), local_dict=dict(self.symbols))
        stray = {str(s) for s in expr.free_symbols} - set(self.names)
        if stray:
            raise ValueError("%r uses symbols %s that are not variables" % (text, sorted(stray)))
        return expr

    def point(self):
        return {self.symbols[n]: self.parse(v) for n, v in self.spec["at"].items()}

    def _sampler(self, a, b):
        """point -> (a, b) there as 30-digit reals (None where complex, infinite or
        undefined), through mpmath: substituting into the trees at every draw is 100
        times slower."""
        symbols = list(self.symbols.values())
        pair = sympy.lambdify(symbols, [sympy.sympify(a), sympy.sympify(b)], "mpmath")

        def values(at):
            with mpmath.workdps(30):
                try:
                    got = pair(*[mpmath.mpf(str(at[s])) for s in symbols])
                except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                    return None, None
                return tuple(_mp_real(v) for v in got)
        return values

    def _draw(self, rng):
        return {s: sympy.Float(rng.uniform(*self.domain.get(n, DEFAULT_RANGE)), 30)
                for n, s in self.symbols.items()}

    def equal(self, a, b, rng):
        """True when a and b are the same function of the variables (or the same number)."""
        if _simplifies_to_zero(a - b):
            return True
        agreed = 0
        values = self._sampler(a, b)
        for _ in range(MAX_DRAWS):
            va, vb = values(self._draw(rng))
            if va is None or vb is None:
                continue
            if abs(va - vb) > max(REL_TOL * max(abs(va), abs(vb)), ABS_FLOOR):
                return False
            agreed += 1
            if agreed == POINTS:
                return True
        raise ValueError("only %d usable sample points" % agreed)

    def differ(self, a, b, rng):
        """True when a and b differ clearly (1e-6 relative) at some sample point."""
        values = self._sampler(a, b)
        for _ in range(MAX_DRAWS):
            va, vb = values(self._draw(rng))
            if va is None or vb is None:
                continue
            if abs(va - vb) > WRONG_REL * max(abs(va), abs(vb), 1):
                return True
        return False


def _mp_real(value):
    """An mpmath result as a SymPy Float when it is a finite real number, else None."""
    if isinstance(value, mpmath.mpc):
        if abs(value.imag) > ABS_FLOOR * max(1, abs(value.real)):
            return None
        value = value.real
    try:
        value = mpmath.mpf(value)
    except (TypeError, ValueError):
        return None
    if not mpmath.isfinite(value):
        return None
    return sympy.Float(value, 30)


def rounds_to(value, printed):
    """True when the printed decimal is the value correctly rounded to its digits."""
    shown = Decimal(printed.strip())
    digits = len(shown.as_tuple().digits)
    if digits < 3:
        raise ValueError("%r has fewer than 3 significant digits" % printed)
    exact = Decimal(str(sympy.N(value, 40)))
    quantum = Decimal(1).scaleb(exact.adjusted() - digits + 1)
    return exact.quantize(quantum, rounding=ROUND_HALF_EVEN) == shown


# ---------------------------------------------------------------- one solver per kind

def _tangent(e, answer):
    f = e.parse(e.spec["function"])
    at = e.point()
    plane = f.subs(at) + sum(sympy.diff(f, s).subs(at) * (s - a) for s, a in at.items())
    return plane, e.parse(answer)


def _directional(e, answer):
    f = e.parse(e.spec["function"])
    at = e.point()
    v = [sympy.sympify(c) for c in e.spec["direction"]]
    if len(v) != len(e.names):
        raise ValueError("direction has %d components for %d variables" % (len(v), len(e.names)))
    norm = sympy.sqrt(sum(c**2 for c in v))
    value = sum(sympy.diff(f, e.symbols[n]).subs(at) * c for n, c in zip(e.names, v)) / norm
    return value, e.parse(answer)


def _taylor(e, answer):
    f = e.parse(e.spec["function"])
    ((s, a),) = e.point().items()
    n = int(e.spec["order"])
    poly = sympy.series(f, s, a, n + 1).removeO()
    return sympy.expand(poly), sympy.expand(e.parse(answer))


def _implicit(e, answer):
    lhs, rhs = (e.parse(t) for t in e.spec["equation"])
    F = lhs - rhs
    x, y = (e.symbols[n] for n in e.names)
    slope = -sympy.diff(F, x) / sympy.diff(F, y)
    if "at" in e.spec:
        at = e.point()
        if not _simplifies_to_zero(F.subs(at)):
            raise ValueError("the point %s is not on the curve" % e.spec["at"])
        return slope.subs(at), e.parse(answer).subs(at)
    return slope, e.parse(answer)


def classify(f, symbols, at):
    """The second-derivative test at a critical point: min, max, saddle or inconclusive."""
    h = sympy.hessian(f, symbols).subs(at)
    if len(symbols) == 1:
        d2 = sympy.simplify(h[0, 0])
        return "inconclusive" if d2 == 0 else ("min" if d2 > 0 else "max")
    det = sympy.simplify(h.det())
    if det == 0:
        return "inconclusive"
    if det < 0:
        return "saddle"
    return "min" if sympy.simplify(h[0, 0]) > 0 else "max"


def no_extremum(e, coords):
    """One variable: the first derivative that is not 0 at the point has odd order."""
    if len(e.names) != 1:
        raise ValueError("'neither' is a kind for one variable only")
    f = e.parse(e.spec["function"])
    s = e.symbols[e.names[0]]
    for order in range(2, 12):
        value = sympy.simplify(sympy.diff(f, s, order).subs(s, coords[0]))
        if value != 0:
            return order % 2 == 1
    raise ValueError("every derivative up to order 11 is 0 at %s" % coords)


def critical_points(e):
    """SymPy's critical points of the question inside the box, with their kinds."""
    f = e.parse(e.spec["function"])
    symbols = [e.symbols[n] for n in e.names]
    box = e.spec["box"]
    found = []
    for sol in sympy.solve([sympy.diff(f, s) for s in symbols], symbols, dict=True):
        if set(sol) != set(symbols):
            raise ValueError("SymPy finds a continuum of critical points: %s" % sol)
        coords = [sympy.nsimplify(sol[s]) if sol[s].is_Float else sol[s] for s in symbols]
        if not all(c.is_real for c in coords):
            continue
        if all(box[n][0] <= c <= box[n][1] for n, c in zip(e.names, coords)):
            found.append((coords, classify(f, symbols, dict(zip(symbols, coords)))))
    return found


def _critical_matches(e, points):
    """None when the listed points are exactly SymPy's, with the right kinds; else why not."""
    found = critical_points(e)
    unmatched = list(found)
    for item in points:
        coords = [e.parse(c) for c in item["at"]]
        match = next((p for p in unmatched
                      if all(_simplifies_to_zero(a - b) for a, b in zip(p[0], coords))), None)
        if match is None:
            return "%s is not a critical point in the box (SymPy: %s)" % (item["at"], found)
        kind = item["kind"]
        if kind not in KINDS_OF_POINTS:
            raise ValueError("unknown kind of point %r" % kind)
        if kind == "neither":
            if not no_extremum(e, coords):
                return "%s is an extremum, not 'neither'" % item["at"]
        elif kind != match[1]:
            return "%s is a %s, not a %s" % (item["at"], match[1], kind)
        unmatched.remove(match)
    if unmatched:
        return "missed %s" % unmatched
    return None


def verify_entry(entry, rng=None):
    """Raise ValueError unless SymPy confirms the printed answer and refutes the perturbed one.

    Returns the method that decided the printed answer ("exact" or "numeric").
    """
    rng = rng or random.Random(20261204)
    missing = [k for k in REQUIRED if k not in entry]
    if missing:
        raise ValueError("missing fields %s" % missing)
    kind = entry["kind"]
    if kind not in KINDS:
        raise ValueError("unknown kind %r" % kind)
    if entry["answer"] not in entry["check"] or entry["wrong"]["answer"] not in \
            entry["wrong"]["check"]:
        raise ValueError("the check arguments do not carry the answer as typed")
    e = Entry(entry)
    if kind == "critical":
        why = _critical_matches(e, e.spec["points"])
        if why:
            raise ValueError("printed answer: " + why)
        if _critical_matches(e, e.spec["wrong"]) is None:
            raise ValueError("the perturbed answer is also right")
        return "exact"
    if kind == "gradient":
        f = e.parse(e.spec["function"])
        at = e.point()
        method = "exact"
        for which, expect_right in (("answer", True), ("wrong", False)):
            got = {n: e.parse(v) for n, v in e.spec[which].items()}
            right = all(_simplifies_to_zero(sympy.diff(f, e.symbols[n]).subs(at) - v)
                        for n, v in got.items()) and set(got) == set(e.names)
            if right != expect_right:
                raise ValueError("the %s gradient is %s" % (which, "wrong" if expect_right
                                                              else "also right"))
        return method
    solve = {"tangent-line": _tangent, "tangent-plane": _tangent, "directional": _directional,
             "taylor": _taylor, "implicit": _implicit}[kind]
    if e.spec.get("rounded"):
        truth, _ = solve(e, "0")
        if not rounds_to(truth, e.spec["answer"]):
            raise ValueError("printed %s is not %s correctly rounded"
                             % (e.spec["answer"], sympy.N(truth, 15)))
        if rounds_to(truth, e.spec["wrong"]):
            raise ValueError("the perturbed decimal is also right")
        return "rounded"
    truth, printed = solve(e, e.spec["answer"])
    if not e.equal(truth, printed, rng):
        raise ValueError("printed answer %s is not %s" % (printed, sympy.simplify(truth)))
    method = "exact" if _simplifies_to_zero(truth - printed) else "numeric"
    _, wrong = solve(e, e.spec["wrong"])
    if not e.differ(truth, wrong, rng):
        raise ValueError("the perturbed answer %s is not clearly wrong" % wrong)
    return method


def load():
    with open(CORPUS, encoding="utf-8") as fh:
        return json.load(fh)


def main():
    corpus = load()
    rng = random.Random(20261204)
    failures = []
    ids = [e.get("id") for e in corpus]
    if len(ids) != len(set(ids)):
        failures.append(("<corpus>", "duplicate ids"))
    methods = Counter()
    for entry in corpus:
        try:
            methods[verify_entry(entry, rng)] += 1
        except Exception as exc:  # report every failure, keep going
            failures.append((entry.get("id"), "%s: %s" % (type(exc).__name__, exc)))
    kinds = Counter(e.get("kind") for e in corpus)
    for kind, least in KINDS.items():
        if kinds[kind] < least:
            failures.append(("<corpus>", "%d %s entries, fewer than %d" % (kinds[kind], kind,
                                                                           least)))
    for ident, why in failures:
        print("FAIL %s: %s" % (ident, why))
    print("%d/%d entries pass (%s); printed answers confirmed %d exactly, %d numerically, "
          "%d as rounded decimals; every perturbed answer refuted"
          % (len(corpus) - sum(1 for i, _ in failures if i != "<corpus>"), len(corpus),
             ", ".join("%d %s" % (kinds[k], k) for k in KINDS), methods["exact"],
             methods["numeric"], methods["rounded"]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
