"""tuned_frontier with and without its heavy-vertex path, paired in one process: the kernel as built (a vertex of
out-degree >= TFR_HEAVY relaxed by the whole block, a round later) against the same source compiled with TFR_HEAVY
beyond any degree (every vertex walked by the thread that found its bit), on the structure suite's graphs.

    python3 scripts/frontier_heavy_probe.py --graphs ba:4096 hub:4096 kemp:16384 --rounds 5 --out DIR

Each variant's first call on a graph is checked against the graph's reference checksum and not timed; then
``--rounds`` rounds, the two variants' order alternating from round to round.  A row per call: the kernel's span
(CUDA events, ``kernel_ms``), the rounds the slowest source ran, the largest out-degree.  Writes
``frontier_heavy.csv`` and its provenance; prints per graph the median kernel ms of each variant and their ratio."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

OFF = 1 << 30                   # TFR_HEAVY beyond any out-degree: the heavy path never taken


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", required=True, help="name:n of the structure suite (helsinki-drive:0)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    import pandas as pd
    from apsp_kernels import gpu_device
    from apsp_kernels.algorithms.gpu.tuned import frontier
    from apsp_kernels.algorithms.reference import reference_checksum
    from apsp_kernels.io import suite_graphs as SG
    from apsp_kernels.measure import provenance
    from apsp_kernels.structure_suite import matches
    cp = gpu_device.require_gpu()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    provenance.write_invocation(out / "frontier_heavy.provenance.json",
                                provenance.collect("frontier-heavy", dict(vars(a), off=OFF)))
    built = frontier.kernel_for
    variants = {"heavy": built, "off": lambda dtype, defines=(): built(dtype, (("TFR_HEAVY", OFF),))}
    rows = []
    for spec in a.graphs:
        name, n = SG.spec(spec)
        n = n or None
        g = SG.make(name, n, seed=n or 0)
        ref = reference_checksum(g)
        deg = int(np.diff(g.indptr).max()) if g.n else 0
        print(f"{name} n={g.n} m={g.m} max out-degree {deg}", flush=True)

        def solve(v, host=False):
            frontier.kernel_for = variants[v]
            try:
                return frontier.tuned_frontier(g) if host else frontier.tuned_frontier_resident(g)
            finally:
                frontier.kernel_for = built
        for v in variants:
            D, _ = solve(v, host=True)                  # int32 on the host, INF normalised
            if not matches(D, ref):
                raise SystemExit(f"tuned_frontier ({v}) on {name} {g.n}: result differs from the reference")
            del D
        for r in range(a.rounds):
            for v in (list(variants) if r % 2 == 0 else list(variants)[::-1]):
                D, t = solve(v)
                cp.cuda.Device().synchronize()
                del D
                rows.append(dict(graph=name, n=g.n, m=g.m, max_out_degree=deg, variant=v, round=r,
                                 kernel_ms=t["kernel_ms"], rounds_max=t["rounds_max"], threads=t["threads"]))
        pd.DataFrame(rows).to_csv(out / "frontier_heavy.csv", index=False)
    df = pd.DataFrame(rows)
    s = df.pivot_table(index=["graph", "n", "max_out_degree"], columns="variant", values="kernel_ms",
                       aggfunc="median", sort=False)
    s["heavy_over_off"] = s["heavy"] / s["off"]
    with pd.option_context("display.width", 200):
        print(s.round(3).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
