"""What ``method="auto"``'s choice costs on a graph it has not seen: ``choose`` timed on new graph objects (the
probe, the hub BFS, the frontier-work count and the lookups all made again), one result asked for a call, and the
frontier-work count alone.

    python3 scripts/choice_cost.py --graphs delaunay:16384 knn:15000 ... [--reps 3] [--out DIR]

Each graph is made ``--reps`` times (not timed); on each new object ``choose(g, result=...)`` is timed for one
result, a new object a result, with the GPU named as present (``free_bytes`` of an H200, as the held-out checks'
predictions), so the choice is the device's whatever this machine has.  The numba codes are compiled (or loaded
from their cache) on a small graph first.  Writes ``choice_cost.csv`` (graph, n, m, result, pick, choose_ms,
count_ms per rep) and its provenance, and prints each graph's median per result."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

H200 = dict(gpu=True, free_bytes=140e9)


def timed(f):
    t0 = time.perf_counter()
    got = f()
    return got, (time.perf_counter() - t0) * 1e3


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", required=True, help="name:n, the suite's graphs")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    from apsp_kernels.elimination_choice import refuse_unmeasured_ordering
    refuse_unmeasured_ordering(ap)
    import pandas as pd
    from apsp_kernels import choice
    from apsp_kernels.core import frontier_work
    from apsp_kernels.io import suite_graphs as SG
    from apsp_kernels.measure import provenance
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    provenance.write_invocation(out / "choice_cost.provenance.json", provenance.collect("choice-cost", vars(a)))
    warm = SG.make("delaunay", 12000, seed=1)                      # compiles or loads every numba code auto calls
    for r in ("host", "int32", "device"):
        choice.choose(warm, result=r, **H200)
    frontier_work.relaxations_per_edge(warm)
    rows = []
    for spec in a.graphs:
        name, n = SG.spec(spec)
        for rep in range(a.reps):
            for res in ("host", "int32", "device"):
                g = SG.make(name, n, seed=n)
                pick, ms = timed(lambda: choice.choose(g, result=res, **H200).algorithm.name)
                fresh = SG.make(name, n, seed=n)
                _, count_ms = timed(lambda: frontier_work.relaxations_per_edge(fresh))
                rows.append(dict(graph=name, n=g.n, m=g.m, result=res, rep=rep, pick=pick, choose_ms=ms,
                                 count_ms=count_ms))
        pd.DataFrame(rows).to_csv(out / "choice_cost.csv", index=False)
    t = pd.DataFrame(rows)
    print(t.groupby(["graph", "n", "result", "pick"], sort=False)[["choose_ms", "count_ms"]].median().round(1)
          .to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
