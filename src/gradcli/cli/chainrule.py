"""`diff EXPR --with "x = ..., y = ..."`: the multivariable chain rule (tasks/chainrule.py)."""
from __future__ import annotations

from ..errors import UsageError
from ..output.writers import write_warned


def diff_with(text, with_text, wrt_names, order, at, points, output, steps, fmt, precision):
    used = [name for name, given in (("--order", order != 1), ("--points", points),
                                     ("--output", output)) if given]
    if used or fmt == "csv":
        raise UsageError(f"--with gives the chain rule's first derivatives in the parameters; "
                         f"it does not take {used[0] if used else '-o csv'}",
                         hint="leave it out, or run diff without --with")
    from ..tasks.chainrule import chain_rule
    from ..tasks.mvt import exact_point
    point = exact_point(at) if at else None
    result = chain_rule(text, with_text, wrt_names, point)
    write_warned("chainrule", result, fmt, precision, steps=steps)


def check_with(text, at, bindings, with_text, derivative, wrt, given, points, tolerances):
    """check --with: the --derivative answers graded as the chain rule's (the Verdict)."""
    if points is not None:
        raise UsageError("--with grades formulas in the parameters; it does not take --points")
    from ..tasks.check import check_homework
    from ..tasks.mvt import exact_point
    exact = exact_point(at) if at else None
    return check_homework(text, bindings, derivatives=list(derivative), wrt=list(wrt),
                          with_=with_text, exact_at=exact, **given, **tolerances)
