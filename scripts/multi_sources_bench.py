"""The many-source sparse codes across the GPUs of one host (``sources_multi``): strong scaling at one size.

    python3 scripts/multi_sources_bench.py [--n 65536] [--gpus 1 2 4] [--codes tuned_frontier] [--out DIR]

Graphs (labelled as what they are, stand-ins for road networks, not road networks): a random geometric graph
(``random_graphs.geometric``, n points of the unit square, the 3n closest pairs joined both ways, integer weights
by length) and the 2-D grid of the structure suite.  Per code and GPU count, one call of ``sources_multi`` (every
source, the n x n int32 result on the host): the slowest rank's kernel time (CUDA events) and wall clock, the
call's wall clock (processes started, result on the host).  A warm-up call on a small graph first.  Verified: the
whole result's Fletcher-64 equal across GPU counts, and ``--rows`` sampled rows equal to scipy's Dijkstra.  A
benchmark: it reports; nothing here is a pass mark.  Writes ``multi-sources-bench.csv`` and its provenance.

``--on-device``: tuned_frontier's rows left on each GPU instead (no host result), so the kernels are timed without
a host absorbing the rows as they stream out (which bounds the host-result runs); ``--rows`` sampled rows of every
rank checked against scipy's Dijkstra.  Writes ``multi-sources-on-device.csv`` row by row."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from apsp_kernels.algorithms.gpu.multi import launch
from apsp_kernels.algorithms.gpu.multi.sources import sources_multi
from apsp_kernels import gpu_device
from apsp_kernels.core import random_graphs, structure_graphs
from apsp_kernels.core.verify import fletcher64
from apsp_kernels.measure import provenance


def sampled_rows_agree(g, d, rows, seed):
    """``rows`` random rows of ``d`` against scipy's Dijkstra (INF where scipy says inf)."""
    import scipy.sparse.csgraph as csg
    from apsp_kernels.core.distances import from_scipy
    pick = np.random.default_rng(seed).choice(g.n, size=min(rows, g.n), replace=False)
    want = from_scipy(csg.dijkstra(g.to_scipy(), directed=True, indices=pick))
    return bool(np.array_equal(d[pick], want))


def rows_on_device(ctx, g, src, bounds, sample, seed):
    """One rank of ``--on-device``: tuned_frontier's rows of its chunk of ``src`` left on its GPU (no host result);
    returns its kernel time and ``sample`` of its rows (global row numbers, finished) for the scipy check."""
    from apsp_kernels.algorithms.gpu.resident import finish
    from apsp_kernels.algorithms.gpu.tuned.frontier import tuned_frontier_resident
    a, b = bounds[ctx.rank]
    if b <= a:
        return dict(rank=ctx.rank, kernel_ms=0.0, picked=[], rows=None)
    D, t = tuned_frontier_resident(g, sources=src[a:b])
    pick = np.sort(np.random.default_rng(seed + ctx.rank).choice(b - a, size=min(sample, b - a), replace=False))
    R = D[pick].copy()
    finish(R, square=False)
    got = R.get()
    del D, R
    return dict(rank=ctx.rank, kernel_ms=float(t["kernel_ms"]), picked=(src[a:b][pick]).tolist(), rows=got)


def on_device(g, P, sample, seed, timeout_s):
    """tuned_frontier's sources split over P GPUs, every rank's rows left on its device: the kernels alone, with
    no host result to absorb them; (slowest rank's kernel ms, per rank, every sampled row equal to scipy's)."""
    import scipy.sparse.csgraph as csg
    from apsp_kernels.algorithms.gpu.multi.sources import split
    from apsp_kernels.core.distances import from_scipy
    src = np.arange(g.n, dtype=np.int64)
    values = launch.spawn(P, rows_on_device, (g, src, split(src.size, P), sample, seed), use_nccl=False,
                          timeout_s=timeout_s)
    ok = True
    for v in values:
        if v["picked"]:
            want = from_scipy(csg.dijkstra(g.to_scipy(), directed=True, indices=np.asarray(v["picked"])))
            ok = ok and bool(np.array_equal(v["rows"], want))
    per = [v["kernel_ms"] for v in values]
    return max(per), per, ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=65536)
    ap.add_argument("--gpus", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--codes", nargs="+", default=["tuned_frontier"])
    ap.add_argument("--graphs", nargs="+", default=["geometric", "grid"])
    ap.add_argument("--rows", type=int, default=16)
    ap.add_argument("--timeout-s", type=float, default=300)
    ap.add_argument("--out", default=".")
    ap.add_argument("--on-device", action="store_true", help="tuned_frontier's rows left on each GPU (no host "
                    "result): the kernels alone, each rank's rows sampled against scipy")
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    prov = provenance.collect("multi_sources_bench", vars(a))
    prov.update(gpus_on_host=gpu_device.device_count(), nccl=launch.nccl_version())    # the host's, beside the GPU's
    make = {"geometric": lambda n: random_graphs.geometric(n, 3 * n, seed=n),
            "grid": lambda n: structure_graphs.grid(n, seed=n)}
    rows = []
    if a.on_device:
        return device_only(a, make, out, prov)
    for code in a.codes:
        sources_multi(structure_graphs.grid(1024), code, n_gpus=max(a.gpus), timeout_s=a.timeout_s)   # warm-up
        for gname in a.graphs:
            g = make[gname](a.n)
            first = None
            for P in a.gpus:
                t0 = time.perf_counter()
                d, t = sources_multi(g, code, n_gpus=P, timeout_s=a.timeout_s)
                call_ms = (time.perf_counter() - t0) * 1e3
                c = fletcher64(d)
                first = c if first is None else first
                ok = c == first and (P != a.gpus[0] or sampled_rows_agree(g, d, a.rows, a.n))
                del d
                rows.append(dict(code=code, graph=gname, n=g.n, m=g.m, n_gpus=P, kernel_ms=t["kernel_ms"],
                                 wall_ms=t["wall_ms"], call_ms=call_ms,
                                 kernel_ms_per_rank=json.dumps([round(x, 2) for x in t["kernel_ms_per_rank"]]),
                                 checksum=f"{c:016x}", verified=bool(ok),
                                 checked_against="scipy rows" if P == a.gpus[0] else f"{a.gpus[0]} GPU result"))
                print(f"{code} {gname} n={g.n} P={P}: kernel {t['kernel_ms'] / 1e3:.2f} s, rank wall "
                      f"{t['wall_ms'] / 1e3:.2f} s, call {call_ms / 1e3:.2f} s, verified={ok}", flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(out / "multi-sources-bench.csv", index=False)
    (out / "multi-sources-bench.provenance.json").write_text(json.dumps(prov, indent=1, default=str))
    for (code, gname), t in df.groupby(["code", "graph"]):
        one = t[t.n_gpus == t.n_gpus.min()].kernel_ms.iloc[0]
        print(f"{code} {gname}: " + ", ".join(f"P={p} {one / k:.2f}x" for p, k in zip(t.n_gpus, t.kernel_ms)))
    return 0 if df.verified.all() else 1


def device_only(a, make, out, prov):
    """``--on-device``: one row per graph and GPU count, written as it goes (multi-sources-on-device.csv)."""
    on_device(structure_graphs.grid(1024), max(a.gpus), 2, 0, a.timeout_s)                       # warm-up
    rows = []
    for gname in a.graphs:
        g = make[gname](a.n)
        for P in a.gpus:
            k, per, ok = on_device(g, P, a.rows, a.n, a.timeout_s)
            rows.append(dict(code="tuned_frontier", graph=gname, n=g.n, m=g.m, n_gpus=P, kernel_ms=k,
                             kernel_ms_per_rank=json.dumps([round(x, 2) for x in per]), result="left on each GPU",
                             verified=ok, checked_against=f"scipy rows ({a.rows} a rank)"))
            print(f"on device {gname} n={g.n} P={P}: kernel {k / 1e3:.3f} s, per rank "
                  f"{[round(x / 1e3, 3) for x in per]}, verified={ok}", flush=True)
            pd.DataFrame(rows).to_csv(out / "multi-sources-on-device.csv", index=False)
    (out / "multi-sources-on-device.provenance.json").write_text(json.dumps(prov, indent=1, default=str))
    df = pd.DataFrame(rows)
    for gname, t in df.groupby("graph"):
        one = t[t.n_gpus == t.n_gpus.min()].kernel_ms.iloc[0]
        print(f"on device {gname}: " + ", ".join(f"P={p} {one / k:.2f}x" for p, k in zip(t.n_gpus, t.kernel_ms)))
    return 0 if df.verified.all() else 1


if __name__ == "__main__":
    sys.exit(main())
