"""Checks the vector-calculus corpus itself with SymPy (not gradcli).

Every entry of vectorcalc.json carries a SymPy transcription of its question
(a field as a list of components, or one function) and of the book's printed
answer. This script computes the asked quantity with SymPy and confirms that
the printed answer equals it (`simplify(difference) == 0`, each component of
a curl):

- ``div``: P_x + Q_y (+ R_z);
- ``curl``: Q_x - P_y for [P, Q]; (R_y - Q_z, P_z - R_x, Q_x - P_y) for [P, Q, R];
- ``laplacian``: the sum of the second partials in every variable listed;
- ``jacobian_det``: det of the matrix of partials of the components by the
  variables in the order listed (`wrt`);
- ``partial``: the partial in the letters' order (``xyy`` is d/dy d/dy d/dx f).

Run from anywhere:

    python tests/textbook/verify_vectorcalc.py

Exit status 0 when every entry passes, 1 otherwise. Needs SymPy only.
"""
import json
import os
import sys
from collections import Counter

import sympy
from sympy.parsing.sympy_parser import parse_expr

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "vectorcalc.json")
LEAST = 10  # exercises per kind


def _expr(text, symbols):
    return parse_expr(text, local_dict=symbols)


def solve(entry):
    """The SymPy value of the entry's quantity: an expression, or a list for a 3-D curl."""
    s = entry["sympy"]
    names = s["variables"]
    symbols = {n: sympy.Symbol(n, real=True) for n in names}
    v = [symbols[n] for n in names]
    q = s["question"]
    kind = entry["kind"]
    if kind in ("div", "curl", "jacobian_det"):
        F = [_expr(c, symbols) for c in q]
        if kind == "div":
            return sum(sympy.diff(c, x) for c, x in zip(F, v))
        if kind == "jacobian_det":
            return sympy.Matrix([[sympy.diff(c, x) for x in v] for c in F]).det()
        if len(F) == 2:
            return sympy.diff(F[1], v[0]) - sympy.diff(F[0], v[1])
        (P, Q, R), (x, y, z) = F, v
        return [sympy.diff(R, y) - sympy.diff(Q, z), sympy.diff(P, z) - sympy.diff(R, x),
                sympy.diff(Q, x) - sympy.diff(P, y)]
    f = _expr(q, symbols)
    if kind == "laplacian":
        return sum(sympy.diff(f, x, 2) for x in v)
    for letter in entry["partial"]:
        f = sympy.diff(f, symbols[letter])
    return f


def printed(entry):
    s = entry["sympy"]
    symbols = {n: sympy.Symbol(n, real=True) for n in s["variables"]}
    a = s["answer"]
    return [_expr(c, symbols) for c in a] if isinstance(a, list) else _expr(a, symbols)


def verify(entry) -> str | None:
    """None when the printed answer is right, else why not."""
    want, got = solve(entry), printed(entry)
    if isinstance(want, list) != isinstance(got, list):
        return "the printed answer and the quantity differ in shape"
    pairs = list(zip(want, got)) if isinstance(want, list) else [(want, got)]
    for w, g in pairs:
        if sympy.simplify(w - g) != 0:
            return f"SymPy gives {w}, the printed answer is {g}"
    return None


def main() -> int:
    corpus = json.load(open(CORPUS, encoding="utf-8"))
    bad = 0
    for entry in corpus:
        why = verify(entry)
        if why:
            bad += 1
            print(f"FAIL {entry['id']}: {why}")
    counts = Counter(e["kind"] for e in corpus)
    for kind, n in sorted(counts.items()):
        if n < LEAST:
            bad += 1
            print(f"FAIL only {n} exercises of kind {kind} (at least {LEAST})")
    print(f"{len(corpus) - bad} of {len(corpus)} entries verified: "
          + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
