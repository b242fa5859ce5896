"""Gradient descent over the engine, and the CSV data sets it trains on.

`descend` parses the expression once; every step lowers it onto a fresh graph
with the current parameters (data columns are NumPy vectors, parameters plain
floats or arrays), runs backward, and moves each parameter against its
gradient, optionally with momentum as `torch.optim.SGD` does it:
`buf = momentum*buf + grad; param -= lr*buf`.

Step k measures the loss and gradient at the parameters left by step k - 1,
then updates them; its record holds that loss and the parameters after the
update, as a PyTorch training loop prints them. One more evaluation at the
end gives the final loss.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

from .. import ops
from ..autodiff.lower import lower, missing_input
from ..errors import DomainError, GradcliError, LimitError, ShapeError, UsageError
from ..inputs import check_wrt, inputs_of, unused_bindings
from ..kinks import kink_text
from ..limits import MAX_DESCEND_STEPS
from ..language.expr import first_span
from ..reading import given_names, read_program
from ..language.printer import read_as
from ..numbers import number_text


@dataclass
class Dataset:
    """Columns of a CSV file as float vectors, in header order."""

    path: str
    columns: dict
    rows: int


@dataclass
class Step:
    """One step: the loss and gradient norm it measured, and the parameters after it."""

    step: int
    loss: float
    grad_norm: float
    params: dict


@dataclass
class DescentResult:
    """The whole run: settings, history, final parameters, why it stopped."""

    expression: str
    read_as: str
    params: list
    lr: float
    steps: int
    momentum: float
    tol: float | None
    history: list = field(default_factory=list)
    final_params: dict = field(default_factory=dict)
    final_loss: float | None = None
    final_grad_norm: float | None = None
    stopped: str = "steps"  # "steps", "tol" or "diverged"
    diverged_at: int | None = None
    data: Dataset | None = None
    warnings: list = field(default_factory=list)
    kinks: set = field(default_factory=set, repr=False)  # kink conventions already reported

    @property
    def steps_run(self) -> int:
        return len(self.history)


class Diverged(DomainError):
    """The loss or the gradient stopped being finite, or left its domain, at a step."""

    def __init__(self, message, *, step, result, **kw):
        super().__init__(message, **kw)
        self.step = step
        self.result = result


def positive_number(value, what: str) -> float:
    """A finite number > 0, or a usage error naming the option."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise UsageError(f"{what} must be a positive number, got {value!r}") from None
    if not (0 < number < math.inf):
        raise UsageError(f"{what} must be a positive number, got {_show(number)}")
    return number


def descend(text, start, wrt=None, lr=0.1, steps=100, data=None, tol=None, momentum=0.0,
            on_step=None, program=None) -> DescentResult:
    """Minimise the scalar `text` by gradient descent from `start` ({name: value}).

    `wrt`: the parameters to train (default: every input given in `start` that is
    not a data column). `data`: a Dataset (or {name: vector}) whose columns are
    bound as constant vectors. `tol`: stop when the gradient norm falls below it.
    `on_step(k)` is called after every step (for progress bars). Raises Diverged
    (exit 3) with the partial result when the loss or gradient is no longer finite.

    >>> r = descend("(x - 3)**2", {"x": 0.0}, lr=0.5, steps=1)
    >>> r.final_params
    {'x': 3.0}
    """
    lr = positive_number(lr, "--lr")
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise UsageError(f"--steps must be a positive whole number, got {steps!r}")
    if steps > MAX_DESCEND_STEPS:
        raise LimitError(f"--steps {steps} is more than gradcli runs ({MAX_DESCEND_STEPS})",
                         hint="stop earlier with --tol, or raise --lr")
    if tol is not None:
        tol = positive_number(tol, "--tol")
    try:
        momentum = float(momentum)
    except (TypeError, ValueError):
        raise UsageError(f"--momentum must be a number, got {momentum!r}") from None
    if not (0 <= momentum < math.inf):
        raise UsageError(f"--momentum must be 0 or more, got {_show(momentum)}",
                         hint="0 is plain gradient descent; 0.9 is a common choice")

    columns_given = data.columns if hasattr(data, "columns") else data
    program = program or read_program(text, given_names(start, wrt, columns_given))
    if isinstance(data, dict):
        data = Dataset("data", dict(data), len(next(iter(data.values()))) if data else 0)
    columns = data.columns if data is not None else {}
    start = dict(start or {})
    variables = inputs_of(program)
    where = data.path if data is not None else "the data"
    warnings = list(program.warnings)

    for name in start:
        if name in columns:
            raise UsageError(f"{where}: column '{name}' clashes with the parameter '{name}' "
                             "given in --at",
                             hint="rename the column or the parameter; a column is data, "
                                  "a parameter is trained")
    for name in variables:
        if name not in start and name not in columns:
            if data is not None:
                listed = ", ".join(columns) or "none"
                raise UsageError(f"'{name}' is neither a column of {where} (its columns: "
                                 f"{listed}) nor given a starting value with --at",
                                 source=program.source, span=first_span(program, name),
                                 hint=f"add --at {name}=VALUE to train it, or a column "
                                      f"'{name}' to {where}")
            raise missing_input(name, program, first_span(program, name),
                                bound=set(start) | set(columns))
    warnings.extend(unused_bindings(start, variables))
    if data is not None:
        for name in columns:
            if name not in variables:
                warnings.append(f"{where}: column '{name}' is not used by the expression")

    candidates = [v for v in variables if v in start]
    if wrt:
        for name in wrt:
            if name in columns:
                raise UsageError(f"--wrt: '{name}' is a column of {where}, not a parameter",
                                 hint="data columns are fixed; train the parameters that "
                                      "multiply them")
        params = check_wrt(wrt, candidates)
    else:
        params = candidates
    if not params:
        raise UsageError("there is nothing to train: no input of the expression has a "
                         "starting value in --at",
                         hint="give each parameter a start, e.g. --at w=0.5,b=0")

    result = DescentResult(expression=text, read_as=read_as(program), params=params, lr=lr,
                           steps=steps, momentum=momentum, tol=tol, data=data,
                           warnings=warnings)
    point = {name: _as_param(value) for name, value in start.items() if name in variables}
    bindings = dict(columns)
    velocity = {name: None for name in params}
    wanted = set(params)

    for k in range(1, steps + 2):
        bindings.update(point)
        loss, grads = _loss_and_gradient(program, bindings, wanted, params, k, result)
        norm = _norm(grads.values())
        if not math.isfinite(norm):
            bad = [n for n, g in grads.items() if not math.isfinite(_norm([g]))]
            _diverge(result, k, f"the gradient with respect to {', '.join(bad)} is not finite "
                     f"(loss {_show(loss)})")
        if k == steps + 1 or (tol is not None and norm < tol):
            result.final_params = {n: point[n] for n in params}
            result.final_loss = loss
            result.final_grad_norm = norm
            if k <= steps:
                result.stopped = "tol"
            break
        for name in params:
            g = grads[name]
            if momentum:
                buf = velocity[name]
                velocity[name] = buf = g if buf is None else momentum * buf + g
                g = buf
            point[name] = _as_param(point[name] - lr * g)
        result.history.append(Step(k, loss, norm, {n: point[n] for n in params}))
        if on_step is not None:
            on_step(k)
    return result


def _loss_and_gradient(program, bindings, wanted, params, k, result):
    """Lower, check the loss is a finite scalar, backward; divergence names step k."""
    try:
        graph = lower(program, bindings, wrt=wanted)
    except DomainError as exc:
        _diverge(result, k, exc.message, source=exc.source, span=exc.span)
    out = graph.output
    loss = out.data
    if getattr(loss, "ndim", 0):
        raise ShapeError(f"the loss must be a single number, but this expression gives an "
                         f"array of shape {tuple(loss.shape)}: reduce it with mean(...) or "
                         "sum(...)", source=program.source, span=(0, len(program.source)))
    loss = float(loss)
    if not math.isfinite(loss):
        _diverge(result, k, f"the loss is {_show(loss)}")
    if out.requires_grad:
        out.backward(on_kink=lambda node, kink: _note_kink(result, kink, k))
    grads = {}
    for name in params:
        g = graph.inputs[name].grad
        grads[name] = float(g) if not getattr(g, "ndim", 0) else g
    return loss, grads


def _note_kink(result, kink, k):
    """A convention used at a kink (relu at 0, ...): said once, with the first step it met."""
    message = kink_text(kink)
    if message not in result.kinks:
        result.kinks.add(message)
        result.warnings.append(f"step {k}: {message}")


def _diverge(result, k, reason, **kw):
    result.stopped = "diverged"
    result.diverged_at = k
    last = result.history[-1].params if result.history else None
    where = "at the start" if k == 1 else f"at step {k}"
    message = f"descent diverged {where}: {reason}"
    hint = ("try a smaller --lr" if k > 1 else
            "the starting point is outside the loss's domain; choose another --at")
    if last is not None:
        shown = ", ".join(f"{n} = {_show(v)}" for n, v in last.items())
        message += f" (parameters after step {k - 1}: {shown})"
    raise Diverged(message, step=k, result=result, hint=hint, **kw)


def _as_param(value):
    """Scalars stay Python floats (the fast math backend); vectors stay arrays."""
    if isinstance(value, (list, tuple)):
        from ..autodiff.shapes import as_array
        value = as_array(value, "a starting value")
    if getattr(value, "ndim", 0):
        return value
    return float(value)


def _norm(grads) -> float:
    """The Euclidean norm of all gradients together, scaled so huge ones do not overflow."""
    flat = []
    for g in grads:
        if getattr(g, "ndim", 0):
            flat.extend(float(v) for v in g.ravel())
        else:
            flat.append(float(g))
    return math.hypot(*flat)


def _show(value) -> str:
    try:
        return number_text(value)
    except (TypeError, ValueError):
        return str(value)



# ------------------------------------------------------------------ data files

def load_data(path: str) -> Dataset:
    """A CSV (or JSON Lines) file of examples -> Dataset of float vectors, one per column.

    Reading is the points reader's (`data/sources.read_columns`); errors name the file,
    the row and the column. On top of it: a header with no rows, a value that is
    not finite, and a column whose name the expression could not use are errors.
    """
    from ..data.sources import read_columns
    import numpy as np
    label = "stdin" if path == "-" else path
    if path != "-" and os.path.isfile(path) and os.path.getsize(path) == 0:
        raise UsageError(f"--data: {label} is empty: expected a header row naming the columns, "
                         "then one row of numbers per example",
                         hint="for example:  x1,x2,y  then  1.0,2.0,1")
    try:
        columns = read_columns(path)
    except UsageError as exc:
        # The reader speaks of --points, the option it was first written for.
        message = exc.message.removeprefix("--points: ")
        exc.message = message if message.startswith("--data: ") else "--data: " + message
        raise
    names = list(columns)
    for i, name in enumerate(names):
        _check_column_name(label, name, i + 1, names[:i])
    rows = len(columns[names[0]]) if names else 0
    if rows == 0:
        raise UsageError(f"--data: {label} has a header ({', '.join(names)}) but no rows of data")
    for name, values in columns.items():
        bad = np.flatnonzero(~np.isfinite(values))
        if bad.size:
            raise UsageError(f"--data: {label}: row {bad[0] + 1}, column '{name}': the value "
                             f"{number_text(values[bad[0]])} is not a finite number")
    return Dataset(label, columns, rows)


def _check_column_name(label, name, index, before):
    where = f"--data: {label}, column {index} of the header"
    if not name:
        raise UsageError(f"{where}: the column has no name")
    if not name.isidentifier():
        raise UsageError(f"{where}: {name!r} is not a name the expression can use",
                         hint="column names are letters, digits and _, not starting "
                              "with a digit")
    if name in ops.CONSTANTS:
        raise UsageError(f"{where}: {name!r} is a constant and cannot name a column")
    if ops.lookup_function(name) is not None:
        raise UsageError(f"{where}: {name!r} is a function and cannot name a column")
    if name in before:
        raise UsageError(f"{where}: the column {name!r} appears twice")


__all__ = ["descend", "load_data", "DescentResult", "Step", "Dataset", "Diverged",
           "positive_number", "GradcliError"]
