"""Checks the third- and fourth-derivative corpus (higher.json) with SymPy alone, not gradcli.

Every entry carries a SymPy transcription of its function and of the page's printed
answer; this script differentiates the function `order` times and confirms that the
printed answer equals it (`simplify(difference) == 0`), and that the entry's wrong
answer, transcribed by the same reading of `wrong.answer`, does not.

Run from anywhere:  python tests/textbook/verify_higher.py   (exit 1 on any failure)
"""
import json
import os
import sys

import sympy
from sympy.parsing.sympy_parser import (convert_xor, implicit_multiplication_application,
                                        parse_expr, standard_transformations)

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "higher.json")
LEAST = 10  # exercises, the floor
_READ = standard_transformations + (implicit_multiplication_application, convert_xor)


def load():
    with open(CORPUS, encoding="utf-8") as fh:
        return json.load(fh)


def _symbols(entry):
    x = sympy.Symbol(entry["sympy"]["variable"], positive=True)
    return x, {entry["sympy"]["variable"]: x, "e": sympy.E}


def derivative(entry):
    x, names = _symbols(entry)
    f = parse_expr(entry["sympy"]["function"], local_dict=names)
    return sympy.diff(f, x, entry["order"]), names


def _equal(a, b) -> bool:
    return sympy.simplify(a - b) == 0


def wrong_reading(text, names):
    """The wrong answer as typed (`40x^3 - 42x + 18`, `15x^(1/2)`, `8cos(2x)`): a loose
    reading with implicit products, enough to show it differs from the derivative."""
    return parse_expr(text.replace("e^(", "exp("), local_dict=names, transformations=_READ)


def check(entry) -> list:
    want, names = derivative(entry)
    problems = []
    if not _equal(parse_expr(entry["sympy"]["answer"], local_dict=names), want):
        problems.append("the printed answer is not the derivative")
    if _equal(wrong_reading(entry["wrong"]["answer"], names), want):
        problems.append("the wrong answer is the derivative")
    return problems


def main():
    corpus = load()
    failed = 0
    for entry in corpus:
        problems = check(entry)
        if problems:
            failed += 1
            print(f"FAIL {entry['id']}: {'; '.join(problems)}")
    orders = {n: sum(e["order"] == n for e in corpus) for n in (3, 4)}
    print(f"{len(corpus) - failed} of {len(corpus)} entries confirmed "
          f"({orders[3]} third derivatives, {orders[4]} fourth)")
    return 1 if failed or len(corpus) < LEAST else 0


if __name__ == "__main__":
    sys.exit(main())
