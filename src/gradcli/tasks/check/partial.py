"""Grading higher and mixed partials (check --partial "xyy = 12xy"): vectorcalc.py's grader."""
from __future__ import annotations

from .vectorcalc import PartialGrader

OPTION = "partial"
_GRADER = PartialGrader()
prepare = _GRADER.prepare
grade = _GRADER.grade
