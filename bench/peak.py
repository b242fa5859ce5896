"""One command in a fresh process: its CPU time, wall time and true peak memory.

wait4's ru_maxrss of a child that a large parent starts counts the parent's
pages: subprocess forks (or vforks) the parent, and the high-water mark of
that address space survives the exec. A benchmark that has loaded its data
would report that as the command's memory. So a small launcher (a new Python)
forks the command, waits for it, and writes the command's own usage to a
pipe of its own; the wall time is taken there too, without the launcher's
start-up.

    result = run(cmd, env)   # .cpu (s), .wall (s), .rss_kb, .code, .stdout, .stderr
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

_LAUNCHER = r"""
import json, os, sys, time
fd, cmd = int(sys.argv[1]), sys.argv[2:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.close(fd)
    try:
        os.execvp(cmd[0], cmd)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
report = {"cpu": usage.ru_utime + usage.ru_stime, "wall": time.perf_counter() - start,
          "rss_kb": usage.ru_maxrss, "code": os.waitstatus_to_exitcode(status)}
os.write(fd, json.dumps(report).encode())
"""


@dataclass
class Result:
    cpu: float
    wall: float
    rss_kb: int
    code: int
    stdout: object
    stderr: object


def run(cmd, env=None, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=None,
        text=False) -> Result:
    """Run `cmd` (a list) and measure it (see the module doc)."""
    read, write = os.pipe()
    try:
        proc = subprocess.run([sys.executable, "-c", _LAUNCHER, str(write), *map(str, cmd)],
                              stdout=stdout, stderr=stderr, env=env, cwd=cwd, text=text,
                              pass_fds=(write,))
    finally:
        os.close(write)
    with os.fdopen(read, "rb") as fh:
        report = json.loads(fh.read() or b"{}")
    if not report:
        raise RuntimeError(f"the launcher failed: {proc.stderr}")
    return Result(report["cpu"], report["wall"], report["rss_kb"], report["code"],
                  proc.stdout, proc.stderr)
