"""Grading the curl (check --curl): the field grader of vectorcalc.py for this one option."""
from __future__ import annotations

from .vectorcalc import FieldGrader

OPTION = "curl"
_GRADER = FieldGrader(OPTION)
prepare = _GRADER.prepare
grade = _GRADER.grade
