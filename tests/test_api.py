"""shortest_paths against scipy.sparse.csgraph: inputs, outputs, predecessors, errors."""
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import apsp_kernels as ak
from apsp_kernels import Graph, GraphError, NegativeCycleError
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G
from apsp_kernels.api import as_graph


def _graphs():
    """Directed graphs with zero-weight edges, unreachable pairs, and (by potentials) negative edges."""
    for seed in range(6):
        g = G.kemp(30 + 7 * seed, 0, 4, 0, 20, seed=seed)          # weight 0 allowed, out-degree 0 allowed
        yield g
        yield G.with_potential(g, scale=15, seed=seed)               # negative edges, no negative cycle


def _check_predecessors(g, d, pred):
    """Every finite distance is realised by walking the predecessors back to the source."""
    w = {(int(u), int(v)): int(x) for u, v, x in zip(*g.edges())}
    n = g.n
    for s in range(n):
        assert pred[s, s] == ak.NO_PREDECESSOR
        for t in range(n):
            if s == t:
                continue
            if not np.isfinite(d[s, t]):
                assert pred[s, t] == ak.NO_PREDECESSOR
                continue
            total, v, steps = 0, t, 0
            while v != s:
                u = int(pred[s, v])
                assert u >= 0 and steps < n, (s, t)
                total += w[(u, v)]
                v, steps = u, steps + 1
            assert total == d[s, t], (s, t)


@pytest.mark.parametrize("method", ["auto", "fw_sequential", "fw_blocked_parallel", "dijkstra_cpu", "scipy_fw"])
def test_distances_and_predecessors_match_scipy(method):
    for g in _graphs():
        algo = None if method == "auto" else registry.get(method)
        if algo is not None and g.has_negative and not algo.negative_weights:
            continue
        d, pred, used = ak.shortest_paths(g, method=method, return_predecessors=True, return_method=True)
        want = csgraph.shortest_path(g.to_scipy(), method="J" if g.has_negative else "D")
        assert d.dtype == np.float64 and np.array_equal(d, want)
        _check_predecessors(g, d, pred)
        assert used == method if method != "auto" else registry.get(used).auto_rank is not None


def test_inputs_scipy_dense_networkx_and_undirected():
    # an explicit zero (2 -> 0) is a zero-weight edge, as in csgraph
    m = sp.csr_matrix((np.array([3.0, 1.0, 0.0]), (np.array([0, 1, 2]), np.array([1, 2, 0]))), shape=(3, 3))
    want = csgraph.shortest_path(m)
    assert np.array_equal(ak.shortest_paths(m), want)
    dense = np.array([[0, 3, np.inf], [0, 0, 1], [np.nan, 0, 0]])   # 0, inf, NaN: no edge
    assert np.array_equal(ak.shortest_paths(dense), csgraph.shortest_path(dense))
    assert np.array_equal(ak.shortest_paths(dense, directed=False), csgraph.shortest_path(dense, directed=False))
    g = as_graph(m, directed=False)
    assert g.m == 6

    class Stub:                                    # the networkx interface used (nx is optional)
        nodes = ["a", "b", "c"]

        def edges(self, data=False):
            return [("a", "b", {"weight": 2}), ("b", "c", {}), ("c", "a", {"weight": 5})]

        def is_directed(self):
            return True
    g = Graph.from_networkx(Stub())
    assert g.names == ("a", "b", "c") and g.m == 3
    assert ak.shortest_paths(Stub())[0].tolist() == [0, 2, 3]


def test_int32_output_keeps_the_inf_sentinel():
    g = Graph.from_edges(3, [0], [1], [4])
    d = ak.shortest_paths(g, dtype=np.int32)
    assert d.dtype == np.int32 and d[0, 1] == 4 and d[1, 0] == ak.INF


def test_errors_are_clear():
    with pytest.raises(TypeError, match="takes a Graph"):
        ak.shortest_paths([[0, 1], [1, 0]])
    neg = Graph.from_edges(2, [0], [1], [-1])
    with pytest.raises(GraphError, match="non-negative"):
        ak.shortest_paths(neg, method="dijkstra_cpu")
    with pytest.raises(NegativeCycleError):
        ak.shortest_paths(Graph.from_edges(2, [0, 1], [1, 0], [1, -2]), method="fw_sequential")
    with pytest.raises(ValueError, match="exact"):
        ak.shortest_paths(G.kemp(8, seed=1), method="harish", variant="original")
    half = np.array([[0, 1.5], [0, 0]])              # float weights: scipy's answer, never a GPU code
    assert np.array_equal(ak.shortest_paths(half), csgraph.shortest_path(half))
    with pytest.raises(GraphError, match="tuned_fw takes int32 weights only.*float"):
        ak.shortest_paths(half, method="tuned_fw")


@pytest.mark.gpu
@pytest.mark.parametrize("method", ["auto", "katz_kider", "tran_fw"])
def test_gpu_distances_and_predecessors_match_scipy(method):
    for g in _graphs():
        d, pred, used = ak.shortest_paths(g, method=method, return_predecessors=True, return_method=True)
        assert registry.get(used).device == "gpu"
        want = csgraph.shortest_path(g.to_scipy(), method="J" if g.has_negative else "D")
        assert np.array_equal(d, want)
        _check_predecessors(g, d, pred)


def test_streamed_rows_are_finished_and_converted_on_the_host():
    """tuned_frontier's streamed rows leave the device as unfinished int32 (a DMA only) and the host's threads finish
    them: any value past MAX_PATH_WEIGHT is no path (inf, INF or INF64 by the result's dtype), the rest exact."""
    from apsp_kernels.algorithms.gpu import resident as R
    from apsp_kernels.core.limits import INF, MAX_PATH_WEIGHT
    from apsp_kernels.core.wide import INF64
    s = np.array([0, 7, MAX_PATH_WEIGHT, MAX_PATH_WEIGHT + 1, INF, 2**31 - 1], np.int32)
    for dtype, none in ((np.float64, np.inf), (np.float32, np.inf), (np.int32, INF), (np.int64, INF64)):
        d = np.empty(s.size, dtype)
        R._move(d, s, none)
        assert d.tolist() == np.array([0, 7, MAX_PATH_WEIGHT, none, none, none], dtype).tolist(), dtype
    d = np.empty(s.size, np.int32)
    R._move(d, s, None)                                              # a plain copy
    assert np.array_equal(d, s)
    assert 1 <= R.host_threads() <= 16


def test_a_large_host_result_is_touched_in_the_background_and_a_small_one_not(monkeypatch):
    """The host's threads write one byte a page of a new result while the GPU solves; under TOUCH_FROM bytes none."""
    from apsp_kernels.algorithms.gpu import resident as R
    a, jobs = R.touched((10, 10), np.float64)
    assert a.shape == (10, 10) and a.dtype == np.float64 and jobs == []
    monkeypatch.setattr(R, "TOUCH_FROM", 0)
    monkeypatch.setattr(R, "host_threads", lambda: 2)
    monkeypatch.setattr(R, "_POOL", [])
    a, jobs = R.touched((3000, 1000), np.int32)                     # 12 MB: a job a thread
    for j in jobs:
        j.result()
    assert a.shape == (3000, 1000) and len(jobs) == 2
    assert (a.reshape(-1).view(np.uint8)[::R.PAGE] == 0).all()
    monkeypatch.setattr(R, "host_threads", lambda: 8)
    monkeypatch.setattr(R, "_POOL", [])
    assert len(R.touched((3000, 1000), np.int32)[1]) == 3              # at least 4 MiB a job
