"""What the single-source CSR launchers share (seed 001's BFS kernels and Harish's SSSP from chosen
sources): the compacted adjacency list on the device, one pinned host row per source that each
search's result is copied into as soon as it ends (as Harish's APSP does: Alg. 13 line 15), and
the timing fields every GPU launcher reports (``alloc_ms``, ``h2d_ms``, ``d2h_ms``, ``kernel_ms``)."""
from __future__ import annotations

import time

import numpy as np

from ... import gpu_device
from ...core.graph import Graph, normalise_inf


def blocks(count, threads):
    """Blocks of ``threads`` that cover ``count`` threads (at least one)."""
    return (max(1, -(-int(count) // int(threads))),)


class Searches:
    """One device copy of the graph and the rows of the result, for ``sources`` searches.

    ``arrays``: the device CSR (Va, Ea, and Wa where ``weights``); ``extra_bytes``: the launcher's
    own device arrays, checked with the graph before anything is allocated."""

    def __init__(self, name, g: Graph, sources, weights, extra_bytes):
        self.cp = cp = gpu_device.require_gpu()
        import cupyx
        self.name, self.n, self.sources = name, g.n, sources
        need = 4 * (g.n + 1 + g.m * (2 if weights else 1)) + int(extra_bytes)
        gpu_device.check_fits(name, need, hint="a smaller graph")
        self.timings = dict(alloc_ms=0.0, h2d_ms=0.0, d2h_ms=0.0)
        t0 = time.perf_counter()
        self.out = cupyx.empty_pinned((max(len(sources), 1), g.n), np.int32)   # no 0-byte pinned block
        self.timings["alloc_ms"] = (time.perf_counter() - t0) * 1e3
        t0 = time.perf_counter()
        host = (g.indptr, g.indices) + ((g.weights,) if weights else ())
        self.arrays = tuple(cp.asarray(a.astype(np.int32, copy=False)) for a in host)
        cp.cuda.Device().synchronize()
        self.timings["h2d_ms"] = (time.perf_counter() - t0) * 1e3
        self._stream = cp.cuda.get_current_stream()

    def alloc(self, make):
        """Device arrays of the launcher, timed with the allocations: ``make(cp)`` returns them."""
        t0 = time.perf_counter()
        made = make(self.cp)
        self.cp.cuda.Device().synchronize()
        self.timings["alloc_ms"] += (time.perf_counter() - t0) * 1e3
        return made

    def keep(self, row, dist):
        """Queue the copy of one search's distances (device int32, n) into row ``row``."""
        cp = self.cp
        if self.n:
            cp.cuda.runtime.memcpyAsync(self.out.ctypes.data + row * self.n * 4, dist.data.ptr, self.n * 4,
                                        cp.cuda.runtime.memcpyDeviceToHost, self._stream.ptr)

    def result(self):
        """The rows as a numpy array (call after the timed region has synchronised)."""
        return normalise_inf(np.array(self.out[:len(self.sources)]))
