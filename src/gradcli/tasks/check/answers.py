"""`check()`: the value, the partial derivatives and the derivative formulas of one expression.

`check()` returns a Verdict: one Answer per value, partial derivative or
symbolic derivative given, each right or wrong with the reason. Numbers are
graded in verdict.py, formulas in formula.py. Nothing here prints.
"""
from __future__ import annotations

from ...errors import UsageError
from ..evaluation import evaluate
from ...inputs import inputs_of, keep_typed, split_top_level
from ...language.expr import Program
from ...language.printer import read_as
from ...reading import given_names, read_program
from .formula import check_formula, parse_answer
from .numberdigits import constant_alone, exact_digits, literals_matched
from .heard import heard_answers
from .verdict import Answer, Verdict, as_typed, check_pairs, grade_numeric, known_variable, \
    number_or_why, pairs_of, tolerances


def derivative_names(text: str, bindings: dict, grads: dict, wrt, derivatives) -> list[str]:
    """The variable of each --derivative answer: the --wrt names in order (each may list
    several, `w,x`), or the expression's one variable when --wrt is not given."""
    names = [n for spec in wrt for n in split_top_level(spec)]
    if derivatives and not names:
        variables = inputs_of(read_program(text, given_names(bindings, grads)))
        if len(variables) != 1:
            raise UsageError("--derivative needs --wrt NAME: the expression has "
                             f"{len(variables)} variables ({', '.join(variables) or 'none'})",
                             hint="give one --wrt per --derivative, in the same order")
        names = variables
    if len(names) != len(derivatives):
        raise UsageError(f"{len(derivatives)} --derivative answer(s) but {len(names)} --wrt "
                         "name(s)", hint="the i-th --derivative goes with the i-th --wrt")
    return names


@heard_answers
def check(text: str, at: dict | None = None, value=None, grad: dict | None = None,
          derivatives=None, rtol: float | None = None, atol: float | None = None,
          program: Program | None = None) -> Verdict:
    """Check a student's answers for the expression `text` at the point `at`.

    `value`: the value of the expression; `grad`: {variable: partial};
    `derivatives`: (variable, formula) pairs (or a dict). Answers are text in
    the language (or numbers). Raises GradcliError for bad input, never for a
    wrong answer.

    A number typed with 3 or more significant digits is right when it is the
    true value correctly rounded to those digits (grade_number); other numbers
    are compared with the tolerances. Giving `rtol` or `atol` (None: the
    defaults RTOL, ATOL) turns the digits rule off: the tolerances decide.

    >>> check("(w*x+b)**2", {"w": 3, "x": 2, "b": 1}, grad={"w": 28}).ok
    True
    """
    digits_rule, rtol, atol = tolerances(rtol, atol)
    program = program or read_program(text, given_names(at, grad, [v for v, _ in pairs_of(derivatives)]))
    variables = inputs_of(program)
    pairs = pairs_of(derivatives)
    grad = dict(grad or {})
    if value is None and not grad and not pairs:
        raise UsageError("nothing to check: give --value, --grad or --derivative",
                         hint='for example: gradcli check "x**2" --at x=3 --grad x=6')
    at = at.copy() if at else {}  # a closed-form point keeps its text (inputs.TypedBindings)
    last = program.statements[-1].name
    intermediates = [n for n in program.defined if n != last]
    for name in grad:
        known_variable(name, "--grad", variables, intermediates)
    check_pairs(pairs, variables)

    # Every answer is read before any computing: bad input (exit 2) comes first.
    f = program.statements[-1].name or "f"
    value_number = None if value is None else number_or_why(value, "--value")
    grad_numbers = {name: number_or_why(given, f"--grad {name}") for name, given in grad.items()}
    d = "∂" if len(variables) > 1 else "d"
    formulas = [(name, formula, parse_answer(formula, program, variables, f"{d}{f}/{d}{name}"))
                for name, formula in pairs]
    result = None
    if value is not None or grad or at:
        if not at and variables:
            raise UsageError("--value and --grad need the point: add --at",
                             hint="add --at " + ",".join(f"{v}=VALUE" for v in variables))
        wanted = [n for n in grad if n in variables]
        result = evaluate(text, at, program=program, wrt=wanted or [],
                              intermediates=any(n not in variables for n in grad))
    answers = []
    if value is not None:
        computed = value_number
        a = Answer("value", f, as_typed(value), expected=result.value, computed=computed)
        grade_numeric(a, value, rtol, atol, digits_rule)
        exact_digits(a, value, program, at, None, digits_rule)
        answers.append(a)
    for name, given in grad.items():
        computed = grad_numbers[name]
        expected = result.gradient[name]
        a = Answer("gradient", name, as_typed(given), expected=expected, computed=computed)
        grade_numeric(a, given, rtol, atol, digits_rule)
        exact_digits(a, given, program, at, name if name in variables else False, digits_rule)
        answers.append(a)
    if pairs:
        for name, v in at.items():
            if not isinstance(v, (int, float)):
                raise UsageError(f"symbolic answers are checked at scalar points; '{name}' "
                                 "is not a number", hint="check numeric answers with --grad")
        used = {k: float(v) for k, v in at.items() if k in variables}
        for name, formula, answer_program in formulas:
            answer = check_formula(text, program, variables, name, formula, answer_program,
                                   used if at else None, rtol, atol, digits_rule)
            if digits_rule:
                constant_alone(answer, formula, program, name)
                literals_matched(answer, answer_program, program, name, variables)
            answers.append(answer)
    return Verdict(expression=text, read_as=read_as(program), at=keep_typed(at, dict(at)),
                   answers=answers,
                   rtol=rtol, atol=atol, result_name=f,
                   warnings=list(result.warnings) if result else list(program.warnings),
                   digits_rule=digits_rule, variables=tuple(variables))
