"""The chain-rule grader in the GRADERS table (`check EXPR --with ... --derivative ... --wrt s`).

Its work is in chainproof.py, which imports SymPy: loaded only when --with is given, so
that check's start-up stays lean.
"""
from __future__ import annotations

OPTION = "chainrule"  # the answers are --derivative with --with


def prepare(question, given, context):
    from .chainproof import prepare as prepare_proof
    return prepare_proof(question, given, context)


def grade(question, prepared, context):
    from .chainproof import grade as grade_proof
    return grade_proof(question, prepared, context)
