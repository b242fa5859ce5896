"""Text -> a Program ready to evaluate: parse it, then replace each named function by its body.

`f(x) = x^2 sin x; f'(2)` parses (language/parser.py) into a definition and a
Call. Expansion substitutes the arguments for the parameters in the body, after
differentiating the body symbolically for each derivative mark (f', g_x), so
every task downstream sees an ordinary program: the engine, `diff`, `trace` and
`check` need not know that functions have names. The expanded program keeps the
parsed one as `original`, which is what read_as prints.

This sits above both the language and the symbolic layer (the language cannot
differentiate); the symbolic modules are imported only for a derivative mark.
"""
from __future__ import annotations

from .language.expr import Apply, Call, Name, Program, Statement, Vector, postorder, replace_leaves
from .language.parser import given_names, parse

__all__ = ["expand", "given_names", "read_program"]


def read_program(text: str, names=()) -> Program:
    """Parse `text` and expand the functions it defines (see language.parser.parse)."""
    return expand(parse(text, names))


def expand(program: Program) -> Program:
    """The program with every call of a defined function replaced by its body.

    Definitions leave the statements; a program that ends with one has that
    function's body as its result, its parameters as the inputs (so
    `f(x) = x^2 sin x` alone is x^2 sin x).
    """
    if not program.functions:
        return program
    bodies: dict = {}  # name -> (params, expanded body)
    derivatives: dict = {}  # (name, wrt) -> the body differentiated
    statements = []
    for stmt in program.statements:
        expr = _expand_calls(stmt.expr, bodies, derivatives)
        if stmt.params is not None:
            bodies[stmt.name] = (stmt.params, expr)
        else:
            statements.append(Statement(stmt.name, expr, stmt.span, stmt.name_span))
    last = program.statements[-1]
    if last.params is not None:
        statements.append(Statement(None, bodies[last.name][1], last.span))
    out = Program(tuple(statements), program.source, program.warnings)
    out.original = program
    return out


def _expand_calls(root, bodies: dict, derivatives: dict):
    """`root` with each Call replaced, children first, without recursion."""
    done: dict = {}
    for node in postorder(root):
        kids = node.children()
        if not kids:
            done[id(node)] = node
            continue
        new = tuple(done[id(c)] for c in kids)
        if isinstance(node, Call):
            done[id(node)] = _substitute(_body(node, bodies, derivatives), bodies[node.name][0],
                                         new, node.span)
        elif all(a is b for a, b in zip(new, kids)):
            done[id(node)] = node
        elif isinstance(node, Apply):
            done[id(node)] = Apply(node.op, new, node.span)
        else:
            done[id(node)] = Vector(new, node.span)
    return done[id(root)]


def _body(call: Call, bodies: dict, derivatives: dict):
    """The function's body, differentiated by each parameter the call's marks name."""
    params, body = bodies[call.name]
    if not call.wrt:
        return body
    key = (call.name, call.wrt)
    if key not in derivatives:
        from .symbolic.derivative import derivative
        from .symbolic.simplify import Simplifier
        simplify = Simplifier()
        out = body
        for k in range(1, len(call.wrt) + 1):
            step = (call.name, call.wrt[:k])
            if step not in derivatives:
                derivatives[step] = simplify.simplify([derivative(out, call.wrt[k - 1])])[0]
            out = derivatives[step]
    return derivatives[key]


def _substitute(body, params: tuple, args: tuple, span):
    """The body with each parameter replaced by its argument, all at once; an error in
    the result points at the call."""
    value = dict(zip(params, args))

    def leaf(node):
        return value.get(node.id, node) if isinstance(node, Name) else node

    return replace_leaves(body, leaf, span)
