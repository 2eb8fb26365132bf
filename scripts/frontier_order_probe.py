"""Whether the numbering of a graph's vertices sets ``tuned_frontier``'s time: on each graph, its kernel (all pairs,
int32 left on the device, CUDA events) with the vertices as generated, renumbered by reverse Cuthill-McKee
(scipy's, on the symmetric pattern: neighbours get near numbers) and renumbered at random (seeded).  An exploration:
the kernel's rate per relaxation differed between classes of one relaxation count (king grids, numbered along the
lattice, against kNN corridors and Delaunay graphs, numbered as their random points were drawn).  ``--layouts``:
the frontier bitmaps' layout the kernel is built with (``word``: vertex v bit v % 32 of word v / 32, one thread a
word, so that neighbours numbered near each other are walked by one thread in turn; ``transposed``: consecutive
vertices in consecutive words, so different threads).

    python3 scripts/frontier_order_probe.py --graphs delaunay:9000 kemp:16384 --out DIR

Writes ``order.csv`` (one row per graph, numbering and layout: the median kernel ms of ``--repeats`` warm calls, the
renumbering's CPU ms, the device ms of putting the result back in the graph's own numbering) with provenance.  The
as-generated result is checked against the graph's reference checksum, each renumbered one, put back, against it
element by element."""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ORDERS = ("given", "rcm", "random")
LAYOUTS = {"word": (("TFR_TRANSPOSE", 0),), "transposed": (("TFR_TRANSPOSE", 1),)}   # cuda/tuned_frontier.cu's


def renumbering(g, order):
    """The new numbering's old vertices (new vertex i is old vertex p[i]) and its CPU ms."""
    from scipy.sparse.csgraph import reverse_cuthill_mckee
    from apsp_kernels.algorithms.cpu.elimination.ordering import symmetric_pattern
    t0 = time.perf_counter()
    if order == "given":
        p = np.arange(g.n)
    elif order == "random":
        p = np.random.default_rng(g.n).permutation(g.n)
    else:
        p = np.asarray(reverse_cuthill_mckee(symmetric_pattern(g.to_scipy()), symmetric_mode=True), np.int64)
    return p, (time.perf_counter() - t0) * 1e3


def _timed(frontier, defines, h, repeats):
    """tuned_frontier's all-pairs solve of ``h`` with the kernel built with ``defines`` and the launcher's own
    renumbering off (the numbering is the probe's), warm: (the last result on the device, its timings, every
    repeat's kernel ms)."""
    built, work = frontier.kernel_for, frontier.RENUMBER_WORK
    frontier.kernel_for = lambda dtype, more=(): built(dtype, tuple(defines) + tuple(more))
    frontier.RENUMBER_WORK = float("inf")
    try:
        frontier.tuned_frontier_resident(h)                   # warm: kernel loaded, memory pool sized
        times = []
        for i in range(repeats):
            D, t = frontier.tuned_frontier_resident(h)
            times.append(t["kernel_ms"])
            if i < repeats - 1:
                del D
        return D, t, times
    finally:
        frontier.kernel_for, frontier.RENUMBER_WORK = built, work


def _calls(frontier, g, given, spec, repeats):
    """The launcher as built (int32 left on the device), with its renumbering and without, each call on a new graph
    object of ``g``'s arrays (nothing remembered): rows of the median wall ms (synchronised) and kernel ms."""
    from apsp_kernels.core.graph import Graph
    from apsp_kernels.core.limits import normalise_inf
    from apsp_kernels.measure import wall
    work, out = frontier.RENUMBER_WORK, []
    try:
        for renumber in (True, False):
            frontier.RENUMBER_WORK = 0 if renumber else float("inf")
            walls, kernels = [], []
            for i in range(repeats + 1):                       # the first: warm-up
                h = Graph(g.n, g.indptr.copy(), g.indices.copy(), g.weights.copy())
                ms, (D, t) = wall.median_ms(lambda: frontier.tuned_frontier_resident(h))
                if i:
                    walls.append(ms)
                    kernels.append(t["kernel_ms"])
                if i == repeats and not bool((normalise_inf(D) == given).all()):
                    raise SystemExit(f"tuned_frontier's launcher on {spec} (renumber {renumber}): result differs")
                del D
            out.append(dict(graph=spec.rpartition(":")[0], n=g.n, m=g.m, renumber=renumber,
                            wall_ms=statistics.median(walls), kernel_ms=statistics.median(kernels),
                            renumber_ms=t["renumber_ms"]))
            print(", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in out[-1].items()),
                  flush=True)
    finally:
        frontier.RENUMBER_WORK = work
    return out


def renumbered(g, p):
    from apsp_kernels.core.graph import Graph
    a = g.to_scipy().tocsr()[p][:, p]
    return Graph.from_scipy(a.tocsr())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", required=True)
    ap.add_argument("--orders", nargs="+", default=list(ORDERS), choices=ORDERS)
    ap.add_argument("--layouts", nargs="+", default=list(LAYOUTS), choices=list(LAYOUTS))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--calls", action="store_true",
                    help="also time the launcher as built, renumbering and not, each call on a new graph object "
                         "(the renumbering's host time included): launcher.csv")
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    import pandas as pd
    from apsp_kernels import gpu_device
    from apsp_kernels.algorithms.gpu.tuned import frontier
    from apsp_kernels.algorithms.reference import reference_checksum
    from apsp_kernels.core.limits import normalise_inf
    from apsp_kernels.io import suite_graphs as SG
    from apsp_kernels.measure import provenance
    from apsp_kernels.structure_suite import matches
    cp = gpu_device.require_gpu()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    provenance.write_invocation(out / "order.provenance.json", provenance.collect("frontier-order", vars(a)))
    rows, calls = [], []
    for spec in a.graphs:
        name, n = SG.spec(spec)
        g = SG.make(name, n, seed=n) if name not in SG.REAL else SG.make(name)
        given = None
        for order in a.orders:
            p, cpu_ms = renumbering(g, order)
            h = g if order == "given" else renumbered(g, p)
            for layout in a.layouts:
                D, t, times = _timed(frontier, LAYOUTS[layout], h, a.repeats)
                normalise_inf(D)                               # INF as every result has it (on the device)
                if given is None:
                    if order != "given" or not matches(D, reference_checksum(g)):
                        raise SystemExit(f"tuned_frontier on {spec}: result differs from the reference")
                    given, back_ms = D, 0.0
                else:
                    q = cp.asarray(np.argsort(p))              # old vertex -> its new number
                    ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
                    ev0.record()
                    back = D[q][:, q]
                    ev1.record()
                    ev1.synchronize()
                    back_ms = float(cp.cuda.get_elapsed_time(ev0, ev1))
                    if not bool((back == given).all()):
                        raise SystemExit(f"tuned_frontier ({layout}) on {spec} renumbered by {order}: result differs")
                    del back
                if D is not given:
                    del D
                rows.append(dict(graph=name, n=g.n, m=g.m, order=order, layout=layout,
                                 kernel_ms=statistics.median(times), renumber_cpu_ms=cpu_ms, back_ms=back_ms,
                                 rounds_max=t["rounds_max"]))
                print(", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in rows[-1].items()),
                      flush=True)
                pd.DataFrame(rows).to_csv(out / "order.csv", index=False)
        if a.calls:
            calls.extend(_calls(frontier, g, given, spec, a.repeats))
            pd.DataFrame(calls).to_csv(out / "launcher.csv", index=False)
        del given
        cp.get_default_memory_pool().free_all_blocks()
    df = pd.DataFrame(rows)
    wide = df.pivot_table(index=["graph", "n"], columns=["layout", "order"], values="kernel_ms")
    wide.columns = [f"{lay}:{o}" for lay, o in wide.columns]
    base = f"{a.layouts[0]}:given"
    for c in list(wide.columns):
        if c != base and base in wide:
            wide[f"{c}/{base}"] = wide[c] / wide[base]
    with pd.option_context("display.width", 250):
        print(wide.round(3).to_string())
        if calls:
            c = pd.DataFrame(calls).pivot_table(index=["graph", "n"], columns="renumber", values="wall_ms")
            c["renumbered/not"] = c[True] / c[False]
            print(c.round(3).to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
