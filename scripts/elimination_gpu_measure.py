"""Times tuned_elimination (the GPU port of elimination_cpu, docs/elimination.md) on 2-D grids and kNN geometric
graphs, its three phases apart, beside tuned_frontier (the project's sparse GPU code), each result checked against
tuned_frontier's exactly (or scipy's with --scipy).  Prints one row per graph; writes nothing.  Needs a GPU.

    python scripts/elimination_gpu_measure.py [--sizes 4000 16000] [--leaf 32] [--repeats 3] [--scipy]
                                              [--no-frontier] [--unbatched] [--sample K]

--sample K: every pair is still computed on the device, but only K evenly spaced rows come back, each checked
against scipy's Dijkstra (the whole n x n result stays on the device: the size a road user's OD matrix has).

Columns: host ordering and symbolic ms; kernel ms (the least of the repeats, CUDA events around every launch) and
its split (elimination, upward, downward: events between the phases, from a separate run); the min-plus operations
the three phases do (symbolic.stats: useful ones, the masked rows of narrow supernodes not counted) over the kernel
time; tuned_frontier's kernel ms on the same graph."""
from __future__ import annotations

import argparse
import math
import time

import numpy as np
from scipy.sparse import csgraph

from elimination_measure import GRIDS, grid, knn       # this folder (the script is run as a file)

from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu.tuned import elimination as TE
from apsp_kernels.core.distances import from_scipy
from apsp_kernels.core.graph import Graph


def graphs(sizes):
    for n in sizes:
        r, c = GRIDS.get(n, (int(math.sqrt(n)), n // int(math.sqrt(n))))
        yield f"grid {r} x {c}", Graph.from_scipy(grid(r, c))
        yield f"kNN6 {n}", Graph.from_scipy(knn(n))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[4000, 16000])
    ap.add_argument("--leaf", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--scipy", action="store_true", help="check against scipy (slow at 16,000) too")
    ap.add_argument("--no-frontier", action="store_true")
    ap.add_argument("--unbatched", action="store_true", help="one supernode a launch")
    ap.add_argument("--sample", type=int, default=0, help="bring back K rows only, checked against scipy's")
    a = ap.parse_args()
    batch = not a.unbatched
    frontier = registry.get("tuned_frontier")
    print("graph | n | supernodes | launches | order ms | symbolic ms | kernel ms | elim / up / down ms | "
          "useful Gops | T ops/s | d2h ms | total ms | tuned_frontier kernel ms | equal")
    for name, g in graphs(a.sizes):
        rows = np.linspace(0, g.n - 1, a.sample).astype(np.int64) if a.sample else None
        TE.tuned_elimination(g, leaf=a.leaf, batch=batch, sources=rows)    # compile and warm up
        best = None
        for _ in range(max(a.repeats, 1)):
            t0 = time.perf_counter()
            d, t = TE.tuned_elimination(g, leaf=a.leaf, batch=batch, sources=rows)
            t["total_ms"] = (time.perf_counter() - t0) * 1e3
            if best is None or t["kernel_ms"] < best["kernel_ms"]:
                best = t
        _, tp = TE.tuned_elimination(g, leaf=a.leaf, batch=batch, phases=True, sources=rows)
        st = TE.prepare(g, leaf=a.leaf).sym.stats(0)
        ops = st["elimination_ops"] + st["upward_ops_all_rows"] + g.n * st["downward_ops_per_row"]
        equal, fms = [], float("nan")
        if rows is not None:
            ref = csgraph.dijkstra(g.to_scipy(), indices=rows)
            equal.append(np.array_equal(d, from_scipy(ref)))
        if not a.no_frontier and rows is None:
            frontier.run(g)                                                 # warm up
            df, tf = frontier.run(g)
            fms = tf["kernel_ms"]
            equal.append(np.array_equal(d, df))
        if a.scipy:
            equal.append(np.array_equal(d, from_scipy(csgraph.shortest_path(g.to_scipy(), method="D"))))
        print(f"{name} | {g.n} | {best['supernodes']} | {best['launches']} | {best['order_ms']:.0f} | "
              f"{best['symbolic_ms']:.0f} | {best['kernel_ms']:.2f} | {tp['elimination_ms']:.2f} / "
              f"{tp['upward_ms']:.2f} / {tp['downward_ms']:.2f} | {ops / 1e9:.2f} | "
              f"{ops / max(best['kernel_ms'] * 1e-3, 1e-12) / 1e12:.3f} | {best['d2h_ms']:.1f} | {best['total_ms']:.0f} | {fms:.2f} | "
              f"{all(equal) if equal else 'unchecked'}", flush=True)


if __name__ == "__main__":
    main()
