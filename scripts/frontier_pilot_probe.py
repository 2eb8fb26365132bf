"""Whether a short timed pilot of ``tuned_frontier`` predicts its all-pairs time: on each graph, tuned_frontier's
rows of k evenly spaced sources (``indices=``, left on the device) timed for a few k, beside its all-pairs call
and the elimination's (both left on the device), and the CPU count of its relaxations that auto reads now
(:mod:`apsp_kernels.core.frontier_work`).  An exploration for ``method="auto"``: the count misses where
tuned_frontier's rate per relaxation differs between classes (king grids and kNN corridors of one count).

    python3 scripts/frontier_pilot_probe.py --graphs corridor-12:10500 grid8-40:12000 --pilots 256 1024 --out DIR

Writes ``pilot.csv`` (one row per graph: the median ms of ``--repeats`` warm calls of each; ``pilot_<k>_ms``,
its extrapolation ``pilot_<k>_x_n_over_k``; the count and its CPU ms) with provenance.  Each all-pairs result
is checked against the graph's reference checksum, each pilot's rows against the all-pairs rows."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", required=True)
    ap.add_argument("--pilots", type=int, nargs="+", default=[256, 1024])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    from apsp_kernels.elimination_choice import refuse_unmeasured_ordering
    refuse_unmeasured_ordering(ap)
    import pandas as pd
    from apsp_kernels import api, gpu_device
    from apsp_kernels.algorithms.reference import reference_checksum
    from apsp_kernels.core import frontier_work as FW
    from apsp_kernels.io import suite_graphs as SG
    from apsp_kernels.measure import provenance, wall
    from apsp_kernels.structure_suite import matches
    gpu_device.require_gpu()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    provenance.write_invocation(out / "pilot.provenance.json", provenance.collect("frontier-pilot", vars(a)))
    timed = lambda fn: wall.median_ms(fn, a.repeats, warm=True, drop=True)    # warm, each call alone
    rows = []
    for spec in a.graphs:
        name, n = SG.spec(spec)
        g = SG.make(name, n, seed=n)
        row = dict(graph=name, n=g.n, m=g.m)
        full_ms, full = timed(lambda: api.shortest_paths(g, method="tuned_frontier", device=True, dtype=np.int32))
        if not matches(full, reference_checksum(g)):
            raise SystemExit(f"tuned_frontier on {spec}: result differs from the reference")
        row["frontier_ms"] = full_ms
        elim_ms, d = timed(lambda: api.shortest_paths(g, method="tuned_elimination", device=True, dtype=np.int32))
        if not bool((d == full).all()):
            raise SystemExit(f"tuned_elimination on {spec}: result differs from tuned_frontier's")
        del d
        row["elimination_ms"] = elim_ms
        for k in a.pilots:
            src = np.unique(np.linspace(0, g.n - 1, min(k, g.n)).astype(np.int64))
            ms, rows_k = timed(lambda: api.shortest_paths(g, method="tuned_frontier", indices=src, device=True,
                                                          dtype=np.int32))
            import cupy as cp
            if not bool((rows_k == full[cp.asarray(src)]).all()):
                raise SystemExit(f"tuned_frontier's pilot of {k} rows on {spec} differs from its all-pairs rows")
            del rows_k
            row[f"pilot_{k}_ms"] = ms
            row[f"pilot_{k}_x_n_over_k"] = ms * g.n / src.size
        del full
        t0 = time.perf_counter()
        row["count"] = FW.relaxations_per_edge(g, 4)
        row["count_cpu_ms"] = (time.perf_counter() - t0) * 1e3
        rows.append(row)
        print(", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()), flush=True)
        pd.DataFrame(rows).to_csv(out / "pilot.csv", index=False)
    df = pd.DataFrame(rows)
    with pd.option_context("display.width", 220):
        cols = ["graph", "n", "count", "frontier_ms", "elimination_ms"] + [
            c for k in a.pilots for c in (f"pilot_{k}_ms", f"pilot_{k}_x_n_over_k")]
        print(df[cols].round(2).to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
