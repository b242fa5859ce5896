"""A SymPy number as a book prints it, in the language: √3/2, 3√2/2, π/3, e^2, ln(2).

The text reads back in gradcli as the same number (a radical before a number
takes that number alone, so √3/2 is (√3)/2). SymPy is imported only when a
closed form is printed.
"""
from __future__ import annotations

import re

_printer = None
_SMALL = 10 ** 12  # numbers beyond this are printed as they are, not simplified
# 3*√2 -> 3√2, 8*ln(2) -> 8ln(2), 2*e^x -> 2e^x: a number times what follows, as printed
_GLUE = re.compile(r"(?<![\w.^])(\d+)\*(?=[√π(]|[a-df-zA-Z]|e(?![\d+-]))")


def _make_printer():
    import sympy as S
    from sympy.printing.str import StrPrinter

    class BookPrinter(StrPrinter):
        def _print_Pi(self, expr):
            return "π"

        def _print_Exp1(self, expr):
            return "e"

        def _print_exp(self, expr):
            arg = self._print(expr.args[0])
            return "e^" + (arg if re.fullmatch(r"\w+", arg) else f"({arg})")

        def _print_log(self, expr):
            return "ln(" + self._print(expr.args[0]) + ")"

        def _print_Pow(self, expr, rational=False):
            base, e = expr.args
            if e == S.Rational(1, 2) or e == S.Rational(-1, 2):
                b = self._print(base)
                root = "√" + (b if re.fullmatch(r"\d+|\w", b) else f"({b})")
                return root if e > 0 else f"1/{root}"
            if base is S.E:
                return self._print(S.exp(e, evaluate=False))
            text = super()._print_Pow(expr, rational)
            return text.replace("**", "^")

        def _print_Rational(self, expr):
            return f"{expr.p}/{expr.q}" if expr.q != 1 else str(expr.p)

    return BookPrinter()


def closed_text(value) -> str:
    """The closed form of a SymPy number, simplified, as a book prints it."""
    global _printer
    import sympy as S
    if _printer is None:
        _printer = _make_printer()
    simpler = S.nsimplify(value) if value.is_Float else value
    big = any(abs(r.p) > _SMALL or r.q > _SMALL for r in value.atoms(S.Rational))
    if not big:  # simplifying (factoring) a 300-digit number could take minutes
        try:
            # ln(256) back to 8ln(2), as a book leaves it
            simpler = S.expand_log(S.radsimp(S.simplify(simpler)), force=True)
        except (TypeError, ValueError, RecursionError):
            pass
    if S.count_ops(simpler) > S.count_ops(value):
        simpler = value
    text = _printer.doprint(simpler).replace("**", "^")
    return _GLUE.sub(r"\1", text)


__all__ = ["closed_text"]
