"""A SymPy number as a book prints it, in the language: √3/2, 3√2/2, π/3, e^2, 2 ln(2).

Every text here reads back in gradcli as the same number or polynomial:

- `closed_text(v)`: one number (√3/2; a radical before a number takes that
  number alone, so √3/2 is (√3)/2; a sum leads with a positive term,
  (13 - 3√3)/2).
- `sum_text(items)`: a sum of coefficient × factor terms as a book writes a
  tangent line or a Taylor polynomial: each negative term is `- t` (never
  `+ -t` or `- -t`), a coefficient 1 is left out (`(x - 2)`), a sum
  coefficient is bracketed (`(ln(2) + 1)(x - 2)`), a product denominator too
  (`(x - 2)/(2 ln(2))`), a constant is split into its like-combined terms.
- `shift_text(name, a)`: `x - a` with the sign folded in (`x + π/4`).

SymPy is imported only when a closed form is printed.
"""
from __future__ import annotations

import functools
import re

_printer = None
_SMALL = 10 ** 12  # numbers beyond this are printed as they are, not simplified
_HEAVY = 60        # operations beyond which a number gets its normal form, not simplify
# 3*√2 -> 3√2, 2*e^x -> 2e^x, 2*π -> 2π: a number glued to a root, π or e, as printed
_GLUE = re.compile(r"(?<![\w.^])(\d+)\*(?=[√π(]|e(?![\d+-]))")
# 2*ln(2) -> 2 ln(2), 3*atan(2) -> 3 atan(2): a number before a function, with a space
_SPACE = re.compile(r"(?<![\w.^])(\d+)\*(?=[a-zA-Z]\w*\()")
# a coefficient that glues to a variable as it is: 3x, √2x, 3√2x, (1 + ln(2))x
_GLUES_TO_NAME = re.compile(r"\d+|\d*√\d+")
# e^2, 3^-1, 2e^x: a coefficient that ends in an exponent without brackets
_ENDS_IN_EXPONENT = re.compile(r"\^-?[\w.]+$")


def _make_printer():
    import sympy as S
    from sympy.printing.precedence import precedence
    from sympy.printing.str import StrPrinter

    class BookPrinter(StrPrinter):
        """SymPy's str printer with π, e, √, ln and ^, a sum led by a positive term."""

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
                # √ takes a number or a letter alone: √2x is √2·x (sum_text writes √π*x)
                root = "√" + (b if re.fullmatch(r"\d+|\w", b) else f"({b})")
                return root if e > 0 else f"1/{root}"
            if base is S.E:
                return self._print(S.exp(e, evaluate=False))
            text = super()._print_Pow(expr, rational)
            return text.replace("**", "^")

        def _print_Rational(self, expr):
            return f"{expr.p}/{expr.q}" if expr.q != 1 else str(expr.p)

        def _print_Add(self, expr, order=None):
            # (13 - 3√3)/2, ln(2) - 1: the positive terms first, as a book writes a sum
            terms = self._as_ordered_terms(expr, order=order)
            terms = ([t for t in terms if not t.could_extract_minus_sign()]
                     + [t for t in terms if t.could_extract_minus_sign()])
            prec = precedence(expr)
            out = []
            for term in terms:
                negative = term.could_extract_minus_sign() and not term.is_Add
                t = self._print(-term if negative else term)
                if precedence(term) < prec or term.is_Add:
                    t = f"({t})"
                out.append(("-" if negative else "+", t))
            first = ("-" if out[0][0] == "-" else "") + out[0][1]
            return " ".join([first] + [f"{s} {t}" for s, t in out[1:]])

    return BookPrinter()


def _sympy(value):
    """A Fraction, int or SymPy number as SymPy."""
    import sympy as S
    if type(value).__module__.startswith("sympy"):
        return value
    if hasattr(value, "denominator"):
        return S.Rational(value.numerator, value.denominator)
    return S.sympify(value)


def _outer_logs(expr) -> list:
    """The logarithms of a number that are not inside another logarithm."""
    import sympy as S
    found, stack = [], [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, S.log):
            found.append(node)
        else:
            stack.extend(node.args)
    return found


def _split_log(log):
    """ln(√2) -> ln(2)/2, ln(2e) -> ln(2) + 1: a logarithm split where that leaves one
    logarithm; ln(π/6) stays as it is; ln((π/4)^π) -> π ln(π/4) (_regrouped)."""
    import sympy as S
    split = S.expand_log(log, force=True)
    if len(split.atoms(S.log)) <= 1:
        return split
    regrouped = _regrouped(S.expand(split)) if log.args[0].is_positive else None
    if regrouped is not None and S.count_ops(regrouped) <= S.count_ops(log):
        return regrouped
    return log


def _regrouped(split):
    """Σ c·ln(a) + rest with every c the same number k times a rational r as k·g·ln(Π a^(r/g))
    + rest, g the rationals' greatest common divisor: π ln(π) - 2π ln(2) -> π ln(π/4),
    2 ln(π) - 2 ln(2) -> 2 ln(π/2). None where the coefficients share no such k."""
    import sympy as S
    rest, parts, common = [], [], None
    for term in S.Add.make_args(split):
        logs = [f for f in S.Mul.make_args(term) if isinstance(f, S.log)]
        if not logs:
            rest.append(term)
            continue
        if len(logs) > 1:
            return None
        r, k = (term / logs[0]).as_coeff_Mul()
        if not r.is_Rational or (common is not None and k != common) \
                or not logs[0].args[0].is_positive:  # ln of a negative part: not real
            return None
        common = k
        parts.append((r, logs[0].args[0]))
    if len(parts) < 2:
        return None
    g = functools.reduce(S.gcd, [r for r, _ in parts])
    inner = S.Mul(*[a ** (r / g) for r, a in parts])
    return common * g * S.log(inner, evaluate=False) + S.Add(*rest)


def simplified(value):
    """The book's form of a SymPy number: simplified, radicals out of denominators; the
    number as given where that is shorter."""
    return _simplified(_sympy(value))


# A pure function of an immutable number, remembered: one answer prints its value and
# slopes several times (the equation, the expanded form, each field), and simplify takes
# 50 ms a number. The memory changes no result, only how soon it comes.
@functools.lru_cache(maxsize=512)
def _simplified(value):
    """simplified() of a SymPy number.

    Each logarithm stays one number while the rest simplifies (SymPy's logcombine would
    write 8 ln(2) as ln(256) and a ln(10) as ln(10^a)); then one that splits into a single
    logarithm is split (ln(√2) = ln(2)/2)."""
    import sympy as S
    simpler = S.nsimplify(value) if value.is_Float else value
    big = any(abs(r.p) > _SMALL or r.q > _SMALL for r in value.atoms(S.Rational))
    if (S.count_ops(simpler) > _HEAVY or _long_root(simpler)) and not big:
        # simplify and radsimp on a long number take seconds (a 4th Taylor coefficient of
        # e^(2x)/log10(2x): 0.7 s; a steepest ascent through tan(π/24): 2 s each); its
        # normal form over its transcendental parts is exact and a tenth of the time
        simpler = _normal_form(simpler)
    elif _one_root(simpler):
        # 2*2^(2/3), -3/√2: SymPy's own form of a rational times one root of a whole number
        # is the simplest there is; simplify would only load its unit tables (0.2 s) to say so
        simpler = S.radsimp(simpler)
    elif not big:  # simplifying (factoring) a 300-digit number could take minutes
        if _mixed_bases(simpler):  # 4^π + 4·2^(2π): simplify does not see they are alike
            simpler = _prime_bases(simpler)
        try:
            logs = {}
            for log in _outer_logs(simpler):
                if log not in logs:
                    logs[log] = S.Dummy(**{k: True for k in ("positive", "negative")
                                           if getattr(log, f"is_{k}")}, real=True)
            kept = S.radsimp(S.simplify(simpler.xreplace(logs)))
            simpler = kept.xreplace({d: _split_log(log) for log, d in logs.items()})
        except (TypeError, ValueError, RecursionError):
            pass
    if S.count_ops(simpler) > S.count_ops(value):
        simpler = value
    joined = _joined_powers(simpler)
    if joined is not None and len(_text(joined)) < len(_text(simpler)):
        simpler = joined
    return simpler


def _joined_powers(value):
    """2^(3 - 2π)·π^π -> 8π^π/4^π: the factors of a product that are powers of positive
    numbers with the same transcendental part k in their exponents (b^(r·k + q)) joined
    into one power of g·k, g the rationals' greatest common divisor; None where no two
    share one."""
    import sympy as S
    if not value.is_Mul:
        return None
    groups, rest = {}, []
    for f in value.args:
        if f.is_Pow and f.base.is_number and f.base.is_positive and not f.exp.is_Rational:
            q = S.Add(*[t for t in S.Add.make_args(f.exp) if t.is_Rational])
            r, k = (f.exp - q).as_coeff_Mul()
            if r.is_Rational:
                groups.setdefault(k, []).append((f.base, r, q))
                continue
        rest.append(f)
    if not any(len(items) > 1 for items in groups.values()):
        return None
    out = S.Mul(*rest)
    for k, items in groups.items():
        g = functools.reduce(S.gcd, [r for _, r, _ in items])  # π^(π/4)/2^(π/2): (π/4)^(π/4)
        out *= S.Mul(*[b ** q for b, _, q in items]) \
            * S.Pow(S.Mul(*[b ** (r / g) for b, r, _ in items]), g * k)
    try:
        return S.radsimp(out)
    except (TypeError, ValueError, RecursionError):
        return None


def _long_root(value) -> bool:
    """A root of a sum of more than four terms inside (|grad f| of a gradient with several
    radicals): simplify and radsimp work on such a number for seconds, to no shorter form."""
    import sympy as S
    return any(p.exp.is_Rational and not p.exp.is_Integer and p.base.is_Add
               and len(p.base.args) > 4 for p in value.atoms(S.Pow))


def _mixed_bases(value) -> bool:
    """Powers with transcendental exponents over whole bases that share a prime (4^π and
    2^(2π), 2^π and 6^π)."""
    import sympy as S
    bases = {p.base for p in value.atoms(S.Pow)
             if p.base.is_Integer and p.base > 1 and not p.exp.is_Rational}
    seen = set()
    for b in bases:
        primes = set(S.factorint(b))
        if primes & seen:
            return True
        seen |= primes
    return False


def _prime_bases(value):
    """4^π -> 2^(2π), (π/4)^(π/4) -> π^(π/4)/2^(π/2): powers with a transcendental
    exponent over prime (or transcendental) bases, so that equal powers meet and cancel."""
    import sympy as S
    value = S.expand_power_base(S.expand_power_exp(value))
    swap = {}
    for p in value.atoms(S.Pow):
        if p.base.is_Integer and p.base > 1 and not p.exp.is_Rational:
            primes = S.factorint(p.base)
            if len(primes) > 1 or max(primes.values()) > 1:
                swap[p] = S.Mul(*[S.Pow(q, k * p.exp) for q, k in primes.items()])
    return value.xreplace(swap) if swap else value


def normal_form(value):
    """A number as a reduced fraction of polynomials in its transcendental parts (see
    _normal_form); the printer's form of a long number, for callers that build one."""
    return _normal_form(_sympy(value))


def _normal_form(value):
    """A long number as a reduced fraction of polynomials in its transcendental parts (π,
    e^(23π/6), ln(23π/6), (π/4)^π, each taken as a letter) with their common factors taken
    out (factor_terms): identities among those letters are identities of the number, so the form is the
    same number. The number as it is where SymPy fails."""
    import sympy as S
    try:
        spread = _prime_bases(value)  # (π/4)^(π - 1) -> π^π·4/(π·2^(2π)): like terms meet
        letters = {}
        for part in sorted(spread.atoms(S.Pow, S.Function, S.NumberSymbol),
                           key=S.default_sort_key):
            if isinstance(part, S.Pow) and part.exp.is_Rational:
                continue  # √2 and π^2 stay: cancel works with roots and powers
            letters[part] = S.Dummy(positive=True) if part.is_positive else S.Dummy(real=True)
        out = S.factor_terms(S.cancel(spread.xreplace(letters)))
        return out.xreplace({d: part for part, d in letters.items()})
    except (TypeError, ValueError, RecursionError, S.PolynomialError):
        return value


def _one_root(value) -> bool:
    """A rational, a root of a whole number (2^(2/3)), or a rational times one."""
    if value.is_Rational:
        return True
    if value.is_Mul and len(value.args) == 2 and value.args[0].is_Rational:
        value = value.args[1]
    return bool(value.is_Pow and value.base.is_Integer and value.exp.is_Rational)


def _text(expr) -> str:
    """The printed text of a SymPy number as it is (no simplification)."""
    global _printer
    if _printer is None:
        _printer = _make_printer()
    text = _printer.doprint(expr).replace("**", "^")
    return _SPACE.sub(r"\1 ", _GLUE.sub(r"\1", text))


def closed_text(value) -> str:
    """The closed form of a SymPy number, simplified, as a book prints it."""
    return _text(simplified(value))


def printed_text(value) -> str:
    """The book's print of a SymPy number or formula as it stands, not simplified: for
    closed forms already in their final shape (simplify alone costs a quarter second)."""
    return _text(_sympy(value))


def _terms(value) -> list:
    """A simplified number as the signed terms of a sum: [('+', '√3/2'), ('-', 'π/6')]."""
    import sympy as S
    if value == 0:
        return []
    # (3√3 - π)/6 -> √3/2 - π/6, -(1 + √2)^2 -> -2√2 - 3: a sum spread out at the top
    # (not inside a function or a root), like terms combined
    spread = []
    for term in S.Add.make_args(S.expand(value, deep=False, log=False, power_exp=False,
                                         power_base=False)):
        factors = [S.expand_multinomial(f, deep=False) if f.is_Pow and f.base.is_Add else f
                   for f in S.Mul.make_args(term)]
        spread.append(S.expand_mul(S.Mul(*factors), deep=False))
    terms = S.Add.make_args(S.Add(*spread))
    if len(terms) == 1:
        terms = S.Add.make_args(value)
    pieces = [_scaled(t, "") for t in terms]     # 1/e, as the terms beside it: (x + 1)/e
    # ln(2) - 1, 7 - 5√2: a positive term first, a fraction after the others of its sign
    return sorted(pieces, key=lambda p: (p[0] == "-", _is_rational(p[1])))


def _is_rational(text: str) -> bool:
    return re.fullmatch(r"\d+(/\d+)?", text) is not None


def _atomic(expr) -> bool:
    """A denominator that needs no brackets after '/': 2, π, √2, π^2, ln(2)."""
    return not (expr.is_Add or expr.is_Mul)


def _times(coefficient: str, factor: str) -> str:
    """coefficient·factor, written so that it reads back as that product."""
    if not factor:
        return coefficient
    if factor.startswith("("):
        # 3(x - 1), √2(x - 1), ln(2)(x - 2); e(x - 1) would warn that e is no function;
        # e^2 (x - 2) with a space, as e^2(x - 2) may be e^(2(x - 2)) (amendment 14)
        # ... but e^π*(x - π): after a name, a space and a bracket would warn that π is no
        # function
        if _ENDS_IN_EXPONENT.search(coefficient):
            return f"{coefficient}{'*' if coefficient[-1].isalpha() else ' '}{factor}"
        joint = "" if coefficient[-1].isdigit() or coefficient[-1] == ")" else "*"
        return coefficient + joint + factor
    if _GLUES_TO_NAME.fullmatch(coefficient) or _bracketed(coefficient):
        return coefficient + factor                # 3x, √2x, (1 + ln(2))x
    if "√" in coefficient and not coefficient[-1].isdigit():
        return f"{coefficient}*{factor}"           # √π x would read as √(πx)
    return f"{coefficient} {factor}"               # e^2 x, π x, ln(2) x


def _bracketed(text: str) -> bool:
    """'(…)' that is one bracket group (not '(a) + (b)')."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i < len(text) - 1:
            return False
    return True


def _scaled(value, factor: str) -> tuple:
    """A non-zero simplified coefficient times `factor` ("" for none) as one signed term:
    ('+', '√2(x - π/4)/2'), ('-', '(x - 2)/(2 ln(2))'), ('+', '1/e')."""
    import sympy as S
    negative = value.could_extract_minus_sign()
    if value.is_Add:
        # a sum coefficient keeps its sign inside its brackets unless every term is negative
        negative = all(t.could_extract_minus_sign() for t in value.args)
    if negative:
        value = -value
    if value.is_Add:
        return ("-" if negative else "+"), _times(f"({_text(value)})", factor)
    num, den = S.fraction(value)
    if num == 1:
        top = factor or "1"
    else:
        shown = _text(num)
        top = _times(f"({shown})" if num.is_Add else shown, factor)
    if den != 1:
        shown = _text(den)
        top += "/" + (shown if _atomic(den) else f"({shown})")
    return ("-" if negative else "+"), top


def sum_text(items) -> str:
    """Σ coefficient·factor as a book prints it. `items`: (coefficient, factor text) pairs
    in order, factor "" for a constant; coefficients SymPy numbers, Fractions or ints."""
    pieces = []
    for coefficient, factor in items:
        value = simplified(coefficient)
        if value == 0:
            continue
        if factor:
            pieces.append(_scaled(value, factor))
        else:
            pieces.extend(_terms(value))
    return join_signed(pieces)


def join_signed(pieces) -> str:
    """[('+', 'a'), ('-', 'b')] -> 'a - b'; '0' when there are none."""
    if not pieces:
        return "0"
    (sign, first), rest = pieces[0], pieces[1:]
    return " ".join([("-" if sign == "-" else "") + first] + [f"{s} {t}" for s, t in rest])


def shift_text(name: str, point) -> str:
    """name - point with the sign folded in: 'x - π/4', 'x + 1/2', 'x - 1 - √2', 'x'."""
    value = simplified(point)
    if value == 0:
        return name
    return join_signed([("+", name)] + [("+" if s == "-" else "-", t)
                                        for s, t in _terms(value)])


__all__ = ["closed_text", "simplified", "sum_text", "join_signed", "shift_text", "normal_form"]
