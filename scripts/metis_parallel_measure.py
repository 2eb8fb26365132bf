"""What ordering METIS's regions in parallel buys: the nested-dissection order's host time and fill on each of
``--workers`` (``t4``: 4 threads, ``p8``: 8 worker processes, started before any timing), then ``tuned_elimination``
end to end with its ordering on each of ``--e2e-workers``, beside ``tuned_frontier``, in rotated rounds in one
process (paired: the orderings' calls alternate).

    python3 scripts/metis_parallel_measure.py --graphs knn:16384 grid8:16384 --workers t1 t4 p4 p8 p16 \\
        --e2e-workers t1 t4 p8 --rounds 5 --out DIR

Writes ``ordering.csv`` (graph, workers, the ordering's median ms over ``--repeats`` calls, the whole host
preparation's median, factor entries, min-plus operations), ``e2e.csv`` (one row per timed call: code, mode,
round, ms; ``tuned_elimination@p8`` is the elimination with its ordering on 8 worker processes) and ``phases.csv``
(one call of the elimination's launcher per ordering: its host, upload, kernel and permutation times), with
provenance beside them.  Every code's first call in each mode is checked against the graph's reference checksum and not
timed.  ``--device-only name:n``: graphs timed with the result left on the device only (their n x n float64 result
would not fit the host's memory, or take seconds to copy); ``--order-only name:n``: the ordering only (no
reference checksum for them here)."""
from __future__ import annotations

import argparse
import contextlib
import re
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ELIMINATION = "tuned_elimination"


def workers_of(spec):
    """``t4``: 4 threads; ``p8``: this process's pool of 8 worker processes, started and waited for."""
    from apsp_kernels.algorithms.cpu.elimination import metis_parallel as MP
    m = re.fullmatch(r"([tp])([1-9][0-9]*)", spec)
    if m is None:
        raise SystemExit(f"--workers: {spec!r} is not tN (threads) or pN (processes)")
    return MP.Threads(int(m[2])) if m[1] == "t" else MP.processes(int(m[2])).wait()


@contextlib.contextmanager
def ordering_on(spec):
    """Every ordering made within (the launcher's and shortest_paths' default) on the workers ``spec`` names."""
    from apsp_kernels.algorithms.cpu.elimination import metis_parallel as MP
    real, pool = MP.default_pool, workers_of(spec)
    MP.default_pool = lambda: pool
    try:
        yield
    finally:
        MP.default_pool = real


def ordering_rows(g, name, specs, repeats):
    from apsp_kernels.algorithms.cpu.elimination import _edges, nested_dissection, symmetric_pattern, symbolic
    from apsp_kernels.algorithms.gpu.tuned import elimination as TE
    adj = _edges(g)[4]
    p = symmetric_pattern(adj)
    rows = []
    for spec in specs:
        ms, prep = [], []
        with ordering_on(spec):                   # the launcher's ordering on these workers
            for _ in range(repeats):
                t0 = time.perf_counter()
                o = nested_dissection(adj)
                ms.append((time.perf_counter() - t0) * 1e3)
            for _ in range(repeats):
                t0 = time.perf_counter()
                TE.prepare(g)
                prep.append((time.perf_counter() - t0) * 1e3)
        st = symbolic(o, p).stats(p.nnz // 2)
        rows.append(dict(graph=name, n=g.n, m=g.m, workers=spec, order_ms=float(np.median(ms)),
                         order_min_ms=float(np.min(ms)), prepare_ms=float(np.median(prep)),
                         factor_entries=st["stored_entries"], supernodes=st["supernodes"],
                         elimination_ops=st["elimination_ops"], downward_ops_per_row=st["downward_ops_per_row"]))
        print(f"  {spec:>4}: order {rows[-1]['order_ms']:7.1f} ms, prepare {rows[-1]['prepare_ms']:7.1f} ms, "
              f"entries {st['stored_entries']:,}", flush=True)
    return rows


def call(code, g, kw):
    """One shortest_paths call of ``code`` (``tuned_elimination@SPEC``: its ordering on the workers SPEC names)."""
    from apsp_kernels import api
    if "@" not in code:
        return api.shortest_paths(g, method=code, **kw)
    method, spec = code.split("@")
    with ordering_on(spec):
        return api.shortest_paths(g, method=method, **kw)


def phases_rows(g, name, specs):
    from apsp_kernels.algorithms.gpu.tuned import elimination as TE
    from apsp_kernels.measure import wall
    rows = []
    for spec in specs:
        with ordering_on(spec):
            whole, (D, tm) = wall.median_ms(lambda: TE.tuned_elimination_resident(g), 1, warm=True)
        del D
        rows.append(dict(graph=name, n=g.n, workers=spec, whole_ms=whole,
                         **{k: v for k, v in tm.items() if isinstance(v, (int, float))}))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="*", default=["knn:16384", "grid8:16384", "delaunay:16384"])
    ap.add_argument("--device-only", nargs="*", default=[])
    ap.add_argument("--order-only", nargs="*", default=[])
    ap.add_argument("--workers", nargs="+", default=["t1", "t4", "p4", "p8", "p16"])
    ap.add_argument("--e2e-workers", nargs="+", default=["t4", "p8"])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--codes", nargs="+", default=["tuned_frontier"], help="beside the elimination's orderings")
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    import pandas as pd
    from apsp_kernels import gpu_device
    from apsp_kernels.algorithms.cpu.elimination import metis_parallel as MP
    from apsp_kernels.algorithms.reference import reference_checksum
    from apsp_kernels.io import suite_graphs as SG
    from apsp_kernels.measure import provenance, wall
    from apsp_kernels.structure_suite import MODES, matches
    from apsp_kernels.measure.rounds import order
    gpu_device.require_gpu()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    params = dict(vars(a), threads_here=MP.threads_here(), default_threads=MP.default_threads(),
                  default_processes=MP.default_processes(), c_api=MP.available())
    codes = [f"{ELIMINATION}@{spec}" for spec in a.e2e_workers] + a.codes
    for spec in set(a.workers + a.e2e_workers):
        workers_of(spec)                          # every process pool started before any timing
    for stem in ("ordering", "e2e", "phases"):
        provenance.write_invocation(out / f"{stem}.provenance.json", provenance.collect("metis-parallel", params))
    orders, e2e, phases = [], [], []
    for spec in a.graphs + a.device_only + a.order_only:
        name, n = SG.spec(spec)
        g = SG.make(name, n, seed=n)
        print(f"{name} n={g.n} m={g.m}", flush=True)
        orders += ordering_rows(g, name, a.workers, a.repeats)
        pd.DataFrame(orders).to_csv(out / "ordering.csv", index=False)
        if spec in a.order_only:
            continue
        phases += phases_rows(g, name, a.e2e_workers)
        pd.DataFrame(phases).to_csv(out / "phases.csv", index=False)
        modes = [(col, kw) for col, kw in MODES if spec not in a.device_only or kw.get("device")]
        ref = reference_checksum(g)
        for code in codes:
            for col, kw in modes:
                d = call(code, g, kw)
                if not matches(d, ref):
                    raise SystemExit(f"{code} on {name} {n} ({col}): result differs from the reference")
                del d
        for r in range(a.rounds):
            position = 0
            for code in order(codes, r, "rotate"):
                for col, kw in modes:
                    ms, d = wall.median_ms(lambda: call(code, g, kw), 1)
                    del d
                    e2e.append(dict(graph=name, n=g.n, m=g.m, code=code, mode=col, round=r, ms=ms, position=position))
                    position += 1
        pd.DataFrame(e2e).to_csv(out / "e2e.csv", index=False)
    with pd.option_context("display.width", 200):
        o = pd.DataFrame(orders)
        by_workers = o.pivot_table(index=["graph", "n"], columns="workers", values="order_ms", sort=False)
        print(by_workers[[w for w in a.workers if w in by_workers]].round(1).to_string())
        if e2e:
            e = pd.DataFrame(e2e).groupby(["graph", "n", "mode", "code"], sort=False).ms.median().unstack("code")
            print(e.round(1).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
