"""An adversarial harness: thousands of generated inputs, each judged by SymPy.

    python bench/adversarial.py [--per-family N] [--seed S] [--examples K] [--subprocess M]
                                [--only CATEGORY] [--json FILE]

Every input comes from a generator that builds, side by side, the text a person
would type (printed-math notation, named functions, a homework command and its
answer) and the SymPy expression that text MEANS, from the generator's own
structure (never by reading gradcli's output back). gradcli runs in-process
through click's CliRunner (a sample also through the installed entry point) and
each answer is judged:

- ``right``: exit 0 and every number/verdict agrees with SymPy (1e-9 relative);
- ``refused``: exit 2/3 where that is what the rules ask (an ambiguous form, a
  value undefined at the point, a misspelt function);
- ``warned``: exit 0 with a warning where a warning is what the rules ask;
- ``silent-wrong``: exit 0, no warning, and a number, derivative or verdict that
  SymPy contradicts, or an ambiguous form read without a word;
- ``wrong-warned``: exit 0, a warning, and a wrong number (the warning saves it
  only where it says the result is imprecise);
- ``rejected-right``: ``check`` says a right answer is wrong (exit 1);
- ``refused-unexpectedly``: exit 2/3 for an input that has one reading and a value;
- ``misleading``: the right exit code with a message that points the wrong way;
- ``weak``: an honest but incomplete answer (a critical point left "inconclusive"
  where a higher-order test decides, a point of the box not found);
- ``crash``: exit 4 or an exception.

It prints counts per category and outcome, then each failure class (generator
family and outcome) with its first examples: the command, what gradcli said and
what SymPy says. Exit status 0 when there is no silent wrong answer, else 1.
"""
from __future__ import annotations

import argparse
import collections
import json
import math
import os
import random
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Callable

import sympy as sp
from sympy.printing.str import StrPrinter

X, Y, Z, T, W = sp.symbols("x y z t w", real=True)
SYM = {"x": X, "y": Y, "z": Z, "t": T, "w": W}
REL = 1e-9

# ------------------------------------------------------------------ printing SymPy as input


class _LangPrinter(StrPrinter):
    """SymPy in gradcli's language: e for E, abs for Abs, ln kept as log (natural)."""

    def _print_Exp1(self, expr):
        return "e"

    def _print_Abs(self, expr):
        return "abs(%s)" % self._print(expr.args[0])

    def _print_Heaviside(self, expr):
        return "step(%s)" % self._print(expr.args[0])


def lang(expr) -> str:
    return _LangPrinter().doprint(expr)


def num(expr, prec=40):
    """A SymPy number to a complex with `prec` digits, or None when undefined."""
    try:
        v = sp.N(expr, prec)
    except (ZeroDivisionError, ValueError, TypeError):
        return None
    if v.has(sp.zoo, sp.oo, -sp.oo, sp.nan) or not v.is_number:
        return None
    c = complex(v)
    if not (math.isfinite(c.real) and math.isfinite(c.imag)):
        return None
    return c


def real_at(expr, point):
    # evalf with subs= keeps huge exact rationals (a double such as 1e-17) out of
    # SymPy's automatic simplification, which can take minutes on (1 + x)^(1/x)
    subs = {SYM[k]: v for k, v in point.items()}
    if subs and all(getattr(v, "is_Rational", False) and abs(v.q) < 10 ** 6
                    for v in subs.values()):
        # undefined at the point exactly (ln|x - 1| at x = 1): evalf's subs= would
        # give a large finite number there
        try:
            exact = sp.sympify(expr).subs(subs)
        except (ZeroDivisionError, ValueError, TypeError):
            exact = None
        if exact is not None and exact.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            return None
    try:
        v = num(sp.sympify(expr).evalf(40, subs=subs) if subs else expr)
    except (ZeroDivisionError, ValueError, TypeError):
        v = None
    if v is None or abs(v.imag) > 1e-12 * max(1.0, abs(v.real)):
        return None
    return v.real


def close(got, want, rel=REL, abs_=1e-11):
    if got is None or want is None:
        return False
    if isinstance(got, str):
        try:
            got = float(got)
        except ValueError:
            return False
    return abs(got - want) <= rel * max(abs(want), abs(got)) + abs_


def rounded(value: float | sp.Expr, k: int) -> str | None:
    """`value` correctly rounded to k significant digits, as a decimal string; None
    near a rounding tie (where the double and the true value could round apart)."""
    d = Decimal(str(sp.N(value, 50)))
    if d == 0:
        return None
    exp = d.adjusted()
    q = Decimal(1).scaleb(exp - k + 1)
    r = d.quantize(q, rounding=ROUND_HALF_EVEN)
    # a tie within 1e-12 relative: skip
    frac = abs((d - r) / q)
    if abs(frac - Decimal("0.5")) < Decimal("1e-6"):
        return None
    s = format(r, "f") if -6 < exp < 12 else format(r, "E")
    if "." not in s and "E" not in s and r != d:
        return None  # 2980 for e^8: a whole number is read as exact, not as rounded
    return s


def point_text(point: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in point.items())


def rand_point(rng, names, lo=0.3, hi=1.7):
    return {n: Fraction(rng.randint(int(lo * 100), int(hi * 100)), 100) for n in names}


def frac_text(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{float(f)!r}"


def pt(point):
    """A point of Fractions to `--at` text and a SymPy substitution."""
    return {k: frac_text(v) for k, v in point.items()}, {k: sp.Rational(v.numerator, v.denominator)
                                                          for k, v in point.items()}


# ------------------------------------------------------------------ running gradcli


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    error: str | None = None

    @property
    def warned(self) -> bool:
        return "warning" in self.stderr.lower()

    def json(self):
        try:
            return json.loads(self.stdout)
        except ValueError:
            return None


_RUNNER = None


def run_cli(args: list[str]) -> Run:
    global _RUNNER
    from click.testing import CliRunner

    from gradcli.cli import main
    if _RUNNER is None:
        _RUNNER = CliRunner()
    r = _RUNNER.invoke(main, args)
    err = None
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        err = f"{type(r.exception).__name__}: {r.exception}"
    return Run(r.exit_code, r.stdout, r.stderr, err)


def run_subprocess(args: list[str]) -> Run:
    exe = os.path.join(os.path.dirname(sys.executable), "gradcli")
    p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=120)
    return Run(p.returncode, p.stdout, p.stderr)


# ------------------------------------------------------------------ cases


@dataclass
class Case:
    category: str            # notation | named | homework | check | messages | numerics
    family: str              # the generator that made it (a failure class is family+outcome)
    args: list[str]
    judge: Callable[[Run], tuple[str, str]]   # -> (outcome, what SymPy says)
    note: str = ""


def cmdline(args):
    return "gradcli " + " ".join(shlex.quote(a) for a in args)


def said(r: Run, limit=220) -> str:
    out = r.stdout.strip().replace("\n", " | ")
    err = r.stderr.strip().replace("\n", " | ")
    s = f"[exit {r.code}] {out[:limit]}"
    if err:
        s += f"  stderr: {err[:limit]}"
    if r.error:
        s += f"  exception: {r.error}"
    return s


def _common(r: Run):
    if r.error or r.code == 4:
        return "crash"
    return None


# judges ------------------------------------------------------------


def judge_eval(f, names, subs, want_warning=False, ambiguous=False, overflow_ok=False):
    """eval -o json: the value and every partial against SymPy at the point."""
    value = real_at(f, subs)
    grads = {n: real_at(sp.diff(f, SYM[n]), subs) for n in names}
    defined = value is not None and all(g is not None for g in grads.values())
    expect = f"value {value!r}, gradient {grads}"

    def judge(r: Run):
        c = _common(r)
        if c:
            return c, expect
        if r.code in (2, 3):
            if ambiguous or (not defined and r.code == 3) or (overflow_ok and r.code == 3):
                return "refused", expect
            return "refused-unexpectedly", expect
        if r.code != 0:
            return "crash", expect
        rec = r.json() or {}
        ok = defined and close(rec.get("value"), value) and all(
            close((rec.get("gradient") or {}).get(n), g) for n, g in grads.items())
        if ambiguous:
            return ("warned" if r.warned else "silent-wrong"), expect + " (ambiguous: refuse or warn)"
        if ok:
            if want_warning and not r.warned:
                return "silent-wrong", expect + " (and a warning)"
            return ("warned" if want_warning else "right"), expect
        return ("wrong-warned" if r.warned else "silent-wrong"), expect
    return judge


def judge_refuse(expect_text, bad_words=("add --at", "no values for")):
    def judge(r: Run):
        c = _common(r)
        if c:
            return c, expect_text
        if r.code == 2:
            low = r.stderr.lower()
            if any(w in low for w in bad_words):
                return "misleading", expect_text
            return "refused", expect_text
        if r.code == 0:
            return "silent-wrong", expect_text
        return "refused-unexpectedly", expect_text
    return judge


def judge_check(right: bool, expect_text: str):
    def judge(r: Run):
        c = _common(r)
        if c:
            return c, expect_text
        if r.code == 0:
            return ("right" if right else "silent-wrong"), expect_text
        if r.code == 1:
            return ("right" if not right else "rejected-right"), expect_text
        if r.code == 3 and not right:
            return "refused", expect_text
        return "refused-unexpectedly", expect_text
    return judge


# ------------------------------------------------------------------ (a) notation

VARS = ["x", "y", "t", "z", "w"]
# one-argument functions: name as typed, SymPy, safe on (0.3, 1.7) and products thereof
F1 = [("sin", sp.sin), ("cos", sp.cos), ("tan", sp.tan), ("ln", sp.log), ("sec", sp.sec),
      ("sinh", sp.sinh), ("cosh", sp.cosh), ("tanh", sp.tanh), ("atan", sp.atan),
      ("exp", sp.exp), ("csc", sp.csc), ("cot", sp.cot), ("log", sp.log), ("sqrt", sp.sqrt)]
INV = [("sin", sp.asin, "asin"), ("tan", sp.atan, "atan"), ("cos", sp.acos, "acos"),
       ("sinh", sp.asinh, "asinh"), ("sec", sp.asec, "asec")]
SUP = {"2": "²", "3": "³", "4": "⁴"}


def two_vars(rng):
    a, b = rng.sample(VARS, 2)
    return a, b


def fam_notation(rng) -> tuple[str, str, sp.Expr, list[str], dict]:
    """(family, text, SymPy meaning, variables, flags) for one printed-math form."""
    v, u = two_vars(rng)
    V, U = SYM[v], SYM[u]
    c = rng.randint(2, 9)
    d = rng.randint(1, 9)
    n = rng.randint(2, 4)
    fn, F = rng.choice(F1)
    gn, G = rng.choice(F1)
    forms = [
        ("juxt-number", f"{c}{v}", c * V, [v], {}),
        ("juxt-power", f"{c}{v}^{n}", c * V ** n, [v], {}),
        ("juxt-power-var", f"{v}^{n}{u}", V ** n * U, [v, u], {}),
        ("juxt-space", f"{v} {u}", V * U, [v, u], {}),
        ("juxt-paren", f"({v} + {c})({u} - {d})", (V + c) * (U - d), [v, u], {}),
        ("juxt-number-paren", f"{c}({v} + {d})", c * (V + d), [v], {}),
        ("juxt-var-paren", f"{v}({u} + {c})", V * (U + c), [v, u], {}),
        ("juxt-calls", f"{fn}({v}){gn}({v})", F(V) * G(V), [v], {}),
        ("juxt-var-call", f"{v} {fn}({v})", V * F(V), [v], {}),
        ("juxt-neg-call", f"-{c}{fn}({c}{v}){gn}({c}{v})", -c * F(c * V) * G(c * V), [v], {}),
        ("juxt-paren-var", f"({v} + {c}){u}", (V + c) * U, [v, u], {}),
        ("juxt-epow-var", f"e^{v} {u}^{n}", sp.exp(V) * U ** n, [v, u], {}),
        ("juxt-numpow-call", f"{c}^{v} ln({c})", c ** V * sp.log(c), [v], {}),
        ("div-juxt", f"1/{c}{v}", V / c, [v], {"warn_ok": True}),
        ("div-juxt-paren", f"{c * d}/{c}({v} + 1)", sp.Rational(c * d, c) * (V + 1), [v],
         {"warn_ok": True}),
        ("bare-fn", f"{fn} {v}", F(V), [v], {}),
        ("bare-fn-coef", f"{fn} {c}{v}", F(c * V), [v], {}),
        ("bare-fn-power", f"{fn} {v}^{n}", F(V ** n), [v], {}),
        ("bare-fn-glued", f"{fn} {v}{u}", F(V * U), [v, u], {}),
        ("bare-fn-product", f"{fn} {v} {gn} {v}", F(V) * G(V), [v], {}),
        ("bare-fn-after-var", f"{v} {fn} {v}", V * F(V), [v], {}),
        ("bare-fn-plus", f"{fn} {v} + {c}", F(V) + c, [v], {}),
        ("bare-fn-nested", f"{fn} {gn} {v}", F(G(V)), [v], {}),
        ("bare-fn-sign", f"{fn} -{v}", F(-V), [v], {}),
        ("bare-fn-space-paren", f"{fn} ({v} + {d})", F(V + d), [v], {}),
        ("bare-fn-frac", f"cos {v}/(2√sin {v})", sp.cos(V) / (2 * sp.sqrt(sp.sin(V))), [v], {}),
        ("bare-fn-power-glued", f"tan {v}^{n}{u}", sp.tan(V ** n * U), [v, u], {}),
        ("fn-power", f"{fn}^{n} {v}", F(V) ** n, [v], {}),
        ("fn-power-paren", f"{fn}^{n}({v} + {d})", F(V + d) ** n, [v], {}),
        ("fn-power-stars", f"{fn}**{n}({v})", F(V) ** n, [v], {}),
        ("fn-power-sup", f"{fn}{SUP[str(n)]}{v}", F(V) ** n, [v], {}),
        ("glued-2", f"{v}{u}", V * U, [], {}),
        ("glued-coef-power", f"{c}{v}{u}^{n}", c * V * U ** n, [], {}),
        ("glued-e", f"{c}{v}e^{v}", c * V * sp.exp(V), [], {}),
        ("glued-ex", f"{c}e{v}", c * sp.E * V, [v], {}),
        ("radical", f"√{v}", sp.sqrt(V), [v], {}),
        ("radical-paren", f"√({v} + {d})", sp.sqrt(V + d), [v], {}),
        ("radical-fn", f"√{fn} {v}", sp.sqrt(F(V)), [v], {}),
        ("radical-cbrt", f"∛({v} - {d})", sp.real_root(V - d, 3), [v], {}),
        ("radical-coef", f"{c}√{v}", c * sp.sqrt(V), [v], {}),
        ("radical-number-var", f"√{c} {v}", sp.sqrt(c) * V, [v], {}),
        ("radical-number-paren", f"√{c}({v} - π/4)", sp.sqrt(c) * (V - sp.pi / 4), [v], {}),
        ("radical-number-e", f"{d}√{c} e^{{-{v}}}", d * sp.sqrt(c) * sp.exp(-V), [v], {}),
        ("radical-half", f"(1/{d})√{c} {v}", sp.sqrt(c) / d * V, [v], {}),
        ("superscript", f"{v}{SUP[str(n)]}", V ** n, [v], {}),
        ("superscript-neg", f"{v}⁻¹ + {v}²", 1 / V + V ** 2, [v], {}),
        ("superscript-e", f"e⁻² {v}", sp.exp(-2) * V, [v], {}),
        ("abs", f"|{v} - {d}|", sp.Abs(V - d), [v], {"warn_ok": True}),
        ("abs-coef", f"{c}|{v}|", c * sp.Abs(V), [v], {}),
        ("abs-fn", f"ln|{v} - {d}|", sp.log(sp.Abs(V - d)), [v], {"warn_ok": True}),
        ("exp-var", f"e^{v}", sp.exp(V), [v], {}),
        ("exp-paren", f"e^({c}{v})", sp.exp(c * V), [v], {}),
        ("exp-neg", f"e^-{v}", sp.exp(-V), [v], {}),
        ("exp-brace", f"e^{{{c}{v}{u}}}", sp.exp(c * V * U), [v, u], {}),
        ("exp-sup", f"e^({v}^{n})", sp.exp(V ** n), [v], {}),
        ("log-base", f"log_{c}({v})", sp.log(V, c), [v], {}),
        ("log-base-bare", f"log_{c} {v}", sp.log(V, c), [v], {}),
        ("log-base-brace", f"log_{{{c}}}({v} + {d})", sp.log(V + d, c), [v], {}),
        ("log-natural", f"log {v}", sp.log(V), [v], {"warn_ok": True}),
        ("ln-bare", f"ln {c}{v}", sp.log(c * V), [v], {}),
        ("inverse-fn", None, None, [v], {}),
        ("grouping-brace", f"{{{v} + {d}}}^{n}", (V + d) ** n, [v], {}),
        ("grouping-bracket", f"[ln({v})]^{n}", sp.log(V) ** n, [v], {}),
        ("symbols-unicode", f"{c}·{v} × {u} − π÷{d}", c * V * U - sp.pi / d, [v, u], {}),
        ("sigma", f"σ({v})(1 - σ({v}))", 1 / (1 + sp.exp(-V)) * (1 - 1 / (1 + sp.exp(-V))), [v], {}),
        ("pi-juxt", f"{c}π{v}", c * sp.pi * V, [v], {}),
        ("enotation", f"{c}e-{d} + {v}", c * sp.Rational(1, 10 ** d) + V, [v], {}),
        # the ambiguous forms of the amendments: refuse, or warn
        ("amb-e-num-var", f"e^{c}{v}", None, [v], {"ambiguous": True}),
        ("amb-e-neg-num-var", f"e^-{c}{v}", None, [v], {"ambiguous": True}),
        ("amb-e-decimal-var", f"e^0.5{v}", None, [v], {"ambiguous": True}),
        ("amb-e-two-vars", f"e^{v}{u}", None, [v, u], {"ambiguous": True}),
        ("amb-ten-neg", f"10^-{c}{v}", None, [v], {"ambiguous": True}),
        ("amb-num-num-var", f"{c}^{d}{v}", None, [v], {"ambiguous": True}),
        ("amb-half-root", f"{v}^1/{n}", V / n, [v], {"want_warning": True}),
        ("amb-neg-half-root", f"{v}^-1/{n}", 1 / V / n, [v], {"want_warning": True}),
        ("amb-radical-minus", f"√1 - {v}^2", 1 - V ** 2, [v], {"want_warning": True}),
        ("amb-enotation-neg", f"{c}e-{d}{v}", c * sp.Rational(1, 10 ** d) * V, [v],
         {"want_warning": True}),
        ("amb-enotation-pos", f"{c}e{d}{v}", c * 10 ** d * V, [v], {"want_warning": True}),
    ]
    fam, text, expr, names, flags = rng.choice(forms)
    if fam == "inverse-fn":
        name, finv, _ = rng.choice(INV)
        style = rng.choice(["^-1 ", "^(-1)", "⁻¹"])
        flags = {"want_warning": True}
        if name == "sec":
            text, expr = f"{name}{style}({v} + 1)", finv(V + 1)
        elif style == "^(-1)":
            text, expr = f"{name}^(-1)({v}/{c + 1})", finv(V / (c + 1))
        else:
            text, expr = f"{name}{style}{v}", finv(V)
            if name in ("sin", "cos"):
                flags["small"] = True  # asin and acos need |x| <= 1
    if fam in ("glued-2", "glued-coef-power"):
        names = [v, u]
    elif fam == "glued-e":
        names = [v]
    return fam, text, expr, names, flags


def gen_notation(rng) -> Case:
    fam, text, expr, names, flags = fam_notation(rng)
    hi = 0.95 if flags.get("small") else 1.7
    point = rand_point(rng, names, 0.3, hi)
    at, subs = pt(point)
    args = ["eval", text, "--at", point_text(at), "-o", "json"]
    if flags.get("ambiguous"):
        judge = judge_eval(sp.Integer(0), names, subs, ambiguous=True)
    else:
        judge = judge_eval(expr, names, subs, want_warning=flags.get("want_warning", False))
        if flags.get("warn_ok"):
            inner = judge

            def judge(r, inner=inner):
                o, e = inner(r)
                return ("right" if o == "warned" else o), e
    return Case("notation", fam, args, judge)


# ------------------------------------------------------------------ (b) named functions

ONE_VAR = [  # printed text in x, SymPy (positive x keeps them defined)
    ("x^2 sin x", X ** 2 * sp.sin(X)), ("3x^2 - 2x + 1", 3 * X ** 2 - 2 * X + 1),
    ("e^x cos x", sp.exp(X) * sp.cos(X)), ("ln x/x", sp.log(X) / X),
    ("√x + 1/x", sp.sqrt(X) + 1 / X), ("x e^(-x)", X * sp.exp(-X)),
    ("sin^2 x", sp.sin(X) ** 2), ("tan 2x", sp.tan(2 * X)), ("(x^2 + 1)^3", (X ** 2 + 1) ** 3),
    ("x ln x - x", X * sp.log(X) - X), ("1/(1 + x^2)", 1 / (1 + X ** 2)),
    ("sin x cos x", sp.sin(X) * sp.cos(X)), ("2^x", 2 ** X), ("x^3/3", X ** 3 / 3),
    ("√(x^2 + 1)", sp.sqrt(X ** 2 + 1)), ("tan^-1 x", sp.atan(X)), ("x^x", X ** X),
    ("cosh x - sinh x", sp.cosh(X) - sp.sinh(X)), ("x²√x", X ** 2 * sp.sqrt(X)),
    ("ln(x^2 + 1)", sp.log(X ** 2 + 1)), ("e^(x^2)", sp.exp(X ** 2)),
    ("x/(x + 1)", X / (X + 1)), ("sec x", sp.sec(X)), ("3sin(2x) + cos x", 3 * sp.sin(2 * X) + sp.cos(X)),
]
TWO_VAR = [
    ("x^2 y", X ** 2 * Y), ("x^2 + 3x y - y^2", X ** 2 + 3 * X * Y - Y ** 2),
    ("e^x sin y", sp.exp(X) * sp.sin(Y)), ("ln(x^2 + y^2)", sp.log(X ** 2 + Y ** 2)),
    ("x y^3 - x^2", X * Y ** 3 - X ** 2), ("√(x^2 + y^2)", sp.sqrt(X ** 2 + Y ** 2)),
    ("x cos(x y)", X * sp.cos(X * Y)), ("e^(x y)", sp.exp(X * Y)),
    ("x/y + y/x", X / Y + Y / X), ("sin x cos y", sp.sin(X) * sp.cos(Y)),
    ("x^3 - 3x y + 4y^2", X ** 3 - 3 * X * Y + 4 * Y ** 2), ("tan^-1(y/x)", sp.atan(Y / X)),
    ("2x^2 + y^2", 2 * X ** 2 + Y ** 2), ("x e^y + y e^x", X * sp.exp(Y) + Y * sp.exp(X)),
]


def gen_named(rng) -> Case:
    kind = rng.randrange(7)
    a = Fraction(rng.randint(30, 170), 100)
    b = Fraction(rng.randint(30, 170), 100)
    A, B = sp.Rational(a.numerator, a.denominator), sp.Rational(b.numerator, b.denominator)
    fname = rng.choice(["f", "g", "h", "p"])
    if kind <= 3:
        text, f = rng.choice(ONE_VAR)
        var = rng.choice(["x", "t", "s"])
        fv = sp.Symbol(var, real=True)
        text, f = text.replace("x", var), f.subs(X, fv)
        fam, want = [("named-value", f), ("named-prime", sp.diff(f, fv)),
                     ("named-second", sp.diff(f, fv, 2)), ("named-prime-at", sp.diff(f, fv))][kind]
        primes = {"named-value": "", "named-prime": "'", "named-second": "''",
                  "named-prime-at": "'"}[fam]
        if fam == "named-prime-at":
            prog = f"{fname}({var}) = {text}; {fname}'({var})"
            args = ["eval", prog, "--at", f"{var}={frac_text(a)}", "-o", "json"]
            value = real_at(want.subs(fv, A), {})
            judge = _judge_value_only(value, f"{fname}'({frac_text(a)}) = {value!r}")
            return Case("named", fam, args, judge)
        prog = f"{fname}({var}) = {text}; {fname}{primes}({frac_text(a)})"
        value = real_at(want.subs(fv, A), {})
        return Case("named", fam, ["eval", prog, "-o", "json"],
                    _judge_value_only(value, f"{value!r}"))
    text, f = rng.choice(TWO_VAR)
    wrt = rng.choice(["x", "y", "xy"]) if kind == 4 else rng.choice(["x", "y"])
    want = f
    for ch in wrt:
        want = sp.diff(want, SYM[ch])
    if kind == 6:
        fam = "named-tangent"
        args = ["tangent", f"{fname}(x, y) = {text}", "--at", f"x={frac_text(a)},y={frac_text(b)}",
                "-o", "json"]
        return Case("named", fam, args, judge_eval(f, ["x", "y"], {"x": A, "y": B}))
    fam = "named-partial" if len(wrt) == 1 else "named-partial-mixed"
    prog = f"{fname}(x, y) = {text}; {fname}_{wrt}({frac_text(a)}, {frac_text(b)})"
    value = real_at(want, {"x": A, "y": B})
    return Case("named", fam, ["eval", prog, "-o", "json"], _judge_value_only(value, f"{value!r}"))


def _judge_value_only(value, expect):
    def judge(r: Run):
        c = _common(r)
        if c:
            return c, expect
        if r.code in (2, 3):
            return ("refused" if value is None and r.code == 3 else "refused-unexpectedly"), expect
        rec = r.json() or {}
        if close(rec.get("value"), value):
            return "right", expect
        return ("wrong-warned" if r.warned else "silent-wrong"), expect
    return judge


# ------------------------------------------------------------------ (c) homework commands


def _fx(rng, two=False):
    text, f = rng.choice(TWO_VAR if two else ONE_VAR)
    return text, f


def gen_diff(rng) -> Case:
    two = rng.random() < 0.4
    text, f = _fx(rng, two)
    names = ["x", "y"] if two else ["x"]
    at, subs = pt(rand_point(rng, names))
    wants = {n: real_at(sp.diff(f, SYM[n]), subs) for n in names}
    args = ["diff", text, "--at", point_text(at), "-o", "json"]

    def judge(r: Run):
        c = _common(r)
        if c:
            return c, str(wants)
        if r.code != 0:
            return "refused-unexpectedly", str(wants)
        vals = (r.json() or {}).get("values") or {}
        ok = all(close(vals.get(n), w) for n, w in wants.items())
        return ("right" if ok else ("wrong-warned" if r.warned else "silent-wrong")), str(wants)
    return Case("homework", "diff-at", args, judge)


def gen_tangent(rng) -> Case:
    two = rng.random() < 0.4
    text, f = _fx(rng, two)
    names = ["x", "y"] if two else ["x"]
    at, subs = pt(rand_point(rng, names))
    base = judge_eval(f, names, subs)
    rhs_want = real_at(f, subs)
    grad = {n: real_at(sp.diff(f, SYM[n]), subs) for n in names}
    probe = {n: v + sp.Rational(37, 100) for n, v in subs.items()}
    lin = rhs_want + sum(grad[n] * float(probe[n] - subs[n]) for n in names)

    def judge(r: Run):
        o, e = base(r)
        if o != "right":
            return o, e
        eq = (r.json() or {}).get("equation", "")
        try:
            rhs = sp.sympify(eq.split("=", 1)[1].replace("^", "**"), locals=dict(SYM, e=sp.E))
            got = real_at(rhs, probe)
        except Exception:  # noqa: BLE001 - an equation SymPy cannot read is reported
            return "silent-wrong", e + f"; equation {eq!r} unreadable"
        if close(got, lin, abs_=1e-9):
            return "right", e
        return "silent-wrong", e + f"; equation at {probe}: {lin!r}"
    return Case("homework", "tangent" + ("-plane" if two else "-line"),
                ["tangent", text, "--at", point_text(at), "-o", "json"], judge)


def taylor_terms(f, names, subs, order):
    """{powers tuple: coefficient} of the Taylor polynomial of f about subs."""
    h = sp.Symbol("h_")
    shifted = f.subs({SYM[n]: subs[n] + h * sp.Symbol("d_" + n) for n in names}, simultaneous=True)
    series = sp.series(shifted, h, 0, order + 1).removeO()
    poly = sp.Poly(sp.expand(series.subs(h, 1)), *[sp.Symbol("d_" + n) for n in names])
    return {m: c for m, c in poly.terms()}


TAYLOR_FUNCS = [("e^x", sp.exp(X)), ("sin x", sp.sin(X)), ("cos x", sp.cos(X)), ("ln x", sp.log(X)),
                ("√x", sp.sqrt(X)), ("1/x", 1 / X), ("x^3 - 2x", X ** 3 - 2 * X),
                ("tan^-1 x", sp.atan(X)), ("e^(2x)", sp.exp(2 * X)), ("x e^x", X * sp.exp(X)),
                ("∛x", sp.cbrt(X)), ("1/(1 - x)", 1 / (1 - X)), ("sin x + cos x", sp.sin(X) + sp.cos(X)),
                ("cosh x", sp.cosh(X)), ("ln(1 + x)", sp.log(1 + X)), ("sec x", sp.sec(X))]
TAYLOR_POINTS = [0, 1, sp.Rational(1, 2), 2, 8, 4]


def _taylor_setup(rng):
    if rng.random() < 0.25:
        text, f = rng.choice(TWO_VAR[:10])
        names = ["x", "y"]
        safe = not any(ch in text for ch in ("ln", "/", "√"))
        subs = {"x": rng.choice([0, 1, 2]) if safe else 1, "y": rng.choice([0, 1]) if safe else 1}
        subs = {k: sp.Integer(v) for k, v in subs.items()}
        order = rng.randint(1, 3)
    else:
        text, f = rng.choice(TAYLOR_FUNCS)
        names = ["x"]
        a = rng.choice(TAYLOR_POINTS)
        if text in ("ln x", "√x", "1/x", "∛x") and a == 0:
            a = 1
        if text == "1/(1 - x)" and a == 1:
            a = 0
        subs = {"x": sp.Integer(a) if a == int(a) else a}
        order = rng.randint(1, 5)
    return text, f, names, subs, order


def gen_taylor(rng) -> Case:
    text, f, names, subs, order = _taylor_setup(rng)
    terms = taylor_terms(f, names, subs, order)
    want = {m: float(c) for m, c in terms.items() if c != 0}
    args = ["taylor", text, "--at", point_text({k: lang(v) for k, v in subs.items()}),
            "--order", str(order), "-o", "json"]

    def judge(r: Run):
        c = _common(r)
        if c:
            return c, str(want)
        if r.code != 0:
            return "refused-unexpectedly", str(want)
        got = {}
        for term in (r.json() or {}).get("terms", []):
            key = tuple(term["powers"].get(n, 0) for n in names)
            got[key] = term["coefficient"]
        keys = set(want) | {k for k, v in got.items() if v != 0}
        ok = all(close(got.get(k, 0.0), want.get(k, 0.0), abs_=1e-12) for k in keys)
        return ("right" if ok else ("wrong-warned" if r.warned else "silent-wrong")), str(want)
    return Case("homework", "taylor", args, judge)


def gen_direction(rng) -> Case:
    text, f = rng.choice(TWO_VAR)
    at, subs = pt(rand_point(rng, ["x", "y"]))
    v = rng.choice([(3, 4), (1, 1), (1, -2), (-5, 12), (2, 0), (0, -1)])
    norm = sp.sqrt(v[0] ** 2 + v[1] ** 2)
    want = real_at((sp.diff(f, X) * v[0] + sp.diff(f, Y) * v[1]) / norm, subs)
    args = ["eval", text, "--at", point_text(at), "--direction", f"{v[0]},{v[1]}", "-o", "json"]

    def judge(r: Run):
        c = _common(r)
        if c:
            return c, repr(want)
        if r.code != 0:
            return "refused-unexpectedly", repr(want)
        got = ((r.json() or {}).get("directional") or {}).get("derivative")
        return ("right" if close(got, want) else "silent-wrong"), repr(want)
    return Case("homework", "eval-direction", args, judge)


# implicit curves: F(x, y) text, SymPy, and points where they are evaluated (integers,
# or y = 0 where the transcendental parts are 1 or 0)
CURVES = [
    ("x^2 + y^2", X ** 2 + Y ** 2, [(3, 4), (-3, 4), (5, 0), (1, 2)]),
    ("x^3 + y^3 - 6x y", X ** 3 + Y ** 3 - 6 * X * Y, [(3, 3), (1, 2), (2, -1)]),
    ("x^2e^y + 4x cos(y)", X ** 2 * sp.exp(Y) + 4 * X * sp.cos(Y), [(1, 0), (2, 0), (-1, 0)]),
    ("x^2 y + y^3", X ** 2 * Y + Y ** 3, [(1, 1), (2, 1), (0, 2)]),
    ("x sin y + y", X * sp.sin(Y) + Y, [(1, 0), (3, 0)]),
    ("x y", X * Y, [(1, 1), (2, 3), (-1, 4)]),
    ("x^2 - x y + y^2", X ** 2 - X * Y + Y ** 2, [(1, 1), (2, 1), (1, -1)]),
    ("y^2 - x^3 - x", Y ** 2 - X ** 3 - X, [(1, 1), (2, 3)]),
    ("e^(x y) + y", sp.exp(X * Y) + Y, [(1, 0), (0, 1)]),
    ("√(x y) + x", sp.sqrt(X * Y) + X, [(1, 1), (4, 1), (2, 2)]),
]


def _curve(rng):
    text, F, pts = rng.choice(CURVES)
    x0, y0 = rng.choice(pts)
    G = F.subs({X: x0, Y: y0})
    return text, F, x0, y0, G


def gen_implicit(rng) -> Case:
    text, F, x0, y0, G = _curve(rng)
    eq = f"{text} = {lang(G)}"
    fx, fy = sp.diff(F, X), sp.diff(F, Y)
    fy0 = fy.subs({X: x0, Y: y0})
    want = None if fy0 == 0 else real_at(-fx / fy, {"x": x0, "y": y0})
    no_wrt = rng.random() < 0.15
    args = ["implicit", eq] + ([] if no_wrt else ["--wrt", "x"]) + ["--at", f"x={x0},y={y0}", "-o", "json"]
    fam = "implicit" + ("-no-wrt" if no_wrt else "")

    def judge(r: Run):
        c = _common(r)
        if c:
            return c, repr(want)
        if r.code == 3:
            return ("refused" if want is None else "refused-unexpectedly"), repr(want)
        if r.code != 0:
            return "refused-unexpectedly", repr(want)
        got = (r.json() or {}).get("value")
        return ("right" if close(got, want) else "silent-wrong"), repr(want)
    return Case("homework", fam, args, judge)


# critical points: f built around known points, with kinds known from the construction
def _critical_problem(rng):
    p, q = rng.randint(-2, 2), rng.randint(-2, 2)
    P, Q = sp.Integer(p), sp.Integer(q)
    kind = rng.randrange(5)
    xs, ys = (X - P), (Y - Q)
    if kind == 0:  # quadratic with a known kind
        a, b = rng.choice([1, 2, 3]), rng.choice([1, 2, 3])
        sa, sb = rng.choice([1, -1]), rng.choice([1, -1])
        f = sa * a * xs ** 2 + sb * b * ys ** 2
        pts = {(P, Q): "min" if sa > 0 and sb > 0 else "max" if sa < 0 and sb < 0 else "saddle"}
    elif kind == 1:  # cubic in x: x = p ± 1
        s = rng.choice([1, -1])
        f = xs ** 3 - 3 * xs + s * ys ** 2
        pts = {(P + 1, Q): "min" if s > 0 else "saddle", (P - 1, Q): "saddle" if s > 0 else "max"}
    elif kind == 2:  # degenerate extrema, decided by a higher-order test
        m, k = rng.choice([(4, 2), (6, 2), (4, 6), (4, 4), (6, 4)])
        s = rng.choice([1, -1])
        f = s * (xs ** m + ys ** k)
        pts = {(P, Q): "min" if s > 0 else "max"}
    elif kind == 3:  # x^4 + y^4 - 4xy + 1 family
        f = X ** 4 + Y ** 4 - 4 * X * Y + 1
        pts = {(sp.Integer(-1), sp.Integer(-1)): "min", (sp.Integer(0), sp.Integer(0)): "saddle",
               (sp.Integer(1), sp.Integer(1)): "min"}
    else:  # mixed term
        m = rng.choice([3, 1])
        f = xs ** 2 + m * xs * ys + ys ** 2
        pts = {(P, Q): "saddle" if 4 - m * m < 0 else "min"}
        f = sp.expand(f) if rng.random() < 0.5 else f
    lo = min(pp[0] for pp in pts) - rng.randint(1, 3)
    hi = max(pp[0] for pp in pts) + rng.randint(1, 3)
    lo2 = min(pp[1] for pp in pts) - rng.randint(1, 3)
    hi2 = max(pp[1] for pp in pts) + rng.randint(1, 3)
    box = {"x": (lo, hi), "y": (lo2, hi2)}
    return f, pts, box, kind


KIND_WORD = {"local minimum": "min", "local maximum": "max", "saddle point": "saddle",
             "inconclusive": "inconclusive"}


def gen_critical(rng) -> Case:
    f, pts, box, kind = _critical_problem(rng)
    text = lang(f)
    over = ",".join(f"{n}={lo}:{hi}" for n, (lo, hi) in box.items())
    args = ["critical", text, "--over", over, "-o", "json"]
    want = {tuple(float(c) for c in p): k for p, k in pts.items()}
    fam = ["critical-quadratic", "critical-cubic", "critical-degenerate", "critical-classic",
           "critical-mixed"][kind]

    def judge(r: Run):
        c = _common(r)
        if c:
            return c, str(want)
        if r.code != 0:
            return "refused-unexpectedly", str(want)
        got = (r.json() or {}).get("points", [])
        found = set()
        weak = False
        for g in got:
            xy = (g["at"]["x"], g["at"]["y"])
            match = [p for p in want if all(close(a, b, abs_=1e-9) for a, b in zip(xy, p))]
            if not match:
                return "silent-wrong", str(want) + f"; not a critical point: {xy}"
            found.add(match[0])
            k = KIND_WORD.get(g["kind"], g["kind"])
            if k == "inconclusive":
                weak = True
            elif k != want[match[0]]:
                return "silent-wrong", str(want) + f"; {xy} is {want[match[0]]}, not {k}"
        if len(got) != len(found):
            return "silent-wrong", str(want) + f"; {len(got)} points for {len(found)}"
        if found != set(want) or weak:
            return "weak", str(want)
        return "right", str(want)
    return Case("homework", fam, args, judge)


# ------------------------------------------------------------------ check: every mode


def _digits_forms(value, rng):
    """Right decimal forms of a number (correctly rounded to k >= 3 digits) and wrong
    ones (last digit off by one; 1e-3 relative off)."""
    right, wrong = [], []
    for k in rng.sample(range(3, 10), 2):
        r = rounded(value, k)
        if r is not None:
            right.append(r)
            d = Decimal(r)
            ulp = Decimal(1).scaleb(d.adjusted() - k + 1)
            wrong.append(str(d + ulp if rng.random() < 0.5 else d - ulp))
    v = float(sp.N(value, 30))
    if v != 0:
        off = repr(v * (1 + 1e-3))
        digits = len(Decimal(off).as_tuple().digits)
        # 4/13 * 1.001 is 0.308 exactly, and 0.308 is 4/13 correctly rounded: not wrong
        if not (digits >= 3 and rounded(value, digits) == off):
            wrong.append(off)
    return right, wrong


def gen_check_value(rng) -> Case:
    two = rng.random() < 0.5
    text, f = _fx(rng, two)
    names = ["x", "y"] if two else ["x"]
    at, subs = pt(rand_point(rng, names))
    mode = rng.choice(["value", "grad"])
    target = f if mode == "value" else sp.diff(f, SYM[names[-1]])
    exact = sp.N(target.subs({SYM[k]: v for k, v in subs.items()}), 40)
    right, wrong = _digits_forms(exact, rng)
    is_right = rng.random() < 0.5 and right
    ans = rng.choice(right) if is_right else rng.choice(wrong)
    opt = ["--value", ans] if mode == "value" else ["--grad", f"{names[-1]}={ans}"]
    args = ["check", text, "--at", point_text(at), *opt, "-o", "json"]
    return Case("check", f"check-{mode}-{'right' if is_right else 'wrong'}", args,
                judge_check(bool(is_right), f"true value {exact}"))


DERIV_QS = [  # question text, SymPy, a mutation that breaks one rule
    ("x^2", X ** 2), ("ln x", sp.log(X)), ("sin(3x)", sp.sin(3 * X)), ("e^(2x)", sp.exp(2 * X)),
    ("x^3 - 4x", X ** 3 - 4 * X), ("x^2 e^x", X ** 2 * sp.exp(X)), ("x/(x^2 + 1)", X / (X ** 2 + 1)),
    ("√(1 + x^2)", sp.sqrt(1 + X ** 2)), ("tan x", sp.tan(X)), ("cos^2 x", sp.cos(X) ** 2),
    ("1000x^2", 1000 * X ** 2), ("x^2/1000", X ** 2 / 1000), ("e^x/x", sp.exp(X) / X),
    ("sin x cos x", sp.sin(X) * sp.cos(X)), ("ln(x^2 + 1)", sp.log(X ** 2 + 1)),
    ("(3x + 1)^5", (3 * X + 1) ** 5), ("atan x", sp.atan(X)), ("x^4 + 10^6", X ** 4 + 10 ** 6),
]
KINK_QS = [("abs(x - {a})", lambda a: sp.Abs(X - a), "sign(x - {a})", "sign(x - {a} + {d})"),
           ("relu(x - {a})", lambda a: sp.Max(X - a, 0), "step(x - {a})", "step(x - {a} - {d})"),
           ("max(x, {a})", lambda a: sp.Max(X, a), "step(x - {a})", "step(x - {a} + {d})"),
           ("|x|", lambda a: sp.Abs(X), "sign(x)", "sign(x + {d})")]


def gen_check_derivative(rng) -> Case:
    if rng.random() < 0.15:
        qt, qf, rt, wt = rng.choice(KINK_QS)
        a = rng.choice([0, 1, -1, sp.Rational(1, 2)])
        d = rng.choice(["1/10", "1/20", "1/100", "0.3"])
        right = rng.random() < 0.5
        ans = (rt if right else wt).format(a=lang(a), d=d)
        args = ["check", qt.format(a=lang(a)), "--derivative", ans, "--wrt", "x", "-o", "json"]
        return Case("check", f"check-derivative-kink-{'right' if right else 'wrong'}", args,
                    judge_check(right, "d/dx = " + rt.format(a=lang(a), d=d)))
    text, f = rng.choice(DERIV_QS)
    d = sp.diff(f, X)
    right_forms = [("sympy", lang(d)), ("expanded", lang(sp.expand(d))),
                   ("factored", lang(sp.factor(d))), ("together", lang(sp.together(d)))]
    wrong_forms = [
        ("plus-1/1000", lang(d) + " + 1/1000"),
        ("times-1001/1000", f"({lang(d)})*1001/1000"),
        ("rel-1e-3", f"1.001*({lang(d)})"),
        ("big-zero", lang(sp.diff(f, X) * X) + " + 0*10^12"),
        ("scaled-1e9", f"1e9/1e9*({lang(d * X)})"),
        ("sign", lang(-d)),
        ("offset", lang(d + 1)),
        ("not-differentiated", lang(f)),
        ("plus-small", f"{lang(d)} + {lang(d)}/1000"),
    ]
    if rng.random() < 0.5:
        form, ans = rng.choice(right_forms)
        ok = True
    else:
        form, ans = rng.choice(wrong_forms)
        ok = False
    # SymPy decides, from the answer's own structure
    ans_expr = sp.sympify(ans.replace("^", "**"), locals={"x": X, "e": sp.E, "abs": sp.Abs})
    probes = [{"x": sp.Rational(k, 7)} for k in (3, 5, 9, 11, -4) if real_at(d, {"x": sp.Rational(k, 7)})
              is not None]
    truth = True
    for p in probes:
        dd = real_at(ans_expr - d, p)
        truth = truth and dd is not None and abs(dd) <= 1e-12 * (1 + abs(real_at(d, p)))
    assert truth == ok or form == "factored", (text, ans)
    args = ["check", text, "--derivative", ans, "--wrt", "x", "-o", "json"]
    return Case("check", f"check-derivative-{form}", args, judge_check(truth, f"d/dx = {lang(d)}"))


def _book_number(v: sp.Expr) -> str:
    """A constant as a book prints it, when it is simple: 3/4, √2/2, π/4, 2√3, e^2."""
    v = sp.nsimplify(v)
    if v.is_Rational:
        return lang(v)
    c, rest = v.as_coeff_Mul()
    if rest.is_Pow and rest.exp == sp.Rational(1, 2) and rest.base.is_Integer:
        body = f"√{rest.base}"
        if c == 1:
            return body
        if c == -1:
            return "-" + body
        if c.is_Integer:
            return f"{c}√{rest.base}"
        return f"{'-' if c < 0 else ''}{abs(c.p) if abs(c.p) != 1 else ''}√{rest.base}/{c.q}"
    if rest == sp.pi:
        return f"{'-' if c < 0 else ''}{abs(c.p) if abs(c.p) != 1 else ''}π" + (f"/{c.q}" if c.q != 1 else "")
    return lang(v)


def _book_factor(v: sp.Expr) -> str:
    """_book_number, in parentheses where it is a sum, to stand before (x - a)."""
    text = _book_number(v)
    return f"({text})" if any(ch in text[1:] for ch in "+-") or " " in text else text


TANGENT_QS = [("sin x", sp.sin(X), [sp.pi / 4, sp.pi / 6, sp.pi / 3]), ("√x", sp.sqrt(X), [2, 4, 9, 3]),
              ("x^3 - 2x", X ** 3 - 2 * X, [1, 2, -1]), ("ln x", sp.log(X), [1, 2, sp.E]),
              ("e^x", sp.exp(X), [0, 1]), ("2cos x", 2 * sp.cos(X), [sp.pi / 4, sp.pi / 3]),
              ("1/x", 1 / X, [1, 2, -3]), ("tan x", sp.tan(X), [sp.pi / 4, 0]),
              ("x e^x", X * sp.exp(X), [0, 1])]


def gen_check_tangent(rng) -> Case:
    two = rng.random() < 0.3
    if two:
        text, f = rng.choice(TWO_VAR)
        subs = {"x": sp.Integer(rng.randint(1, 2)), "y": sp.Integer(rng.randint(1, 2))}
        names = ["x", "y"]
    else:
        text, f, pts = rng.choice(TANGENT_QS)
        subs = {"x": sp.sympify(rng.choice(pts))}
        names = ["x"]
    f0 = sp.simplify(f.subs({SYM[k]: v for k, v in subs.items()}))
    g = {n: sp.simplify(sp.diff(f, SYM[n]).subs({SYM[k]: v for k, v in subs.items()})) for n in names}
    lhs = "z" if two else "y"

    def shift(n):
        a = subs[n]
        return n if a == 0 else f"({n} - {_book_number(a)})" if a > 0 else f"({n} + {_book_number(-a)})"

    forms = []
    forms.append(("right-exact", True, f"{lhs} = {lang(f0)} + " + " + ".join(
        f"({lang(g[n])})*({n} - ({lang(subs[n])}))" for n in names)))
    forms.append(("right-book", True, f"{lhs} = {_book_number(f0)} + " + " + ".join(
        f"{_book_factor(g[n])}{shift(n)}" for n in names)))
    intercept = sp.simplify(f0 - sum(g[n] * subs[n] for n in names))
    forms.append(("right-slope-intercept", True, f"{lhs} = " + " + ".join(
        f"({lang(g[n])})*{n}" for n in names) + f" + ({lang(intercept)})"))
    k = rng.randint(3, 7)
    rs = [rounded(v, k) for v in [f0, *g.values()]]
    if all(r is not None for r in rs) and all(v != 0 for v in [f0, *g.values()]):
        forms.append(("right-rounded", True, f"{lhs} = {rs[0]} + " + " + ".join(
            f"{r}{shift(n)}" for r, n in zip(rs[1:], names))))
    n0 = names[0]
    forms.append(("wrong-slope-1e-3", False, f"{lhs} = {lang(f0)} + " + " + ".join(
        f"({lang(g[n] * (sp.Rational(1001, 1000) if n == n0 else 1))})*({n} - ({lang(subs[n])}))"
        for n in names)))
    forms.append(("wrong-value-1e-3", False, f"{lhs} = {lang(f0 + sp.Rational(1, 1000) * (1 + abs(f0)))} + "
                  + " + ".join(f"({lang(g[n])})*({n} - ({lang(subs[n])}))" for n in names)))
    if any(subs[n] != 0 for n in names) and any(g[n] != 0 for n in names):
        forms.append(("wrong-not-centred", False, f"{lhs} = {lang(f0)} + " + " + ".join(
            f"({lang(g[n])})*{n}" for n in names)))
    fam, ok, ans = rng.choice(forms)
    # SymPy's model of the answer: the equation's right side (built above from exact parts)
    if fam in ("right-rounded", "right-book"):
        truth = True  # by the digits rule; the book form is built from the exact parts
    else:
        rhs = sp.sympify(ans.split("=", 1)[1].replace("^", "**").replace("√", "sqrt").replace("π", "pi"),
                         locals=dict(SYM, e=sp.E)) if "√" not in ans and "π" not in ans else None
        truth = ok
        if rhs is not None:
            lin = f0 + sum(g[n] * (SYM[n] - subs[n]) for n in names)
            probe = {n: subs[n] + sp.Rational(3, 10) for n in names}
            truth = close(real_at(rhs, probe), real_at(lin, probe), rel=1e-12) and close(
                real_at(rhs, subs), real_at(lin, subs), rel=1e-12)
            assert truth == ok, (text, ans)
    at = ",".join(f"{n}={lang(v)}" for n, v in subs.items())
    args = ["check", text, "--at", at, "--tangent", ans, "-o", "json"]
    return Case("check", f"check-tangent-{fam}", args, judge_check(truth, f"{lhs} = {lang(f0)} + "
                + " + ".join(f"{lang(g[n])}*({n} - {lang(subs[n])})" for n in names)))


def gen_check_directional(rng) -> Case:
    text, f = rng.choice(TWO_VAR)
    subs = {"x": sp.Integer(rng.randint(1, 2)), "y": sp.Integer(rng.choice([1, 2]))}
    v = rng.choice([(3, 4), (1, 1), (1, -2), (-5, 12), (2, 0)])
    norm = sp.sqrt(v[0] ** 2 + v[1] ** 2)
    grad = [sp.diff(f, X).subs({X: subs["x"], Y: subs["y"]}), sp.diff(f, Y).subs({X: subs["x"], Y: subs["y"]})]
    exact = sp.simplify((grad[0] * v[0] + grad[1] * v[1]) / norm)
    right, wrong = _digits_forms(exact, rng)
    options = [("right-exact", True, lang(exact))] + [("right-rounded", True, r) for r in right]
    options += [("wrong-rounded", False, w) for w in wrong]
    nn = sp.simplify(grad[0] * v[0] + grad[1] * v[1])
    if norm != 1 and nn != 0:
        options.append(("wrong-not-normalised", False, lang(nn)))
    fam, ok, ans = rng.choice(options)
    args = ["check", text, "--at", f"x={subs['x']},y={subs['y']}", "--directional", ans,
            "--direction", f"{v[0]},{v[1]}", "-o", "json"]
    return Case("check", f"check-directional-{fam}", args, judge_check(ok, f"D_u f = {lang(exact)}"))


def gen_check_critical(rng) -> Case:
    f, pts, box, kind = _critical_problem(rng)
    text = lang(f)
    over = ",".join(f"{n}={lo}:{hi}" for n, (lo, hi) in box.items())
    listed = [f"({lang(p[0])}, {lang(p[1])}) {k}" for p, k in sorted(pts.items(), key=str)]
    forms = [("right", True, "; ".join(listed))]
    flip = {"min": "max", "max": "min", "saddle": "min"}
    p0, k0 = sorted(pts.items(), key=str)[0]
    forms.append(("wrong-kind", False, "; ".join(
        [f"({lang(p0[0])}, {lang(p0[1])}) {flip[k0]}"] + listed[1:])))
    if len(listed) > 1:
        forms.append(("wrong-missing", False, "; ".join(listed[1:])))
    if len(pts) > 1:
        # a true critical point just outside a smaller box, listed with the others
        far = max(pts, key=lambda p: (p[0], p[1]))
        inside = {p: k for p, k in pts.items() if p != far}
        small = {"x": (min(p[0] for p in inside) - 1, far[0] - sp.Rational(1, 2)),
                 "y": (min(p[1] for p in inside) - 1, max(p[1] for p in inside) + 1)}
        if all(small["y"][0] <= p[1] <= small["y"][1] for p in inside) and far[0] > max(p[0] for p in inside):
            forms.append(("wrong-outside-box", False, "; ".join(listed), small))
            forms.append(("right-inside-box", True, "; ".join(
                f"({lang(p[0])}, {lang(p[1])}) {k}" for p, k in sorted(inside.items(), key=str)), small))
    forms.append(("wrong-not-critical", False, "; ".join(listed + [
        f"({lang(p0[0] + sp.Rational(1, 2))}, {lang(p0[1])}) saddle"])))
    choice = rng.choice(forms)
    fam, ok, ans = choice[:3]
    if len(choice) == 4:
        over = ",".join(f"{n}={lang(lo)}:{lang(hi)}" for n, (lo, hi) in choice[3].items())
    args = ["check", text, "--over", over, "--critical", ans, "-o", "json"]
    cls = ["quadratic", "cubic", "degenerate", "classic", "mixed"][kind]
    return Case("check", f"check-critical-{cls}-{fam}", args, judge_check(ok, str(
        {tuple(map(lang, p)): k for p, k in pts.items()})))


def gen_check_taylor(rng) -> Case:
    text, f, names, subs, order = _taylor_setup(rng)
    terms = taylor_terms(f, names, subs, order)
    ds = [sp.Symbol("d_" + n) for n in names]

    def poly_text(tms, coef_fmt=lang):
        parts = []
        for m, c in sorted(tms.items(), key=lambda kv: (sum(kv[0]), kv[0])):
            if c == 0:
                continue
            mono = "*".join(
                (f"{n}" if subs[n] == 0 else f"({n} - {lang(subs[n])})") + (f"^{e}" if e > 1 else "")
                for n, e in zip(names, m) if e)
            cs = coef_fmt(c)
            if cs is None:
                return None
            parts.append(f"({cs})" + (f"*{mono}" if mono else ""))
        return " + ".join(parts) if parts else "0"

    forms = [("right-exact", True, poly_text(terms))]
    expanded = sp.expand(sum(c * sp.prod([(SYM[n] - subs[n]) ** e for n, e in zip(names, m)])
                             for m, c in terms.items()))
    forms.append(("right-expanded", True, lang(expanded)))
    k = rng.randint(3, 7)
    nonint = [c for c in terms.values() if c != 0 and not c.is_Integer]
    if nonint:
        forms.append(("right-rounded", True, poly_text(
            terms, lambda c: lang(c) if c.is_Integer else rounded(c, k))))
    nz = [m for m, c in terms.items() if c != 0]
    if nz:
        m = rng.choice(nz)
        pert = dict(terms)
        pert[m] = terms[m] * sp.Rational(1001, 1000)
        forms.append(("wrong-coefficient-1e-3", False, poly_text(pert)))
        pert = dict(terms)
        pert[m] = -terms[m]
        forms.append(("wrong-sign", False, poly_text(pert)))
        high = [mm for mm in nz if sum(mm) >= 2]
        if high:
            m2 = rng.choice(high)
            pert = dict(terms)
            pert[m2] = terms[m2] * sp.prod([sp.factorial(e) for e in m2])
            if pert[m2] != terms[m2]:
                forms.append(("wrong-factorial", False, poly_text(pert)))
    fam, ok, ans = rng.choice([fm for fm in forms if fm[2] is not None])
    at = point_text({k2: lang(v) for k2, v in subs.items()})
    args = ["check", text, "--at", at, "--order", str(order), "--taylor", ans, "-o", "json"]
    del ds
    return Case("check", f"check-taylor-{fam}", args, judge_check(ok, poly_text(terms) or ""))


def gen_check_implicit(rng) -> Case:
    text, F, x0, y0, G = _curve(rng)
    fx, fy = sp.diff(F, X), sp.diff(F, Y)
    if fy.subs({X: x0, Y: y0}) == 0:
        x0, y0, G = None, None, None
        text, F, pts = CURVES[0]
        x0, y0 = 3, 4
        G = F.subs({X: x0, Y: y0})
        fx, fy = sp.diff(F, X), sp.diff(F, Y)
    d = -fx / fy
    slope = sp.simplify(d.subs({X: x0, Y: y0}))
    eq = f"{text} = {lang(G)}"
    right, wrong = _digits_forms(slope, rng) if slope != 0 else ([], [])
    forms = [("formula-right", True, lang(d)), ("formula-simplified", True, lang(sp.simplify(d))),
             ("formula-sign", False, lang(-d)), ("formula-reciprocal", False, lang(-fy / fx)),
             ("formula-1e-3", False, f"1.001*({lang(d)})"),
             ("slope-exact", True, lang(slope))]
    forms += [("slope-rounded", True, r) for r in right[:1]] + [("slope-wrong", False, w) for w in wrong[:1]]
    if slope != 0:
        forms.append(("slope-sign", False, lang(-slope)))
    fam, ok, ans = rng.choice(forms)
    args = ["check", eq, "--implicit", ans, "--at", f"x={x0},y={y0}", "--wrt", "x", "-o", "json"]
    return Case("check", f"check-implicit-{fam}", args, judge_check(ok, f"dy/dx = {lang(d)} = {slope}"))


# ------------------------------------------------------------------ messages and numerics

MISSPELT = [("Sin(x)", "sin"), ("SQRT(x)", "sqrt"), ("cso(x)", "cos"), ("sqr(x)", "sqrt"),
            ("cosec x", "csc"), ("Cos(x)", "cos"), ("sinn(x)", "sin"), ("Ln(x)", "ln"),
            ("tna(x)", "tan"), ("Exp(x)", "exp"), ("loge(x)", "log")]
UNKNOWN = ["erf(x)", "foo(x)", "gamma(x)", "sinc(x)", "heaviside(x)"]


def gen_messages(rng) -> Case:
    k = rng.randrange(5)
    if k == 0:
        text, meant = rng.choice(MISSPELT)
        args = ["eval", text, "--at", "x=0.5"]
        return Case("messages", "misspelt-function", args, judge_refuse(
            f"exit 2: unknown function, did you mean {meant}"))
    if k == 1:
        text = rng.choice(UNKNOWN)
        return Case("messages", "unknown-function", ["eval", text, "--at", "x=0.5"],
                    judge_refuse("exit 2: unknown function, see gradcli functions"))
    if k == 2:
        fn = rng.choice(["sin", "cos", "ln", "exp", "sqrt"])
        return Case("messages", "function-as-variable",
                    ["diff", f"{fn}(x)", "--wrt", fn], judge_refuse(f"exit 2: {fn} is a function"))
    if k == 3:
        bad = rng.choice(["foo(1)", "erf(1)", "Sin(1)"])
        return Case("messages", "unknown-function-in-at",
                    ["eval", "x^2", "--at", f"x={bad}"], judge_refuse("exit 2: unknown function",
                                                                      ("'f'", "add --at", "no values")))
    opt = rng.choice(["--att", "--hesian", "--wrtt", "--precison"])
    expect = f"exit 2: No such option: {opt}"

    def judge(r: Run):
        c = _common(r)
        if c:
            return c, expect
        if r.code == 2 and "no such option" in r.stderr.lower():
            return "refused", expect
        if r.code == 2:
            return "misleading", expect
        return "silent-wrong", expect
    return Case("messages", "mistyped-option", ["eval", "x^2", opt, "x=1"], judge)


NUMERICS = [
    ("(1+x)^(1/x)", (1 + X) ** (1 / X), [10 ** -k for k in (9, 12, 15, 17)]),
    ("sin(x)/x", sp.sin(X) / X, [sp.Rational(1, 10 ** k) for k in (8, 50, 200)]),
    ("(exp(x) - 1)/x", (sp.exp(X) - 1) / X, [sp.Rational(1, 10 ** k) for k in (6, 9, 12)]),
    ("(1 - cos(x))/x^2", (1 - sp.cos(X)) / X ** 2, [sp.Rational(1, 10 ** k) for k in (4, 6, 8)]),
    ("sqrt(x^2 + 1) - x", sp.sqrt(X ** 2 + 1) - X, [10 ** k for k in (6, 8, 10)]),
    ("ln(1 + x)", sp.log(1 + X), [sp.Rational(1, 10 ** k) for k in (10, 13, 16)]),
    ("x^2 - (x - 1)(x + 1)", X ** 2 - (X - 1) * (X + 1), [10 ** k for k in (8, 9)]),
    ("exp(x)/exp(x - 1)", sp.exp(X) / sp.exp(X - 1), [800, 1000]),
    ("(x^2)^(1/2)", sp.sqrt(X ** 2), [10 ** 200, sp.Rational(1, 10 ** 200)]),
    ("x*exp(-x)", X * sp.exp(-X), [sp.Integer(800), sp.Integer(750)]),
    ("tanh(x)", sp.tanh(X), [sp.Rational(1, 10 ** 10), 20]),
    ("sin(x)", sp.sin(X), [10 ** 22, sp.Integer(10 ** 16)]),
]


def gen_numerics(rng) -> Case:
    text, f, pts = rng.choice(NUMERICS)
    a = sp.nsimplify(rng.choice(pts))
    at = f"x={float(a)!r}" if not a.is_Integer else f"x={a}"
    subs = {"x": sp.Rational(float(a)) if not a.is_Integer else a}
    return Case("numerics", "numerics-" + text, ["eval", text, "--at", at, "-o", "json"],
                judge_eval(f, ["x"], subs, overflow_ok=True))


GENERATORS = {
    "notation": (gen_notation, 14),
    "named": (gen_named, 4),
    "homework": (None, 0),
    "check": (None, 0),
    "messages": (gen_messages, 1),
    "numerics": (gen_numerics, 1),
}
HOMEWORK = [gen_diff, gen_tangent, gen_taylor, gen_direction, gen_implicit, gen_critical]
CHECKS = [gen_check_value, gen_check_derivative, gen_check_tangent, gen_check_directional,
          gen_check_critical, gen_check_taylor, gen_check_implicit]


def generate(n_total: int, seed: int, only: str | None = None) -> list[Case]:
    """About n_total cases, spread over the categories by weight."""
    rng = random.Random(seed)
    plan = [("notation", gen_notation, 0.36), ("named", gen_named, 0.08),
            ("messages", gen_messages, 0.03), ("numerics", gen_numerics, 0.03)]
    plan += [("homework", g, 0.20 / len(HOMEWORK)) for g in HOMEWORK]
    plan += [("check", g, 0.30 / len(CHECKS)) for g in CHECKS]
    cases = []
    for cat, gen, w in plan:
        if only and cat != only:
            continue
        for _ in range(max(1, round(n_total * w))):
            for _attempt in range(20):
                try:
                    cases.append(gen(rng))
                    break
                except (ValueError, TypeError, ZeroDivisionError, sp.PolynomialError,
                        AssertionError, NotImplementedError):
                    continue
    return cases


@dataclass
class Report:
    counts: dict = field(default_factory=lambda: collections.defaultdict(collections.Counter))
    examples: dict = field(default_factory=lambda: collections.defaultdict(list))
    total: int = 0

    def add(self, case: Case, outcome: str, expect: str, r: Run, keep: int):
        self.total += 1
        self.counts[case.category][outcome] += 1
        if outcome not in ("right", "refused", "warned"):
            ex = self.examples[(case.family, outcome)]
            if len(ex) < keep:
                ex.append((cmdline(case.args), said(r), expect))
            else:
                ex.append(None)

    def silent(self):
        return sum(c["silent-wrong"] for c in self.counts.values())

    def text(self) -> str:
        outcomes = ["right", "refused", "warned", "silent-wrong", "wrong-warned", "rejected-right",
                    "refused-unexpectedly", "misleading", "weak", "crash"]
        lines = [f"{'category':<10} {'inputs':>6} " + " ".join(f"{o:>9}" for o in outcomes)]
        tot = collections.Counter()
        for cat in sorted(self.counts):
            c = self.counts[cat]
            tot.update(c)
            lines.append(f"{cat:<10} {sum(c.values()):>6} " + " ".join(f"{c[o]:>9}" for o in outcomes))
        lines.append(f"{'total':<10} {sum(tot.values()):>6} " + " ".join(f"{tot[o]:>9}" for o in outcomes))
        lines.append("")
        lines.append("(columns abbreviated to 9 characters: " + ", ".join(outcomes) + ")")
        lines.append("")
        lines.append("failure classes (generator family / outcome: count), first examples:")
        for (fam, outcome), ex in sorted(self.examples.items(), key=lambda kv: (kv[0][1], -len(kv[1]))):
            lines.append(f"\n* {fam} / {outcome}: {len(ex)}")
            for e in ex:
                if e is None:
                    continue
                lines.append(f"    $ {e[0]}")
                lines.append(f"      gradcli: {e[1]}")
                lines.append(f"      SymPy:   {e[2]}")
        return "\n".join(lines)


def run_cases(cases: list[Case], keep=2, runner=run_cli, progress=False) -> Report:
    rep = Report()
    t0 = time.time()
    for i, case in enumerate(cases):
        try:
            r = runner(case.args)
        except Exception as exc:  # noqa: BLE001 - the harness reports, never stops
            r = Run(4, "", "", f"{type(exc).__name__}: {exc}")
        try:
            outcome, expect = case.judge(r)
        except Exception as exc:  # noqa: BLE001
            outcome, expect = "crash", f"judge failed: {type(exc).__name__}: {exc}"
        rep.add(case, outcome, expect, r, keep)
        if progress and i % 500 == 499:
            print(f"  {i + 1}/{len(cases)} in {time.time() - t0:.0f} s", file=sys.stderr)
    return rep


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--inputs", type=int, default=6000, help="about how many inputs (default 6000)")
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--examples", type=int, default=2, help="examples kept per failure class")
    ap.add_argument("--subprocess", type=int, default=40,
                    help="how many inputs also run through the installed gradcli command")
    ap.add_argument("--only", choices=["notation", "named", "homework", "check", "messages", "numerics"])
    ap.add_argument("--json", help="write counts and examples to this file")
    a = ap.parse_args(argv)
    t0 = time.time()
    cases = generate(a.inputs, a.seed, a.only)
    print(f"{len(cases)} inputs generated (seed {a.seed}) in {time.time() - t0:.0f} s", file=sys.stderr)
    rep = run_cases(cases, a.examples, progress=True)
    print(rep.text())
    if a.subprocess:
        rng = random.Random(a.seed + 1)
        sample = rng.sample(cases, min(a.subprocess, len(cases)))
        same = 0
        diffs = []
        for case in sample:
            o1, _ = case.judge(run_cli(case.args))
            o2, _ = case.judge(run_subprocess(case.args))
            if o1 == o2:
                same += 1
            else:
                diffs.append((cmdline(case.args), o1, o2))
        print(f"\nsubprocess sample: {same} of {len(sample)} inputs judged the same through the "
              f"installed gradcli command as in-process")
        for d in diffs[:5]:
            print(f"    $ {d[0]}\n      in-process {d[1]}, subprocess {d[2]}")
    print(f"\n{rep.total} inputs in {time.time() - t0:.0f} s; silent wrong: {rep.silent()}")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as fh:
            json.dump({"counts": {k: dict(v) for k, v in rep.counts.items()},
                       "examples": {f"{k[0]} / {k[1]}": [e for e in v if e] for k, v in rep.examples.items()}},
                      fh, indent=1, ensure_ascii=False)
    return 0 if rep.silent() == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
