"""A cheap structure probe for ``method="auto"``: how many hops a graph's shortest paths can
take, from breadth-first searches (scipy.sparse.csgraph, on the CPU, milliseconds).  A frontier-sweep code's
work grows with it (tuned_sparse: 653 ms on a ring of 4096 against 9.6 ms on a random graph of the same n), an
FW's does not; :func:`apsp_kernels.costs.predict` takes the probe (``structure=``) and scales a sweep code's time
by it where the benchmark rows recorded the hop depth of the graphs they were measured on.

The estimate is a double sweep: BFS from a few sources (vertex 0 and seeded random ones), then again from the
vertex found farthest; the largest finite level seen is a lower bound on the hop diameter (exact on trees, within
a factor 2 on undirected graphs)."""
from __future__ import annotations

import time
import weakref
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Structure:
    hop_depth: int          # largest finite BFS level seen (edges, weights ignored)
    mean_reach: float       # mean fraction of vertices each BFS reached
    sources: tuple          # the BFS sources, in order
    ms: float               # time the probe took
    widest: int = 0         # the most vertices at one BFS level (hub_depth's BFS; 0 where not counted)

    def __str__(self):
        return f"hop depth >= {self.hop_depth} ({len(self.sources)} BFS, {self.mean_reach:.0%} reached, {self.ms:.3g} ms)"


def _levels(a, sources):
    """BFS levels (float, inf where unreached) from each of ``sources``: one row per source."""
    return np.vstack([_bfs_levels(a, int(x)) for x in sources]) if len(sources) else np.zeros((0, a.shape[0]))


def _bfs_levels(a, source):
    # scipy's breadth_first_order is a plain BFS (O(n + m)); its unweighted shortest_path runs Dijkstra's heap,
    # 3-4x slower, and this probe is most of a first choice where it runs.  The levels are the BFS tree's depths,
    # found by pointer jumping (log2(depth) vectorised steps: a ring of 16,384 takes 14, not 8,192 loop turns).
    from scipy.sparse import csgraph
    n = a.shape[0]
    order, pred = csgraph.breadth_first_order(a, source, directed=True, return_predecessors=True)
    up = np.arange(n)
    up[order[1:]] = pred[order[1:]]            # every reached vertex but the source points at its parent
    depth = np.zeros(n, np.int64)
    depth[order[1:]] = 1
    while True:
        nxt = up[up]
        if np.array_equal(nxt, up):
            break
        depth += depth[up]
        up = nxt
    out = np.full(n, np.inf)
    out[order] = depth[order]
    return out


_REMEMBERED = {}           # (id(graph), what) -> (a weak reference to it, its Structure)


def _once(g, what, make):
    """``make()``, remembered for the graph object ``g`` while it lives (a Graph's arrays are fixed once made)."""
    key = (id(g), what)
    hit = _REMEMBERED.get(key)
    if hit is not None and hit[0]() is g:
        return hit[1]
    s = make()
    _REMEMBERED[key] = (weakref.ref(g, lambda _, key=key: _REMEMBERED.pop(key, None)), s)
    return s


def probe_once(g, sources=3, seed=0) -> Structure:
    """:func:`probe`, remembered for the graph object while it lives, so that ``shortest_paths`` called again on
    the same graph does not search it again (~20 ms at n = 16,384: what auto added to a 43 ms ``device=True``
    solve)."""
    return _once(g, ("probe", sources, seed), lambda: probe(g, sources, seed))


def hub_depth_once(g) -> Structure:
    """:func:`hub_depth`, remembered for the graph object as :func:`probe_once` is."""
    return _once(g, ("hub",), lambda: hub_depth(g))


def hub_depth(g) -> Structure:
    """A bound from below on the hop depth at a quarter of the probe's cost: the largest finite level of one BFS,
    from the vertex of most out-edges (no vertex's eccentricity exceeds the hop diameter).  From the hub, since a
    graph with one is where the sweep codes' time grows fastest with the depth (every sweep walks the hub).  Its
    ``widest`` level counts the vertices at its most populous level: where every edge goes both ways, an edge joins
    one level or two adjacent ones, so each level separates those before it from those after; about sqrt(n) on a
    grid or a road network, a large fraction of n on a random graph or one with a hub."""
    t0 = time.perf_counter()
    if g.n == 0:
        return Structure(0, 0.0, (), 0.0)
    hub, lv = _hub_levels(g)
    finite = np.isfinite(lv)
    widest = int(np.bincount(lv[finite].astype(np.int64)).max())
    return Structure(int(lv[finite].max()), float(finite.mean()), (hub,), (time.perf_counter() - t0) * 1e3, widest)


def _hub_levels(g):
    """(the vertex of most out-edges, the BFS levels from it: float, inf where unreached): the hub BFS."""
    hub = int(np.argmax(np.diff(g.indptr)))
    return hub, _bfs_levels(_adjacency(g), hub)


def hub_branching_once(g) -> float:
    """:func:`hub_branching`, remembered for the graph object as :func:`probe_once` is."""
    return _once(g, ("branching",), lambda: hub_branching(g))


def hub_branching(g) -> float:
    """Of the vertices the hub BFS (:func:`hub_depth`'s) reaches past the hub, the fraction with two or more
    in-neighbours on the level above: 0 on a path, a ring or a lollipop (one hop path from the hub to each vertex,
    whatever the weights), a half or more on a strip or a grid, where paths of equal hops and unequal weights meet
    (a label-correcting search then settles a vertex again and again).  A second BFS and a pass over the edges
    (int32 indices), asked for only where the hub BFS was deep."""
    if g.n < 2:
        return 0.0
    _, lv = _hub_levels(g)
    finite = np.isfinite(lv)
    level = np.where(finite, lv, -2).astype(np.int32)               # unreached: no level follows it
    src = np.repeat(np.arange(g.n, dtype=np.int32), np.diff(g.indptr))
    dst = np.asarray(g.indices)
    parents = np.bincount(dst[(level[src] >= 0) & (level[dst] == level[src] + 1)], minlength=g.n)
    return float((parents >= 2).sum() / max(int(finite.sum()) - 1, 1))


def _adjacency(g):
    import scipy.sparse as sp
    return sp.csr_matrix((np.ones(g.m, np.float64), g.indices, g.indptr), shape=(g.n, g.n))


def probe(g, sources=3, seed=0) -> Structure:
    """The hop depth of ``g`` (a Graph or WideGraph) from ``sources`` BFS plus one from the farthest vertex found."""
    t0 = time.perf_counter()
    if g.n == 0:
        return Structure(0, 0.0, (), 0.0)
    a = _adjacency(g)
    rng = np.random.default_rng(seed)
    first = np.unique(np.concatenate([[0], rng.integers(0, g.n, size=max(int(sources) - 1, 0))]))
    lv = _levels(a, first)
    fin = np.where(np.isfinite(lv), lv, -1)
    far = int(np.unravel_index(np.argmax(fin), fin.shape)[1])
    lv2 = _levels(a, [far])
    both = np.vstack([lv, lv2])
    finite = np.isfinite(both)
    depth = int(both[finite].max()) if finite.any() else 0
    return Structure(depth, float(finite.mean()), tuple(int(s) for s in first) + (far,),
                     (time.perf_counter() - t0) * 1e3)
