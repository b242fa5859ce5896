"""The import graph of gradcli: no cycles (imports inside functions counted), and each
third-party heavyweight imported only where it belongs.

Every module is parsed with `ast`; every import of ours — at the top or inside a
function, relative or `gradcli.`-absolute — is an arrow. The arrows must form no
cycle, so that the layers (see the Code map in README.md) read one way, down; and
no cycle among the packages either: with each subpackage (output, data, tasks,
language, autodiff, symbolic, cli) taken as one node and each top-level module as
its own, the arrows between them read one way too.
"""
import ast
import functools
import os
import re
import warnings

import pytest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "src", "gradcli")

# Where each third-party package may be imported (module names relative to gradcli).
ONLY_IN = {
    "click": {"cli", "cli.app", "cli.evaluate", "cli.homework", "cli.symbolic", "cli.roots",
              "cli.checking", "cli.training", "cli.session"},
    "rich": {"output.render", "output.cells"},
    # None: the package parses with the generated tables (language/lalr.py); Lark runs
    # in grammar/make_tables.py, which generates them, and in the tests, as the reference.
    "lark": set(),
    # The data extra: Parquet, Arrow and fast CSV in data/, DataFrames in compile().
    "pyarrow": {"data", "data.sources", "data.sinks", "data.textlines"},
    "orjson": {"data", "data.textlines"},
    "pandas": {"data.compiled"},
    # Drawing is output's: the plot tasks compute, output/plot*.py draw.
    "plotext": {"output.plot"},
    "matplotlib": {"output.plot", "output.plot2d"},
}


def _modules() -> dict:
    """{dotted name relative to gradcli ('' for the package itself): path}."""
    out = {}
    for folder, _, files in os.walk(PACKAGE):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                rel = os.path.relpath(path, PACKAGE)[:-3].replace(os.sep, ".")
                if rel == "__init__" or rel.endswith(".__init__"):
                    rel = rel[: -len("__init__")].rstrip(".")
                out[rel] = path
    return out


MODULES = _modules()


@functools.lru_cache(maxsize=None)
def _tree(path: str):
    """A module's syntax tree, parsed once for all the tests of this file."""
    with warnings.catch_warnings():  # a module's own escape-sequence warnings are not ours
        warnings.simplefilter("ignore")
        return ast.parse(open(path, encoding="utf-8").read(), path)


@functools.lru_cache(maxsize=None)
def _imports(name: str, path: str) -> tuple:
    return tuple(_walk_imports(name, path))


def _walk_imports(name: str, path: str):
    """(target module, third-party top name or None, line) for each import in a module."""
    package = name.split(".") if path.endswith("__init__.py") else name.split(".")[:-1]
    package = [p for p in package if p]
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "gradcli" or alias.name.startswith("gradcli."):
                    yield alias.name[len("gradcli."):], None, node.lineno
                else:
                    yield None, alias.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                head = ".".join(base + ([node.module] if node.module else []))
            elif node.module == "gradcli" or (node.module or "").startswith("gradcli."):
                head = node.module[len("gradcli."):] if "." in node.module else ""
            else:
                yield None, (node.module or "").split(".")[0], node.lineno
                continue
            for alias in node.names:
                target = f"{head}.{alias.name}".strip(".")
                yield (target if target in MODULES else head), None, node.lineno


def _graph() -> dict:
    edges = {m: set() for m in MODULES}
    for name, path in MODULES.items():
        for target, _, _ in _imports(name, path):
            if target is None:
                continue
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:  # the package itself ('') has no place in a layer
                edges[name].add(target)
    return edges


def _cycle(edges: dict):
    """One cycle as a list of modules, or None (iterative depth-first search)."""
    state = {}  # 1: on the current path, 2: done
    for root in sorted(edges):
        if root in state:
            continue
        path, stack = [], [(root, iter(sorted(edges[root])))]
        state[root] = 1
        path.append(root)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                state[node] = 2
            elif state.get(child) == 1:
                return path[path.index(child):] + [child]
            elif child not in state:
                state[child] = 1
                path.append(child)
                stack.append((child, iter(sorted(edges[child]))))
    return None


def test_the_walk_sees_the_package():
    assert {"cli", "launch", "api", "language.parser", "autodiff.engine",
            "output.render"} <= set(MODULES)
    edges = _graph()
    assert "tasks.evaluation" in edges["api"] and "language.expr" in edges["autodiff.lower"]


def test_a_cycle_is_found():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycles_lazy_imports_counted():
    cycle = _cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def _top(module: str) -> str:
    """The node of a module in the package graph: its subpackage, or itself at the top."""
    return module.split(".")[0]


def _package_graph(edges: dict) -> dict:
    """{subpackage or top-level module: those it imports}, each subpackage one node."""
    out = {}
    for name, targets in edges.items():
        if not name:  # the package's __init__ re-exports; it is no layer
            continue
        tops = {_top(t) for t in targets if t and _top(t) != _top(name)}
        out.setdefault(_top(name), set()).update(tops)
        for top in tops:
            out.setdefault(top, set())
    return out


def test_a_package_cycle_is_found_where_the_modules_have_none():
    # a.x -> b.y and b.z -> a.w: no module cycle, but packages a and b import each other.
    edges = {"a.x": {"b.y"}, "a.w": set(), "b.y": set(), "b.z": {"a.w"}, "c": {"a.x"}}
    assert _cycle(edges) is None
    assert _cycle(_package_graph(edges)) == ["a", "b", "a"]
    assert _cycle(_package_graph({"a.x": {"b.y"}, "b.y": {"c"}, "c": set()})) is None


def test_no_cycles_among_the_packages_and_top_level_modules():
    packages = _package_graph(_graph())
    assert {"output", "data", "tasks", "language", "autodiff", "symbolic", "cli"} <= set(packages)
    cycle = _cycle(packages)
    assert cycle is None, "package cycle: " + " -> ".join(cycle)


def test_the_batch_path_and_output_do_not_import_each_other():
    """data/ reads, evaluates and writes batches; output/ prints results: neither knows the
    other (cli/ hands output/ what it needs of data/). No task and nothing in data/ imports
    output/ or cli/: the stages know nothing of the stages after them."""
    packages = _package_graph(_graph())
    assert "output" not in packages["data"] and "data" not in packages["output"]
    for below in ("data", "tasks"):
        assert not packages[below] & {"output", "cli", "launch", "repl"}, below


def test_no_task_and_no_layer_below_imports_the_cli_or_the_facade():
    edges = _graph()
    cli = {m for m in edges if m == "cli" or m.startswith("cli.")}
    for name, targets in edges.items():
        if name not in cli | {"launch", "__main__"}:
            assert not targets & (cli | {"launch"}), name
        if name not in cli | {""}:
            assert "api" not in targets, f"{name} imports api, the facade: import the task"


@pytest.mark.parametrize("package", sorted(ONLY_IN))
def test_heavy_dependencies_stay_in_their_module(package):
    wrong = [f"{name}:{line}" for name, path in MODULES.items()
             for _, top, line in _imports(name, path)
             if top == package and name not in ONLY_IN[package]]
    assert not wrong, f"{package} imported outside {sorted(ONLY_IN[package])}: {wrong}"


def test_the_bottom_imports_nothing_above_it():
    edges = _graph()
    bottom = {"errors", "limits", "walk", "numbers", "ops", "oprecord", "stable", "options",
              "closedtext", "columntext", "shortest"}
    for name in bottom:
        assert edges[name] <= bottom, (name, edges[name] - bottom)


TASKS = {f"tasks.{t}" for t in ("evaluation", "diff", "trace", "check", "gradcheck", "descend",
                                 "batch", "plot", "tangent", "taylor", "critical", "implicit",
                                 "newton")}
# a task that is a package: its modules are the one task
PACKAGED_TASKS = {"tasks.check", "tasks.newton"}
# A task may call another task's public entry point, never reach into its helpers:
# diff's values at a point, and check's expected numbers, are evaluate's. The homework
# graders of check grade each homework command's answer against that command's own result
# (so that `check` never disagrees with `gradcli tangent`).
TASK_CALLS = {(f"tasks.{a}", f"tasks.{b}") for a, b in (
    ("diff", "evaluation"), ("check", "evaluation"), ("check", "tangent"), ("check", "taylor"),
    ("check", "critical"), ("check", "implicit"), ("check", "newton"))}


def _task_of(module: str) -> str:
    top = ".".join(module.split(".")[:2])
    return top if top in PACKAGED_TASKS else module


def test_the_tasks_live_in_their_own_package():
    """The layers show in the tree: every task (and nothing else) under tasks/."""
    assert TASKS <= set(MODULES)
    flat = [m for m in MODULES if "." not in m]
    assert not set(flat) & {t.split(".", 1)[1] for t in TASKS}, flat


def _task_edges() -> dict:
    """{task or module: the tasks or modules it imports}, a packaged task as one node."""
    edges = {}
    for name, targets in _graph().items():
        source = _task_of(name)
        edges.setdefault(source, set()).update(
            t for t in map(_task_of, targets) if t != source)
    return edges


def test_tasks_share_helpers_below_them_not_each_others_internals():
    edges = _task_edges()
    for task in TASKS:
        for target in edges[task] & TASKS:
            assert (task, target) in TASK_CALLS, f"{task} imports the task {target}"
    edges = {name: set(map(_task_of, targets)) for name, targets in _graph().items()}
    lower = {m for m in MODULES if m.split(".")[0] in ("language", "autodiff", "symbolic")}
    for name in lower:
        assert not edges[name] & (TASKS | {"inputs", "kinks", "api"}), name
        assert not {t for t in edges[name] if _top(t) == "data"}, name
    for name in (m for m in MODULES if m.startswith("output.")):
        assert not edges[name] & (TASKS | {"api", "cli", "launch"}), (name, edges[name] & TASKS)


def test_every_module_compiles_without_a_syntax_warning():
    """An invalid escape in a docstring is a SyntaxWarning that 3.12+ prints to every user."""
    import pathlib
    import warnings
    root = pathlib.Path(__file__).resolve().parents[1] / "src" / "gradcli"
    for path in sorted(root.rglob("*.py")):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compile(path.read_text(encoding="utf-8"), str(path), "exec")


def test_every_module_reads_in_one_sitting():
    """One job each (docs: the README's code map), at most 700 lines; the generated tables
    do not count."""
    sizes = {name: sum(1 for _ in open(path, encoding="utf-8"))
             for name, path in MODULES.items() if name != "language._lalr_tables"}
    assert {"language.parser", "language.postlex", "data.sources", "output.render"} <= set(sizes)
    large = {name: n for name, n in sizes.items() if n > 700}
    assert not large, large


def _extras() -> set:
    """The names of pyproject.toml's [project.optional-dependencies] (read without tomllib,
    which Python 3.10 lacks)."""
    root = os.path.dirname(os.path.dirname(PACKAGE))
    names, inside = set(), False
    for line in open(os.path.join(root, "pyproject.toml"), encoding="utf-8"):
        if line.startswith("["):
            inside = line.strip() == "[project.optional-dependencies]"
        elif inside:
            m = re.match(r"([A-Za-z0-9_-]+)\s*=", line)
            if m:
                names.add(m.group(1))
    return names


def test_every_install_hint_names_an_extra_that_exists():
    extras = _extras()
    assert {"plot", "data"} <= extras
    hints = []
    for name, path in MODULES.items():
        text = open(path, encoding="utf-8").read()
        for m in re.finditer(r"gradcli\[([^\]]*)\]", text):
            hints.append((name, m.group(1)))
    assert hints, "no gradcli[...] hint found: the scan is wrong"
    wrong = [(name, extra) for name, extra in hints if extra not in extras]
    assert not wrong, f"hints naming an extra pyproject.toml does not define: {wrong}"


# Lists of function names outside the op table that are no property of an op, with why.
NAME_LISTS_ALLOWED = {
    "autodiff.precise": "the mpmath primitives of the arbitrary-precision backend, by name",
    "autodiff.exact": "the exact backend's values at rational points (expm1, log1p too)",
    "language.chars": "book spellings (cosec, tg) and the names they mean",
}


def test_no_hand_written_list_of_function_names_beside_the_op_table():
    # A set, list, tuple or dict literal naming three or more functions is a fact about
    # them that belongs in ops.py as a field ("has an inverse", "jumps", "product rank").
    from gradcli import ops
    names = set(ops.function_names()) - {"pow"}
    found = []
    for name, path in MODULES.items():
        if name in ("ops", "language._lalr_tables"):
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
                items = node.elts
            elif isinstance(node, ast.Dict):
                items = [k for k in node.keys if k is not None] + node.values
            else:
                continue
            named = {i.value for i in items if isinstance(i, ast.Constant)} & names
            if len(named) >= 3:
                found.append((name, node.lineno, sorted(named)))
    unexpected = [f for f in found if f[0] not in NAME_LISTS_ALLOWED]
    assert not unexpected, f"derive these from the op table: {unexpected}"
    assert {f[0] for f in found} == set(NAME_LISTS_ALLOWED), found
