"""Task `check`: grade a student's answers against what the engine computes.

One module per kind of answer, all giving check's Answer in a Verdict:

- verdict.py: Answer, Verdict, tolerances and number grading (the digits rule);
- answers.py: `check()`, the value, partials and derivative formulas of one expression;
- formula.py, sampling.py, probes.py: a derivative formula compared at many points;
- diagnose.py: the mistake in a wrong derivative named;
- streaming.py: `check --points FILE`, every row of a file;
- homework.py: `check_homework()`, which reads the homework graders (tangent.py,
  directional.py, critical.py, taylor.py, implicit.py) from one table; each exposes
  `prepare(question, given, context)` and `grade(question, prepared, context)`.

The rules are in docs/check.md. Nothing here prints. The homework graders and the
--points streaming are imported when first asked for: a plain `check` does not pay
for loading the homework tasks.
"""
from .answers import check, derivative_names
from .formula import parse_answer
from .verdict import ATOL, FORMULA_RTOL_FLOOR, RTOL, Answer, Verdict, close, close_each, \
    correctly_rounded, grade_number, grade_numeric, number_answer, number_or_why, \
    significant_digits, tolerances

__all__ = ["Answer", "Verdict", "check", "close", "close_each", "parse_answer",
           "grade_numeric", "grade_number", "number_answer", "number_or_why",
           "PointAnswer", "PointsCheck", "CheckedChunk", "check_points", "answer_columns",
           "RTOL", "ATOL", "FORMULA_RTOL_FLOOR", "correctly_rounded", "significant_digits",
           "tolerances", "derivative_names", "check_homework", "wanted", "OPTIONS"]

_LAZY = {"check_homework": "homework", "wanted": "homework", "OPTIONS": "homework",
         "PointAnswer": "streaming", "PointsCheck": "streaming", "CheckedChunk": "streaming",
         "check_points": "streaming", "answer_columns": "streaming"}


def __getattr__(name):
    if name in _LAZY:
        from importlib import import_module
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
