"""`check_homework()`: check with the homework commands' answers too, in one Verdict.

The answers are a tangent line or plane, a directional derivative, critical
points and their kinds, a Taylor polynomial and dy/dx of an implicit curve
(docs/check.md, "Homework answers"). Each becomes a check Answer in a Verdict,
so that `check`'s writers, exit codes and tally treat it as they treat a value
or a derivative. The correct answer is always the homework command's own result
(tangent, directional, critical_points, taylor, implicit): `check` never
disagrees with what `gradcli tangent` prints.

The graders are read from one table, GRADERS: each is a module with
`prepare(question, given, context)` and `grade(question, prepared, context)`
(see shared.py). Every answer is prepared (read, bad input refused) before any
is graded. Nothing here prints.
"""
from __future__ import annotations

from ...errors import UsageError
from ..implicit import top_equals
from ...inputs import inputs_of
from ...language.printer import read_as
from ...reading import given_names, read_program
from ...limits import MAX_TAYLOR_ORDER
from . import chainrule as chainrule_grader
from . import critical as critical_grader
from . import analyze as curve_grader
from . import directional as directional_grader
from . import extrema as extrema_grader
from . import implicit as implicit_grader
from . import newton as newton_grader
from . import roots as roots_grader
from . import mvt as mvt_grader
from . import normal as normal_grader
from . import tangent as tangent_grader
from . import taylor as taylor_grader
from . import curl as curl_grader
from . import div as div_grader
from . import jacobian_det as jacobian_det_grader
from . import laplacian as laplacian_grader
from . import partial as partial_grader
from .answers import check
from .heard import heard_answers
from .shared import Context, Question
from .verdict import Verdict, tolerances

# In the order the answers are read and graded, and their answers listed.
GRADERS = {grader.OPTION: grader for grader in (tangent_grader, directional_grader,
                                                critical_grader, taylor_grader,
                                                implicit_grader, newton_grader, roots_grader,
                                                mvt_grader, normal_grader, chainrule_grader,
                                                curve_grader, extrema_grader)}
GRADERS.update({grader.OPTION: grader for grader in (div_grader, curl_grader, laplacian_grader,
                                                     jacobian_det_grader, partial_grader)})
OPTIONS = tuple(GRADERS)
_EXAMPLES = {
    "tangent": '--tangent "z = 3 + 4*(x - 1) + 2*(y - 1)"',
    "directional": "--directional 4.4 --direction 3,4",
    "direction": "--directional 4.4 --direction 3,4",
    "critical": '--critical "(0,0) saddle; (1,1) min" (or "none")',
    "over": "--over x=-3:3,y=-3:3",
    "taylor": '--taylor "1 + x + x^2/2" --order 2',
    "implicit": '--implicit "-x/y"',
    "newton": '--newton "1.3333333, 1.2638889" --at x=1',
    "roots": '--roots "-1.414, 1.414" --over x=-3:3',
    "mvt": '--over x=0:2 --mvt "c = 1"',
    "normal": '--at x=2 --normal "y = 4 - (x - 2)/4"',
    "div": '--div "y + z + x"', "curl": '--curl "[-y, -z, -x]"',
    "laplacian": '--laplacian "2y + 6z"', "jacobian_det": '--jacobian-det "r"',
    **{k: f'{o} "none"' for k, o in curve_grader.ANSWERS.items()},
    **{k: f'{o} "5 at x = 3"' for k, o in extrema_grader.ANSWERS.items()},
}
# The one-variable answers, each graded by the grader of its kind.
_ONE_VARIABLE = {**{k: "analyze" for k in curve_grader.ANSWERS},
                 **{k: "extrema" for k in extrema_grader.ANSWERS}}


def wanted(**answers) -> bool:
    """Whether any homework answer is among the keyword arguments given to check."""
    return any(answers.get(k) is not None for k in OPTIONS + tuple(_ONE_VARIABLE))


@heard_answers
def check_homework(text: str, at: dict | None = None, *, value=None, grad=None,
                   derivatives=None, tangent=None, directional=None, direction=None,
                   critical=None, over=None, taylor=None, order=None, implicit=None,
                   wrt=None, of=None, newton=None, roots=None, mvt=None, normal=None,
                   div=None, curl=None, laplacian=None, jacobian_det=None, partial=None,
                   field_wrt=None, with_=None, exact_at=None, where=None, subject_to=None,
                   rtol: float | None = None,
                   atol: float | None = None, **one_variable) -> Verdict:
    """check() with the homework answers too (see the module doc); one Verdict for all.

    `tangent`: the equation (or its right-hand side); `directional` a number with
    `direction` ("3,4"); `critical`: "(0,0) saddle; (1,1) min" with `over`
    ("x=-3:3,y=-3:3"); `taylor`: the polynomial, with `order`; `implicit`: dy/dx
    for the equation `text`, `wrt` the independent variable and `of` the other.
    `one_variable`: a curve analysis's answers (increasing="(-inf, -1) U (1, inf)",
    relative_max="x = -1", ...; analyze.ANSWERS), with `over` ("x=-2:2") optional;
    absolute extrema (abs_max="5 at x = 3", abs_min=...) with `over` required; in
    several variables with `over` a rectangle, `where` a region or `subject_to` a list
    of constraints (abs_max="9 at (1, 2) and (-1, 2)").

    >>> check_homework("x^2 y", {"x": 1, "y": 2}, tangent="z = 2 + 4(x - 1) + (y - 2)").ok
    True
    """
    digits_rule, rtol, atol = tolerances(rtol, atol)
    context = Context(rtol, atol, digits_rule)
    at = at.copy() if at else {}  # a closed-form point keeps its text (inputs.TypedBindings)
    given = {"tangent": tangent, "directional": directional, "direction": direction,
             "critical": critical, "over": over, "taylor": taylor, "order": order,
             "implicit": implicit, "wrt": wrt, "of": of, "newton": newton, "roots": roots,
             "mvt": mvt, "normal": normal, "chainrule": with_,
             "div": div, "curl": curl, "laplacian": laplacian, "jacobian_det": jacobian_det,
             "partial": partial or None, "field_wrt": field_wrt, **one_variable,
             "where": where, "subject_to": list(subject_to) if subject_to else None}
    unknown = [k for k in one_variable if k not in _ONE_VARIABLE]
    if unknown:
        raise TypeError(f"check_homework() got an unexpected keyword argument '{unknown[0]}'")
    curve = {k: v for k, v in one_variable.items() if v is not None}
    if (where or subject_to) and not any(k in curve for k in extrema_grader.ANSWERS):
        raise UsageError(f"{'--where' if where else '--subject-to'} goes with --abs-max or "
                         "--abs-min", hint='for example: --where "x^2 + y^2 <= 4" '
                                           '--abs-max "8 at (-2, 0)"')
    for kind in ("analyze", "extrema"):
        given[kind] = {k: v for k, v in curve.items() if _ONE_VARIABLE[k] == kind} or None
    for option, example in _EXAMPLES.items():
        answer = given.get(option)
        if isinstance(answer, str) and not answer.strip():
            raise UsageError(f"--{option.replace('_', '-')} is empty",
                             hint=f"for example: {example}")
    _pairing(directional, direction, "--directional", "--direction",
             "--directional 4.4 --direction 3,4")
    # --over is the range of --roots, the interval of --mvt and of the curve's answers,
    # else the box of --critical
    users = [(o, v) for o, v in (("--critical", critical), ("--roots", roots), ("--mvt", mvt),
                                 ("--" + next(iter(curve), "").replace("_", "-"), curve or None))
             if v is not None]
    if len(users) > 1:
        raise UsageError(f"{users[0][0]} and {users[1][0]} each read --over as their own range: "
                         "check them in two runs")
    if mvt is None and not curve:
        _pairing(critical if roots is None else roots, over,
                 "--critical" if roots is None else "--roots", "--over",
                 '--critical "(0,0) saddle" --over x=-3:3,y=-3:3' if roots is None
                 else '--roots "-1.414, 1.414" --over x=-3:3')
    if implicit is None:  # with --implicit, --order is the order of the derivative
        _pairing(taylor, order, "--taylor", "--order", '--taylor "1 + x + x^2/2" --order 2')
    elif order not in (None, 1, 2):
        raise UsageError(f"--implicit grades dy/dx (--order 1) or d²y/dx² (--order 2), "
                         f"not order {order}")
    if of is not None and implicit is None:
        raise UsageError("--of names the dependent variable of --implicit; give --implicit "
                         "too, or leave --of out")
    if with_ is not None:
        return _chain_rule(text, at, with_, derivatives, wrt, exact_at, value, grad, given,
                           context, rtol, atol, digits_rule)
    from ..surfaceinput import is_level_surface
    from .surfacetangent import is_graph_statement
    if (normal is not None or tangent is not None) and is_level_surface(text, at) \
            and (normal is not None or not is_graph_statement(text, at)):
        # a level surface: an equation has no expression of its own, as for --implicit
        surface_answers = [k for k in ("tangent", "normal") if given[k] is not None]
        others = [f"--{k}" for k in OPTIONS if k not in surface_answers and given[k] is not None]
        if others or value is not None or grad or derivatives:
            raise UsageError(f"--{surface_answers[0]} on a level surface is graded alone "
                             f"(with --tangent or --normal); "
                             f"{(others or ['--value/--grad/--derivative'])[0]} needs an "
                             "expression: check it in another run")
        question = Question(text, at)
        prepared = [(GRADERS[k], GRADERS[k].prepare(question, given, context))
                    for k in surface_answers]
        answers, warnings = [], []
        for grader, state in prepared:
            graded = grader.grade(question, state, context)
            answers += graded.answers
            warnings += [w for w in graded.warnings if w not in warnings]
        return Verdict(expression=text, read_as=text, at=at, answers=answers,
                       rtol=rtol, atol=atol, warnings=warnings, digits_rule=digits_rule)
    if implicit is not None:
        others = [n for n, v in (("--value", value), ("--grad", grad),
                                 ("--derivative", derivatives), ("--tangent", tangent),
                                 ("--directional", directional), ("--critical", critical),
                                 ("--taylor", taylor)) if v]
        if others:
            raise UsageError(f"--implicit grades dy/dx of an equation; {others[0]} needs an "
                             "expression: check them in two runs")
        if not top_equals(text):
            raise UsageError("--implicit needs the question to be an equation F = G",
                             source=text,
                             hint='for example: gradcli check "x^2 + y^2 = 25" --implicit '
                                  '"-x/y"')
        # An equation has no expression of its own: its reading and point are the task's.
        question = Question(text, at)
        grader = GRADERS["implicit"]
        graded = grader.grade(question, grader.prepare(question, given, context), context)
        return Verdict(expression=text, read_as=graded.read_as, at=graded.at,
                       answers=graded.answers, rtol=rtol, atol=atol,
                       warnings=graded.warnings, digits_rule=digits_rule)
    if order is not None and (isinstance(order, bool) or not isinstance(order, int)
                              or not 0 <= order <= MAX_TAYLOR_ORDER):
        raise UsageError(f"--order must be a whole number from 0 to {MAX_TAYLOR_ORDER}, "
                         f"got {order}")

    if newton is not None or roots is not None:
        from ..newton import as_difference
        text = as_difference(text, given_names(at, grad))  # cos x = x: Newton's f(x) = 0
    program = read_program(text, given_names(at, grad))
    question = Question(text, at, program, inputs_of(program))
    # Every answer is read before any computing: bad input (exit 2) comes first.
    prepared = [(grader, grader.prepare(question, given, context))
                for option, grader in GRADERS.items() if given[option] is not None]

    if value is not None or grad or derivatives:
        verdict = check(text, at, value=value, grad=grad, derivatives=derivatives,
                        rtol=None if digits_rule else rtol, atol=None if digits_rule else atol,
                        program=program)
    else:
        verdict = Verdict(expression=text, read_as=read_as(program), at=dict(at), answers=[],
                          rtol=rtol, atol=atol, result_name=program.statements[-1].name or "f",
                          warnings=list(program.warnings), digits_rule=digits_rule)
    for grader, state in prepared:
        graded = grader.grade(question, state, context)
        verdict.answers.extend(graded.answers)
        verdict.warnings += [w for w in graded.warnings if w not in verdict.warnings]
    return verdict


def _pairing(answer, option, answer_name, option_name, example):
    if answer is not None and option is None:
        raise UsageError(f"{answer_name} needs {option_name}", hint=f"for example: {example}")
    if option is not None and answer is None:
        raise UsageError(f"{option_name} goes with {answer_name}",
                         hint=f"for example: {example}")


def _chain_rule(text, at, with_, derivatives, wrt, exact_at, value, grad, given, context,
                rtol, atol, digits_rule) -> Verdict:
    """--with: the --derivative answers are the chain rule's, graded by tasks/check/chainrule."""
    others = [n for n, v in (("--value", value), ("--grad", grad))
              + tuple((f"--{k}", given[k]) for k in OPTIONS if k != "chainrule") if v]
    if others:
        raise UsageError(f"--with grades the chain rule's --derivative answers; {others[0]} "
                         "is about the expression itself: check it in another run")
    question = Question(text, at)
    state = chainrule_grader.prepare(question, {"with_": with_, "derivatives": derivatives,
                                            "wrt": wrt, "exact_at": exact_at}, context)
    graded = chainrule_grader.grade(question, state, context)
    return Verdict(expression=text, read_as=state[0].read_as, at=dict(at), answers=graded.answers,
                   rtol=rtol, atol=atol, result_name=state[0].z, warnings=graded.warnings,
                   digits_rule=digits_rule)
