"""The CPU side: the bundled road networks (counts, distances against scipy), the structure suite's
generators, and the hop-depth probe that ``costs.predict`` / ``api.choose`` take (``structure=``) without changing
a pick where the benchmark rows recorded no hop depth."""
import numpy as np
import pandas as pd
import pytest
from scipy.sparse import csgraph

import apsp_kernels as ak
from apsp_kernels import api, costs
from apsp_kernels.algorithms import registry
from apsp_kernels.core import structure
from apsp_kernels.io import suite_graphs as S
from apsp_kernels.io import datasets, roads


@pytest.mark.parametrize("name, n, m", [("helsinki-walk", 5559, 12724), ("helsinki-drive", 1437, 2126),
                                        ("bremen-dist", 40461, 85111), ("south-seattle-car", 29763, 49604),
                                        ("seattle-ballard", 7442, 16510)])
def test_road_networks_load_with_their_counts_and_scipys_distances(name, n, m):
    g = datasets.load(name)
    assert (g.n, g.m) == (n, m) and g.ids.dtype == np.int64 and "ODbL" in g.meta["licence"]
    src = [0, n // 2, n - 1]
    want = csgraph.dijkstra(g.to_scipy(), indices=src)
    assert np.array_equal(ak.shortest_paths(g, indices=src), want)
    assert np.isfinite(want).mean() > 0.5 and want[np.isfinite(want)].max() > 1000     # across the extract
    if name == "helsinki-walk":                                                           # both ways
        assert (g.to_scipy() != g.to_scipy().T).nnz == 0
    else:                                                                                  # oneway streets kept
        assert (g.to_scipy() != g.to_scipy().T).nnz > 0


def test_an_unknown_data_set_names_the_bundled_ones():
    with pytest.raises(KeyError, match="helsinki-walk"):
        datasets.load("helsinki")


@pytest.mark.parametrize("n", [1, 2, 33, 100])
def test_suite_generators_are_seeded_and_shaped(n):
    for name in ("kemp", "grid", "ring", "ba", "complete"):
        g, again = S.make(name, n, seed=3), S.make(name, n, seed=3)
        assert g == again and g.n == n and not g.has_negative
    grid = S.make("grid", n)
    assert grid.weights.min(initial=1) >= 1 and grid.weights.max(initial=20) <= 20
    if n >= 3:
        assert S.make("ring", n).m == 2 * n
    if n >= 5:
        assert S.make("ba", n).m == 2 * (10 + 4 * (n - 5))              # a 5-clique, then 4 edges a vertex


@pytest.mark.parametrize("n", [1, 2, 7, 200, 1000])
def test_the_road_like_and_deep_classes_are_what_they_say(n):
    """knn: every edge its endpoints' Euclidean length (x 10^4, rounded, >= 1), both ways, each pair once, every
    vertex with at least min(6, n - 1) neighbours; path: n - 1 hops from vertex 0, one way; lollipop: a complete
    digraph on min(128, n) vertices and a two-way tail; all seeded, scipy's distances."""
    for name in S.EXTRA:
        g, again = S.make(name, n, seed=3), S.make(name, n, seed=3)
        assert g == again and g.n == n and not g.has_negative
    from apsp_kernels.core import structure_graphs as SGR
    k = SGR.knn(n, seed=5)
    src, dst, w = k.edges()
    pts = np.random.default_rng(5).random((n, 2))
    want = np.maximum(1, np.rint(np.linalg.norm(pts[src] - pts[dst], axis=1) * SGR.KNN_SCALE))
    assert np.array_equal(w, want)
    pairs = set(zip(src.tolist(), dst.tolist()))
    assert all((b, a) in pairs for a, b in pairs) and len(pairs) == k.m
    assert n == 1 or np.bincount(src, minlength=n).min() >= min(SGR.KNN_K, n - 1)
    p = SGR.path(n)
    assert p.m == n - 1 and np.array_equal(p.edges()[1] - p.edges()[0], np.ones(n - 1, np.int64))
    lp = SGR.lollipop(n)
    c = min(SGR.LOLLIPOP_CLIQUE, n)
    assert lp.m == c * (c - 1) + 2 * (n - c)
    if n >= 2:
        d = csgraph.dijkstra(p.to_scipy(), indices=0)
        assert np.isfinite(d).all() and d[-1] == p.weights.sum()             # the only way from 0 to n - 1
        assert structure.probe(lp).hop_depth >= n - c


def test_probe_sees_large_hop_depth_on_grids_rings_and_roads_small_on_random_and_power_law():
    n = 1024
    depth = {name: structure.probe(S.make(name, n, seed=1)).hop_depth for name in ("kemp", "grid", "ring", "ba")}
    assert depth["ring"] == n // 2                                       # exact: the double sweep on a cycle
    assert depth["grid"] == 2 * (32 - 1)                                 # the corners of a 32 x 32 grid
    assert depth["kemp"] <= 15 and depth["ba"] <= 10
    walk = structure.probe(roads.load("helsinki-walk"))
    assert walk.hop_depth > 10 * depth["kemp"] and walk.ms < 1000 and "hop depth" in str(walk)
    assert structure.probe(ak.Graph.from_edges(0, [], [], [])).hop_depth == 0


def test_costs_take_the_probe_and_scale_sweep_codes_only(tmp_path, monkeypatch):
    """Only a code whose sweeps grow with the hop depth is scaled by the probe: by the depth its rows recorded, or,
    for rows that recorded none, by the depth of the benchmark's own graph (kemp(n, seed=n), regenerated)."""
    g = S.make("ring", 4096)
    probe = structure.probe(g)
    import apsp_kernels.paths as paths
    rec = (paths.RECORDED / "benchmarks",)
    costs.table.cache_clear()
    fw, sparse = registry.get("tuned_fw"), registry.get("tuned_sparse")
    assert costs.predict(fw, g, rec).ms == costs.predict(fw, g, rec, structure=probe).ms
    assert costs.predict(sparse, g, rec, structure=probe).ms > 100 * costs.predict(sparse, g, rec).ms
    kemp = S.make("kemp", 4096, seed=4096)                                 # the graph the rows were measured on
    assert costs.predict(sparse, kemp, rec, structure=structure.probe(kemp)).ms == costs.predict(sparse, kemp, rec).ms
    no_depth = tmp_path / "old"
    no_depth.mkdir()
    pd.DataFrame([dict(algorithm="tuned_sparse", variant=512, n=4096, m=16384, kernel_ms=10.0,
                       updates_per_s=4096 * 16384 / 1e-2, verified=True)]).to_csv(
        no_depth / "NVIDIA_H100_80GB_HBM3-2026-11-01-tuned.csv", index=False)
    costs.table.cache_clear()
    try:
        p = costs.predict(sparse, g, (no_depth,), structure=probe)
        bench_depth = structure.probe(S.make("kemp", 4096, seed=4096)).hop_depth
        assert p.ms == pytest.approx(10.0 * 8192 / 16384 * probe.hop_depth / bench_depth)
    finally:
        costs.table.cache_clear()
    rows = pd.DataFrame([dict(algorithm="tuned_sparse", variant=512, n=4096, m=16384, kernel_ms=10.0,
                              updates_per_s=4096 * 16384 / 1e-2, verified=True, hop_depth=10)])
    rows.to_csv(tmp_path / "NVIDIA_H100_80GB_HBM3-2026-12-01-suite.csv", index=False)
    costs.table.cache_clear()
    try:
        sparse = registry.get("tuned_sparse")
        plain = costs.predict(sparse, g, (tmp_path,))
        scaled = costs.predict(sparse, g, (tmp_path,), structure=probe)
        assert scaled.ms == pytest.approx(plain.ms * probe.hop_depth / 10) and "hop depth 2048" in str(scaled)
        fw = registry.get("tuned_fw")
        assert costs.predict(fw, g, (tmp_path,), structure=probe) is None          # no rows: nothing invented
    finally:
        costs.table.cache_clear()


def test_the_probe_is_remembered_for_the_graph_object_while_it_lives():
    """auto probes a graph once: the same object again gives the same Structure (not searched again); another graph
    object, even an equal one, is searched; a graph that is gone leaves nothing behind."""
    import gc
    from apsp_kernels.core import structure as S
    from apsp_kernels.core import structure_graphs as SGr
    g = SGr.ring(64, seed=1)
    first = S.probe_once(g)
    assert S.probe_once(g) is first and first.hop_depth >= 31
    other = SGr.ring(64, seed=1)
    assert S.probe_once(other) is not first
    key = id(g)
    assert any(k[0] == key for k in S._REMEMBERED)
    del g
    gc.collect()
    assert not any(k[0] == key for k in S._REMEMBERED)


def test_the_seattle_networks_keep_the_files_numbering_with_its_unnamed_vertices():
    g = datasets.load("south-seattle-car")
    from scipy.sparse.csgraph import connected_components
    named = np.unique(np.concatenate([g.edges()[0], g.edges()[1]]))
    assert named.size == 26261 and g.n - named.size == 3502          # numbers no arc names: isolated, as in the file
    assert np.bincount(connected_components(g.to_scipy(), connection="strong")[1]).max() == 23307
    assert "A/B Street" in roads.BUNDLED["south-seattle-car"].description and "south_seattle" in g.meta["source"]


def test_bremen_is_a_real_road_network_of_one_way_arcs_and_metres():
    g = datasets.load("bremen-dist")
    from scipy.sparse.csgraph import connected_components
    parts = connected_components(g.to_scipy(), connection="strong")[1]
    assert np.bincount(parts).max() == 33151 and (g.weights == 0).sum() == 21
    assert 30 < np.median(g.weights) < 80 and np.quantile(g.weights, 0.99) < 2_000     # street segments, metres
    assert "fast_paths" in g.meta["source"] and g.ids.tolist() == list(range(g.n))


def test_hub_branching_counts_vertices_with_two_parents_among_those_reached():
    import scipy.sparse as sp
    from apsp_kernels.core.graph import Graph

    def graph(edges, n):
        r, c = zip(*edges)
        return Graph.from_scipy(sp.csr_matrix((np.ones(len(r)), (r, c)), shape=(n, n)))
    # hub 0 (3 out-edges) -> 1, 2, 3; 1 and 2 -> 4 (two parents); 3 -> 5 (one); 6 -> 4 unreached from the hub
    g = graph([(0, 1), (0, 2), (0, 3), (1, 4), (2, 4), (3, 5), (6, 4)], 7)
    assert structure.hub_branching(g) == pytest.approx(1 / 5)       # of the 5 reached past the hub, vertex 4
    assert structure.hub_branching(graph([(0, 1)], 2)) == 0.0
    assert structure.hub_branching(graph([(0, 0)], 1)) == 0.0      # fewer than two vertices
    assert structure.hub_branching_once(g) == structure.hub_branching(g)
