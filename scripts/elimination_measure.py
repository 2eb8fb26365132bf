"""Times elimination_cpu (supernodal min-plus elimination) beside scipy's Dijkstra and the project's all-core
Dijkstra on 2-D grids and k-nearest-neighbour geometric graphs, and prints the fill, supernode sizes and min-plus
operation counts of each graph's elimination; every result is checked against scipy's exactly.  Prints one
row per graph; writes nothing.

    python scripts/elimination_measure.py [--sizes 1000 4000 16000] [--leaf 32] [--bisector metis|metis-bisect|levels]
                                          [--roads] [--project 100000]

``--roads``: the bundled Helsinki road networks too.  ``--project N``: only the ordering and symbolic phase of an
N-vertex grid and kNN graph, and what their all-pairs solve needs: bytes of the factor and of the n x n int32
result, min-plus operations of each phase, and the time those take at the tuned kernels' H100 rate."""
from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.cpu import elimination as E
from apsp_kernels.algorithms.cpu.units import cpu_threads
from apsp_kernels.core import structure_graphs
from apsp_kernels.core.graph import INF, Graph

GRIDS = {1000: (40, 25), 4000: (80, 50), 16000: (160, 100), 100000: (400, 250)}
H100_ADDMIN = 14.5e12      # int32 add-min updates/s tuned_fw sustains on an H100 (docs/findings.md, n = 16,384)
H100_BYTES = 3.0e12        # bytes/s of H100 HBM3 a streaming kernel reaches (3.35 TB/s peak)


def grid(r, c, seed=0):
    rng = np.random.default_rng(seed)
    idx = np.arange(r * c).reshape(r, c)
    s = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    d = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    w = rng.integers(1, 1000, s.size)
    return sp.csr_matrix((np.concatenate([w, w]), (np.concatenate([s, d]), np.concatenate([d, s]))),
                         shape=(r * c, r * c))


def knn(n, k=6, seed=0):
    """The structure suite's road-like stand-in (:func:`apsp_kernels.core.structure_graphs.knn`: each point joined
    both ways to its k nearest, an edge its Euclidean length x 10^4) as a scipy matrix."""
    return structure_graphs.knn(n, k=k, seed=seed).to_scipy()


def timed(fn, *a, **k):
    t0 = time.perf_counter()
    out = fn(*a, **k)
    return out, time.perf_counter() - t0


def measure(name, a, leaf, bisector, others):
    g = Graph.from_scipy(a)
    ref, t_scipy = timed(csgraph.shortest_path, a, method="D")
    t0 = time.perf_counter()
    E.nested_dissection(g.to_scipy() if hasattr(g, "to_scipy") else a, leaf=leaf, bisector=bisector)   # timed alone
    t_order = time.perf_counter() - t0
    f, t_factor = timed(E.factor, g, leaf=leaf, bisector=bisector)
    d, t_rows = timed(E.all_pairs, f)
    ok = np.array_equal(np.where(d == INF, np.inf, d), ref)
    del d
    row = {"graph": name, "n": g.n, "m": g.m, "exact": ok, "scipy_D_s": t_scipy,
           "order_s": t_order, "factor_s": t_factor, "rows_s": t_rows, "elim_total_s": t_factor + t_rows}
    for o in others:
        dd, t = timed(registry.get(o).run, g)
        row[f"{o}_s"] = t
        row["exact"] &= bool(np.array_equal(np.where(dd[0] == INF, np.inf, dd[0]), ref))
        del dd
    st = f.stats()
    sizes = f.sym.sizes
    row.update(st)
    sep = np.zeros(sizes.size, bool)
    sep[f.sym.parent[f.sym.parent >= 0]] = True                       # a supernode with children is a separator
    row["leaves"] = (int((~sep).sum()), float(np.median(sizes[~sep])) if (~sep).any() else 0.0)     # count, median size
    row["separators"] = (int(sep.sum()), float(np.median(sizes[sep])) if sep.any() else 0.0,
                         sorted(sizes[sep].tolist())[-3:])                                # count, median, largest three
    row["rows_ops_total"] = st["upward_ops_all_rows"] + g.n * st["downward_ops_per_row"]
    row["rows_Gops_per_s"] = row["rows_ops_total"] / t_rows / 1e9
    return row


def project(name, a, leaf, bisector):
    """Symbolic facts of a graph too large to solve here, and what its all-pairs solve would need."""
    t0 = time.perf_counter()
    order = E.nested_dissection(a, leaf=leaf, bisector=bisector)
    t1 = time.perf_counter()
    sym = E.symbolic(order, E.symmetric_pattern(a))
    t2 = time.perf_counter()
    st = sym.stats(E.symmetric_pattern(a).nnz // 2)
    n = st["n"]
    rows = st["upward_ops_all_rows"] + n * st["downward_ops_per_row"]
    return {"graph": name, "n": n, "bisector": order.bisector, "order_s": round(t1 - t0, 3),
            "symbolic_s": round(t2 - t1, 3), "supernodes": st["supernodes"], "stored_entries": st["stored_entries"],
            "useful_ops": st["elimination_ops"] + rows,
            "largest_supernode": st["largest_supernode"], "largest_front": st["largest_front"],
            "factor_GB": 4 * st["stored_entries"] / 1e9, "result_GB": 4.0 * n * n / 1e9,
            "elimination_Tops": st["elimination_ops"] / 1e12, "upward_Tops": st["upward_ops_all_rows"] / 1e12,
            "downward_Tops": n * st["downward_ops_per_row"] / 1e12,
            "h100_s_at_addmin_rate": (st["elimination_ops"] + rows) / H100_ADDMIN,
            # the downward sweep over all n sources: each supernode reads its structure's rows of the n x n
            # result and reads and writes its own (no reuse across supernodes assumed)
            "downward_traffic_GB": 4.0 * n * float((sym.fronts + 2 * sym.sizes).sum()) / 1e9,
            "downward_traffic_s": 4.0 * n * float((sym.fronts + 2 * sym.sizes).sum()) / H100_BYTES,
            "median_supernode": float(np.median(sym.sizes)), "sum_front": int(sym.fronts.sum())}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[1000, 4000, 16000])
    ap.add_argument("--leaf", type=int, default=32)
    ap.add_argument("--bisector", default=None, choices=E.BISECTORS)
    ap.add_argument("--others", nargs="*", default=["dijkstra_cpu_parallel"])
    ap.add_argument("--roads", action="store_true")
    ap.add_argument("--project", type=int, nargs="*", default=[])
    args = ap.parse_args()
    if args.project:
        E.nested_dissection(grid(8, 8), bisector=args.bisector)           # compile (numba caches it)
        for n in args.project:
            for name, a in ((f"grid {GRIDS[n][0]}x{GRIDS[n][1]}", grid(*GRIDS[n])), (f"knn6 {n}", knn(n)),
                            (f"knn3 {n}", knn(n, 3))):
                r = project(name, a, args.leaf, args.bisector)
                print({k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()}, flush=True)
        return
    print(f"# {cpu_threads()} numba threads; bisector {args.bisector or E.default_bisector()}; leaf {args.leaf}")
    E.all_pairs(E.factor(grid(8, 8), leaf=4))                           # compile (numba caches it)
    for o in args.others:
        registry.get(o).run(Graph.from_scipy(grid(8, 8)))
    if args.roads:
        from apsp_kernels.io import roads
        for name in roads.BUNDLED:
            r = measure(name, roads.load(name).to_scipy(), args.leaf, args.bisector, args.others)
            print({k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()}, flush=True)
    for n in args.sizes:
        for name, a in ((f"grid {GRIDS[n][0]}x{GRIDS[n][1]}", grid(*GRIDS[n])), (f"knn6 {n}", knn(n))):
            r = measure(name, a, args.leaf, args.bisector, args.others)
            print({k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()}, flush=True)


if __name__ == "__main__":
    main()
