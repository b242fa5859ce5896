"""Vector calculus and higher partials: div, curl, the Laplacian, the Jacobian determinant,
and f_xyy in the order the book writes it.

Every derivative comes from gradcli's own symbolic differentiator (the op
table's rules, symbolic/derivative.py) and is simplified and printed as `diff`
prints; the combinations (Q_x - P_y, u_x v_y - u_y v_x) are simplified the
same way. A field's variables are `--wrt`, else x, y, z in that order (never
the order of appearance: `[-y, x^2]` is a field in (x, y)); for a change of
variables in other letters (`[r cos(t), r sin(t)]`) without `--wrt`, the
order in the text, and the result names the variables it used. Values at a
point are exact where SymPy can say (closed_text), beside their doubles.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import DomainError, GradcliError, UsageError
from ..inputs import inputs_of
from ..language.expr import Apply, Program, Vector, first_span
from ..language.parser import given_names
from ..language.printer import read_as
from ..reading import read_program
from ..symbolic.derivative import Derivative, Namer, derivative, inline, program_source, \
    to_program, _check_scalar
from ..symbolic.simplify import Simplifier

KINDS = ("div", "curl", "laplacian", "jacobian_det")
SPACE = ("x", "y", "z")
_GRAD = re.compile(r"^\s*grad\s*\((.*)\)\s*$", re.S)
_NOUN = {"div": "divergence", "curl": "curl", "laplacian": "Laplacian",
         "jacobian_det": "Jacobian determinant"}
_WHAT = {"div": "--div", "curl": "--curl", "laplacian": "--laplacian",
         "jacobian_det": "--jacobian-det"}


@dataclass
class Formula:
    """One printed result: its simplified expression, program and text."""

    root: object
    program: Program
    text: str


@dataclass
class FieldResult:
    """What `diff --div/--curl/--laplacian/--jacobian-det` computed."""

    expression: str
    read_as: str
    variables: list
    results: dict = field(default_factory=dict)   # kind -> Formula, or a list for a 3-D curl
    at: dict = field(default_factory=dict)
    values: dict | None = None                    # kind -> closed text (list for a curl)
    numbers: dict | None = None                   # kind -> double (list for a curl)
    warnings: list = field(default_factory=list)
    from_gradient: bool = False


class Calculus:
    """Differentiation and simplification shared by every result of one question."""

    def __init__(self, avoid=()):
        self.simp = Simplifier()
        self.avoid = set(avoid)

    def simplified(self, root):
        return self.simp.simplify([root])[0]

    def d(self, root, var: str):
        return self.simplified(derivative(root, var))

    def d_seq(self, root, seq):
        for var in seq:
            root = self.d(root, var)
        return root

    def formula(self, root, inputs, book: bool = True) -> Formula:
        from .. import ops
        avoid = self.avoid | set(ops.CONSTANTS) | set(ops.TABLE) | set(ops.function_names())
        prog = to_program(root, Namer({}, avoid, list(inputs)))
        text = program_source(prog)
        shorter = book_form(root, len(prog.statements)) if book else None
        if shorter is not None:
            prog, text = shorter
        return Formula(root, prog, text)


def book_form(root, statements: int):
    """(program, text) of SymPy's simpler form where it is shorter (r for r cos²t + r sin²t)
    and reads back in gradcli as the same formula, else None."""
    if statements > 1 or not _may_shorten(root):
        return None
    from ..closedtext import _text
    from ..symbolic.tosympy import NoSympyForm, is_zero, to_sympy
    import sympy as sp
    try:
        mine = to_sympy(root)
        if not mine.atoms(sp.Function) and all(p.exp.is_Integer for p in mine.atoms(sp.Pow)):
            # a rational function: cancel and factor are what simplify would find here, at a
            # tenth of its cost (a Jacobian determinant's simplify took 0.2 s)
            simpler = min((sp.cancel(mine), sp.factor(mine)), key=sp.count_ops)
        else:
            simpler = sp.simplify(mine)
    except (NoSympyForm, TypeError, ValueError, RecursionError):
        return None
    if sp.count_ops(simpler) > sp.count_ops(mine) - 2:
        return None
    text = _text(simpler)
    try:
        prog = read_program(text)
        back = to_sympy(inline(prog)[0])
    except (GradcliError, NoSympyForm):
        return None
    return (prog, text) if is_zero(back - mine) else None


def _program_root(text: str, names):
    program = read_program(text, names)
    root, _ = inline(program)
    return program, root


def read_field(text: str, wrt, kinds, bindings=None):
    """(program, components or None for a scalar, variables, from_gradient)."""
    names = given_names(bindings, wrt)
    match = _GRAD.match(text)
    inner = match and not re.search(r"[;\n]", match.group(1))
    program, root = _program_root(match.group(1) if inner else text, names)
    scalar_kinds = [k for k in kinds if k == "laplacian"]
    vector_kinds = [k for k in kinds if k != "laplacian"]
    if isinstance(root, Vector) and any(isinstance(c, Vector) for c in root.items):
        raise UsageError("a field is a list of formulas [P, Q, R], not a matrix",
                         source=text, hint='for example: gradcli diff "[x*y, y*z, z*x]" --div')
    if inner:
        _check_scalar(root)
        variables = _variables(wrt, inputs_of(program), None, text)
        if scalar_kinds:
            raise UsageError("--laplacian takes the scalar function itself, not grad(f)",
                             hint=f'gradcli diff "{match.group(1).strip()}" --laplacian')
        calc = Calculus(variables)
        simple = calc.simplified(root)
        return program, [calc.d(simple, v) for v in variables], variables, True
    if isinstance(root, Vector):
        if scalar_kinds:
            raise UsageError("--laplacian is for a scalar function f, not a vector field",
                             source=text, hint='for example: gradcli diff "x^2 y + z^3" '
                                               "--laplacian")
        for c in root.items:
            _check_scalar(c)
        variables = _variables(wrt, inputs_of(program), len(root.items), text)
        return program, list(root.items), variables, False
    _check_scalar(root)
    if vector_kinds:
        what = _WHAT[vector_kinds[0]]
        raise UsageError(f"{what} needs a vector field [P, Q, R] (or [u, v] for "
                         f"--jacobian-det), got one formula", source=text,
                         hint=f'for example: gradcli diff "[x*y, y*z, z*x]" {what}, or '
                              f'gradcli diff "grad(x^2 y)" --curl')
    return program, None, _variables(wrt, inputs_of(program), None, text), False


def _variables(wrt, inputs, n, text) -> list:
    """--wrt, else x, y, z (as many as the field has components), else the text's order."""
    if wrt:
        variables = list(wrt)
        if len(set(variables)) != len(variables):
            raise UsageError("--wrt names a variable twice")
        missing = [v for v in inputs if v not in variables]
        if missing:
            raise UsageError(f"the formula uses {missing[0]}, which --wrt does not list",
                             hint="list every variable of the field in --wrt, in order")
    elif all(v in SPACE for v in inputs):
        if n is None:
            variables = [v for v in SPACE if v in inputs] or ["x"]
        elif n in (2, 3):
            variables = list(SPACE[:n])
        else:
            raise UsageError(f"a field of {n} components needs its variables by --wrt",
                             source=text, hint="for example --wrt x1,x2,x3,x4")
    else:
        variables = list(inputs)
    if n is not None and len(variables) != n:
        raise UsageError(f"the field has {n} components but {len(variables)} variable"
                         f"{'s' * (len(variables) != 1)} ({', '.join(variables)})",
                         source=text, hint="name one variable per component with --wrt, "
                                           "for example --wrt " + ",".join(SPACE[:n] if n <= 3
                                                                          else ["x1", "x2"]))
    return variables


def combine(calc: Calculus, kind: str, parts, variables):
    """The simplified root of one result (a list of roots for a 3-D curl)."""
    if kind == "laplacian":
        (f,) = parts
        return calc.simplified(_sum([calc.d_seq(f, (v, v)) for v in variables]))
    if kind == "div":
        if len(parts) != len(variables):
            raise UsageError("the divergence needs one variable per component")
        return calc.simplified(_sum([calc.d(p, v) for p, v in zip(parts, variables)]))
    if kind == "curl":
        if len(parts) == 2:
            (p, q), (x, y) = parts, variables
            return calc.simplified(Apply("sub", (calc.d(q, x), calc.d(p, y))))
        if len(parts) != 3:
            raise UsageError(f"--curl is for a field of 2 or 3 components, got {len(parts)}",
                             hint='for example: gradcli diff "[y z, x z, x y]" --curl')
        (p, q, r), (x, y, z) = parts, variables
        return [calc.simplified(Apply("sub", (calc.d(a, u), calc.d(b, w))))
                for a, u, b, w in ((r, y, q, z), (p, z, r, x), (q, x, p, y))]
    if kind == "jacobian_det":
        n = len(parts)
        if n not in (2, 3) or len(variables) != n:
            raise UsageError(f"--jacobian-det is for 2 or 3 functions of as many variables, "
                             f"got {n}", hint='for example: gradcli diff "[r cos(t), '
                                             'r sin(t)]" --jacobian-det --wrt r,t')
        m = [[calc.d(p, v) for v in variables] for p in parts]
        return calc.simplified(_det(m))
    raise ValueError(kind)


def _sum(terms):
    out = terms[0]
    for t in terms[1:]:
        out = Apply("add", (out, t))
    return out


def _det(m):
    if len(m) == 2:
        return Apply("sub", (Apply("mul", (m[0][0], m[1][1])), Apply("mul", (m[0][1], m[1][0]))))
    terms = []
    for j, sign in ((0, "add"), (1, "sub"), (2, "add")):
        minor = [[row[k] for k in range(3) if k != j] for row in m[1:]]
        terms.append((sign, Apply("mul", (m[0][j], _det(minor)))))
    out = terms[0][1]
    for sign, t in terms[1:]:
        out = Apply(sign, (out, t))
    return out


def field_operations(text: str, kinds, wrt=None, bindings=None) -> FieldResult:
    """Each of `kinds` (KINDS) of the field or function `text`, and with bindings its value."""
    program, parts, variables, from_gradient = read_field(text, wrt, kinds, bindings)
    calc = Calculus(variables)
    roots = [calc.simplified(inline(program)[0])] if parts is None \
        else [calc.simplified(p) for p in parts]
    result = FieldResult(text, read_as(program), variables, warnings=list(program.warnings),
                         from_gradient=from_gradient)
    if from_gradient:
        result.read_as = f"grad({result.read_as})"
    for kind in kinds:
        root = combine(calc, kind, roots, variables)
        result.results[kind] = [calc.formula(r, variables) for r in root] \
            if isinstance(root, list) else calc.formula(root, variables)
    if bindings is not None:
        _values(result, bindings, program)
    return result


def _values(result: FieldResult, bindings: dict, program) -> None:
    from ..autodiff.lower import missing_input
    for name in result.variables:
        if name not in bindings:
            raise missing_input(name, program, first_span(program, name), bound=bindings)
    result.at = {k: v for k, v in bindings.items()}
    result.values, result.numbers = {}, {}
    for kind, formula in result.results.items():
        many = isinstance(formula, list)
        pairs = [value_at(f, bindings, _NOUN[kind]) for f in (formula if many else [formula])]
        result.values[kind] = [p[0] for p in pairs] if many else pairs[0][0]
        result.numbers[kind] = [p[1] for p in pairs] if many else pairs[0][1]


def value_at(formula: Formula, bindings: dict, what: str):
    """(closed text, double) of a printed formula at a point; exact where SymPy can say."""
    import math

    import sympy as sp

    from ..autodiff.closed import to_closed
    from ..closedtext import closed_text
    from ..symbolic.tosympy import NoSympyForm, symbol, to_sympy
    from ..numbers import number_text
    try:
        expr = to_sympy(formula.root)
    except NoSympyForm:
        expr = None
    if expr is not None:
        point = {symbol(k): to_closed(v) for k, v in bindings.items()}
        value = sp.simplify(expr.subs(point))
        if value.is_number and value.is_finite and value.is_real:
            if value.count_ops() <= 40:
                return closed_text(value), float(value)
            return number_text(float(value)), float(value)
    from ..autodiff.lower import lower
    used = {k: float(v) for k, v in bindings.items() if k in inputs_of(formula.program)}
    try:
        number = float(lower(formula.program, used, wrt=set()).output.data)
    except DomainError as exc:
        raise DomainError(f"the {what} is undefined here: {exc.message}",
                          op=exc.op, args=exc.args_, reason=exc.reason,
                          overflow=exc.overflow) from None
    if not math.isfinite(number):
        raise DomainError(f"the {what} is undefined here")
    return number_text(number), number


def _may_shorten(root) -> bool:
    """Whether SymPy may find a shorter form than gradcli's simplifier: identities of the
    circular and hyperbolic functions (sin² + cos²), and quotients that cancel. Sums of
    products and powers gradcli already collects; SymPy is not loaded for them."""
    from .. import ops
    from ..language.expr import postorder
    for node in postorder(root):
        if isinstance(node, Apply):
            op = ops.TABLE.get(node.op)
            if node.op == "div" or (op is not None and op.category in ("trigonometric",
                                                                       "hyperbolic")):
                return True
    return False


# ------------------------------------------------------------ higher and mixed partials

class LabelledDerivative(Derivative):
    """A partial keyed as the book writes it (xyy), not by diff's comma list."""

    def __init__(self, wrt, program, text, label):
        super().__init__(wrt, program, text)
        self.label = label

    @property
    def key(self) -> str:
        return self.label


def parse_partial(spec: str, variables) -> tuple:
    """'xyy' (single letters, in the order of differentiation) or 'x,y,y' for longer names."""
    text = spec.strip()
    if not text:
        raise UsageError("--partial is empty", hint="for example --partial xyy")
    if "," in text:
        seq = tuple(p.strip() for p in text.split(","))
    elif text in variables:
        seq = (text,)
    else:
        seq = tuple(text)
    for name in seq:
        if name not in variables:
            listed = ", ".join(variables) or "none"
            raise UsageError(f"--partial {text}: '{name}' is not a variable of the expression",
                             hint=f"the variables are: {listed}; a variable of several letters "
                                  "is written with commas: --partial x1,x1,x2")
    from ..limits import MAX_DIFF_ORDER
    if len(seq) > MAX_DIFF_ORDER:
        raise UsageError(f"--partial {text} differentiates {len(seq)} times; the limit is "
                         f"{MAX_DIFF_ORDER}")
    return seq


def partial_label(seq) -> str:
    return "".join(seq) if all(len(v) == 1 for v in seq) else ",".join(seq)


def partials(text: str, specs, bindings=None):
    """diff --partial: each requested partial, keyed as typed (xyy), and where two asked for
    differ only in order (xy and yx), whether they are equal (Clairaut), said by SymPy."""
    from .diff import diff
    program = read_program(text, given_names(bindings, None))
    variables = inputs_of(program)
    seqs = [parse_partial(s, variables) for s in specs]
    seen = []
    for s in seqs:
        if s not in seen:
            seen.append(s)
    result = diff(text, None, 1, bindings, sequences=seen)
    old_values = result.values
    relabelled = []
    for d in result.derivatives:
        relabelled.append(LabelledDerivative(d.wrt, d.program, d.text, partial_label(d.wrt)))
    if old_values is not None:
        result.values = {partial_label(d.wrt): old_values[d.key] for d in result.derivatives}
    result.derivatives = relabelled
    result.clairaut = _clairaut(relabelled)
    return result


def _clairaut(derivatives) -> list:
    """[(label, label, equal)] for each pair asked that differ only in the order of letters."""
    pairs = []
    for i, a in enumerate(derivatives):
        for b in derivatives[i + 1:]:
            if sorted(a.wrt) == sorted(b.wrt):
                pairs.append((a.key, b.key, a.text == b.text or same_formula(a, b)))
    return pairs


def same_formula(a, b) -> bool:
    from ..symbolic.tosympy import NoSympyForm, is_zero, to_sympy
    try:
        d = to_sympy(inline(a.program)[0]) - to_sympy(inline(b.program)[0])
    except NoSympyForm:
        return False
    return bool(is_zero(d))


__all__ = ["KINDS", "field_operations", "partials", "parse_partial", "partial_label",
           "value_at", "read_field", "combine", "Calculus", "Formula", "FieldResult"]
