"""Whether concurrent METIS calls slow each other: k threads each ordering its own copy of one region by
METIS_NodeND (ctypes, GIL released), against one call alone, and the same k calls in k processes (a spawned pool,
started before the timing).  If the threads' wall time grows with k while the processes' does not, the calls
contend inside the process (METIS draws its random numbers from the C library's one locked ``rand()`` state).

    python3 scripts/metis_contention_probe.py --graph knn:1024 --threads 1 2 4 8 16 --repeats 5

Prints one line per k: the median wall ms of one round of k calls, threads and processes.  ``--profile name:n``:
also :func:`metis_parallel.order` on that graph at each thread count, with the time its splits and its regions'
METIS_NodeND calls took, summed and last finished."""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _pattern(spec):
    from apsp_kernels.algorithms.cpu.elimination import _edges, symmetric_pattern
    from apsp_kernels.io import suite_graphs as SG
    name, n = SG.spec(spec)
    return symmetric_pattern(_edges(SG.make(name, n, seed=n))[4])


def _order(p):
    from apsp_kernels.algorithms.cpu.elimination import metis_parallel as MT
    return MT.node_nd(p, 1).size


def profile(p, threads, repeats):
    """One line per thread count: the last of ``repeats`` calls of :func:`metis_parallel.order` (the ones before it
    warm up), its splits' and its regions' METIS_NodeND calls timed in it."""
    from apsp_kernels.algorithms.cpu.elimination import metis_parallel as MT
    real_split, real_nd = MT.split, MT.node_nd
    for t in threads:
        for r in range(repeats):
            spans = {"split": [], "node_nd": []}

            def timed(kind, f):
                def run(*args, **kw):
                    t0 = time.perf_counter()
                    out = f(*args, **kw)
                    spans[kind].append((t0, time.perf_counter()))
                    return out
                return run
            MT.split, MT.node_nd = timed("split", real_split), timed("node_nd", real_nd)
            try:
                t0 = time.perf_counter()
                MT.order(p, threads=t, niter=1)
                t1 = time.perf_counter()
            finally:
                MT.split, MT.node_nd = real_split, real_nd
        ms = lambda v: 1e3 * v
        s_sum = sum(b - a for a, b in spans["split"])
        n_sum = sum(b - a for a, b in spans["node_nd"])
        s_end = max((b for a, b in spans["split"]), default=t0) - t0
        n_first = min((a for a, b in spans["node_nd"]), default=t0) - t0
        longest = max((b - a for a, b in spans["node_nd"]), default=0)
        print(f"  order, {t:>2} threads: {ms(t1 - t0):7.1f} ms; splits {len(spans['split'])} sum {ms(s_sum):6.1f} "
              f"last ends {ms(s_end):6.1f}; NodeND {len(spans['node_nd'])} sum {ms(n_sum):6.1f} first starts "
              f"{ms(n_first):6.1f}, longest {ms(longest):6.1f}", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graph", default="knn:1024")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--profile", default=None)
    a = ap.parse_args(argv)
    if a.profile:
        profile(_pattern(a.profile), a.threads, a.repeats)
    import multiprocessing as mp
    p = _pattern(a.graph)
    k_max = max(a.threads)
    with ProcessPoolExecutor(k_max, mp_context=mp.get_context("spawn")) as procs, ThreadPoolExecutor(k_max) as pool:
        list(procs.map(_order, [p] * k_max))                      # workers started and warm
        _order(p)
        print(f"{a.graph}: n {p.shape[0]}, one call alone then k at once (median of {a.repeats}, ms)")
        for k in a.threads:
            t_ms, p_ms = [], []
            for _ in range(a.repeats):
                t0 = time.perf_counter()
                list(pool.map(_order, [p] * k))
                t_ms.append((time.perf_counter() - t0) * 1e3)
                t0 = time.perf_counter()
                list(procs.map(_order, [p] * k))
                p_ms.append((time.perf_counter() - t0) * 1e3)
            print(f"  k {k:>2}: threads {np.median(t_ms):8.2f}   processes {np.median(p_ms):8.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
