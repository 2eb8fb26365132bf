"""Hochberg's naive FW (seed 002) as his fw.c runs it, and his explorations (Sec. 2.4), each one change
from the faithful kernel (hochberg_naive.cu, which the layouts run as it is) and layout: an N x Na host
matrix (Na = N rounded up to ``alignment``) copied whole to an N x Na device matrix, one launch of
1 x 256 thread blocks per pivot on a grid of ceil(Na / 256) x N, the host waiting for each launch (his
cudaThreadSynchronize()), the result copied back.  (fw_dense.hochberg_naive, the campaign's entry, pads
rows too, sizes the grid by N and queues the launches; the results are the same.)

Every launcher returns ``(distances, timings)``: ``kernel_ms`` (CUDA events around the launches),
``alloc_ms``, ``h2d_ms``, ``d2h_ms``, ``launches`` and ``row_stride`` (Na, in ints).  ``launch=False``
makes the same allocations and copies without the kernel: the second build of Sec. 2.3 whose time
his method subtracts (apsp_kernels.measure.difference_timing)."""
from __future__ import annotations

import time

import numpy as np

from ... import gpu_device
from ...core.distances import finish
from ...core.graph import INF, Graph, round_up
from . import runtime as gpu_runtime

THREADS = 256                 # his threadsPerBlock
ALIGN_TEXT, ALIGN_CODE = 32, 64   # Na's multiple in his Sec. 1.4.3, and ALIGNMENT in his fwHelpers.h
NO_HOP = -1                   # next_hop where there is no path

# Exploration name -> the one thing it changes (Sec. 2.4: 2 __syncthreads, 3 cudaMallocPitch,
# 4 columns, 5's Na = N, 8 the path matrix).  Each keeps the rest of the text's kernel (Na % 32).
EXPLORATIONS = {
    "unpadded": dict(alignment=1),
    "pitch": dict(pitched=True),
    "columns": dict(blocks="columns"),
    "nosync": dict(sync=False),
    "next_hop": dict(next_hop=True),
}


def _ms(t0):
    return (time.perf_counter() - t0) * 1e3


class _Matrix:
    """The device matrix and its host twin: N x Na (``alignment``), or pitched (cudaMallocPitch)."""

    def __init__(self, name, host, alignment, pitched):
        cp = gpu_device.require_gpu()
        n = host.shape[0]
        self.pitched, self.stride, self.host = None, round_up(n, alignment), host   # pitched: no Na on the host
        if not pitched:
            self.host = np.full((n, self.stride), INF, np.int32)   # padding columns: never read by the kernels
            self.host[:, :n] = host
            gpu_device.check_fits(name, n * self.stride * 4)
        t0 = time.perf_counter()
        if pitched:
            self.pitched = gpu_device.PitchedMatrix(name, n, n)
            self.dev, self.stride = self.pitched.array, self.pitched.pitch // 4
        else:
            self.dev = cp.empty((n, self.stride), cp.int32)
        cp.cuda.Device().synchronize()
        self.alloc_ms = _ms(t0)

    def to_device(self):
        t0 = time.perf_counter()
        self.pitched.set(self.host) if self.pitched else self.dev.set(self.host)
        gpu_device.require_gpu().cuda.Device().synchronize()
        return _ms(t0)

    def to_host(self):
        gpu_device.require_gpu().cuda.Device().synchronize()
        t0 = time.perf_counter()
        self.pitched.get(self.host) if self.pitched else self.dev.get(out=self.host)
        return self.host[:, :self.host.shape[0]], _ms(t0)

    def free(self):
        if self.pitched:
            self.pitched.free()
        self.dev = None


def _next_hop_start(d0):
    """j for an edge i -> j, i on the diagonal, NO_HOP where there is no edge."""
    n = d0.shape[0]
    nxt = np.where(d0 != INF, np.arange(n, dtype=np.int32)[None, :], np.int32(NO_HOP)).astype(np.int32)
    np.fill_diagonal(nxt, np.arange(n, dtype=np.int32))
    return nxt


def hochberg_fw(g: Graph, alignment=ALIGN_TEXT, pitched=False, blocks="rows", sync=True, next_hop=False,
                launch=True, host_sync=True, name="hochberg_fw"):
    """His fw.c with one exploration switched on; ``next_hop=True`` returns (distances, next, timings).
    ``host_sync``: the host waits for each launch before the next, as his main's cudaThreadSynchronize()
    does (hochberg_naive queues them all); the event time then includes those gaps, as his does."""
    if blocks not in ("rows", "columns") or (next_hop and (blocks != "rows" or not sync)):
        raise ValueError(f"{name}: one exploration at a time (blocks={blocks!r}, sync={sync}, next_hop={next_hop})")
    N = g.n
    timings = dict(alloc_ms=0.0, h2d_ms=0.0, d2h_ms=0.0, kernel_ms=0.0, launches=0, row_stride=N)
    if N == 0:
        z = np.zeros((0, 0), np.int32)
        return (z, z.copy(), timings) if next_hop else (z, timings)
    if blocks == "rows" and sync and not next_hop:     # the layouts: his kernel itself, the faithful file
        kernel = gpu_runtime.kernel("hochberg_naive.cu", "hochberg_fw_step")
    else:
        fn = "hochberg_cols_step" if blocks == "columns" else "hochberg_rows_step_next" if next_hop else "hochberg_rows_step"
        kernel = gpu_runtime.kernel("hochberg_explore.cu", fn, defines=() if sync else (("HOCHBERG_NO_SYNC", 1),))
    d0 = g.to_dense()
    mats = [_Matrix(name, d0, alignment, pitched)]
    if next_hop:
        mats.append(_Matrix(name, _next_hop_start(d0), alignment, pitched))
    try:
        timings["alloc_ms"] = sum(m.alloc_ms for m in mats)
        timings["h2d_ms"] = sum(m.to_device() for m in mats)
        Na = mats[0].stride
        if blocks == "columns":    # blocks walk down a column: rows in blockIdx.x, the column in blockIdx.y
            grid = ((N + THREADS - 1) // THREADS, N)
        else:                      # his main: blocksPerGrid((Na + threadsPerBlock - 1) / threadsPerBlock, N)
            grid = ((Na + THREADS - 1) // THREADS, N)
        args = (lambda k: (np.int32(k), mats[0].dev, mats[1].dev, np.int32(Na), np.int32(N))) if next_hop else \
               (lambda k: (np.int32(k), mats[0].dev, np.int32(Na), np.int32(N)))
        stream = gpu_device.require_gpu().cuda.get_current_stream()
        with gpu_runtime.EventTimer() as t:
            for k in range(N if launch else 0):
                gpu_runtime.launch(name, kernel, grid, (THREADS,), args(k))
                if host_sync:
                    stream.synchronize()
        timings.update(kernel_ms=t.ms, launches=N if launch else 0, row_stride=Na, host_sync=host_sync)
        if pitched:
            timings["pitch_bytes"] = mats[0].pitched.pitch
        out = []
        for m in mats:
            h, ms = m.to_host()
            timings["d2h_ms"] += ms
            out.append(np.ascontiguousarray(h))
    finally:
        for m in mats:
            m.free()
    d = finish(out[0])
    if next_hop:
        nxt = out[1]
        nxt[d == INF] = NO_HOP
        return d, nxt, timings
    return d, timings


def hochberg_align(g: Graph, alignment=ALIGN_CODE, launch=True):
    """His kernel and layout with Na a multiple of ``alignment``: 64 as his fwHelpers.h (and his
    Spot Check 4 printout, 'Alignment = 64'), 32 as his text (Sec. 1.4.3)."""
    return hochberg_fw(g, alignment=int(alignment), launch=launch, name="hochberg_align")


def hochberg_explore(g: Graph, variant="unpadded", launch=True):
    """One of his explorations (:data:`EXPLORATIONS`); ``next_hop`` computes the path matrix too (and
    copies it back) but returns the distances only: :func:`hochberg_paths` returns both."""
    if variant not in EXPLORATIONS:
        raise ValueError(f"hochberg_explore: unknown variant {variant!r}; one of {tuple(EXPLORATIONS)}")
    out = hochberg_fw(g, launch=launch, name="hochberg_explore", **EXPLORATIONS[variant])
    return (out[0], out[2]) if variant == "next_hop" else out


def hochberg_paths(g: Graph, launch=True):
    """Exploration 8: (distances, next, timings); next[i, j] is the vertex to step to from i on a
    shortest path to j (j for an edge, i on the diagonal, -1 where there is no path)."""
    return hochberg_fw(g, next_hop=True, launch=launch, name="hochberg_explore")
