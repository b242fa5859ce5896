"""diff --partial, --div, --curl, --laplacian, --jacobian-det: the options read, the task
run, the result written (tasks/vectorcalc.py computes)."""
from __future__ import annotations

from ..errors import UsageError
from ..output.writers import write_warned

_FLAGS = {"div": "--div", "curl": "--curl", "laplacian": "--laplacian",
          "jacobian_det": "--jacobian-det"}


def diff_vectorcalc(text, kinds, partial, wrt_names, order, at, points, steps, output, fmt,
                    precision):
    from .. import api
    from ..tasks import vectorcalc
    asked = [_FLAGS[k] for k in kinds] + (["--partial"] if partial else [])
    used = [name for name, given in (("--order", order != 1), ("--points", points),
                                     ("--steps", steps), ("--output", output)) if given]
    if used:
        raise UsageError(f"{asked[0]} does not take {used[0]}",
                         hint="run diff again without it" if used[0] != "--order" else
                         "--partial xyy names the order by its letters")
    if fmt == "csv":
        raise UsageError(f"-o csv is for --points; {asked[0]} prints formulas",
                         hint="use -o plain or -o json")
    if kinds and partial:
        raise UsageError(f"{asked[0]} and --partial ask about different things: a field and "
                         "a function; run diff twice")
    if partial:
        if wrt_names:
            raise UsageError("--partial names its variables by its letters; leave --wrt out",
                             hint="for example --partial xyy")
        bindings = api.parse_bindings(at) if at else None
        write_warned("partials", vectorcalc.partials(text, list(partial), bindings), fmt,
                     precision)
        return
    bindings = api.parse_bindings(at, exact="closed") if at else None
    write_warned("field", vectorcalc.field_operations(text, kinds, wrt_names, bindings), fmt,
                 precision)
