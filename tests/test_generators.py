import time

import numpy as np
import pytest
from scipy.sparse import csgraph

from apsp_kernels.core import generators as G


def test_kemp_degree_and_weight_bounds():
    g = G.kemp(3000, 2, 6, 1, 1000, seed=7)
    deg = np.diff(g.indptr)
    assert deg.min() >= 2 and deg.max() <= 6
    assert g.weights.min() >= 1 and g.weights.max() <= 1000
    s, d, _ = g.edges()
    assert not np.any(s == d)


def test_kemp_small_n_caps_degree():
    g = G.kemp(3, 2, 6, seed=1)
    assert np.diff(g.indptr).max() <= 2


def test_generators_are_deterministic():
    for f in (lambda s: G.kemp(500, seed=s), lambda s: G.density(200, 0.1, "exact", seed=s),
              lambda s: G.density(200, 0.1, seed=s), lambda s: G.complete(30, seed=s)):
        a, b, c = f(1), f(1), f(2)
        assert a == b
        assert a != c


def test_kemp_largest_graph_is_fast():
    t = time.perf_counter()
    g = G.kemp(21504, seed=0)
    assert time.perf_counter() - t < 2.0
    assert g.n == 21504


@pytest.mark.parametrize("form", ["exact", "bernoulli"])
@pytest.mark.parametrize("p", [0.0, 0.05, 0.5])
def test_density_is_strongly_connected(form, p):
    g = G.density(150, p, form, seed=3)
    ncomp, _ = csgraph.connected_components(g.to_scipy(), directed=True, connection="strong")
    assert ncomp == 1


def test_density_exact_count():
    n, p = 300, 0.2
    assert G.density(n, p, "exact", seed=1).m == round(n * (n - 1) * p)


def test_density_bernoulli_count_is_near():
    n, p = 400, 0.1
    m = G.density(n, p, "bernoulli", seed=1).m
    assert abs(m - n * (n - 1) * p) < 5 * np.sqrt(n * (n - 1) * p) + n


def test_cycles():
    d = G.cycle(10, directed=True).to_dense()
    assert d[0, 1] == 1 and d[1, 0] > 1
    u = G.cycle(10, directed=False)
    assert u.m == 20


def test_with_potential_has_negative_edges_but_no_negative_cycle():
    from apsp_kernels import reference_apsp
    g = G.with_potential(G.kemp(200, 1, 4, 0, 10, seed=5), scale=30, seed=5)
    assert g.has_negative
    reference_apsp(g)  # raises on a negative cycle


def test_bad_parameters():
    from apsp_kernels import GraphError
    with pytest.raises(GraphError):
        G.density(10, 1.5)
    with pytest.raises(GraphError):
        G.kemp(10, 5, 2)


def test_cycle_weights_are_seeded_and_symmetric():
    a, b = G.cycle(50, directed=False, max_weight=9, seed=4), G.cycle(50, directed=False, max_weight=9, seed=4)
    assert a == b and a != G.cycle(50, directed=False, max_weight=9, seed=5)
    d = a.to_dense()
    assert (d == d.T).all() and 1 <= a.weights.min() and a.weights.max() <= 9
    assert G.cycle(7).weights.tolist() == [1] * 7                      # his cycles: unit weights by default


def test_chain():
    from apsp_kernels import INF, reference_apsp
    d = reference_apsp(G.chain(6))
    assert d[0, 5] == 5 and d[5, 0] == INF and G.chain(6).m == 5
    r = reference_apsp(G.chain(6, reverse=True))
    assert r[5, 0] == 5 and r[0, 5] == INF
    assert G.chain(1).m == 0

