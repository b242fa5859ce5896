"""Grading a list of critical points and their kinds (`check --critical ... --over BOX`).

Each listed point is right when it is one that the critical-points task's
search found (coordinates graded as numbers) or when ∇f vanishes there; its
kind is judged against the second-derivative test (`not-critical`,
`classification`, `outside-box`); the points of the search that the list
misses are one more answer (`missed`). Where the task proves its list complete
(by algebra or interval arithmetic), a point it does not have is not critical,
however small ∇f is there, and a point or a curve of points it has that the
list misses is "a critical point missed"; where it only searched, the verdict
says that it cannot prove the list complete.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction

from ..critical import classify, critical_points, higher_order_kind, parse_box
from ...errors import DomainError, UsageError
from ..evaluation import evaluate
from ...inputs import constant_value, split_top_level
from .shared import Graded, pt_text, short
from .verdict import Answer, close, grade_number

OPTION = "critical"


def prepare(question, given, context):
    """(the listed points, the box of --over), read before grading."""
    box = parse_box(given["over"], split_top_level)
    return _parse_critical(given["critical"], list(box)), box


def grade(question, prepared, context) -> Graded:
    items, box = prepared
    bindings = {k: v for k, v in question.at.items() if k not in box}
    return Graded(_grade_critical(question.text, items, box, bindings, context.rtol,
                                  context.atol))


_KINDS = {"local minimum": ("min", "minimum", "local min", "local minimum", "relative min",
                            "relative minimum", "rel min", "minimum point", "local minimum point"),
          "local maximum": ("max", "maximum", "local max", "local maximum", "relative max",
                            "relative maximum", "rel max", "maximum point", "local maximum point"),
          # In one variable a book says "neither" (no extremum there): the saddle's kind.
          "saddle point": ("saddle", "saddle point", "saddlepoint", "neither",
                           "neither max nor min", "neither a max nor a min",
                           "neither a maximum nor a minimum", "no extremum", "not an extremum"),
          "inconclusive": ("inconclusive", "test inconclusive", "the test is inconclusive",
                           "degenerate")}
_WORD = {w: kind for kind, words in _KINDS.items() for w in words}


def _kind_of(words: str, item: str):
    text = re.sub(r"\s+", " ", words.strip(" \t:;,.-–=").lower())
    text = re.sub(r"^(is |an? )+", "", text)
    if not text:
        return None
    if text not in _WORD:
        raise UsageError(f"--critical: '{words.strip()}' in '{item.strip()}' is not a kind of "
                         "critical point",
                         hint="write min, max, saddle or inconclusive after each point: "
                              "--critical \"(0,0) saddle; (1,1) min\"")
    return _WORD[text]


def _parse_critical(answer: str, names: list):
    """'(0,0) saddle; (1,1) min' -> [(item text, coordinates text, numbers, kind or None)]."""
    order = ", ".join(names)
    example = "(" + ",".join("0" for _ in names) + ") saddle" if len(names) > 1 else "0 min"
    if answer.strip().lower() in ("none", "no critical points", "-"):
        return []
    items = []
    for item in _items(answer):
        text = re.sub(r"\s*=\s*", "=", item.strip())  # x = -1 max, as books print it
        if text[:1] in "([":
            close_at = _matching(text)
            if close_at is None:
                raise UsageError(f"--critical: '{text}' has an unclosed bracket",
                                 hint=f"for example --critical \"{example}\"")
            coords, rest = text[1:close_at], text[close_at + 1:]
            parts = split_top_level(coords)
        else:
            head, _, rest = text.partition(" ")
            parts = split_top_level(head)
            if parts and all("=" in p for p in parts):
                given = dict(p.split("=", 1) for p in parts)
                if sorted(k.strip() for k in given) != sorted(names):
                    raise UsageError(f"--critical: '{head}' does not give each of {order}",
                                     hint=f"for example --critical \"{example}\"")
                parts = [given[k] if k in given else given[f" {k}"] for k in names]
        if len(parts) != len(names):
            raise UsageError(f"--critical: '{text}' has {len(parts)} coordinate"
                             f"{'s' if len(parts) != 1 else ''}, but the search is over "
                             f"{len(names)} ({order})",
                             hint=f"give each point as ({order}) in the order of --over, for "
                                  f"example --critical \"{example}\"")
        values = [constant_value(p.strip(), f"--critical {p.strip()}") for p in parts]
        for v in values:
            if isinstance(v, bool) or not isinstance(v, (int, float, Fraction)) \
                    or not math.isfinite(float(v)):
                raise UsageError(f"--critical: the point '{text}' needs finite numbers")
        items.append((text, [p.strip() for p in parts], [float(v) for v in values],
                      _kind_of(rest, text)))
    for i, (_, _, v, _) in enumerate(items):
        if any(v == w for _, _, w, _ in items[:i]):
            raise UsageError(f"--critical lists the point {pt_text(names, v)} twice",
                             hint="list each point once")
    return items


def _items(answer: str) -> list:
    """The points of an answer: separated by ';', or by ',' after a kind word, as books
    print lists: "(0, 0) saddle, (1, 1) min" (a comma inside a point stays in it)."""
    items = []
    for part in split_top_level(answer, ";"):
        pieces = split_top_level(part, ",", keep_empty=True)
        current = ""
        for piece in pieces:
            current = piece if not current else f"{current},{piece}"
            words = re.sub(r"\s+", " ", current.lower()).rstrip(" .")
            if any(words.endswith(" " + w) or words.endswith(")" + w) for w in _WORD):
                items.append(current)
                current = ""
        if current.strip():
            items.append(current)
    return [i for i in items if i.strip()]


def _matching(text: str):
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                return i
    return None


def _same_coordinate(typed: str, mine: float, found: float, rtol, atol) -> bool:
    graded = grade_number(typed, mine, found)
    if graded is not None and graded["ok"]:
        return True
    return close(mine, found, max(rtol, 1e-9), max(atol, 1e-9 * max(1.0, abs(found))))


def _probe(text, bindings, names, point, f0):
    """The kind f looks like around a point where the second-derivative test is silent."""
    return higher_order_kind(text, bindings, names, list(point), f0, [], [], evaluate)


def _exact_pt(names, p) -> str:
    """A found point as the book prints it: (π/2, -1/√2) where it is known exactly."""
    if p.exact is None or any(type(v).__name__ in ("CRootOf", "ComplexRootOf")
                              for v in p.exact.values()):
        return pt_text(names, [p.point[n] for n in names])
    from ...closedtext import printed_text
    coords = [printed_text(p.exact[n]) for n in names]
    return "(" + ", ".join(coords) + ")" if len(names) > 1 else coords[0]


def _on_set(search, names, values) -> str | None:
    """The equation of the proven set of critical points that a point lies on, if any."""
    if not search.sets:
        return None
    from ..critical_proof import on_set
    return on_set(search.sets, names, values)


def _grade_critical(text, items, box, bindings, rtol, atol) -> list:
    import numpy as np
    names = list(box)
    search = critical_points(text, box, bindings, evaluate=evaluate)
    proven = search.complete
    found = [(p, [p.point[n] for n in names]) for p in search.points]
    matched = set()
    out = []
    for item, typed, values, said in items:
        a = Answer("critical", pt_text(names, values), item, key="critical")
        index = next((i for i, (_, q) in enumerate(found)
                      if all(_same_coordinate(t, v, w, rtol, atol)
                             for t, v, w in zip(typed, values, q))), None)
        at = {**bindings, **dict(zip(names, values))}
        if index is not None:
            matched.add(index)
            p = found[index][0]
            kind, eig, f0, where = p.kind, p.eigenvalues, p.value, found[index][1]
        else:
            try:
                r = evaluate(text, at, hessian=True)
            except DomainError as exc:
                a.mistake = "not-critical"
                a.reason = f"f is undefined at {pt_text(names, values)}: {exc.message}"
                out.append(a)
                continue
            g = [float(r.gradient[n]) for n in names]
            h = [[float(r.hessian[x][y]) for y in names] for x in names]
            on = _on_set(search, names, values) if proven else None
            if on is not None:
                a.ok = True
                a.expected = a.correct = f"on {on}"
                a.note = (f"{pt_text(names, values)} lies on {on}, where every point is "
                          "critical")
                out.append(a)
                continue
            if proven and all(lo <= v <= hi for v, (lo, hi) in zip(values, box.values())):
                a.mistake = "not-critical"
                a.expected = a.correct = "not a critical point"
                near = min(found, key=lambda fq: math.dist(fq[1], values), default=None)
                a.reason = (f"not a critical point: ∇f = [{', '.join(short(x) for x in g)}] at "
                            f"{pt_text(names, values)}; the critical points in the box are "
                            f"proven to be {len(found)}, and it is none of them")
                if near is not None:
                    a.note = (f"the nearest critical point found by gradcli is "
                              f"{_exact_pt(names, near[0])} "
                              f"({near[0].kind})")
                out.append(a)
                continue
            size = max([1.0] + [abs(x) for row in h for x in row]) * max([1.0] + [abs(v)
                                                                               for v in values])
            if not all(math.isfinite(x) for x in g) or math.hypot(*g) > 1e-9 * size + atol:
                a.mistake = "not-critical"
                a.expected = "not a critical point"
                a.correct = a.expected
                near = min(found, key=lambda fq: math.dist(fq[1], values), default=None)
                a.reason = (f"not a critical point: ∇f = [{', '.join(short(x) for x in g)}] at "
                            f"{pt_text(names, values)}, not 0")
                if near is not None:
                    a.note = (f"the nearest critical point found by gradcli is "
                              f"{pt_text(names, near[1])} ({near[0].kind})")
                out.append(a)
                continue
            eig = [float(e) for e in np.linalg.eigvalsh(np.array(h))]
            kind = classify(eig, max([abs(e) for e in eig] + [1.0]))
            f0, where = float(r.value), values
            if not all(lo <= v <= hi for v, (lo, hi) in zip(values, box.values())):
                # The question asks for the critical points in the box: one outside is
                # not an answer to it, however critical.
                a.mistake = "outside-box"
                a.expected = a.correct = "not in the box"
                box_text = ", ".join(f"{short(lo)} ≤ {n} ≤ {short(hi)}"
                                     for n, (lo, hi) in box.items())
                a.reason = (f"{pt_text(names, values)} is a critical point ({kind}), but outside "
                            f"the box of --over ({box_text})")
                out.append(a)
                continue
            else:
                a.note = "a critical point (∇f = 0 there) that gradcli's search did not find"
        a.expected = (f"{_exact_pt(names, found[index][0])} {kind}" if index is not None
                      else f"{pt_text(names, where)} {kind}")
        a.correct = a.expected
        if said is None:
            a.ok = True
            a.note = "; ".join(x for x in (a.note, f"a critical point ({kind}); no kind was "
                                                   "given to check") if x)
            out.append(a)
            continue
        eig_text = ", ".join(short(e) for e in eig)
        if kind == "inconclusive" and said != "inconclusive":
            looks = _probe(text, bindings, names, where, f0)
            a.ok = looks == said
            verdict = (f"the second-derivative test is inconclusive here (Hessian eigenvalues "
                       f"{eig_text}: one is 0)")
            if a.ok:
                a.note = (f"{verdict}; f sampled around the point agrees with a {said}: "
                          "evidence, not a proof")
            else:
                a.mistake = "classification"
                a.reason = (f"{verdict}, and f sampled around the point looks like "
                            + (f"a {looks}" if looks else "neither a minimum nor a maximum")
                            + f", not a {said}")
            out.append(a)
            continue
        singular = any(abs(e) <= 1e-8 * max([abs(x) for x in eig] + [1.0]) for e in eig)
        a.ok = said == kind or (said == "inconclusive" and singular)
        if a.ok and singular:
            a.note = (f"the second-derivative test is inconclusive here (Hessian eigenvalues "
                      f"{eig_text}: one is 0); a higher-order test (f compared around the "
                      f"point along the Hessian's null directions) gives a {kind}")
        if not a.ok:
            a.mistake, a.mistake_detail = "classification", kind
            why = {"local minimum": "all positive", "local maximum": "all negative",
                   "saddle point": "of both signs", "inconclusive": "one is 0"}[kind]
            a.reason = (f"{'a ' if kind != 'inconclusive' else 'the test is '}{kind}, not "
                        f"{'a ' + said if said != 'inconclusive' else 'inconclusive'}: the "
                        f"Hessian's eigenvalues there are {eig_text} ({why})")
        out.append(a)
    missed = [found[i] for i in range(len(found)) if i not in matched]
    sets = [eq for eq, _ in search.sets]
    listed = f"{len(items)} listed" if items else "none listed"
    total = f"{len(found)} found by gradcli" + (f" and {len(sets)} set{'s' if len(sets) > 1 else ''}"
                                                f" of them" if sets else "")
    a = Answer("critical", "missed", listed, key="critical points", expected=total,
               ok=not missed and not sets, note=search.note)
    a.correct = "; ".join([f"{_exact_pt(names, p)} {p.kind}" for p, _ in found]
                          + [f"every point of {eq} ({kind})" for eq, kind in search.sets]) \
        or "none found"
    if missed or sets:
        a.mistake = "missed"
        a.mistake_detail = "; ".join([_exact_pt(names, p) for p, _ in missed] + sets)
        what = ("a critical point missed: " if len(missed) + len(sets) == 1
                else "critical points missed: ")
        a.reason = what + "; ".join(
            [f"{_exact_pt(names, p)} ({p.kind}, f = {short(p.value)})" for p, _ in missed]
            + [f"every point of {eq}" for eq in sets]) + (
            f", and the list in the box is proven complete ({search.method})" if proven
            else ", found by gradcli in the box")
    out.append(a)
    return out
