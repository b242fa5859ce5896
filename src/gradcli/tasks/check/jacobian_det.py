"""Grading the Jacobian determinant (check --jacobian-det): the field grader of vectorcalc.py for this one option."""
from __future__ import annotations

from .vectorcalc import FieldGrader

OPTION = "jacobian_det"
_GRADER = FieldGrader(OPTION)
prepare = _GRADER.prepare
grade = _GRADER.grade
