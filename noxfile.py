"""The test suite on every Python gradcli supports, the slow checks once, and a packaging check.

    nox                      # tests, subset and package below, in this order
    nox -s tests-3.10        # the README's test command, the whole suite
    nox -s tests-3.13        # the whole suite and the slow checks, in one run
    nox -s subset-3.12       # the version-sensitive part of the suite (3.11 and 3.12)
    nox -s slow              # the slow checks alone (-m slow), on 3.13
    nox -s package           # build, twine check, install wheel and sdist (3.10 and 3.13)
    nox -s tests-3.10 -- -k exact    # arguments after -- go to pytest

The whole suite runs on the oldest and the newest Python; between them only the
tests whose outcome can depend on the interpreter (the csv and io modules,
Unicode tables, terminals, the entry point and what it imports, math.cbrt,
NumPy and pyarrow builds) run again. The slow checks (the adversarial harness,
the large regression corpus, the SymPy-only verification of the test data, the
memory bound, scale and verdict tests) need one Python, not four: they run in the
same pytest run as the 3.13 suite, so that the two workers share one collection and
the short tests fill the time beside the long ones (`--dist worksteal`).

Interpreters are looked up on PATH as python3.10 ... python3.13. pyenv's own
installs (versions/3.1X.*/bin under $PYENV_ROOT, ~/.pyenv or /root/.pyenv) go first on
PATH here, so that a pyenv shim for a version that is not selected does not
answer instead. A version that cannot be found fails the run (never a skip),
and nox never downloads a Python.
"""
from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import zipfile

import nox

PYTHONS = ["3.10", "3.11", "3.12", "3.13"]  # keep in step with pyproject's classifiers

# The README's test command, exactly.
PYTEST = ("python", "-m", "pytest", "-q", "-m", "not slow", "-n", "auto")
WHOLE_SUITE = ["3.10", "3.13"]
SUBSET = ["3.11", "3.12"]
SLOW_ON = "3.13"   # one run there: the whole suite and the slow checks
# The tests whose outcome can depend on the interpreter or on the NumPy, pyarrow and
# click builds it gets; the rest is pure computation, the same on every Python.
VERSION_SENSITIVE = [
    "tests/test_architecture.py", "tests/test_batch.py", "tests/test_batch_output.py",
    "tests/test_cli.py", "tests/test_compat.py", "tests/test_data.py",
    "tests/test_internal_error.py", "tests/test_lalr.py", "tests/test_launch.py",
    "tests/test_narrow_terminal.py", "tests/test_parser.py", "tests/test_points.py",
    "tests/test_readme_core.py", "tests/test_repl.py", "tests/test_vectors.py",
    "tests/test_plot.py", "tests/test_plot2d.py",
]

nox.options.sessions = ["tests", "subset", "package"]
nox.options.error_on_missing_interpreters = True
nox.options.download_python = "never"
# uv makes each session's environment in seconds (pip takes a minute or more for the
# test extras); plain venv where uv is not installed.
nox.options.default_venv_backend = "uv|venv"
os.environ.setdefault("UV_PYTHON_DOWNLOADS", "never")  # the machine's Pythons, never a download


def _pyenv_bins() -> list[str]:
    """The newest pyenv install of each version in PYTHONS (its bin directory)."""
    roots = [os.environ.get("PYENV_ROOT"), os.path.expanduser("~/.pyenv"), "/root/.pyenv"]
    roots = list(dict.fromkeys(r for r in roots if r))
    found = []
    for version in PYTHONS:
        best = None
        paths = (p for root in roots
                 for p in glob.glob(os.path.join(root, "versions", f"{version}.*", "bin")))
        for path in paths:
            m = re.fullmatch(re.escape(version) + r"\.(\d+)", os.path.basename(os.path.dirname(path)))
            if m and os.path.isfile(os.path.join(path, f"python{version}")):
                if best is None or int(m.group(1)) > best[0]:
                    best = (int(m.group(1)), path)
        if best:
            found.append(best[1])
    return found


_bins = _pyenv_bins()
if _bins:
    os.environ["PATH"] = os.pathsep.join(_bins + [os.environ.get("PATH", "")])


def _check_version(session: nox.Session) -> None:
    """The session's interpreter is the version it is named for."""
    want = tuple(int(p) for p in session.python.split("."))
    session.run("python", "-c",
                f"import sys; v = sys.version_info[:2]; assert v == {want!r}, "
                f"f'python is {{sys.version}}, not {session.python}'; print(sys.executable, sys.version)")


@nox.session(python=WHOLE_SUITE)
def tests(session: nox.Session) -> None:
    """The README's set-up and test command. A run that collects no test (pytest exit 5) fails."""
    _check_version(session)
    session.install("-e", ".[test]")
    if session.python == SLOW_ON and not session.posargs:
        # PYTEST without its `-m "not slow"`: every test, the slow ones included
        session.run("python", "-m", "pytest", "-q", "-n", "auto", "--dist", "worksteal")
    else:
        session.run(*PYTEST, *session.posargs)


@nox.session(python=SUBSET)
def subset(session: nox.Session) -> None:
    """The version-sensitive tests on the Pythons between the oldest and the newest."""
    _check_version(session)
    session.install("-e", ".[test]")
    session.run(*PYTEST, *(session.posargs or VERSION_SENSITIVE))


@nox.session(python=SLOW_ON)
def slow(session: nox.Session) -> None:
    """The slow checks alone (CI runs them inside tests-3.13)."""
    _check_version(session)
    session.install("-e", ".[test]")
    session.run("python", "-m", "pytest", "-q", "-m", "slow", "-n", "auto", *session.posargs)


EXPRESSION = "(w*x+b)**2"
AT = "w=3,x=2,b=1"
WANT = {"value": 49.0, "gradient": {"w": 28.0, "x": 42.0, "b": 14.0}}


# The wheel is pure Python: built and installed on the oldest and the newest Python (the
# subset sessions install and run the package on the two between).
@nox.session(python=WHOLE_SUITE)
def package(session: nox.Session) -> None:
    """Build the sdist and (from it) the wheel, check them, and run each from a fresh venv."""
    _check_version(session)
    # uv (beside build) makes the build's isolated environment and the two check venvs in
    # seconds; pip took a minute or more of CI per session for the same installs.
    session.install("build[uv]", "twine")
    work = tempfile.mkdtemp(prefix="gradcli-package-")
    try:
        dist = os.path.join(work, "dist")
        # python -m build makes the sdist, then the wheel from the unpacked sdist:
        # the wheel below is the sdist -> wheel path a user's pip also takes.
        session.run("python", "-m", "build", "--installer", "uv", "--outdir", dist, ".")
        wheels = glob.glob(os.path.join(dist, "*.whl"))
        sdists = glob.glob(os.path.join(dist, "*.tar.gz"))
        if len(wheels) != 1 or len(sdists) != 1:
            session.error(f"expected one wheel and one sdist in {dist}, found {os.listdir(dist)}")
        session.run("python", "-m", "twine", "check", "--strict", *wheels, *sdists)
        _check_contents(session, wheels[0], sdists[0])

        # The interpreter this session runs, not its venv: each check gets a venv of its own.
        base = session.run("python", "-c", "import os, sys; print(os.path.join(sys.base_prefix, "
                           "'bin', 'python%d.%d' % sys.version_info[:2]))",
                           silent=True).strip().splitlines()[-1]
        for artifact in (wheels[0], sdists[0]):
            kind = "wheel" if artifact.endswith(".whl") else "sdist"
            venv = os.path.join(work, f"venv-{kind}")
            session.run("uv", "venv", "-q", "--python", base, venv)
            bin_dir = os.path.join(venv, "bin")
            session.run("uv", "pip", "install", "-q", "--python", os.path.join(bin_dir, "python"),
                        artifact)
            _check_eval(session, os.path.join(bin_dir, "gradcli"), kind, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _check_contents(session: nox.Session, wheel: str, sdist: str) -> None:
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    for need in ("gradcli/__init__.py", "gradcli/grammar/gradcli.lark"):
        if need not in names:
            session.error(f"{os.path.basename(wheel)} has no {need}")
    if any(n.startswith(("tests/", "src/")) for n in names):
        session.error(f"{os.path.basename(wheel)} carries tests/ or src/")
    with tarfile.open(sdist) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    for need in ("pyproject.toml", "README.md", "grammar/gradcli.lark", "src/gradcli/__init__.py"):
        if need not in names:
            session.error(f"{os.path.basename(sdist)} has no {need}")
    session.log("wheel and sdist both carry the grammar")


def _check_eval(session: nox.Session, gradcli: str, kind: str, work: str) -> None:
    """The installed command, run from a directory that is not the checkout."""
    elsewhere = os.path.join(work, f"cwd-{kind}")
    os.makedirs(elsewhere, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([gradcli, "eval", EXPRESSION, "--at", AT, "-o", "json"],
                         cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    session.log(f"{kind}: gradcli eval {EXPRESSION!r} --at {AT} -o json -> {out.stdout.strip()}")
    if out.returncode != 0:
        session.error(f"{kind}: gradcli exited {out.returncode}: {out.stderr.strip()}")
    data = json.loads(out.stdout)
    got = {"value": data.get("value"), "gradient": data.get("gradient")}
    if got != WANT:
        session.error(f"{kind}: expected {WANT}, got {got}")

