"""``tuned_frontier``: shortest paths of a sparse graph with one thread block per source, each running
Bellman-Ford with a frontier bitmap to the end inside itself, so that a deep graph costs rounds, not
launches (``cuda/tuned_frontier.cu`` says how and why it is exact).  Non-negative weights.

``sources``: None for all n rows (an APSP), or vertex numbers (repeats and any order allowed): one row
each, shape (len(sources), n).  ``dtype``: "int32" (INF where unreachable, as every code here) or
"float32" (+inf); None picks by the graph: a :class:`~apsp_kernels.core.graph.Graph` (int32 weights)
gives int32, a :class:`~apsp_kernels.core.wide.WideGraph` of float weights float32 (its float64 weights
rounded to float32, the sums float32: what the float32 result means is the kernel header's).  A
WideGraph of int64 weights is refused unless dtype="float32" is asked for.

The launcher renumbers a graph of small separators before the kernel runs (:func:`renumbering`, which says where:
reverse Cuthill-McKee, so that neighbours get near numbers and a block's reads of its distance row fall near each
other) and puts each chunk's rows back in the graph's own numbering on the device (a gather of its columns) before
anyone sees them; the kernel's frontier bitmaps hold consecutive vertices in consecutive words, so that the
near-numbered vertices of a round's frontier are walked by different threads.  Together, on one H200
(``scripts/frontier_order_probe.py``, 2026-12-01, kernel time, all pairs of 11 graphs of 4,096-16,384 vertices):
0.47-0.93x the time of the graph's own numbering with the bitmap's 32 consecutive vertices a word (Delaunay graph of
16,384: 646 -> 303 ms; kNN graph 80.6 -> 45.9; grid 97.0 -> 56.4); either change alone was slower on some graphs
(renumbering alone 1.86x on a kNN corridor: its frontier's vertices, numbered together, then fell to one thread)."""
from __future__ import annotations

import math
import time

import numpy as np

from .... import gpu_device
from ....core.graph import Graph, GraphError, normalise_inf
from ....core.sources import as_sources
from ....core.structure import _once
from .. import runtime as gpu_runtime

NAME = "tuned_frontier"
THREADS = 128                 # TFR_THREADS of cuda/tuned_frontier.cu (tests/test_tuned_frontier_cpu.py compares)
HEAVY = 32                    # TFR_HEAVY of the same: from this out-degree the block shares a vertex's edges
HEAVY_SLOTS = 256             # TFR_HEAVY_SLOTS of the same: the heavy vertices a round defers
STATIC_SHARED = 4 * (2 * HEAVY_SLOTS + 2)     # the kernel's own shared memory: two lists and their counts
DTYPES = ("int32", "float32")
EXPRS = ("tfr_solve<int>", "tfr_solve<float>")
DEFAULT_SHARED = 48 * 1024    # dynamic shared memory a block gets without opting in
OPTIN_ATTRIBUTE = 97          # cudaDevAttrMaxSharedMemoryPerBlockOptin
RENUMBER_WORK = 1 << 28       # sources x edges from which the launcher renumbers (below it, at 4,096 vertices, the
                              # host's milliseconds of renumbering were not won back on most graphs)
RENUMBER_SPAN = 4.0           # a new numbering kept where a mean edge spans at most this many sqrt(n) numbers
RENUMBER_DEGREE = 1.0         # not tried where a vertex has more than this many sqrt(n) edges in or out
ALIAS_SHARE = 0.25            # below RENUMBER_WORK, renumbered where an edge span past 1 is this share of the edges
ALIAS_ROWS = 2                # or more and this many of it, or fewer, are a multiple of the bitmap's words
GATHER_ROWS = 4096            # at most this many rows a chunk where it renumbers: two such chunks are written in the
                              # new numbering before their columns are put back (footprint's bound)


def shared_bytes(n):
    """Two frontier bitmaps of ceil(n / 32) words."""
    return 2 * 4 * (-(-max(int(n), 1) // 32))


def rows_footprint(n, m, rows=None):
    """Device bytes of a block-per-source code (this one, tuned_deep): the rows x n distances (rows = n: every
    source), the CSR, and per row its source and its round count."""
    n = max(int(n), 1)
    rows = n if rows is None else int(rows)
    return 4 * rows * n + 4 * (n + 1 + 2 * m) + 8 * rows


def footprint(n, m, rows=None):
    """Device bytes: :func:`rows_footprint`, and two chunks of rows in the new numbering (:data:`GATHER_ROWS` rows
    at most) and the numbering: a bound from above, counted whether or not the launcher will renumber the graph
    (whether it does is known only after ordering it: 8% more than the rows at 100,000 vertices)."""
    rows = max(int(n), 1) if rows is None else int(rows)
    return rows_footprint(n, m, rows) + 8 * min(rows, GATHER_ROWS) * max(int(n), 1) + 4 * max(int(n), 1)


# A vertex of out-degree d >= TFR_HEAVY (cuda/tuned_frontier.cu) is relaxed by the whole block, d / THREADS
# relaxations a thread, each time it enters a source's frontier (one of lower degree by the thread that found its
# bit); the blocks of other sources run beside it.  The time per source and per THREADS of the hub's out-edges is
# measured, not derived: data/auto.yaml (hub_unit) holds it with the recorded rows it was fitted on.


def hub_ms(n, max_degree, hop_depth=None, variant=None, unit=None):
    """The least time of a solve set by the vertex of ``max_degree`` out-edges, in ms, at ``unit`` seconds per
    source and per THREADS of its out-edges (the hop depth does not enter: the hub's edges are walked in the rounds
    that lower its distance, not in every round)."""
    return int(n) * int(max_degree) / THREADS * float(unit) * 1e3


def kernel_for(dtype, defines=()):
    """The compiled kernel for ``dtype`` ("int32" or "float32"); ``defines``: ((NAME, value), ...) of the source
    (TFR_HEAVY)."""
    return gpu_runtime.kernel("tuned_frontier.cu", f"tfr_solve<{'int' if dtype == 'int32' else 'float'}>",
                              name_expressions=EXPRS, defines=tuple(defines))


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


def worth_renumbering(sources, m):
    """Whether ``sources`` sources over ``m`` edges reach :data:`RENUMBER_WORK`, below which the launcher keeps a
    graph's own numbering (auto's host depth threshold reads the same test: elimination_choice.depth_base)."""
    return sources * max(m, 1) >= RENUMBER_WORK


def bitmap_aliased(g):
    """Whether ``g``'s own numbering aliases the kernel's transposed frontier bitmaps: vertex v is in word v % words
    (words = ceil(n / 32)), so vertices d apart share a word where words divides d.  A lattice numbered by rows, w
    vertices a row, has most edges past the row's own spanning w, and where j w is a multiple of the words for j <=
    :data:`ALIAS_ROWS` a frontier's vertices j rows apart in one column (a BFS-like frontier has two a column,
    rows r +- k) sit in one thread's word: on the grid of 4,096 (64 wide, 128 words) the kernel took 8.9 ms against
    7.5 with one word a thread's 32 vertices, 4.2 renumbered (one H200, scripts/frontier_order_probe.py).  That span
    must be at least :data:`ALIAS_SHARE` of the edges (a square lattice: half; a cube's two such spans a third each;
    any of them may alias).  Remembered for the graph object."""
    def make():
        n, indptr, indices = g.n, g.indptr, g.indices
        if n < 2 or not indices.size:
            return False
        tails = np.repeat(np.arange(n), np.diff(indptr))
        span = np.abs(indices.astype(np.int64) - tails)
        counts = np.bincount(span[span > 1], minlength=2)
        common = np.flatnonzero(counts >= ALIAS_SHARE * indices.size)      # a 3-D lattice has two such spans
        words = -(-n // 32)
        return any(j * int(d) % words == 0 for d in common for j in range(1, ALIAS_ROWS + 1))
    return _once(g, ("bitmap-aliased", ALIAS_SHARE, ALIAS_ROWS), make)


def renumbering(g):
    """(p, q) of the numbering the launcher gives ``g`` where it renumbers (new vertex i is old vertex p[i], q the
    inverse: q[old] = new; both int32), or None where it keeps g's own.  scipy's reverse Cuthill-McKee of g's
    symmetric pattern, tried where the n sources together reach :data:`RENUMBER_WORK` edges or more (each those of
    its weak component: many small components are little work) or its own numbering aliases the kernel's bitmaps
    (:func:`bitmap_aliased`: a lattice numbered by rows, of some widths), and no vertex has more than
    :data:`RENUMBER_DEGREE` sqrt(n) edges in or out (scipy's ordering took 170 ms on the hub graph of 16,384, a
    vertex joined to all), and kept where it puts a mean edge's ends within :data:`RENUMBER_SPAN` sqrt(n) numbers
    of each other: a graph of small separators (grids, geometric and road-like graphs); a random or small-world
    graph has no such numbering, and its call was the slower for RCM's (the ordering's host time; on small worlds the
    kernel too).  Remembered for the graph object while it lives (3-15 ms at 16,384 vertices on the device's host)."""
    def make():
        import scipy.sparse as sp
        from scipy.sparse.csgraph import connected_components, reverse_cuthill_mckee
        from ...cpu.elimination.ordering import symmetric_pattern
        n, indptr, indices = g.n, g.indptr, g.indices
        degree = max(np.diff(indptr).max(), np.bincount(indices, minlength=n).max()) if n else 0
        if n < 2 or degree > RENUMBER_DEGREE * math.sqrt(n):
            return None
        tails = np.repeat(np.arange(n), np.diff(indptr))
        # the pattern the elimination orders on: parallel edges one entry, no self-loops, both directions
        a = symmetric_pattern(sp.csr_matrix((np.ones(indices.size, np.int8), (tails, indices)), shape=(n, n)))
        # the edges all n sources can reach: those of each source's (weak) component
        label = connected_components(a, directed=False)[1]
        # elementwise, not np.dot: a BLAS call wakes its threads, which then spin beside the solve's host threads
        reach = int((np.bincount(label, minlength=n).astype(np.int64) * np.bincount(label[tails], minlength=n)).sum())
        if reach < RENUMBER_WORK and not bitmap_aliased(g):
            return None
        p = np.asarray(reverse_cuthill_mckee(a, symmetric_mode=True), np.int32)
        q = np.empty_like(p)
        q[p] = np.arange(n, dtype=np.int32)
        span = np.abs(q[tails] - q[indices]).mean() if indices.size else 0.0
        return (p, q) if span <= RENUMBER_SPAN * math.sqrt(n) else None
    return _once(g, ("rcm", RENUMBER_WORK, RENUMBER_SPAN, RENUMBER_DEGREE, ALIAS_SHARE, ALIAS_ROWS), make)


def renumbered(indptr, indices, weights, p, q):
    """The CSR (indptr, indices, weights) of the graph with new vertex i the old p[i] (q: old -> new)."""
    deg = np.diff(indptr)[p]
    new_indptr = np.zeros(p.size + 1, np.int64)
    np.cumsum(deg, out=new_indptr[1:])
    edge = np.repeat(indptr[p].astype(np.int64) - new_indptr[:-1], deg) + np.arange(new_indptr[-1])
    return new_indptr.astype(np.int32), q[indices[edge]], np.ascontiguousarray(weights[edge])


def device_arrays(cp, who, n, rows, np_t, indptr, indices, weights, src, timings, more_bytes=0):
    """The device side of a launch of ``who`` (tuned_frontier, tuned_deep): refuses, in one line, where
    ``rows`` x n distances, the CSR and per row a source and a round count (and ``more_bytes``) do not fit;
    allocates the (rows x n) ``np_t`` distances and the rows' int32 round counts, unset (the kernel writes
    every entry), and uploads the CSR and the sources as int32.  Sets timings' alloc_ms and h2d_ms (each
    step waited for).  Returns (D, rounds, indptr, indices, weights, sources) on the device."""
    gpu_device.check_fits(who, rows_footprint(n, len(indices), rows) + int(more_bytes),
                          hint="fewer sources or a smaller graph")
    t0 = time.perf_counter()
    D = cp.empty((rows, n), np_t)
    rounds = cp.empty(rows, cp.int32)
    cp.cuda.Device().synchronize()
    timings["alloc_ms"] = (time.perf_counter() - t0) * 1e3
    t0 = time.perf_counter()
    Va, Ea, Wa, Sa = (cp.asarray(a) for a in (indptr, indices, weights, src.astype(np.int32)))
    cp.cuda.Device().synchronize()
    timings["h2d_ms"] = (time.perf_counter() - t0) * 1e3
    return D, rounds, Va, Ea, Wa, Sa


def _shared_limit(cp, fn, smem):
    """Opt the kernel in to ``smem`` bytes of dynamic shared memory where, with its own (``STATIC_SHARED``), it needs
    more than the 48 KiB a block gets without opting in."""
    if smem + STATIC_SHARED <= DEFAULT_SHARED:
        return
    dev = cp.cuda.Device()
    limit = cp.cuda.runtime.deviceGetAttribute(OPTIN_ATTRIBUTE, dev.id)
    if smem + STATIC_SHARED > limit:
        raise GraphError(f"{NAME}: n = {smem // 8 * 32} needs {smem + STATIC_SHARED} bytes of shared memory a block "
                         f"(its two frontier bitmaps and heavy-vertex lists); this device allows {limit}")
    fn.max_dynamic_shared_size_bytes = smem


def tuned_frontier(g: Graph, sources=None, dtype=None):
    return host_result(*_solve(g, sources, dtype))


def host_result(D, timings):
    """A per-source code's (distances, timings) as its launcher returns them: the matrix copied to the host (the
    copy timed as ``d2h_ms``), int32 INF normalised."""
    if not isinstance(D, np.ndarray):
        t0 = time.perf_counter()
        D = D.get()
        timings["d2h_ms"] = (time.perf_counter() - t0) * 1e3
    return (normalise_inf(D) if timings["dtype"] == "int32" else D), timings


def tuned_frontier_resident(g: Graph, sources=None, sink=None, chunk_rows=None):
    """The solver's end-to-end path (``shortest_paths``): the int32 rows of ``sources`` (all by default) left on
    the device, INF not yet normalised, and the timings.  With ``sink`` (a callable ``sink(row0, rows, stream)``
    that returns once it is done with the unfinished int32 ``rows``): each chunk's rows handed over as soon as
    its kernel ends, while the next chunks run (:func:`_solve`); returns (None, timings)."""
    D, timings = _solve(g, sources, "int32", sink, chunk_rows)
    if sink is None and isinstance(D, np.ndarray):
        D = gpu_device.require_gpu().asarray(D)
    return D, timings


NARROW_WIDTH = 32             # a mean frontier (n / rounds) narrower than a warp: blocks of NARROW_THREADS
NARROW_THREADS = 64


def resident_blocks(cp, fn, smem, threads=THREADS):
    """Blocks of the kernel the whole device holds at once (the occupancy API; the thread limit's 2048 a
    multiprocessor where the API is not there)."""
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    try:
        per_sm = cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(fn.kernel.ptr, threads, smem)
    except Exception:                                  # an older CuPy
        per_sm = 2048 // threads
    return max(1, int(per_sm)) * int(sms)


def block_threads(n, rounds_max):
    """Threads a block for the chunks after the first, from the first chunk's rounds: where the mean frontier
    (n / rounds) is narrower than a warp (a ring, a path: one or two vertices a round) most of a 128-thread block
    idles, and a round is a latency chain; blocks of 64 threads let twice as many sources run at once (H100, ring
    of 16384: 88.8 ms against 117.3 for the kernel; on the grid, 64 vertices a round, 64 threads were slower,
    163 against 146 ms: scripts/stream_chunks_probe.py --threads, 2026-11-26)."""
    return NARROW_THREADS if n < NARROW_WIDTH * max(int(rounds_max), 1) else THREADS


def _solve(g, sources, dtype, sink=None, chunk_rows=None):
    """The kernel over the sources in chunks of one wave of blocks (:func:`resident_blocks`; ``chunk_rows``
    overrides), launched on two streams in turn so that a chunk's blocks start on the multiprocessors its
    predecessor's last blocks leave.  The first chunk runs alone: its rounds set the block size of the rest
    (:func:`block_threads`).  Without ``sink``: the (sources x n) device matrix (a host array where there is
    nothing to solve) and the timings.  With ``sink`` (int32 only): two chunk buffers; each chunk's rows go to
    ``sink`` on a third stream as soon as its kernel ends, while the next runs, and chunk j + 2 waits (an
    event) until the sink is done with chunk j's buffer; returns (None, timings).  Chunks of half a wave
    doubled the ring's kernel time with one stream (the sink's copy of a wave's rows takes less than the next
    wave's kernel)."""
    dtype, indptr, indices, weights = csr_arrays(g, dtype)
    n = g.n
    src = np.arange(n, dtype=np.int64) if sources is None else as_sources(sources, n)
    k = int(src.size)
    np_t = np.int32 if dtype == "int32" else np.float32
    timings = dict(alloc_ms=0.0, h2d_ms=0.0, d2h_ms=0.0, kernel_ms=0.0, rounds_max=0, sources=k, dtype=dtype, chunks=0,
                   renumber_ms=0.0, renumbered=False)
    if n == 0 or k == 0:
        D = np.zeros((k, n), np_t)
        if sink is None:
            return D, timings
        cp = gpu_device.require_gpu()
        sink(0, cp.asarray(D), cp.cuda.get_current_stream())
        return None, timings
    cp = gpu_device.require_gpu()
    fn = kernel_for(dtype)
    smem = shared_bytes(n)
    _shared_limit(cp, fn, smem)
    t0 = time.perf_counter()
    numbering = renumbering(g) if worth_renumbering(k, g.m) or bitmap_aliased(g) else None
    renumber = numbering is not None
    if renumber:                                       # the kernel sees the new numbering (module docstring)
        p, q = numbering
        indptr, indices, weights = renumbered(indptr, indices, weights, p, q)
    timings["renumber_ms"] = (time.perf_counter() - t0) * 1e3
    c = max(1, min(int(chunk_rows or resident_blocks(cp, fn, smem)), k, GATHER_ROWS if renumber else k))
    rows = k if sink is None else 2 * c
    starts = list(range(0, k, c))
    D, rounds, Va, Ea, Wa, Sa = device_arrays(cp, NAME, n, rows, np_t, indptr, indices, weights,
                                              q[src] if renumber else src, timings,
                                              more_bytes=8 * c * n + 4 * n if renumber else 0)
    # each chunk's kernel writes its rows in the new numbering into one of two buffers (one a stream), from which
    # a gather of the columns puts them in place, in the graph's numbering, on the same stream (kernel_ms spans it)
    scratch = [cp.empty((c, n), np_t) for _ in range(min(2, len(starts)))] if renumber else None
    old_to_new = cp.asarray(q) if renumber else None
    timings.update(chunks=len(starts), chunk_rows=c, renumbered=renumber)
    streams = [cp.cuda.Stream(non_blocking=True) for _ in range(3)]
    side = streams[2]
    freed, ends, threads = [None, None], [], [THREADS]
    first = cp.cuda.Event()
    first.record(cp.cuda.get_current_stream())         # after the uploads

    def place(j):           # chunk j's rows: its own rows of D, or one of the two buffers
        r0, kc = starts[j], min(c, k - starts[j])
        b = r0 if sink is None else (j % 2) * c
        return D[b:b + kc], rounds[b:b + kc]

    def launch(j):
        st, (Dj, Rj) = streams[j % 2], place(j)
        with st:
            st.wait_event(freed[j % 2] if sink is not None and freed[j % 2] is not None else first)
            out = scratch[j % 2][:Dj.shape[0]] if renumber else Dj
            gpu_runtime.launch(NAME, fn, (Dj.shape[0],), (threads[0],),
                               (out, Va, Ea, Wa, Sa[starts[j]:starts[j] + Dj.shape[0]], np.int32(n), Rj),
                               shared_mem=smem)
            if renumber:
                cp.take(out, old_to_new, axis=1, out=Dj)
            ev = cp.cuda.Event()
            ev.record(st)
        ends.append(ev)
        return ev

    done = launch(0)
    for j, r0 in enumerate(starts):
        nxt = launch(j + 1) if 0 < j < len(starts) - 1 else None
        Dj, Rj = place(j)
        side.wait_event(done)
        r = Rj.get(stream=side)                       # waits for chunk j's kernel only
        if (r < 0).any():
            raise RuntimeError(f"{NAME}: source {int(src[r0 + np.argmax(r < 0)])} still had a frontier after 2n + 1 = "
                               f"{2 * n + 1} rounds (a bug: weights are >= 0)")
        timings["rounds_max"] = max(timings["rounds_max"], int(r.max()))
        if j == 0:
            timings["first_rounds_max"] = timings["rounds_max"]
            threads[0] = block_threads(n, timings["rounds_max"])
            nxt = launch(1) if len(starts) > 1 else None
        if sink is not None:
            t0 = time.perf_counter()
            sink(r0, Dj, side)
            timings["d2h_ms"] += (time.perf_counter() - t0) * 1e3
            freed[j % 2] = cp.cuda.Event()
            freed[j % 2].record(side)
        done = nxt
    side.synchronize()
    for st in streams[:2]:                              # the host waits: later work on any stream sees D
        st.synchronize()
    # the kernels' span, from the uploads to the last chunk's end (the two streams overlap: a sum of per-launch
    # times would count the overlap twice; the span includes any wait for a buffer the sink still held)
    timings.update(kernel_ms=max(float(cp.cuda.get_elapsed_time(first, e)) for e in ends), threads=threads[0])
    return (None if sink is not None else D), timings
