"""Seed 001's three BFS kernels (``cuda/bfs.cu``: parallelBFS, Algs. 1-2; queueBFS, Algs. 3-4;
scanBFS, §3.3 and Algs. 5-9), one level-synchronous host loop each, from each of ``sources``.

Each returns ``(levels, timings)``: int32 levels of shape (len(sources), n), INF where unreached;
``kernel_ms`` (CUDA events around every search: initialisation, the levels, the host's read of
the flag or queue size after each level, the copy of the row), ``levels`` (levels run, summed
over the sources), ``alloc_ms``, ``h2d_ms`` (the graph), ``d2h_ms`` (0: the rows are copied inside
the timed region).  Time one source per call for per-source statistics.

``threads``: threads per block.  The seed does not state it (its Alg. 5 calls it NUM_THREADS); we
take 1024, the block of the public CUDA BFS code whose kernels (nextLayer, countDegrees, scanDegrees)
seed 001's scanBFS algorithms are named after."""
from __future__ import annotations

import numpy as np

from ... import gpu_device
from ...core.graph import INF, Graph
from ...core.sources import as_sources
from . import runtime as gpu_runtime
from .csr import Searches, blocks

BFS_THREADS = 1024


def _kernels(*names):
    return [gpu_runtime.kernel("bfs.cu", nm) for nm in names]


def parallel_bfs(g: Graph, sources=None, threads=BFS_THREADS):
    """Algorithms 1-2: one thread per vertex; a level runs while the last one changed something."""
    name, src, n = "parallel_bfs", as_sources(sources, g.n), g.n
    S = Searches(name, g, src, weights=False, extra_bytes=8 * n + 8)
    Va, Ea = S.arrays
    Dist, P, Q, flag = S.alloc(lambda cp: (cp.empty(max(n, 1), cp.int32), cp.empty(max(n, 1), cp.int32),
                                           cp.empty(1, cp.int32), cp.zeros(1, cp.int32)))
    init, step = _kernels("bfs_init", "parallel_bfs_kernel")
    grid, block, n32, inf = blocks(n, threads), (int(threads),), np.int32(n), np.int32(INF)
    h = np.zeros(1, np.int32)
    levels = 0
    with gpu_runtime.EventTimer() as t:
        for row, s in enumerate(src):
            gpu_runtime.launch(name, init, grid, block, (Dist, P, Q, n32, np.int32(s), inf, inf))
            level = 0
            while True:                                   # Alg. 1 lines 7-10
                flag.fill(0)
                gpu_runtime.launch(name, step, grid, block, (np.int32(level), Va, Ea, Dist, flag, n32))
                level += 1
                flag.get(out=h)
                if h[0] == 0:
                    break
            levels += level
            S.keep(row, Dist)
    return S.result(), dict(S.timings, kernel_ms=t.ms, levels=levels, sources=len(src))


def queue_bfs(g: Graph, sources=None, threads=BFS_THREADS):
    """Algorithms 3-4: one thread per vertex of the current queue; atomicMin claims, atomicAdd
    places in the next queue; the host reads the next queue's size after each level."""
    name, src, n = "queue_bfs", as_sources(sources, g.n), g.n
    S = Searches(name, g, src, weights=False, extra_bytes=16 * n + 4)
    Va, Ea = S.arrays
    Dist, P, cQ, nQ, nQ_size = S.alloc(lambda cp: tuple(cp.empty(max(n, 1), cp.int32) for _ in range(4))
                                       + (cp.zeros(1, cp.int32),))
    init, step = _kernels("bfs_init", "queue_bfs_kernel")
    block, n32, inf = (int(threads),), np.int32(n), np.int32(INF)
    h = np.zeros(1, np.int32)
    levels = 0
    with gpu_runtime.EventTimer() as t:
        for row, s in enumerate(src):
            gpu_runtime.launch(name, init, blocks(n, threads), block, (Dist, P, cQ, n32, np.int32(s), inf, np.int32(-1)))
            size, l = 1, 0
            while size > 0:                               # Alg. 3 lines 7-11
                nQ_size.fill(0)
                gpu_runtime.launch(name, step, blocks(size, threads), block,
                           (np.int32(l), Va, Ea, Dist, P, cQ, np.int32(size), nQ, nQ_size))
                cQ, nQ = nQ, cQ
                nQ_size.get(out=h)
                size, l = int(h[0]), l + 1
            levels += l
            S.keep(row, Dist)
    return S.result(), dict(S.timings, kernel_ms=t.ms, levels=levels, sources=len(src))


def scan_bfs(g: Graph, sources=None, threads=BFS_THREADS):
    """§3.3 (Algs. 5-9): nextLayer, countDegrees, a prefix scan of the degrees (CuPy's, instead of
    the seed's hand-written Alg. 8), populateNextQueue; the host reads the next queue's size (the
    last inclusive sum) after the scan."""
    name, src, n = "scan_bfs", as_sources(sources, g.n), g.n
    cp = gpu_device.require_gpu()
    S = Searches(name, g, src, weights=False, extra_bytes=24 * n)
    Va, Ea = S.arrays
    Dist, P, cQ, nQ, Deg = S.alloc(lambda cp: tuple(cp.empty(max(n, 1), cp.int32) for _ in range(5)))
    init, layer, count, populate = _kernels("bfs_init", "scan_next_layer", "scan_count_degrees",
                                            "scan_populate_next_queue")
    block, n32, minus1 = (int(threads),), np.int32(n), np.int32(-1)
    h = np.zeros(1, np.int32)
    levels = 0
    with gpu_runtime.EventTimer() as t:
        for row, s in enumerate(src):
            gpu_runtime.launch(name, init, blocks(n, threads), block, (Dist, P, cQ, n32, np.int32(s), minus1, minus1))
            size, l = 1, 0
            while size > 0:                               # Alg. 5 lines 9-17
                grid, q = blocks(size, threads), np.int32(size)
                gpu_runtime.launch(name, layer, grid, block, (np.int32(l), Va, Ea, P, Dist, cQ, q))
                gpu_runtime.launch(name, count, grid, block, (Va, Ea, P, cQ, q, Deg))
                PreDeg = gpu_runtime.launch(name, cp.cumsum, Deg[:size], dtype=cp.int32)   # inclusive scan
                PreDeg[size - 1:].get(out=h)
                gpu_runtime.launch(name, populate, grid, block, (Va, Ea, P, cQ, q, nQ, PreDeg))
                cQ, nQ = nQ, cQ
                size, l = int(h[0]), l + 1
            levels += l
            S.keep(row, Dist)
    return S.result(), dict(S.timings, kernel_ms=t.ms, levels=levels, sources=len(src))
