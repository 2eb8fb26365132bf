"""Times tuned_elimination (the GPU port of elimination_cpu, docs/elimination.md) on 2-D grids and kNN geometric
graphs, its three phases apart, beside tuned_frontier (the project's sparse GPU code; --against tuned_deep: the deep
graphs' code), each result checked against that code's exactly (or scipy's with --scipy).  Prints one row per graph
(--out: a CSV too).  Needs a GPU.

    python scripts/elimination_gpu_measure.py [--sizes 4000 16000] [--graphs grid knn] [--leaf 32] [--repeats 3]
                                              [--scipy] [--against CODE | --alone] [--unbatched] [--sample K]
                                              [--e2e] [--auto] [--out CSV]

--graphs: the classes (default grid knn: the 2-D grid and the k-nearest-neighbour geometric graph, the rows auto's
crossing is learned from); also path, ring, lollipop (the structure suite's, io/suite_graphs: the deep graphs, whose
crossing with tuned_deep, ``--graphs path ring lollipop --against tuned_deep --e2e``, auto learns from too).

--sample K: every pair is still computed on the device, but only K evenly spaced rows come back, each checked
against scipy's Dijkstra (the whole n x n result stays on the device: the size a road user's OD matrix has).

--out CSV: the rows also as a CSV (rewritten after every graph) with its provenance beside it.

Columns: host ordering and symbolic ms; kernel ms (the least of the repeats, CUDA events around every launch) and
its split (elimination, upward, downward: events between the phases, from a separate run); the min-plus operations
the three phases do (symbolic.stats: useful ones, the masked rows of narrow supernodes not counted) over the kernel
time; the --against code's kernel ms on the same graph (``<code>_kernel_ms``; not with --sample).

--e2e: also the solver's end-to-end calls, as a user makes them: ``shortest_paths(g, method="tuned_elimination")``
(the float64 result on the host: tuned_elimination's resident form, converted on the device, one copy through the
reused page-locked staging buffers; the registry's default leaf, not --leaf) and the same call with ``device=True``
(the result left on the GPU as a CuPy array), beside the --against code's same two calls (not with --alone).  Each
call warm (made once first), timed by the wall clock between two device synchronisations, the median of --repeats;
each result checked against scipy's Dijkstra: every row up to E2E_FULL_CHECK vertices, else E2E_ROWS evenly spaced
rows (the --sample rows where given).  Above E2E_HOST_MAX vertices the host result is skipped (at 100,000 an
80 GB float64 matrix, which shortest_paths counts as 120 GB of host memory with the int32 result) and device=True
is timed with dtype=np.int32 (40 GB at 100,000 beside the 40 GB vertex-major working matrix; float64 would add an
80 GB copy on the device and the same 120 GB host-memory check).  Extra columns: e2e host ms, e2e device ms (its
dtype), the --against code's two, and whether every checked result was exact.

--auto (with --e2e): ``method="auto"``'s same two calls beside them, and what it picked for each (``api.choose`` with
``result="host"`` and ``"device"``, as shortest_paths asks it): columns auto e2e host ms, auto e2e device ms and
the picks.  The choice is made in every call (its hub BFS remembered for the graph object after the first)."""
from __future__ import annotations

import argparse
import math
import time

import numpy as np
from scipy.sparse import csgraph

from elimination_measure import GRIDS, grid, knn       # this folder (the script is run as a file)

import apsp_kernels as ak
from apsp_kernels import choice
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu.tuned import elimination as TE
from apsp_kernels.core.distances import from_scipy
from apsp_kernels.core.graph import INF, Graph
from apsp_kernels.measure import wall

E2E_HOST_MAX = 50_000       # above: no host result in --e2e (the n x n float64 result, 20 GB at 50,000)
E2E_FULL_CHECK = 5_000      # up to: every row of an --e2e result against scipy's; above, E2E_ROWS rows
E2E_ROWS = 64


def graphs(sizes, classes=("grid", "knn")):
    from apsp_kernels.io import suite_graphs as SG
    for n in sizes:
        for cls in classes:
            if cls == "grid":
                r, c = GRIDS.get(n, (int(math.sqrt(n)), n // int(math.sqrt(n))))
                yield f"grid {r} x {c}", Graph.from_scipy(grid(r, c))
            elif cls == "knn":
                yield f"kNN6 {n}", Graph.from_scipy(knn(n))
            else:
                yield f"{cls} {n}", SG.make(cls, n, seed=n)


def e2e_rows(n, sample_rows=None):
    """The rows an --e2e result is checked on: the --sample rows where given, every row (None) up to
    E2E_FULL_CHECK vertices, else E2E_ROWS evenly spaced ones."""
    if sample_rows is not None:
        return np.asarray(sample_rows, np.int64)
    return None if n <= E2E_FULL_CHECK else np.linspace(0, n - 1, min(E2E_ROWS, n)).astype(np.int64)


def agrees(d, rows, ref):
    """Whether the result ``d`` (numpy or CuPy; float with inf, or int32 with INF, for no path) holds ``ref``
    (int32, INF: no path, scipy's rows ``rows``, or all of them where None) exactly, in d's own dtype."""
    if rows is not None:
        d = d[rows] if isinstance(d, np.ndarray) else d[_device(rows)]
    d = d if isinstance(d, np.ndarray) else d.get()
    want = np.where(ref == INF, np.inf, ref.astype(np.float64)) if d.dtype.kind == "f" else ref
    return d.shape == want.shape and bool(np.array_equal(d, want.astype(d.dtype)))


def _device(a):
    import cupy as cp
    return cp.asarray(a)


def e2e(g, repeats, sample_rows, against=None, auto=False):
    """The --e2e columns of one graph: (text of the columns, every checked result exact, the same numbers for the
    CSV: ``<code>_e2e_host_ms`` (NaN where skipped), ``<code>_e2e_device_ms``, ``e2e_device_dtype``; with ``auto``
    also ``auto_host_pick`` and ``auto_device_pick``).  ``against``: the other code timed (a registry name), or
    None."""
    import cupy as cp
    cp.get_default_memory_pool().free_all_blocks()          # the launcher runs' cached blocks (40 GB at 100,000)
    rows = e2e_rows(g.n, sample_rows)
    ref = from_scipy(csgraph.dijkstra(g.to_scipy(), indices=np.arange(g.n) if rows is None else rows))
    host = g.n <= E2E_HOST_MAX
    dtype = np.float64 if host else np.int32
    cols, ok, nums = [], [], {"e2e_device_dtype": np.dtype(dtype).name}
    if auto:
        for res in ("host", "device"):
            nums[f"auto_{res}_pick"] = choice.choose(g, result=res).algorithm.name
    for method in ("tuned_elimination",) + ((against,) if against else ()) + (("auto",) if auto else ()):
        if host:
            ms, d = wall.median_ms(lambda: ak.shortest_paths(g, method=method), repeats, warm=True, drop=True,
                                   gpu=True)
            ok.append(isinstance(d, np.ndarray) and agrees(d, rows, ref))
            cols.append(f"{ms:.1f}")
            nums[f"{method}_e2e_host_ms"] = ms
            del d
        else:
            cols.append("skipped (n x n float64 on the host)")
            nums[f"{method}_e2e_host_ms"] = math.nan
        ms, d = wall.median_ms(lambda: ak.shortest_paths(g, method=method, device=True, dtype=dtype), repeats,
                               warm=True, drop=True, gpu=True)
        ok.append(not isinstance(d, np.ndarray) and d.dtype == dtype and agrees(d, rows, ref))
        cols.append(f"{ms:.1f} ({np.dtype(dtype).name})")
        nums[f"{method}_e2e_device_ms"] = ms
        del d
    if not against:
        cols[2:2] = ["-", "-"]
    if auto:
        cols[-2:] = [f"{c} [{nums[f'auto_{r}_pick']}]" for c, r in zip(cols[-2:], ("host", "device"))]
    return " | ".join(cols), all(ok), nums


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[4000, 16000])
    ap.add_argument("--graphs", nargs="+", default=["grid", "knn"], metavar="GRAPH",
                    help="grid, knn, or a structure-suite class (path, ring, lollipop, lollipop-256: io/suite_graphs)")
    ap.add_argument("--leaf", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--scipy", action="store_true", help="check against scipy (slow at 16,000) too")
    ap.add_argument("--against", default="tuned_frontier", choices=["tuned_frontier", "tuned_deep"],
                    help="the code timed beside it (default tuned_frontier)")
    ap.add_argument("--alone", action="store_true", help="no other code")
    ap.add_argument("--unbatched", action="store_true", help="one supernode a launch")
    ap.add_argument("--sample", type=int, default=0, help="bring back K rows only, checked against scipy's")
    ap.add_argument("--e2e", action="store_true", help="also shortest_paths' host and device=True calls, both codes")
    ap.add_argument("--auto", action="store_true", help="with --e2e: method='auto' too, and its picks")
    ap.add_argument("--out", help="also write the rows to this CSV, its provenance beside it (.provenance.json)")
    a = ap.parse_args()
    from apsp_kernels.io import suite_graphs as SG
    unknown = [c for c in a.graphs if c not in ("grid", "knn") and not SG.known(c)]
    if unknown:
        ap.error(f"unknown graph {', '.join(map(repr, unknown))}: grid, knn, or the structure suite's ({SG.KNOWN})")
    from apsp_kernels.elimination_choice import refuse_unmeasured_ordering
    refuse_unmeasured_ordering(ap)         # the elimination's rows, auto's picks: of another ordering without METIS
    records = []
    batch = not a.unbatched
    other = None if a.alone else registry.get(a.against)
    who = a.against
    print("graph | n | supernodes | launches | order ms | symbolic ms | kernel ms | elim / up / down ms | "
          f"useful Gops | T ops/s | d2h ms | total ms | {who} kernel ms | equal"
          + (f" | e2e host ms | e2e device ms | {who} e2e host ms | {who} e2e device ms"
             + (" | auto e2e host ms [pick] | auto e2e device ms [pick]" if a.auto else "") + " | e2e equal"
             if a.e2e else ""))
    for name, g in graphs(a.sizes, a.graphs):
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
        if other is not None and rows is None:
            other.run(g)                                                    # warm up
            df, tf = other.run(g)
            fms = tf["kernel_ms"]
            equal.append(np.array_equal(d, df))
        if a.scipy:
            equal.append(np.array_equal(d, from_scipy(csgraph.shortest_path(g.to_scipy(), method="D"))))
        text, e2e_ok, nums = (e2e(g, a.repeats, rows, None if a.alone else a.against, a.auto) if a.e2e
                              else ("", None, {}))
        print(f"{name} | {g.n} | {best['supernodes']} | {best['launches']} | {best['order_ms']:.0f} | "
              f"{best['symbolic_ms']:.0f} | {best['kernel_ms']:.2f} | {tp['elimination_ms']:.2f} / "
              f"{tp['upward_ms']:.2f} / {tp['downward_ms']:.2f} | {ops / 1e9:.2f} | "
              f"{ops / max(best['kernel_ms'] * 1e-3, 1e-12) / 1e12:.3f} | {best['d2h_ms']:.1f} | {best['total_ms']:.0f} | {fms:.2f} | "
              f"{all(equal) if equal else 'unchecked'}" + (f" | {text} | {e2e_ok}" if a.e2e else ""), flush=True)
        records.append(dict(graph=name, n=g.n, m=g.m, supernodes=best["supernodes"], launches=best["launches"],
                            order_ms=best["order_ms"], symbolic_ms=best["symbolic_ms"], kernel_ms=best["kernel_ms"],
                            elimination_ms=tp["elimination_ms"], upward_ms=tp["upward_ms"], downward_ms=tp["downward_ms"],
                            useful_ops=ops, d2h_ms=best["d2h_ms"], total_ms=best["total_ms"], **{f"{who}_kernel_ms": fms},
                            verified=all(equal) if equal else None, e2e_verified=e2e_ok, **nums))
        if a.out:                                                  # after every graph: a cut run keeps its rows
            write(records, a.out, vars(a))


def write(records, out, parameters):
    """The rows as a CSV at ``out`` and ``provenance.collect``'s record (GPU, driver, CUDA, CuPy, CPU, commit, the
    parameters) beside it."""
    import json
    from pathlib import Path

    import pandas as pd
    from apsp_kernels.measure import provenance
    pd.DataFrame(records).to_csv(out, index=False)
    prov = provenance.collect("elimination_gpu_measure", parameters)
    Path(out).with_suffix(".provenance.json").write_text(json.dumps(prov, indent=1, default=str))


if __name__ == "__main__":
    main()
