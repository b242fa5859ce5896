"""The closed regions and constraint sets of `extrema` in several variables, read exactly.

A region is a list of inequalities g >= 0 (SymPy polynomials in the region's
variables), each with the text of its boundary piece `g = 0` as the user wrote
it: `--over x=0:2,y=-1:1` is the rectangle's four sides, `--where "x >= 0, y >= 0,
x + y <= 8"` a triangle, `--where "x^2 + y^2 <= 4"` a disk. A constraint set is
a list of equations g = 0 (`--subject-to`, repeatable).

Whether a set is bounded is decided from the leading homogeneous parts of its
polynomials: a sequence of points of the set going to infinity has its
directions tend to a unit d where every leading part of an equation vanishes
and every leading part of an inequality is >= 0. No such d: the set is
bounded. Imports SymPy.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import sympy as S

from ..errors import UsageError
from .exactinput import read_sympy

_RELATION = re.compile(r"(<=|>=|≤|≥|=<|=>|<|>|==|=)")
_LESS = {"<=", "≤", "=<"}
_GREATER = {">=", "≥", "=>"}


@dataclass
class Piece:
    """One inequality g >= 0 of a region; `text` is its boundary curve as written."""

    g: object
    text: str


@dataclass
class Region:
    """A closed region (pieces g >= 0) or a constraint set (equations g = 0)."""

    names: list                 # the variables, in order
    pieces: list                # [Piece]: g >= 0, or g = 0 for constraints
    text: str                   # as the user gave it, for the writers
    box: dict = field(default_factory=dict)   # --over: name -> (lo, hi)
    constraint: bool = False

    @property
    def symbols(self) -> list:
        return [S.Symbol(n, real=True) for n in self.names]


def _sympy(text: str, option: str):
    try:
        value, names, _ = read_sympy(text)
    except UsageError:
        raise
    except Exception as exc:  # a parse error is reported in the option's terms
        raise UsageError(f"{option}: '{text.strip()}' cannot be read ({exc})",
                         hint='for example --where "x^2 + y^2 <= 4"') from exc
    return value, names


def _sides(part: str, option: str):
    pieces = _RELATION.split(part)
    texts, relations = pieces[0::2], pieces[1::2]
    if not relations or any(not t.strip() for t in texts):
        raise UsageError(f"{option}: '{part.strip()}' is not an "
                         + ("equation" if option == "--subject-to" else "inequality"),
                         hint='for example --subject-to "x^2 + y^2 = 1"'
                         if option == "--subject-to" else 'for example --where "x + y <= 8"')
    return texts, relations


def read_where(text: str) -> Region:
    """--where "x >= 0, y >= 0, x + y <= 8": the closed region's inequalities."""
    from ..inputs import split_top_level
    pieces, names = [], []
    for part in split_top_level(text):
        texts, relations = _sides(part, "--where")
        for i, relation in enumerate(relations):
            if relation in ("<", ">"):
                raise UsageError(f"--where: '{part.strip()}' is strict; the extreme value "
                                 "theorem needs a closed region",
                                 hint="write <= or >= (the boundary belongs to the region)")
            if relation not in _LESS | _GREATER:
                raise UsageError(f"--where: '{part.strip()}' is an equation; a region is "
                                 "given by inequalities",
                                 hint='for an equation constraint use --subject-to "..."')
            (lhs, ln), (rhs, rn) = _sympy(texts[i], "--where"), _sympy(texts[i + 1], "--where")
            names += [n for n in ln + rn if n not in names]
            g = rhs - lhs if relation in _LESS else lhs - rhs
            left, right = texts[i].strip(), texts[i + 1].strip()
            if not lhs.free_symbols:  # 0 <= x: the boundary is x = 0, as a book says it
                left, right = right, left
            pieces.append(Piece(S.expand(g), f"{left} = {right}"))
    _polynomial(pieces, "--where")
    return Region(sorted(names), pieces, text.strip())


def read_box(over: str) -> Region:
    """--over x=0:2,y=-1:1: the rectangle's four sides as inequalities."""
    from ..inputs import split_top_level
    from .analyze import parse_interval
    pieces, box = [], {}
    for part in split_top_level(over):
        name = part.partition("=")[0].strip()
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise UsageError(f"--over expects NAME=A:B pieces, got '{part.strip()}'",
                             hint="for example --over x=0:2,y=-1:1")
        if name in box:
            raise UsageError(f"--over gives {name} twice")
        lo, hi = parse_interval(part.strip(), name, "extrema")
        if not (lo.is_finite and hi.is_finite):
            raise UsageError(f"--over {part.strip()}: a rectangle needs finite sides",
                             hint="an unbounded region may have no maximum or minimum")
        box[name] = (lo, hi)
        v = S.Symbol(name, real=True)
        from ..closedtext import closed_text
        pieces += [Piece(v - lo, f"{name} = {closed_text(lo)}"),
                   Piece(hi - v, f"{name} = {closed_text(hi)}")]
    return Region(list(box), pieces, over.strip(), box=box)


def read_constraints(texts) -> Region:
    """--subject-to "x^2 + y^2 = 1" (one or two): the equations g = 0."""
    pieces, names = [], []
    for text in texts:
        sides, relations = _sides(text, "--subject-to")
        if relations != ["="] and relations != ["=="]:
            raise UsageError(f"--subject-to: '{text.strip()}' is not one equation F = G",
                             hint="for a region given by inequalities use --where")
        (lhs, ln), (rhs, rn) = (_sympy(sides[0], "--subject-to"),
                                _sympy(sides[1], "--subject-to"))
        names += [n for n in ln + rn if n not in names]
        g = S.expand(lhs - rhs)
        if g == 0 or not g.free_symbols:
            raise UsageError(f"--subject-to: '{text.strip()}' holds "
                             + ("everywhere" if g == 0 else "nowhere")
                             + "; it constrains nothing")
        pieces.append(Piece(g, text.strip()))
    _polynomial(pieces, "--subject-to")
    return Region(sorted(names), pieces, "; ".join(t.strip() for t in texts), constraint=True)


def _polynomial(pieces, option):
    for p in pieces:
        symbols = sorted(p.g.free_symbols, key=str)
        if not symbols or not p.g.is_polynomial(*symbols):
            raise UsageError(f"{option}: '{p.text}' is not a polynomial curve or surface; "
                             "gradcli handles regions and constraints bounded by lines, "
                             "conics and other polynomial equations",
                             hint='for example --where "x^2 + y^2 <= 4"')


def _top(g, symbols):
    poly = S.Poly(g, *symbols)
    d = poly.total_degree()
    return S.Add(*[c * S.Mul(*[s ** e for s, e in zip(symbols, m)])
                   for m, c in poly.terms() if sum(m) == d]), d


def directions_to_infinity(region: Region) -> list:
    """The unit directions d in which the set may go on forever (empty: it is bounded).

    For equations: the real unit d where every leading part vanishes. For
    inequalities (in the plane): every d where each leading part is >= 0, where
    a leading part that is <= 0 everywhere and 0 at d leaves the decision to
    the next part (a parabola y >= x^2 goes up, not down).
    """
    symbols = region.symbols
    tops = [_top(p.g, symbols) for p in region.pieces]
    if region.constraint:
        if any(_definite(t, symbols) for t, _ in tops):
            return []
        unit = S.Add(*[s ** 2 for s in symbols]) - 1
        try:
            found = S.solve([t for t, _ in tops] + [unit], symbols, dict=True)
        except NotImplementedError:
            return [None]
        # a family of directions (a free parameter left) has real members
        return [d for d in found if any(v.free_symbols for v in d.values())
                or len(d) < len(symbols) or all(_real(v) for v in d.values())]
    if len(symbols) != 2:
        raise UsageError("--where describes a region of the plane (two variables)",
                         hint='for example --where "x^2 + y^2 <= 4"')
    x, y = symbols
    import math
    numeric = [S.lambdify((x, y), t, "math") for t, _ in tops]
    out = []
    for k in range(720):
        # a sampled direction where every leading part is clearly positive: unbounded
        c, s = math.cos(k * math.pi / 360), math.sin(k * math.pi / 360)
        values = [fn(c, s) for fn in numeric]
        if all(v > 1e-9 for v in values):
            out.append({x: S.Float(c), y: S.Float(s)})
    if out:
        return out
    exact = set()
    for t, _ in tops:
        # the exact directions where a leading part changes sign or vanishes
        if t.subs({x: 0, y: 1}) == 0:
            exact |= {(S.Integer(0), S.Integer(1)), (S.Integer(0), S.Integer(-1))}
        u = S.Symbol("u")
        along = t.subs({x: 1, y: u})
        if along.free_symbols:
            for r in S.Poly(along, u).real_roots():
                n = S.sqrt(1 + r ** 2)
                exact |= {(1 / n, r / n), (-1 / n, -r / n)}
    for cx, cy in exact:
        d = {x: cx, y: cy}
        if all(_eventually_nonnegative(p.g, t, deg, d, symbols) for p, (t, deg) in
               zip(region.pieces, tops)):
            out.append(d)
    return out


def _definite(top, symbols) -> bool:
    """A leading part like x^4 + y^4 + z^4 or 2x^2 + 3y^2: even powers of each variable
    alone, all of one sign, so it vanishes at no real direction and the set is bounded.
    SymPy's solve of such a part on the unit sphere can return a family of complex
    directions, which must not be taken for real ones."""
    terms = S.Poly(top, *symbols).terms()
    alone = [m for m, _ in terms if sum(1 for e in m if e) == 1 and max(m) % 2 == 0]
    signs = {c > 0 for _, c in terms}
    return (len(alone) == len(terms) == len(symbols) and len(signs) == 1
            and {m.index(max(m)) for m in alone} == set(range(len(symbols))))


def _real(v) -> bool:
    return v.is_real or (v.is_real is None and abs(v.evalf(30).as_real_imag()[1]) < 1e-25)


def _eventually_nonnegative(g, top, degree, d, symbols) -> bool:
    value = top.subs(d)
    numeric = value.evalf(30)
    if abs(numeric) > 1e-25:
        return numeric > 0
    if S.simplify(value) != 0:
        return numeric > 0
    # top(d) = 0: if top <= 0 all round (-x^2, -(x - y)^2), the next part decides
    import math
    x, y = symbols
    fn = S.lambdify((x, y), top, "math")
    samples = [fn(math.cos(k * math.pi / 90), math.sin(k * math.pi / 90)) for k in range(180)]
    if max(samples) > 1e-12 or degree < 1:
        return True
    poly = S.Poly(g, *symbols)
    nxt = S.Add(*[c * S.Mul(*[s ** e for s, e in zip(symbols, m)])
                  for m, c in poly.terms() if sum(m) == degree - 1])
    return nxt.subs(d).evalf(30) >= -1e-25
