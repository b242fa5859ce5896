"""Plot sampling (gaps, kinks, one vectorised pass) and drawing (terminal, PNG, SVG)."""
import math
import struct
import sys
import xml.etree.ElementTree as ET

import pytest

from gradcli.errors import DomainError, LimitError, ShapeError, UnknownName, UsageError
from gradcli.output.plot import save_plot, terminal_plot
from gradcli.tasks.plot import parse_over, sample

import numpy as np


def test_values_and_derivatives_match_the_formula():
    data = sample("sin(a*x)", "x=0:2*pi", {"a": 2.0}, points=101)
    assert data.xs[0] == 0 and data.xs[-1] == pytest.approx(2 * math.pi)
    assert np.allclose(data.f, np.sin(2 * data.xs), rtol=1e-14, atol=1e-14)
    assert np.allclose(data.df, 2 * np.cos(2 * data.xs), rtol=1e-14, atol=1e-14)
    assert data.warnings == []


def test_undefined_points_are_gaps_not_errors():
    data = sample("log(x)", "x=-1:1", points=21)
    left = data.xs <= 0
    assert np.isnan(data.f[left]).all() and np.isnan(data.df[left]).all()
    assert np.allclose(data.f[~left], np.log(data.xs[~left]))
    assert np.allclose(data.df[~left], 1 / data.xs[~left])
    assert any("undefined at 11 of 21 points" in w and "ln(x)" in w for w in data.warnings)


def test_several_undefined_pieces_and_overflow():
    data = sample("sqrt(x) + exp(x)", "x=-2:1000", points=11)
    assert np.isnan(data.f[0])  # sqrt(-2)
    assert np.isnan(data.f[-1])  # exp(1000) overflows
    assert np.isfinite(data.f[1:3]).all()
    assert len([w for w in data.warnings if "undefined" in w]) == 1


def test_kink_is_marked_and_derivative_jumps():
    data = sample("abs(x)", "x=-1:1", points=21)
    assert np.array_equal(data.df, np.sign(data.xs))
    assert data.kinks == [0.0]
    assert any(w.startswith("abs at 0") and "(at x = 0)" in w for w in data.warnings)


def test_each_kink_names_its_own_points():
    data = sample("sqrt(x) + abs(x - 0.5)", "x=-1:1", points=201)
    assert "sqrt at 0: the derivative is +inf (right-sided only); using inf as PyTorch does " \
        "(at x = 0)" in data.warnings
    assert "abs at 0: left -1, right 1; using 0 as PyTorch does (at x = 0.5)" in data.warnings
    assert sorted(data.kinks) == [0.0, 0.5]


def test_infinite_derivative_is_a_gap_in_the_derivative_only():
    data = sample("sqrt(x)", "x=0:1", points=5)
    assert data.f[0] == 0 and math.isinf(data.df[0])
    assert any("infinite or undefined at 1 point" in w for w in data.warnings)


def test_undefined_everywhere_is_an_error():
    with pytest.raises(DomainError, match="ln needs a positive argument"):
        sample("log(a)*x", "x=0:1", {"a": -1.0})


def test_reduction_over_x_is_refused():
    with pytest.raises(ShapeError, match="reduces over x"):
        sample("sum(x**2)", "x=0:1")


def test_expression_without_x_is_constant():
    data = sample("a**2", "x=0:1", {"a": 3.0}, points=4)
    assert data.f.tolist() == [9.0] * 4 and data.df.tolist() == [0.0] * 4
    assert any("does not depend on x" in w for w in data.warnings)


def test_missing_and_doubly_bound_inputs():
    with pytest.raises(UnknownName, match="no value for 'y'"):
        sample("x*y", "x=0:1")
    with pytest.raises(UsageError, match="plotted variable"):
        sample("x", "x=0:1", {"x": 1.0})


@pytest.mark.parametrize("spec,fragment", [
    ("x", "NAME=A:B"),
    ("=0:1", "NAME=A:B"),
    ("x=1", "a range A:B"),
    ("x=0:", "a range A:B"),
    ("x=0:1:2", "a range A:B"),
    ("x=1:0", "smaller to a larger"),
    ("x=0:y", "not a constant"),
    ("2x=0:1", "not a valid name"),
    ("x=-1e308:1e308", "wider than a double can hold"),
])
def test_bad_ranges(spec, fragment):
    with pytest.raises(UsageError, match=fragment):
        parse_over(spec)


def test_range_bounds_are_constant_expressions():
    assert parse_over("t=-pi:2*pi") == ("t", -math.pi, 2 * math.pi)
    assert parse_over(" x = -1/2 : max(1, 2) ") == ("x", -0.5, 2.0)


def test_points_must_be_at_least_two():
    with pytest.raises(UsageError, match="--points"):
        sample("x", "x=0:1", points=1)


# ------------------------------------------------------------------ drawing

def test_terminal_plot_renders_at_a_fixed_width():
    data = sample("relu(x) - x**2/4", "x=-2:3", points=201)
    text = terminal_plot(data, width=60, height=24, color=False)
    lines = text.splitlines()
    assert len(lines) == 24
    assert max(len(line) for line in lines) <= 60
    assert "\x1b[" not in text
    assert "f(x) = relu(x) - x^2/4" in text and "f'(x)" in text
    assert "x" in lines[-1]


def test_terminal_plot_with_gaps_and_colour():
    data = sample("log(x)", "x=-1:1", points=51)
    text = terminal_plot(data, width=50, height=20, color=True)
    assert "\x1b[" in text
    plain = terminal_plot(data, width=50, height=20, color=False)
    assert "-1.0" in plain  # the axis spans the whole range, gap included


def png_size(path):
    with open(path, "rb") as fh:
        head = fh.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


@pytest.mark.parametrize("size", [(800, 600), (640, 480)])
def test_png_is_a_valid_image_of_the_requested_size(tmp_path, size):
    data = sample("log(x) + abs(x - 1)", "x=-1:3")
    path = tmp_path / "f.png"
    assert save_plot(data, str(path), *size) == "png"
    assert png_size(path) == size


def test_svg_is_valid_xml_of_the_requested_size(tmp_path):
    data = sample("sin(x)", "x=0:2*pi")
    path = tmp_path / "f.svg"
    assert save_plot(data, str(path), 800, 600) == "svg"
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # 100 pixels per inch, 72 points per inch.
    assert (root.get("width"), root.get("height")) == ("576pt", "432pt")


def test_output_file_type_is_checked(tmp_path):
    data = sample("x", "x=0:1", points=3)
    with pytest.raises(UsageError, match=r"\.png or \.svg"):
        save_plot(data, str(tmp_path / "f.pdf"))


def test_a_missing_extra_gives_an_install_hint(monkeypatch, tmp_path):
    data = sample("x", "x=0:1", points=3)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(UsageError) as info:
        save_plot(data, str(tmp_path / "f.png"))
    assert "matplotlib" in info.value.message and "gradcli[plot]" in info.value.hint


def test_a_missing_required_package_is_not_called_an_extra(monkeypatch):
    # plotext is a dependency, not an extra: without it the install is broken, and the
    # ImportError says so (exit 4 in the CLI) rather than hinting at gradcli[plot].
    data = sample("x", "x=0:1", points=3)
    monkeypatch.setitem(sys.modules, "plotext", None)
    with pytest.raises(ImportError):
        terminal_plot(data)


def _plot_in_a_subprocess(*args):
    # A crash of plotext's C++ kernel aborts the process, so it runs apart, with 4 GB.
    import resource
    import subprocess

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    return subprocess.run([sys.executable, "-m", "gradcli", "plot", *args], capture_output=True,
                          text=True, preexec_fn=limit, timeout=120)


def test_a_narrow_spike_is_drawn_not_a_crash():
    # The y-range ignores the spike; plotext walked its segments point by point up to
    # 10^14 rows off the panel and aborted (std::bad_alloc).
    r = _plot_in_a_subprocess("1e-10*x + 1000*exp(-(100*x)**2)", "--over", "x=-1:1",
                              "--width", "60", "--height", "24")
    assert r.returncode == 0, r.stderr
    assert "f(x) = 1e-10*x + 1000*exp(-(100*x)^2)" in r.stdout  # as typed


def test_terminal_plot_size_limit():
    from gradcli import limits
    with pytest.raises(LimitError, match=r"a terminal plot of 1000 x 1000 characters is over "
                                         r"the limit of 250,000 characters"):
        terminal_plot(sample("x", "x=0:1"), 1000, 1000)
    assert limits.MAX_PLOT_CELLS == 250_000
    assert len(terminal_plot(sample("x", "x=0:1"), 500, 500).splitlines()) == 500


# ------------------------------------------------------------------ poles and steps

@pytest.mark.parametrize("expr, between", [
    ("tan(x)", [(-1.59, -1.56), (1.56, 1.59)]),   # poles at ±pi/2
    ("1/(x - 0.5)", [(0.48, 0.51)]),
    ("sign(x - 0.005)", [(0.0, 0.03)]),           # a step, not a pole
    ("(x + 0.01)/abs(x + 0.01)", [(-0.03, 0.0)]),  # undefined only between the samples
])
def test_a_pole_or_step_between_samples_is_a_jump(expr, between):
    data = sample(expr, "x=-3:3", points=201)
    got = [(float(data.xs[i]), float(data.xs[i + 1])) for i in data.jumps["f"]]
    assert got == [pytest.approx(pair, abs=1e-9) for pair in between]
    assert any(w.startswith("f jumps (a pole or a step) between x = ") for w in data.warnings)


@pytest.mark.parametrize("expr", [
    "sin(50*x)",           # badly undersampled, but continuous
    "tanh(1000*x)",        # steep, but continuous once bisected finely enough
    "1/x**2",              # an even pole: both sides leave the panel upwards
    "x**3 - 40*x",
    "exp(x)",
])
def test_continuous_steep_or_undersampled_curves_are_not_broken(expr):
    data = sample(expr, "x=-3:3", points=200)
    assert data.jumps["f"] == []
    assert not any("jumps" in w for w in data.warnings)


def test_a_derivative_step_is_a_jump_in_the_derivative_panel_only():
    data = sample("abs(x)", "x=-1:1", points=21)
    assert data.jumps == {"f": [], "df": [9, 10]}  # into and out of the kink's own sample
    data = sample("x**2/2 - relu(x - 0.33)", "x=-1:1", points=21)
    assert data.jumps == {"f": [], "df": [13]}


def test_constant_in_the_plotted_variable_has_no_jumps():
    assert sample("a", "x=0:1", {"a": 2.0}).jumps == {"f": [], "df": []}


def test_the_terminal_line_is_not_drawn_across_a_pole():
    data = sample("1/x", "x=-1:1", points=200)
    text = terminal_plot(data, width=60, height=30, color=False)
    f_panel = text.split("f'(x)")[0].splitlines()
    # The curve's columns: a vertical line through the pole would fill the middle column
    # of the panel from top to bottom; without it, no column holds curve dots in every row.
    rows = [line for line in f_panel if "┤" in line or "│" in line][1:-1]
    plot_rows = [line.split("┤" if "┤" in line else "│", 1)[1] for line in rows]
    middle = [row[len(row) // 2 - 1: len(row) // 2 + 2] for row in plot_rows]
    assert sum(1 for cell in middle if cell.strip(" │")) < len(middle) // 2
    data.jumps = {"f": [], "df": []}  # the same samples joined straight: the line is there
    joined = terminal_plot(data, width=60, height=30, color=False).split("f'(x)")[0]
    joined_rows = [line.split("┤" if "┤" in line else "│", 1)[1]
                   for line in joined.splitlines() if "┤" in line or "│" in line][1:-1]
    assert sum(1 for row in joined_rows
               if row[len(row) // 2 - 1: len(row) // 2 + 2].strip(" │")) >= len(joined_rows) - 2


def test_an_image_lifts_the_pen_at_a_jump(tmp_path):
    from gradcli.output.plot import _broken
    xs, ys = np.array([0.0, 1.0, 2.0, 3.0]), np.array([1.0, 5.0, -5.0, -1.0])
    bx, by = _broken(xs, ys, [1])
    assert bx.tolist() == [0.0, 1.0, 1.5, 2.0, 3.0]
    assert by[:2].tolist() == [1.0, 5.0] and math.isnan(by[2]) and by[3:].tolist() == [-5, -1]
    assert save_plot(sample("tan(x)", "x=-3:3"), str(tmp_path / "tan.svg")) == "svg"


def test_a_range_grid_gives_the_decimals_a_person_means():
    """SPEC §2: plot --over x=0:1 --points 11 has 0.3, not 0.30000000000000004."""
    from click.testing import CliRunner

    from gradcli.cli import main
    r = CliRunner().invoke(main, ["plot", "x^2", "--over", "x=0:1", "--points", "11",
                                  "-o", "csv"])
    xs = [line.split(",")[0] for line in r.stdout.splitlines()[1:]]
    assert xs == ["0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"]


def test_titles_and_labels_in_book_notation():
    from gradcli.output.plot import title_of
    assert title_of("(x**2)*sin(x)", {}, "x^2  sin x", ("x",)) == "f(x) = x^2 sin x"
    assert title_of("x**2*sin(x)", {}, "x**2*sin(x)", ("x",)) == "f(x) = x^2*sin(x)"
    assert title_of("sin(a*x)", {"a": 2.0}, "sin(a x)", ("x",)) == "f(x) = sin(a x)  at a = 2"
    # a program is shown as read: its own statements name what f is
    assert title_of("z = 2*x; z**2", {}, "z = 2x; z^2", ("x",)) == "f = z = 2*x; z^2"
    assert sample("x^2 sin x", "x=-1:1", points=3).label == "f'(x)"
    assert sample("sin(a x)", "x=-1:1", {"a": 2.0}, points=3).label == "∂f/∂x"
