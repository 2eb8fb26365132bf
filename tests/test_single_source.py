"""Seed 001's single-source problems on the CPU: the numba BFS and Dijkstra against scipy (levels and
distances exactly), the sources' check and choice, and the registry's ``problem`` field keeping
them out of everything that measures all-pairs codes."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from scipy.sparse import csgraph

from apsp_kernels import Graph, GraphError, INF
from apsp_kernels.algorithms import registry
from apsp_kernels.core import random_graphs
from apsp_kernels.core import generators as G
from apsp_kernels.algorithms import cpu
from apsp_kernels.core.sources import as_sources, in_largest_component, largest_component
from apsp_kernels.core.verify import reference_vectors


def _levels_from_bfs_order(g, s):
    """Levels from scipy's breadth_first_order: a vertex is one level below its predecessor."""
    order, pred = csgraph.breadth_first_order(g.to_scipy(), s, directed=True, return_predecessors=True)
    lev = np.full(g.n, INF, np.int32)
    lev[s] = 0
    for v in order[1:]:
        lev[v] = lev[pred[v]] + 1
    return lev


def _classes(n, seed):
    """Small graphs of each of seed 001's classes, and a directed one with zero-weight edges."""
    most = n * (n - 1) // 2
    return [random_graphs.uniform(n, most // 2, seed=seed),
            random_graphs.power_law(n, min(most, 3 * n), seed=seed),
            random_graphs.geometric(n, min(most, 4 * n), seed=seed),
            G.kemp(n, 0, 4, 0, 50, seed=seed)]


@pytest.mark.parametrize("n", [1, 2, 40, 300])
def test_bfs_levels_match_scipy(n):
    for g in _classes(n, seed=n):
        src = np.arange(0, n, max(1, n // 5))
        got = cpu.bfs_levels(g, src)
        np.testing.assert_array_equal(got, reference_vectors(g, src, "bfs"))
        for row, s in zip(got, src):
            np.testing.assert_array_equal(row, _levels_from_bfs_order(g, s))


@pytest.mark.parametrize("n", [1, 2, 40, 300])
def test_dijkstra_sssp_matches_scipy_and_the_apsp_code(n):
    for g in _classes(n, seed=n + 1):
        src = np.arange(0, n, max(1, n // 5))
        got = cpu.dijkstra_sssp(g, src)
        np.testing.assert_array_equal(got, reference_vectors(g, src, "sssp"))
        np.testing.assert_array_equal(got, cpu.dijkstra_apsp(g)[src])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 30), data=st.data())
def test_single_source_codes_on_arbitrary_graphs(n, data):
    m = data.draw(st.integers(0, 3 * n))
    s = data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    d = data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    w = data.draw(st.lists(st.integers(0, 20), min_size=m, max_size=m))
    g = Graph.from_edges(n, s, d, w)
    src = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4))
    for problem, solve in (("bfs", cpu.bfs_levels), ("sssp", cpu.dijkstra_sssp)):
        np.testing.assert_array_equal(solve(g, src), reference_vectors(g, src, problem))


def test_sources_are_checked():
    g = G.cycle(5)
    assert as_sources(3, 5).tolist() == [3] and as_sources([0, 4], 5).dtype == np.int64
    for bad in (None, [5], [-1], [0.5], [[0, 1]]):
        with pytest.raises(ValueError):
            as_sources(bad, 5)
    assert cpu.bfs_levels(g, []).shape == (0, 5)
    with pytest.raises(GraphError, match="non-negative"):
        cpu.dijkstra_sssp(Graph.from_edges(2, [0], [1], [-1]), [0])


def test_sources_lie_in_the_largest_component_and_are_seeded():
    # two components: a 30-cycle and a 10-cycle
    s = np.r_[np.arange(30), 30 + np.arange(10)]
    d = np.r_[(np.arange(30) + 1) % 30, 30 + (np.arange(10) + 1) % 10]
    g = Graph.from_edges(40, np.r_[s, d], np.r_[d, s], np.ones(80))
    assert largest_component(g).tolist() == list(range(30))
    a = in_largest_component(g, 8, seed=3)
    assert len(set(a.tolist())) == 8 and a.max() < 30
    assert np.array_equal(a, in_largest_component(g, 8, seed=3))
    assert not np.array_equal(a, in_largest_component(g, 8, seed=4))
    assert in_largest_component(g, 100, seed=0).size == 30          # no more than the component has


def test_problem_field_keeps_single_source_codes_apart():
    assert {a.problem for a in registry.ALGORITHMS.values()} == set(registry.PROBLEMS)
    for dev in ("cpu", "gpu"):
        assert all(a.problem == "apsp" for a in registry.by_device(dev))
    for p in registry.PROBLEMS:
        assert registry.by_problem(p) == [a for a in registry.ALGORITHMS.values() if a.problem == p]
        assert registry.by_problem(p, "cpu") == [a for a in registry.by_problem(p) if a.device == "cpu"]
    for p, name in registry.REFERENCES.items():
        assert registry.get(name).problem == p and registry.get(name).device == "cpu"
    assert all(a.problem == "apsp" for a in registry.auto_candidates())
    assert all(registry.get(a).problem == "apsp" for a in registry.best_cpu_candidates())
    with pytest.raises(ValueError):
        registry.by_problem("mst")


@pytest.mark.parametrize("a", [a for a in registry.ALGORITHMS.values() if a.problem != "apsp"], ids=lambda a: a.name)
def test_single_source_entries_take_sources(a):
    import inspect
    assert "sources" in inspect.signature(a.launcher).parameters
    if a.device == "cpu":
        g = random_graphs.power_law(60, 150, seed=1)
        src = in_largest_component(g, 3, seed=1)
        for v in a.variants:
            d, t = a.run(g, variant=v, sources=src)
            assert isinstance(t, dict)
            np.testing.assert_array_equal(d, reference_vectors(g, src, a.problem))


def test_shortest_paths_refuses_a_single_source_code():
    from apsp_kernels import shortest_paths
    with pytest.raises(ValueError, match="sources"):
        shortest_paths(G.cycle(4), method="dijkstra_sssp_cpu")
