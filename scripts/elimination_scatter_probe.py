"""Where the scatter of tuned_elimination's end-to-end time comes from (its shortest_paths calls in one process
differed by 0.54-1.55x at median of 3): a diagnostic, not a benchmark.  Needs a GPU.

    python scripts/elimination_scatter_probe.py [--graph grid|knn|path|ring|lollipop] [--n 47961] [--rounds 8]
                                                [--out CSV]

One graph; ``--rounds`` rounds, interleaved (not one code's calls in a block); each round, in turn:
* ``shortest_paths(g, method=<elimination>, device=True)`` (float64, as the auto check timed it): the wall clock
  between two device synchronisations;
* the elimination's resident launcher called directly: its wall clock and its own split (host ordering, symbolic,
  plan; ``h2d_ms``: the factor's upload and the n x N working matrix allocated and filled; kernel by CUDA events;
  the permutation);
* tuned_frontier's same shortest_paths call, so that another code's allocations come between.
Rounds 0, 2, 4, ... keep CuPy's memory pool as a user's process does; rounds 1, 3, 5, ... empty it before every call,
so that every allocation is a cudaMalloc.  Every result's sampled rows are checked against scipy's Dijkstra.  Prints, per
quantity and pool setting, the median, the least, the most and most / least; ``--out`` writes one row a call."""
from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from scipy.sparse import csgraph

from elimination_gpu_measure import agrees, graphs       # this folder (the script is run as a file)

import apsp_kernels as ak
from apsp_kernels.algorithms import registry
from apsp_kernels.core.distances import from_scipy
from apsp_kernels.measure import wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graph", default="grid", choices=["grid", "knn", "path", "ring", "lollipop"])
    ap.add_argument("--n", type=int, default=47961)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--out")
    a = ap.parse_args()
    from apsp_kernels.elimination_choice import refuse_unmeasured_ordering
    refuse_unmeasured_ordering(ap)
    import cupy as cp
    pool = cp.get_default_memory_pool()
    name, g = next(graphs([a.n], [a.graph]))
    elim, other = registry.by_role("auto_small_separators"), registry.by_role("auto_frontier")
    rows = np.linspace(0, g.n - 1, 16).astype(np.int64)
    ref = from_scipy(csgraph.dijkstra(g.to_scipy(), indices=rows))
    calls = {
        "elimination shortest_paths": lambda: ak.shortest_paths(g, method=elim.name, device=True),
        "elimination resident": lambda: elim.run_resident(g),
        "frontier shortest_paths": lambda: ak.shortest_paths(g, method=other.name, device=True),
    }
    for fn in calls.values():                                  # compiled, loaded, the hub BFS remembered
        fn()
    recs = []
    for r in range(a.rounds):
        empty = r % 2 == 1
        for what, fn in calls.items():
            if empty:
                pool.free_all_blocks()
            held = pool.total_bytes()
            ms, out = wall.median_ms(fn, 1, gpu=True)            # one call between two synchronisations
            d, t = out if isinstance(out, tuple) else (out, {})
            ok = agrees(d, rows, ref)
            del d, out
            recs.append(dict(graph=name, n=g.n, round=r, pool="emptied" if empty else "kept", call=what, wall_ms=ms,
                             pool_held_gb=held / 1e9, exact=ok,
                             **{k: v for k, v in t.items() if k.endswith("_ms")}))
            print(f"round {r} ({recs[-1]['pool']:7s}) {what:28s} {ms:8.1f} ms  pool held {held / 1e9:5.1f} GB  "
                  + "  ".join(f"{k} {v:.1f}" for k, v in t.items() if k.endswith("_ms")) + f"  exact={ok}", flush=True)
    df = pd.DataFrame(recs)
    if a.out:
        df.to_csv(a.out, index=False)
    cols = ["wall_ms"] + [c for c in ("order_ms", "symbolic_ms", "plan_ms", "h2d_ms", "kernel_ms", "permute_ms")
                          if c in df]
    long = df.melt(id_vars=["pool", "call"], value_vars=cols, var_name="quantity", value_name="ms").dropna()
    s = long.groupby(["call", "quantity", "pool"])["ms"].agg(["median", "min", "max"])
    s["max/min"] = s["max"] / s["min"]
    with pd.option_context("display.width", 160, "display.float_format", "{:.2f}".format):
        print(s.to_string())
    print(f"every result exact on {rows.size} rows: {bool(df.exact.all())}")
    return 0 if df.exact.all() else 1


if __name__ == "__main__":
    raise SystemExit(main())
