"""How each answer given to `check` was read: its reading's warnings, with the verdict
(docs/language.md, amendment 15).

`1/2x^-1/2` for d/dx √x is read ((1/2)·x^-1)/2 and is wrong; the student learns why
only if the warnings of that reading are shown. The graders read their answers in many
ways (a formula, a tangent's sides, the numbers of a list of points, the chain rule's
SymPy), all through the language's parse; `heard_answers` wraps a checker so that every
parse inside it is heard (language.parser.listening), and gives each Answer the warnings
of the readings of its own text. The verdict lists them too, each naming its answer, so
that the table shows them (on stderr, as every warning) and JSON has them twice: in the
answer's record and in the verdict's "warnings". `check --points` names the warnings of
its formula answers the same way (streaming.py). Nothing here prints.
"""
from __future__ import annotations

import functools
from contextvars import ContextVar

from ...language.parser import listening

_outer: ContextVar = ContextVar("gradcli_check_listening", default=False)


def heard_answers(checker):
    """`checker` (check, check_homework) with the warnings of each answer's reading added
    to its Verdict; a checker called inside another leaves that to the outer one."""
    @functools.wraps(checker)
    def run(*args, **kwargs):
        if _outer.get():
            return checker(*args, **kwargs)
        token = _outer.set(True)
        try:
            with listening() as heard:
                verdict = checker(*args, **kwargs)
        finally:
            _outer.reset(token)
        attach(verdict, heard)
        return verdict
    return run


def attach(verdict, heard) -> None:
    """Each (text, warnings) heard whose text is part of an answer's text: its warnings go
    to that answer, and to the verdict named after it. A grader may read a piece it has
    rewritten (`<a, b, c>` as `[a, b, c]`): then a warning goes to the answer whose text
    holds the piece it quotes ('yz' is read as y*z). The question's own reading, and
    gradcli's readings of its own results, are no part of any answer and stay out."""
    for answer in verdict.answers:
        typed = str(answer.answer)
        for text, warnings in heard:
            piece = text.strip()
            if not piece or text == verdict.expression:
                continue
            whole = piece in typed
            for w in warnings:
                if (whole or _quoted(w) in typed) and w not in answer.warnings:
                    answer.warnings.append(w)
        for w in answer.warnings:
            named = answer_warning(_name(answer, verdict.result_name), w)
            if named not in verdict.warnings:
                verdict.warnings.append(named)


def answer_warning(name: str, warning: str) -> str:
    """A warning of an answer's reading as the verdict lists it, named after the answer."""
    return f"your answer {name}: {warning}"


def _quoted(warning: str) -> str:
    """The typed piece a reading's warning quotes first ('xy' is read as x*y), or a text no
    answer holds."""
    end = warning.find("' is read as") if warning.startswith("'") else -1
    return warning[1:end] if end > 1 else "\0"


def _name(answer, f: str) -> str:
    """The answer's key as check's table prints it (d/dx, df/dx, tangent, T2, ...)."""
    if answer.key:
        return f"for {answer.key}"
    if answer.kind == "value":
        return f"for {f}"
    if answer.kind == "gradient":
        return f"for d{f}/d{answer.name}"
    return f"for d/d{answer.name}"
