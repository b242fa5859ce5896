"""diff --partial/--div/--curl/--laplacian/--jacobian-det and their `check` forms.

The corpus (tests/textbook/vectorcalc.json) is proven by SymPy, solved by
gradcli (its formula equal to SymPy's), its printed answers accepted and a
plausible wrong answer for each rejected with the mistake named. The other
tests pin the contract of SPEC §3.11: JSON keys, variables x, y, z in that
order, values at --at in closed form, and bad input (exit 2, no traceback).
"""
import json
import os
import sys

import pytest
import sympy as sp
from click.testing import CliRunner

from gradcli.cli import main

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "textbook"))
import verify_vectorcalc  # noqa: E402

CORPUS = json.load(open(os.path.join(HERE, "textbook", "vectorcalc.json"), encoding="utf-8"))
FLAG = {"div": "--div", "curl": "--curl", "laplacian": "--laplacian",
        "jacobian_det": "--jacobian-det"}


def run(*args):
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def record(*args):
    code, out, err = run(*args, "-o", "json")
    assert code in (0, 1), err
    return code, json.loads(out)


def bad(*args):
    code, out, err = run(*args)
    assert code == 2, (out, err)
    assert err.startswith("error: ") and "Traceback" not in err
    return err


def _wrt(entry):
    return ["--wrt", entry["wrt"]] if entry.get("wrt") else []


def _check_args(entry, answer):
    kind = entry["kind"]
    given = (["--partial", f"{entry['partial']} = {answer}"] if kind == "partial"
             else [FLAG[kind], answer])
    return ["check", entry["question"], *_wrt(entry), *given]


def _sympy_of_text(text, names):
    """gradcli's printed formula read back by gradcli, then as SymPy."""
    from gradcli.reading import read_program
    from gradcli.symbolic.derivative import inline
    from gradcli.symbolic.tosympy import to_sympy
    return to_sympy(inline(read_program(text))[0])


def test_corpus_size():
    kinds = {}
    for e in CORPUS:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    assert set(kinds) == {"div", "curl", "laplacian", "jacobian_det", "partial"}
    assert min(kinds.values()) >= 10, kinds


# SymPy alone on the test data: the data does not change between Pythons or commits
# of the product, so this runs once per CI run, in the slow job.
@pytest.mark.slow
@pytest.mark.parametrize("entry", CORPUS, ids=[e["id"] for e in CORPUS])
def test_sympy_confirms_the_printed_answer(entry):
    assert verify_vectorcalc.verify(entry) is None


# The entries copied from published pages (typed: page) run in the slow job.
@pytest.mark.parametrize("entry", [
    pytest.param(e, id=e["id"], marks=pytest.mark.slow if e.get("typed") == "page" else ())
    for e in CORPUS])
def test_corpus(entry):
    kind = entry["kind"]
    want = verify_vectorcalc.solve(entry)
    if kind == "partial":
        _, rec = record("diff", entry["question"], "--partial", entry["partial"])
        got = rec["derivatives"][entry["partial"]]
    else:
        _, rec = record("diff", entry["question"], FLAG[kind], *_wrt(entry))
        got = rec[kind]
    names = entry["sympy"]["variables"]
    pairs = zip(want, got) if isinstance(want, list) else [(want, got)]
    for w, g in pairs:
        assert sp.simplify(_sympy_of_text(g, names) - w) == 0, (g, w)
    code, rec = record(*_check_args(entry, entry["answer"]))
    assert code == 0, rec
    code, rec = record(*_check_args(entry, entry["wrong"]["answer"]))
    assert code == 1
    assert rec["answers"][0]["mistake"] == entry["wrong"]["mistake"], rec


# ------------------------------------------------------------------ diff

def test_div_curl_json_keys_and_order():
    _, rec = record("diff", "[x*y, y*z, z*x]", "--div", "--curl")
    assert rec["variables"] == ["x", "y", "z"]
    x, y, z = sp.symbols("x y z", real=True)
    assert sp.simplify(_sympy_of_text(rec["div"], "xyz") - (x + y + z)) == 0
    assert rec["curl"] == ["-y", "-z", "-x"]


def test_field_in_xy_not_order_of_appearance():
    # [-y, x^2] is a field in (x, y): Q_x - P_y = 2x + 1, not -(2x + 1)
    _, rec = record("diff", "[-y, x^2]", "--curl", "--div")
    assert rec["variables"] == ["x", "y"]
    assert rec["curl"] == "2*x + 1" and rec["div"] == "0"


def test_values_at_point_closed_form():
    _, rec = record("diff", "[sin(x) y, x, 0]", "--div", "--at", "x=pi/3,y=1,z=0")
    assert rec["values"]["div"] == "1/2"
    assert rec["values"]["div_value"] == pytest.approx(0.5)
    _, rec = record("diff", "x^2 y + z^3", "--laplacian", "--at", "x=1,y=2,z=3")
    assert rec["laplacian"] == "2*y + 6*z" and rec["values"]["laplacian"] == "22"


def test_curl_of_gradient_is_zero():
    _, rec = record("diff", "grad(x^2 y z + sin(x z))", "--curl")
    assert rec["curl"] == ["0", "0", "0"]


def test_jacobian_book_form():
    _, rec = record("diff", "[r cos(t), r sin(t)]", "--jacobian-det", "--wrt", "r,t")
    assert rec["jacobian_det"] == "r"
    _, rec = record("diff", "[t cos(r), t sin(r)]", "--jacobian-det", "--wrt", "r,t")
    assert rec["jacobian_det"] == "-t"


def test_partial_keys_values_and_clairaut():
    _, rec = record("diff", "x^3 y^2 + x y", "--partial", "xyy", "--partial", "xy",
                    "--partial", "yx", "--at", "x=1,y=2")
    assert rec["derivatives"] == {"xyy": "6*x^2", "xy": "6*x^2*y + 1", "yx": "6*x^2*y + 1"}
    assert rec["values"] == {"xyy": 6.0, "xy": 13.0, "yx": 13.0}
    assert rec["clairaut"] == [{"partials": ["xy", "yx"], "equal": True}]


def test_partial_long_names_with_commas():
    _, rec = record("diff", "x1^2 x2^3", "--partial", "x1,x2,x2")
    assert rec["derivatives"] == {"x1,x2,x2": "12*x1*x2"}


def test_partial_order_matters_where_written():
    code, out, _ = run("diff", "x^2 sin(y)", "--partial", "yxx", "-o", "plain")
    assert code == 0 and out.startswith("f_yxx\t2*cos(y)")


def test_formats():
    for fmt in ("plain", "markdown", "latex", "table"):
        code, out, err = run("diff", "[x*y, y*z, z*x]", "--div", "--curl", "-o", fmt)
        assert code == 0 and "-y" in out, err
    code, out, _ = run("diff", "x^3 y^2", "--partial", "xyy", "-o", "latex")
    assert code == 0 and "f_{xyy} &= 6x^{2}" in out


@pytest.mark.parametrize("args, words", [
    (("diff", "x y", "--div"), "needs a vector field"),
    (("diff", "[x, y]", "--laplacian"), "scalar function"),
    (("diff", "x y", "--partial", "xq"), "'q' is not a variable"),
    (("diff", "[x, y, z]", "--curl", "--order", "2"), "does not take --order"),
    (("diff", "[x, y]", "--div", "--wrt", "x"), "which --wrt does not list"),
    (("diff", "[x y, y, z, w, q]", "--curl", "--wrt", "x,y,z,w,q"), "2 or 3 components"),
    (("diff", "[u v, v]", "--div", "--partial", "x"), "run diff twice"),
    (("check", "[x y, y z, z x]", "--curl", "[1, 2"), ""),
    (("check", "x y", "--partial", "xy"), "letters and the formula"),
    (("check", "x y", "--partial", "xz = 1"), "'z' is not a variable"),
    (("check", "[x y, y z, z x]", "--div", "q"), "'q'"),
    (("check", "[x y, y z, z x]", "--div", "6", "--at", "x=1,y=2"), "no value for z"),
])
def test_bad_input(args, words):
    assert words in bad(*args)


# ------------------------------------------------------------------ check

def test_check_curl_mistakes():
    field = "[x^2 z, e^y + x z, x y z]"   # curl <xz - x, x^2 - yz, z>
    cases = {"[x - x z, y z - x^2, -z]": "curl-sign",
             "[x^2 - y z, x z - x, z]": "curl-order",
             "[x z - x, y z - x^2, z]": "curl-component-sign",
             "[x z - x, x^2 - y z, z + 1]": "curl-component"}
    for answer, mistake in cases.items():
        code, rec = record("check", field, "--curl", answer)
        assert code == 1 and rec["answers"][0]["mistake"] == mistake, (answer, rec)
    code, rec = record("check", field, "--curl", "<x z - x, x^2 - y z, z>")
    assert code == 0 and "SymPy" in rec["answers"][0]["note"]


def test_check_2d_curl_sign_and_div_given():
    code, rec = record("check", "[-y, x^2]", "--curl", "-1 - 2x")
    assert code == 1 and rec["answers"][0]["mistake"] == "curl-sign"
    code, rec = record("check", "[x^2 y, x y]", "--curl", "2x y + x")
    assert code == 1 and rec["answers"][0]["mistake"] == "div-given"


def test_check_value_at_point_digits_rule():
    code, rec = record("check", "[sin(x) y, x, 0]", "--div", "0.500", "--at", "x=pi/3,y=1,z=0")
    assert code == 0
    code, rec = record("check", "[sin(x) y, x, 0]", "--div", "0.501", "--at", "x=pi/3,y=1,z=0")
    assert code == 1
    code, rec = record("check", "x^3 y^2 + x y", "--partial", "xyy = 6", "--partial",
                       "xy = 13", "--at", "x=1,y=2")
    assert code == 0 and rec["total"] == 2


def test_check_partial_mixed_order_where_they_differ():
    # f_xy and f_yx are equal for smooth f: the answer for one is right for the other;
    # f_xyy given for f_xxy is named
    code, _ = record("check", "x^3 y^2", "--partial", "yx = 6x^2 y")
    assert code == 0
    code, rec = record("check", "x^2 y^3", "--partial", "xxy = 12x y")
    assert code == 1 and rec["answers"][0]["mistake"] == "wrong-partial"
    assert rec["answers"][0]["mistake_detail"] == "xyy"


def test_check_wrong_never_passes_a_near_miss():
    # a difference SymPy cannot see at the sampled points is still decided by SymPy
    code, rec = record("check", "[x y, y z, z x]", "--div", "x + y + z + 1/10^9")
    assert code == 1


def test_check_closer_than_doubles_see_is_still_wrong():
    # x + y + z times (1 + 10^-10): SymPy at 50 digits, never a tolerance, decides
    code, rec = record("check", "[x y, y z, z x]", "--div", "(1 + 10^-10)*(x + y + z)")
    assert code == 1 and rec["answers"][0]["mistake"] is None
    code, _ = record("check", "[x y, y z, z x]", "--div", "1.000000001(x + y + z)")
    assert code == 1


def test_check_digits_rule_inside_a_formula():
    code, rec = record("check", "[x^2/3, y, 0]", "--div", "0.667x + 1")
    assert code == 0 and "digits rule" in rec["answers"][0]["note"]
    code, _ = record("check", "[x^2/3, y, 0]", "--div", "0.666x + 1")
    assert code == 1


def test_check_with_wrt_for_jacobian():
    code, _ = record("check", "[u^2 - v^2, 2u v]", "--wrt", "u,v", "--jacobian-det",
                     "4(u^2 + v^2)")
    assert code == 0
    code, rec = record("check", "[u^2 - v^2, 2u v]", "--wrt", "v,u", "--jacobian-det",
                       "4(u^2 + v^2)")
    assert code == 1 and rec["answers"][0]["mistake"] == "jacobian-sign"


def test_check_2d_curl_written_as_a_multiple_of_k():
    # books print a plane field's curl Q_x - P_y as the k-component: (x - y) k
    for answer in ("2k", "2 k", "0i + 0j + 2k"):
        code, rec = record("check", "[-y, x]", "--curl", answer)
        assert code == 0 and rec["ok"], (answer, rec)
    code, rec = record("check", "[y^2/2, x^2/2]", "--curl", "(x - y) k")
    assert code == 0 and rec["ok"], rec
    code, rec = record("check", "[y^2/2, x^2/2]", "--curl", "(y - x) k")
    assert code == 1 and rec["answers"][0]["mistake"] == "curl-sign", rec
    assert "i or j component" in bad("check", "[-y, x]", "--curl", "2i + 2k")
    # a field with a variable named k keeps k as that variable
    code, rec = record("check", "[-k, x]", "--wrt", "x,k", "--curl", "2")
    assert code == 0, rec
