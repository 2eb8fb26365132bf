"""Does ``shortest_paths(method="auto")`` pick the fastest verified code?  (the tuned line's target 5; on the device)

    python3 scripts/auto_check.py [--out DIR]

For graphs of several densities (generated: Kemp's generator at degree ~4 to ~64, a complete graph, negative
edges), every GPU code ``api.choose`` ranks is timed here (kernel time by CUDA events, median of 3 after a warm-up
solve, every result checked against the graph's reference), beside the time ``costs.predict`` gave it from the
benchmark rows (this machine's data/results/benchmarks first, then the recorded ones: run the benchmark at
several densities first, ``bench --degrees 4 16 64 --tag costs``); then auto's pick against the fastest measured.  A check of the model, not a benchmark
row: it writes ``auto_check.csv``."""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from apsp_kernels import api, costs, reference_apsp
from apsp_kernels.measure import harness
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.reference import reference_checksum
from apsp_kernels.core import generators as G

CASES = [("degree ~4", lambda: G.kemp(4096, 2, 6, seed=1)), ("degree ~8", lambda: G.kemp(4096, 6, 10, seed=2)),
         ("degree ~16", lambda: G.kemp(4096, 14, 18, seed=3)), ("degree ~64", lambda: G.kemp(4096, 62, 66, seed=4)),
         ("degree ~4", lambda: G.kemp(16384, 2, 6, seed=5)), ("complete", lambda: G.complete(2048, seed=6)),
         ("negative edges, degree ~4", lambda: G.with_potential(G.kemp(4096, 2, 6, seed=7), scale=20, seed=7))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    from apsp_kernels.elimination_choice import refuse_unmeasured_ordering
    refuse_unmeasured_ordering(ap)
    rows = []
    for what, make in CASES:
        g = make()
        choice = api.choose(g)
        ref = reference_apsp(g) if g.has_negative else reference_checksum(g)     # Dijkstra's needs w >= 0
        gpu = [al for al in registry.auto_candidates() if al.device == "gpu" and al.forced_params is None
               and (al.negative_weights or not g.has_negative)]
        for al in gpu:
            p = costs.predict(al, g)
            variant = p.variant if p is not None else None
            recs = harness.measure(al, g, variant=variant, repeats=3, warmup=1, reference=ref)
            ok = bool(recs) and all(r.get("verified") is True for r in recs)
            ms = float(np.median([r["kernel_ms"] for r in recs])) if ok else float("nan")
            rows.append(dict(graph=what, n=g.n, m=g.m, code=al.name + ("" if variant is None else f"/{variant}"),
                             predicted_ms=p.ms if p is not None else float("nan"), measured_ms=ms, verified=ok,
                             picked=al.name == choice.algorithm.name))
            print(f"{what:28s} n={g.n:6d} m={g.m:9d} {rows[-1]['code']:18s} predicted {rows[-1]['predicted_ms']:10.2f} ms "
                  f"measured {ms:10.2f} ms verified={ok}{'  <- auto' if rows[-1]['picked'] else ''}", flush=True)
    df = pd.DataFrame(rows)
    Path(a.out).mkdir(parents=True, exist_ok=True)
    df.to_csv(Path(a.out) / "auto_check.csv", index=False)
    print("\ngraph, auto's pick, its measured time / the fastest verified code's:")
    for (what, n), t in df.groupby(["graph", "n"], sort=False):
        t = t[t.verified]
        best = t.loc[t.measured_ms.idxmin()]
        pick = t[t.picked]
        r = float(pick.measured_ms.iloc[0] / best.measured_ms) if len(pick) else float("nan")
        print(f"  {what:28s} n={n:6d}: auto {pick.code.iloc[0] if len(pick) else '-':18s} fastest {best.code:18s} "
              f"ratio {r:.2f}")


if __name__ == "__main__":
    main()
