"""More generated `check` cases for tests/test_verdicts.py, each one's truth decided by SymPy.

Question families of every common shape (trig, exp/log, roots, rational functions,
abs with kinks near and far, products of several factors, inverse trig, hyperbolic;
two variables for grad and directional), at fractional and closed-form points
(π/6, √2, 1/3...), with answers a student types: right ones in other equivalent
forms (expanded, factored, the exact closed form, correctly rounded to 3-8
significant digits with their trailing zeros), and wrong ones by the usual slips
(a sign, a chain factor missing, a power off by one, u'v' for (uv)', a forgotten
factorial, the direction not normalised, the last digit one off, 1e-3 relative off).

Every case is asserted right or wrong here, by exact algebra or by a 60-digit value:
a decimal is right exactly when it is the correct rounding of the true value to the
digits it shows (ties either way, as docs/check.md says), a formula when its
difference from the truth is 0 (expand, then simplify) and wrong when that
difference is far from 0 at some point.
"""
import random
import re
from decimal import ROUND_HALF_EVEN, Decimal, localcontext

import sympy as sp

X, Y = sp.Symbol("x", real=True), sp.Symbol("y", real=True)
LOCALS = {"x": X, "y": Y, "abs": sp.Abs, "e": sp.E}


def text(e) -> str:
    """SymPy's Python notation, in the names gradcli reads (abs, e)."""
    return re.sub(r"\bE\b", "e", str(e).replace("Abs(", "abs("))


def read(s: str) -> sp.Expr:
    return sp.sympify(s, locals=LOCALS)


# ---------------------------------------------------------------- the truth of an answer

def significant(s: str) -> int:
    digits = s.lstrip("+-").replace(".", "").lstrip("0")
    return len(digits)


def correctly_rounded(s: str, exact) -> bool:
    """Is the decimal `s` the true value rounded to the significant digits it shows
    (either way at an exact tie)? Decided on the exact value, at 60 digits where it is
    irrational (no tie there)."""
    d = significant(s)
    value = sp.Rational(s)
    lead = sp.floor(sp.log(abs(value), 10)) if value else 0
    if value and abs(value) < sp.Integer(10) ** lead:
        lead -= 1
    half = sp.Integer(10) ** (lead - d + 1) / 2
    miss = value - exact
    if exact.is_Rational:
        return abs(miss) <= half
    return bool(abs(sp.N(miss, 60)) < half)


def same(answer, truth) -> bool:
    diff = sp.expand(answer - truth)
    return diff == 0 or sp.simplify(diff) == 0


def differs(answer, truth, points) -> bool:
    """The answer and the truth differ by far more than any rounding at one of `points`."""
    for p in points:
        a, t = sp.N(answer.subs(p), 60), sp.N(truth.subs(p), 60)
        if a.is_real and t.is_real and abs(a - t) > sp.Float("1e-6") * (1 + abs(t)):
            return True
    return False


def rounded(exact, digits: int):
    """`exact` correctly rounded to `digits` significant digits, in fixed notation with its
    trailing zeros ("0.0600"), and one unit of its last digit; None where that notation
    would need zeros left of the point (12300) or the value is too small to round."""
    with localcontext() as ctx:
        ctx.prec = 80
        v = Decimal(str(sp.N(exact, 60)))
        if v == 0 or abs(v) < Decimal("1e-4"):
            return None
        lead = v.adjusted()
        unit = Decimal(1).scaleb(lead - digits + 1)
        r = v.quantize(unit, rounding=ROUND_HALF_EVEN)
        if r.adjusted() != lead:  # 9.996 -> 10.00: one digit more to the left
            unit = Decimal(1).scaleb(lead - digits + 2)
            r = v.quantize(unit, rounding=ROUND_HALF_EVEN)
        if unit > 1:
            return None
        return format(r, "f"), unit


def one_off(exact, digits: int, rng):
    """The correct rounding with its last digit one off, up or down (away from the true
    value where it is a tie, which rounds either way)."""
    got = rounded(exact, digits)
    if got is None:
        return None
    r, unit = got
    step = rng.choice((-1, 1))
    if sp.Rational(r) + step * sp.Rational(str(unit)) / 2 == exact:
        step = -step
    return format(Decimal(r) + step * unit, "f")


def perturbed(exact, digits: int) -> str:
    """1e-3 relative off, with all its digits shown."""
    return f"{float(sp.N(exact, 40)) * (1 + 1e-3):#.{digits + 3}g}".rstrip(".")


# ---------------------------------------------------------------- one variable

def _chain(outer, d_outer, inner):
    """f = outer(inner), and f' with the inner derivative forgotten."""
    return outer(inner), d_outer(inner)


def _product(*factors):
    """A product, and the u'v' (w') slip for its derivative."""
    return sp.Mul(*factors), sp.Mul(*[sp.diff(f, X) for f in factors])


FAMILIES = []  # (question, [(wrong derivative, the slip)])


def family(f, *wrong):
    FAMILIES.append((f, list(wrong)))


for inner in (3 * X, X**2, 2 * X + 1, X**2 + 1, sp.sqrt(X**2 + 1), 1 / (X**2 + 1)):
    for outer, d_outer in ((sp.sin, sp.cos), (sp.cos, lambda u: -sp.sin(u)), (sp.exp, sp.exp)):
        f, forgot = _chain(outer, d_outer, inner)
        family(f, (forgot, "chain factor missing"), (-sp.diff(f, X), "sign"))
for inner in (X**2 + 1, X**2 + 3 * X + 5, sp.exp(X) + 1, 2 * X**2 + 1):
    f, forgot = _chain(sp.log, lambda u: 1 / u, inner)
    family(f, (forgot, "chain factor missing"), (sp.diff(inner, X), "reciprocal lost"))
for n in (2, 3, 5, -1, -2, sp.Rational(1, 2), sp.Rational(3, 2), sp.Rational(-1, 3)):
    f = (X**2 + X + 1)**n
    family(f, (n * (X**2 + X + 1)**(n - 1), "chain factor missing"),
           (n * (X**2 + X + 1)**n * (2 * X + 1), "power not lowered"),
           ((n - 1) * (X**2 + X + 1)**(n - 2) * (2 * X + 1), "power off by one"))
for factors in ((X, sp.sin(X), sp.exp(X)), (X**2, sp.cos(X)), (sp.exp(X), sp.sin(X)),
                (X**3, sp.log(X**2 + 1)), (X, X + 1, X + 2), (sp.sqrt(X**2 + 1), sp.atan(X)),
                (X**2, sp.exp(-X), sp.cos(2 * X)), (sp.sin(X), sp.cos(X), X)):
    f, slip = _product(*factors)
    family(f, (slip, "product rule as u'v'"), (sp.diff(f, X) + 1, "constant-offset"))
for num, den in ((X, X**2 + 1), (X**2 - 1, X**2 + 1), (sp.sin(X), X**2 + 2),
                 (sp.exp(X), X**2 + 1), (X + 3, 2 * X**2 + 5), (1, X**2 + X + 1)):
    f = num / den
    du, dv = sp.diff(num, X), sp.diff(den, X)
    family(f, ((du * den + num * dv) / den**2, "quotient rule's sign"),
           ((du * den - num * dv) / den, "denominator not squared"))
for f, wrongs in (
    (sp.tan(X), [(sp.sec(X), "square lost"), (-sp.sec(X)**2, "sign")]),
    (sp.asin(X / 2), [(1 / sp.sqrt(1 - X**2 / 4), "chain factor missing")]),
    (sp.atan(X**2), [(1 / (1 + X**4), "chain factor missing"), (2 * X / (1 + X**2), "inner")]),
    (sp.acos(X / 3), [(1 / (3 * sp.sqrt(1 - X**2 / 9)), "sign")]),
    (sp.sinh(2 * X), [(2 * sp.sinh(2 * X), "sinh for cosh")]),
    (sp.cosh(X**2), [(-2 * X * sp.sinh(X**2), "sign")]),
    (2**X, [(X * 2**(X - 1), "power rule on an exponential")]),
    (sp.log(X, 10) * X, [(1 / X, "product rule lost")]),
    (sp.cbrt(X**2 + 1), [(sp.Rational(1, 3) * (X**2 + 1)**sp.Rational(-2, 3), "chain")]),
    (sp.sqrt(sp.sin(X)**2 + 1), [(1 / (2 * sp.sqrt(sp.sin(X)**2 + 1)), "chain")]),
    (sp.exp(sp.sin(X)), [(sp.exp(sp.cos(X)), "derivative inside")]),
    (sp.sin(X)**3, [(3 * sp.sin(X)**2, "chain factor missing"),
                    (3 * sp.cos(X)**2, "power rule on the derivative")]),
    (X * sp.exp(-X**2), [(sp.exp(-X**2) * (1 + 2 * X**2), "sign")]),
    (X**5 - 4 * X**3 + 2 * X - 7, [(5 * X**4 - 12 * X**2 + 2 - 7, "constant kept"),
                                   (5 * X**5 - 12 * X**3 + 2, "power not lowered")]),
    # kinks: abs with its corner near, far and at a root of a quadratic
    (sp.Abs(X - 15), [(-1 + 0 * X, "sign of the far side"), (sp.sign(X + 15), "kink moved")]),
    (sp.Abs(X**2 - 4), [(2 * X + 0 * X, "abs dropped"), (2 * X * sp.sign(X - 2), "one kink")]),
    (X * sp.Abs(X - 3), [(sp.Abs(X - 3) + X, "abs' taken as 1")]),
    (sp.Abs(sp.sin(X)), [(sp.cos(X), "abs dropped")]),
    (sp.Abs(X + 12) * X**2, [(2 * X * sp.Abs(X + 12), "product rule lost")]),
):
    family(f, *wrongs)

POINTS = [sp.Rational(1, 3), sp.Rational(5, 4), sp.Rational(-3, 5), sp.Rational(7, 2),
          sp.pi / 6, sp.pi / 4, sp.pi / 3, sp.sqrt(2), sp.sqrt(3) / 2, sp.Integer(2),
          sp.Integer(-1), sp.Rational(-7, 3)]
DIGITS = (3, 4, 5, 6, 7, 8)
# points of a formula comparison away from every kink of the families above
PROBES = [{X: sp.Rational(k, 7)} for k in (5, -9, 17, 31, -40, 115, -100)]


def _defined(e, a) -> bool:
    v = sp.N(e.subs(X, a), 30)
    return v.is_real and v.is_finite and abs(v) < 1e5


def _signed(c: str) -> str:
    return f"- {c[1:]}" if c.startswith("-") else f"+ {c}"


def _derivative_cases(f, d, wrongs, rng):
    out = []
    q = text(f)
    forms = {text(d), text(sp.expand(d)), text(sp.factor(d)), text(sp.together(d))}
    if d.has(sp.sin, sp.cos, sp.tan):
        forms.add(text(sp.expand_trig(d)))
    for form in sorted(forms):
        assert same(read(form), d), (q, form)
        out.append(("derivative", [q, "--derivative", form], True))
    slips = list(wrongs) + [(-d, "sign"), (2 * d, "factor 2"), (d + sp.Rational(1, 1000),
                                                                 "constant-offset")]
    for w, _ in slips:
        assert differs(w, d, PROBES), (q, w)
        out.append(("derivative", [q, "--derivative", text(w)], False))
    k = rng.choice([sp.Rational(7, 3), sp.sqrt(2), sp.pi / 4, sp.Rational(13, 11)])
    for digits in rng.sample(DIGITS, 2):
        r, _ = rounded(k, digits)
        assert correctly_rounded(r, k)
        out.append(("derivative", [text(k * f), "--derivative", f"{r}*({text(d)})"], True))
        bad = one_off(k, digits, rng)
        assert not correctly_rounded(bad, k)
        out.append(("derivative", [text(k * f), "--derivative", f"{bad}*({text(d)})"], False))
    return out


def _point_cases(f, d, wrongs, a, rng):
    """value, grad, tangent and Taylor cases of f at a."""
    out = []
    q, at = text(f), ["--at", f"x={text(a)}"]
    fa, da = f.subs(X, a), d.subs(X, a)
    xa = f"(x - {text(a)})" if a >= 0 else f"(x + {text(-a)})"
    for digits in rng.sample(DIGITS, 1):
        for mode, truth, key in (("value", fa, None), ("grad", da, "x=")):
            got = rounded(truth, digits)
            if got is None:
                continue
            r = got[0]
            wrong = [one_off(truth, digits, rng), perturbed(truth, digits)]
            assert correctly_rounded(r, truth), (q, a, r)
            opt = "--value" if mode == "value" else "--grad"
            out.append((mode, [q, *at, opt, (key or "") + r], True))
            for w in wrong:
                assert not correctly_rounded(w, truth), (q, a, w)
                out.append((mode, [q, *at, opt, (key or "") + w], False))
        b, s = rounded(fa, digits + 2), rounded(da, digits + 2)
        if b is None or s is None:
            continue
        line = f"y = {b[0]} {_signed(s[0])}*{xa}"
        assert correctly_rounded(b[0], fa) and correctly_rounded(s[0], da)
        out.append(("tangent", [q, *at, "--tangent", line], True))
        for slope, intercept in ((one_off(da, digits + 2, rng), b[0]),
                                 (s[0], one_off(fa, digits + 2, rng)),
                                 (perturbed(da, digits), b[0])):
            assert not (correctly_rounded(slope, da) and correctly_rounded(intercept, fa))
            line = f"y = {intercept} {_signed(slope)}*{xa}"
            out.append(("tangent", [q, *at, "--tangent", line], False))
    # exact forms: the closed form is right, a slip of the rule is wrong
    out.append(("value", [q, *at, "--value", text(fa)], True))
    out.append(("grad", [q, *at, "--grad", f"x={text(da)}"], True))
    exact_line = f"y = {text(fa)} + ({text(da)})*{xa}"
    out.append(("tangent", [q, *at, "--tangent", exact_line], True))
    out.append(("tangent", [q, *at, "--tangent", f"y = {text(sp.expand(fa + da * (X - a)))}"],
                True))
    for w, _ in wrongs:
        wa = w.subs(X, a)
        if not _defined(w, a) or not differs(wa, da, [{}]):
            continue
        out.append(("grad", [q, *at, "--grad", f"x={text(wa)}"], False))
        out.append(("tangent", [q, *at, "--tangent", f"y = {text(fa)} + ({text(wa)})*{xa}"],
                    False))
    if differs(-fa, fa, [{}]):
        out.append(("value", [q, *at, "--value", text(-fa)], False))
    if differs(a * da, sp.Integer(0), [{}]):  # the line through the origin, not the point
        out.append(("tangent", [q, *at, "--tangent", f"y = {text(fa)} + ({text(da)})*x"], False))
    # Taylor polynomials of order 2 and 3, exact in powers of (x - a), and slipped
    d2, d3 = sp.diff(d, X), sp.diff(d, X, 2)
    if not (_defined(d2, a) and _defined(d3, a)):
        return out
    c = [fa, da, d2.subs(X, a) / 2, d3.subs(X, a) / 6]
    for order in (2, 3):
        poly = " + ".join(f"({text(c[k])})*{xa}**{k}" for k in range(1, order + 1))
        out.append(("taylor", [q, *at, "--order", str(order), "--taylor",
                               f"{text(c[0])} + {poly}"], True))
        if differs(c[order], sp.Integer(0), [{}]):
            wrong = list(c[:order + 1])
            wrong[order] = wrong[order] * sp.factorial(order)  # the factorial forgotten
            poly = " + ".join(f"({text(wrong[k])})*{xa}**{k}" for k in range(1, order + 1))
            out.append(("taylor", [q, *at, "--order", str(order), "--taylor",
                                   f"{text(c[0])} + {poly}"], False))
        if differs(c[1], sp.Integer(0), [{}]):
            poly = " + ".join(f"({text((-1 if k == 1 else 1) * c[k])})*{xa}**{k}"
                              for k in range(1, order + 1))
            out.append(("taylor", [q, *at, "--order", str(order), "--taylor",
                                   f"{text(c[0])} + {poly}"], False))
    coeffs = [rounded(v, 6) for v in c[:3]]
    if all(coeffs):
        poly = f"{coeffs[0][0]} {_signed(coeffs[1][0])}*{xa} {_signed(coeffs[2][0])}*{xa}**2"
        out.append(("taylor", [q, *at, "--order", "2", "--taylor", poly], True))
        bad = one_off(c[2], 6, rng)
        poly = f"{coeffs[0][0]} {_signed(coeffs[1][0])}*{xa} {_signed(bad)}*{xa}**2"
        out.append(("taylor", [q, *at, "--order", "2", "--taylor", poly], False))
    return out


# ---------------------------------------------------------------- two variables

TWO = [
    X**2 * Y + Y**3, sp.sin(X * Y), sp.exp(X) * sp.cos(Y), sp.log(X**2 + Y**2),
    X * Y / (X**2 + Y**2 + 1), sp.sqrt(X**2 + 2 * Y**2 + 1), sp.atan(Y / X),
    X**3 - 3 * X * Y**2, sp.exp(-X**2 - Y**2) * X, (X + 2 * Y)**4, X * sp.exp(X * Y),
    sp.sin(X) * sp.sin(Y) + X * Y**2, sp.cos(X + Y**2), X**2 * sp.log(Y**2 + 1),
]
POINTS2 = [(sp.Integer(1), sp.Integer(2)), (sp.Rational(1, 2), sp.Integer(-1)),
           (sp.Integer(2), sp.Rational(3, 2)), (sp.pi / 6, sp.Integer(1)),
           (sp.sqrt(2), sp.Rational(-1, 3)), (sp.Rational(-3, 4), sp.pi / 4)]
DIRECTIONS = [(3, 4), (1, 1), (1, -2), (-5, 12), (2, 1)]


def _two_cases(g, a, b, rng):
    out = []
    q, at = text(g), ["--at", f"x={text(a)},y={text(b)}"]
    gx, gy = (sp.diff(g, v).subs({X: a, Y: b}) for v in (X, Y))
    if not all(v.is_finite and v.is_real for v in (sp.N(gx), sp.N(gy))):
        return out
    for digits in rng.sample(DIGITS, 1):
        rx, ry = rounded(gx, digits), rounded(gy, digits)
        if rx is None or ry is None:
            continue
        out.append(("grad", [q, *at, "--grad", f"x={rx[0]},y={ry[0]}"], True))
        out.append(("grad", [q, *at, "--grad", f"x={rx[0]},y={one_off(gy, digits, rng)}"],
                    False))
        if not correctly_rounded(ry[0], gx) or not correctly_rounded(rx[0], gy):
            out.append(("grad", [q, *at, "--grad", f"x={ry[0]},y={rx[0]}"], False))  # swapped
    out.append(("grad", [q, *at, "--grad", f"x={text(gx)},y={text(gy)}"], True))
    for u in rng.sample(DIRECTIONS, 3):
        norm = sp.sqrt(u[0]**2 + u[1]**2)
        du = (gx * u[0] + gy * u[1]) / norm
        direction = ["--direction", f"{u[0]},{u[1]}"]
        out.append(("directional", [q, *at, "--directional", text(sp.radsimp(du)), *direction],
                    True))
        got = rounded(du, rng.choice(DIGITS))
        if got is None:
            continue
        out.append(("directional", [q, *at, "--directional", got[0], *direction], True))
        digits = significant(got[0])
        for w in (one_off(du, digits, rng), perturbed(du, digits)):
            out.append(("directional", [q, *at, "--directional", w, *direction], False))
        if differs(du * norm, du, [{}]):  # the direction not normalised
            out.append(("directional", [q, *at, "--directional", text(du * norm), *direction],
                        False))
        if differs(-du, du, [{}]):
            out.append(("directional", [q, *at, "--directional", text(-du), *direction], False))
    return out


def _point_unit(f, a):
    d = sp.diff(f, X)
    kinks = [k.args[0].subs(X, a) for k in f.atoms(sp.Abs)]
    return (_defined(f, a) and _defined(d, a) and abs(sp.N(f.subs(X, a), 30)) > 1e-3
            and all(sp.N(k, 30) != 0 for k in kinks))


def units(seed=32):
    """The generator in units of about 25 cases (a family's derivatives, a family at one
    point, a function of two variables at one point), each a (label, make) pair where
    make() returns its cases; a unit's random choices depend on its place alone, so that
    any selection of units makes the same cases."""
    out = []
    for i, (f, wrongs) in enumerate(FAMILIES):
        rng = random.Random(f"{seed}-{i}")
        out.append((f"d/dx {text(f)}",
                    lambda f=f, w=wrongs, r=rng: _derivative_cases(f, sp.diff(f, X), w, r)))
        for j, a in enumerate(sorted(rng.sample(range(len(POINTS)), 6))):
            a = POINTS[a]
            r = random.Random(f"{seed}-{i}-{j}")
            out.append((f"{text(f)} at x={text(a)}",
                        lambda f=f, w=wrongs, a=a, r=r:
                        _point_cases(f, sp.diff(f, X), w, a, r) if _point_unit(f, a) else []))
    for i, g in enumerate(TWO):
        for j, (a, b) in enumerate(POINTS2):
            r = random.Random(f"{seed}-2-{i}-{j}")
            out.append((f"{text(g)} at x={text(a)},y={text(b)}",
                        lambda g=g, a=a, b=b, r=r:
                        _two_cases(g, a, b, r) if _defined(g.subs(Y, b), a) else []))
    return out


def spread(n: int) -> list:
    """The indices 0..n-1 in an order that covers them evenly from its start (the golden
    ratio's sequence), so that the first k units of it sample every family."""
    phi = (5 ** 0.5 - 1) / 2
    return sorted(range(n), key=lambda i: (i * phi) % 1)


def more_cases(limit=None, seed=32):
    """(mode, CLI arguments, right by SymPy?) of the units above, every one, or, with
    `limit`, whole units taken evenly over all of them until `limit` cases are made."""
    all_units = units(seed)
    cases = []
    for i in spread(len(all_units)) if limit is not None else range(len(all_units)):
        if limit is not None and len(cases) >= limit:
            break
        cases += all_units[i][1]()
    return cases
