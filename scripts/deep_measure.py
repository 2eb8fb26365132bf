"""tuned_deep beside tuned_frontier and the all-core CPU Dijkstra on deep, thin graphs: a one-way path, a ring
(both ways) and a lollipop (a complete digraph of ``--clique`` vertices with a tail to n-1, both ways); with
``--graphs`` also the 2-D grid and kNN geometric graph of the elimination's crossing rows (``grid``, ``knn``).

    python3 scripts/deep_measure.py [--sizes 4096 16384] [--graphs path ring lollipop] [--repeats 3]
                                    [--codes tuned_deep tuned_frontier tuned_elimination auto] [--out CSV]

Per graph and code:
* ``kernel_ms``    -- the launcher's CUDA-event kernel time (``registry.get(code).run``), median of ``--repeats``
  after a warm-up, every repeat's int32 result equal to the reference;
* ``e2e_ms``       -- ``shortest_paths(graph, method=code)`` as a user calls it (float64 result on the host), warm,
  synchronised wall clock, median of ``--repeats``; ``e2e_int32_ms`` the same with ``dtype=np.int32``; each
  result equal to the reference; ``e2e_device_ms`` the same with ``device=True`` (float64, left on the GPU);
* ``auto`` among the codes: ``method="auto"``'s same three calls (no kernel row), and what it picks for the host
  and the device result (``auto_host_pick``, ``auto_device_pick``: ``api.choose`` as shortest_paths asks it);
* the CPU row -- ``shortest_paths(graph, method="D")``, this package's all-core Dijkstra (the structure suite's CPU
  row), one warm wall clock; its result is the reference, itself checked against scipy's Dijkstra on sampled rows.
``speedup`` is the CPU row's time over the code's ``e2e_ms``: the goal is 10x at n = 16384.  A benchmark: it
reports; nothing here is a pass mark.  Needs a GPU."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from apsp_kernels import api, choice, gpu_device
from apsp_kernels.algorithms import registry
from apsp_kernels.core import structure_graphs
from apsp_kernels.core.distances import from_scipy
from apsp_kernels.measure import provenance, wall


CLASSES = ("path", "ring", "lollipop", "grid", "knn")


def graphs(n, clique, classes=CLASSES[:3], seed=0):
    """{name: graph} of ``classes`` at n vertices: the deep ones, and the 2-D grid and kNN geometric graph of the
    elimination's crossing rows (scripts/elimination_measure.py; the grid is the nearest r x c to n)."""
    import math

    from elimination_measure import GRIDS, grid, knn        # this folder (the script is run as a file)
    from apsp_kernels.core.graph import Graph
    make = {"path": lambda: structure_graphs.path(n, seed=seed), "ring": lambda: structure_graphs.ring(n, seed=seed),
            "lollipop": lambda: structure_graphs.lollipop(n, clique=clique, seed=seed),
            "grid": lambda: Graph.from_scipy(grid(*GRIDS.get(n, (int(math.sqrt(n)), n // int(math.sqrt(n)))))),
            "knn": lambda: Graph.from_scipy(knn(n))}
    return {c: make[c]() for c in classes}


def as_int32(d):
    d = np.asarray(d)
    return from_scipy(d) if d.dtype.kind == "f" else d


def cpu_reference(g, rows=8):
    """(ms, int32 distances) of the all-core CPU Dijkstra (warm), its sampled rows checked against scipy's."""
    import scipy.sparse.csgraph as csg
    api.shortest_paths(g, method="D")
    ms, d = wall.median_ms(lambda: api.shortest_paths(g, method="D"), gpu=True)
    ref = as_int32(d)
    pick = np.random.default_rng(g.n).choice(g.n, size=min(rows, g.n), replace=False)
    want = from_scipy(csg.dijkstra(g.to_scipy(), directed=True, indices=pick))
    if not np.array_equal(ref[pick], want):
        raise SystemExit("the CPU Dijkstra disagrees with scipy's: no reference to verify against")
    return ms, ref


def kernel_row(code, g, ref, repeats):
    """(median kernel ms, every repeat equal to ``ref``, the last timings)."""
    a = registry.get(code)
    a.run(g)                                                 # compiled, loaded
    times, ok, t = [], True, {}
    for _ in range(repeats):
        d, t = a.run(g)
        times.append(t["kernel_ms"])
        ok = ok and np.array_equal(as_int32(d), ref)
        del d
    return float(np.median(times)), ok, t


def e2e_row(code, g, ref, repeats):
    """{column: median wall ms} of shortest_paths float64 and int32 on the host and float64 on the device, warm,
    and whether every result equals ``ref``."""
    out, ok = {}, True
    for col, kw in (("e2e_ms", {}), ("e2e_int32_ms", dict(dtype=np.int32)), ("e2e_device_ms", dict(device=True))):
        ms, d = wall.median_ms(lambda: api.shortest_paths(g, method=code, **kw), repeats, warm=True, drop=True,
                               gpu=True)
        out[col] = ms
        ok = ok and np.array_equal(as_int32(d if isinstance(d, np.ndarray) else d.get()), ref)
        del d
    return out, ok


def measure(sizes, codes, clique, repeats, classes=CLASSES[:3], log=print, out=None):
    """The rows (a frame); ``out``: called with the rows so far after every graph (a cut run keeps them)."""
    rows = []
    for n in sizes:
        for name, g in graphs(n, clique, classes).items():
            cpu_ms, ref = cpu_reference(g)
            log(f"{name} n={n} m={g.m}: CPU Dijkstra ({os.cpu_count()} cores) {cpu_ms:.1f} ms")
            rows.append(dict(graph=name, n=g.n, code="dijkstra_cpu_parallel", e2e_ms=cpu_ms, verified=True, speedup=1.0))
            for code in codes:
                kms, kok, t = kernel_row(code, g, ref, repeats) if code != "auto" else (np.nan, True, {})
                e2e, eok = e2e_row(code, g, ref, repeats)
                r = dict(graph=name, n=g.n, code=code, kernel_ms=kms, **e2e, verified=kok and eok,
                         speedup=cpu_ms / e2e["e2e_ms"], rounds_max=t.get("rounds_max"))
                if code == "auto":
                    r.update({f"auto_{res}_pick": choice.choose(g, result=res).algorithm.name
                              for res in ("host", "device")})
                rows.append(r)
                log(f"  {code:17s} kernel {kms:8.1f} ms  e2e {e2e['e2e_ms']:8.1f} ms (int32 {e2e['e2e_int32_ms']:8.1f},"
                    f" device {e2e['e2e_device_ms']:8.1f})  {r['speedup']:5.1f}x the CPU  verified={r['verified']}"
                    + (f"  picks {r['auto_host_pick']} / {r['auto_device_pick']}" if code == "auto" else ""))
            del ref
            if out is not None:
                out(pd.DataFrame(rows))
    return pd.DataFrame(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[4096, 16384])
    ap.add_argument("--codes", nargs="+", default=["tuned_deep", "tuned_frontier"])
    ap.add_argument("--graphs", nargs="+", default=list(CLASSES[:3]), choices=CLASSES)
    ap.add_argument("--clique", type=int, default=128)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", help="CSV of the rows (its provenance beside it, .provenance.json)")
    a = ap.parse_args(argv)
    from apsp_kernels.elimination_choice import refuse_unmeasured_ordering
    refuse_unmeasured_ordering(ap, a.codes)
    ok, why = gpu_device.gpu_status()
    if not ok:
        raise SystemExit(f"deep_measure needs a GPU: {why}")
    def write(df):
        df.to_csv(a.out, index=False)
        prov = provenance.collect("deep_measure", vars(a))           # GPU, driver, CUDA, CuPy, CPU, commit
        Path(a.out).with_suffix(".provenance.json").write_text(json.dumps(prov, indent=1, default=str))
    df = measure(a.sizes, a.codes, a.clique, a.repeats, a.graphs, out=write if a.out else None)
    with pd.option_context("display.width", 200, "display.float_format", "{:.1f}".format):
        print(df.to_string(index=False))
    if a.out:
        print(f"written {a.out} and its provenance")
    return 0 if df["verified"].all() else 1


if __name__ == "__main__":
    sys.exit(main())
