"""``method="auto"`` sees the degree distribution and costs almost nothing, on the CPU: from a graph's statistics
(:class:`costs.Shape`) or the graph itself, against the recorded H100 rows, which code is picked, and that the
hop-depth probe runs only where it can change the pick.

The hub graph's times (one vertex joined both ways to all others, Kemp's random layer beside it), end to end on
the H100: n = 4,096, tuned_sparse 89 ms, tuned_fw 17; n = 16,384, tuned_sparse 1,435 ms, tuned_frontier 264."""
import numpy as np
import pytest

from apsp_kernels import api, costs, paths
from apsp_kernels.algorithms import registry
from apsp_kernels.core import structure
from apsp_kernels.core.structure_graphs import hub
from apsp_kernels.io import suite_graphs as SG

REC = (paths.RECORDED / "benchmarks",)
H100 = dict(gpu=True, free_bytes=80e9, benchmarks=REC)


@pytest.fixture(autouse=True)
def recorded_rows():
    if not any(REC[0].glob("*-costs.csv")):
        pytest.skip("no recorded benchmark rows")
    costs.table.cache_clear()
    yield
    costs.table.cache_clear()


def pick(g, **kw):
    return api.choose(g, **H100, **kw).algorithm.name


def test_the_hub_graph_is_kemps_plus_one_vertex_joined_to_all():
    g = hub(512, seed=3)
    deg = np.diff(g.indptr)
    assert deg[256] == 511 and np.bincount(g.indices, minlength=512)[256] == 511
    assert structure.probe(g).hop_depth == 2
    again = hub(512, seed=3)
    assert (again.indices == g.indices).all() and (again.weights == g.weights).all()
    assert SG.make("hub", 512, seed=3).m == g.m and "hub" in SG.SUITE


# statistics auto reads: n, m, largest out-degree, hop depth (of the suite's graphs at these sizes)
@pytest.mark.parametrize("name, stats, want", [
    # tuned_frontier's block shares the hub's edges: 3.07 ms of kernel (one H200, device-logs/h200-20261130-0925-
    # frontier-heavy; 16.1 ms when one thread walked them) against tuned_fw's 7.7 (the H200 suite files)
    ("hub 4096", costs.Shape(4096, 24549, 4095, 2), {"tuned_frontier"}),
    ("hub 16384", costs.Shape(16384, 98779, 16383, 2), {"tuned_frontier"}),
    ("ba 4096", costs.Shape(4096, 32748, 251, 5), {"tuned_frontier", "tuned_fw"}),
    ("ba 16384", costs.Shape(16384, 131052, 520, 6), {"tuned_sparse", "tuned_frontier"}),
    ("complete 2048", costs.Shape(2048, 2048 * 2047, 2047, 1), {"tuned_fw"}),
    ("kemp 4096", costs.Shape(4096, 16366, 6, 10), {"tuned_frontier"}),
    ("kemp 16384", costs.Shape(16384, 66019, 6, 12), {"tuned_sparse"}),
    ("ring 16384", costs.Shape(16384, 32768, 2, 8192), {"tuned_frontier"}),
])
def test_the_pick_from_statistics(name, stats, want):
    assert pick(stats) in want, name


def test_without_the_out_degree_the_hub_goes_to_the_sweep_code():
    """What auto did before it read the out-degree: the rates alone send the hub graph to tuned_sparse."""
    assert pick(costs.Shape(4096, 24549, None, 2)) == "tuned_sparse"


def test_the_hub_bounds_stay_below_the_recorded_kernel_times():
    """data/auto.yaml's units are the least per-walk times of the recorded rows: each bound is at most the kernel
    time it rests on, and within a factor of it on the hub graphs (where the hub is the whole cost) for
    tuned_sparse, whose warp walks the hub; tuned_frontier's block shares it, and on the hub graph of 4,096 (the
    least per-walk time) its bound is its time."""
    sparse, frontier = registry.get("tuned_sparse"), registry.get("tuned_frontier")
    # kernel ms: tuned_sparse of device-logs/20261127-structure-hubs (one H100); tuned_frontier the medians of
    # device-logs/h200-20261130-0925-frontier-heavy (one H200, its kernel with the heavy-vertex path)
    recorded = {("hub", 4096): (115.4, 3.07), ("hub", 16384): (1641.6, 68.45), ("ba", 4096): (14.0, 8.17),
                ("ba", 16384): (130.2, 196.67)}
    stats = {("hub", 4096): (24549, 4095, 2), ("hub", 16384): (98779, 16383, 2), ("ba", 4096): (32748, 251, 5),
             ("ba", 16384): (131052, 520, 6)}
    unit = costs.model()["hub_unit"]["tuned_frontier"]
    for (name, n), (sparse_ms, frontier_ms) in recorded.items():
        m, d, h = stats[name, n]
        s = costs.predict(sparse, costs.Shape(n, m, d), REC, structure=structure.Structure(h, 1.0, (), 0.0))
        assert s.ms <= sparse_ms * 1.02, (name, n, s)
        if name == "hub":                                 # on Barabasi-Albert the rates decide, not the hubs
            assert s.ms >= 0.7 * sparse_ms and "out-degree" in str(s), (name, n, s)
        bound = frontier.hub_ms(n, d, h, None, unit)
        assert bound <= frontier_ms * 1.02, (name, n, bound)
    assert frontier.hub_ms(4096, 4095, 2, None, unit) >= 0.98 * recorded["hub", 4096][1]


def test_an_even_graph_keeps_its_rate_prediction():
    """On Kemp's graphs (out-degree at most 6) the hub bound is far below the rate's time: nothing changes."""
    g = SG.make("kemp", 4096, seed=4096)
    for name in ("tuned_sparse", "tuned_frontier"):
        p = costs.predict(registry.get(name), g, REC)
        assert "out-degree" not in p.source


@pytest.mark.parametrize("name, n, want", [("hub", 4096, "tuned_frontier"), ("hub", 16384, "tuned_frontier"),
                                           ("complete", 2048, "tuned_fw"), ("kemp", 4096, "tuned_frontier"),
                                           ("helsinki-drive", None, "tuned_frontier")])
def test_no_probe_where_the_density_and_degree_decide(name, n, want, monkeypatch):
    """The sweep code's time without the hop depth is a bound from below; where it already loses, the probe
    (90 ms on the complete graph of 2048) cannot change the pick and is not run.  Where tuned_frontier wins, one
    BFS from the hub (0.3-1.3 ms on these graphs) asks whether the graph is deep (deep_choice), no more."""
    def refuse(*a, **k):
        raise AssertionError("probed")
    hub_bfs = []
    real = structure.hub_depth
    for f in ("probe_once", "probe"):
        monkeypatch.setattr(structure, f, refuse)
    monkeypatch.setattr(structure, "hub_depth", lambda g: hub_bfs.append(1) or real(g))
    g = SG.make(name, n, seed=n or 0)
    c = api.choose(g, **H100)
    assert c.algorithm.name == want
    assert len(hub_bfs) == (1 if want == "tuned_frontier" else 0)
    assert "tuned_sparse" not in c.reason or "at least" in c.reason


@pytest.mark.parametrize("name, n, searched, want", [
    ("ba", 4096, ["hub"], "tuned_frontier"),           # the hub's eccentricity (4) already sinks tuned_sparse
    ("grid", 16384, ["hub"], "tuned_frontier"), ("ring", 16384, ["hub"], "tuned_deep"),
    ("kemp", 16384, ["hub", "probe"], "tuned_sparse"), ("ba", 16384, ["hub", "probe"], "tuned_sparse")])
def test_the_depth_is_searched_only_as_far_as_the_pick_needs(name, n, searched, want, monkeypatch):
    """Where the sweep code could still win unprobed, one BFS from the vertex of most out-edges first (its
    eccentricity, a bound from below on the depth); the probe's 4 BFS only where the sweep code wins even then."""
    calls = []
    for f, tag in (("hub_depth", "hub"), ("probe", "probe")):
        real = getattr(structure, f)
        monkeypatch.setattr(structure, f, lambda g, *a, _real=real, _tag=tag, **k: calls.append(_tag) or _real(g, *a, **k))
    g = SG.make(name, n, seed=n)
    c = api.choose(g, **H100)
    assert calls == searched and c.algorithm.name == want
    api.choose(g, **H100)                                # the same graph object again: nothing searched again
    assert calls == searched


def test_a_sweep_code_sunk_by_the_hubs_depth_is_said_to_be_a_bound():
    c = api.choose(SG.make("ba", 4096, seed=4096), **H100)
    assert "tuned_sparse/512 at least" in c.reason and "out-degree 251" in c.reason


def test_a_warm_choice_costs_under_a_millisecond_or_two():
    """The lookups once the rows are read: no pandas, no pass over the weights but one (has_negative)."""
    import time
    g = SG.make("kemp", 16384, seed=16384)
    api.choose(g, **H100)
    t0 = time.perf_counter()
    for _ in range(20):
        api.choose(g, **H100)
    assert (time.perf_counter() - t0) / 20 < 5e-3          # 0.2-0.5 ms measured on a shared 2-core machine


def test_the_suite_lists_the_hub_graphs_without_a_gpu(capsys):
    """The suite's plan (``--list``, no GPU needed) holds the hub and Barabasi-Albert graphs at both sizes."""
    from apsp_kernels import structure_suite
    assert structure_suite.main(["--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    for name in ("hub", "ba"):
        for n in (4096, 16384):
            assert f"{name} {n}" in listed
    assert listed.count("complete 2048") == 1 and "helsinki-drive (its own n)" in listed
