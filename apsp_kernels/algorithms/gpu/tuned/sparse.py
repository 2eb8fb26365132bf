"""``tuned_sparse``: APSP of a sparse graph as batched multi-target Bellman-Ford sweeps with a vertex
frontier (``cuda/tuned_sparse.cu`` says how and why it is exact).  Non-negative weights.  The variant
is the batch S (targets per batch: 128 x the int4 vectors per lane)."""
from __future__ import annotations

import time

import numpy as np

from .... import gpu_device
from ....core.graph import Graph, normalise_inf, round_up
from .. import runtime as gpu_runtime

BATCHES = (256, 128, 512)         # the default first
THREADS = 256                     # 8 warps a block, a warp per vertex
CHECK_EVERY = 4                   # sweeps launched between two looks at the stop flag


def footprint(n, m, batch=max(BATCHES)):
    """Device bytes: the n x N matrix (N = n rounded up to the batch), the CSR, three flag arrays and
    one stop flag per possible sweep."""
    n = max(int(n), 1)
    return 4 * n * round_up(n, batch) + 4 * (n + 1 + 2 * m) + 3 * n + 4 * (n + 2 + 2 * CHECK_EVERY)


# A vertex of out-degree d is one warp's d neighbour segments, read one after another in every sweep of every
# batch while the other warps finish theirs: a solve takes at least ceil(n / S) batches x sweeps x d of those
# reads, the sweeps growing with the hop depth.  The time of one read is measured, not derived: data/auto.yaml
# (hub_unit) holds it with the recorded rows it was fitted on (hub graphs and Barabasi-Albert, one H100).


def hub_ms(n, max_degree, hop_depth=None, batch=None, unit=None):
    """The least time of a solve set by its busiest warp (the vertex of ``max_degree`` out-edges), in ms, at
    ``unit`` seconds a read; without a hop depth, that of depth 1 (a bound from below: the probe gives the depth)."""
    batch = int(batch) if batch is not None else BATCHES[0]
    return -(-int(n) // batch) * max(int(hop_depth or 1), 1) * int(max_degree) * float(unit) * 1e3

def tuned_sparse(g: Graph, batch=256, check_every=CHECK_EVERY):
    if g.n == 0:
        return np.zeros((0, 0), np.int32), dict(alloc_ms=0.0, h2d_ms=0.0, d2h_ms=0.0, kernel_ms=0.0, sweeps=0)
    D, timings = _solve(g, batch, check_every)
    cp = gpu_device.require_gpu()
    t0 = time.perf_counter()
    d = cp.asnumpy(D[:, :g.n]) if D.shape[1] != g.n else D.get()
    timings["d2h_ms"] = (time.perf_counter() - t0) * 1e3
    return normalise_inf(np.ascontiguousarray(d)), timings


def tuned_sparse_resident(g: Graph, batch=256):
    """The solver's end-to-end path (``shortest_paths``): the distances left on the device (the n x n cupy
    view, not yet INF-normalised) and the timings."""
    D, timings = _solve(g, batch, CHECK_EVERY)
    return D[:, :g.n], timings


def target_batches(targets, batch):
    """The first targets of the batches (multiples of ``batch``, increasing, each once) that hold ``targets``."""
    return [int(b) * int(batch) for b in np.unique(np.asarray(targets, np.int64) // int(batch))]


def tuned_sparse_rows(g: Graph, sources, batch=256):
    """Rows ``sources`` of the APSP (vertex numbers, any order, repeats allowed), by the same sweeps on the reversed
    graph over only the target batches that hold a source: there column s is the distance from s in ``g``, so row s
    here.  The (len(sources) x n) int32 device rows, INF not yet normalised, and the timings.  Device bytes: the
    reversed graph's n x N matrix (:func:`footprint`) and two len(sources) x n copies (the columns, then the rows)."""
    from ....core.sources import as_sources
    src = as_sources(sources, g.n)
    cp = gpu_device.require_gpu()
    if g.n == 0 or src.size == 0:
        return cp.zeros((src.size, g.n), cp.int32), dict(alloc_ms=0.0, h2d_ms=0.0, d2h_ms=0.0, kernel_ms=0.0, sweeps=0)
    D, timings = _solve(g.reversed(), batch, CHECK_EVERY, target_batches(src, batch))
    rows = cp.ascontiguousarray(D[:, cp.asarray(src)].T)
    del D
    return rows, timings


def _solve(g: Graph, batch, check_every, starts=None):
    """The sweeps; the n x N device matrix (N = n rounded up to the batch) and the timings (n > 0).  ``starts``: the
    first targets of the batches to run (multiples of ``batch``; default every batch): the columns of the others
    are left INF."""
    if batch not in BATCHES:
        raise ValueError(f"batch must be one of {BATCHES}, got {batch}")
    g.require_non_negative("tuned_sparse")
    cp = gpu_device.require_gpu()
    import cupyx
    name = f"tuned_sparse_b{batch}"
    n, m = g.n, g.m
    V = batch // 128
    exprs = tuple(f"tsp_sweep<{v}>" for v in (1, 2, 4))
    f = lambda nm: gpu_runtime.kernel("tuned_sparse.cu", nm, name_expressions=exprs)
    init_matrix, init_batch, sweep = f("tsp_init_matrix"), f("tsp_init_batch"), f(f"tsp_sweep<{V}>")
    N = round_up(n, batch)
    gpu_device.check_fits(name, footprint(n, m, batch), hint="a smaller graph")
    timings = dict(alloc_ms=0.0, h2d_ms=0.0, d2h_ms=0.0)
    t0 = time.perf_counter()
    D = cp.empty((n, N), cp.int32)
    flags = [cp.empty(n, cp.uint8) for _ in range(3)]
    slots = n + 2 + 2 * check_every                 # Bellman-Ford: at most n sweeps change something;
                                                    # the stop test lags by up to two groups
    anyd = cp.empty(slots, cp.int32)
    anyh = cupyx.empty_pinned(slots, np.int32)
    cp.cuda.Device().synchronize()
    timings["alloc_ms"] = (time.perf_counter() - t0) * 1e3
    t0 = time.perf_counter()
    Va, Ea, Wa = (cp.asarray(a.astype(np.int32)) for a in (g.indptr, g.indices, g.weights))
    cp.cuda.Device().synchronize()
    timings["h2d_ms"] = (time.perf_counter() - t0) * 1e3
    stream = cp.cuda.get_current_stream()
    n32, N32, S32, slots32 = np.int32(n), np.int32(N), np.int32(batch), np.int32(slots)
    sweep_grid = (-(-n * 32 // THREADS),)
    init_grid = (-(-max(n, slots) // THREADS),)
    sweeps = 0
    with gpu_runtime.EventTimer() as t:
        gpu_runtime.launch(name, init_matrix, (n, -(-(N // 4) // THREADS)), (THREADS,), (D, N32))
        for t0c in (range(0, n, batch) if starts is None else starts):
            tc = np.int32(t0c)
            gpu_runtime.launch(name, init_batch, init_grid, (THREADS,), (*flags, anyd, n32, tc, S32, slots32))
            s, pending = 0, []
            while True:
                for _ in range(check_every):
                    if s >= slots:
                        raise RuntimeError(f"{name}: no convergence after {s} sweeps (a bug: weights are >= 0)")
                    fin, fout, fclear = flags[s % 3], flags[(s + 1) % 3], flags[(s + 2) % 3]
                    gpu_runtime.launch(name, sweep, sweep_grid, (THREADS,),
                               (D, N32, Va, Ea, Wa, n32, tc, fin, fout, fclear, anyd, np.int32(s)))
                    s += 1
                # the stop flag of the last sweep, read one group late so that the GPU never waits
                cp.cuda.runtime.memcpyAsync(anyh.ctypes.data + 4 * (s - 1), anyd.data.ptr + 4 * (s - 1), 4,
                                            cp.cuda.runtime.memcpyDeviceToHost, stream.ptr)
                ev = cp.cuda.Event()
                ev.record()
                pending.append((ev, s - 1))
                if len(pending) > 1:
                    ev0, last = pending.pop(0)
                    ev0.synchronize()
                    if anyh[last] == 0:      # that sweep changed nothing: the later ones did nothing
                        break
            sweeps += s
    timings.update(kernel_ms=t.ms, sweeps=sweeps, batches=-(-n // batch) if starts is None else len(starts))
    return D, timings
