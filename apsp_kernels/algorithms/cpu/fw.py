"""Floyd-Warshall on the CPU (numba), the denominators of most speed-ups in the study.

* :func:`fw_sequential` -- Floyd-Warshall exactly as Kemp's Algorithm 4, one thread: "the
  sequential FW" that Tran, Katz & Kider and Kemp measure against.
* :func:`fw_blocked` -- Venkataraman et al.'s blocked FW as Kemp's Algorithm 8 writes it, one
  thread: per block, for each k, for all i and j, D[i][j] = min(D[i][j], D[i][k] + D[k][j]).
  LLVM cannot vectorise that inner loop (D[i][j] and D[k][j] may alias), which is what Kemp's
  2012 build did too: the divisor of every "over blocked FW" claim.
* :func:`fw_blocked_vec` -- the same blocking with the pivot row segment in a buffer so that the
  inner loop vectorises: the best single-thread code we have (not a seed's baseline).
* :func:`fw_blocked_parallel` -- the same blocking over all cores (numba prange): the best CPU
  FW we have; none of the seeds compared against one.

All take a :class:`Graph` and return an int32 matrix with INF for "no path"; ``sample_*`` time
a few of their work units (:mod:`.units`)."""
from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from ...core.distances import finish
from ...core.graph import Graph
from .units import all_units, dense_setup, finish_ms, block_rounds, timed_ms, spaced

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


@njit(cache=True, nogil=True, inline="always")
def _block(D, i0, i1, j0, j1, k0, k1, pivot):
    # One block update of the blocked FW's rounds: ``pivot`` None, Kemp's Algorithm 8 as written;
    # a buffer, the vectorised update.  Chosen by type when the rounds compile (numba prunes the
    # branch), so each code is the loop nest it was: the two share the rounds, not the update.
    if pivot is None:
        _fw_block_literal(D, i0, i1, j0, j1, k0, k1)
    else:
        _fw_block(D, i0, i1, j0, j1, k0, k1, pivot)


@njit(cache=True, nogil=True)
def _fw_rounds(D, B, rounds, vec):
    # Venkataraman's rounds on one thread; ``rounds``: all of 0..n/B-1 for a solve, a sample to time
    # whole rounds (each n^2 B work).  ``vec`` None: fw_blocked (Kemp's Algorithm 8 as written);
    # True: fw_blocked_vec (the pivot row segment in a buffer).  Called directly, not through a
    # wrapper, so that the code that runs is this function's own compilation.
    n = D.shape[0]
    nb = (n + B - 1) // B
    pivot = None if vec is None else np.empty(B, D.dtype)
    for r in rounds:
        k0, k1 = r * B, min(n, (r + 1) * B)
        _block(D, k0, k1, k0, k1, k0, k1, pivot)             # phase 1: self-dependent block
        for b in range(nb):                                  # phase 2: its row and column
            if b != r:
                b0, b1 = b * B, min(n, (b + 1) * B)
                _block(D, k0, k1, b0, b1, k0, k1, pivot)
                _block(D, b0, b1, k0, k1, k0, k1, pivot)
        for bi in range(nb):                                 # phase 3: the rest
            if bi == r:
                continue
            i0, i1 = bi * B, min(n, (bi + 1) * B)
            for bj in range(nb):
                if bj != r:
                    _block(D, i0, i1, bj * B, min(n, (bj + 1) * B), k0, k1, pivot)


LITERAL, VEC = None, True           # _fw_rounds' last argument: fw_blocked, fw_blocked_vec


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


def fw_sequential(g: Graph) -> np.ndarray:
    d = g.to_dense()
    _fw_sequential(d, all_units(g.n))
    return finish(d)


def fw_blocked(g: Graph, block=64) -> np.ndarray:
    d = g.to_dense()
    _fw_rounds(d, int(block), all_units(block_rounds(g.n, block)), LITERAL)
    return finish(d)


def fw_blocked_vec(g: Graph, block=64) -> np.ndarray:
    d = g.to_dense()
    _fw_rounds(d, int(block), all_units(block_rounds(g.n, block)), VEC)
    return finish(d)


def fw_blocked_parallel(g: Graph, block=64, threads=None) -> np.ndarray:
    d = g.to_dense()
    if threads is not None:
        numba.set_num_threads(int(threads))
    _fw_blocked_parallel(d, int(block), all_units(block_rounds(g.n, block)))
    return finish(d)


def sample_fw_sequential(g: Graph, samples):
    d, setup = dense_setup(g)
    ks = spaced(g.n, samples)
    work = timed_ms(_fw_sequential, d, ks)
    return setup + finish_ms(d), work, ks.size, g.n


def _sample_blocked(kernel, g, block, samples, *more):
    d, setup = dense_setup(g)
    total = block_rounds(g.n, block)
    rs = spaced(total, samples)
    work = timed_ms(kernel, d, int(block), rs, *more)
    return setup + finish_ms(d), work, rs.size, total


def sample_fw_blocked(g: Graph, samples, block=64):
    return _sample_blocked(_fw_rounds, g, block, samples, LITERAL)


def sample_fw_blocked_vec(g: Graph, samples, block=64):
    return _sample_blocked(_fw_rounds, g, block, samples, VEC)


def sample_fw_blocked_parallel(g: Graph, samples, block=64):
    return _sample_blocked(_fw_blocked_parallel, g, block, samples)


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
    for name, fn, args in (("fw_sequential", _fw_sequential, (d, all_units(4))),
                           ("fw_blocked (Alg. 8)", _fw_rounds, (d, 2, all_units(2), LITERAL)),
                           ("fw_blocked_vec", _fw_rounds, (d, 2, all_units(2), VEC))):
        fresh = numba.njit(nogil=True)(fn.py_func)         # cached code cannot be inspected: compile anew
        fresh(*args)
        asm = "\n".join(fresh.inspect_asm(sig) for sig in fresh.signatures)
        out[name] = len(re.findall(r"\bv?pmins[dq]\b", asm))
    return out
