"""Verification: Fletcher-64 checksums (seed 003), exact comparison, the reference solver."""
from __future__ import annotations

import numba
import numpy as np

from .distances import NegativeCycleError, from_scipy
from .limits import INF
from .graph import Graph


class VerificationError(AssertionError):
    pass


def fletcher64(data) -> int:
    """Fletcher-64 over little-endian 32-bit words (the last word zero-padded).

    For a distance matrix the words are its int32 entries in row-major order, so
    ``fletcher64(d)`` of an n x n matrix is the checksum seed 003 compares.
    Computed as sum1 = sum(w_i), sum2 = sum((N - i) * w_i), both mod 2**32 - 1, in parallel
    blocks (numba): a 21504^2 matrix takes well under a second, so every run is checked.  A float array (scipy's
    form: inf for no path) is read as the int32 matrix :func:`~.distances.from_scipy` makes of it, without making
    it (a float64 result of 65,536 vertices is 34 GB).
    """
    if isinstance(data, (bytes, bytearray)):
        b = bytes(data) + b"\0" * (-len(data) % 4)
        words = np.frombuffer(b, dtype="<u4")
    else:
        a = np.ascontiguousarray(data)
        if a.dtype.kind == "f":
            s1, s2 = _fletcher_blocks(a.reshape(-1))
            return (int(s2) << 32) | int(s1)
        if a.dtype.itemsize != 4:
            raise TypeError(f"fletcher64 wants 32-bit words, got {a.dtype}")
        words = a.reshape(-1).view("<u4")
    s1, s2 = _fletcher_blocks(words)
    return (int(s2) << 32) | int(s1)


_INF_WORD = np.uint64(INF)


@numba.njit(inline="always")
def _word(v):
    # a 32-bit word as a number: itself, or a float distance as from_scipy's int32 (inf, nan: INF; truncated; a
    # negative one in two's complement)
    if np.isfinite(v):
        return np.uint64(np.int64(v) & 0xFFFFFFFF)
    return _INF_WORD


@numba.njit(parallel=True, cache=True)
def _fletcher_blocks(words):
    # sum1 = sum(w_i), sum2 = sum((N - i) * w_i), both mod M = 2**32 - 1, in parallel blocks;
    # each product is reduced mod M first, so a block's sums fit in uint64 (2**20 * 2**32).
    M = np.uint64(0xFFFFFFFF)
    n = words.size
    block = 1 << 20
    nb = (n + block - 1) // block
    p1 = np.zeros(nb, np.uint64)
    p2 = np.zeros(nb, np.uint64)
    for b in numba.prange(nb):
        a1 = np.uint64(0)
        a2 = np.uint64(0)
        for i in range(b * block, min(n, (b + 1) * block)):
            w = _word(words[i]) % M
            c = np.uint64(n - i) % M
            a1 += w
            a2 += (w * c) % M
        p1[b] = a1 % M
        p2[b] = a2 % M
    s1 = np.uint64(0)
    s2 = np.uint64(0)
    for b in range(nb):
        s1 = (s1 + p1[b]) % M
        s2 = (s2 + p2[b]) % M
    return s1, s2


def fletcher64_combine(parts) -> int:
    """Fletcher-64 of consecutive segments joined, from each segment's (checksum, words): for A
    then B (b words), sum1 = sum1_A + sum1_B and sum2 = sum2_A + b * sum1_A + sum2_B (mod 2**32 - 1),
    since a word of A weighs b more in the whole.  Lets ranks that each hold some block rows of a
    matrix give the checksum of all of it without moving it."""
    M = 0xFFFFFFFF
    s1 = s2 = 0
    for value, words in parts:
        t1, t2 = int(value) & M, int(value) >> 32
        s2 = (s2 + (int(words) % M) * s1 + t2) % M
        s1 = (s1 + t1) % M
    return (s2 << 32) | s1


def fletcher64_by_rows(nrows, ncols, rows_of, block_words):
    """Fletcher-64 of an ``nrows`` x ``ncols`` matrix made block by block: ``rows_of(r0, r1)`` gives rows [r0, r1)
    (a numpy array :func:`fletcher64` reads), at most ``block_words`` entries at a time, each block let go before
    the next is made (:func:`fletcher64_combine`)."""
    step = max(1, int(block_words) // max(int(ncols), 1))
    parts = []
    for r0 in range(0, nrows, step):
        b = rows_of(r0, min(nrows, r0 + step))
        parts.append((fletcher64(b), b.size))
        del b                                   # before the next block is made
    return fletcher64_combine(parts)


def block_rows_checksum(per_rank):
    """Fletcher-64 of a whole matrix whose block rows lie on several ranks, from each rank's
    [(block_row, checksum, words)] (under "checksums" in its result dict): the blocks joined in row
    order (a block sent by two ranks counts once)."""
    blocks = {}
    for part in per_rank:
        for b, value, words in part.get("checksums", []):
            blocks[b] = (value, words)
    return fletcher64_combine(blocks[b] for b in sorted(blocks))


def first_difference(got, want):
    """None if equal, else (i, j, got[i, j], want[i, j]) for the first differing entry."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return ("shape", got.shape, want.shape)
    bad = np.flatnonzero(got.ravel() != want.ravel())
    if bad.size == 0:
        return None
    i, j = np.unravel_index(bad[0], got.shape)
    return (int(i), int(j), int(got[i, j]), int(want[i, j]))


def assert_equal_distances(got, want, what="result"):
    diff = first_difference(got, want)
    if diff is not None:
        if diff[0] == "shape":
            raise VerificationError(f"{what}: shape {diff[1]} != reference {diff[2]}")
        i, j, g, w = diff
        n_bad = int(np.count_nonzero(np.asarray(got) != np.asarray(want)))
        raise VerificationError(f"{what}: {n_bad} entries differ; first at (i={i}, j={j}): got {g}, reference {w}")


def next_hop_errors(g: Graph, d, nxt, limit=5):
    """What is wrong with a next-vertex matrix (seed 002's Exploration 8) for exact distances ``d``:
    nxt[i, j] is the vertex to step to from i towards j, i on the diagonal, -1 where there is no
    path.  Next vertices are not unique, so each step is checked rather than compared: an edge
    (i, v) with w(i, v) + d[v, j] == d[i, j], and the walk from i reaching j (pointer doubling:
    log2(n) rounds of nxt[i, j] <- nxt[nxt[i, j], j]).  Returns up to ``limit`` messages ([] if right)."""
    from .graph import INF
    d, nxt = np.asarray(d, np.int64), np.asarray(nxt, np.int64)
    n = g.n
    if nxt.shape != (n, n) or d.shape != (n, n):
        return [f"shapes {nxt.shape} and {d.shape}, want ({n}, {n})"]
    errs = []

    def bad(mask, what):
        for i, j in np.argwhere(mask)[:limit]:
            errs.append(f"({i}, {j}): {what}, next = {nxt[i, j]}")

    none, diag = d == int(INF), np.eye(n, dtype=bool)
    bad(none & (nxt != -1), "no path but a next vertex")
    bad(diag & (nxt != np.arange(n)[:, None]), "the diagonal must name i itself")
    step = ~none & ~diag
    bad(step & ((nxt < 0) | (nxt >= n)), "next vertex out of range")
    if errs:
        return errs[:limit]
    rows, cols = np.nonzero(step)
    v = nxt[rows, cols]
    w = g.to_dense().astype(np.int64)[rows, v]
    ok = (v != rows) & (w != int(INF)) & (w + d[v, cols] == d[rows, cols])
    bad(_mask(n, rows[~ok], cols[~ok]), "not the first edge of a shortest path")
    q = np.where(step, nxt, np.arange(n)[None, :])
    for _ in range(max(1, int(np.ceil(np.log2(max(n, 2))))) + 1):
        q = q[q, np.arange(n)[None, :]]
    bad(step & (q != np.arange(n)[None, :]), "the walk does not reach j (a cycle of next vertices)")
    return errs[:limit]


def _mask(n, rows, cols):
    m = np.zeros((n, n), bool)
    m[rows, cols] = True
    return m


def reference_apsp(g: Graph) -> np.ndarray:
    """scipy.sparse.csgraph distances as an int32 matrix with INF for 'no path'.

    Dijkstra for non-negative weights, Johnson where there are negative edges
    (which raises :class:`NegativeCycleError` on a negative cycle).
    """
    from scipy.sparse import csgraph
    if g.n == 0:
        return np.zeros((0, 0), np.int32)
    method = "J" if g.has_negative else "D"
    try:
        d = csgraph.shortest_path(g.to_scipy(), method=method, directed=True)
    except csgraph.NegativeCycleError as e:
        raise NegativeCycleError(str(e)) from None
    return from_scipy(d)


def reference_vectors(g: Graph, sources, problem) -> np.ndarray:
    """scipy's answer to a single-source problem, one int32 row per source (INF: unreachable):
    ``"bfs"`` levels (edge counts along out-edges, weights ignored), ``"sssp"`` Dijkstra distances."""
    from scipy.sparse import csgraph
    from .sources import as_sources
    src = as_sources(sources, g.n)
    if src.size == 0:
        return np.zeros((0, g.n), np.int32)
    if problem == "bfs":
        d = csgraph.shortest_path(g.to_scipy(), method="D", directed=True, unweighted=True, indices=src)
    elif problem == "sssp":
        d = csgraph.dijkstra(g.to_scipy(), directed=True, indices=src)
    else:
        raise ValueError(f"problem must be 'bfs' or 'sssp', got {problem!r}")
    return from_scipy(np.atleast_2d(d))
