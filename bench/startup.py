"""Start-up time of the common `eval`, against the bare interpreter (and qalc) in one run.

Each command runs as a fresh process, several times; the median wall time is
reported, and the ratio to `python -c pass`. Not a test: it prints, it asserts nothing.

    python bench/startup.py [--runs N]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
EXPR = "(w*x+b)**2"


def median_time(cmd, runs, env=None):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed with exit code {done.returncode}")
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=SRC)
    rows = []
    floor = median_time([sys.executable, "-c", "pass"], args.runs)
    rows.append(("python -c pass", floor))
    gradcli = median_time([sys.executable, "-m", "gradcli", "eval", EXPR, "--at", "w=3,x=2,b=1",
                           "-o", "plain"], args.runs, env)
    rows.append((f'gradcli eval "{EXPR}" --at w=3,x=2,b=1 -o plain', gradcli))
    qalc = shutil.which("qalc")
    if qalc:
        rows.append(("qalc (2*3+1)^2", median_time([qalc, "-t", "(3*2+1)^2"], args.runs)))
    width = max(len(name) for name, _ in rows)
    for name, t in rows:
        print(f"{name:<{width}}  {t * 1000:8.1f} ms  {t / floor:5.2f}x the interpreter")
    if not qalc:
        print("qalc is not installed: no peer timing")
    print(f"ratio gradcli / python -c pass: {gradcli / floor:.2f}")


if __name__ == "__main__":
    main()
