"""A tangent line or plane graded by exact algebra, its rounded decimals one by one.

The answer is read into SymPy (decimals exactly as typed, each rounded literal an
unknown; an equation solved for z where z enters linearly). It must be a
polynomial of degree at most 1 in the inputs, whatever its literals: else
`not-linear` (a term such as (x - 1)(x - 2) is named, and `+ 0*10^12` adds
nothing to save it). Its height at the point and its slope along each input are
then compared with the exact f(a) and ∇f(a), each on its own: with no rounded
literal by algebra ("decided_by": "proof"), else each literal matched to the
one number it stands for must be that number correctly rounded (digits.judge,
"decided_by": "digits"). None where SymPy cannot read the question or the
answer: tangent.py then samples, as before.
"""
from __future__ import annotations

from ...closedtext import closed_text
from .digits import exactly_equal, judge, shown_places, with_unknowns
from .exact import exact_point, value_and_gradient
from .tangentnames import name_mistake
from .verdict import FORMULA_RTOL_FLOOR, Answer


_SHORT = 4  # operations in an exact number worth printing in closed form


def _describe(value) -> str:
    import sympy as sp
    try:
        # a closed form as a book prints it where it is short (√2/2); simplifying a long
        # one costs a second and helps no one read it
        exact = closed_text(value) if value.is_Rational or not value.has(
            sp.Float, sp.Function) and sp.count_ops(value) <= _SHORT else None
    except Exception:  # a closed form SymPy cannot print: the number alone says it
        exact = None
    approx = sp.N(value, 10)
    text = f"{float(approx):.10g}"
    if exact is None:
        return text if value.is_Rational and sp.N(value, 30) == sp.N(value, 11) else f"{text}…"
    return text if exact == text else f"{exact} = {text}…"


def _literal_texts(programs) -> list:
    from ...language.expr import Num, postorder
    out = []
    for p in programs:
        source = p.source or ""
        for node in postorder(p.statements[-1].expr):
            if type(node) is Num and node.span is not None:
                out.append(source[node.span[0]:node.span[1]])
    return out


def exact_tangent(question, plane, answer: str, t, context) -> Answer | None:
    """The verdict by exact algebra and the digits rule per literal, or None."""
    import sympy as sp

    from ...symbolic.tosympy import NoSympyForm, symbol
    names = list(t.at)
    truth = value_and_gradient(question.program, question.at, names)
    point = exact_point(question.at, names)
    if truth is None or point is None or not plane.sides:
        return None
    fa, grad = truth
    if not _agrees([fa, *grad], [t.value, *(t.gradient[n] for n in names)]):
        return None  # SymPy's reading differs from the engine's (a branch, a kink): sample
    xs = [symbol(n) for n in names]
    shows = shown_places(_literal_texts(plane.sides))
    try:
        read = [with_unknowns(p, {n: t.at[n] for n in names}, shows, prefix=f"_s{i}")
                for i, p in enumerate(plane.sides)]
    except (NoSympyForm, TypeError, ValueError, ArithmeticError):
        return None
    unknowns = [u for _, us in read for u in us]
    a = Answer("tangent", "tangent", answer.strip(), key="tangent", expected=t.equation,
               expected_to=t.equation_to)
    a.correct, a.computed = t.equation, None
    what = "line" if len(names) == 1 else "plane"
    try:
        if plane.explicit is not None:
            expr = read[0][0]
        else:
            dep = symbol(plane.dep)
            g = sp.expand(read[0][0] - read[1][0])
            if not g.is_polynomial(dep) or sp.degree(g, dep) != 1:
                return None  # the sampling path refuses it with its own words
            q, p = g.coeff(dep, 1), g.coeff(dep, 0)
            if q.free_symbols & set(xs):
                return _not_linear(a, names, what, f"{plane.dep} multiplies a term in "
                                   + ", ".join(names))
            expr = -p / q
        if _too_high(expr):
            return None
        expanded = sp.expand(expr)
        if not expanded.is_polynomial(*xs):
            return _not_linear(a, names, what, "it is not a polynomial in "
                               + ", ".join(names))
        poly = sp.Poly(expanded, *xs)
        typed = {s: v for s, _, v in unknowns}
        for monomial, c in poly.terms():
            if sum(monomial) >= 2 and not exactly_equal(c.subs(typed), 0):
                term = "·".join(f"{n}^{k}" if k > 1 else n
                                for n, k in zip(names, monomial) if k)
                return _not_linear(a, names, what, f"it has the term {term} (coefficient "
                                   f"{_describe(c.subs(typed))})")
        slopes = [poly.coeff_monomial(x) for x in xs]
        height = expanded.subs({x: point[n] for x, n in zip(xs, names)})
    except (sp.PolynomialError, NoSympyForm, TypeError, ValueError, ArithmeticError):
        return None
    judged = judge([height, *slopes], [fa, *grad], unknowns, _describe)
    a.decided_by = judged.decided_by
    if all(judged.oks):
        a.ok = True
        return a
    typed = {s: v for s, _, v in unknowns}
    floats = [float(sp.N(q.subs(typed), 20)) for q in [height, *slopes]]
    fpoint = {n: float(t.at[n]) for n in names}
    fgrad = [float(sp.N(g, 20)) for g in grad]
    fa_f = float(sp.N(fa, 20))
    q_scale = max([abs(fa_f), *map(abs, fgrad)])
    name_mistake(a, plane.dep, fpoint, names, fa_f, fgrad, floats[0], floats[1:],
                 judged.oks[0], judged.oks[1:], FORMULA_RTOL_FLOOR, context.atol, q_scale)
    if judged.notes:
        a.reason += "; " + "; ".join(judged.notes)
    return a


def _not_linear(a: Answer, names, what: str, why: str) -> Answer:
    a.mistake, a.decided_by = "not-linear", "proof"
    a.reason = f"your answer is not linear in {', '.join(names)}: a tangent {what} is; {why}"
    return a


_HIGHEST = 64  # a power beyond this is no textbook answer: expanding it could take minutes


def _too_high(expr) -> bool:
    import sympy as sp
    return any(p.exp.is_Integer and abs(p.exp) > _HIGHEST for p in expr.atoms(sp.Pow))


def _agrees(exact, computed) -> bool:
    """The exact numbers are the engine's own, to the engine's rounding."""
    import sympy as sp
    for e, c in zip(exact, computed):
        try:
            e, c = float(sp.N(e, 20)), float(c)
        except (TypeError, ValueError):
            return False
        if not abs(e - c) <= 1e-9 * max(abs(e), abs(c), 1.0):
            return False
    return True
