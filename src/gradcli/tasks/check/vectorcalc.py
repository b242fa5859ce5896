"""Grading div, curl, the Laplacian, the Jacobian determinant (`check --div`, `--curl`,
`--laplacian`, `--jacobian-det`) and higher partials (`check --partial "xyy = 12xy"`).

The correct formula is `diff`'s own (tasks/vectorcalc.py). A formula answer is
compared by decide.py (SymPy's proof first); with `--at`, an answer without
variables is the value at that point (the digits rule). A wrong answer is
matched against the usual mistakes, each a formula built from the same
derivatives (the curl's sign or its components' order, a component negated,
P_y - Q_x for the 2-D curl, a term of the sum missing, the vector of partials
given for the divergence, f_xxy for f_xyy, one differentiation short); the
first that SymPy proves equal to the answer is named.
"""
from __future__ import annotations

import re
from itertools import permutations, product

from ...errors import UsageError
from ...language.expr import Apply, Vector
from .. import vectorcalc as vc
from . import decide
from .formula import parse_answer
from .probes import rounded_literals
from .shared import Graded
from .unitvectors import bracket_form, k_coefficient
from .verdict import Answer, grade_number, grade_numeric, num, number_or_why

_KEYS = {"div": "div F", "curl": "curl F", "laplacian": "∇²f", "jacobian_det": "det J"}
_EXAMPLES = {"div": '--div "y + z + x"', "curl": '--curl "[-y, -z, -x]"',
             "laplacian": '--laplacian "2y + 6z"', "jacobian_det": '--jacobian-det "r"',
             "partial": '--partial "xyy = 12xy"'}
_WORD = {"div": "divergence", "curl": "curl", "laplacian": "Laplacian",
         "jacobian_det": "determinant"}
_BRACKETS = re.compile(r"^\s*[<⟨(]\s*(.*?)\s*[>⟩)]\s*$", re.S)


class FieldGrader:
    """One of div, curl, laplacian, jacobian_det: prepare and grade as shared.py says (each
    option's module, div.py, curl.py, ..., is one of these)."""

    def __init__(self, kind: str):
        self.kind = kind

    def prepare(self, question, given, context):
        answer = given[self.kind]
        if not answer.strip():
            raise UsageError(f"--{self.kind.replace('_', '-')} is empty",
                             hint=f"for example: {_EXAMPLES[self.kind]}")
        wrt = given.get("field_wrt") or None
        program, parts, variables, _ = vc.read_field(question.text, wrt, [self.kind],
                                                     question.at)
        calc = vc.Calculus(variables)
        roots = [calc.simplified(decide.root_of(program))] if parts is None \
            else [calc.simplified(p) for p in parts]
        correct = vc.combine(calc, self.kind, roots, variables)
        student, literals = _read_answer(answer, question.program, variables, self.kind)
        _point_for_number(question.at, variables, student, f"--{self.kind.replace('_', '-')}")
        return calc, roots, correct, (student, literals), variables, answer

    def grade(self, question, prepared, context) -> Graded:
        calc, roots, correct, (student, literals), variables, answer = prepared
        many = isinstance(correct, list)
        a = Answer(self.kind, self.kind, answer.strip(), key=_KEYS[self.kind],
                   expected=_correct_text(calc, correct, variables, book=True))
        a.correct = a.expected
        point = _point(question.at, variables)
        seed = (question.text, answer, self.kind)
        numeric = point is not None and _constant(student)
        if numeric:
            _grade_values(a, student, correct, point, context)
        else:
            _grade_formula(a, student, correct, variables, seed, question.at, literals)
        if not a.ok and a.mistake is None:
            _name_mistake(a, self.kind, calc, roots, correct, student, variables, seed,
                          point if numeric else None)
            if a.mistake is None and many and isinstance(student, list):
                a.mistake = "curl-component"
        return Graded([a])


def _correct_text(calc, correct, variables, book: bool) -> str:
    if isinstance(correct, list):
        return _shown([calc.formula(r, variables, book=book).text for r in correct])
    return _shown(calc.formula(correct, variables, book=book).text)


def _shown(shown) -> str:
    return "[" + ", ".join(s.replace("\n", "; ") for s in shown) + "]" \
        if isinstance(shown, list) else shown.replace("\n", "; ")


def _read_answer(answer: str, program, variables, kind):
    """(the answer as a root, or a list of roots for a vector (⟨a, b, c⟩, (a, b, c) or
    [..]), its rounded decimals for the digits rule)."""
    text = answer.strip()
    if kind == "curl" and len(variables) == 3:
        text = bracket_form(text, variables) or text
    elif kind == "curl" and len(variables) == 2:
        scalar = k_coefficient(text, variables)
        if scalar is None and bracket_form(text, variables) is not None:
            raise UsageError("the curl of a plane field is one formula, Q_x - P_y, printed "
                             "as a multiple of k; this answer has an i or j component",
                             source=answer, hint='for example --curl "(x - y) k" or "x - y"')
        text = scalar or text
    bracket = _BRACKETS.match(text)
    if bracket and "," in bracket.group(1):
        text = "[" + bracket.group(1) + "]"
    what = "the " + {"div": "divergence", "curl": "curl", "laplacian": "Laplacian",
                     "jacobian_det": "Jacobian determinant", "partial": "partial"}[kind]
    prog = parse_answer(text, program, variables, what)
    root = decide.root_of(prog)
    literals = rounded_literals(prog)
    if isinstance(root, Vector):
        if any(isinstance(i, Vector) for i in root.items):
            raise UsageError(f"the answer for {what} is a matrix", source=answer)
        return list(root.items), literals
    return root, literals


def _constant(student) -> bool:
    from ...language.expr import Name, postorder
    roots = student if isinstance(student, list) else [student]
    return all(not isinstance(n, Name) for r in roots for n in postorder(r))


def _point_for_number(at, variables, student, option) -> None:
    """A number answer with --at is a value at the point: the point needs every variable."""
    if at and _constant(student) and _point(at, variables) is None:
        missing = [v for v in variables if v not in at]
        raise UsageError(f"{option} is a number, the value at the point, but --at has no "
                         f"value for {', '.join(missing)}",
                         hint="give every variable: --at " + ",".join(f"{v}=…" for v in variables))


def _point(at, variables):
    if not at or not all(v in at for v in variables):
        return None
    return {v: float(at[v]) for v in variables}


def _grade_formula(a, student, correct, variables, seed, at, literals=()) -> None:
    if isinstance(correct, list):
        if not isinstance(student, list):
            if len(correct) == 3 and decide.same(student, _zero(), variables, seed) and all(
                    decide.compare(_zero(), c, variables, seed).equal for c in correct):
                a.ok, a.note = True, "the zero vector; decided by SymPy"
                return
            a.reason = "the curl of a field in three variables is a vector [.., .., ..]"
            a.mistake = "not-a-vector"
            return
        if len(student) != len(correct):
            a.reason = f"your answer has {len(student)} components; the curl has 3"
            a.mistake = "components"
            return
        results = [decide.compare(s, c, variables, seed, at, literals)
                   for s, c in zip(student, correct)]
        a.ok = all(r.equal for r in results)
        a.decided_by = decide.decided_by(results)
        bad = [i for i, r in enumerate(results) if not r.equal]
        shown = results if a.ok else [results[i] for i in bad]
        a.note = "; ".join(sorted({decide.how_text(r) for r in shown}))
        if not a.ok:
            names = [f"{'ijk'[i]}-component" for i in bad]
            a.reason = ("the " + " and ".join(names) + (" is" if len(bad) == 1 else " are")
                        + f" wrong: the curl is {a.correct}")
            first = results[bad[0]]
            if first.counterexample:
                a.counterexample = first.counterexample
                a.reason += f" ({names[0]} {_at(first)})"
            a.mistake_detail = ",".join("ijk"[i] for i in bad)
        return
    if isinstance(student, list):
        a.reason = f"the answer is a vector; this is one formula: {a.correct}"
        return
    r = decide.compare(student, correct, variables, seed, at, literals)
    a.ok, a.note, a.decided_by = r.equal, decide.how_text(r), decide.decided_by([r])
    if not a.ok:
        a.counterexample = r.counterexample
        a.reason = f"the correct formula is {a.correct}" + (f" ({_at(r)})" if
                                                           r.counterexample else "")


def _value_words(expected) -> str:
    if isinstance(expected, list):
        return "[" + ", ".join(num(v) for v in expected) + "] at the point"
    return f"{num(expected)} at the point"


def _at(r) -> str:
    return _at_ce(r.counterexample)


def _at_ce(ce) -> str:
    where = ", ".join(f"{k} = {num(v)}" for k, v in ce["at"].items())
    return f"at {where} yours is {num(ce['yours'])}, the correct value {num(ce['correct'])}"


def _zero():
    from ...language.expr import Num
    return Num(0)


def _grade_values(a, student, correct, point, context) -> None:
    """Numbers at the point: each by the digits rule (or the tolerances)."""
    if isinstance(correct, list) != isinstance(student, list) or (
            isinstance(correct, list) and len(correct) != len(student)):
        a.reason = f"the value is {'a vector of 3 numbers' if isinstance(correct, list) else 'one number'}"
        a.mistake = "not-a-vector" if isinstance(correct, list) else "vector-given"
        return
    pairs = list(zip(student, correct)) if isinstance(correct, list) else [(student, correct)]
    texts = _component_texts(a.answer) if isinstance(correct, list) else [a.answer]
    oks, reasons, expected = [], [], []
    for (s, c), text in zip(pairs, texts):
        part = Answer("value", a.name, text)
        part.expected = decide.value(c, point)
        if part.expected is None:
            raise UsageError(f"the {a.key} is undefined at the point",
                             hint="choose a point where the field is defined")
        part.computed = number_or_why(text, f"for {a.key}")
        grade_numeric(part, text, context.rtol, context.atol, context.digits_rule)
        oks.append(part.ok)
        expected.append(part.expected)
        if not part.ok:
            reasons.append(part.reason)
        if part.digits is not None:
            a.digits, a.rounded = part.digits, part.rounded
    a.ok = all(oks)
    a.expected = expected if isinstance(correct, list) else expected[0]
    a.computed = None
    a.note = "graded as the value at the point"
    if not a.ok:
        if isinstance(correct, list):
            digits = [r for r in reasons if "digits" in r]
            a.reason = "; ".join([f"the correct value is {_value_words(expected)}"] + digits)
        else:
            a.reason = "; ".join(reasons) or "wrong value"


def _component_texts(answer: str) -> list:
    from ...inputs import split_top_level
    text = answer.strip()
    m = _BRACKETS.match(text) or re.match(r"^\s*\[(.*)\]\s*$", text, re.S)
    return [t.strip() for t in split_top_level(m.group(1) if m else text)]


# ------------------------------------------------------------------ the usual mistakes

def _name_mistake(a, kind, calc, roots, correct, student, variables, seed, point) -> None:
    for mistake, detail, reason, candidate in _candidates(kind, calc, roots, correct, variables):
        if _matches(student, candidate, variables, seed, point, a) and not _same_as_right(
                candidate, correct, variables, seed):
            a.mistake, a.mistake_detail = mistake, detail
            correct = a.correct if point is None else _value_words(a.expected)
            a.reason = f"{reason}; the correct {_WORD[kind]} is {correct}" + (
                f" ({_at_ce(a.counterexample)})" if a.counterexample else "")
            return


def _matches(student, candidate, variables, seed, point, a) -> bool:
    if isinstance(student, list) != isinstance(candidate, list):
        return False
    if isinstance(student, list):
        texts = _component_texts(a.answer) if point is not None else [None] * len(student)
        return len(student) == len(candidate) == len(texts) and all(
            _matches_one(s, c, variables, seed, point, t)
            for s, c, t in zip(student, candidate, texts))
    return _matches_one(student, candidate, variables, seed, point, a.answer)


def _same_as_right(candidate, correct, variables, seed) -> bool:
    """A slip that gives the right formula for this question (the curl of a field whose
    components are the same in any order) is no mistake to name."""
    if isinstance(candidate, list) != isinstance(correct, list):
        return False
    if isinstance(candidate, list):
        return all(decide.same(c, r, variables, seed) for c, r in zip(candidate, correct))
    return decide.same(candidate, correct, variables, seed)


def _matches_one(student, candidate, variables, seed, point, text) -> bool:
    if point is not None:
        want, got = decide.value(candidate, point), decide.value(student, point)
        if want is None or got is None:
            return False
        graded = grade_number(text, got, want)
        return graded["ok"] if graded else abs(got - want) <= 1e-9 * max(1.0, abs(want))
    return decide.same(student, candidate, variables, seed)


def _neg(r):
    return Apply("neg", (r,))


def _candidates(kind, calc, roots, correct, variables):
    """(mistake, detail, reason, wrong formula) in the order they are tried."""
    d = calc.d
    s = calc.simplified
    if kind == "div":
        terms = [d(p, v) for p, v in zip(roots, variables)]
        yield ("vector-given", None, "the divergence is one formula, the sum P_x + Q_y"
               + (" + R_z" if len(terms) == 3 else "") + "; you gave the vector of its terms",
               terms)
        yield ("sign", None, "your divergence has the opposite sign", s(_neg(correct)))
        for i, v in enumerate(variables):
            if len(terms) > 1:
                rest = vc._sum([t for j, t in enumerate(terms) if j != i])
                yield ("missing-term", v, f"a term is missing: ∂{'PQR'[i]}/∂{v}", s(rest))
        for perm in permutations(range(len(variables))):
            if list(perm) != list(range(len(variables))):
                yield ("wrong-variable", None, "each component is differentiated by another "
                       "variable: the divergence is ∂P/∂x + ∂Q/∂y"
                       + (" + ∂R/∂z" if len(roots) == 3 else ""),
                       s(vc._sum([d(p, variables[k]) for p, k in zip(roots, perm)])))
        if len(roots) == 2:
            yield ("curl-given", None, "that is the curl Q_x - P_y, not the divergence",
                   s(Apply("sub", (d(roots[1], variables[0]), d(roots[0], variables[1])))))
    elif kind == "curl" and not isinstance(correct, list):
        (p, q), (x, y) = roots, variables
        yield ("curl-sign", None, f"that is P_{y} - Q_{x}; the curl of [P, Q] is "
               f"Q_{x} - P_{y}", s(_neg(correct)))
        yield ("div-given", None, "that is the divergence P_x + Q_y, not the curl",
               s(Apply("add", (d(p, x), d(q, y)))))
        yield ("missing-term", f"{'P'}_{y}", f"the term -P_{y} is missing", d(q, x))
        yield ("missing-term", f"Q_{x}", f"the term Q_{x} is missing", s(_neg(d(p, y))))
    elif kind == "curl":
        yield ("curl-sign", None, "every component has the opposite sign (each difference "
               "taken the other way round)", [s(_neg(c)) for c in correct])
        for perm in permutations(range(3)):
            if perm != (0, 1, 2):
                yield ("curl-order", None, "the components are right but in the wrong order "
                       "(i: R_y - Q_z, j: P_z - R_x, k: Q_x - P_y)",
                       [correct[k] for k in perm])
        for i in range(3):
            yield ("curl-component-sign", "ijk"[i], f"the {'ijk'[i]}-component has the "
                   "opposite sign" + (": it is P_z - R_x (the minus of the cofactor "
                                      "expansion)" if i == 1 else ""),
                   [s(_neg(c)) if j == i else c for j, c in enumerate(correct)])
        yield ("div-given", None, "that is the divergence, not the curl",
               s(vc._sum([d(r, v) for r, v in zip(roots, variables)])))
    elif kind == "laplacian":
        (f,) = roots
        seconds = [calc.d_seq(f, (v, v)) for v in variables]
        yield ("gradient-given", None, "the Laplacian is one formula, f_xx + f_yy"
               + (" + f_zz" if len(variables) == 3 else "") + "; you gave a vector",
               [d(f, v) for v in variables])
        yield ("vector-given", None, "the Laplacian is the sum of the second partials; you "
               "gave them as a vector", seconds)
        yield ("first-derivatives", None, "that is the sum of the first partials; the "
               "Laplacian sums the second ones, f_xx + f_yy + ...",
               s(vc._sum([d(f, v) for v in variables])))
        for i, v in enumerate(variables):
            if len(seconds) > 1:
                yield ("missing-term", v, f"a term is missing: f_{v}{v}",
                       s(vc._sum([t for j, t in enumerate(seconds) if j != i])))
        yield ("sign", None, "your Laplacian has the opposite sign", s(_neg(correct)))
    elif kind == "jacobian_det":
        m = [[d(p, v) for v in variables] for p in roots]
        yield ("jacobian-sign", None, "the determinant with two rows or columns swapped "
               "(the variables taken in the other order): the sign flips", s(_neg(correct)))
        if len(m) == 2:
            a, b = variables
            det = f"x_{a} y_{b} - x_{b} y_{a} (x, y the two components)"
            yield ("cross-term-sign", None, f"the cross term is added; the determinant is "
                   f"{det}", s(Apply("add", (Apply("mul", (m[0][0], m[1][1])),
                                               Apply("mul", (m[0][1], m[1][0]))))))
            yield ("missing-term", None, f"the cross term x_{b} y_{a} is missing; the "
                   f"determinant is {det}", s(Apply("mul", (m[0][0], m[1][1]))))


# ------------------------------------------------------------------ partials

class PartialGrader:
    """check --partial "xyy = 12xy" (repeatable); partial.py is one of these."""

    def prepare(self, question, given, context):
        answers = given["partial"]
        if isinstance(answers, str):
            answers = [answers]
        if question.program is None:
            raise UsageError("--partial needs a function, not an equation")
        variables = list(question.variables)
        calc = vc.Calculus(variables)
        root = decide.root_of(question.program)
        if isinstance(root, Vector):
            raise UsageError("--partial is for a scalar function f, not a vector field",
                             source=question.text)
        vc._check_scalar(root)
        root = calc.simplified(root)
        items = []
        for typed in answers:
            seq, formula = _split_partial(typed, variables)
            student, literals = _read_answer(formula, question.program, variables, "partial")
            if isinstance(student, list):
                raise UsageError(f"the answer for f_{vc.partial_label(seq)} is a vector; a "
                                 "partial is one formula", source=typed)
            _point_for_number(question.at, variables, student, "--partial")
            items.append((seq, typed, formula, student, literals))
        return calc, root, variables, items

    def grade(self, question, prepared, context) -> Graded:
        calc, root, variables, items = prepared
        out = []
        for seq, typed, formula, student, literals in items:
            correct = calc.d_seq(root, seq)
            label = vc.partial_label(seq)
            f = "f"
            a = Answer("partial", label, formula.strip(), key=f"{f}_{label}")
            a.correct = a.expected = calc.formula(correct, variables,
                                                  book=False).text.replace("\n", "; ")
            point = _point(question.at, variables)
            seed = (question.text, typed)
            numeric = point is not None and _constant(student)
            if numeric:
                _grade_values(a, student, correct, point, context)
            else:
                _grade_formula(a, student, correct, variables, seed, question.at, literals)
            if not a.ok and a.mistake is None:
                for mistake, detail, reason, cand in _partial_candidates(calc, root, seq,
                                                                        variables, correct,
                                                                        seed):
                    if _matches(student, cand, variables, seed, point if numeric else None,
                                a) and not _same_as_right(cand, correct, variables, seed):
                        a.mistake, a.mistake_detail = mistake, detail
                        correct = a.correct if not numeric else _value_words(a.expected)
                        a.reason = f"{reason}; the correct f_{label} is {correct}" + (
                            f" ({_at_ce(a.counterexample)})" if a.counterexample else "")
                        break
            out.append(a)
        return Graded(out)


def _split_partial(typed: str, variables):
    """('x', 'y', 'y') and the formula of "xyy = 12xy" (also "f_xyy = ...", "fxyy = ...")."""
    if "=" not in typed:
        raise UsageError(f"--partial needs the letters and the formula: got '{typed}'",
                         hint=f"for example: {_EXAMPLES['partial']}")
    left, formula = typed.split("=", 1)
    left = left.strip()
    if not formula.strip():
        raise UsageError(f"--partial {left} = has no formula",
                         hint=f"for example: {_EXAMPLES['partial']}")
    letters = re.sub(r"^f_?(?=.)", "", left) if left[:1] == "f" and "f" not in variables \
        else left
    letters = letters.lstrip("_")
    return vc.parse_partial(letters, variables), formula


def _partial_candidates(calc, root, seq, variables, correct, seed):
    yield ("sign", None, "your answer has the opposite sign", calc.simplified(_neg(correct)))
    label = vc.partial_label
    for perm in sorted(set(permutations(seq))):
        if perm != tuple(seq):
            other = calc.d_seq(root, perm)
            if not decide.same(other, correct, variables, seed):
                yield ("mixed-order", label(perm), f"that is f_{label(perm)}: the letters "
                       f"are taken in the order written, f_{label(seq)} = ∂/∂{seq[-1]}(...) "
                       "of the earlier ones, and here the two differ", other)
    short = tuple(seq[:-1])
    if len(seq) > 1:
        yield ("order-short", label(short), f"that is f_{label(short)}: one "
               f"differentiation (by {seq[-1]}) is missing", calc.d_seq(root, short))
    if len(variables) <= 3 and len(seq) <= 4:
        for word in product(variables, repeat=len(seq) - 1):
            if word and word != short:
                yield ("order-short", label(word), f"that is f_{label(word)}, of order "
                       f"{len(word)}; f_{label(seq)} is of order {len(seq)}",
                       calc.d_seq(root, word))
        for word in product(variables, repeat=len(seq)):
            if sorted(word) != sorted(seq):
                yield ("wrong-partial", label(word), f"that is f_{label(word)}, not "
                       f"f_{label(seq)}", calc.d_seq(root, word))


