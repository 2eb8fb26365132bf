import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from apsp_kernels import Graph, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G

CPU = registry.by_device("cpu")


@st.composite
def graphs(draw, negative=False):
    n = draw(st.integers(1, 40))
    m = draw(st.integers(0, 3 * n))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    w = draw(st.lists(st.integers(0, 100), min_size=m, max_size=m))
    g = Graph.from_edges(n, src, dst, w)
    if negative and g.m:
        g = G.with_potential(g, scale=draw(st.integers(1, 60)), seed=draw(st.integers(0, 99)))
    return g


@pytest.mark.parametrize("algo", CPU, ids=lambda a: a.name)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(g=graphs())
def test_cpu_matches_scipy(algo, g):
    assert np.array_equal(algo.run(g)[0], reference_apsp(g))


@pytest.mark.parametrize("algo", [a for a in CPU if a.negative_weights], ids=lambda a: a.name)
@settings(max_examples=25, deadline=None)
@given(g=graphs(negative=True))
def test_cpu_matches_scipy_with_negative_edges(algo, g):
    assert np.array_equal(algo.run(g)[0], reference_apsp(g))


@pytest.mark.parametrize("block", [32, 64, 128])
def test_blocked_ragged_sizes(block):
    from apsp_kernels.algorithms import cpu
    for n in (1, block - 1, block + 1, 2 * block + 3):
        g = G.kemp(n, 1, 4, seed=n)
        ref = reference_apsp(g)
        assert np.array_equal(cpu.fw_blocked(g, block), ref)
        assert np.array_equal(cpu.fw_blocked_parallel(g, block), ref)


def test_dijkstra_refuses_negative():
    from apsp_kernels import GraphError
    from apsp_kernels.algorithms import cpu
    g = Graph.from_edges(2, [0], [1], [-1])
    with pytest.raises(GraphError):
        cpu.dijkstra_apsp(g)


def test_squarings():
    from apsp_kernels.core.distances import squarings_needed
    assert [squarings_needed(n) for n in (1, 2, 3, 4, 5, 1025)] == [0, 0, 1, 2, 2, 10]
