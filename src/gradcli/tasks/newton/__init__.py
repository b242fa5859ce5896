"""The task `newton`: Newton's method for f(x) = 0 in one variable.

iteration.py: the iteration table from a start (`newton --at`); roots.py: every
root in a range (`newton --over`); curve.py: f and f' from the expression's
graph, in mpmath and in doubles, and the decimals printed; sturm.py: a
polynomial's count of roots in a range, which proves a search complete. One task
in four modules: check's graders call `newton` and `roots`, as the command does.
"""
from .curve import DEFAULT_DIGITS, MAX_DIGITS, WORK_DPS, Curve, Undefined, as_difference, \
    decimal_text
from .iteration import MAX_STEPS, NewtonRun, Row, newton
from .roots import Root, RootSearch, roots

__all__ = ["newton", "roots", "Curve", "Undefined", "as_difference", "decimal_text",
           "NewtonRun", "Row", "Root", "RootSearch", "DEFAULT_DIGITS", "MAX_DIGITS",
           "MAX_STEPS", "WORK_DPS"]
