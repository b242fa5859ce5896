"""check --curl reads a curl written with the unit vectors i, j, k as books print it
((3y^2z^2 - 1)i + ... + (...)k), each coefficient on its own, and leaves every other text
as typed (pi, xi, a question that has a variable i, a 2-D field)."""
import json

import pytest
from click.testing import CliRunner

from gradcli.cli import main
from gradcli.tasks.check.unitvectors import bracket_form

XYZ = ("x", "y", "z")


@pytest.mark.parametrize("text, bracket", [
    ("(3y^2z^2 - 1)i + (4xy^2z^3)j + (8xy - 2xyz^4)k",
     "[(3y^2z^2 - 1), (4xy^2z^3), (8xy - 2xyz^4)]"),
    # cos z i is cos(z)·i, not cos(z·i): the unit is cut off before the coefficient is read
    ("-7e^y cos z i - 9e^z cos x j - 7e^x cos y k",
     "[-(7e^y cos z), -(9e^z cos x), -(7e^x cos y)]"),
    ("3i - 2k", "[(3), 0, -(2)]"),
    ("e^-x i + y j", "[(e^-x), (y), 0]"),
    ("-i", "[-(1), 0, 0]"),
])
def test_a_sum_of_unit_vector_terms_becomes_the_bracket_form(text, bracket):
    assert bracket_form(text, XYZ) == bracket


@pytest.mark.parametrize("text, variables", [
    ("2pi", XYZ), ("xi + y j", XYZ), ("(x)i + (y)i", XYZ), ("x i + y j + z", XYZ),
    ("[1, 2, 3]", XYZ), ("x i +", XYZ), ("x i ++ y j", XYZ), ("x i", ("x", "i", "z")),
])
def test_anything_else_is_left_as_typed(text, variables):
    assert bracket_form(text, variables) is None


def _check(*args):
    out = CliRunner().invoke(main, ["check", *args, "-o", "json"])
    return out.exit_code, json.loads(out.stdout) if out.exit_code in (0, 1) else out.output


def test_check_accepts_the_printed_curl_and_names_a_sign_slip_in_it():
    field = "[x y^2 z^4, 4x^2 y + z, y^3 z^2]"
    code, rec = _check(field, "--curl", "(3y^2z^2 - 1)i + (4xy^2z^3)j + (8xy - 2xyz^4)k")
    assert code == 0 and rec["ok"]
    code, rec = _check(field, "--curl", "(3y^2z^2 - 1)i + (4xy^2z^3)j - (8xy - 2xyz^4)k")
    assert code == 1 and rec["answers"][0]["mistake"] == "curl-component-sign"
    # a unit left out is a zero component, so a forgotten k-term is a wrong component
    code, rec = _check(field, "--curl", "(3y^2z^2 - 1)i + (4xy^2z^3)j")
    assert code == 1 and rec["answers"][0]["mistake"] == "curl-component"


def test_a_plane_fields_curl_is_read_as_a_multiple_of_k():
    # a book prints the curl of a plane field as (Q_x - P_y) k: that is its scalar curl
    code, out = _check("[x, y]", "--curl", "0 k")
    assert code == 0
    code, out = _check("[-y, x]", "--curl", "i + 2k")
    assert code == 2 and "i or j component" in out
