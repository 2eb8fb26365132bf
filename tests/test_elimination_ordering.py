"""The ordering of cpu/elimination: METIS's node nested dissection with its tree recovered (elimination tree,
postorder, column counts, supernodes), checked for what the symbolic and numeric phases and the GPU port rely on
(a permutation; supernodes in postorder with contiguous subtrees; parents after children; one root per
connected component; every vertex of a supernode's structure in an ancestor), against brute-force elimination
trees and column counts, and exact against scipy on random graphs, directed and disconnected ones too."""
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from scipy.sparse import csgraph

from apsp_kernels.algorithms.cpu import elimination as E
from apsp_kernels.algorithms.cpu.elimination import etree, ordering
from apsp_kernels.core.graph import INF

pytestmark = pytest.mark.skipif(ordering.pymetis is None, reason="pymetis not installed (the METIS ordering)")


def check_tree(o, a):
    """Every property the symbolic phase, the numeric sweeps and the GPU launch plan assume of an Ordering."""
    p = E.symmetric_pattern(a)
    n = p.shape[0]
    ns = o.start.size - 1
    assert np.array_equal(np.sort(o.perm), np.arange(n))                   # a permutation
    assert o.start[0] == 0 and o.start[-1] == n and (np.diff(o.start) > 0).all()
    s = np.arange(ns)
    assert ((o.parent == -1) | (o.parent > s)).all()                        # parents after children
    assert (o.first <= o.start[:-1]).all()
    for q in range(ns):                     # a subtree is its children's subtrees end to end, then itself
        kids = np.flatnonzero(o.parent == q)
        at = o.first[q]
        for c in kids[np.argsort(o.first[kids])]:
            assert o.first[c] == at
            at = o.start[c + 1]
        assert at == o.start[q]
    ncomp, label = csgraph.connected_components(p, directed=False)
    roots = np.flatnonzero(o.parent == -1)
    assert roots.size == ncomp                                              # one root per component
    for r in roots:
        assert np.unique(label[o.perm[o.first[r]:o.start[r + 1]]]).size == 1
    sym = E.symbolic(o, p)
    anc_of = [set() for _ in range(ns)]
    for t in range(ns - 1, -1, -1):
        if o.parent[t] >= 0:
            anc_of[t] = anc_of[o.parent[t]] | {int(o.parent[t])}
    for t in range(ns):                     # every update lands in an ancestor's blocks
        assert set(sym.sn[sym.fidx[sym.fptr[t]:sym.fptr[t + 1]]].tolist()) <= anc_of[t]


@st.composite
def graphs(draw, directed=True):
    """Random graphs of up to 40 vertices: sparse or dense, often disconnected, with isolated vertices."""
    n = draw(st.integers(0, 40))
    m = draw(st.integers(0, 5 * n)) if n else 0
    src = np.array(draw(st.lists(st.integers(0, max(n - 1, 0)), min_size=m, max_size=m)), np.int64)
    dst = np.array(draw(st.lists(st.integers(0, max(n - 1, 0)), min_size=m, max_size=m)), np.int64)
    w = np.array(draw(st.lists(st.integers(1, 100), min_size=m, max_size=m)), np.int64)
    keep = np.zeros(src.size, bool)
    keep[np.unique(src * max(n, 1) + dst, return_index=True)[1]] = True
    keep &= src != dst
    a = sp.csr_matrix((w[keep], (src[keep], dst[keep])), shape=(n, n))
    return a if directed else (a + a.T).tocsr()


@settings(max_examples=150, deadline=None)
@given(a=graphs(), leaf=st.sampled_from([1, 2, 5, 32]), cap=st.sampled_from([0, 4, None]))
def test_tree_invariants_random(a, leaf, cap):
    check_tree(E.nested_dissection(a, leaf=leaf, bisector="metis", cap=cap), a)


def star(n):
    return sp.csr_matrix((np.ones(n - 1), (np.zeros(n - 1, np.int64), np.arange(1, n))), shape=(n, n))


def path(n):
    return sp.csr_matrix((np.ones(n - 1), (np.arange(n - 1), np.arange(1, n))), shape=(n, n))


SHAPES = {
    "n=0": sp.csr_matrix((0, 0)), "n=1": sp.csr_matrix((1, 1)), "isolated 9": sp.csr_matrix((9, 9)),
    "path 200": path(200), "star 300": star(300), "complete 70": sp.csr_matrix(np.ones((70, 70)) - np.eye(70)),
    "components": sp.block_diag([path(40), star(25), sp.csr_matrix((3, 3)), path(2),
                                 sp.csr_matrix(np.ones((12, 12)))]).tocsr(),
    "grid 30x30": sp.csr_matrix(sp.kron(sp.eye(30), path(30)) + sp.kron(path(30), sp.eye(30))),   # directed
}


@pytest.mark.parametrize("leaf,cap", [(1, 0), (4, None), (32, None), (32, 0)])
@pytest.mark.parametrize("name", list(SHAPES))
def test_tree_invariants_shapes(name, leaf, cap):
    o = E.nested_dissection(SHAPES[name], leaf=leaf, bisector="metis", cap=cap)
    check_tree(o, SHAPES[name])
    assert o.bisector == "metis"


def brute_factor_pattern(p, perm):
    """The filled pattern, lower triangle, of the symmetric pattern p under perm, by eliminating vertex by vertex."""
    n = perm.size
    q = p[perm][:, perm].toarray() != 0
    for j in range(n):
        later = np.flatnonzero(q[j, j + 1:]) + j + 1
        q[np.ix_(later, later)] = True
    np.fill_diagonal(q, True)
    return np.tril(q)


@settings(max_examples=100, deadline=None)
@given(a=graphs(), seed=st.integers(0, 2**31))
def test_etree_and_column_counts_against_brute_force(a, seed):
    p = E.symmetric_pattern(a)
    n = p.shape[0]
    perm = np.random.default_rng(seed).permutation(n).astype(np.int64)
    iperm = np.empty(n, np.int64)
    iperm[perm] = np.arange(n)
    ip, ix = p.indptr.astype(np.int64), p.indices.astype(np.int64)
    parent = etree.elimination_tree(ip, ix, perm, iperm)
    L = brute_factor_pattern(p, perm)
    for j in range(n):                      # the parent: the first off-diagonal entry of column j
        below = np.flatnonzero(L[j + 1:, j])
        assert parent[j] == (below[0] + j + 1 if below.size else -1)
    post = etree.postorder(parent)
    assert np.array_equal(np.sort(post), np.arange(n))
    perm2 = perm[post]
    where = np.empty(n, np.int64)
    where[post] = np.arange(n)
    par2 = np.where(parent[post] >= 0, where[np.maximum(parent[post], 0)], -1)
    assert ((par2 == -1) | (par2 > np.arange(n))).all()
    iperm[perm2] = np.arange(n)
    fd = etree.first_descendants(par2)
    counts = etree.column_counts(ip, ix, perm2, iperm, par2, fd)
    assert np.array_equal(counts, brute_factor_pattern(p, perm2).sum(axis=0))
    assert np.array_equal(L.sum(), counts.sum())            # a postorder changes no fill


def solve(a, **kw):
    d = E.all_pairs(E.factor(a, **kw))
    return np.where(d == INF, np.inf, d.astype(np.float64)) if d.dtype == np.int32 else d


@settings(max_examples=80, deadline=None)
@given(a=graphs(), leaf=st.sampled_from([1, 3, 64]), cap=st.sampled_from([0, 5, None]))
def test_exact_against_scipy_random(a, leaf, cap):
    assert np.array_equal(solve(a, leaf=leaf, bisector="metis", cap=cap), csgraph.shortest_path(a, method="D"))


@pytest.mark.parametrize("name", [k for k in SHAPES if k != "n=0"])
def test_exact_against_scipy_shapes(name):
    a = SHAPES[name].copy()
    a.data = np.arange(1, a.nnz + 1, dtype=np.float64) % 17 + 1
    assert np.array_equal(solve(a, leaf=8, bisector="metis"), csgraph.shortest_path(a, method="D"))


def test_default_is_metis_nested_dissection(monkeypatch):
    a = SHAPES["grid 30x30"]
    assert E.default_bisector() == "metis"

    def no_bisection(*args, **kw):
        raise AssertionError("the default ordering bisected region by region")
    monkeypatch.setattr(ordering.pymetis, "part_graph", no_bisection)
    o = E.nested_dissection(a)
    assert o.bisector == "metis" and E.factor(a).order.bisector == "metis"
    with pytest.raises(AssertionError, match="region by region"):
        E.nested_dissection(a, bisector="metis-bisect")


def test_without_pymetis_the_default_is_levels(monkeypatch):
    monkeypatch.setattr(ordering, "pymetis", None)
    assert E.default_bisector() == "levels" and E.nested_dissection(SHAPES["path 200"]).bisector == "levels"
    with pytest.raises(ImportError, match="pymetis"):
        E.nested_dissection(SHAPES["path 200"], bisector="metis")


def test_fill_no_worse_than_region_bisection():
    """The recovered tree stores no more than the region-by-region METIS dissection (within 10 %) on a grid."""
    a = SHAPES["grid 30x30"]
    p = E.symmetric_pattern(a)
    fast = E.symbolic(E.nested_dissection(a, bisector="metis"), p)
    slow = E.symbolic(E.nested_dissection(a, bisector="metis-bisect"), p)
    assert fast.size <= 1.10 * slow.size
