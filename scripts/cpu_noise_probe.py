"""Is this machine's single-core speed steady?  Times the scalar Floyd-Warshall (n = 1024) and a
pure register loop again and again on chosen cores, and beside each run records what Linux says
happened meanwhile: steal time (the hypervisor ran someone else), run-queue wait of this thread
(someone in this machine ran on the core), and how busy the other cores were.

    python scripts/cpu_noise_probe.py [--runs 30] [--cores 15,7,0] [--out DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from apsp_kernels.algorithms import cpu  # noqa: E402
from apsp_kernels.study.seeds.kemp.profiles import make_graph  # noqa: E402


@njit(cache=True, nogil=True)
def _spin(iters):
    x = np.uint64(88172645463325252)
    for _ in range(iters):        # xorshift: registers only, no memory traffic
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
    return x


def _hugepages(on):
    try:
        from numpy._core.multiarray import _set_madvise_hugepage
    except ImportError:
        from numpy.core.multiarray import _set_madvise_hugepage
    _set_madvise_hugepage(on)


def _stat():
    """Per-cpu (busy, steal) jiffies from /proc/stat."""
    out = {}
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith("cpu") and line[3].isdigit():
            f = line.split()
            v = list(map(int, f[1:]))
            busy = v[0] + v[1] + v[2] + v[5] + v[6]
            out[int(f[0][3:])] = (busy, v[7] if len(v) > 7 else 0)
    return out


def _runq_ns():
    try:
        return int(Path(f"/proc/self/task/{os.getpid()}/schedstat").read_text().split()[1])
    except OSError:
        return -1


def measure(kind, core, fn):
    os.sched_setaffinity(0, {core})
    s0, q0, t0 = _stat(), _runq_ns(), time.perf_counter()
    fn()
    dt = time.perf_counter() - t0
    s1, q1 = _stat(), _runq_ns()
    others = sum(s1[c][0] - s0[c][0] for c in s1 if c != core)
    return dict(kind=kind, core=core, ms=dt * 1e3, steal_jiffies=s1[core][1] - s0[core][1],
                steal_all=sum(s1[c][1] - s0[c][1] for c in s1), runq_ms=(q1 - q0) / 1e6,
                busy_other_jiffies=others, t=time.time())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--cores", default=None)
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp"))
    a = ap.parse_args()
    allowed = sorted(os.sched_getaffinity(0))
    cores = [int(c) for c in a.cores.split(",")] if a.cores else [allowed[-1], allowed[len(allowed) // 2], allowed[0]]
    topo = {c: Path(f"/sys/devices/system/cpu/cpu{c}/topology/thread_siblings_list").read_text().strip()
            for c in allowed if Path(f"/sys/devices/system/cpu/cpu{c}/topology/thread_siblings_list").exists()}
    g = make_graph("kemp 2-6", 1024, 0)                              # the campaign's own graph
    cpu.fw_sequential(g), _spin(10)                                  # compile
    rows = []
    for r in range(a.runs):
        for c in cores:
            rows.append(measure("fw_sequential_1024", c, lambda: cpu.fw_sequential(g)))
            rows.append(measure("spin_2e8", c, lambda: _spin(200_000_000)))
            _hugepages(False)               # numpy asks for transparent huge pages on big arrays
            rows.append(measure("fw_sequential_1024_no_thp", c, lambda: cpu.fw_sequential(g)))
            _hugepages(True)
    os.sched_setaffinity(0, set(allowed))
    import pandas as pd
    df = pd.DataFrame(rows)
    Path(a.out).mkdir(parents=True, exist_ok=True)
    df.to_csv(Path(a.out) / "cpu_noise.csv", index=False)
    (Path(a.out) / "cpu_topology.json").write_text(json.dumps(dict(allowed=allowed, siblings=topo), indent=1))
    print("siblings:", topo)
    for f in ("/sys/kernel/mm/transparent_hugepage/enabled", "/sys/kernel/mm/transparent_hugepage/defrag"):
        print(f, Path(f).read_text().strip() if Path(f).exists() else "-")
    print([ln for ln in Path("/proc/meminfo").read_text().splitlines() if "Huge" in ln])
    q = df.groupby(["kind", "core"]).ms.describe(percentiles=[.1, .5, .9])[["count", "min", "10%", "50%", "90%", "max"]]
    print(q.round(1).to_string())
    slow = df.assign(slow=df.ms > df.groupby(["kind", "core"]).ms.transform("min") * 1.3)
    print(slow.groupby("slow")[["steal_jiffies", "steal_all", "runq_ms", "busy_other_jiffies"]].mean().round(2).to_string())


if __name__ == "__main__":
    main()
