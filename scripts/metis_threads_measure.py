"""What ordering METIS's regions in threads buys: the nested-dissection order's host time and fill on 1, 2, 4, ...
threads, then ``tuned_elimination`` end to end with its ordering on one thread and on the default
(:func:`metis_threads.default_threads`), beside ``tuned_frontier``, in rotated rounds in one process (paired: the two
orderings' calls alternate).

    python3 scripts/metis_threads_measure.py --graphs knn:16384 grid8:16384 --threads 1 2 4 8 16 \\
        --rounds 5 --out DIR

Writes ``ordering.csv`` (graph, threads, the ordering's median ms over ``--repeats`` calls, the whole host
preparation's median, factor entries, min-plus operations), ``e2e.csv`` (one row per timed call: code, mode,
round, ms; ``tuned_elimination/1`` is the elimination with its ordering on one thread) and ``phases.csv`` (one
call of the elimination's launcher per ordering: its host, upload, kernel and permutation times), with provenance
beside them.  Every code's first call in each mode is checked against the graph's reference checksum and not
timed.  ``--device-only name:n``: graphs timed with the result left on the device only (their n x n float64 result
would not fit the host's memory, or take seconds to copy); ``--order-only name:n``: the ordering only (no
reference checksum for them here)."""
from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SERIAL = "tuned_elimination/1"      # the elimination, its ordering on one thread


@contextlib.contextmanager
def ordering_on(threads):
    """Every ordering made within on ``threads`` threads (the launcher's and shortest_paths' default)."""
    from apsp_kernels.algorithms.cpu.elimination import metis_threads as MT
    real = MT.default_threads
    MT.default_threads = lambda: threads
    try:
        yield
    finally:
        MT.default_threads = real


def ordering_rows(g, name, threads, repeats):
    from apsp_kernels.algorithms.cpu.elimination import _edges, nested_dissection, symmetric_pattern, symbolic
    from apsp_kernels.algorithms.gpu.tuned import elimination as TE
    adj = _edges(g)[4]
    p = symmetric_pattern(adj)
    rows = []
    for t in threads:
        ms, prep = [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            o = nested_dissection(adj, threads=t)
            ms.append((time.perf_counter() - t0) * 1e3)
        with ordering_on(t):                      # the launcher's ordering on t threads
            for _ in range(repeats):
                t0 = time.perf_counter()
                TE.prepare(g)
                prep.append((time.perf_counter() - t0) * 1e3)
        st = symbolic(o, p).stats(p.nnz // 2)
        rows.append(dict(graph=name, n=g.n, m=g.m, threads=t, order_ms=float(np.median(ms)),
                         order_min_ms=float(np.min(ms)), prepare_ms=float(np.median(prep)),
                         factor_entries=st["stored_entries"], supernodes=st["supernodes"],
                         elimination_ops=st["elimination_ops"], downward_ops_per_row=st["downward_ops_per_row"]))
        print(f"  threads {t:>2}: order {rows[-1]['order_ms']:7.1f} ms, prepare {rows[-1]['prepare_ms']:7.1f} ms, "
              f"entries {st['stored_entries']:,}", flush=True)
    return rows


def call(code, g, kw):
    """One shortest_paths call of ``code`` (SERIAL: the elimination, its ordering on one thread)."""
    from apsp_kernels import api
    if code != SERIAL:
        return api.shortest_paths(g, method=code, **kw)
    with ordering_on(1):
        return api.shortest_paths(g, method="tuned_elimination", **kw)


def phases_rows(g, name):
    from apsp_kernels.algorithms.cpu.elimination import metis_threads as MT
    from apsp_kernels.algorithms.gpu.tuned import elimination as TE
    from apsp_kernels.measure import wall
    rows = []
    for t in (1, MT.default_threads()):
        with ordering_on(t):
            whole, (D, tm) = wall.median_ms(lambda: TE.tuned_elimination_resident(g), 1, warm=True)
        del D
        rows.append(dict(graph=name, n=g.n, threads=t, whole_ms=whole,
                         **{k: v for k, v in tm.items() if isinstance(v, (int, float))}))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["knn:16384", "grid8:16384", "delaunay:16384"])
    ap.add_argument("--device-only", nargs="*", default=[])
    ap.add_argument("--order-only", nargs="*", default=[])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--codes", nargs="+", default=[SERIAL, "tuned_elimination", "tuned_frontier"])
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    import pandas as pd
    from apsp_kernels import gpu_device
    from apsp_kernels.algorithms.cpu.elimination import metis_threads as MT
    from apsp_kernels.algorithms.reference import reference_checksum
    from apsp_kernels.io import suite_graphs as SG
    from apsp_kernels.measure import provenance, wall
    from apsp_kernels.structure_suite import MODES, matches
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from e2e_scatter_probe import order
    gpu_device.require_gpu()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    params = dict(vars(a), threads_here=MT.threads_here(), default_threads=MT.default_threads(),
                  c_api=MT.available())
    for stem in ("ordering", "e2e", "phases"):
        provenance.write_invocation(out / f"{stem}.provenance.json", provenance.collect("metis-threads", params))
    orders, e2e, phases = [], [], []
    for spec in a.graphs + a.device_only + a.order_only:
        name, n = SG.spec(spec)
        g = SG.make(name, n, seed=n)
        print(f"{name} n={g.n} m={g.m}", flush=True)
        orders += ordering_rows(g, name, a.threads, a.repeats)
        pd.DataFrame(orders).to_csv(out / "ordering.csv", index=False)
        if spec in a.order_only:
            continue
        phases += phases_rows(g, name)
        pd.DataFrame(phases).to_csv(out / "phases.csv", index=False)
        modes = [(col, kw) for col, kw in MODES if spec not in a.device_only or kw.get("device")]
        ref = reference_checksum(g)
        for code in a.codes:
            for col, kw in modes:
                d = call(code, g, kw)
                if not matches(d, ref):
                    raise SystemExit(f"{code} on {name} {n} ({col}): result differs from the reference")
                del d
        for r in range(a.rounds):
            position = 0
            for code in order(a.codes, r, "rotate"):
                for col, kw in modes:
                    ms, d = wall.median_ms(lambda: call(code, g, kw), 1)
                    del d
                    e2e.append(dict(graph=name, n=g.n, m=g.m, code=code, mode=col, round=r, ms=ms, position=position))
                    position += 1
        pd.DataFrame(e2e).to_csv(out / "e2e.csv", index=False)
    with pd.option_context("display.width", 200):
        o = pd.DataFrame(orders)
        by_threads = o.pivot_table(index=["graph", "n"], columns="threads", values="order_ms", sort=False)
        print(by_threads.round(1).to_string())
        e = pd.DataFrame(e2e).groupby(["graph", "n", "mode", "code"], sort=False).ms.median().unstack("code")
        print(e.round(1).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
