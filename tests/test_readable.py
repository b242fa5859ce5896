"""Human-facing output: default rounding, Markdown/LaTeX everywhere, intermediate --wrt,
constant intermediates, all missing inputs, the e^x rule, graph/plot messages, help topics."""
import os

import pytest
from conftest import need_program
from click.testing import CliRunner

from gradcli import api
from gradcli.cli import main
from gradcli.output.formats import HUMAN_DIGITS, display_precision, number_text

ENV = {"COLUMNS": "120", "NO_COLOR": "1"}
NEURON = "z = w*x + b; y = sigmoid(z); loss = (y - t)^2"
AT = "w=0.5,x=1.5,b=-0.2,t=1"
NOTE = "numbers to 6 significant digits; --precision 17 for all"


@pytest.fixture
def dot():
    return need_program("dot", "apt-get install graphviz")


def run(*args, env=None):
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(main, list(args), env={**ENV, **(env or {})})


# ------------------------------------------------------------- 1. precision by format

def test_display_precision_depends_on_the_format():
    for fmt in ("plain", "json", "csv"):
        assert display_precision(fmt, None) is None
    for fmt in ("table", "markdown", "latex", "tree", "dot", "mermaid", "svg"):
        assert display_precision(fmt, None) == 6
    assert display_precision("table", 17) == 17 and display_precision("json", 3) == 3


def test_only_the_default_precision_counts_as_rounding():
    # Each output's own Digits counts what it shortened; nothing is counted globally.
    digits = display_precision("table", None)
    assert number_text(0.1 + 0.2, 6) == "0.3"  # an explicit --precision is no surprise
    assert number_text(0.1 + 0.2, digits) == "0.3"
    assert digits.rounded == 1
    number_text(0.5, digits)  # nothing lost
    assert digits.rounded == 1 and display_precision("table", None).rounded == 0


def test_trace_table_rounds_and_says_so_once():
    r = run("trace", "x + y", "--at", "x=0.1,y=0.2", "-o", "table")
    assert r.exit_code == 0
    assert "0.30000000000000004" not in r.stdout and "0.3" in r.stdout
    assert r.stdout.count(NOTE) == 1
    r = run("trace", "x + y", "--at", "x=0.1,y=0.2", "-o", "plain")
    assert "0.30000000000000004" in r.stdout and NOTE not in r.stdout
    r = run("trace", "x + y", "--at", "x=0.1,y=0.2", "-o", "table", "--precision", "17")
    assert "0.30000000000000004" in r.stdout and NOTE not in r.stdout


def test_no_note_when_nothing_was_rounded():
    r = run("eval", "(w*x+b)**2", "--at", "w=3,x=2,b=1", "-o", "markdown")
    assert r.exit_code == 0 and NOTE not in r.stdout


def test_graph_tree_and_dot_round_json_keeps_every_digit():
    tree = run("graph", "x + y", "--at", "x=0.1,y=0.2")
    assert "value 0.3   grad 1" in tree.stdout and tree.stdout.count(NOTE) == 1
    dot = run("graph", "x + y", "--at", "x=0.1,y=0.2", "-o", "dot")
    assert "value 0.3" in dot.stdout and dot.stdout.endswith(f"// {NOTE}\n")
    js = run("graph", "x + y", "--at", "x=0.1,y=0.2", "-o", "json")
    assert "0.30000000000000004" in js.stdout


def test_the_neuron_trace_fits_120_columns_and_reads_as_lines_at_60():
    wide = run("trace", NEURON, "--at", AT, "-o", "table")
    assert wide.exit_code == 0
    lines = wide.stdout.splitlines()
    assert max(len(x) for x in lines) <= 120
    assert ("│ y    │ -0.731729 │ z     │ ∂y/∂z = y*(1 - y) = 0.634136*(1 - 0.634136) = 0.232008 │"
            " -0.731729·0.232008 = -0.169767 │") in lines
    narrow = run("trace", NEURON, "--at", AT, "-o", "table", env={"COLUMNS": "60"})
    lines = [x.rstrip() for x in narrow.stdout.splitlines()]
    assert max(len(x) for x in lines) <= 60
    assert "  ∂y/∂z = y*(1 - y) = 0.634136*(1 - 0.634136) = 0.232008" in lines
    assert "  z gets -0.731729·0.232008 = -0.169767" in lines
    assert "…" not in narrow.stdout


def test_the_total_column_stays_where_gradients_add_up():
    r = run("trace", "x*x + x", "--at", "x=3", "-o", "table")
    assert "total" in r.stdout and "4 + 3 = 7" in r.stdout


# ------------------------------------------------------------- 2. markdown and latex

def test_eval_markdown_and_latex():
    md = run("eval", NEURON, "--at", AT, "-o", "markdown")
    assert md.exit_code == 0
    assert "| ∂loss/∂w | -0.25465 |" in md.stdout
    assert md.stdout.endswith(f"\n_{NOTE}_\n")
    tex = run("eval", NEURON, "--at", AT, "-o", "latex")
    assert r"\frac{\partial \mathrm{loss}}{\partial w} &= -0.25465 \\" in tex.stdout
    assert tex.stdout.endswith(f"% {NOTE}\n")


def test_diff_markdown():
    r = run("diff", "x^2*sin(y)", "--at", "x=1,y=2", "-o", "markdown")
    assert r.exit_code == 0, r.stderr
    assert "| ∂f/∂x | `2*x*sin(y)` | 1.81859 |" in r.stdout
    r = run("diff", "x^2", "--points", "-", "-o", "markdown")
    assert r.exit_code == 2


def test_check_markdown_and_latex_keep_the_exit_code():
    args = ["check", "(w*x+b)**2", "--at", "w=3,x=2,b=1", "--grad", "w=28,x=40"]
    md = run(*args, "-o", "markdown")
    assert md.exit_code == 1
    assert "| ∂f/∂x | `40` | 42 | 40 | ✗ wrong |" in md.stdout
    assert "**1 of 2 right**" in md.stdout
    tex = run(*args, "-o", "latex")
    assert tex.exit_code == 1
    assert r"$\frac{\partial f}{\partial x}$ & \texttt{40} & $42$ & $40$ & wrong \\" in tex.stdout
    ok = run("check", "x^2", "--at", "x=3", "--grad", "x=6", "-o", "markdown")
    assert ok.exit_code == 0 and "**1 of 1 right**" in ok.stdout


def test_check_writers_show_a_mistake_field_when_there_is_one():
    from gradcli.tasks.check import check
    from gradcli.output.writeup import check_latex, check_markdown
    verdict = check("x^2", {"x": 3}, grad={"x": 5})
    verdict.answers[0].mistake = "off by one"
    assert "mistake: off by one" in check_markdown(verdict)
    assert "mistake: off by one" in check_latex(verdict)


# ------------------------------------------------------------- 3. --wrt intermediates

def test_wrt_takes_an_intermediate_name():
    r = api.evaluate("z = w*x + b; y = sigmoid(z)", {"w": 1, "x": 2, "b": 0}, wrt=["z", "w"])
    assert list(r.gradient) == ["z", "w"]
    assert r.gradient["z"] == pytest.approx(0.10499358540350649, rel=1e-15)
    cli = run("eval", "z = w*x + b; y = sigmoid(z)", "--at", "w=1,x=2,b=0", "--wrt", "z",
              "-o", "plain")
    assert cli.exit_code == 0
    assert cli.stdout == "y\t0.8807970779778823\ndy/dz\t0.10499358540350649\n"
    trace = run("trace", "z = w*x + b; y = sigmoid(z)", "--at", "w=1,x=2,b=0", "--wrt", "z",
                "-o", "plain")
    assert trace.stdout.endswith("dy/dz\t0.10499358540350649\n")


def test_wrt_unknown_name_lists_the_intermediates():
    r = run("eval", "z = w*x + b; y = sigmoid(z)", "--at", "w=1,x=2,b=0", "--wrt", "q")
    assert r.exit_code == 2
    assert "its intermediate names: z, y" in r.stderr
    r = run("eval", "z = w*x; z^2", "--at", "w=1,x=2", "--wrt", "z", "--hessian")
    assert r.exit_code == 2 and "inputs only" in r.stderr


def test_check_grad_by_an_intermediate():
    r = run("check", "z = w*x + b; y = sigmoid(z)", "--at", "w=1,x=2,b=0",
            "--grad", "z=0.104993585", "-o", "plain")
    assert r.exit_code == 0 and r.stdout.startswith("dy/dz\tright")


# ------------------------------------------------------------- 4. constant intermediates

def test_an_intermediate_defined_by_a_constant_has_its_gradient():
    r = api.evaluate("a = 0.5; a*3 + x", {"x": 1}, intermediates=True)
    assert r.gradient == {"x": 1.0, "a": 3.0}
    r = api.evaluate("a = 2*pi; b = a*x; b + a", {"x": 1}, intermediates=True)
    assert r.gradient["a"] == 2.0 and r.gradient["b"] == 1.0
    cli = run("eval", "a = 0.5; a*3 + x", "--at", "x=1", "--all", "-o", "plain")
    assert cli.stdout == "f\t2.5\ndf/dx\t1\ndf/da\t3\n"


# ------------------------------------------------------------- 5. every missing input

def test_all_missing_inputs_in_one_error():
    r = run("eval", "a*x + y*z", "--at", "a=1")
    assert r.exit_code == 2
    assert r.stderr == ("error: no values for x, y, z\n  a*x + y*z\n    ^\n"
                        "hint: add --at x=…,y=…,z=…\n")
    one = run("eval", "x + 1")
    assert one.exit_code == 2 and "no value for 'x'" in one.stderr


def test_missing_inputs_in_plot_and_diff():
    r = run("plot", "a*x + b", "--over", "x=0:1")
    assert r.exit_code == 2 and "no values for a, b" in r.stderr
    r = run("diff", "x*y*z", "--at", "y=1")
    assert r.exit_code == 2 and "no values for x, z" in r.stderr


# ------------------------------------------------------------- 6. e^x is exp

def test_trace_of_x_e_to_the_x_uses_exps_rule():
    from gradcli.tasks.trace import trace
    t = trace("x*e^x", {"x": 1})
    assert [n.formula for n in t.forward if n.kind == "op"] == ["exp(x)", "x*v1"]
    step = [s for s in t.backward if s.node == "v1"][0]
    assert step.contributions[0].formula == "v1"  # d/dx exp(x) = exp(x), the node itself
    r = run("trace", "x*e^x", "--at", "x=1", "-o", "plain")
    assert "log(e)" not in r.stdout and "ln(e)" not in r.stdout
    assert "forward\tv1\texp(x)\t2.718281828459045" in r.stdout
    assert r.stdout.endswith("df/dx\t5.43656365691809\n")


# ------------------------------------------------------------- 7. graph and plot files

def test_graph_output_says_what_it_wrote(tmp_path):
    path = tmp_path / "g.dot"
    r = run("graph", "x*x + x", "--at", "x=3", "--output", str(path))
    assert r.exit_code == 0
    assert r.stderr == f"wrote {path} (DOT, 3 nodes)\n"
    assert path.read_text().startswith("digraph")


@pytest.mark.usefixtures("dot")
def test_graph_png_says_what_it_wrote(tmp_path):
    path = tmp_path / "g.svg"
    r = run("graph", "x + y", "--at", "x=0.1,y=0.2", "--output", str(path))
    assert r.exit_code == 0
    assert r.stderr.startswith(f"wrote {path} (SVG, 3 nodes); {NOTE}")


def test_plot_title_names_the_fixed_values():
    from gradcli.output.plot import title
    from gradcli.tasks.plot import sample
    assert title(sample("sin(a*x)", "x=0:1", {"a": 2.0}, 5)) == "f(x) = sin(a*x)  at a = 2"


def test_terminal_plot_panels_share_their_x_columns():
    r = run("plot", "x^3/100", "--over", "x=-30:30", "--width", "60", "--height", "20")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    corners = [line.index("┌") for line in lines if "┌" in line]
    ticks = [line for line in lines if line.lstrip().startswith("-30")]
    assert len(corners) == 2 and corners[0] == corners[1]
    assert len(ticks) == 2 and ticks[0].rstrip() == ticks[1].rstrip()


def test_ticks_are_round_numbers():
    from gradcli.plotscale import ticks
    assert ticks(-0.99, 0.99, outer=True) == [-1.0, -0.5, 0.0, 0.5, 1.0]
    assert ticks(0, 10) == [0.0, 2.5, 5.0, 7.5, 10.0]
    assert ticks(-1e308, 1e308) == [] and ticks(0.0, 5e-324) in ([], [0.0, 5e-324])


# ------------------------------------------------------------- 8. shell and help

def test_a_space_between_bindings_gets_a_comma_hint():
    r = run("eval", "x*y", "--at", "x=1", "y=2")
    assert r.exit_code == 2
    assert ("hint: --at takes its bindings joined by commas, not spaces: --at x=1,y=2"
            in r.stderr)


def test_help_topics():
    r = run("help", "language")
    assert r.exit_code == 0 and "juxtaposition multiplies" in r.stdout
    r = run("help", "exit-codes")
    assert r.exit_code == 0 and "3  a value is undefined at the point" in r.stdout
    r = run("help", "trace")
    assert r.exit_code == 0 and r.stdout.startswith("Usage: ") and "trace [OPTIONS] EXPR" in r.stdout
    r = run("help", "evl")
    assert r.exit_code == 2 and "did you mean eval?" in r.stderr
    r = run("help")
    assert r.exit_code == 0 and "topics:   language, numbers, exit-codes" in r.stdout


def test_shell_completion_script(monkeypatch):
    import subprocess
    import sys
    env = dict(os.environ, _GRADCLI_COMPLETE="bash_source")
    out = subprocess.run([sys.executable, "-c", "from gradcli.launch import run; run()"],
                         env=env, capture_output=True, text=True, timeout=60)
    assert "_gradcli_completion" in out.stdout
