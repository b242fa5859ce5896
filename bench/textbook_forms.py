"""Textbook forms: is what `gradcli diff` prints as short as what the book prints?

For each derivative below, typed from a calculus text (the source is named beside
it) in today's explicit syntax (`*`, parentheses, `^`): run gradcli's
`differentiate`, re-parse the printed result, and count its operations (the
nodes that are operators or functions) against the book's printed answer,
re-parsed the same way. Also check that the two agree numerically at a few
points. Prints a table, the median and the worst ratio ours/book's, and every
case over 1.5x; `--markdown` prints the table as Markdown (for bench/RESULTS.md).

Sources (section numbers of OpenStax Calculus Volume 1, 2016; Paul's Online
Math Notes, Calculus I, "Derivatives" chapter; the answers are the forms those
sections print for that rule or example type):
  OS 3.3  Differentiation Rules         OS 3.5  Derivatives of Trigonometric Functions
  OS 3.6  The Chain Rule                OS 3.7  Derivatives of Inverse Functions
  OS 3.9  Derivatives of Exponential and Logarithmic Functions
  OS 6.9  Calculus of the Hyperbolic Functions
  Paul    Paul's Online Math Notes, Calculus I: Product and Quotient Rule, Chain Rule,
          Derivatives of Exponential and Logarithm Functions
  PRML    Bishop, Pattern Recognition and Machine Learning (2006), eq. 4.88

Run: python bench/textbook_forms.py [--markdown]
"""
from __future__ import annotations

import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))

from gradcli.api import differentiate, evaluate  # noqa: E402
from gradcli.errors import DomainError  # noqa: E402
from gradcli.language.expr import Apply, postorder  # noqa: E402
from gradcli.language.parser import parse  # noqa: E402

# (expression, the book's printed derivative d/dx, source)
CASES = [
    # powers, sums, products and quotients
    ("x^3", "3*x^2", "OS 3.3 power rule"),
    ("x^5 - 4*x^3 + 2*x - 7", "5*x^4 - 12*x^2 + 2", "OS 3.3 sum and power rules"),
    ("1/x", "-1/x^2", "OS 3.3 power rule, n = -1"),
    ("sqrt(x)", "1/(2*sqrt(x))", "OS 3.3 power rule, n = 1/2"),
    ("x^(2/3)", "2/(3*x^(1/3))", "OS 3.3 power rule, rational n"),
    ("x^2*sin(x)", "2*x*sin(x) + x^2*cos(x)", "OS 3.5 product rule with sin"),
    ("x^2*cos(x)", "2*x*cos(x) - x^2*sin(x)", "OS 3.5 product rule with cos"),
    ("(x^2 + 2)*(3*x^3 - 5*x)", "15*x^4 + 3*x^2 - 10", "OS 3.3 product rule"),
    ("x/(x + 1)", "1/(x + 1)^2", "OS 3.3 quotient rule"),
    ("(x^2 + 1)/(x - 1)", "(x^2 - 2*x - 1)/(x - 1)^2", "OS 3.3 quotient rule"),
    ("(3*x + 1)/(4*x - 3)", "-13/(4*x - 3)^2", "OS 3.3 quotient rule"),
    ("sin(x)/x", "(x*cos(x) - sin(x))/x^2", "Paul, quotient rule"),
    ("x^2/(x^2 + 1)", "2*x/(x^2 + 1)^2", "Paul, quotient rule"),
    ("(x - 1)/(x + 1)", "2/(x + 1)^2", "OS 3.3 quotient rule"),
    ("(1 - x^2)/(1 + x^2)", "-4*x/(1 + x^2)^2", "OS 3.3 quotient rule"),
    ("x/sqrt(x^2 + 1)", "1/(x^2 + 1)^(3/2)", "Paul, quotient rule with a root"),
    ("x*sqrt(x^2 + 1)", "(2*x^2 + 1)/sqrt(x^2 + 1)", "Paul, product and chain rules with a root"),
    ("x^2*sqrt(1 - x^2)", "x*(2 - 3*x^2)/sqrt(1 - x^2)", "Paul, product rule with a root"),
    # trigonometric
    ("sin(x)", "cos(x)", "OS 3.5 table"),
    ("cos(x)", "-sin(x)", "OS 3.5 table"),
    ("tan(x)", "sec(x)^2", "OS 3.5 table"),
    ("cot(x)", "-csc(x)^2", "OS 3.5 table"),
    ("sec(x)", "sec(x)*tan(x)", "OS 3.5 table"),
    ("csc(x)", "-csc(x)*cot(x)", "OS 3.5 table"),
    ("sin(x)*cos(x)", "cos(x)^2 - sin(x)^2", "OS 3.5 product of trig functions"),
    ("x*tan(x)", "tan(x) + x*sec(x)^2", "OS 3.5 product rule with tan"),
    ("sin(x)/(1 + cos(x))", "1/(1 + cos(x))", "OS 3.5 quotient rule with trig functions"),
    ("cos(x)/(1 - sin(x))", "1/(1 - sin(x))", "OS 3.5 quotient rule with trig functions"),
    # chain rule
    ("sin(x)^2", "2*sin(x)*cos(x)", "OS 3.6 power of a function"),
    ("cos(x)^2", "-2*sin(x)*cos(x)", "OS 3.6 power of a function"),
    ("sin(x)^3", "3*sin(x)^2*cos(x)", "OS 3.6 power of a function"),
    ("sin(x^2)", "2*x*cos(x^2)", "OS 3.6 function of a power"),
    ("cos(3*x)", "-3*sin(3*x)", "OS 3.6 linear inner function"),
    ("tan(2*x)", "2*sec(2*x)^2", "OS 3.6 linear inner function"),
    ("(x^2 + 1)^3", "6*x*(x^2 + 1)^2", "OS 3.6 generalised power rule"),
    ("(2*x + 3)^5", "10*(2*x + 3)^4", "OS 3.6 generalised power rule"),
    ("sqrt(x^2 + 1)", "x/sqrt(x^2 + 1)", "Paul, chain rule with a root"),
    ("sqrt(1 - x^2)", "-x/sqrt(1 - x^2)", "Paul, chain rule with a root"),
    ("1/(3*x^2 - 1)^2", "-12*x/(3*x^2 - 1)^3", "OS 3.6 generalised power rule, n = -2"),
    ("sec(x)^2", "2*sec(x)^2*tan(x)", "OS 3.6 power of a function"),
    ("tan(x)^2", "2*tan(x)*sec(x)^2", "OS 3.6 power of a function"),
    # inverse functions
    ("asin(x)", "1/sqrt(1 - x^2)", "OS 3.7 inverse trig table"),
    ("acos(x)", "-1/sqrt(1 - x^2)", "OS 3.7 inverse trig table"),
    ("atan(x)", "1/(1 + x^2)", "OS 3.7 inverse trig table"),
    ("atan(x^2)", "2*x/(1 + x^4)", "OS 3.7 inverse trig with the chain rule"),
    ("asin(2*x)", "2/sqrt(1 - 4*x^2)", "OS 3.7 inverse trig with the chain rule"),
    ("asin(x^2)", "2*x/sqrt(1 - x^4)", "OS 3.7 inverse trig with the chain rule"),
    ("atan(1/x)", "-1/(1 + x^2)", "OS 3.7 inverse trig with the chain rule"),
    ("x^2*atan(x)", "2*x*atan(x) + x^2/(1 + x^2)", "OS 3.7 product rule with arctan"),
    # exponentials and logarithms
    ("e^x", "e^x", "OS 3.9 table"),
    ("e^(2*x)", "2*e^(2*x)", "OS 3.9 exponential with the chain rule"),
    ("e^(-x)", "-e^(-x)", "OS 3.9 exponential with the chain rule"),
    ("exp(-x^2/2)", "-x*e^(-x^2/2)", "Paul, exponential with the chain rule"),
    ("e^sin(x)", "e^sin(x)*cos(x)", "OS 3.9 exponential with the chain rule"),
    ("x*e^x", "e^x + x*e^x", "Paul, product rule with e^x"),
    ("x^2*e^x", "2*x*e^x + x^2*e^x", "Paul, product rule with e^x"),
    ("e^x*sin(x)", "e^x*sin(x) + e^x*cos(x)", "Paul, product rule with e^x"),
    ("e^x/x", "e^x*(x - 1)/x^2", "Paul, quotient rule with e^x"),
    ("1/(1 + e^(-x))", "e^(-x)/(1 + e^(-x))^2", "OS 3.9 exponential with the chain rule"),
    ("2^x", "2^x*ln(2)", "OS 3.9 b^x"),
    ("ln(x)", "1/x", "OS 3.9 table"),
    ("ln(x^2 + 1)", "2*x/(x^2 + 1)", "OS 3.9 logarithm with the chain rule"),
    ("x*ln(x)", "ln(x) + 1", "OS 3.9 product rule with ln"),
    ("ln(sin(x))", "cot(x)", "Paul, logarithm with the chain rule"),
    ("ln(cos(x))", "-tan(x)", "Paul, logarithm with the chain rule"),
    ("ln(x)^2", "2*ln(x)/x", "OS 3.9 power of a logarithm"),
    ("ln(sqrt(x))", "1/(2*x)", "OS 3.9 properties of logarithms"),
    ("ln((x + 1)/(x - 1))", "-2/(x^2 - 1)", "OS 3.9 logarithm of a quotient"),
    ("x^2*ln(x)", "2*x*ln(x) + x", "OS 3.9 product rule with ln"),
    ("ln(x)/x", "(1 - ln(x))/x^2", "OS 3.9 quotient rule with ln"),
    ("sqrt(x)*ln(x)", "ln(x)/(2*sqrt(x)) + 1/sqrt(x)", "Paul, product rule with ln"),
    ("log10(x)", "1/(x*ln(10))", "OS 3.9 log_b x"),
    ("x^x", "x^x*(ln(x) + 1)", "OS 3.9 logarithmic differentiation"),
    # hyperbolic and machine learning
    ("sinh(x)", "cosh(x)", "OS 6.9 table"),
    ("cosh(x)", "sinh(x)", "OS 6.9 table"),
    ("sinh(x)^2", "2*sinh(x)*cosh(x)", "OS 6.9 with the chain rule"),
    ("tanh(x)", "1/cosh(x)^2", "OS 6.9 table (sech^2 x)"),
    ("sigmoid(x)", "sigmoid(x)*(1 - sigmoid(x))", "PRML eq. 4.88"),
]

POINTS = (0.2, 0.45, 0.8)  # inside every domain above (asin needs |2x| < 1: 0.2 and 0.45)


def operations(text: str) -> int:
    """The operator and function nodes of `text`, parsed (its last statement's, inlined)."""
    program = parse(text)
    return sum(1 for stmt in program.statements for node in postorder(stmt.expr)
               if isinstance(node, Apply))


def agree(expr: str, ours: str, book: str) -> bool:
    """Whether our printed derivative and the book's give the same numbers."""
    checked = 0
    for x in POINTS:
        try:
            want = evaluate(book, {"x": x}).value
            got = evaluate(ours, {"x": x}).value
        except DomainError:  # outside a formula's domain: compare elsewhere
            continue
        if not math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12):
            return False
        checked += 1
    return checked > 0


def run() -> list:
    rows = []
    for expr, book, source in CASES:
        ours = differentiate(expr, "x")
        mine, theirs = operations(ours), operations(book)
        rows.append({"expr": expr, "ours": ours, "book": book, "source": source,
                     "ops_ours": mine, "ops_book": theirs,
                     "ratio": mine / theirs if theirs else (1.0 if mine == 0 else math.inf),
                     "equal": agree(expr, ours, book)})
    return rows


def report(rows, markdown: bool) -> str:
    ratios = [r["ratio"] for r in rows]
    lines = []
    if markdown:
        lines.append("| f(x) | gradcli prints | book | ops ours/book | ratio | equal | source |")
        lines.append("|---|---|---|---|---|---|---|")
        for r in rows:
            lines.append(f"| `{r['expr']}` | `{r['ours']}` | `{r['book']}` | "
                         f"{r['ops_ours']}/{r['ops_book']} | {r['ratio']:.2f} | "
                         f"{'yes' if r['equal'] else 'NO'} | {r['source']} |")
    else:
        for r in rows:
            lines.append(f"{r['ratio']:5.2f}  {r['ops_ours']:2d}/{r['ops_book']:<2d} "
                         f"{'ok ' if r['equal'] else 'NO '} {r['expr']:<26} {r['ours']:<34} "
                         f"book: {r['book']}")
    over = [r for r in rows if r["ratio"] > 1.5]
    worst = max(rows, key=lambda r: r["ratio"])
    lines.append("")
    lines.append(f"{len(rows)} derivatives; operations ours/book: median "
                 f"{statistics.median(ratios):.2f}, worst {worst['ratio']:.2f} "
                 f"(`{worst['expr']}`); mean {statistics.mean(ratios):.2f}; "
                 f"shorter than the book {sum(x < 1 for x in ratios)}, as long "
                 f"{sum(x == 1 for x in ratios)}, longer {sum(x > 1 for x in ratios)}.")
    listed = ", ".join("`%s` (%.2f)" % (r["expr"], r["ratio"]) for r in over)
    lines.append(f"Over 1.5x: {listed or 'none'}.")
    bad = [r for r in rows if not r["equal"]]
    lines.append(f"Numerically equal to the book's answer at x = "
                 f"{', '.join(map(str, POINTS))}: {len(rows) - len(bad)} of {len(rows)}"
                 + (f" (not: {', '.join(r['expr'] for r in bad)})" if bad else "") + ".")
    return "\n".join(lines)


def main() -> None:
    rows = run()
    print(report(rows, "--markdown" in sys.argv))


if __name__ == "__main__":
    main()
