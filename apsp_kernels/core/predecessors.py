"""Predecessor matrices from exact distances, for any algorithm: per source, a breadth-first
search over the *tight* edges (u, v) with d[s, u] + w(u, v) == d[s, v].  Every vertex reachable
from s is reached (the edges of any shortest path are tight), and the breadth-first tree has no
cycles even where zero-weight cycles make several predecessors tight.  O(n (n + m)), sources in
parallel.  Convention as scipy.sparse.csgraph: pred[s, v] is the vertex before v on a shortest
path from s, and -9999 where there is none (v == s or no path)."""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .graph import INF, Graph

NO_PREDECESSOR = -9999          # scipy.sparse.csgraph's value


@njit(cache=True, parallel=True)
def _tight_bfs(indptr, indices, weights, d, pred, sources):
    n = indptr.size - 1
    for t in prange(sources.size):
        s = sources[t]
        queue = np.empty(n, np.int64)
        seen = np.zeros(n, np.bool_)
        head, tail = 0, 1
        queue[0] = s
        seen[s] = True
        while head < tail:
            u = queue[head]
            head += 1
            du = np.int64(d[t, u])
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                if not seen[v] and du + weights[e] == d[t, v]:
                    seen[v] = True
                    pred[t, v] = u
                    queue[tail] = v
                    tail += 1


def predecessors(g, d, sources=None) -> np.ndarray:
    """The int32 predecessor matrix of ``g`` from its exact distances ``d``: int32 with INF for a study Graph, or
    int64 with INF64 (a Graph or an int64 WideGraph).  ``sources``: the vertices whose rows ``d`` holds, in order
    (default: all, d is n x n)."""
    from .wide import INF64, WideGraph
    src = np.arange(g.n, dtype=np.int64) if sources is None else np.asarray(sources, np.int64)
    wide = isinstance(g, WideGraph) or np.asarray(d).dtype == np.int64
    d = np.ascontiguousarray(d, dtype=np.int64 if wide else np.int32)
    if d.shape != (src.size, g.n):
        raise ValueError(f"distances of shape {d.shape} do not belong to {src.size} sources of a graph of {g.n} "
                         "vertices")
    if isinstance(g, WideGraph) and g.dtype.kind != "i":
        raise ValueError("predecessors from exact distances need integer weights; scipy gives float graphs' own")
    w = g.values if isinstance(g, WideGraph) else g.weights
    pred = np.full(d.shape, NO_PREDECESSOR, np.int32)
    if g.n and src.size:
        _tight_bfs(g.indptr.astype(np.int64), g.indices.astype(np.int64), w.astype(np.int64), d, pred, src)
    pred[d == (INF64 if wide else INF)] = NO_PREDECESSOR
    return pred
