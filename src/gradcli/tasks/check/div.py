"""Grading the divergence (check --div): the field grader of vectorcalc.py for this one option."""
from __future__ import annotations

from .vectorcalc import FieldGrader

OPTION = "div"
_GRADER = FieldGrader(OPTION)
prepare = _GRADER.prepare
grade = _GRADER.grade
