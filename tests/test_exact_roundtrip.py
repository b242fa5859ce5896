"""Every closed form `--exact` prints reads back: tangent lines and planes, Taylor
polynomials (orders 1-4) and directional derivatives, at points in π (multiples of
π/12), roots, e and fractions, for generated functions of sin, cos, tan, exp, ln,
log2, log10, sqrt, powers, products and quotients.

Each printed text (the point-slope and the expanded equation, the polynomial, the
value, every partial, D_u f, u, the steepest ascent and its rate) is read again by
gradcli's own parser, with no warning, turned into SymPy (sympy_bridge.to_sympy)
and compared with SymPy's own exact answer: the difference simplifies to 0, or,
where simplify gives up (a time limit), it is 0 to 50 digits at three points.

The cases are generated deterministically (random.Random with a fixed seed). A case
costs about a second (SymPy's simplify, in gradcli's printer and in the judge), so the
campaign (90 cases in 3 parts, about 1.5 CPU-minutes; GRADCLI_EXACT_CAMPAIGN sets the
count) is marked slow; FAST quicker cases
(one piece per variable, Taylor orders 1-2, another seed) run always, in a few seconds.
"""
import json
import os
import random
import re
import signal
from fractions import Fraction

import pytest
import sympy as sp
from click.testing import CliRunner

from gradcli.cli import main
from gradcli.language.expr import Num, postorder
from gradcli.language.parser import parse
from sympy_bridge import to_sympy

X, Y = sp.Symbol("x", real=True), sp.Symbol("y", real=True)
SYMBOLS = {"x": X, "y": Y}
FAST = 8
# CI runs 90; GRADCLI_EXACT_CAMPAIGN=3200 runs the full campaign (about half
# an hour of CPU), the same cases first.
SLOW = int(os.environ.get("GRADCLI_EXACT_CAMPAIGN", "90"))
PARTS = 3
SIMPLIFY_SECONDS = 5

# ---------------------------------------------------------------- issue 32's symptoms

def cli(*args):
    return CliRunner().invoke(main, list(args))


SYMPTOMS = [
    # ln x at 2: the intercept ln 2 - 1 was printed '- 1 - ln(2)'
    (["tangent", "ln x", "--at", "x=2"],
     "tangent\ty = ln(2) + (x - 2)/2\nexpanded\ty = x/2 + ln(2) - 1\n"),
    # sin^2 x at π/4: 'y = x - -1/2 + π/4'
    (["tangent", "sin^2 x", "--at", "x=pi/4"],
     "tangent\ty = 1/2 + (x - π/4)\nexpanded\ty = x + 1/2 - π/4\n"),
    # x ln x at 2: 'y = 2ln(2) + ln(2) + 1(x - 2)', a sum slope without its brackets
    (["tangent", "x ln x", "--at", "x=2"],
     "tangent\ty = 2 ln(2) + (ln(2) + 1)(x - 2)\nexpanded\ty = (ln(2) + 1)x - 2\n"),
    # log2(x) at 2: '(x - 2)/2ln(2)' reads as ((x - 2)/2)·ln 2
    (["tangent", "log2(x)", "--at", "x=2"],
     "tangent\ty = 1 + (x - 2)/(2 ln(2))\nexpanded\ty = x/(2 ln(2)) + 1 - 1/ln(2)\n"),
    # ln x about π/6: '--ln(π) + ln(6) + ...'
    (["taylor", "ln x", "--at", "x=pi/6", "--order", "1"],
     "T1\tln(π/6) + 6(x - π/6)/π\nremainder\tO(|x - π/6|^2)\n"),
    # found by the campaign: 'e^π (x - π)' read back with "'π' is a variable here"
    (["tangent", "x^x", "--at", "x=e"],
     "tangent\ty = e^e + 2e^e*(x - e)\nexpanded\ty = 2e^e x + e^e - 2e*e^e\n"),
]


@pytest.mark.parametrize("args,head", SYMPTOMS, ids=[" ".join(a[:2]) for a, _ in SYMPTOMS])
def test_issue_32_symptoms_print_what_reads_back(args, head):
    result = cli(*args, "--exact", "-o", "plain")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(head), result.stdout
    # each printed form is the true line or polynomial, by SymPy ...
    kind, text, _, at = args[:4]
    extra = args[5] if kind == "taylor" else None
    case = (kind + "1", text, at, extra)
    checked, problems = judge(case, {})
    assert checked and not problems, problems
    # ... and `check` grades what a student copies from it right
    for line in head.splitlines():
        key, printed = line.split("\t")
        if key in ("tangent", "expanded"):
            graded = cli("check", text, "--at", at, "--tangent", printed, "-o", "plain")
        elif key.startswith("T"):
            graded = cli("check", text, "--at", at, "--order", extra, "--taylor", printed,
                         "-o", "plain")
        else:
            continue
        assert graded.exit_code == 0, graded.output


def test_the_old_wrong_forms_are_graded_wrong():
    # what --exact used to print: a student who copied it was wrong
    for text, at, answer in [("ln x", "x=2", "y = x/2 - 1 - ln(2)"),
                             ("log2(x)", "x=2", "y = 1 + (x - 2)/2ln(2)")]:
        assert cli("check", text, "--at", at, "--tangent", answer).exit_code == 1


INFINITE_PARTIALS = [  # found by the campaign: SymPy's zoo and oo were printed as answers
    (["tangent", "sqrt(x/2)*sin(y)", "--at", "x=0,y=2pi/12"], 3, None),
    (["eval", "√(x) e^(y)", "--at", "x=0,y=1/3", "--direction", "1,1"], 0, "inf"),
    (["eval", "sin(x) + sqrt(y^2)", "--at", "x=3pi/12,y=0", "--direction", "1,sqrt(3)"], 0,
     "nan"),
    (["eval", "sqrt(x)", "--at", "x=0", "--hessian"], 3, None),
]


@pytest.mark.parametrize("args,code,derivative", INFINITE_PARTIALS,
                         ids=[a[1] for a, _, _ in INFINITE_PARTIALS])
def test_an_infinite_partial_is_inf_or_refused_never_a_sympy_infinity(args, code, derivative):
    result = cli(*args, "--exact", "-o", "json")
    assert result.exit_code == code, result.output
    assert not re.search(r"\boo\b|zoo", result.stdout), result.stdout
    if derivative:  # as without --exact: PyTorch's inf or nan, the direction still exact
        record = json.loads(result.stdout)
        assert record["directional"]["derivative"] == derivative
        assert "√" in "".join(map(str, record["directional"]["unit"]))


# ---------------------------------------------------------------- the cases

# f(u) for an inner u, as typed (a book's forms among them) and as SymPy reads it
OUTER = [
    ("sin({})", sp.sin), ("cos({})", sp.cos), ("tan({})", sp.tan), ("e^({})", sp.exp),
    ("ln({})", sp.log), ("log2({})", lambda u: sp.log(u) / sp.log(2)),
    ("log10({})", lambda u: sp.log(u) / sp.log(10)), ("sqrt({})", sp.sqrt),
    ("({})^2", lambda u: u**2), ("({})^3", lambda u: u**3), ("({})^(-1)", lambda u: 1 / u),
    ("sin^2({})", lambda u: sp.sin(u)**2), ("√({})", sp.sqrt), ("exp({})", sp.exp),
]
INNER = ["{v}", "{v}", "{v}", "2{v}", "{v}/2", "{v}^2", "{v} + 1", "3{v}"]
COMBINE = ["{a} {b}", "({a})/({b})", "{a} + {b}", "{a} - {b}", "{a}*{b}", "{a}"]

PI_POINTS = [f"{k}pi/12" if k > 1 else "pi/12" for k in range(1, 24)]
POINTS = PI_POINTS + ["sqrt(2)", "sqrt(3)", "e", "1/2", "3/2", "2", "1/3", "-1/2", "5/4",
                      "2sqrt(2)", "sqrt(3)/2", "-pi/4", "e/2", "0"]
DIRECTIONS = ["1,1", "3,4", "1,2", "-1,1", "cos(pi/6),sin(pi/6)", "1,sqrt(3)", "2,-1", "0,1"]


def piece(rng, v) -> str:
    outer = rng.choice(OUTER)[0]
    return outer.format(rng.choice(INNER).format(v=v))


def function(rng, names, simple=False) -> str:
    """A function of `names`: one or two pieces, combined (`simple`: one piece of each)."""
    a = piece(rng, names[0])
    b = piece(rng, names[-1])
    form = "{a}" if simple else rng.choice(COMBINE)
    if len(names) == 2 and form == "{a}":
        form = "{a} {b}"
    return form.format(a=a, b=b)


def cases(n, seed=20261205, simple=False):
    """n cases (kind, function, at, extra), in a fixed order; `simple`: the quicker ones
    (one piece per variable, Taylor orders 1-2)."""
    rng = random.Random(seed)
    out = []
    kinds = ["tangent1", "tangent2", "taylor1", "taylor2", "directional"]
    while len(out) < n:
        kind = kinds[len(out) % len(kinds)]
        two = kind in ("tangent2", "taylor2", "directional")
        names = ["x", "y"] if two else ["x"]
        text = function(rng, names, simple)
        at = ",".join(f"{v}={rng.choice(POINTS)}" for v in names)
        extra = None
        if kind.startswith("taylor"):
            extra = str(rng.randint(1, 2) if simple else
                        rng.randint(1, 4) if kind == "taylor1" else rng.randint(1, 3))
        elif kind == "directional":
            extra = rng.choice(DIRECTIONS)
        out.append((kind, text, at, extra))
    return out


# ---------------------------------------------------------------- the judge

class TooSlow(Exception):
    """simplify ran out of time."""


def _alarm(signum, frame):
    raise TooSlow


def read_back(text: str, names) -> sp.Expr:
    """A printed closed form, read by gradcli's parser (silently) and given to SymPy, its
    number literals from their source text, as --exact reads them (2^54 + 1 stays odd)."""
    program = parse(text, names)
    assert not program.warnings, (text, program.warnings)
    for node in postorder(program.result):
        if isinstance(node, Num) and node.span is not None:
            node.value = Fraction(re.sub(r"[()\s]", "", text[node.span[0]:node.span[1]]))
    return to_sympy(program.result, dict(SYMBOLS), exact=True)


def _points(rng, free):
    """Three points (rational coordinates) for the 50-digit comparison."""
    return [{s: sp.Rational(rng.randint(-40, 40), rng.randint(1, 13)) for s in free}
            for _ in range(3)]


def equal(got: sp.Expr, want: sp.Expr, how: dict) -> bool:
    """got == want exactly: simplify(difference) == 0, or 0 to 50 digits at 3 points when
    simplify takes longer than SIMPLIFY_SECONDS or cannot decide."""
    diff = sp.expand(got - want)
    if diff == 0:
        how["expand"] = how.get("expand", 0) + 1
        return True
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SIMPLIFY_SECONDS)
    try:
        zero = sp.simplify(sp.expand_log(diff, force=True)) == 0
    except TooSlow:
        zero = False
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    if zero:
        how["simplify"] = how.get("simplify", 0) + 1
        return True
    rng = random.Random(str(diff))
    for point in _points(rng, sorted(got.free_symbols | want.free_symbols, key=str)):
        value = sp.N(diff.subs(point), 60)
        if abs(value) > sp.Float(10) ** -50 * max(1, abs(sp.N(want.subs(point), 60))):
            return False
    how["numeric"] = how.get("numeric", 0) + 1
    return True


def run(args):
    result = CliRunner().invoke(main, [*args, "--exact", "-o", "json"])
    if result.exit_code in (2, 3):  # no closed form / undefined at the point: said, not printed
        return None
    assert result.exit_code == 0, (args, result.output)
    if any(word in result.stdout for word in ('"nan"', '"inf"', '"-inf"')):
        return None  # a partial undefined at the point (sqrt(y^2) at 0): no closed form
    return json.loads(result.stdout)


def _at(at: str) -> dict:
    out = {}
    for pair in at.split(","):
        name, value = pair.split("=")
        out[SYMBOLS[name]] = to_sympy(parse(value).result, {})
    return out


def _number(value, how, want, what, problems):
    text = str(value)
    if not equal(read_back(text, ()), want, how):
        problems.append(f"{what}: {text} != {want}")


def judge(case, how) -> tuple:
    """(checked texts, problems) of one case; None when gradcli declined it."""
    kind, text, at, extra = case
    names = ["x", "y"] if kind in ("tangent2", "taylor2", "directional") else ["x"]
    f = read_back(text, names)
    point = _at(at)
    syms = [SYMBOLS[n] for n in names]
    problems = []
    before = sum(how.values())
    if kind.startswith("tangent"):
        rec = run(["tangent", text, "--at", at])
        if rec is None:
            return None
        value = f.subs(point)
        grad = [sp.diff(f, s).subs(point) for s in syms]
        plane = value + sum(g * (s - point[s]) for g, s in zip(grad, syms))
        for key in ("equation", "expanded"):
            rhs = rec[key].split(" = ", 1)[1]
            if not equal(read_back(rhs, names), plane, how):
                problems.append(f"{key}: {rec[key]} != {plane}")
        _number(rec["value"], how, value, "value", problems)
        for s, g in zip(syms, grad):
            _number(rec["gradient"][str(s)], how, g, f"df/d{s}", problems)
    elif kind.startswith("taylor"):
        order = int(extra)
        rec = run(["taylor", text, "--at", at, "--order", extra])
        if rec is None:
            return None
        want = 0
        for powers in _multi_indices(len(syms), order):
            d = f
            for s, k in zip(syms, powers):
                d = sp.diff(d, s, k) if k else d
            coefficient = d.subs(point) / sp.prod([sp.factorial(k) for k in powers])
            want += coefficient * sp.prod([(s - point[s])**k for s, k in zip(syms, powers)])
        if not equal(read_back(rec["polynomial"], names), want, how):
            problems.append(f"polynomial: {rec['polynomial']} != {want}")
        for term in rec["terms"]:
            c = read_back(str(term["coefficient"]), ())
            mono = sp.prod([(SYMBOLS[v] - point[SYMBOLS[v]])**k
                            for v, k in term["powers"].items()])
            d = f
            for v, k in term["powers"].items():
                d = sp.diff(d, SYMBOLS[v], k)
            exact = d.subs(point) / sp.prod([sp.factorial(k) for k in term["powers"].values()])
            if not equal(c, exact, how):
                problems.append(f"coefficient of {mono}: {term['coefficient']} != {exact}")
    else:
        rec = run(["eval", text, "--at", at, "--direction", extra])
        if rec is None:
            return None
        d = rec["directional"]
        v = [to_sympy(parse(c).result, {}) for c in extra.split(",")]
        norm = sp.sqrt(sum(c**2 for c in v))
        unit = [c / norm for c in v]
        grad = [sp.diff(f, s).subs(point) for s in syms]
        rate = sp.sqrt(sum(g**2 for g in grad))
        _number(d["derivative"], how, sum(g * u for g, u in zip(grad, unit)), "D_u f", problems)
        for i, u in enumerate(unit):
            _number(d["unit"][i], how, u, f"u[{i}]", problems)
        _number(d["steepest_ascent"]["rate"], how, rate, "|grad f|", problems)
        for i, s in enumerate(d["steepest_ascent"]["direction"]):
            _number(s, how, grad[i] / rate, f"steepest[{i}]", problems)
        _number(rec["value"], how, f.subs(point), "value", problems)
        for s, g in zip(syms, grad):
            _number(rec["gradient"][str(s)], how, g, f"df/d{s}", problems)
    return sum(how.values()) - before + len(problems), problems


def _multi_indices(n, order):
    if n == 1:
        return [(k,) for k in range(order + 1)]
    return [(i, j) for total in range(order + 1) for i in range(total + 1)
            for j in [total - i]]


def campaign(count, part=None, **kw):
    """(how each text was judged, wrong texts, cases declined, texts judged, cases read
    back per kind); `part` k of PARTS takes every PARTS-th case from the k-th."""
    how, wrong, declined, texts, kinds = {}, [], 0, 0, {}
    every = cases(count, **kw)
    for case in every if part is None else every[part::PARTS]:
        got = judge(case, how)
        if got is None:
            declined += 1
            continue
        kind = case[0].rstrip("12")
        kinds[kind] = kinds.get(kind, 0) + 1
        checked, problems = got
        texts += checked
        wrong += [(case, p) for p in problems]
    return how, wrong, declined, texts, kinds


def _report(count, how, wrong, declined, texts, kinds):
    print(f"\n{count} cases: {count - declined} printed {kinds} ({texts} texts read back: "
          f"{how}), {declined} declined (no closed form or undefined), {len(wrong)} wrong")


def test_exact_forms_read_back_fast_subset():
    how, wrong, declined, texts, kinds = campaign(FAST, seed=7, simple=True)
    _report(FAST, how, wrong, declined, texts, kinds)
    assert not wrong, wrong[:20]
    assert FAST - declined >= FAST * 3 // 4  # the generator mostly makes printable cases


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_exact_forms_read_back_campaign(part):
    # PARTS slices of one generated list, so that the slow job's workers share them
    how, wrong, declined, texts, kinds = campaign(SLOW, part=part)
    size = SLOW // PARTS
    _report(size, how, wrong, declined, texts, kinds)
    assert not wrong, wrong[:20]
    assert size - declined >= size * 9 // 10


def test_the_steepest_ascent_is_not_rationalised_into_a_longer_number():
    # found by the campaign: eval "cos(x/2) log10(y/2)" --at x=7pi/12,y=6pi/12 --direction
    # 1,1 --exact ran for minutes; rationalising grad f/|grad f| gave over 1,000 operations
    # for the printer's simplify
    from gradcli.tasks.tangent import _rationalised
    s = sp.sqrt
    gx = (-s(s(2) / 4 + sp.Rational(1, 2)) / 2 - s(3) * s(sp.Rational(1, 2) - s(2) / 4) / 2) \
        * sp.log(sp.pi / 4) / (2 * sp.log(10))
    gy = 2 * (-s(sp.Rational(1, 2) - s(2) / 4) / 2 + s(3) * s(s(2) / 4 + sp.Rational(1, 2)) / 2) \
        / (sp.pi * sp.log(10))
    square = sp.expand(gx**2 + gy**2)
    for g in (gx, gy):
        value = g / s(square)
        out = _rationalised(value, square)
        assert sp.count_ops(out) <= sp.count_ops(value)
        assert abs(sp.N(out - value, 30)) < 1e-25
    # a short |grad f|^2 still takes its root out of the denominator: (4, 1)/√17
    assert _rationalised(4 / s(17), sp.Integer(17)) == 4 * s(17) / 17

