"""Dijkstra from every source with a binary heap (numba), sequential or parallel over sources: the
fair CPU counterpart of Harish & Narayanan's SSSP-based APSP, and the best CPU code on sparse graphs."""
from __future__ import annotations

import time

import numpy as np
from numba import njit, prange

from ...core.graph import INF, Graph
from .units import all_units, timed_ms, spaced

_INF64 = np.int64(INF)

@njit(cache=True, nogil=True)
def _dijkstra_one(indptr, indices, weights, s, out_row, dist, heap_d, heap_v):
    n = indptr.size - 1
    for v in range(n):
        dist[v] = _INF64
    dist[s] = 0
    size = 1
    heap_d[0] = 0
    heap_v[0] = s
    while size > 0:
        d = heap_d[0]
        u = heap_v[0]
        size -= 1                                  # pop: move last to root, sift down
        if size > 0:
            ld, lv = heap_d[size], heap_v[size]
            p = 0
            while True:
                c = 2 * p + 1
                if c >= size:
                    break
                if c + 1 < size and heap_d[c + 1] < heap_d[c]:
                    c += 1
                if heap_d[c] >= ld:
                    break
                heap_d[p], heap_v[p] = heap_d[c], heap_v[c]
                p = c
            heap_d[p], heap_v[p] = ld, lv
        if d > dist[u]:
            continue                               # stale entry (lazy deletion)
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            nd = d + weights[e]
            if nd < dist[v]:
                dist[v] = nd
                p = size                           # push, sift up
                size += 1
                while p > 0:
                    q = (p - 1) // 2
                    if heap_d[q] <= nd:
                        break
                    heap_d[p], heap_v[p] = heap_d[q], heap_v[q]
                    p = q
                heap_d[p], heap_v[p] = nd, v
    for v in range(n):
        out_row[v] = dist[v]


@njit(cache=True, nogil=True)
def dijkstra_apsp_seq(indptr, indices, weights, out, sources):
    # ``sources``: every vertex for a solve; a sample of them to time part of the work
    n = indptr.size - 1
    m = indices.size
    dist = np.empty(n, np.int64)
    heap_d = np.empty(m + 1, np.int64)
    heap_v = np.empty(m + 1, np.int32)
    for t in range(sources.size):
        s = sources[t]
        _dijkstra_one(indptr, indices, weights, s, out[t], dist, heap_d, heap_v)


@njit(cache=True, parallel=True)
def _dijkstra_apsp_par(indptr, indices, weights, out, sources):
    n = indptr.size - 1
    m = indices.size
    for t in prange(sources.size):
        dist = np.empty(n, np.int64)
        heap_d = np.empty(m + 1, np.int64)
        heap_v = np.empty(m + 1, np.int32)
        _dijkstra_one(indptr, indices, weights, sources[t], out[t], dist, heap_d, heap_v)


def _csr64(g):
    """The graph's CSR arrays as the int64 the Dijkstra kernels take."""
    return g.indptr.astype(np.int64), g.indices.astype(np.int64), g.weights.astype(np.int64)


def dijkstra_apsp(g: Graph, parallel=False) -> np.ndarray:
    return dijkstra_rows(g, all_units(g.n), parallel)


def dijkstra_rows(g: Graph, sources, parallel=False) -> np.ndarray:
    """The int32 distances from ``sources`` (one row each) to every vertex."""
    g.require_non_negative("Dijkstra")
    sources = np.asarray(sources, np.int64)
    out = np.empty((sources.size, g.n), np.int64)
    (_dijkstra_apsp_par if parallel else dijkstra_apsp_seq)(*_csr64(g), out, sources)
    return out.astype(np.int32)  # INF stays INF: dist starts at INF and only decreases


def sample_dijkstra_apsp(g: Graph, samples, parallel=False):
    g.require_non_negative("Dijkstra")
    t0 = time.perf_counter()
    src = spaced(g.n, samples)
    out = np.empty((src.size, g.n), np.int64)
    args = (*_csr64(g), out, src)
    setup = (time.perf_counter() - t0) * 1e3
    work = timed_ms(_dijkstra_apsp_par if parallel else dijkstra_apsp_seq, *args)
    t0 = time.perf_counter()
    out.astype(np.int32)                 # the solve's own conversion, on the sampled rows
    setup += (time.perf_counter() - t0) * 1e3 * g.n / src.size
    return setup, work, src.size, g.n
