"""Graphs with small separators for tuned_elimination's tests (emulated and on the GPU): grids, kNN geometric
graphs, rings, trees, a forest with isolated vertices, n = 1, negative edges (a potential: no negative cycle)."""
import numpy as np
import scipy.sparse as sp
from scipy.spatial import cKDTree

from apsp_kernels import Graph
from apsp_kernels.core import generators as G


def _graph(a):
    return Graph.from_scipy(sp.csr_matrix(a))


def grid(r, c, seed=0, directed=False):
    """r x c 4-neighbour grid, weights 1..99 (each direction its own where ``directed``)."""
    rng = np.random.default_rng(seed)
    idx = np.arange(r * c).reshape(r, c)
    s = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    d = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    w = rng.integers(1, 100, s.size)
    w2 = rng.integers(1, 100, s.size) if directed else w
    return _graph(sp.coo_matrix((np.concatenate([w, w2]), (np.concatenate([s, d]), np.concatenate([d, s]))),
                                shape=(r * c, r * c)))


def knn(n, k=6, seed=0, one_way=0.0):
    """Points in the unit square joined to their k nearest, weights the length x 1000 rounded; ``one_way``: the
    share of pairs kept in one direction only."""
    rng = np.random.default_rng(seed)
    pts = rng.random((n, 2))
    dist, nb = cKDTree(pts).query(pts, min(k + 1, n))
    s = np.repeat(np.arange(n), nb.shape[1] - 1)
    d = nb[:, 1:].ravel()
    w = np.maximum(1, np.rint(dist[:, 1:].ravel() * 1000)).astype(np.int64)
    back = rng.random(s.size) >= one_way
    a = sp.coo_matrix((np.concatenate([w, w[back]]), (np.concatenate([s, d[back]]), np.concatenate([d, s[back]]))),
                      shape=(n, n)).tocsr()
    return _graph(a)                     # duplicates summed by tocsr would double weights: kept small, still exact


def ring(n, directed=True):
    s = np.arange(n)
    a = sp.coo_matrix((np.arange(1, n + 1), (s, (s + 1) % n)), shape=(n, n)).tocsr()
    return _graph(a if directed else a + a.T)


def tree(n, seed=0):
    rng = np.random.default_rng(seed)
    parent = np.array([rng.integers(0, v) for v in range(1, n)], np.int64)
    w = rng.integers(1, 50, n - 1)
    ch = np.arange(1, n)
    return _graph(sp.coo_matrix((np.concatenate([w, w + 3]), (np.concatenate([ch, parent]),
                                                              np.concatenate([parent, ch]))), shape=(n, n)))


def forest():
    """Components that never meet: a tree, a grid, four isolated vertices, a directed ring."""
    parts = [tree(30, 1), grid(5, 6), None, ring(9)]
    mats = [sp.csr_matrix((4, 4)) if p is None else p.to_scipy() for p in parts]
    return _graph(sp.block_diag(mats).tocsr())


def negative(g, seed=0):
    """The same graph with negative edges and no negative cycle (a vertex potential)."""
    return G.with_potential(g, scale=50, seed=seed)


def negative_cycle():
    """A grid with one negative cycle of three vertices somewhere in its middle."""
    g = grid(9, 9, seed=4)
    src, dst, w = g.edges()
    return Graph.from_edges(g.n, np.concatenate([src, [40, 41, 50]]), np.concatenate([dst, [41, 50, 40]]),
                            np.concatenate([w, [1, 1, -5]]))


# the small cases both the emulation and the GPU tests solve, by name
CASES = {
    "n=1": lambda: grid(1, 1),
    "grid 9x9": lambda: grid(9, 9, seed=1),
    "grid 7x30 directed": lambda: grid(7, 30, seed=2, directed=True),
    "knn 200 one-way": lambda: knn(200, 5, seed=3, one_way=0.3),
    "ring 60": lambda: ring(60),
    "ring 41 undirected": lambda: ring(41, directed=False),
    "tree 120": lambda: tree(120, seed=4),
    "forest": forest,
    "negative grid 10x12": lambda: negative(grid(10, 12, seed=5, directed=True), seed=5),
    "negative knn 150": lambda: negative(knn(150, 4, seed=6, one_way=0.2), seed=6),
    "knn 300": lambda: knn(300, 6, seed=8),
}
