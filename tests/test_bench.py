"""The benchmarks still run (at a few thousand rows) and measure what they say they measure."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import peak  # noqa: E402


def test_peak_memory_is_the_commands_not_the_parents():
    held = np.ones(40_000_000)  # 320 MB resident in this process while the child runs
    r = peak.run([sys.executable, "-c", "import sys; sys.stdout.write('ok')"])
    assert r.code == 0 and r.stdout == b"ok"
    assert r.rss_kb < 100 * 1024, r.rss_kb
    held[0] = 0
    r = peak.run([sys.executable, "-c", "import numpy; a = numpy.ones(25_000_000); a[0] = 2"])
    assert 190 * 1024 < r.rss_kb < 400 * 1024 and r.cpu > 0
    assert peak.run([sys.executable, "-c", "raise SystemExit(3)"]).code == 3


# Each runs its whole benchmark (every peer, every format) once: seconds of CPU for what
# is a check that the script still works, so once per CI run, in the slow job.
@pytest.mark.slow
@pytest.mark.parametrize("script,words", [
    ("data.py", ["gradcli CSV -> CSV", "gradcli Parquet -> Parquet (4N)",
                 "gradcli.compile: compute alone", "NumPy by hand: compute alone"]),
    ("batch.py", ["gradcli engine on arrays", "gradcli eval --points FILE -o csv"]),
])
def test_a_benchmark_runs_at_a_small_size(script, words, tmp_path):
    r = subprocess.run([sys.executable, str(BENCH / script), "2000"], capture_output=True,
                       text=True, timeout=300, cwd=tmp_path,
                       env=dict(os.environ, GRADCLI_PROGRESS="0"))
    assert r.returncode == 0, r.stderr[-2000:]
    for w in words:
        assert w in r.stdout
