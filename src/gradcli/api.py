"""The public facade: evaluate, differentiate, diff, check, trace, descend, Value — text in, results out.

What a script or notebook imports (`from gradcli import api`) and what the CLI
calls. Each function takes text and plain Python values and returns a plain
result object; nothing here prints. This module only gathers the tasks: no
task imports it, so it can name them all without a cycle. The heavier tasks
load on first use, keeping `eval`'s start-up small.
"""
from __future__ import annotations

from .tasks.evaluation import EvalResult, evaluate
from .inputs import (check_wrt, constant_value, inputs_of, is_decimal, parse_bindings,
                     split_top_level)
from .language.expr import Name


def differentiate(text: str, wrt: str, order: int = 1) -> str:
    """The symbolic derivative of `text` with respect to `wrt`, as text in the language.

    >>> differentiate("(w*x+b)**2", "w")
    '2*x*(w*x + b)'
    """
    from .reading import given_names, read_program
    from .symbolic.derivative import differentiate_text
    return differentiate_text(text, wrt, order, program=read_program(text, given_names(wrt)))


def diff(text: str, wrt=None, order: int = 1, bindings=None):
    """Every partial derivative of `order` (over `wrt`, default all) and, with bindings, values."""
    from .tasks.diff import diff as run
    return run(text, wrt, order, bindings)


def diff_steps(text: str, wrt=None):
    """`diff` with each first derivative's derivation, rule by rule (its `steps`)."""
    from .tasks.diff import steps as run
    return run(text, wrt)


def check(text: str, at: dict | None = None, **answers):
    """Grade answers (value=, grad=, derivatives=) for `text` at `at`; see gradcli.tasks.check.check.

    The homework answers (tangent=, directional= with direction=, critical= with over=,
    taylor= with order=, implicit=, and one variable's increasing=, relative_max=, ...,
    abs_max= with over=) go to gradcli.tasks.check.check_homework.
    """
    from .tasks.check import check_homework, wanted
    if wanted(**answers) or any(answers.get(k) is not None
                                for k in ("direction", "over", "order", "of")):
        return check_homework(text, at, **answers)
    from .tasks.check import check as run
    return run(text, at, **answers)


def descend(text: str, start: dict, **kw):
    """Gradient descent on `text` from `start`; see gradcli.descend.descend for the options."""
    from .tasks.descend import descend as run
    return run(text, start, **kw)


def trace(text, bindings=None, *, wrt=None, program=None):
    """The forward and backward pass of `text` at a point, step by step (a trace.Trace)."""
    from .tasks.trace import trace as build
    return build(text, bindings, wrt=wrt, program=program)


def __getattr__(name):
    if name == "Value":
        from .autodiff.engine import Value
        return Value
    raise AttributeError(f"module 'gradcli.api' has no attribute {name!r}")


__all__ = ["EvalResult", "evaluate", "differentiate", "diff", "diff_steps", "check", "descend", "trace",
           "parse_bindings", "split_top_level", "is_decimal", "constant_value", "inputs_of",
           "check_wrt",
           "Name"]
