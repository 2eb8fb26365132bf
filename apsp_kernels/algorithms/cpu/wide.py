"""CPU codes beyond the int32 kernels, for ``shortest_paths``: exact int64 distances (Dijkstra, and Johnson where
weights are negative: Bellman-Ford potentials, then Dijkstra on the reweighted edges), for given sources or all,
on a :class:`~apsp_kernels.core.wide.WideGraph` of int64 weights or on a study Graph; and float64 graphs through
scipy.sparse.csgraph itself, so that a float input gets exactly scipy's answer (its own method for each of scipy's
names).  Not paper kernels: the faithful CPU codes (``dijkstra.py``, ``fw.py``) are untouched."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from ...core.distances import NegativeCycleError
from ...core.negative_cycle import refuse_negative_cycle
from ...core.wide import INF64, WideGraph
from ...core.validate import MAX_PATH_WEIGHT64

SCIPY_NAMES = ("auto", "FW", "D", "BF", "J")


@njit(cache=True, nogil=True)
def _dijkstra_row(indptr, indices, weights, s, out_row, heap_d, heap_v, inf):
    # a binary heap with lazy deletion, as dijkstra.py's, over int64 or float64 weights and any sentinel
    n = indptr.size - 1
    for v in range(n):
        out_row[v] = inf
    out_row[s] = 0
    size = 1
    heap_d[0] = 0
    heap_v[0] = s
    while size > 0:
        d, u = heap_d[0], heap_v[0]
        size -= 1
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
        if d > out_row[u]:
            continue
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            nd = d + weights[e]
            if nd < out_row[v]:
                out_row[v] = nd
                p = size
                size += 1
                while p > 0:
                    q = (p - 1) // 2
                    if heap_d[q] <= nd:
                        break
                    heap_d[p], heap_v[p] = heap_d[q], heap_v[q]
                    p = q
                heap_d[p], heap_v[p] = nd, v


@njit(cache=True, parallel=True)
def _dijkstra_rows(indptr, indices, weights, sources, out, inf):
    m = indices.size
    for t in prange(sources.size):
        _dijkstra_row(indptr, indices, weights, sources[t], out[t], np.empty(m + 1, weights.dtype),
                      np.empty(m + 1, np.int64), inf)


@njit(cache=True, nogil=True)
def _potentials(indptr, indices, weights, floor):
    # Bellman-Ford from a virtual source joined to every vertex by weight 0.  A value below ``floor`` (minus the
    # bound on a simple path's weight) or a change in round n proves a negative cycle: returns (h, vertex on it)
    n = indptr.size - 1
    h = np.zeros(n, np.int64)
    for r in range(n + 1):
        changed = False
        for u in range(n):
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                nd = h[u] + weights[e]
                if nd < h[v]:
                    h[v] = nd
                    changed = True
                    if nd < floor or r == n:
                        return h, v
        if not changed:
            break
    return h, -1


def _arrays(g):
    if isinstance(g, WideGraph):
        return g.indptr.astype(np.int64), g.indices.astype(np.int64), g.values
    return g.indptr.astype(np.int64), g.indices.astype(np.int64), g.weights.astype(np.int64)


def int64_rows(g, sources=None) -> np.ndarray:
    """Exact int64 distances from ``sources`` (default every vertex), INF64 where there is no path: Dijkstra where
    no weight is negative, else Johnson.  Raises NegativeCycleError on a negative cycle."""
    indptr, indices, w = _arrays(g)
    if w.dtype.kind != "i":
        raise TypeError("int64_rows takes integer weights; float graphs go to scipy_rows")
    src = np.arange(g.n, dtype=np.int64) if sources is None else np.asarray(sources, np.int64)
    out = np.empty((src.size, g.n), np.int64)
    if not (w.size and w.min() < 0):
        _dijkstra_rows(indptr, indices, w, src, out, INF64)
        return out
    h, v = _potentials(indptr, indices, w, -MAX_PATH_WEIGHT64)
    if v >= 0:
        raise NegativeCycleError(f"negative cycle through vertex {v} (found by Bellman-Ford)", vertex=int(v))
    heads = np.repeat(np.arange(g.n), np.diff(indptr))
    reweighted = w + h[heads] - h[indices]            # >= 0; |.| <= 3 x 2**60 < INF64
    _dijkstra_rows(indptr, indices, reweighted, src, out, INF64)
    reach = out != INF64
    out[reach] += (h[None, :] - h[src][:, None])[reach]
    return out


def scipy_rows(g, method="auto", sources=None, predecessors=False):
    """float64 distances (and scipy's predecessors) by scipy.sparse.csgraph.shortest_path with scipy's own
    ``method``: exactly scipy's answer for the same float input.  scipy's NegativeCycleError comes out as ours."""
    from scipy.sparse import csgraph
    refuse_negative_cycle(g)       # exactly, first: scipy's float Bellman-Ford misses tiny ones, and its Johnson hangs
    if method == "D":
        g.require_non_negative("Dijkstra (method 'D')")
    try:
        return csgraph.shortest_path(g.to_scipy(), method=method, directed=True, indices=sources,
                                     return_predecessors=predecessors)
    except csgraph.NegativeCycleError as e:
        if isinstance(e, NegativeCycleError):
            raise
        raise NegativeCycleError(str(e)) from None


@dataclass(frozen=True)
class CpuMethod:
    """What runs a graph that no int32 code takes (or a scipy name the registry has no code for): ``name`` is
    what ``return_method`` reports; ``kind``: "int64" (ours) or "scipy" (``scipy_method`` on float64)."""
    name: str
    kind: str
    scipy_method: str = "auto"
    device: str = "cpu"
    negative_weights: bool = True
    problem: str = "apsp"

    def footprint(self, n, m):
        """Host bytes it holds: the n x n int64 or float64 rows, and the edges."""
        return 8 * n * n + 40 * m

    def rows(self, g, sources=None, predecessors=False):
        if self.kind == "scipy":
            return scipy_rows(g, self.scipy_method, sources, predecessors)
        if self.name == "int64_dijkstra" and (g.values if isinstance(g, WideGraph) else g.weights).min(initial=0) < 0:
            g.require_non_negative("Dijkstra (method 'D')")
        return int64_rows(g, sources)


INT64_DIJKSTRA = CpuMethod("int64_dijkstra", "int64", negative_weights=False)
INT64_JOHNSON = CpuMethod("int64_johnson", "int64")
# scipy's method names, as this package runs them on a graph of int32 weights (a float or int64 graph: for_scipy_name)
SCIPY_METHODS = {"FW": "fw_blocked_parallel", "D": "dijkstra_cpu_parallel", "BF": INT64_JOHNSON, "J": INT64_JOHNSON}


def scipy_auto(n, stored, negative, indices=False):
    """The method scipy's ``method='auto'`` runs (scipy 1.x, _shortest_path.pyx): 'D' ('J' where an edge is
    negative) where indices are given or the input holds fewer than n^2 / 4 edges, else 'FW'.  ``stored``: the
    edges as scipy counts them on the caller's input (a sparse matrix's nnz; a dense array's finite nonzeros)."""
    if indices or stored < n * n / 4:
        return "J" if negative else "D"
    return "FW"


def for_scipy_name(g, name, indices=False) -> CpuMethod:
    """The code a scipy method name runs on a graph beyond int32: float64, scipy's same method; int64, ours
    (Dijkstra for 'D', Johnson where weights are negative, else Dijkstra: every name gives the same exact
    distances)."""
    if g.dtype.kind == "f":
        if name == "auto":             # scipy's pick on the caller's input (``as_graph`` counted its edges)
            name = scipy_auto(g.n, g.meta.get("scipy_edges", g.m), g.has_negative, indices)
        return CpuMethod(f"scipy_{name}", "scipy", name, negative_weights=name != "D")
    if name == "D" or not g.has_negative:
        return INT64_DIJKSTRA
    return INT64_JOHNSON
