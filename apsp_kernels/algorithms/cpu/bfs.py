"""Sequential breadth-first search (numba), one source at a time: the CPU reference and baseline of
seed 001's BFS kernels (§3: "an asymptotically optimal sequential solution ... takes O(V + E) time";
the seed's own was C++ with the STL).  Levels are edge counts from the source along out-edges
(weights are ignored), int32 with INF where a vertex is unreachable, as the GPU kernels return."""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.graph import INF, Graph
from ...core.sources import as_sources

_INF32 = np.int32(INF)


@njit(cache=True, nogil=True)
def _bfs(indptr, indices, sources, out, queue):
    # one FIFO array of n slots: every vertex enters it at most once per source
    n = indptr.size - 1
    for t in range(sources.size):
        level = out[t]
        for v in range(n):
            level[v] = _INF32
        s = sources[t]
        level[s] = 0
        queue[0] = s
        head, tail = 0, 1
        while head < tail:
            u = queue[head]
            head += 1
            nxt = level[u] + 1
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                if level[v] == _INF32:
                    level[v] = nxt
                    queue[tail] = v
                    tail += 1


def bfs_levels(g: Graph, sources=None) -> np.ndarray:
    """BFS levels from each of ``sources``: an int32 array of shape (len(sources), n)."""
    src = as_sources(sources, g.n)
    out = np.empty((src.size, g.n), np.int32)
    _bfs(g.indptr, g.indices, src, out, np.empty(max(g.n, 1), np.int32))
    return out
