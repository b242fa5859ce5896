"""Text -> Program. The language's entry point; no lark type leaks out.

The LALR tables of grammar/gradcli.lark are generated at development time into
_lalr_tables.py and driven by lalr.py, which builds the AST while it parses,
bottom-up, so 100,000 nested parentheses cost no recursion. Tables that do not
match the grammar file (an edited grammar, a broken file) are refused with the
command that regenerates them. Between the lexer and the rules, the post-lexer
(postlex.py) reads math as it is printed (docs/language.md): function names,
glued letters, bare function arguments, powers of functions, absolute-value
bars and juxtaposition; the builder (build.py) makes the nodes; every failure
becomes a ParseError with a position, the expected input in words and a
suggestion (explain.py). Each parse has its own ParseContext, so parses share
no state.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar

from .. import limits, ops
from ..errors import LimitError, ParseError, UnknownName, UsageError
from .build import Builder, validate
from .chars import ACCEPTED, defined_names
from .explain import character_error, token_error
from .expr import Program, Statement
from .postlex import ParseContext, PostLex

__all__ = ["given_names", "listening", "parse", "parse_expr"]

# While a `listening()` block runs: the list each parse with warnings adds (text, warnings) to.
_heard: ContextVar = ContextVar("gradcli_heard", default=None)


@contextmanager
def listening():
    """Within the block, every parse that warns records (its text, its warnings) in the list
    this yields: how `check` learns how a student's answer was read, however deep in a
    grader the answer is parsed (tasks/check/heard.py)."""
    heard = []
    token = _heard.set(heard)
    try:
        yield heard
    finally:
        _heard.reset(token)


def _grammar_path() -> str:
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../gradcli
    for candidate in (os.path.join(package, "grammar", "gradcli.lark"),  # installed wheel
                      os.path.join(os.path.dirname(os.path.dirname(package)), "grammar",
                                   "gradcli.lark")):  # source checkout: src/gradcli/..
        if os.path.isfile(candidate):
            return candidate
    raise FileNotFoundError("gradcli.lark is missing from the installation")


class _Runtime:
    """lalr.py over the generated tables, checked once against the grammar file.

    `tables` and `grammar` default to the shipped ones (the tests pass others).
    Raises lalr.StaleTables, naming the command that regenerates the tables,
    when they cannot be read or were made from another grammar or layout.
    """

    def __init__(self, tables=None, grammar=None):
        from . import lalr
        if tables is None:
            try:
                from ._lalr_tables import TABLES as tables
            except Exception as exc:  # any failure to import the generated module
                raise lalr.StaleTables(f"cannot be read ({type(exc).__name__}: {exc})") \
                    from exc
        if grammar is None:
            with open(_grammar_path(), encoding="utf-8") as f:
                grammar = f.read()
        layout = tables.get("format") if isinstance(tables, dict) else None
        if layout != lalr.FORMAT:
            raise lalr.StaleTables(f"have layout {layout!r}, and this version reads "
                                   f"layout {lalr.FORMAT}")
        if tables.get("grammar_crc32") != lalr.grammar_checksum(grammar):
            raise lalr.StaleTables("were made from another version of grammar/gradcli.lark")
        try:
            self._parser = lalr.Parser(tables, Builder)
        except Exception as exc:  # a hand-edited or truncated table
            raise lalr.StaleTables(f"are broken ({type(exc).__name__}: {exc})") from exc

    def parse(self, text: str, ctx: ParseContext):
        """The statements of `text` (look-alikes already ASCII), built into `ctx`."""
        return self._parser.parse(text, PostLex(ctx), Builder(ctx))

    def tokens(self, text: str, ctx: ParseContext) -> list:
        """The tokens after the post-lexer, up to the first failure (for error messages);
        a second reading, which warns nothing."""
        quiet = ParseContext(ctx.source, ctx.names, ctx.functions)
        quiet.warnings = None
        out = []
        try:
            for tok in PostLex(quiet).process(self._parser.lex(text)):
                out.append(tok)
        except Exception:  # the error being explained, or another one after it
            pass
        return out


_runtime = None  # built on the first parse: `gradcli --help` never reads the tables


def _get_runtime() -> _Runtime:
    global _runtime
    if _runtime is None:
        _runtime = _Runtime()
    return _runtime


def parse(text: str, names=()) -> Program:
    """Parse a program (or a single expression) into a validated Program (thread-safe:
    each call has its own ParseContext).

    `names` are the input's variables known from elsewhere (--at, --wrt, columns,
    the question of an answer): they are read whole, never as glued letters, and
    `name(` after one of them multiplies.
    """
    from . import lalr
    runtime = _get_runtime()

    if len(text) > limits.MAX_INPUT_CHARS:
        raise limits.input_too_large(len(text))
    if not text.strip():
        raise ParseError("the expression is empty", source=text, span=(0, 0),
                         hint='try for example: gradcli eval "x**2" --at x=3')
    # Unambiguous look-alike operators are read as their ASCII meaning, one
    # character for one, so every position in an error still points at the source.
    plain = text.translate(ACCEPTED)
    known, functions = defined_names(plain, text, names)
    ctx = ParseContext(text, known, functions)
    try:
        statements = runtime.parse(plain, ctx)
    except lalr.NoToken as exc:
        raise character_error(text, exc.pos) from None
    except lalr.Unexpected as exc:
        raise token_error(plain, exc, runtime.tokens(plain, ctx), text) from None
    except (ParseError, UnknownName, LimitError) as exc:
        exc.source = text
        raise
    program = Program(tuple(s if isinstance(s, Statement) else Statement(None, s, s.span)
                            for s in statements), text)
    program.warnings = list(ctx.warnings)
    if ctx.skipped:
        program.warnings.append(limits.more_warnings(ctx.skipped))
    validate(program, bool(functions))
    heard = _heard.get()
    if heard is not None and program.warnings:
        heard.append((text, list(program.warnings)))
    return program


def given_names(*groups) -> frozenset:
    """The names an input gets from elsewhere: --at bindings, --wrt lists, columns.

    Each group may be a dict (its keys), a string (comma-separated names) or any
    iterable of names; None is skipped.
    """
    out = set()
    for group in groups:
        if not group:
            continue
        if isinstance(group, str):
            group = group.split(",")
        out.update(str(n).strip() for n in group)
    out.discard("")
    for name in out:
        if ops.lookup_function(name) is not None:
            # Function names are reserved: `--wrt sin` would turn sin(x) into sin*x.
            raise UsageError(f"'{name}' is a function, not a variable: --wrt, --at and "
                             "--over take the expression's variables",
                             hint="`gradcli functions` lists the reserved names")
    return frozenset(out)


def parse_expr(text: str, names=()):
    """Parse text that must be a single expression (no assignments)."""
    program = parse(text, names)
    if len(program.statements) != 1 or program.statements[0].name is not None:
        raise ParseError("expected a single expression here, not a program",
                         source=text, span=(0, len(text)))
    return program.result
