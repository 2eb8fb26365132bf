"""CPU baselines (numba), the denominators of every speed-up in the study.

* :func:`fw_sequential` -- Floyd-Warshall exactly as Kemp's Algorithm 4, one thread.
  This is "the sequential FW" that Tran, Katz & Kider and Kemp measure against.
* :func:`fw_blocked` -- Venkataraman et al.'s blocked FW as Kemp's Algorithm 8 writes it,
  one thread: per block, for each k, for all i and j, D[i][j] = min(D[i][j], D[i][k] + D[k][j]).
  LLVM cannot vectorise that inner loop (D[i][j] and D[k][j] may alias), which is what Kemp's
  2012 build did too: this is the divisor of every "over blocked FW" claim.
* :func:`fw_blocked_vec` -- the same blocking with the pivot row segment in a buffer so that
  the inner loop vectorises: the best single-thread code we have (not a seed's baseline).
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

import time

import numba
import numpy as np
from numba import njit, prange

from .graph import INF, Graph, GraphError
from .distances import NegativeCycleError, finish, from_scipy, minplus_steps

_INF64 = np.int64(INF)


@njit(cache=True, nogil=True)
def _fw_sequential(D, ks):
    # ``ks``: the pivots to run, all of 0..n-1 for a solve; a sample of them to time a few
    # full n^2 passes in this very code path (every pass does the same n^2 relaxations).
    n = D.shape[0]
    for k in ks:
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


@njit(cache=True, nogil=True, inline="always")
def _fw_block_literal(D, i0, i1, j0, j1, k0, k1):
    # Kemp's Algorithm 8 as written: no pivot buffer, so D[i, j] and D[k, j] may alias and the
    # inner loop stays scalar, as in Kemp's 2012 C++ build.
    for k in range(k0, k1):
        for i in range(i0, i1):
            for j in range(j0, j1):
                D[i, j] = min(D[i, j], D[i, k] + D[k, j])


@njit(cache=True, nogil=True)
def _fw_blocked_literal(D, B, rounds):
    n = D.shape[0]
    nb = (n + B - 1) // B
    for r in rounds:
        k0, k1 = r * B, min(n, (r + 1) * B)
        _fw_block_literal(D, k0, k1, k0, k1, k0, k1)          # phase 1: self-dependent block
        for b in range(nb):                                   # phase 2: its row and column
            if b != r:
                b0, b1 = b * B, min(n, (b + 1) * B)
                _fw_block_literal(D, k0, k1, b0, b1, k0, k1)
                _fw_block_literal(D, b0, b1, k0, k1, k0, k1)
        for bi in range(nb):                                  # phase 3: the rest
            if bi == r:
                continue
            i0, i1 = bi * B, min(n, (bi + 1) * B)
            for bj in range(nb):
                if bj != r:
                    _fw_block_literal(D, i0, i1, bj * B, min(n, (bj + 1) * B), k0, k1)


@njit(cache=True, nogil=True)
def _fw_blocked(D, B, rounds):
    # ``rounds``: all of 0..n/B-1 for a solve, a sample to time whole rounds (each n^2 B work)
    n = D.shape[0]
    nb = (n + B - 1) // B
    pivot = np.empty(B, D.dtype)
    for r in rounds:
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
def _fw_blocked_parallel(D, B, rounds):
    n = D.shape[0]
    nb = (n + B - 1) // B
    for r in rounds:
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
def _minplus_square(A, C, rows):
    # ``rows``: all rows for a squaring; a sample to time part of one (rows cost the same)
    n = A.shape[0]
    for i in rows:
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
def _dijkstra_apsp_seq(indptr, indices, weights, out, sources):
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


# ------------------------------------------------------------------ public API
def _all(count):
    return np.arange(count, dtype=np.int64)


def _rounds(n, block):
    return -(-max(n, 1) // int(block))


def _csr64(g):
    """The graph's CSR arrays as the int64 the Dijkstra kernels take."""
    return g.indptr.astype(np.int64), g.indices.astype(np.int64), g.weights.astype(np.int64)


def fw_sequential(g: Graph) -> np.ndarray:
    d = g.to_dense()
    _fw_sequential(d, _all(g.n))
    return finish(d)


def fw_blocked(g: Graph, block=64) -> np.ndarray:
    d = g.to_dense()
    _fw_blocked_literal(d, int(block), _all(_rounds(g.n, block)))
    return finish(d)


def fw_blocked_vec(g: Graph, block=64) -> np.ndarray:
    d = g.to_dense()
    _fw_blocked(d, int(block), _all(_rounds(g.n, block)))
    return finish(d)


def fw_blocked_parallel(g: Graph, block=64, threads=None) -> np.ndarray:
    d = g.to_dense()
    if threads is not None:
        numba.set_num_threads(int(threads))
    _fw_blocked_parallel(d, int(block), _all(_rounds(g.n, block)))
    return finish(d)


def minplus_squaring(g: Graph) -> np.ndarray:
    a = g.to_dense()
    c = np.empty_like(a)
    for _ in range(minplus_steps(g)):
        _minplus_square(a, c, _all(g.n))
        a, c = c, a
    return finish(a)


def dijkstra_apsp(g: Graph, parallel=False) -> np.ndarray:
    if g.has_negative:
        raise GraphError("Dijkstra needs non-negative edge weights")
    out = np.empty((g.n, g.n), np.int64)
    (_dijkstra_apsp_par if parallel else _dijkstra_apsp_seq)(*_csr64(g), out, _all(g.n))
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


# ------------------------------------------------------------- sampled timing
# Each function below runs ``samples`` evenly spaced work units of a solve (pivots, rounds,
# sources, rows of a squaring) in the same compiled code as the solve, and returns
# (setup_ms, work_ms, units_run, units_total): the time of a whole solve is estimated as
# setup + work * total / run.  The distances it leaves are not a solution: a sampled run
# is never verified (the full runs at small n are, and validate the estimate).
def spaced(total, samples):
    """``samples`` evenly spaced indices of 0..total-1 (all of them if samples >= total)."""
    if samples is None or samples >= total:
        return _all(total)
    return np.unique(np.linspace(0, total - 1, int(samples)).round().astype(np.int64))


def _timed(fn, *args):
    t0 = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - t0) * 1e3


def _dense_setup(g):
    t0 = time.perf_counter()
    d = g.to_dense()
    return d, (time.perf_counter() - t0) * 1e3


def _finish_ms(d):
    t0 = time.perf_counter()
    finish(d.copy())
    return (time.perf_counter() - t0) * 1e3


def sample_fw_sequential(g: Graph, samples):
    d, setup = _dense_setup(g)
    ks = spaced(g.n, samples)
    work = _timed(_fw_sequential, d, ks)
    return setup + _finish_ms(d), work, ks.size, g.n


def _sample_blocked(kernel, g, block, samples):
    d, setup = _dense_setup(g)
    total = _rounds(g.n, block)
    rs = spaced(total, samples)
    work = _timed(kernel, d, int(block), rs)
    return setup + _finish_ms(d), work, rs.size, total


def sample_fw_blocked(g: Graph, samples, block=64):
    return _sample_blocked(_fw_blocked_literal, g, block, samples)


def sample_fw_blocked_vec(g: Graph, samples, block=64):
    return _sample_blocked(_fw_blocked, g, block, samples)


def sample_fw_blocked_parallel(g: Graph, samples, block=64):
    return _sample_blocked(_fw_blocked_parallel, g, block, samples)


def sample_minplus_squaring(g: Graph, samples):
    """Rows of one squaring; a solve is ``minplus_steps`` squarings of n rows each."""
    a, setup = _dense_setup(g)
    c = np.empty_like(a)
    rows = spaced(g.n, samples)
    work = _timed(_minplus_square, a, c, rows)
    return setup + _finish_ms(a), work, rows.size, g.n * max(minplus_steps(g), 1)


def sample_dijkstra_apsp(g: Graph, samples, parallel=False):
    if g.has_negative:
        raise GraphError("Dijkstra needs non-negative edge weights")
    t0 = time.perf_counter()
    src = spaced(g.n, samples)
    out = np.empty((src.size, g.n), np.int64)
    args = (*_csr64(g), out, src)
    setup = (time.perf_counter() - t0) * 1e3
    work = _timed(_dijkstra_apsp_par if parallel else _dijkstra_apsp_seq, *args)
    t0 = time.perf_counter()
    out.astype(np.int32)                 # the solve's own conversion, on the sampled rows
    setup += (time.perf_counter() - t0) * 1e3 * g.n / src.size
    return setup, work, src.size, g.n


def cpu_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS


def vector_report():
    """Packed min instructions (vpminsd/vpminsq) in the machine code numba generates for each FW
    code.  0: only a scalar inner loop exists, as in Kemp's 2012 build (Alg. 8 as written).  The
    sequential FW has a vectorised copy behind LLVM's run-time alias check, which fails on every
    row (D[u][k] lies inside row u, which the loop stores to), so its scalar loop is what runs:
    its throughput (notebook 00, about 1 G relaxations/s against 4+ for the vectorised blocked
    code) shows which copy ran."""
    import re
    out = {}
    d = np.zeros((4, 4), np.int32)
    for name, fn, args in (("fw_sequential", _fw_sequential, (d, _all(4))),
                           ("fw_blocked (Alg. 8)", _fw_blocked_literal, (d, 2, _all(2))),
                           ("fw_blocked_vec", _fw_blocked, (d, 2, _all(2)))):
        fresh = numba.njit(nogil=True)(fn.py_func)         # cached code cannot be inspected: compile anew
        fresh(*args)
        asm = "\n".join(fresh.inspect_asm(sig) for sig in fresh.signatures)
        out[name] = len(re.findall(r"\bv?pmins[dq]\b", asm))
    return out
