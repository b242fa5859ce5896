"""graphviz.py and the rich graph tree: DOT, Mermaid, JSON, SVG through dot, large graphs."""
import io
import xml.etree.ElementTree as ET

import pytest
from conftest import need_program

from gradcli.output import graphviz
from gradcli.errors import GradcliError, UsageError
from gradcli.output.render import graph_tree
from gradcli.tasks.trace import trace

PROGRAM = "z = w*x + b\nθ = sigmoid(z)\nloss = (θ - t)**2 + θ*z"
POINT = {"w": 0.5, "x": 2, "b": -1, "t": 1}


@pytest.fixture
def dot():
    return need_program("dot", "apt-get install graphviz")


def text_of(renderable, width=100):
    from rich.console import Console
    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None, highlight=False).print(renderable)
    return buf.getvalue()


def test_dot_has_every_node_and_one_edge_per_use():
    t = trace("x*x + x", {"x": 3})
    dot = graphviz.to_dot(t)
    assert 'n0 [label="x\\nvalue 3\\ngrad 7"' in dot
    assert 'n2 [label="f = v1 + x\\nvalue 12\\ngrad 1", shape=box, style=rounded, ' \
           'peripheries=2];' in dot
    assert dot.count("n0 -> n1;") == 2 and dot.count("n0 -> n2;") == 1


def test_dot_escapes_quotes_and_backslashes():
    assert graphviz._dot_string('a "b" \\ c') == '"a \\"b\\" \\\\ c"'


def test_mermaid_labels_and_edges():
    t = trace("(w*x+b)**2", {"w": 3, "x": 2, "b": 1})
    mmd = graphviz.to_mermaid(t)
    assert mmd.startswith("flowchart LR\n")
    assert '  n3["v1 = w*x<br/>value 6<br/>grad 14"]' in mmd
    assert '  n0(["w<br/>value 3<br/>grad 28"])' in mmd
    assert "  n4 --> n6" in mmd and "style n6 stroke-width:3px" in mmd


def test_json_record_names_every_node():
    t = trace(PROGRAM, POINT)
    rec = graphviz.record(t)
    names = [n["name"] for n in rec["nodes"]]
    assert names[:4] == ["w", "x", "b", "t"]
    assert {"z", "θ", "loss"} <= set(names) and rec["output"] == "loss"


def test_tree_shows_a_shared_subgraph_once():
    t = trace(PROGRAM, POINT)
    out = text_of(graph_tree(t)).split("\n\n", 1)[1]  # the tree, below the read-as lines
    assert out.count("z = v1 + b") == 1
    assert out.count("θ = sigmoid(z)") == 1
    assert "z  (shown above)" in out and "θ  (shown above)" in out
    assert "w   value 0.5" in out  # the user's names on the leaves


def test_tree_of_a_large_graph_is_summarised():
    t = trace(" + ".join(f"x*{i}" for i in range(1, 400)), {"x": 1})
    out = text_of(graph_tree(t))
    assert "the graph has 798 nodes; only the top is drawn here" in " ".join(out.split())
    assert "-o dot" in out
    assert len(out.splitlines()) < 80
    small = text_of(graph_tree(trace("x*1 + x*2", {"x": 1})))
    assert "only the top" not in small


def test_deep_graph_renders_without_recursion():
    t = trace("sin(" * 10000 + "x" + ")" * 10000, {"x": 0.5})
    assert graphviz.to_dot(t).count(" -> ") == 10000
    assert graphviz.to_mermaid(t).count(" --> ") == 10000
    assert len(graphviz.record(t)["nodes"]) == 10001
    assert "10,001 nodes" in text_of(graph_tree(t))


def test_deep_graph_under_the_limit_is_cut_at_a_depth():
    t = trace("sin(" * 100 + "x" + ")" * 100, {"x": 0.5})
    out = text_of(graph_tree(t))
    assert "not drawn (depth limit)" in " ".join(out.split())


@pytest.mark.usefixtures("dot")
@pytest.mark.parametrize("kind", ["svg", "png", "pdf"])
def test_dot_draws_a_file(tmp_path, kind):
    t = trace(PROGRAM, POINT)
    path = tmp_path / f"g.{kind}"
    graphviz.render(graphviz.to_dot(t), str(path), kind)
    data = path.read_bytes()
    assert len(data) > 100
    if kind == "svg":
        root = ET.fromstring(data)
        assert root.tag.endswith("svg")
        texts = [el.text for el in root.iter() if el.tag.endswith("text") and el.text]
        for name in ("w", "x", "b", "t", "z", "θ", "loss"):
            assert any(s == name or s.startswith(name + " =") for s in texts), name
    elif kind == "png":
        assert data.startswith(b"\x89PNG")
    else:
        assert data.startswith(b"%PDF")


def test_missing_dot_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(graphviz.shutil, "which", lambda name: None)
    with pytest.raises(UsageError) as info:
        graphviz.render("digraph {}", str(tmp_path / "g.svg"), "svg")
    assert info.value.exit_code == 2
    assert "apt-get install graphviz" in info.value.hint and "brew" in info.value.hint


@pytest.mark.usefixtures("dot")
def test_dot_failure_is_reported(tmp_path):
    with pytest.raises(GradcliError) as info:
        graphviz.render("this is not dot", str(tmp_path / "g.svg"), "svg")
    assert "dot failed" in info.value.message


def test_output_kind():
    assert graphviz.output_kind("a/b.SVG") == "svg"
    assert graphviz.output_kind("g.gv") == "dot"
    with pytest.raises(UsageError):
        graphviz.output_kind("graph")


@pytest.mark.usefixtures("dot")
def test_dot_that_takes_too_long_is_stopped(tmp_path):
    t = trace(" + ".join(f"sin(x*{i})" for i in range(1, 1500)), {"x": 1})
    with pytest.raises(GradcliError) as info:
        graphviz.render(graphviz.to_dot(t), str(tmp_path / "g.svg"), "svg", timeout=0.05)
    assert "did not finish" in info.value.message and "-o dot" in info.value.hint


def test_long_labels_are_cut_for_graphviz():
    import numpy as np
    t = trace("sum(x*x)", {"x": np.arange(5000.0)})
    lines = [line for n in t.forward for line in graphviz.label_lines(n)]
    assert max(len(line) for line in lines) <= graphviz.LABEL_CHARS
    assert any(line.endswith("…") for line in lines)
    rec = graphviz.record(t)  # JSON keeps the values whole
    assert len(rec["nodes"][0]["value"]) == 5000
