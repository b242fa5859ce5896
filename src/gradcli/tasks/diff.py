"""The diff task: every partial derivative as a formula, and with a point, its value there.

First-order values come from the engine (evaluate), so they are exactly the
numbers `eval` prints; higher orders evaluate the printed formula at the point.
"""
from __future__ import annotations

from ..autodiff.lower import lower, missing_input
from ..errors import DomainError
from .evaluation import evaluate
from ..inputs import inputs_of
from ..language.expr import first_span
from ..reading import given_names, read_program
from ..language.printer import read_as
from ..symbolic.derivative import check_order, differentiate as symbolic_diff, inline, program_source


def diff(text: str, wrt=None, order: int = 1, bindings=None, sequences=None):
    """Every partial derivative of `order` (over `wrt`, default all) and, with bindings, values.

    First-order values come from the engine, so they are exactly `evaluate`'s;
    higher orders evaluate the printed formula at the point.
    """
    check_order(order)
    program = read_program(text, given_names(bindings, wrt))
    if bindings is not None:
        # Before the symbolic work, which takes seconds on a formula thousands of levels deep.
        for name in inputs_of(program):
            if name not in bindings:
                raise missing_input(name, program, first_span(program, name), bound=bindings)
    result = symbolic_diff(text, wrt, order, sequences=sequences, program=program)
    program = result.program
    result.read_as = read_as(program)
    result.warnings = list(program.warnings)
    result.values = None
    result.at = {}
    if bindings is None:
        return result
    wanted = sorted({v for d in result.derivatives for v in d.wrt}, key=result.variables.index)
    ev = evaluate(text, bindings, wrt=wanted, program=program, numerics=True)
    result.warnings = ev.warnings
    result.at = ev.at
    result.values = {}
    for d in result.derivatives:
        if len(d.wrt) == 1:
            result.values[d.key] = ev.gradient[d.wrt[0]]
        else:
            result.values[d.key] = _formula_value(d, bindings)
    return result


def _formula_value(derivative, bindings):
    """The value of a derivative's printed program at the point."""
    program = derivative.program
    program.source = program_source(program)
    used = {k: v for k, v in bindings.items() if k in inputs_of(program)}
    used = {k: float(v) if isinstance(v, int) else v for k, v in used.items()}
    try:
        graph = lower(program, used, wrt=set())
    except DomainError as exc:
        raise DomainError(f"the derivative by {derivative.key} is undefined here: {exc.message}",
                          op=exc.op, args=exc.args_, reason=exc.reason,
                          overflow=exc.overflow) from None
    typed = getattr(bindings, "typed", None)
    if typed and type(graph.output.data) is float:
        from ..autodiff.typedpoint import TypedPoint
        got = TypedPoint(graph, typed, []).settle(lambda r: [r.value])
        if got and got[0] is not None:
            return got[0]
    return graph.output.data


def steps(text: str, wrt=None):
    """`diff` with the derivation of each first derivative, one rule at a time.

    Each derivation ends with diff's own answer, so the two cannot disagree.
    """
    from ..language.printer import diff_label
    from ..symbolic.steps import derive
    result = diff(text, wrt)
    root, _ = inline(result.program)
    result.steps = []
    for d in result.derivatives:
        derivation = derive(root, d.wrt[0], result.variables)
        derivation.label = diff_label(result.result_name, d.wrt)
        derivation.answer = d.text
        derivation.program = d.program
        if len(d.program.statements) == 1 and derivation.steps:
            # The whole expression's step ends with the answer in diff's own form.
            derivation.steps[0].result = d.program.statements[0].expr
        result.steps.append(derivation)
    return result
