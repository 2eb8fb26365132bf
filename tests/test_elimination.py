"""Supernodal min-plus elimination (cpu/elimination) against scipy.sparse.csgraph, exactly: grids, k-nearest-
neighbour geometric graphs, rings, paths, trees, disconnected graphs, n = 1, random directed graphs with and
without negative edges, float weights; both bisectors; any block of rows; negative cycles refused."""
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from scipy.sparse import csgraph
from scipy.spatial import cKDTree

import apsp_kernels as ak
from apsp_kernels import Graph
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.cpu import elimination as E
from apsp_kernels.algorithms.cpu.elimination import ordering
from apsp_kernels.core.distances import NegativeCycleError
from apsp_kernels.core.graph import INF

needs_metis = pytest.mark.skipif(ordering.pymetis is None, reason="pymetis not installed (optional bisector)")
BISECTORS = ["levels", pytest.param("metis", marks=needs_metis), pytest.param("metis-bisect", marks=needs_metis)]


def grid(r, c, seed=0):
    rng = np.random.default_rng(seed)
    idx = np.arange(r * c).reshape(r, c)
    s = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    d = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    w = rng.integers(1, 100, s.size)
    return sp.csr_matrix((np.concatenate([w, w]), (np.concatenate([s, d]), np.concatenate([d, s]))),
                         shape=(r * c, r * c))


def knn(n, k=6, seed=0):
    """Points in the unit square, each joined to its k nearest, weights the Euclidean length (x 1000, rounded);
    where both ends chose an edge the matrix sums the two copies (twice the length): a test graph, any weights do."""
    pts = np.random.default_rng(seed).random((n, 2))
    dist, nb = cKDTree(pts).query(pts, k + 1)
    s = np.repeat(np.arange(n), k)
    d = nb[:, 1:].ravel()
    w = np.maximum(1, np.rint(dist[:, 1:].ravel() * 1000)).astype(np.int64)
    return sp.csr_matrix((np.concatenate([w, w]), (np.concatenate([s, d]), np.concatenate([d, s]))), shape=(n, n))


def ring(n, directed=True):
    s = np.arange(n)
    a = sp.csr_matrix((np.arange(1, n + 1), (s, (s + 1) % n)), shape=(n, n))
    return a if directed else a + a.T


def tree(n, seed=0):
    rng = np.random.default_rng(seed)
    parent = np.array([rng.integers(0, v) for v in range(1, n)])
    w = rng.integers(1, 50, n - 1)
    ch = np.arange(1, n)
    return sp.csr_matrix((np.concatenate([w, w + 3]), (np.concatenate([ch, parent]), np.concatenate([parent, ch]))),
                         shape=(n, n))


def solve(a, **kw):
    d = E.all_pairs(E.factor(a, **kw))
    if d.dtype == np.int32:
        d = np.where(d == INF, np.inf, d.astype(np.float64))
    return d


CASES = {
    "n=1": sp.csr_matrix((1, 1)),
    "grid 1x1": grid(1, 1), "grid 1x40": grid(1, 40), "grid 17x23": grid(17, 23), "grid 40x40": grid(40, 40, 3),
    "knn 300": knn(300), "knn 800 k=4": knn(800, 4, 5),
    "ring 50": ring(50), "ring 77 undirected": ring(77, False), "path 60": sp.triu(ring(60), 1).tocsr(),
    "tree 200": tree(200), "forest": sp.block_diag([tree(30, 1), grid(5, 6), sp.csr_matrix((4, 4)), ring(9)]).tocsr(),
    "no edges 7": sp.csr_matrix((7, 7)),
}


@pytest.mark.parametrize("bisector", BISECTORS)
@pytest.mark.parametrize("leaf,cap", [(1, 0), (1, 16), (8, None), (64, 0), (64, None)])
@pytest.mark.parametrize("name", list(CASES))
def test_matches_scipy(name, leaf, cap, bisector):
    a = CASES[name]
    assert np.array_equal(solve(a, leaf=leaf, bisector=bisector, cap=cap), csgraph.shortest_path(a, method="D"))


def test_amalgamation_keeps_a_postordered_tree():
    a = knn(600, 5, 3)
    plain = E.nested_dissection(a, leaf=16, bisector="levels", cap=0)
    o = E.amalgamate(plain, 48)
    assert np.array_equal(o.perm, plain.perm) and o.start[-1] == 600 and o.start.size < plain.start.size
    s = np.arange(o.start.size - 1)
    assert np.diff(o.start).max() <= max(48, np.diff(plain.start).max())   # merges stop at the cap
    assert ((o.parent == -1) | (o.parent > s)).all()              # parents after children
    has = o.parent >= 0
    assert (o.first[o.parent[has]] <= o.first[s[has]]).all()       # a subtree holds its children's subtrees


@st.composite
def digraphs(draw, negative=False, floats=False):
    n = draw(st.integers(1, 30))
    m = draw(st.integers(0, 4 * n))
    src = np.array(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), np.int64)
    dst = np.array(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), np.int64)
    w = np.array(draw(st.lists(st.integers(1, 100), min_size=m, max_size=m)), np.int64)
    keep = np.zeros(src.size, bool)       # one edge per pair: scipy sums a COO's duplicates, and a sum of
    keep[np.unique(src * n + dst, return_index=True)[1]] = True     # shifted edges is no longer a shifted edge
    keep &= src != dst
    src, dst, w = src[keep], dst[keep], w[keep]
    if negative and src.size:                      # a potential keeps every cycle non-negative
        p = np.array(draw(st.lists(st.integers(0, 60), min_size=n, max_size=n)))
        w = w + p[src] - p[dst]
    if floats:
        w = w / 8.0                                 # dyadic: every sum exact, so scipy's order gives the same
    return sp.coo_matrix((w, (src, dst)), shape=(n, n)).tocsr()   # duplicates summed, as scipy reads a COO


@settings(max_examples=60, deadline=None)
@given(a=digraphs(), leaf=st.sampled_from([1, 3, 64]), cap=st.sampled_from([0, 5, None]))
def test_random_directed(a, leaf, cap):
    assert np.array_equal(solve(a, leaf=leaf, bisector="levels", cap=cap), csgraph.shortest_path(a, method="D"))


@settings(max_examples=60, deadline=None)
@given(a=digraphs(negative=True), leaf=st.sampled_from([1, 4]))
def test_random_negative_edges(a, leaf):
    assert np.array_equal(solve(a, leaf=leaf, bisector="levels"), csgraph.shortest_path(a, method="BF"))


@settings(max_examples=30, deadline=None)
@given(a=digraphs(negative=True, floats=True))
def test_random_float_weights(a):
    d = solve(a, leaf=2, bisector="levels")
    assert d.dtype == np.float64 and np.array_equal(d, csgraph.shortest_path(a, method="BF"))


def test_float_weights_to_rounding():
    a = knn(400, 5, 2).astype(np.float64) / 7.0
    ref = csgraph.shortest_path(a, method="D")
    d = solve(a, leaf=16)
    assert np.array_equal(np.isinf(d), np.isinf(ref)) and np.allclose(d, ref, rtol=1e-12, atol=0)


def test_rows_block_any_sources():
    a = knn(500, 5, 7)
    f = E.factor(a, leaf=16)
    src = np.array([499, 3, 3, 250, 0, 17])          # unsorted, repeated
    ref = csgraph.shortest_path(a, method="D", indices=src)
    d = E.rows(f, src, block=4)
    assert np.array_equal(np.where(d == INF, np.inf, d), ref)


@pytest.mark.parametrize("bisector", BISECTORS)
def test_negative_cycle_refused(bisector):
    a = grid(8, 8).tolil()
    a[40, 41] = -200                                  # 40 -> 41 -> 40 is now negative
    with pytest.raises(NegativeCycleError, match=r"^negative cycle through vertex \d+$") as e:
        E.factor(a.tocsr(), leaf=4, bisector=bisector)
    assert e.value.vertex in (40, 41)
    with pytest.raises(NegativeCycleError, match="negative cycle"):
        E.factor(sp.csr_matrix(([-1.0], ([2], [2])), shape=(3, 3)))


def test_through_shortest_paths_by_name():
    a = grid(12, 9, 4)
    d, name = ak.shortest_paths(a, method="elimination_cpu", return_method=True)
    assert name == "elimination_cpu" and np.array_equal(d, csgraph.shortest_path(a, method="D"))


def test_registry_entry_leaves_auto_alone():
    a = registry.get("elimination_cpu")
    assert a.device == "cpu" and not a.faithful and a.auto_rank is None and not a.best_cpu
    g = Graph.from_scipy(grid(10, 10, 1))
    for leaf in a.variants:
        assert np.array_equal(a.run(g, variant=leaf)[0], ak.reference_apsp(g))


def test_stats_count_the_blocks():
    f = E.factor(grid(30, 30), leaf=16, bisector="levels", cap=0)      # no amalgamation: leaves and separators
    st_ = f.stats()
    s, fr = f.sym.sizes, f.sym.fronts
    assert st_["stored_entries"] == int((s * s + 2 * s * fr).sum()) <= 900 ** 2
    assert st_["supernodes"] == s.size and s.sum() == 900 and st_["largest_supernode"] <= 30


def test_integer_matrix_past_the_int32_bound_is_refused():
    from apsp_kernels.core.graph import GraphError
    a = sp.csr_matrix(([2**31 - 5, 7], ([0, 1], [1, 2])), shape=(3, 3))
    with pytest.raises(GraphError):
        E.factor(a)


def test_float_coo_duplicates_summed_as_scipy():
    a = sp.coo_matrix(([1.5, 2.25, 10.0], ([0, 0, 1], [1, 1, 2])), shape=(3, 3))
    assert np.array_equal(solve(a), csgraph.shortest_path(a, method="D"))
