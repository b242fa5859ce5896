"""The multivariable chain rule: z = f(x, y) with x, y functions of parameters (s, t).

`diff EXPR --with "x = s cos t, y = s sin t"` gives, for each parameter p,

    ∂z/∂p = Σ_v ∂z/∂v · ∂v/∂p   (+ ∂z/∂p itself where f names p directly)

in two forms a book prints: the mixed form with the outer and the inner
letters together (`2x cos t + 2y sin t`), and the substituted form in the
parameters alone, simplified (`2s`). With one parameter the derivative is
the total dz/dt. The outer partials come from gradcli's own symbolic
differentiator (symbolic/derivative.py), read into SymPy for the algebra.
Nothing here prints. Imports SymPy (only `diff --with` and its check come here).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as S

from ..errors import UsageError
from ..inputs import split_top_level
from .exactinput import read_sympy
from .implicit import top_equals

EXAMPLE = '--with "x = s cos t, y = s sin t"'


@dataclass
class ChainRule:
    """Every piece of the chain rule for z = f(outer) with the outer letters given in the
    parameters."""

    expression: str
    read_as: str
    outer: list                  # f's own variables, in order of appearance
    inner: dict                  # outer letter -> its formula in the parameters (SymPy)
    inner_text: dict             # ... as typed
    params: list                 # the parameters, in order of appearance
    wrt: list                    # the parameters asked for
    f: object                    # z as SymPy in the outer letters
    partials: dict               # outer letter (or a parameter f names) -> ∂z/∂v
    inner_derivatives: dict      # (outer letter, parameter) -> ∂v/∂p
    mixed: dict                  # parameter -> the mixed form
    derivatives: dict            # parameter -> the substituted, simplified form
    at: dict | None = None       # parameter -> exact value
    values: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)

    @property
    def z(self) -> str:
        """The dependent variable's letter: z, or w or u where z is one of the variables."""
        return next(n for n in ("z", "w", "u", "f") if n not in self.outer
                    and n not in self.params)

    @property
    def total(self) -> bool:
        """One parameter: the derivative is the total dz/dt, printed with d not ∂."""
        return len(self.params) == 1

    def terms(self, p) -> list:
        """[(v, ∂z/∂v, ∂v/∂p)] for each link of the chain from z to p (∂v/∂p = 1 for p
        itself where f names it)."""
        out = []
        for v in self.partials:
            if v in self.inner:
                out.append((v, self.partials[v], self.inner_derivatives[(v, p)]))
            elif v == p:
                out.append((v, self.partials[v], S.Integer(1)))
        return out


def parse_with(text: str) -> list:
    """'x = s cos t, y = s sin t' -> [('x', 's cos t'), ('y', 's sin t')]."""
    if not text or not text.strip():
        raise UsageError("--with is empty", hint=f"for example {EXAMPLE}")
    pairs = []
    for part in split_top_level(text):
        eq = top_equals(part)
        if len(eq) != 1:
            raise UsageError(f"--with gives each inner variable as NAME = FORMULA; got "
                             f"'{part.strip()}'", source=text, hint=f"for example {EXAMPLE}")
        name, formula = part[:eq[0]].strip(), part[eq[0] + 1:].strip()
        if not name.isidentifier() or not formula:
            raise UsageError(f"--with: '{part.strip()}' is not NAME = FORMULA", source=text,
                             hint=f"for example {EXAMPLE}")
        if name in (n for n, _ in pairs):
            raise UsageError(f"--with gives {name} twice", source=text)
        pairs.append((name, formula))
    return pairs


def _partial(text: str, program, v: str):
    """∂f/∂v by gradcli's differentiator, as SymPy; SymPy's own where the text has a form
    only gradcli's printer knows."""
    from ..symbolic.derivative import differentiate_text
    from ..symbolic.realforms import symbol
    from ..errors import GradcliError
    try:
        return read_sympy(differentiate_text(text, [v], 1, program))[0]
    except GradcliError:  # a form only gradcli's printer knows (sign, step): SymPy's own
        return S.diff(read_sympy(text)[0], symbol(v))


def chain_rule(text: str, with_text: str, wrt=None, at: dict | None = None) -> ChainRule:
    """The chain rule for the expression `text` with --with's inner functions."""
    from ..language.printer import read_as
    from ..symbolic.realforms import symbol
    f, outer, program = read_sympy(text)
    pairs = parse_with(with_text)
    unknown = [n for n, _ in pairs if n not in outer]
    if unknown:
        raise UsageError(f"--with gives {', '.join(unknown)}, which "
                         f"{'is' if len(unknown) == 1 else 'are'} not a variable of the "
                         f"expression ({', '.join(outer) or 'none'})",
                         hint=f"for example {EXAMPLE}")
    inner, inner_text, params = {}, {}, []
    for name, formula in pairs:
        expr, variables, _ = read_sympy(formula)
        clash = [v for v in variables if v in dict(pairs)]
        if clash:
            raise UsageError(f"--with {name} = {formula}: the inner functions are written in "
                             f"the parameters, not in {', '.join(clash)}", source=with_text)
        inner[name], inner_text[name] = expr, formula
        params += [v for v in variables if v not in params]
    # A letter of f given by no --with is a parameter itself (z = f(x, y, t), x = x(t)).
    free = [v for v in outer if v not in inner]
    for v in free:
        if v not in params:
            params.append(v)
    if not params:
        raise UsageError("the inner functions of --with have no parameter (s, t, ...): "
                         "nothing to differentiate by", hint=f"for example {EXAMPLE}")
    if wrt:
        bad = [p for p in wrt if p not in params]
        if bad:
            raise UsageError(f"--wrt {', '.join(bad)}: not a parameter of --with "
                             f"({', '.join(params)})",
                             hint="--wrt names the parameters, as --wrt " + ",".join(params))
        wanted = list(wrt)
    else:
        wanted = list(params)
    partials = {v: _partial(text, program, v) for v in outer}
    inner_derivatives = {(v, p): S.diff(inner[v], symbol(p)) for v in inner for p in wanted}
    subs = {symbol(v): e for v, e in inner.items()}
    out = ChainRule(text, read_as(program), outer, inner, inner_text, params, wanted, f,
                    partials, inner_derivatives, {}, {}, warnings=list(program.warnings))
    for p in wanted:
        mixed = S.Add(*[fv * dv for _, fv, dv in out.terms(p)])
        out.mixed[p] = mixed
        out.derivatives[p] = tidy(mixed.xreplace(subs))
    if at:
        extra = [n for n in at if n not in params]
        missing = [p for p in params if p not in at]
        if extra or missing:
            raise UsageError("--at gives the parameters' values: "
                             + ", ".join(f"{p}=…" for p in params)
                             + (f" (not {', '.join(extra)})" if extra else ""),
                             hint="for example --at " + ",".join(f"{p}=1" for p in params))
        out.at = {p: S.sympify(at[p]) for p in params}
        point = {symbol(p): v for p, v in out.at.items()}
        for p in wanted:
            value = out.derivatives[p].xreplace(point)
            value = tidy(value)
            if not (value.is_finite and value.is_real):
                from ..errors import DomainError
                raise DomainError(f"∂z/∂{p} is undefined at "
                                  + ", ".join(f"{k} = {v}" for k, v in out.at.items()))
            out.values[p] = value
    return out


_TRIG = (S.sin, S.cos, S.tan, S.cot, S.sec, S.csc)


def tidy(expr):
    """The book's simplified form, roots out of denominators: the shortest of the factored
    form and, with trigonometric functions, trigsimp's (SymPy's simplify costs seconds)."""
    forms = [S.factor(S.cancel(expr))]
    if expr.has(*_TRIG):
        forms.append(trig_simplified(expr))
    out = min(forms, key=S.count_ops)
    if out.is_number:
        out = S.nsimplify(S.radsimp(out)) if out.has(S.Float) else S.radsimp(out)
    return out


def trig_simplified(expr):
    """trigsimp, with each trigonometric function's argument that is not linear in the
    letters taken as one letter. trigsimp tries its sum and product rules inside every
    argument: on cos(y x^2) with x = t^4 - 2t, y = 1 - t^6 the argument is a polynomial
    of 5 terms, and its expansions took 47 s. The identities a book uses hold whatever
    the argument (sin²u + cos²u = 1, 2 sin u cos u = sin 2u), so they still apply."""
    letters, back = {}, {}
    for f in expr.atoms(*_TRIG):
        arg = f.args[0]
        if arg in letters or _linear(arg):
            continue
        u = S.Dummy("u")
        letters[arg], back[u] = u, arg
    if not letters:
        return S.trigsimp(expr)
    # xreplace works from the top: a trig function inside an abstracted argument goes with it
    abstract = expr.xreplace({f: f.func(letters[f.args[0]]) for f in expr.atoms(*_TRIG)
                              if f.args[0] in letters})
    return S.trigsimp(abstract).xreplace(back)


def _linear(arg) -> bool:
    """a·t + b·s + c with rational a, b, c: an argument trigsimp's sum rules are for."""
    try:
        poly = S.Poly(arg, *sorted(arg.free_symbols, key=str)) if arg.free_symbols else None
    except S.PolynomialError:
        return False
    if poly is None:
        return True
    return poly.total_degree() <= 1 and all(c.is_Rational for c in poly.coeffs())


def _sum(pieces) -> str:
    """Printed terms joined as a book does: 'a + b - c', never '+ -c'."""
    out = ""
    for piece in pieces:
        if piece == "0":
            continue
        if not out:
            out = piece
        elif piece.startswith("-"):
            out += " - " + piece[1:]
        else:
            out += " + " + piece
    return out or "0"


def mixed_text(r, p, printer=None) -> str:
    """The mixed form in the order of the chain's links: 2x cos(t) + 2y sin(t); `printer`
    turns a SymPy term into text (the book's print by default)."""
    if printer is None:
        from ..closedtext import printed_text as printer
    return _sum([printer(fv * dv) for _, fv, dv in r.terms(p)])
