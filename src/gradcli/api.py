"""What the CLI calls: evaluate (and the binding helpers it shares with other commands).

Each function takes text and plain Python values and returns a plain result
object; nothing here prints.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field

from . import limits, ops
from .errors import GradcliError, InexactError, UsageError
from .language.expr import Const, Name, Program, free_names
from .autodiff.lower import Graph, lower
from .language.parser import given_names, parse
from .language.printer import quoted, read_as
from .numbers import format_number


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


def split_top_level(text: str, sep: str = ",", keep_empty: bool = False) -> list[str]:
    """Split at `sep` outside brackets and parentheses: 'x=[1,2],y=3' -> ['x=[1,2]', 'y=3'].

    The parts are stripped; empty ones are dropped unless `keep_empty`.
    """
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    parts = [p.strip() for p in parts]
    return parts if keep_empty else [p for p in parts if p]


_PLAIN_NUMBER = None


def constant_value(text: str, what: str, exact: bool = False):
    """The number (or array) a constant expression such as `pi/4` or `[1, 2]` denotes."""
    global _PLAIN_NUMBER
    if not exact:
        # A plain decimal number (the common --at value) needs no parser: 100,000
        # bindings must not cost 100,000 parses.
        if _PLAIN_NUMBER is None:
            import re
            _PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?")
        if _PLAIN_NUMBER.fullmatch(text):
            value = float(text)
            if value != value or abs(value) == float("inf"):
                pass  # out of range: the parser's message says so
            elif value == 0:
                return 0.0 if text.lstrip("+-").isdigit() or not text.startswith("-") else -0.0
            else:
                return value
    try:
        program = parse(text)
    except GradcliError as exc:
        exc.message = f"{what}: {exc.message}"
        raise
    names = free_names(program.result)
    if len(program.statements) != 1 or program.statements[0].name is not None:
        raise UsageError(f"{what}: expected a value such as 3, 1/3, pi/4 or [1, 2], got '{text}'")
    if names:
        raise UsageError(f"{what}: '{names[0]}' is not a constant; a value may use numbers, "
                         "pi, e and functions, but no variables", source=text)
    return lower(program, {}, exact=exact).output.data


def parse_bindings(specs, exact: bool = False) -> dict:
    """`--at` options (each 'a=1,b=2', possibly repeated) -> {name: value}, in order."""
    bindings = {}
    for spec in specs or ():
        for item in split_top_level(spec):
            if "=" not in item:
                raise UsageError(f"--at expects NAME=VALUE, got '{item}'",
                                 hint="for example --at x=3,y=-1")
            name, _, text = item.partition("=")
            name = name.strip()
            if not name.isidentifier():
                raise UsageError(f"--at: '{name}' is not a valid name")
            if name in ops.CONSTANTS:
                raise UsageError(f"--at: '{name}' is a constant ({name} = "
                                 f"{format_number(ops.CONSTANTS[name])}) and cannot be bound",
                                 hint=f"rename the variable in the expression, e.g. {name}1")
            if ops.lookup_function(name) is not None:
                raise UsageError(f"--at: '{name}' is a function and cannot be bound")
            if name in bindings:
                raise UsageError(f"--at binds '{name}' twice",
                                 hint=f"keep one of the values for {name}")
            if not text.strip():
                raise UsageError(f"--at {name}= has no value", hint=f"for example --at {name}=1")
            bindings[name] = constant_value(text.strip(), f"--at {name}", exact)
    if exact:
        from .autodiff.exact import to_exact
        bindings = {k: to_exact(v) for k, v in bindings.items()}
    return bindings


def inputs_of(program: Program) -> list[str]:
    """Free names of a program (not defined by it), in order of first appearance."""
    defined = set()
    names, seen = [], set()
    for stmt in program.statements:
        for name in free_names(stmt.expr):
            if name not in defined and name not in seen:
                seen.add(name)
                names.append(name)
        if stmt.name is not None:
            defined.add(stmt.name)
    return names


def unused_bindings(names, variables) -> list[str]:
    """A warning for each name given with --at that the expression does not use."""
    known = set(variables)  # a set: 100,000 inputs must not cost 10^10 comparisons
    return [f"--at binds '{name}', which the expression does not use"
            for name in names if name not in known]


def prepare(program: Program, bindings: dict, wrt):
    """(inputs, warnings, the names to differentiate by, the bindings used) for a run.

    The names may include a program's intermediate names (`--wrt z` for
    `z = w*x + b; y = sigmoid(z)`); gradient_of finds either kind in the graph.
    """
    variables = inputs_of(program)
    known = set(variables)
    warnings = list(program.warnings) + unused_bindings(bindings, known)
    wanted = check_wrt(wrt, variables, program.defined)
    used = {k: v for k, v in bindings.items() if k in known}
    return variables, warnings, wanted, used


def check_wrt(wrt, variables: list[str], intermediates=()) -> list[str]:
    """Validate `--wrt` names against the variables (and, where given, the intermediate
    names) an expression has."""
    if not wrt:
        return list(variables)
    known = set(variables)
    for name in wrt:
        if name not in known and name not in intermediates:
            listed = ", ".join(variables) if variables else "none"
            hint = f"its variables are: {listed}"
            if intermediates:
                hint += f"; its intermediate names: {', '.join(intermediates)}"
            raise UsageError(f"--wrt: the expression has no variable '{name}'", hint=hint)
    return list(wrt)


def gradient_of(graph: Graph, name: str):
    """The gradient of an input or of a named intermediate after a backward pass."""
    node = graph.inputs.get(name)
    if node is None:
        node = graph.intermediates[name]
        if node is graph.output and node.grad is None:
            return 1.0
    return node.grad


def evaluate(text, bindings=None, /, *, wrt=None, intermediates=False, exact=False,
             hessian=False, program=None, seed=None, jacobian=False, **kw) -> EvalResult:
    """Value and partial derivatives of `text` at a point.

    Values may be numbers or (nested lists of) arrays. A non-scalar result needs
    `seed` (the upstream gradient, as PyTorch's backward(gradient=...)) or
    `jacobian=True`; otherwise it is a ShapeError. `exact`: compute with
    Fractions (InexactError where an operation has no rational result).
    `hessian`: also the matrix of second partials over the inputs, as
    `result.hessian[a][b]`.

    >>> evaluate("(w*x+b)**2", w=3, x=2, b=1).gradient
    {'w': 28.0, 'x': 42.0, 'b': 14.0}
    """
    with _gc_paused():
        return _evaluate(text, bindings, wrt, intermediates, exact, hessian, program, seed,
                         jacobian, kw)


@contextmanager
def _gc_paused():
    """Pause the cyclic garbage collector while a graph is built.

    A large expression allocates millions of small objects and no cycles; the
    collector's repeated full scans made a 100,000-term sum several times
    slower than linear. Reference counting still frees everything.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _evaluate(text, bindings, wrt, intermediates, exact, hessian, program, seed, jacobian,
              kw) -> EvalResult:
    program = program or parse(text, given_names(bindings, kw, wrt))
    bindings = dict(bindings or {})
    bindings.update(kw)
    if exact:
        from .autodiff.exact import to_exact
        bindings = {k: to_exact(v) for k, v in bindings.items()}
    else:
        bindings = {k: (float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v)
                    for k, v in bindings.items()}
        for k, v in bindings.items():
            if isinstance(v, (list, tuple)):
                from .autodiff.shapes import as_array
                bindings[k] = as_array(v, f"the value of {k}")
    if seed is not None and jacobian:
        raise UsageError("--seed and --jacobian cannot be combined",
                         hint="--jacobian already holds every vector-Jacobian product")
    variables, warnings, wanted, used = prepare(program, bindings, wrt)
    named = [n for n in wanted if n not in variables]
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
        from .autodiff.vectors import jacobian as full_jacobian
        jac = full_jacobian(out, {name: graph.inputs[name] for name in wanted}, on_kink)
        if scalar_out:
            for name in wanted:
                graph.inputs[name].grad = jac[name]
    elif seed is not None:
        from .autodiff.vectors import seeded_backward
        seeded_backward(out, seed, on_kink)
    elif not scalar_out and wanted:
        from .autodiff.shapes import nonscalar_error
        raise nonscalar_error(out.data.shape)
    elif out.requires_grad:
        try:
            out.backward(on_kink=on_kink)
        except InexactError as exc:
            raise _inexact_derivative(graph, exc) from None
    kinks.add_to(warnings)
    gradient = {} if jac is not None and not scalar_out else \
        {name: gradient_of(graph, name) for name in wanted}
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
                      result_name=last.name or "f", warnings=warnings, graph=graph,
                      seed=seed, jacobian=jac)


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
    from .autodiff.engine import Unformed, topo_order
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
    for leaf in leaves:
        leaf.grad = 0
    out.backward(create_graph=True)
    first = [leaf.grad for leaf in leaves]
    for a, g in zip(wanted, first):
        for leaf in leaves:
            leaf.grad = 0
        if not hasattr(g, "backward") or not g.requires_grad:
            continue
        unformed = [n for n in topo_order(g) if type(n) is Unformed]
        for n in unformed:
            n.grad = 0
        g.backward()
        if any(n.grad != 0 for n in unformed):
            nan = float("nan")
            matrix[a] = {b: nan for b in wanted}
            names = sorted({n.label for n in unformed if n.grad != 0})
            warnings.append(f"the second derivatives of the partial with respect to {a} "
                            f"go through the derivative of {', '.join(names)}, which is "
                            "undefined at this point: they are nan")
            continue
        for b, leaf in zip(wanted, leaves):
            # `+ zero` also turns IEEE -0.0 (from terms like -x**2*sin(0)) into 0.
            matrix[a][b] = leaf.grad + zero if not _is_int_zero(leaf.grad) else zero
    for leaf, g in zip(leaves, saved):
        leaf.grad = g
    return matrix


def _is_int_zero(g) -> bool:
    return type(g) is int and g == 0


def _zero_like(data):
    from fractions import Fraction
    return Fraction(0) if type(data) is Fraction else 0.0


def _finite(g) -> bool:
    if hasattr(g, "shape"):
        import numpy as np
        return bool(np.isfinite(g).all())
    try:
        return -float("inf") < g < float("inf")
    except TypeError:
        return True


class KinkWarnings:
    """Collects the kink conventions a backward pass used, as bounded warnings."""

    def __init__(self, graph):
        self.graph = graph
        self.messages = []
        self.skipped = 0

    def on_kink(self, node, kink) -> None:
        if len(self.messages) >= limits.MAX_WARNINGS:
            self.skipped += 1  # counted only: a message costs the size of its sub-expression
            return
        self.messages.append(kink_message(self.graph, node, kink))

    def add_to(self, warnings: list) -> None:
        for message in self.messages:
            if message not in warnings:
                warnings.append(message)
        if self.skipped:
            warnings.append(limits.more_warnings(self.skipped))


def kink_message(graph: Graph, node, kink) -> str:
    """A kink convention in the user's terms: which function, where, what was used."""
    expr = graph.exprs.get(id(node))
    datas = [p.data for p in node._parents]
    hit = _kink_mask(node, kink, datas)
    shown = datas[:2] if hit is None else _first_hit(datas[:2], hit)
    names = {"x": _show(shown[0])}
    if len(datas) > 1:
        names["y"] = _show(shown[1])
    message = kink.message.format(**names)
    if expr is None:
        return message
    where = []
    for arg, data in zip(expr.args, datas):
        if not isinstance(arg, (Const,)) and not _is_literal(arg):
            if hit is not None and hasattr(data, "shape"):
                from .autodiff.shapes import describe_elements
                where.append(describe_elements(quoted(arg), data, hit))
            else:
                where.append(f"{quoted(arg)} = {_show(data)}")
    text = quoted(expr)
    return f"{message} (in {text}" + (f", where {', '.join(where)})" if where else ")")


def kink_text(kink) -> str:
    """A kink's convention without argument values, for many points or steps at once."""
    return kink.message.format_map(_Unfilled())


class _Unfilled(dict):
    """Leaves a placeholder such as {x} as the bare name."""

    def __missing__(self, key):
        return key


def _kink_mask(node, kink, datas):
    """Where, element by element, an array kink holds (None for scalars)."""
    if not any(hasattr(d, "shape") for d in datas):
        return None
    from .autodiff.engine import backend_for
    try:
        return kink.where(backend_for(datas), *datas)
    except (ValueError, ZeroDivisionError, OverflowError):
        return None


def _first_hit(datas, hit):
    """The arguments' values at the first element where an array kink holds."""
    import numpy as np
    try:
        shape = np.broadcast_shapes(np.shape(hit), *(np.shape(d) for d in datas))
        where = np.argwhere(np.broadcast_to(hit, shape))
        if not len(where):
            return datas
        index = tuple(where[0])
        return [float(np.broadcast_to(d, shape)[index]) for d in datas]
    except ValueError:
        return datas


def _is_literal(arg) -> bool:
    from .language.expr import Num
    return isinstance(arg, Num)


def _show(value) -> str:
    try:
        return format_number(value)
    except (TypeError, ValueError):
        if getattr(value, "size", 0) <= 12:
            from .numbers import number_text
            return number_text(value)
        return "[…]"


def differentiate(text: str, wrt: str, order: int = 1) -> str:
    """The symbolic derivative of `text` with respect to `wrt`, as text in the language.

    >>> differentiate("(w*x+b)**2", "w")
    '2*x*(w*x + b)'
    """
    from .symbolic.derivative import differentiate_text
    return differentiate_text(text, wrt, order)


def diff(text: str, wrt=None, order: int = 1, bindings=None):
    """Every partial derivative of `order` (over `wrt`, default all) and, with bindings, values.

    First-order values come from the engine, so they are exactly `evaluate`'s;
    higher orders evaluate the printed formula at the point.
    """
    from .symbolic.derivative import check_order, differentiate as symbolic_diff
    check_order(order)
    program = None
    if bindings is not None:
        from .language.expr import first_span
        from .autodiff.lower import missing_input
        program = parse(text, given_names(bindings, wrt))
        # Before the symbolic work, which takes seconds on a formula thousands of levels deep.
        for name in inputs_of(program):
            if name not in bindings:
                raise missing_input(name, program, first_span(program, name), bound=bindings)
    with _gc_paused():
        result = symbolic_diff(text, wrt, order, program=program)
    program = result.program
    result.read_as = read_as(program)
    result.warnings = list(program.warnings)
    result.values = None
    result.at = {}
    if bindings is None:
        return result
    wanted = sorted({v for d in result.derivatives for v in d.wrt}, key=result.variables.index)
    ev = evaluate(text, bindings, wrt=wanted, program=program)
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
    from .errors import DomainError
    from .symbolic.derivative import program_source
    program = derivative.program
    program.source = program_source(program)
    used = {k: v for k, v in bindings.items() if k in inputs_of(program)}
    used = {k: float(v) if isinstance(v, int) else v for k, v in used.items()}
    try:
        return lower(program, used, wrt=set()).output.data
    except DomainError as exc:
        raise DomainError(f"the derivative by {derivative.key} is undefined here: {exc.message}",
                          op=exc.op, args=exc.args_, reason=exc.reason,
                          overflow=exc.overflow) from None


def descend(text: str, start: dict, **kw):
    """Gradient descent on `text` from `start`; see gradcli.descend.descend for the options."""
    from .descend import descend as run
    return run(text, start, **kw)



def trace(text, bindings=None, *, wrt=None, program=None):
    """The forward and backward pass of `text` at a point, step by step (a trace.Trace)."""
    from .trace import trace as build
    with _gc_paused():
        return build(text, bindings, wrt=wrt, program=program)

__all__ = ["EvalResult", "evaluate", "differentiate", "diff", "descend", "parse_bindings",
           "split_top_level", "constant_value", "inputs_of", "check_wrt", "Name", "trace"]
