"""What a narrow screen needs, unit by unit and through the CLI: wrapping at word
boundaries, --help lines that still paste, wrapped --points columns, --precision in
taylor, results labelled as typed."""
from __future__ import annotations

import json

from click.testing import CliRunner

from gradcli.cli import main
from gradcli.output.streams import fit, fit_help


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_fit_wraps_at_spaces_and_never_inside_a_word():
    text = "warning: " + " ".join(["supercalifragilistic"] * 8)
    lines = fit(text, 30).split("\n")
    assert all(len(line) <= 30 for line in lines)
    assert " ".join(line.strip() for line in lines) == text
    assert lines[1].startswith("  ")  # continuation lines are indented


def test_fit_lines_up_a_labelled_line_under_its_text():
    line = "  Numbers      3, -1e-3, 1/3; constants pi (π) and e, and many more words here"
    first, second, *_ = fit(line, 40).split("\n")
    assert second.startswith(" " * 15) and not second.startswith(" " * 16)


def test_fit_leaves_short_text_and_pipes_alone():
    assert fit("short", 60) == "short"
    assert fit("x " * 100, None) == "x " * 100


def test_a_long_example_command_continues_after_a_backslash_between_shell_words():
    line = '    $ gradcli eval "x**3/3 + x*y" --at x=1/2,y=2 --exact --hessian -o plain'
    lines = fit_help(line, 60).split("\n")
    assert all(len(l) <= 60 for l in lines)
    assert all(l.endswith(" \\") for l in lines[:-1])
    joined = " ".join(l.rstrip("\\").strip() for l in lines)
    assert '"x**3/3 + x*y"' in joined  # the quoted expression is never split


def test_wrapped_points_columns_keep_every_column():
    from rich.console import Console

    from gradcli.output.render import batch_rows
    keys = ["a", "b", "f", "df/da", "df/db"]
    rows = [[0.1, -0.895345123456, 2.8427152701319596, -10.116212222208002, 3.0]]
    console = Console(width=40, record=True, color_system=None)
    console.print(batch_rows(keys, rows, width=40))
    text = console.export_text()
    assert all(len(line) <= 40 for line in text.splitlines())
    for k in keys:
        assert k in text.split()
    assert "-10.116212222208002" in text and "-0.895345123456" in text
    assert "of 5" in text


def test_taylor_honours_precision():
    out = run("taylor", "e^x", "--at", "x=1", "--order", "2", "--precision", "3", "-o", "plain")
    assert out.exit_code == 0
    assert out.stdout.splitlines()[0] == "T2\t2.72 + 2.72*(x - 1) + 1.36*(x - 1)^2"
    full = run("taylor", "e^x", "--at", "x=1", "--order", "2", "-o", "json")
    record = json.loads(full.stdout)
    assert "2.718281828459045" in record["polynomial"]


def test_a_defined_function_is_labelled_as_typed():
    assert run("eval", "f(x) = x^3; f'(2)", "-o", "plain").stdout == "f'(2)\t12\n"
    assert run("eval", "g(x, y) = x^2 y; g_x(1,2)", "-o", "plain").stdout == "g_x(1,2)\t4\n"
    assert run("eval", "loss = 3", "-o", "plain").stdout == "loss\t3\n"
    assert run("eval", "x^2", "--at", "x=3", "-o", "plain").stdout.startswith("f\t9\n")


def test_the_functions_list_stacks_on_a_narrow_terminal():
    from rich.console import Console

    from gradcli.output import formats
    from gradcli.output.render import functions_table
    records = formats.functions_records()
    console = Console(width=60, record=True, color_system=None)
    console.print(functions_table(records, width=60))
    text = console.export_text()
    assert all(len(line) <= 60 for line in text.splitlines())
    assert "d/dx = sigmoid(x)*(1 - sigmoid(x))" in text  # a rule whole on its line
    wide = Console(width=140, record=True, color_system=None)
    wide.print(functions_table(records, width=140))
    assert "┃ function" in wide.export_text()


def test_a_topic_reflows_its_prose_and_fits_a_pipe_at_80_columns():
    assert fit("one line\nof prose\n\n  Label  text", 60, hang=0, paragraphs=True) == \
        "one line of prose\n\n  Label  text"
    out = run("help", "numbers")
    assert out.exit_code == 0 and max(len(l) for l in out.stdout.splitlines()) <= 80
    assert "Rounding" in out.stdout


def test_one_label_style_df_dx_for_one_variable_and_partials_for_several():
    """eval's table labels a derivative as tangent does: df/dx in one variable."""
    import io

    from rich.console import Console

    from gradcli import api
    from gradcli.output.render import eval_table

    def table(text, at):
        buf = io.StringIO()
        Console(file=buf, width=80, color_system=None).print(eval_table(api.evaluate(text, at)))
        return buf.getvalue()
    one, two = table("x^2 sin x", {"x": 1}), table("x^2 sin y", {"x": 1, "y": 2})
    assert "df/dx" in one and "∂" not in one
    assert "∂f/∂x" in two and "∂f/∂y" in two


def test_taylor_prints_the_same_fractions_in_every_format():
    want = "1 + x + x^2/2 + x^3/6 + x^4/24"
    for fmt in ("table", "plain", "markdown"):
        assert want in run("taylor", "e^x", "--at", "x=0", "--order", "4", "-o", fmt).output
    latex = run("taylor", "e^x", "--at", "x=0", "--order", "4", "-o", "latex").output
    assert "\\frac{x^{3}}{6}" in latex and "0.166667" not in latex
    assert "O(\\lvert x\\rvert ^5)" in latex  # the bars pair up


def test_fit_keeps_a_bracketed_group_on_one_line():
    line = "  Programs     z = w*x + b; y = sigmoid(z); loss = (y - t)^2 and more words"
    lines = fit(line, 60).split("\n")
    assert all(len(l) <= 60 for l in lines)
    assert any("(y - t)^2" in l for l in lines)  # never "(y -" / "t)^2"
    long = "x " + "(" + " + ".join(["a"] * 40) + ")"  # a group longer than a line still wraps
    assert all(len(l) <= 60 for l in fit(long, 60).split("\n"))
