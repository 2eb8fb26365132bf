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
def _tight_bfs(indptr, indices, weights, d, pred):
    n = d.shape[0]
    for s in prange(n):
        queue = np.empty(n, np.int64)
        seen = np.zeros(n, np.bool_)
        head, tail = 0, 1
        queue[0] = s
        seen[s] = True
        while head < tail:
            u = queue[head]
            head += 1
            du = np.int64(d[s, u])
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                if not seen[v] and du + weights[e] == d[s, v]:
                    seen[v] = True
                    pred[s, v] = u
                    queue[tail] = v
                    tail += 1


def predecessors(g: Graph, d) -> np.ndarray:
    """The int32 predecessor matrix of ``g`` from its exact int32 distances ``d`` (INF = no path)."""
    d = np.ascontiguousarray(d, dtype=np.int32)
    if d.shape != (g.n, g.n):
        raise ValueError(f"distances of shape {d.shape} do not belong to a graph of {g.n} vertices")
    pred = np.full((g.n, g.n), NO_PREDECESSOR, np.int32)
    if g.n:
        _tight_bfs(g.indptr.astype(np.int64), g.indices.astype(np.int64), g.weights.astype(np.int64), d, pred)
    pred[d == INF] = NO_PREDECESSOR
    return pred
