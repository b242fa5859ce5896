"""The console process keeps SymPy's physical units unloaded (gradcli/sympyunits.py)."""
import subprocess
import sys


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.split()


def test_simplify_runs_without_loading_the_units_and_real_units_still_load():
    out = _run("import sys; from gradcli import sympyunits; sympyunits.install(); "
               "import sympy as S; x = S.Symbol('x'); "
               "print(S.simplify(S.sin(x)**2 + S.cos(x)**2)); "
               "print('sympy.physics' in sys.modules); "
               "from sympy.physics.units import meter, kilometer, convert_to; "
               "print(convert_to(3*kilometer, meter))")
    assert out == ["1", "False", "3000*meter"]


def test_importing_gradcli_leaves_sympy_alone():
    assert _run("import sys, gradcli.api; print('sympy.physics.units' in sys.modules)") == \
        ["False"]
