"""``tuned_frontier``: shortest paths of a sparse graph with one thread block per source, each running
Bellman-Ford with a frontier bitmap to the end inside itself, so that a deep graph costs rounds, not
launches (``cuda/tuned_frontier.cu`` says how and why it is exact).  Non-negative weights.

``sources``: None for all n rows (an APSP), or vertex numbers (repeats and any order allowed): one row
each, shape (len(sources), n).  ``dtype``: "int32" (INF where unreachable, as every code here) or
"float32" (+inf); None picks by the graph: a :class:`~apsp_kernels.core.graph.Graph` (int32 weights)
gives int32, a :class:`~apsp_kernels.core.wide.WideGraph` of float weights float32 (its float64 weights
rounded to float32, the sums float32: what the float32 result means is the kernel header's).  A
WideGraph of int64 weights is refused unless dtype="float32" is asked for."""
from __future__ import annotations

import time

import numpy as np

from .... import gpu_device
from ....core.graph import Graph, GraphError, normalise_inf
from ....core.sources import as_sources
from .. import runtime as gpu_runtime

NAME = "tuned_frontier"
THREADS = 128                 # TFR_THREADS of cuda/tuned_frontier.cu (tests/test_tuned_frontier_cpu.py compares)
DTYPES = ("int32", "float32")
EXPRS = ("tfr_solve<int>", "tfr_solve<float>")
DEFAULT_SHARED = 48 * 1024    # dynamic shared memory a block gets without opting in
OPTIN_ATTRIBUTE = 97          # cudaDevAttrMaxSharedMemoryPerBlockOptin


def shared_bytes(n):
    """Two frontier bitmaps of ceil(n / 32) words."""
    return 2 * 4 * (-(-max(int(n), 1) // 32))


def footprint(n, m, rows=None):
    """Device bytes: the rows x n distances (rows = n: every source), the CSR, and per row its source and
    its round count."""
    n = max(int(n), 1)
    rows = n if rows is None else int(rows)
    return 4 * rows * n + 4 * (n + 1 + 2 * m) + 8 * rows


def csr_arrays(g, dtype=None, who=NAME, negative_ok=False):
    """(dtype, indptr, indices, weights) as the kernel takes them: int32 CSR, weights int32 or float32
    (-0.0 made +0.0, which the kernel's bit-pattern min needs).  Refuses negative weights (unless the caller,
    ``who``, takes them: ``negative_ok``, tuned_fw's float32 path), and float weights that float32 cannot hold,
    in one line."""
    from ....core.wide import WideGraph
    if dtype not in (None, *DTYPES):
        raise ValueError(f"dtype must be one of {DTYPES} or None, got {dtype!r}")
    wide = isinstance(g, WideGraph)
    if dtype is None:
        dtype = "float32" if wide and g.dtype.kind == "f" else "int32"
    if not negative_ok:
        g.require_non_negative(who)
    w = g.values if wide and dtype == "float32" else g.weights     # a WideGraph's .weights: its one-line refusal
    if dtype == "float32":
        with np.errstate(over="ignore"):                # refused below, in one line
            w32 = w.astype(np.float32) + np.float32(0)  # + 0: -0.0 becomes +0.0
        if not np.isfinite(w32).all():
            bad = w[~np.isfinite(w32)][0]
            raise GraphError(f"{who}: edge weight {bad.item()!r} is beyond float32 (largest {np.finfo(np.float32).max})")
    else:
        w32 = w.astype(np.int32)
    return dtype, g.indptr.astype(np.int32), g.indices.astype(np.int32), np.ascontiguousarray(w32)


def _shared_limit(cp, fn, smem):
    """Opt the kernel in to ``smem`` bytes of dynamic shared memory where it needs more than 48 KiB."""
    if smem <= DEFAULT_SHARED:
        return
    dev = cp.cuda.Device()
    limit = cp.cuda.runtime.deviceGetAttribute(OPTIN_ATTRIBUTE, dev.id)
    if smem > limit:
        raise GraphError(f"{NAME}: n = {smem // 8 * 32} needs {smem} bytes of shared memory a block for its two "
                         f"frontier bitmaps; this device allows {limit}")
    fn.max_dynamic_shared_size_bytes = smem


def tuned_frontier(g: Graph, sources=None, dtype=None):
    D, timings = _solve(g, sources, dtype)
    if not isinstance(D, np.ndarray):
        t0 = time.perf_counter()
        D = D.get()
        timings["d2h_ms"] = (time.perf_counter() - t0) * 1e3
    return (normalise_inf(D) if timings["dtype"] == "int32" else D), timings


def tuned_frontier_resident(g: Graph, sources=None, sink=None, chunk_rows=None):
    """The solver's end-to-end path (``shortest_paths``): the int32 rows of ``sources`` (all by default) left on
    the device, INF not yet normalised, and the timings.  With ``sink`` (a callable ``sink(row0, rows, stream)``
    that returns once it is done with the unfinished int32 ``rows``): the rows handed over in chunks as they are
    solved (:func:`_streamed`); returns (None, timings)."""
    if sink is not None:
        return _streamed(g, sources, sink, chunk_rows)
    D, timings = _solve(g, sources, "int32")
    if isinstance(D, np.ndarray):
        D = gpu_device.require_gpu().asarray(D)
    return D, timings


def resident_blocks(cp, fn, smem):
    """Blocks of the kernel the whole device holds at once (the occupancy API; 16 a multiprocessor, the thread
    limit's, where the API is not there)."""
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    try:
        per_sm = cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(fn.kernel.ptr, THREADS, smem)
    except Exception:                                  # an older CuPy: the limit of 2048 threads a multiprocessor
        per_sm = 2048 // THREADS
    return max(1, int(per_sm)) * int(sms)


def _streamed(g, sources, sink, chunk_rows):
    """Chunks of sources, each one launch, on two compute streams in turn, so that a chunk's blocks start on the
    multiprocessors its predecessor's last blocks leave; each chunk's rows go to ``sink`` on a third stream as soon as
    its kernel ends, while the next chunks run.  A chunk is one wave of blocks (:func:`resident_blocks`) unless
    ``chunk_rows`` says otherwise: on a ring (every source the same work, n = 16384) chunks of half a wave doubled
    the kernel time, and the sink's copy of a wave's rows takes less than the next wave's kernel.  Two row buffers:
    chunk j + 2 waits (an event) until the sink is done with chunk j's."""
    _, indptr, indices, weights = csr_arrays(g, "int32")
    n = g.n
    src = np.arange(n, dtype=np.int64) if sources is None else as_sources(sources, n)
    k = int(src.size)
    if n == 0 or k == 0:
        D, timings = tuned_frontier_resident(g, sources)
        sink(0, D, gpu_device.require_gpu().cuda.get_current_stream())
        return None, dict(timings, chunks=1)
    cp = gpu_device.require_gpu()
    fn = gpu_runtime.kernel("tuned_frontier.cu", "tfr_solve<int>", name_expressions=EXPRS)
    smem = shared_bytes(n)
    _shared_limit(cp, fn, smem)
    wave = resident_blocks(cp, fn, smem)
    c = max(1, min(int(chunk_rows or wave), k))
    gpu_device.check_fits(NAME, footprint(n, len(indices), 2 * c), hint="fewer sources or a smaller graph")
    t0 = time.perf_counter()
    bufs = [cp.empty((c, n), cp.int32) for _ in range(2)]
    rounds = [cp.empty(c, cp.int32) for _ in range(2)]
    Va, Ea, Wa, Sa = (cp.asarray(a) for a in (indptr, indices, weights, src.astype(np.int32)))
    cp.cuda.Device().synchronize()
    timings = dict(alloc_ms=0.0, h2d_ms=(time.perf_counter() - t0) * 1e3, d2h_ms=0.0, kernel_ms=0.0, rounds_max=0,
                   sources=k, dtype="int32", chunks=-(-k // c), chunk_rows=c, wave_blocks=wave)
    streams = [cp.cuda.Stream(non_blocking=True) for _ in range(3)]
    side = streams[2]
    starts = list(range(0, k, c))
    freed, ends = [None, None], []
    first = cp.cuda.Event()
    first.record(cp.cuda.get_current_stream())         # after the uploads

    def launch(j):
        i, r0 = j % 2, starts[j]
        kc = min(c, k - r0)
        with streams[i]:
            streams[i].wait_event(freed[i] if freed[i] is not None else first)
            gpu_runtime.launch(NAME, fn, (kc,), (THREADS,), (bufs[i], Va, Ea, Wa, Sa[r0:r0 + kc], np.int32(n),
                                                           rounds[i]), shared_mem=smem)
            ev = cp.cuda.Event()
            ev.record(streams[i])
        ends.append(ev)
        return ev

    done = launch(0)
    for j, r0 in enumerate(starts):
        nxt = launch(j + 1) if j + 1 < len(starts) else None
        i, kc = j % 2, min(c, k - r0)
        side.wait_event(done)
        r = rounds[i][:kc].get(stream=side)           # waits for chunk j's kernel only
        if (r < 0).any():
            raise RuntimeError(f"{NAME}: source {int(src[r0 + np.argmax(r < 0)])} still had a frontier after n + 1 = "
                               f"{n + 1} rounds (a bug: weights are >= 0)")
        timings["rounds_max"] = max(timings["rounds_max"], int(r.max()))
        t0 = time.perf_counter()
        sink(r0, bufs[i][:kc], side)
        timings["d2h_ms"] += (time.perf_counter() - t0) * 1e3
        freed[i] = cp.cuda.Event()
        freed[i].record(side)
        done = nxt
    side.synchronize()
    # the kernels' span: from the uploads to the last kernel's end (the two compute streams overlap, so a sum of
    # per-launch times would count the overlap twice; the span includes any wait for a buffer the sink still held)
    timings["kernel_ms"] = float(cp.cuda.get_elapsed_time(first, ends[-1]))
    return None, timings


def _solve(g, sources, dtype):
    """The kernel: the (sources x n) device matrix (a host array where there is nothing to solve), the timings."""
    dtype, indptr, indices, weights = csr_arrays(g, dtype)
    n = g.n
    src = np.arange(n, dtype=np.int64) if sources is None else as_sources(sources, n)
    k = int(src.size)
    np_t = np.int32 if dtype == "int32" else np.float32
    timings = dict(alloc_ms=0.0, h2d_ms=0.0, d2h_ms=0.0, kernel_ms=0.0, rounds_max=0, sources=k, dtype=dtype)
    if n == 0 or k == 0:
        return np.zeros((k, n), np_t), timings
    cp = gpu_device.require_gpu()
    fn = gpu_runtime.kernel("tuned_frontier.cu", f"tfr_solve<{'int' if dtype == 'int32' else 'float'}>",
                            name_expressions=EXPRS)
    smem = shared_bytes(n)
    _shared_limit(cp, fn, smem)
    gpu_device.check_fits(NAME, footprint(n, len(indices), k), hint="fewer sources or a smaller graph")
    t0 = time.perf_counter()
    D = cp.empty((k, n), np_t)
    rounds = cp.empty(k, cp.int32)
    cp.cuda.Device().synchronize()
    timings["alloc_ms"] = (time.perf_counter() - t0) * 1e3
    t0 = time.perf_counter()
    Va, Ea, Wa, Sa = (cp.asarray(a) for a in (indptr, indices, weights, src.astype(np.int32)))
    cp.cuda.Device().synchronize()
    timings["h2d_ms"] = (time.perf_counter() - t0) * 1e3
    with gpu_runtime.EventTimer() as t:
        gpu_runtime.launch(NAME, fn, (k,), (THREADS,), (D, Va, Ea, Wa, Sa, np.int32(n), rounds), shared_mem=smem)
    r = rounds.get()
    if (r < 0).any():
        raise RuntimeError(f"{NAME}: source {int(src[np.argmax(r < 0)])} still had a frontier after n + 1 = {n + 1} "
                           f"rounds (a bug: weights are >= 0)")
    timings.update(kernel_ms=t.ms, rounds_max=int(r.max()))
    return D, timings
