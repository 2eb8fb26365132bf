"""The graphs tuned_frontier is checked on, in the CPU emulation (test_tuned_frontier_cpu.py) and on the
GPU (test_tuned_frontier_gpu.py, test_tuned_per_source_gpu.py): deep ones (rings both ways, directed paths, grids), a hub of high
degree, disconnected pieces, zero weights, weights at the int32 bound; raw CSR that keeps parallel edges
and self-loops (Graph.from_edges removes them, so only a Graph built around its arrays shows the kernel
any); the float32 references (scipy in float64, and float32 Dijkstra, exact)."""
import heapq

import numpy as np

from apsp_kernels import Graph
from apsp_kernels.core import generators as G
from apsp_kernels.core import structure_graphs as S
from apsp_kernels.core.graph import INF, MAX_PATH_WEIGHT

from tuned_graphs import awkward, disconnected

SIZES = (1, 2, 31, 32, 33, 127, 1000)      # around the bitmap word (32); 1000: 32 words, several rounds deep
F32_EPS = 2.0 ** -24                        # unit roundoff of float32 (round to nearest)


def force_renumbering(monkeypatch, on):
    """tuned_frontier's launcher renumbers every graph of two vertices or more (its work, span and degree tests all
    yes), or none (its work test no, and no numbering taken for one that aliases the bitmap words)."""
    from apsp_kernels.algorithms.gpu.tuned import frontier
    inf = float("inf")
    monkeypatch.setattr(frontier, "RENUMBER_WORK", 0 if on else inf)
    monkeypatch.setattr(frontier, "ALIAS_SHARE", frontier.ALIAS_SHARE if on else inf)
    monkeypatch.setattr(frontier, "RENUMBER_SPAN", inf)
    monkeypatch.setattr(frontier, "RENUMBER_DEGREE", inf)


def path(n, seed):
    """A directed path 0 -> 1 -> ... -> n-1, weights 0..9 (zeros included)."""
    i = np.arange(n - 1)
    return Graph.from_edges(n, i, i + 1, np.random.default_rng(seed).integers(0, 10, n - 1))


def star(n, seed):
    """A hub (vertex n // 2, not in word 0 once n > 64) joined both ways to every other vertex."""
    hub = n // 2
    others = np.delete(np.arange(n), hub)
    w = np.random.default_rng(seed).integers(1, 100, 2 * others.size)
    return Graph.from_edges(n, np.r_[np.full(others.size, hub), others], np.r_[others, np.full(others.size, hub)], w)


def heavy(n):
    """Weights at the int32 bound the package allows (every simple path within MAX_PATH_WEIGHT): a path
    0 -> ... -> k whose total is MAX_PATH_WEIGHT exactly (one edge of that weight at n = 2), and for n >= 3
    the last vertex isolated (INF beside the largest distance)."""
    if n < 2:
        return Graph.from_edges(n, [], [], [])
    k = n - 1 if n < 3 else n - 2
    w = np.full(k, MAX_PATH_WEIGHT // k, np.int64)
    w[-1] += MAX_PATH_WEIGHT - w.sum()
    return Graph.from_edges(n, np.arange(k), np.arange(1, k + 1), w)


def kinds(n, seed):
    """(label, graph) of every kind at size n (all int32 Graphs, non-negative weights)."""
    out = [("ring", S.ring(n, seed=seed)), ("path", path(n, seed)), ("path-reversed", G.chain(n, reverse=True)),
           ("grid", S.grid(n, seed=seed)), ("star", star(n, seed)), ("disconnected", disconnected(n, seed)),
           ("awkward (zeros, duplicates)", awkward(n, seed)), ("heavy", heavy(n))]
    if n <= 64:
        out.append(("complete", G.complete(n, 0, 50, seed=seed)))
    return out


def raw(n, src, dst, w):
    """(graph, its clean twin): ``graph`` holds the edges exactly as given (parallel edges and self-loops
    kept, CSR by source) by building the Graph around its arrays; the twin is Graph.from_edges of the same
    edges (lightest of parallel edges, no self-loops): the same distances by definition."""
    src, dst, w = (np.asarray(a, np.int64) for a in (src, dst, w))
    order = np.argsort(src, kind="stable")
    indptr = np.zeros(n + 1, np.int64)
    indptr[1:] = np.cumsum(np.bincount(src, minlength=n))
    g = Graph(n, indptr.astype(np.int32), dst[order].astype(np.int32), w[order].astype(np.int32))
    return g, Graph.from_edges(n, src, dst, w)


def multi_edges(n, seed):
    """Kemp's graph with every edge repeated three times (the copies heavier, lighter and equal, in shuffled
    order) and a self-loop at every vertex (weights 0..5): raw CSR, with its clean twin."""
    rng = np.random.default_rng(seed)
    s, d, w = G.kemp(n, 1, 4, 0, 100, seed=seed).edges()
    w = w.astype(np.int64)
    src = np.r_[s, s, s, np.arange(n)]
    dst = np.r_[d, d, d, np.arange(n)]
    ww = np.r_[w + 3, np.maximum(w - 2, 0), w, rng.integers(0, 6, n)]
    p = rng.permutation(src.size)
    return raw(n, src[p], dst[p], ww[p])


def float_graph(n, seed):
    """A float-weighted WideGraph: Kemp's edges with weights in [0, 100) (every 7th exactly 0, the first -0.0)
    and, for n >= 2, an edge n-1 -> 0 of 0.5 that keeps the weights non-integer, so that
    Graph.from_edges(dtype="auto") keeps them float64."""
    s, d, _ = G.kemp(n, 0, 4, 0, 1, seed=seed).edges()
    w = np.random.default_rng(seed).random(s.size) * 100
    w[::7] = 0.0
    if w.size:
        w[0] = -0.0
    if n >= 2:
        s, d, w = np.r_[s, n - 1], np.r_[d, 0], np.r_[w, 0.5]
    return Graph.from_edges(n, s, d, w, dtype="auto")


def float32_dijkstra(n, indptr, indices, w32, sources):
    """Distances in float32 arithmetic, one row per source: Dijkstra with every sum rounded to float32 as
    the kernel rounds it (fl(du + w), left to right along the path).  Float addition is monotone and never
    goes down for w >= 0, so Dijkstra's answer is the minimum over paths of that float32 sum: the kernel's
    (cuda/tuned_frontier.cu), bit for bit."""
    out = np.full((len(sources), n), np.inf, np.float32)
    for r, s in enumerate(sources):
        d = out[r]
        d[s] = np.float32(0)
        heap, done = [(0.0, int(s))], np.zeros(n, bool)
        while heap:
            _, u = heapq.heappop(heap)
            if done[u]:
                continue
            done[u] = True
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                nd = np.float32(d[u] + w32[e])
                if nd < d[v]:
                    d[v] = nd
                    heapq.heappush(heap, (float(nd), int(v)))
    return out


def float_tolerance(n):
    """Relative error bound of a float32 distance against the exact (float64) one: a shortest path has at
    most n - 1 edges, each weight rounded to float32 once and each of the n - 1 sums rounded once, each a
    factor within (1 +- 2^-24); the minimum over paths keeps the bound."""
    return (1 + F32_EPS) ** (2 * max(n - 1, 0)) - 1


def int_to_float(d):
    """int32 distances with INF as float32 with +inf (exact where they are below 2^24)."""
    out = d.astype(np.float32)
    out[d == INF] = np.inf
    return out
