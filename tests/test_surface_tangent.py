"""check --tangent on a level surface F(x, y, z) = k: the tangent plane graded by algebra.

Named cases through the library and a few through the CLI; then generated verdicts,
SymPy as the judge (the plane's normal parallel to ∇F(a) and the point on it):
5 + 5 by default, 200 right + 200 wrong marked slow.
"""
import json
import random
import re

import pytest
import sympy as S
from click.testing import CliRunner

from gradcli.cli import main
from gradcli.errors import GradcliError
from gradcli.tasks.check import check_homework

SPHERE = "x^2 + y^2 + z^2 = 14"
AT = {"x": 1.0, "y": 2.0, "z": 3.0}


def graded(answer, question=SPHERE, at=AT):
    return check_homework(question, dict(at), tangent=answer).answers[0]


@pytest.mark.parametrize("answer", [
    "2(x - 1) + 4(y - 2) + 6(z - 3) = 0", "x + 2y + 3z = 14", "z = (14 - x - 2y)/3",
    "-x - 2y - 3z + 14 = 0", "(x - 1)/3 + 2(y - 2)/3 + z - 3 = 0",
    "0.333x + 0.667y + z = 4.67",
])
def test_every_form_of_the_plane_is_right(answer):
    a = graded(answer)
    assert a.ok, a.reason


@pytest.mark.parametrize("answer, mistake, detail", [
    ("x + 2y + 3z = 13", "plane-point", None),
    ("x + 2y + 3z = -14", "plane-point", None),
    ("2x + 4y + 6z = 0", "not-centred", None),
    ("2(x - 1) - 4(y - 2) + 6(z - 3) = 0", "normal-sign", "y"),
    ("2(x - 1) + 4(y - 2) = 0", "missing-term", "z"),
    ("4(x - 1) + 2(y - 2) + 6(z - 3) = 0", "gradient-at-wrong-point", None),
    ("x + 3y + 3z = 16", "plane-normal", None),
    ("x^2 + 2y + 3z = 14", "not-a-plane", None),
    ("(x - 1)/2 = (y - 2)/4 = (z - 3)/6", "normal-line-for-plane", None),
    ("0.333x + 0.667y + z = 4.66", "plane-point", None),
])
def test_a_wrong_plane_is_refused_with_its_mistake(answer, mistake, detail):
    a = graded(answer)
    assert not a.ok and a.mistake == mistake, (a.mistake, a.reason)
    assert detail is None or a.mistake_detail == detail


def test_the_point_used_as_the_normal_is_named():
    # an ellipsoid, where the point's coordinates are not the normal's direction
    a = graded("x + y + z = 3", "x^2 + 2y^2 + 3z^2 = 6", {"x": 1.0, "y": 1.0, "z": 1.0})
    assert a.mistake == "point-as-normal", a.reason
    assert graded("x + 2y + 3z = 6", "x^2 + 2y^2 + 3z^2 = 6", {"x": 1.0, "y": 1.0, "z": 1.0}).ok


@pytest.mark.parametrize("answer, at", [
    ("x + 2y + 3z", AT), ("x + 2y + 3w = 14", AT), ("x + 2y + 3z = 14 = 14", AT),
    ("x + 2y + 3z = 14", {"x": 1.0, "y": 2.0}), ("x + 2y + 3z = 14", {"x": 1.0, "y": 2.0, "z": 4.0}),
])
def test_bad_input_is_a_usage_error(answer, at):
    with pytest.raises(GradcliError):
        check_homework(SPHERE, dict(at), tangent=answer)


def test_through_the_cli_with_the_normal_line_and_exit_codes():
    run = CliRunner().invoke
    right = run(main, ["check", SPHERE, "--at", "x=1,y=2,z=3", "--tangent", "x + 2y + 3z = 14",
                       "--normal", "(x - 1)/2 = (y - 2)/4 = (z - 3)/6", "-o", "json"])
    assert right.exit_code == 0, right.output
    record = json.loads(right.stdout)
    assert [a["key"] for a in record["answers"]] == ["tangent plane", "normal line"]
    assert record["answers"][0]["decided_by"] == "proof"
    wrong = run(main, ["check", SPHERE, "--at", "x=1,y=2,z=3", "--tangent", "x + 2y + 3z = 13"])
    assert wrong.exit_code == 1 and "misses the point" in wrong.output
    bad = run(main, ["check", SPHERE, "--at", "x=1,y=2,z=3", "--tangent", "x + 2y + 3z",
                     "--value", "3"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    # z = f(x, y) as a statement, without z in --at, stays a function's tangent
    graph = run(main, ["check", "z = x^2 + y^2", "--at", "x=1,y=2", "--tangent",
                       "z = 5 + 2(x - 1) + 4(y - 2)"])
    assert graph.exit_code == 0, graph.output


# -- generated verdicts -----------------------------------------------------------------

X, Y, Z = (S.Symbol(n, real=True) for n in "xyz")
XYZ = (X, Y, Z)
TERMS = [X**2, Y**2, Z**2, X * Y, Y * Z, X * Z, X, Y, Z, X * Y * Z, Z**3, X**2 * Z]


def _text(e) -> str:
    return str(e).replace("**", "^")


def _case(rng):
    while True:
        F = sum(rng.choice((-3, -2, -1, 1, 2, 3)) * t for t in rng.sample(TERMS, 3))
        point = [S.Integer(rng.randint(-2, 2)) for _ in range(3)]
        grad = [S.diff(F, v).xreplace(dict(zip(XYZ, point))) for v in XYZ]
        if any(grad) and len(F.free_symbols) == 3:
            return f"{_text(F)} = {F.xreplace(dict(zip(XYZ, point)))}", point, grad


def _forms(rng, normal, point):
    """The plane with this normal through this point, as a book may print it."""
    m = S.Rational(rng.choice((1, 2, -1, 3, -2)), rng.choice((1, 1, 2)))
    n = [m * c for c in normal]
    shifted = " + ".join(f"({c})*({v} - ({a}))" for c, v, a in zip(n, "xyz", point) if c != 0)
    lhs = sum(c * v for c, v in zip(n, XYZ))
    rhs = sum(c * a for c, a in zip(n, point))
    forms = [f"{shifted} = 0", f"{_text(lhs)} = {rhs}", f"{_text(lhs - rhs)} = 0"]
    k = next(i for i in (2, 1, 0) if n[i] != 0)
    solved = S.solve(lhs - rhs, XYZ[k])[0]
    forms.append(f"{'xyz'[k]} = {_text(solved)}")
    return forms


def _judge(text, point, grad) -> bool:
    """SymPy's verdict: the plane's normal is parallel to ∇F(a) and a is on it."""
    left, right = text.split("=")
    loc = {"x": X, "y": Y, "z": Z}
    g = S.expand(S.sympify(left.replace("^", "**"), locals=loc)
                 - S.sympify(right.replace("^", "**"), locals=loc))
    n = [g.coeff(v) for v in XYZ]
    on = g.xreplace(dict(zip(XYZ, point))) == 0
    parallel = any(n) and all(n[i] * grad[j] - n[j] * grad[i] == 0
                              for i in range(3) for j in range(i + 1, 3))
    return on and parallel


def _pairs(n, seed):
    rng = random.Random(seed)
    right, wrong = [], []
    while len(right) < n or len(wrong) < n:
        question, point, grad = _case(rng)
        at = dict(zip("xyz", map(float, point)))
        for text in rng.sample(_forms(rng, grad, point), 2):
            if len(right) < n:
                right.append((question, at, text, _judge(text, point, grad)))
        j = rng.choice([i for i, g in enumerate(grad) if g != 0])
        i = rng.randrange(3)
        slips = [([(-g if k == j else g) for k, g in enumerate(grad)], point),
                 ([(0 if k == j else g) for k, g in enumerate(grad)], point),
                 ([g + (1 if k == i else 0) for k, g in enumerate(grad)], point),
                 ([grad[1], grad[0], grad[2]], point),
                 (grad, [a + (1 if k == i else 0) for k, a in enumerate(point)]),
                 (grad, [0, 0, 0])]
        for normal, through in slips:
            if not any(normal):
                continue
            forms = _forms(rng, normal, through)
            text = forms[rng.randrange(len(forms))]
            ok = _judge(text, point, grad)
            bucket = right if ok else wrong
            if len(bucket) < n:
                bucket.append((question, at, text, ok))
    return right, wrong


NAMED = {"plane-point", "not-centred", "normal-sign", "missing-term", "gradient-at-wrong-point",
         "point-as-normal", "plane-normal"}


def _run(n, seed):
    right, wrong = _pairs(n, seed)
    assert len(right) == n and len(wrong) == n
    assert all(ok for *_, ok in right) and not any(ok for *_, ok in wrong)
    bad, unnamed = [], []
    for c in right + wrong:
        a = check_homework(c[0], dict(c[1]), tangent=c[2]).answers[0]
        if a.ok != c[3]:
            bad.append(c)
        elif not a.ok and a.mistake not in NAMED:
            unnamed.append((c, a.mistake))
    assert not bad, bad[:5]
    assert not unnamed, unnamed[:5]


def test_plane_verdicts_5_right_5_wrong():
    _run(5, 35)


@pytest.mark.slow
def test_plane_verdicts_200_right_200_wrong():
    _run(200, 3500)
