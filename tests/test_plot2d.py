"""plot over two ranges: the grid of f and its gradient, critical points, the terminal map,
PNG/SVG files and the errors, through the library and through the command line."""
import json
import math
import struct
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from gradcli.cli import main
from gradcli.errors import DomainError, UsageError
from gradcli.tasks.evaluation import evaluate
from gradcli.output.plot2d import levels, map_shape, save_plot, terminal_map
from gradcli.tasks.plot2d import ranges, sample

import numpy as np
import sympy  # noqa: E402


def run(*args):
    return CliRunner().invoke(main, ["plot", *args])


# ------------------------------------------------------------------ the library

def test_one_pass_gives_f_and_both_partials_on_the_grid():
    data = sample("x^2*y + sin(x*y)", "x=-2:2,y=-1:3", points=11)
    gx, gy = np.meshgrid(data.xs, data.ys)
    assert data.f.shape == (11, 11)
    assert data.xs[0] == -2 and data.xs[-1] == 2 and data.ys[0] == -1 and data.ys[-1] == 3
    assert np.allclose(data.f, gx**2 * gy + np.sin(gx * gy), rtol=1e-14, atol=1e-14)
    assert np.allclose(data.gradient["x"], 2 * gx * gy + gy * np.cos(gx * gy), atol=1e-13)
    assert np.allclose(data.gradient["y"], gx**2 + gx * np.cos(gx * gy), atol=1e-13)
    assert data.critical == [] and data.point is None  # no evaluate: no search


def test_the_grid_is_evaluated_in_one_vectorised_call(monkeypatch):
    import gradcli.data.evaluate as chunks
    calls = []
    real = chunks.evaluate_arrays

    def counting(program, columns, *a, **k):
        calls.append(len(next(iter(columns.values()))))
        return real(program, columns, *a, **k)

    monkeypatch.setattr(chunks, "evaluate_arrays", counting)
    sample("x^2 - y^2", "x=-1:1,y=-1:1", points=30)
    assert calls == [900]


def test_critical_points_and_the_marked_point():
    data = sample("x^3 - 3x + y^2", "x=-2:2,y=-2:2", {"x": 0.5, "y": 1.0}, points=21,
                  evaluate=evaluate)
    kinds = {(round(cp.point["x"], 9), round(cp.point["y"], 9)): cp.kind
             for cp in data.critical}
    assert kinds == {(-1.0, 0.0): "saddle point", (1.0, 0.0): "local minimum"}
    assert data.point.at == {"x": 0.5, "y": 1.0}
    assert data.point.value == pytest.approx(0.125 - 1.5 + 1)
    assert data.point.gradient == pytest.approx({"x": 3 * 0.25 - 3, "y": 2.0})


def test_other_inputs_are_parameters():
    data = sample("a*x^2 + y^2", "x=-1:1,y=-1:1", {"a": -1.0}, points=5, evaluate=evaluate)
    assert data.params == {"a": -1.0}
    assert [cp.kind for cp in data.critical] == ["saddle point"]


def test_undefined_points_are_blank_and_warned():
    data = sample("sqrt(x) + y", "x=-1:1,y=0:1", points=21)
    assert np.isnan(data.f[:, data.xs < 0]).all()
    assert np.isfinite(data.f[:, data.xs >= 0]).all()
    assert any("undefined at 210 of 441 grid points" in w for w in data.warnings)
    with pytest.raises(DomainError):
        sample("log(x) + y", "x=-2:-1,y=0:1", points=5)


@pytest.mark.parametrize("over, words", [
    ("x=-1:1,y=-1:1,z=0:1", "3 ranges (x, y, z)"),
    ("x=-1:1,x=0:1", "gives 'x' twice"),
    ("x=-1:1,w=0:1", "range for w, which the expression does not use"),
])
def test_range_errors(over, words):
    with pytest.raises(UsageError, match=words.replace("(", r"\(").replace(")", r"\)")):
        sample("x^2 + y^2 + z", over, {"z": 1.0})


def test_a_point_needs_both_coordinates():
    with pytest.raises(UsageError, match="gives x but not y"):
        sample("x*y", "x=0:1,y=0:1", {"x": 0.5}, evaluate=evaluate)


def test_ranges_splits_only_at_top_level_commas():
    assert ranges("x=0:2*pi") == ["x=0:2*pi"]
    assert ranges("x=-pi:pi,y=min(1,2):3") == ["x=-pi:pi", "y=min(1,2):3"]


def test_levels_are_round_values_inside_the_range():
    f = np.linspace(-4, 4, 100).reshape(10, 10)
    assert levels(f) == [-3, -2, -1, 0, 1, 2, 3]
    assert levels(np.full((3, 3), 2.0)) == []


def test_map_shape_keeps_the_box_proportions_in_character_cells():
    cols, rows = map_shape({"x": (-2, 2), "y": (-2, 2)}, 60, 40, 3)
    assert cols == 55 and rows == round(55 / 2.1)
    cols, rows = map_shape({"x": (-2, 2), "y": (-2, 2)}, 120, 40, 3)
    assert rows == 30 and cols == 63  # the height limits, the width follows
    cols, rows = map_shape({"x": (0, 100), "y": (0, 1)}, 60, 30, 3)
    assert (cols, rows) == (55, 20)  # too flat to keep: fill the space


# ------------------------------------------------------------------ the terminal map

def _map(expr, over, width, height=40, bindings=None):
    from gradcli.output.plot2d import label_width
    from gradcli.tasks.plot2d import parse_box
    box = parse_box(over)
    shape = map_shape(box, width, height, label_width(box))
    data = sample(expr, over, bindings, shape=shape, evaluate=evaluate)
    return data, terminal_map(data, width)


@pytest.mark.parametrize("width", [60, 120])
def test_terminal_map_fits_and_marks_everything(width):
    data, text = _map("x^3 - 3x + y^2", "x=-2:2,y=-2:2", width, bindings={"x": 0.5, "y": 1.0})
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    body = [line for line in lines if "│" in line]
    assert sum("S" in line for line in body) == 1 and sum("L" in line for line in body) == 1
    assert sum("@" in line for line in body) == 1 and any("*" in line for line in body)
    assert "levels of f: a -1, b 0, c 1, d 2, e 3, f 4, g 5" in " ".join(lines)
    assert "S saddle point at (-1, 0), f = 2" in text
    assert "L local minimum at (1, 0), f = -2" in text
    legend = " ".join(line.strip() for line in lines)
    assert "@ x = 0.5, y = 1: f = -0.375, ∇f = (-2.25, 2) (↖ its direction)" in legend


def test_terminal_map_places_marks_where_they_are():
    data, text = _map("(x - 1)^2 + (y + 1)^2", "x=-2:2,y=-2:2", 60)
    body = [line.split("│")[1] for line in text.splitlines() if line.count("│") == 2]
    row = next(i for i, line in enumerate(body) if "L" in line)
    col = body[row].index("L")
    assert col == pytest.approx(0.75 * len(body[0]), abs=1)  # x = 1 of -2:2
    assert row == pytest.approx(0.75 * len(body), abs=1)     # y = -1, counted from the top


def test_a_level_letter_runs_along_its_level_curve():
    data, text = _map("x^2 + y^2", "x=-2:2,y=-2:2", 60)
    body = [line.split("│")[1] for line in text.splitlines() if line.count("│") == 2]
    rows, cols = len(body), len(body[0])
    marks = levels(data.f)
    for r, line in enumerate(body):
        for c, ch in enumerate(line):
            if ch in "abcdefg":
                level = marks["abcdefg".index(ch)]
                x = -2 + (c + 0.5) * 4 / cols
                y = 2 - (r + 0.5) * 4 / rows
                step = math.hypot(4 / cols, 4 / rows)
                # the cell is next to the curve x^2 + y^2 = level
                assert abs(math.hypot(x, y) - math.sqrt(level)) <= step


# ------------------------------------------------------------------ through the CLI

def test_cli_json_matches_sympy_gradients():
    r = run("x^2*y - y^3/3 + x", "--over", "x=-2:2,y=-1:1", "--points", "9",
            "--at", "x=1,y=0.5", "-o", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    x, y = sympy.symbols("x y")
    f = x**2 * y - y**3 / 3 + x
    fx, fy = sympy.diff(f, x), sympy.diff(f, y)
    assert data["over"] == ["x", "y"] and len(data["x"]) == 9 and len(data["y"]) == 9
    for i, yv in enumerate(data["y"]):
        for j, xv in enumerate(data["x"]):
            at = {x: xv, y: yv}
            assert data["f"][i][j] == pytest.approx(float(f.subs(at)), abs=1e-12)
            assert data["gradient"]["x"][i][j] == pytest.approx(float(fx.subs(at)), abs=1e-12)
            assert data["gradient"]["y"][i][j] == pytest.approx(float(fy.subs(at)), abs=1e-12)
    assert data["point"] == {"at": {"x": 1.0, "y": 0.5},
                             "value": pytest.approx(float(f.subs({x: 1, y: 0.5}))),
                             "gradient": {"x": pytest.approx(2.0), "y": pytest.approx(0.75)}}
    # Critical points of f: fx = 2xy + 1 = 0, fy = x^2 - y^2 = 0 in the box.
    exact = sympy.solve([fx, fy], [x, y], dict=True)
    inside = sorted((float(s[x]), float(s[y])) for s in exact
                    if all(v.is_real for v in s.values())
                    and -2 <= s[x] <= 2 and -1 <= s[y] <= 1)
    found = sorted((p["at"]["x"], p["at"]["y"]) for p in data["critical_points"])
    assert found == [pytest.approx(p) for p in inside] and len(found) == 2
    assert {p["kind"] for p in data["critical_points"]} == {"saddle point"}


def test_cli_csv_has_one_row_per_grid_point():
    r = run("x*y", "--over", "x=0:1,y=0:2", "--points", "3", "-o", "csv")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "x,y,f,df/dx,df/dy"
    assert len(lines) == 10
    assert lines[1] == "0,0,0,0,0" and lines[-1] == "1,2,2,2,1"


def test_cli_terminal_map(tmp_path):
    r = run("x^2 - y^2", "--over", "x=-2:2,y=-2:2", "--width", "60", "--height", "30")
    assert r.exit_code == 0, r.output
    assert max(len(line) for line in r.output.splitlines()) <= 60
    assert "S saddle point at (0, 0), f = 0" in r.output


@pytest.mark.parametrize("args, code, words", [
    (("x+y+z", "--over", "x=0:1,y=0:1,z=0:1"), 2, "3 ranges"),
    (("x^2", "--over", "x=0:1,y=0:1"), 2, "does not use"),
    (("x*y", "--over", "x=0:1,y=0:1", "--at", "y=1"), 2, "gives y but not x"),
    (("x*y", "--over", "x=0:1,y=0:1", "--output", "f.pdf"), 2, ".png or .svg"),
    (("log(x)*y", "--over", "x=-2:-1,y=0:1"), 3, "undefined"),
])
def test_cli_errors(args, code, words):
    r = run(*args)
    assert r.exit_code == code, r.output
    assert words in r.output and "Traceback" not in r.output


def test_one_variable_plot_is_unchanged():
    r = run("x^2", "--over", "x=-1:1", "--points", "3", "-o", "csv")
    assert r.exit_code == 0
    assert r.output == "x,f,df/dx\n-1,1,-2\n0,0,0\n1,1,2\n"


def _png_size(path):
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_cli_png_and_svg(tmp_path):
    png, svg = tmp_path / "f.png", tmp_path / "f.svg"
    r = run("x^2 + 2y^2", "--over", "x=-2:2,y=-2:2", "--at", "x=1,y=1", "--output", str(png))
    assert r.exit_code == 0, r.output
    assert _png_size(png) == (800, 700) and png.stat().st_size > 50_000
    r = run("sin(x)cos(y)", "--over", "x=-3:3,y=-3:3", "--at", "x=1,y=1", "--output", str(svg),
            "--points", "41")
    assert r.exit_code == 0, r.output
    root = ET.parse(svg).getroot()
    text = svg.read_text()
    assert root.tag.endswith("svg") and len(text) > 50_000
    # the legend names every kind of critical point and the marked point
    for words in ("local minimum", "local maximum", "saddle point", "level f = 0.454649"):
        assert words in text


def test_save_plot_without_matplotlib_names_the_extra(tmp_path, monkeypatch):
    import builtins
    real = builtins.__import__

    def no_matplotlib(name, *a, **k):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *a, **k)

    data = sample("x*y", "x=0:1,y=0:1", points=3)
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(UsageError) as info:
        save_plot(data, str(tmp_path / "f.png"))
    assert "'plot' extra" in info.value.message and "gradcli[plot]" in info.value.hint


# ------------------------------------------------------------------ the manual

def _doc_examples():
    import re
    import shlex
    from pathlib import Path
    page = (Path(__file__).resolve().parents[1] / "docs" / "descend-and-plot.md").read_text(
        encoding="utf-8")
    section = page[page.index("## A function of two variables"):]
    for block in re.findall(r"```console\n(.*?)```", section, flags=re.S):
        lines = block.rstrip("\n").splitlines()
        assert lines[0].startswith("$ gradcli ")
        yield shlex.split(lines[0][2:])[1:], "\n".join(lines[1:])


DOC_EXAMPLES = list(_doc_examples())


@pytest.mark.parametrize("args, expected", DOC_EXAMPLES, ids=[a[1] for a, _ in DOC_EXAMPLES])
def test_the_manuals_examples_are_real_output(args, expected):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    got = "\n".join(line.rstrip() for line in result.output.splitlines())
    # The title is the expression as read; its power notation is not this page's subject.
    assert got.replace("**", "^") == expected.replace("**", "^")


def test_the_manuals_picture_exists_and_is_a_png():
    from pathlib import Path
    picture = Path(__file__).resolve().parents[1] / "docs" / "images" / "plot-contour.png"
    assert _png_size(picture) == (720, 640)


@pytest.mark.parametrize("columns, lines", [(60, 40), (120, 45)])
def test_in_a_terminal_the_map_fits_the_terminals_width(columns, lines):
    """Run in a pseudo-terminal of the given size, with no --width: nothing is cut."""
    import fcntl
    import os
    import pty
    import sys
    import termios
    pid, fd = pty.fork()
    if pid == 0:
        # Sized here, before the command starts, so that it reads this size.
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        # COLUMNS and LINES would override the terminal's size.
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        os.execve(sys.executable, [sys.executable, "-m", "gradcli", "plot", "sin(x)cos(y)",
                                   "--over", "x=-3:3,y=-3:3", "--at", "x=1,y=1"],
                  {**env, "NO_COLOR": "1"})
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, out
    text = out.decode().replace("\r\n", "\n")
    rows = text.splitlines()
    assert max(len(row) for row in rows) <= columns, text
    assert len(rows) <= lines  # the title does not scroll away
    assert rows[0].startswith("f(x, y) = sin(x)")
    body = [row for row in rows if row.count("│") == 2]
    assert len({len(row) for row in body}) == 1 and len(body) >= 20
    for mark in "LHS@":
        assert any(mark in row for row in body), mark
    legend = " ".join(row.strip() for row in rows)
    assert "H local maximum at (1.5708, 0), f = 1" in legend


# ------------------------------------------------------------------ the picture, read

def test_the_colour_bands_run_from_the_least_value_to_the_greatest():
    from gradcli.output.plot2d import _bands, _bar_ticks
    f = np.array([[-2.0, 0.3, 1.0], [2.5, 4.0, 6.0]])
    marks = levels(f, 15)
    bounds, extend = _bands(f, marks)
    assert bounds[0] == -2.0 and bounds[-1] == 6.0 and extend == "neither"
    assert bounds[1:-1] == marks
    ticks = _bar_ticks(bounds, marks)
    assert ticks[0] == -2.0 and ticks[-1] == 6.0  # the ends are labelled: the full range


def test_contour_labels_keep_off_the_border_and_off_each_other():
    from types import SimpleNamespace

    from gradcli.output.plot2d import LABEL_GAP, LABEL_MARGIN, _label_spots
    t = np.linspace(0, 2 * np.pi, 60)
    rings = [[np.column_stack([r * np.cos(t), r * np.sin(t)])] for r in (0.2, 0.22, 0.6)]
    edge = [[np.column_stack([np.full(20, 0.99), np.linspace(-1, 1, 20)])]]  # on the border
    spots = _label_spots(SimpleNamespace(allsegs=rings + edge), {"x": (-1, 1), "y": (-1, 1)})
    assert len(spots) == 2  # the second ring would crowd the first; the edge line gets none
    for x, y in spots:
        assert min(x + 1, 1 - x, y + 1, 1 - y) / 2 >= LABEL_MARGIN
    (ax, ay), (bx, by) = spots
    assert math.hypot(ax - bx, ay - by) / 2 >= LABEL_GAP


@pytest.mark.slow
def test_the_png_has_readable_level_labels_inside_and_a_full_colour_bar(tmp_path, monkeypatch):
    import gradcli.output.plot2d as drawn
    figures = []
    real = drawn.write_figure
    monkeypatch.setattr(drawn, "write_figure",
                        lambda fig, path, kind: figures.append(fig) or real(fig, path, kind))
    data = sample("x^3 - 3x + y^2", "x=-2:2,y=-2:2", points=81)
    save_plot(data, str(tmp_path / "map.png"))
    ax, bar = figures[0].axes
    assert ax.get_title() == "f(x, y) = x^3 - 3x + y^2"
    labels = [t for t in ax.texts if t.get_text().strip()]
    assert labels and all(t.get_fontsize() >= 9 and t.get_rotation() == 0 for t in labels)
    for t in labels:
        x, y = t.get_position()
        assert -1.8 <= x <= 1.8 and -1.8 <= y <= 1.8  # none cut off at an edge
    low, high = bar.get_ylim()
    assert low == pytest.approx(float(np.nanmin(data.f))) and high == pytest.approx(6.0)
