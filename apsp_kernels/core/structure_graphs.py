"""The structure suite: graph classes on which a code's work depends on more than n and m,
each at a given n, seeded, for the device benchmark and for checking ``method="auto"``'s probe.

* ``kemp``     -- Kemp's random graphs (out-degree 2-6, weights 1..1000): small hop diameter.
* ``grid``     -- a 2-D grid (rows = floor(sqrt n); the last row may be partial), both directions, weights 1..20.
* ``ring``     -- a cycle walked both ways, weights 1..1000: hop diameter n / 2.
* ``ba``       -- Barabasi-Albert preferential attachment, 4 edges a new vertex, both ways, weights 1..1000: power law.
* ``complete`` -- every ordered pair, weights 1..1000.
* ``hub``      -- Kemp's random graph with one vertex (n // 2) joined both ways to every other, weights 1..1000:
                  hop diameter 2, one out-degree of n - 1 (a code that gives a vertex's out-edges to one thread or
                  warp waits on it).
* ``knn``      -- a road-like stand-in: n uniform points of the unit square, each joined both ways to its 6 nearest,
                  an edge weighing its Euclidean length (x 10^4, rounded, at least 1): small separators, hop
                  diameter ~ sqrt(n).
* ``path``     -- the one-way path 0 -> 1 -> ... -> n-1, weights 1..100: from vertex i, n - 1 - i hops deep.
* ``lollipop`` -- a complete digraph on 128 vertices with a tail to n - 1 walked both ways, weights 1..100: a dense
                  knot whose rounds are wide, then a long thin tail.
* ``grid3d``   -- a 3-D grid (floor(cbrt n) x floor(cbrt n) layers; the last layer may be partial), both ways,
                  weights 1..20: separators of ~n^(2/3) vertices, larger than a road network's.
* ``small_world`` -- Watts-Strogatz: a ring lattice of 6 neighbours a vertex, each edge's far end moved to a random
                  vertex with probability 0.1, both ways, weights 1..1000: short hops, no small separators.
* ``components`` -- many small components: Kemp's random graphs of 64 vertices side by side (the last may be
                  smaller), each seeded apart: from any vertex only its own 64 are reachable.
* ``cliques``  -- complete digraphs of 64 vertices side by side, weights 1..1000: few vertices a source, as in
                  ``components``, but degree 63 (held out of the default run: the check of auto's rule for such graphs).
* ``knn_islands`` -- the kNN graph on 80 % of the vertices and the rest in 8-vertex paths apart, weights 1..100 for
                  those: a road extract's pieces (held out of the default run, as ``kemp_star``).
* ``kemp_star`` -- Kemp's random graph and, apart from it, a star of 200 leaves: the vertex of most out-edges
                  outside the bulk of the graph.
* ``grid8``    -- the 2-D grid with its diagonals (8 neighbours), weights 1..20: about 8 edges a vertex, hop depth
                  ~ sqrt(n) (``grid8-R``: R rows, a strip); held out of the default run, as ``delaunay``.
* ``delaunay`` -- the Delaunay triangulation of n uniform points of the unit square, edges by their length as
                  ``knn``'s: planar, about 6 edges a vertex, half the kNN graph's hop depth (held out of the
                  default run: a second road-like generator for checks of rules set on kNN graphs).
* ``dag``      -- a random DAG with negative weights: vertex i (in a random topological order) has 2-6 out-edges
                  to uniformly chosen later vertices, weights -100..1000: negative edges, no cycle, so only the
                  codes that take negative weights (and Johnson on the CPU) run it.
* ``dense``    -- every ordered pair an edge with probability 1/4 (seed 003's density graph: m ~ n^2 / 4, where
                  scipy's auto switches to Floyd-Warshall), weights 1..1000.
(The suite by name, with the road networks of :mod:`apsp_kernels.io.roads`: :mod:`apsp_kernels.io.suite_graphs`.)

Each undirected edge has one weight used both ways."""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from . import generators
from .graph import Graph, GraphError

MAX_WEIGHT = 1000
GRID_WEIGHTS = (1, 20)
BA_EDGES = 4
KNN_K = 6
KNN_SCALE = 1e4               # a kNN edge's weight: its length in units of 1 / KNN_SCALE of the square's side
DEEP_MAX_WEIGHT = 100
LOLLIPOP_CLIQUE = 128
SMALL_WORLD = (6, 0.1)        # Watts-Strogatz: neighbours a vertex in the lattice, probability an edge is moved
COMPONENT_SIZE = 64
DAG_WEIGHTS = (-100, 1000)
DENSE_P = 0.25
ISLANDS = (0.2, 8)            # knn_islands: the share of the vertices in pieces apart, the vertices a piece
STAR_LEAVES = 200             # kemp_star: the leaves of the star beside Kemp's graph


def _both_ways(n, u, v, w, meta):
    u, v, w = np.asarray(u, np.int64), np.asarray(v, np.int64), np.asarray(w, np.int64)
    return Graph.from_edges(n, np.concatenate([u, v]), np.concatenate([v, u]), np.concatenate([w, w]), meta=meta)


def _lattice(n, rows):
    """(rows, cols, vertex ids, those with a right neighbour, those with a lower one) of n vertices on a grid of
    ``rows`` rows (default floor(sqrt n); vertex i at row i // cols, column i % cols; the last row may be partial)."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    rows = max(int(math.isqrt(n)), 1) if rows is None else min(max(int(rows), 1), n)
    cols = -(-n // rows)
    i = np.arange(n)
    return rows, cols, i, i[(i % cols < cols - 1) & (i + 1 < n)], i[i + cols < n]


def grid(n, min_weight=GRID_WEIGHTS[0], max_weight=GRID_WEIGHTS[1], seed=0, rows=None) -> Graph:
    """n vertices on a grid of ``rows`` rows (:func:`_lattice`), each joined to its right and lower neighbour, both
    ways."""
    rows, cols, _, right, down = _lattice(n, rows)
    u = np.concatenate([right, down])
    v = np.concatenate([right + 1, down + cols])
    w = np.random.default_rng(seed).integers(min_weight, max_weight + 1, size=u.size)
    return _both_ways(n, u, v, w, dict(generator="grid", rows=rows, cols=cols, seed=seed,
                                       min_weight=min_weight, max_weight=max_weight))


def grid8(n, rows=None, min_weight=GRID_WEIGHTS[0], max_weight=GRID_WEIGHTS[1], seed=0) -> Graph:
    """:func:`grid` with the diagonals (each vertex joined to its 8 neighbours, both ways, weights 1..20): about 8
    edges a vertex, hop depth max(rows, cols) - 1 (a king's moves), separators of a row or a column: a deep graph of
    the denser rules (``elimination_choice.DENSER``) that is not a kNN graph; ``rows`` makes it a strip."""
    rows, cols, i, right, down = _lattice(n, rows)
    down_right = i[(i % cols < cols - 1) & (i + cols + 1 < n)]
    down_left = i[(i % cols > 0) & (i + cols - 1 < n)]
    u = np.concatenate([right, down, down_right, down_left])
    v = np.concatenate([right + 1, down + cols, down_right + cols + 1, down_left + cols - 1])
    w = np.random.default_rng(seed).integers(min_weight, max_weight + 1, size=u.size)
    return _both_ways(n, u, v, w, dict(generator="grid8", rows=rows, cols=cols, seed=seed,
                                       min_weight=min_weight, max_weight=max_weight))


def strip(n, size=64, seed=0) -> Graph:
    """A long grid of ``size`` rows (:func:`grid`): the grid's separators and weights, hop depth about n / size,
    deeper than the square grid's 2 sqrt(n)."""
    return grid(n, seed=seed, rows=size)


def ring(n, max_weight=MAX_WEIGHT, seed=0) -> Graph:
    """The cycle 0-1-...-(n-1)-0, walked both ways."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    u = np.arange(n) if n > 2 else np.arange(n - 1)
    w = np.random.default_rng(seed).integers(1, max_weight + 1, size=u.size)
    return _both_ways(n, u, (u + 1) % n, w, dict(generator="ring", seed=seed, max_weight=max_weight))


def barabasi_albert(n, k=BA_EDGES, max_weight=MAX_WEIGHT, seed=0) -> Graph:
    """Preferential attachment: a clique of k + 1 vertices, then each new vertex joins k distinct existing ones
    chosen with probability proportional to their degree (the repeated-endpoints list), both ways."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    rng = np.random.default_rng(seed)
    core = min(k + 1, n)
    cu, cv = np.triu_indices(core, 1)
    us, vs = [cu], [cv]
    ends = list(np.concatenate([cu, cv]))
    for new in range(core, n):
        chosen = set()
        while len(chosen) < k:
            chosen.add(int(ends[rng.integers(len(ends))]))
        t = np.fromiter(chosen, np.int64)
        us.append(np.full(k, new))
        vs.append(t)
        ends.extend(t.tolist())
        ends.extend([new] * k)
    u, v = np.concatenate(us), np.concatenate(vs)
    w = rng.integers(1, max_weight + 1, size=u.size)
    return _both_ways(n, u, v, w, dict(generator="barabasi_albert", k=k, seed=seed, max_weight=max_weight))


def hub(n, max_weight=MAX_WEIGHT, seed=0) -> Graph:
    """Kemp's random graph (out-degree 2-6) plus vertex n // 2 joined both ways to every other vertex; of an edge
    in both layers the lighter is kept.  The hub sits mid-range so that no code meets it first by its index."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    base = generators.kemp(n, max_weight=max_weight, seed=seed)
    h = n // 2
    others = np.delete(np.arange(n), h)
    w = np.random.default_rng([seed, 1]).integers(1, max_weight + 1, size=others.size)
    src, dst, bw = base.edges()
    return Graph.from_edges(n, np.concatenate([src, np.full(others.size, h), others]),
                            np.concatenate([dst, others, np.full(others.size, h)]), np.concatenate([bw, w, w]),
                            meta=dict(generator="hub", hub=h, seed=seed, max_weight=max_weight))


def knn(n, k=KNN_K, seed=0) -> Graph:
    """n uniform points of the unit square, each joined both ways to its ``k`` nearest; an edge weighs its
    Euclidean length (x KNN_SCALE, rounded, at least 1), the same both ways and once however many of its ends
    chose it."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    pts = np.random.default_rng(seed).random((n, 2))
    return _nearest(pts, k, dict(generator="knn", k=k, seed=seed, scale=KNN_SCALE))


def corridor(n, aspect=64, k=KNN_K, seed=0) -> Graph:
    """:func:`knn` in a long rectangle of area 1, ``aspect`` times as long as it is wide (a road-like stand-in for a
    network along a valley or a coast: BFS levels narrower than sqrt(n) vertices, separators of the width)."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    if aspect < 1:
        raise GraphError(f"aspect must be >= 1, got {aspect}")
    side = math.sqrt(aspect)
    pts = np.random.default_rng(seed).random((n, 2)) * (side, 1 / side)
    return _nearest(pts, k, dict(generator="corridor", aspect=aspect, k=k, seed=seed, scale=KNN_SCALE))


def delaunay(n, seed=0) -> Graph:
    """The Delaunay triangulation of n uniform points of the unit square, each edge both ways, weighing its Euclidean
    length (x KNN_SCALE, rounded, at least 1): a planar road-like stand-in of about 6 edges a vertex (3 n - 3 - hull
    edges, both ways) beside :func:`knn`.  Shallower than the kNN graph (the probe's hop depth about 0.5 sqrt(n)
    against 1.1) and with wider BFS levels (the hub BFS's widest 3.6-4.1 sqrt(n) at 4,000 vertices, 4.5 at
    16,384-30,000, against the kNN graph's 2-3: about the limit of auto's separator test, though a planar graph has
    separators of O(sqrt(n))).  In a long rectangle the triangulation's long hull edges cut the hop depth to a
    handful (11 at 4,000 vertices and aspect 64): no corridor, so the square alone."""
    from scipy.spatial import Delaunay
    if n < 3:
        raise GraphError(f"a triangulation needs n >= 3, got {n}")
    pts = np.random.default_rng(seed).random((n, 2))
    tri = Delaunay(pts).simplices
    u = np.concatenate([tri[:, 0], tri[:, 1], tri[:, 2]])           # two triangles share an edge: once each below
    v = np.concatenate([tri[:, 1], tri[:, 2], tri[:, 0]])
    w = np.maximum(1, np.rint(np.linalg.norm(pts[u] - pts[v], axis=1) * KNN_SCALE)).astype(np.int64)
    return _each_pair_once(n, u, v, w, dict(generator="delaunay", seed=seed, scale=KNN_SCALE))


def _nearest(pts, k, meta):
    """Each point joined both ways to its ``k`` nearest, weighted by length x KNN_SCALE (rounded, at least 1)."""
    from scipy.spatial import cKDTree
    n = len(pts)
    q = min(k + 1, n)
    dist, nb = cKDTree(pts).query(pts, q)
    dist, nb = np.asarray(dist).reshape(n, q), np.asarray(nb).reshape(n, q)
    u, v = np.repeat(np.arange(n), q - 1), nb[:, 1:].ravel()
    w = np.maximum(1, np.rint(dist[:, 1:].ravel() * KNN_SCALE)).astype(np.int64)
    return _each_pair_once(n, u, v, w, meta)


def _each_pair_once(n, u, v, w, meta):
    """Edges (u, v, w) that may name a pair twice, either way round (its two copies of one length), each pair once,
    both ways."""
    lo, hi = np.minimum(u, v), np.maximum(u, v)
    _, first = np.unique(lo.astype(np.int64) * n + hi, return_index=True)
    return _both_ways(n, lo[first], hi[first], w[first], meta)


def path(n, max_weight=DEEP_MAX_WEIGHT, seed=0) -> Graph:
    """The one-way path 0 -> 1 -> ... -> n-1."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    i = np.arange(n - 1)
    return Graph.from_edges(n, i, i + 1, np.random.default_rng(seed).integers(1, max_weight + 1, n - 1),
                            meta=dict(generator="path", seed=seed, max_weight=max_weight))


def lollipop(n, clique=LOLLIPOP_CLIQUE, max_weight=DEEP_MAX_WEIGHT, seed=0) -> Graph:
    """A complete digraph on vertices 0..c-1 (c = min(clique, n)) and a tail c-1 - c - ... - n-1 walked both ways."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    c = min(int(clique), n)
    a, b = np.meshgrid(np.arange(c), np.arange(c), indexing="ij")
    keep = a != b
    i = np.arange(c - 1, n - 1)
    src, dst = np.r_[a[keep], i, i + 1], np.r_[b[keep], i + 1, i]
    return Graph.from_edges(n, src, dst, np.random.default_rng(seed).integers(1, max_weight + 1, src.size),
                            meta=dict(generator="lollipop", clique=c, seed=seed, max_weight=max_weight))


def grid3d(n, min_weight=GRID_WEIGHTS[0], max_weight=GRID_WEIGHTS[1], seed=0) -> Graph:
    """n vertices on a side x side x layers grid, side = floor(cbrt n) (vertex i at x = i % side,
    y = (i // side) % side, layer i // side^2), each joined to its next neighbour along every axis, both ways."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    side = max(int(round(n ** (1 / 3))), 1)
    while side ** 3 > n and side > 1:           # floor of the cube root, exact where rounding overshoots
        side -= 1
    i = np.arange(n)
    x, y = i % side, (i // side) % side
    steps = [(i[(x < side - 1) & (i + 1 < n)], 1), (i[(y < side - 1) & (i + side < n)], side),
             (i[i + side * side < n], side * side)]
    u = np.concatenate([s for s, _ in steps])
    v = np.concatenate([s + d for s, d in steps])
    w = np.random.default_rng(seed).integers(min_weight, max_weight + 1, size=u.size)
    return _both_ways(n, u, v, w, dict(generator="grid3d", side=side, layers=-(-n // side ** 2), seed=seed,
                                       min_weight=min_weight, max_weight=max_weight))


def small_world(n, k=SMALL_WORLD[0], p=SMALL_WORLD[1], max_weight=MAX_WEIGHT, seed=0) -> Graph:
    """Watts-Strogatz: vertex i joined to i + 1 .. i + k/2 (mod n); each such edge's far end, with probability p,
    moved to a uniformly random vertex other than i (of edges that then coincide the lighter is kept), both ways."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    rng = np.random.default_rng(seed)
    half = max(min(k // 2, (n - 1) // 2), 0)
    u = np.repeat(np.arange(n), half)
    v = (u + np.tile(np.arange(1, half + 1), n)) % n
    moved = rng.random(u.size) < p
    far = rng.integers(0, max(n - 1, 1), size=u.size)
    far += far >= u                                  # any vertex but i itself
    v = np.where(moved, far, v)
    w = rng.integers(1, max_weight + 1, size=u.size)
    return _both_ways(n, u, v, w, dict(generator="small_world", k=k, p=p, seed=seed, max_weight=max_weight))


def components(n, size=COMPONENT_SIZE, max_weight=MAX_WEIGHT, seed=0) -> Graph:
    """Kemp's random graphs of ``size`` vertices (the last one n % size where that is not 0) side by side, the
    c-th seeded (seed, c)."""
    return _side_by_side(n, size, lambda k, s: generators.kemp(k, max_weight=max_weight, seed=s), seed,
                         dict(generator="components", size=size, seed=seed, max_weight=max_weight))


def cliques(n, size=COMPONENT_SIZE, max_weight=MAX_WEIGHT, seed=0) -> Graph:
    """Complete digraphs of ``size`` vertices (the last one n % size where that is not 0) side by side, the c-th
    seeded (seed, c): many components, each as dense as a graph can be."""
    return _side_by_side(n, size, lambda k, s: generators.complete(k, max_weight=max_weight, seed=s), seed,
                         dict(generator="cliques", size=size, seed=seed, max_weight=max_weight))


def knn_islands(n, fraction=ISLANDS[0], piece=ISLANDS[1], max_weight=DEEP_MAX_WEIGHT, seed=0) -> Graph:
    """A road extract's shape: the ``knn`` graph on n - r vertices (r = round(fraction n)) and the r others in paths
    of ``piece`` vertices walked both ways (the last may be shorter, weights 1..max_weight), apart from it and from
    each other, as an extract cut at its border leaves pieces (Bremen's largest connected part holds 83 % of its
    vertices)."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    r = int(round(fraction * n))
    main = knn(n - r, seed=seed) if n - r else Graph.from_edges(0, [], [], [])
    src, dst, w = main.edges()
    i = np.arange(n - r, n - 1)
    i = i[(i - (n - r)) % piece != piece - 1]                     # no edge from a piece's last vertex to the next
    pw = np.random.default_rng([seed, 1]).integers(1, max_weight + 1, i.size)
    return Graph.from_edges(n, np.concatenate([src, i, i + 1]), np.concatenate([dst, i + 1, i]),
                            np.concatenate([w, pw, pw]), meta=dict(generator="knn_islands", fraction=fraction,
                                                                   piece=piece, seed=seed))


def kemp_star(n, leaves=STAR_LEAVES, max_weight=MAX_WEIGHT, seed=0) -> Graph:
    """Kemp's random graph on n - leaves - 1 vertices and, apart from it, a star: its last vertex joined both ways
    to ``leaves`` others.  The vertex of most out-edges lies outside the bulk of the graph, so a BFS from it alone
    says nothing of the rest."""
    if n < leaves + 2:
        raise GraphError(f"n must be >= {leaves + 2} for a star of {leaves} leaves, got {n}")
    k = n - leaves - 1
    src, dst, w = generators.kemp(k, max_weight=max_weight, seed=seed).edges()
    leaf = np.arange(k, n - 1)
    sw = np.random.default_rng([seed, 1]).integers(1, max_weight + 1, leaves)
    hub = np.full(leaves, n - 1)
    return Graph.from_edges(n, np.concatenate([src, hub, leaf]), np.concatenate([dst, leaf, hub]),
                            np.concatenate([w, sw, sw]), meta=dict(generator="kemp_star", leaves=leaves, seed=seed))


def _side_by_side(n, size, make, seed, meta):
    """The graphs ``make(k, (seed, c))`` of ``size`` vertices (the last n % size) on consecutive vertex ranges."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    if size < 1:
        raise GraphError(f"a component needs >= 1 vertex, got size {size}")
    parts = []
    for c, lo in enumerate(range(0, n, size)):
        src, dst, w = make(min(size, n - lo), [seed, c]).edges()
        parts.append((src + lo, dst + lo, w))
    src, dst, w = (np.concatenate([p[j] for p in parts]) for j in range(3))
    return Graph.from_edges(n, src, dst, w, meta=meta)


def dag(n, weights=DAG_WEIGHTS, seed=0) -> Graph:
    """A random DAG: in a random order of the vertices, the t-th has 2-6 out-edges (fewer where fewer vertices
    follow) to uniformly chosen later ones, each weighing uniformly in ``weights`` (negative included)."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    rng = np.random.default_rng(seed)
    t = np.arange(n - 1)
    deg = rng.integers(2, 7, size=t.size)
    src = np.repeat(t, deg)
    dst = src + 1 + (rng.random(src.size) * (n - 1 - src)).astype(np.int64)      # a later vertex
    order = rng.permutation(n)                                                   # labels: no index order to lean on
    w = rng.integers(weights[0], weights[1] + 1, size=src.size)
    return Graph.from_edges(n, order[src], order[dst], w, meta=dict(generator="dag", seed=seed,
                                                                    min_weight=weights[0], max_weight=weights[1]))


def dense(n, p=DENSE_P, max_weight=MAX_WEIGHT, seed=0) -> Graph:
    """Seed 003's density-p graph (a Hamiltonian cycle and every ordered pair with probability p)."""
    g = generators.density(n, p, max_weight=max_weight, seed=seed)
    return dataclasses.replace(g, meta=dict(g.meta, generator="dense"))
