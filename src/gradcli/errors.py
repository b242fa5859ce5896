"""The error family. Every user-facing failure is a GradcliError with an exit code.

Errors carry an optional source position so the CLI can print the line and a
caret; the library never prints, it only raises.
"""
from __future__ import annotations

from .numbers import format_number


class GradcliError(Exception):
    """Base of every error a user can cause; `exit_code` is what the CLI returns."""

    exit_code = 2

    def __init__(self, message: str, *, source: str | None = None,
                 span: tuple[int, int] | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.source = source
        self.span = span
        self.hint = hint

    # Messages quote user text; control characters in it are shown as escapes
    # (\x1b, not an ESC byte), so no input can drive the terminal that reads them.
    @property
    def message(self) -> str:
        return self._message

    @message.setter
    def message(self, text) -> None:
        self._message = clean(text)

    @property
    def hint(self) -> str | None:
        return self._hint

    @hint.setter
    def hint(self, text) -> None:
        self._hint = clean(text)

    def __str__(self) -> str:
        return self.message


class UsageError(GradcliError):
    """Bad options or bindings: exit 2."""


class ParseError(GradcliError):
    """Text that is not in the language: exit 2."""


class UnknownName(GradcliError):
    """An unknown function, an unbound input or an undefined program name: exit 2."""


class ShapeError(GradcliError):
    """Operands whose shapes do not fit, or a non-scalar result where a scalar is needed."""


class DomainError(GradcliError):
    """A value undefined at the point (log(-1), 1/0, overflow): exit 3.

    `op`, `args` and `reason` describe the failure for callers that know the
    expression (lower.py rewrites the message in the user's own terms); `mask`
    marks the failing elements when the arguments were arrays.
    """

    exit_code = 3

    def __init__(self, message, *, op=None, args=(), reason="", show=(), overflow=False,
                 mask=None, **kw):
        super().__init__(message, **kw)
        self.op = op
        self.args_ = list(args)
        self.reason = reason
        self.show = tuple(show)
        self.overflow = overflow
        self.mask = mask

    @classmethod
    def at(cls, op, args, check, reason=None, mask=None):
        reason = reason or (check.message if check else "undefined")
        show = check.show if check else tuple(range(len(args)))
        where = ", ".join(_short(args[i]) for i in show if i < len(args))
        return cls(f"{op.extra.get('call_name', op.name)} is undefined at {where}: {reason}",
                   op=op, args=args, reason=reason, show=show, mask=mask)

    @classmethod
    def overflow(cls, op, args, mask=None):
        where = ", ".join(_short(a) for a in args)
        return cls(f"{op.name} overflows at {where}: the result is too large for a double "
                   "(about 1.8e308)", op=op, args=args, reason="overflow",
                   show=tuple(range(len(args))), overflow=True, mask=mask)


def _short(value) -> str:
    try:
        return format_number(value)
    except (TypeError, ValueError):
        return "an array" if hasattr(value, "shape") else str(value)


class LimitError(GradcliError):
    """Input beyond a documented size limit: exit 2."""


def clean(text):
    """Text safe to print on a terminal: every control or invisible character as an escape.

    New lines and tabs stay; everything else that is not printable (ESC, C1 controls,
    bidirectional overrides, zero-width characters) becomes its backslash escape.
    """
    if text is None or not isinstance(text, str) or text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in "\n\t"
                   else ch.encode("unicode_escape", "backslashreplace").decode("ascii")
                   for ch in text)


class InexactError(GradcliError):
    """--exact met an operation whose result is not a rational number (sin(1), sqrt(2)): exit 2.

    Exit 2, not 3: the value exists (it is not undefined at the point); it just
    cannot be written as a fraction, so the request for exact arithmetic fails.
    """


def nearest(word: str, choices, cutoff: float = 0.6) -> str | None:
    """The closest spelling among `choices`, for "did you mean" hints."""
    import difflib  # only on an error: eval starts without it
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return found[0] if found else None


def caret_lines(source: str, span: tuple[int, int]) -> list[str]:
    """The source line holding span[0] and a caret line under the span."""
    start, end = span
    start = max(0, min(start, len(source)))
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", start)
    if line_end == -1:
        line_end = len(source)
    line = source[line_start:line_end].rstrip("\r")
    lineno = source.count("\n", 0, start) + 1
    col = start - line_start
    width = max(1, min(end, line_end) - start)
    prefix = f"  {lineno} | " if "\n" in source.strip("\n") else "  "
    # Visible text only: control characters would garble the caret line.
    shown = "".join(ch if ch.isprintable() else "?" for ch in line)
    if len(shown) > 200:
        lo = max(0, col - 80)
        shown = ("…" if lo else "") + shown[lo:lo + 160] + "…"
        col = col - lo + (1 if lo else 0)
    return [prefix + shown, " " * (len(prefix) + col) + "^" * min(width, 80)]
