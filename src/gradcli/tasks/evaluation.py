"""The eval task: the value and every partial derivative of an expression at one point.

Also the Hessian (double backward), the Jacobian or a seeded vector-Jacobian
product of a non-scalar result, and exact (Fraction) arithmetic. Returns an
EvalResult; nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..autodiff.batch import second_partials
from ..autodiff.lower import Graph, gradient_of, lower
from ..errors import InexactError, UsageError
from ..inputs import prepare
from ..kinks import KinkWarnings
from ..reading import given_names, read_program
from ..language.printer import quoted, read_as
from ..numbers import format_number


@dataclass
class EvalResult:
    """The value and partials of a program at one point."""

    expression: str
    read_as: str
    at: dict
    value: object
    gradient: dict
    inputs: list
    result_name: str = "f"
    warnings: list = field(default_factory=list)
    graph: Graph | None = None
    hessian: dict | None = None
    seed: object = None  # the upstream gradient given with --seed
    jacobian: dict | None = None  # name -> d result / d name, shape result.shape + name.shape
    exact_point: object = None  # autodiff.typedpoint.TypedPoint for a closed-form point


def evaluate(text, bindings=None, /, *, wrt=None, intermediates=False, exact=False,
             hessian=False, program=None, seed=None, jacobian=False, numerics=False,
             **kw) -> EvalResult:
    """Value and partial derivatives of `text` at a point.

    Values may be numbers or (nested lists of) arrays. A non-scalar result needs
    `seed` (the upstream gradient, as PyTorch's backward(gradient=...)) or
    `jacobian=True`; otherwise it is a ShapeError. `exact`: compute with
    Fractions (InexactError where an operation has no rational result).
    `hessian`: also the matrix of second partials over the inputs, as
    `result.hessian[a][b]`. `numerics`: also warn where rounding may have made the
    value or a partial meaningless (precision.py).

    >>> evaluate("(w*x+b)**2", w=3, x=2, b=1).gradient
    {'w': 28.0, 'x': 42.0, 'b': 14.0}
    """
    typed = getattr(bindings, "typed", None)
    result = _evaluate(text, bindings, wrt, intermediates, exact, hessian, program, seed,
                       jacobian, kw)
    settled = set()
    if typed and not exact and seed is None and not jacobian:
        from ..autodiff.typedpoint import hessian as exact_hessian, refine
        settled = refine(result, typed)
        if hessian:
            exact_hessian(result)
    if numerics and not exact and seed is None and not jacobian:
        from .precision import warning
        message = warning(result.graph, result.result_name, result.value, result.gradient,
                          result.at, [n for n in result.inputs if n not in settled],
                          value_settled=None in settled)
        if message:
            result.warnings.append(message)
    return result


def _evaluate(text, bindings, wrt, intermediates, exact, hessian, program, seed, jacobian,
              kw) -> EvalResult:
    program = program or read_program(text, given_names(bindings, kw, wrt))
    bindings = dict(bindings or {})
    bindings.update(kw)
    if exact == "closed":
        from ..autodiff.closed import to_closed
        bindings = {k: to_closed(v) for k, v in bindings.items()}
    elif exact:
        from ..autodiff.exact import to_exact
        bindings = {k: to_exact(v) for k, v in bindings.items()}
    else:
        bindings = {k: (float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v)
                    for k, v in bindings.items()}
        for k, v in bindings.items():
            if isinstance(v, (list, tuple)):
                from ..autodiff.shapes import as_array
                bindings[k] = as_array(v, f"the value of {k}")
    if seed is not None and jacobian:
        raise UsageError("--seed and --jacobian cannot be combined",
                         hint="--jacobian already holds every vector-Jacobian product")
    variables, warnings, wanted, used = prepare(program, bindings, wrt)
    known = set(variables)
    named = [n for n in wanted if n not in known]
    if named and (hessian or jacobian):
        raise UsageError(f"--{'hessian' if hessian else 'jacobian'} is by inputs only, and "
                         f"'{named[0]}' is an intermediate name of the program",
                         hint="drop it from --wrt, or without --wrt every input is used")
    # Exact mode keeps every node's Expr so that an inexact derivative can be named.
    graph = lower(program, used, wrt=set(wanted), exact=exact, keep_exprs=exact)
    kinks = KinkWarnings(graph)
    on_kink = kinks.on_kink

    out = graph.output
    jac = None
    scalar_out = type(out.data) is float or getattr(out.data, "shape", ()) == ()
    if jacobian:
        from ..autodiff.vectors import jacobian as full_jacobian
        jac = full_jacobian(out, {name: graph.inputs[name] for name in wanted}, on_kink)
        if scalar_out:
            for name in wanted:
                graph.inputs[name].grad = jac[name]
    elif seed is not None:
        from ..autodiff.vectors import seeded_backward
        seeded_backward(out, seed, on_kink)
    elif not scalar_out and wanted:
        from ..autodiff.shapes import nonscalar_error
        raise nonscalar_error(out.data.shape)
    elif out.requires_grad:
        try:
            out.backward(on_kink=on_kink)
        except InexactError as exc:
            raise _inexact_derivative(graph, exc) from None
    kinks.add_to(warnings)
    gradient = {} if jac is not None and not scalar_out else \
        {name: gradient_of(graph, name) for name in wanted}
    if exact == "closed":
        gradient = {name: _no_closed_infinity(g) for name, g in gradient.items()}
    for name, g in gradient.items():
        if not _finite(g) and not kinks.messages:
            warnings.append(f"the partial derivative with respect to {name} is "
                            f"{format_number(g) if isinstance(g, float) else 'not finite'}")
    if intermediates and (jac is None or scalar_out):
        for name, node in graph.intermediates.items():
            if node is not out and name not in gradient:
                gradient[name] = node.grad
    matrix = None
    if hessian:
        matrix = hessian_of(graph, wanted, warnings)
    last = program.statements[-1]
    return EvalResult(hessian=matrix, expression=text, read_as=read_as(program),
                      at={k: bindings[k] for k in bindings},
                      value=out.data, gradient=gradient, inputs=wanted,
                      result_name=result_label(program), warnings=warnings, graph=graph,
                      seed=seed, jacobian=jac)


def result_label(program) -> str:
    """What the result is called: its name (`loss = ...`), a defined function's call as
    typed (`f'(2)`, `g_x(1,2)`), else f."""
    last = program.statements[-1]
    if last.name:
        return last.name
    from ..language.expr import Call
    typed = getattr(program, "original", None) or program
    expr = typed.statements[-1].expr
    if isinstance(expr, Call) and expr.span is not None and typed.source:
        text = typed.source[expr.span[0]:expr.span[1]].strip()
        if text and "\n" not in text and len(text) <= 40:
            return text
    return "f"


def _inexact_derivative(graph: Graph, exc: InexactError) -> InexactError:
    """An exact derivative that is not rational, in the user's terms."""
    node = getattr(exc, "node", None)
    expr = graph.exprs.get(id(node)) if node is not None else None
    needs = exc.message.removeprefix("--exact: ").split(" has no", 1)[0]
    if expr is None:
        where = "a derivative"
    else:
        arg = expr.args[exc.wrt_index] if exc.wrt_index < len(expr.args) else None
        where = f"the derivative of {quoted(expr)}" + (
            f" with respect to {quoted(arg)}" if arg is not None else "")
    return InexactError(f"--exact: {where} needs {needs}, which has no exact rational value",
                        source=graph.program.source if expr is not None else None,
                        span=expr.span if expr is not None else None, hint=exc.hint)


def hessian_of(graph: Graph, wanted: list, warnings: list) -> dict:
    """Second partials by differentiating the backward pass itself (double backward).

    The gradient is built as a graph of Values (`create_graph=True`), then each
    partial is differentiated again. Rows that pass through a derivative rule
    undefined at the point (`1/(2*sqrt(x))` at 0) are nan, with a warning.
    """
    out = graph.output
    leaves = [graph.inputs[name] for name in wanted]
    for node in [out, *leaves]:
        if getattr(node.data, "shape", ()) != ():
            what = "the result" if node is out else f"'{node.label}'"
            raise UsageError(f"--hessian needs scalars, but {what} is not a scalar",
                             hint="for vectors use --jacobian, or sum(...) the result")
    zero = _zero_like(out.data)
    matrix = {a: {b: zero for b in wanted} for a in wanted}
    if not out.requires_grad or not leaves:
        return matrix
    saved = [leaf.grad for leaf in leaves]
    for a, (_, row) in zip(wanted, second_partials(out, leaves)):
        if row is None:
            continue
        if row and isinstance(row[0], str):
            nan = float("nan")
            matrix[a] = {b: nan for b in wanted}
            warnings.append(f"the second derivatives of the partial with respect to {a} "
                            f"go through the derivative of {', '.join(row)}, which is "
                            "undefined at this point: they are nan")
            continue
        for b, second in zip(wanted, row):
            # `+ zero` also turns IEEE -0.0 (from terms like -x**2*sin(0)) into 0.
            matrix[a][b] = second + zero if not _is_int_zero(second) else zero
    for leaf, g in zip(leaves, saved):
        leaf.grad = g
    return matrix


def _is_int_zero(g) -> bool:
    return type(g) is int and g == 0


def _zero_like(data):
    from fractions import Fraction
    return Fraction(0) if type(data) is Fraction else 0.0


def _no_closed_infinity(g):
    """An infinite or undefined SymPy partial as the double the float engine gives
    (inf, -inf, nan): `oo` and `zoo` are not closed forms gradcli prints or reads."""
    from ..autodiff.closed import is_closed
    if not is_closed(g) or not g.has(*_infinities()):
        return g
    import sympy as S
    if g in (S.oo, -S.oo):
        return float(g)
    return float("nan")


def _infinities():
    import sympy as S
    return S.zoo, S.nan, S.oo, -S.oo


def _finite(g) -> bool:
    if hasattr(g, "shape"):
        import numpy as np
        return bool(np.isfinite(g).all())
    try:
        return -float("inf") < g < float("inf")
    except TypeError:
        return True
