"""What the user gave: --at bindings, constant values, --wrt names, the inputs a program needs.

The helper layer under the tasks (evaluate, trace, check, descend, batch,
plot) and the symbolic derivative: each reads bindings and names the same way,
with the same messages.
"""
from __future__ import annotations

import math

from . import limits, ops
from .autodiff.lower import lower
from .errors import GradcliError, UsageError
from .language.expr import Program, check_wrt, free_names, inputs_of  # noqa: F401 (re-exported)
from .language.parser import parse
from .numbers import format_number, number_text


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


def _plain_number():
    global _PLAIN_NUMBER
    if _PLAIN_NUMBER is None:
        import re
        _PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?")
    return _PLAIN_NUMBER


def constant_value(text: str, what: str, exact: bool = False):
    """The number (or array) a constant expression such as `pi/4` or `[1, 2]` denotes."""
    return _constant(text, what, exact)[0]


def _constant(text: str, what: str, exact):
    """(constant_value's number, whether it was typed as a closed form, not a decimal)."""
    if not exact:
        # A plain decimal number (the common --at value) needs no parser: 100,000
        # bindings must not cost 100,000 parses.
        if _plain_number().fullmatch(text):
            value = float(text)
            if value != value or abs(value) == float("inf"):
                pass  # out of range: the parser's message says so
            elif value == 0:
                return (0.0 if text.lstrip("+-").isdigit() or not text.startswith("-")
                        else -0.0), False
            else:
                return value, False
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
    return lower(program, {}, exact=exact).output.data, True


def is_decimal(text: str) -> bool:
    """Whether `text` is a plain decimal number (taken as the double it is), not a
    closed form such as pi/2 or 1/3."""
    return _plain_number().fullmatch(text.strip()) is not None


def parse_bindings(specs, exact: bool = False) -> dict:
    """`--at` options (each 'a=1,b=2', possibly repeated) -> {name: value}, in order."""
    bindings = {}
    for spec in specs or ():
        for item in _items(spec):
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
            bindings[name], typed = _constant(text.strip(), f"--at {name}", exact)
            if typed and not exact and type(bindings[name]) is float:
                bindings = _typed(bindings, name, text.strip())
    if exact == "closed":
        from .autodiff.closed import to_closed
        bindings = {k: to_closed(v) for k, v in bindings.items()}
    elif exact:
        from .autodiff.exact import to_exact
        bindings = {k: to_exact(v) for k, v in bindings.items()}
    return bindings


class TypedBindings(dict):
    """Bindings some of whose values were typed as closed forms (`pi/2`, `1/3`): `typed`
    keeps their text, for the point's exact re-evaluation (autodiff/typedpoint.py)."""

    typed: dict

    def copy(self) -> TypedBindings:
        out = TypedBindings(self)
        out.typed = dict(self.typed)
        return out


def keep_typed(source, values: dict) -> dict:
    """`values` (a new dict of the point) with the closed forms `source` was typed as."""
    typed = getattr(source, "typed", None)
    if not typed:
        return values
    for name in values:
        if name in typed:
            values = _typed(values, name, typed[name])
    return values


def _typed(bindings: dict, name: str, text: str) -> TypedBindings:
    if type(bindings) is not TypedBindings:
        bindings = TypedBindings(bindings)
        bindings.typed = {}
    bindings.typed[name] = text
    return bindings


def _items(spec: str) -> list[str]:
    """The `name=value` pieces of one --at: its text, or `@FILE` / `@-` read (atfile.py)."""
    if spec.lstrip().startswith("@"):
        from .atfile import read_items
        return read_items(spec.strip())
    return split_top_level(spec)


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


def read_source(expr: str | None, file: str | None) -> str:
    """The expression from the argument, a file, or stdin (-f -)."""
    if expr is not None and file is not None:
        raise UsageError("give the expression either as an argument or with -f, not both")
    if file is not None:
        try:
            data = limits.read_capped(file, "stdin" if file == "-" else file)
        except OSError as exc:
            raise UsageError(f"cannot read {file}: {exc.strerror}") from None
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise UsageError(f"{'stdin' if file == '-' else file} is not UTF-8 text: byte "
                             f"0x{data[exc.start]:02x} at offset {exc.start} cannot be read",
                             hint="save the file as UTF-8") from None
    if expr is None:
        raise UsageError("no expression given",
                         hint='for example: gradcli eval "x**2" --at x=3  (or -f FILE)')
    return expr


def parse_answers(specs) -> dict:
    """`--grad` options (each 'w=28,x=42', possibly repeated) -> {name: answer text}, in order.

    The answers stay text: the check task reads them (3.1677 is judged by its digits)."""
    answers = {}
    for spec in specs or ():
        for item in split_top_level(spec):
            name, eq, answer = item.partition("=")
            name = name.strip()
            if not eq or not name or not answer.strip():
                raise UsageError(f"--grad expects NAME=VALUE, got '{item}'",
                                 hint="for example --grad w=28,x=42")
            if name in answers:
                raise UsageError(f"--grad gives '{name}' twice",
                                 hint=f"keep one answer for {name}")
            answers[name] = answer
    return answers


def parse_over(text: str):
    """`x=A:B` -> ('x', A, B), with A and B constant expressions such as -pi or 2*pi."""
    name, eq, rest = text.partition("=")
    name = name.strip()
    if not eq or not name:
        raise UsageError(f"--over expects NAME=A:B, got '{text}'", hint="for example --over x=-3:3")
    if not name.isidentifier():
        raise UsageError(f"--over: '{name}' is not a valid name")
    bounds = split_top_level(rest, ":", keep_empty=True)
    if len(bounds) != 2 or not all(bounds):
        raise UsageError(f"--over {name}= expects a range A:B, got '{rest}'",
                         hint=f"for example --over {name}=-pi:pi")
    lo = _bound(bounds[0], f"--over {name} (start)")
    hi = _bound(bounds[1], f"--over {name} (end)")
    if not lo < hi:
        raise UsageError(f"--over {name}: the range must go from a smaller to a larger number, "
                         f"got {number_text(lo)}:{number_text(hi)}")
    if not math.isfinite(hi - lo):
        raise UsageError(f"--over {name}: the range {number_text(lo)}:{number_text(hi)} is wider than a "
                         "double can hold (about 1.8e308)", hint="narrow the range")
    return name, lo, hi


def _bound(text, what) -> float:
    value = constant_value(text.strip(), what)
    if getattr(value, "ndim", 0) or isinstance(value, list):
        raise UsageError(f"{what}: expected a number, got a vector")
    value = float(value)
    if not math.isfinite(value):
        raise UsageError(f"{what}: expected a finite number, got {number_text(value)}")
    return value
