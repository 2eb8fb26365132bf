"""CPU baselines (numba), the denominators of every speed-up in the study.

* :func:`fw_sequential` -- Floyd-Warshall exactly as Kemp's Algorithm 4, one thread.
  This is "the sequential FW" that Tran, Katz & Kider and Kemp measure against.
* :func:`fw_blocked` -- Venkataraman et al.'s blocked FW (Kemp's Algorithm 8), one thread,
  with the pivot row segment in a buffer so that its inner loop vectorises (Kemp's
  2012 C++ build was not vectorised either way; ours is the stronger baseline, and
  fw_sequential stays the literal scalar Algorithm 4 the papers divide by).
* :func:`fw_blocked_parallel` -- the same blocking over all cores (numba prange): the
  best CPU code we have; none of the seeds compared against one.
* :func:`minplus_squaring` -- the O(n^3 log n) repeated min-plus squaring that Tran's
  2500x claim was measured against (i-k-j loop order, the cache-friendly one).
* :func:`dijkstra_apsp` -- Dijkstra from every source with a binary heap, sequential or
  parallel over sources: the fair CPU counterpart of Harish & Narayanan's SSSP-based APSP.
* :func:`scipy_floyd_warshall`, :func:`scipy_dijkstra` -- library references.

All take a :class:`Graph` and return an int32 matrix with INF for "no path".
"""
from __future__ import annotations

import math

import numba
import numpy as np
from numba import njit, prange

from .graph import INF, Graph, GraphError
from .verify import NegativeCycleError, finish, from_scipy

_INF64 = np.int64(INF)


@njit(cache=True, nogil=True)
def _fw_sequential(D):
    n = D.shape[0]
    for k in range(n):
        for u in range(n):
            for v in range(n):
                D[u, v] = min(D[u, v], D[u, k] + D[k, v])


@njit(cache=True, nogil=True, inline="always")
def _relax_row(Di, Dk, dik, length):
    for j in range(length):
        Di[j] = min(Di[j], dik + Dk[j])


@njit(cache=True, nogil=True, inline="always")
def _fw_block(D, i0, i1, j0, j1, k0, k1, pivot):
    # The pivot row segment is copied into ``pivot`` so that LLVM sees two distinct arrays
    # and vectorises the inner loop (about 4x on AVX2; without it the loop stays scalar
    # because D[i, j] and D[k, j] might alias).  Row k itself only changes if D[k, k] < 0,
    # i.e. on a negative cycle, which finish() reports; the refresh keeps even that exact.
    length = j1 - j0
    for k in range(k0, k1):
        pivot[:length] = D[k, j0:j1]
        for i in range(i0, i1):
            _relax_row(D[i, j0:j1], pivot, D[i, k], length)
            if i == k:
                pivot[:length] = D[k, j0:j1]


@njit(cache=True, nogil=True)
def _fw_blocked(D, B):
    n = D.shape[0]
    nb = (n + B - 1) // B
    pivot = np.empty(B, D.dtype)
    for r in range(nb):
        k0, k1 = r * B, min(n, (r + 1) * B)
        _fw_block(D, k0, k1, k0, k1, k0, k1, pivot)          # phase 1: self-dependent block
        for b in range(nb):                                  # phase 2: its row and column
            if b != r:
                b0, b1 = b * B, min(n, (b + 1) * B)
                _fw_block(D, k0, k1, b0, b1, k0, k1, pivot)
                _fw_block(D, b0, b1, k0, k1, k0, k1, pivot)
        for bi in range(nb):                                 # phase 3: the rest
            if bi == r:
                continue
            i0, i1 = bi * B, min(n, (bi + 1) * B)
            for bj in range(nb):
                if bj != r:
                    _fw_block(D, i0, i1, bj * B, min(n, (bj + 1) * B), k0, k1, pivot)


@njit(cache=True, parallel=True)
def _fw_blocked_parallel(D, B):
    n = D.shape[0]
    nb = (n + B - 1) // B
    for r in range(nb):
        k0, k1 = r * B, min(n, (r + 1) * B)
        _fw_block(D, k0, k1, k0, k1, k0, k1, np.empty(B, D.dtype))
        for t in prange(2 * nb):
            b = t // 2
            if b != r:
                b0, b1 = b * B, min(n, (b + 1) * B)
                pivot = np.empty(B, D.dtype)                 # one per task: no sharing between threads
                if t % 2 == 0:
                    _fw_block(D, k0, k1, b0, b1, k0, k1, pivot)
                else:
                    _fw_block(D, b0, b1, k0, k1, k0, k1, pivot)
        for t in prange(nb * nb):
            bi, bj = t // nb, t % nb
            if bi != r and bj != r:
                _fw_block(D, bi * B, min(n, (bi + 1) * B), bj * B, min(n, (bj + 1) * B), k0, k1,
                          np.empty(B, D.dtype))


@njit(cache=True, nogil=True)
def _minplus_square(A, C):
    n = A.shape[0]
    for i in range(n):
        for j in range(n):
            C[i, j] = A[i, j]
        for k in range(n):
            aik = A[i, k]
            for j in range(n):
                C[i, j] = min(C[i, j], aik + A[k, j])


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
def _dijkstra_apsp_seq(indptr, indices, weights, out):
    n = indptr.size - 1
    m = indices.size
    dist = np.empty(n, np.int64)
    heap_d = np.empty(m + 1, np.int64)
    heap_v = np.empty(m + 1, np.int32)
    for s in range(n):
        _dijkstra_one(indptr, indices, weights, s, out[s], dist, heap_d, heap_v)


@njit(cache=True, parallel=True)
def _dijkstra_apsp_par(indptr, indices, weights, out):
    n = indptr.size - 1
    m = indices.size
    for s in prange(n):
        dist = np.empty(n, np.int64)
        heap_d = np.empty(m + 1, np.int64)
        heap_v = np.empty(m + 1, np.int32)
        _dijkstra_one(indptr, indices, weights, s, out[s], dist, heap_d, heap_v)


# ------------------------------------------------------------------ public API
def fw_sequential(g: Graph) -> np.ndarray:
    d = g.to_dense()
    _fw_sequential(d)
    return finish(d)


def fw_blocked(g: Graph, block=64) -> np.ndarray:
    d = g.to_dense()
    _fw_blocked(d, int(block))
    return finish(d)


def fw_blocked_parallel(g: Graph, block=64, threads=None) -> np.ndarray:
    d = g.to_dense()
    if threads is not None:
        numba.set_num_threads(int(threads))
    _fw_blocked_parallel(d, int(block))
    return finish(d)


def squarings_needed(n: int) -> int:
    """ceil(log2(n - 1)) squarings cover paths of n - 1 edges (Tran; Kemp Alg. 14)."""
    return 0 if n <= 2 else math.ceil(math.log2(n - 1))


def minplus_steps(g: Graph) -> int:
    """Squarings to run: enough for every shortest path, plus one where edges are negative,
    so that a negative cycle of up to n edges shows on the diagonal."""
    return squarings_needed(g.n) + (1 if g.has_negative and g.n > 1 else 0)


def minplus_squaring(g: Graph) -> np.ndarray:
    a = g.to_dense()
    c = np.empty_like(a)
    for _ in range(minplus_steps(g)):
        _minplus_square(a, c)
        a, c = c, a
    return finish(a)


def dijkstra_apsp(g: Graph, parallel=False) -> np.ndarray:
    if g.has_negative:
        raise GraphError("Dijkstra needs non-negative edge weights")
    out = np.empty((g.n, g.n), np.int64)
    args = (g.indptr.astype(np.int64), g.indices.astype(np.int64), g.weights.astype(np.int64), out)
    (_dijkstra_apsp_par if parallel else _dijkstra_apsp_seq)(*args)
    return out.astype(np.int32)  # INF stays INF: dist starts at INF and only decreases


def scipy_floyd_warshall(g: Graph) -> np.ndarray:
    from scipy.sparse import csgraph
    try:
        return from_scipy(csgraph.floyd_warshall(g.to_scipy(), directed=True))
    except csgraph.NegativeCycleError as e:
        raise NegativeCycleError(str(e)) from None


def scipy_dijkstra(g: Graph) -> np.ndarray:
    from scipy.sparse import csgraph
    if g.has_negative:
        raise GraphError("Dijkstra needs non-negative edge weights")
    return from_scipy(csgraph.dijkstra(g.to_scipy(), directed=True))


def cpu_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS
