"""When ``method="auto"`` hands a graph to tuned_deep (apsp_kernels/deep_choice.py): the depth test on the graph
classes, its place before the elimination's rule, and auto held to the structure suite's bound (1.25x + 2 ms end to
end, in each of the three modes) on the rows measured after the rule was fixed
(``data/results/solver/*-deep-auto-check.csv``, ``scripts/deep_measure.py --codes ... auto``)."""
import sys
from pathlib import Path

import pandas as pd
import pytest

import recorded_rounds

from apsp_kernels import choice, deep_choice as D, elimination_choice as E, paths
from apsp_kernels.core import structure_graphs
from apsp_kernels.algorithms import registry
from apsp_kernels.core.graph import Graph
from apsp_kernels.io import suite_graphs as SG
from apsp_kernels.study.seeds.tuned.suite import RESULT

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import elimination_measure as EM  # noqa: E402

H200 = dict(gpu=True, free_bytes=140e9)
MODES = ("e2e_ms", "e2e_int32_ms", "e2e_device_ms")


@pytest.mark.parametrize("make, deep", [
    (lambda: SG.make("path", 4096, seed=4096), True), (lambda: SG.make("ring", 16384, seed=16384), True),
    (lambda: SG.make("lollipop", 16384, seed=16384), True),
    (lambda: SG.make("grid", 16384, seed=16384), False), (lambda: Graph.from_scipy(EM.knn(16384)), False),
    (lambda: SG.make("kemp", 4096, seed=4096), False), (lambda: SG.make("helsinki-drive"), False),
    (lambda: SG.make("hub", 4096, seed=4096), False)])
def test_the_depth_test_on_each_class(make, deep):
    g = make()
    assert (D.instead(g, registry.get("tuned_frontier")) is not None) == deep


def test_only_in_tuned_frontiers_place_and_where_it_fits():
    g = SG.make("path", 4096, seed=4096)
    assert D.instead(g, registry.get("tuned_sparse")) is None and D.instead(g, registry.get("tuned_frontier"), fits=lambda code: False) is None
    assert "depth 4095" in D.instead(g, registry.get("tuned_frontier"), result="device")[1]


@pytest.mark.parametrize("name, n, few", [
    ("components", 4096, True), ("components", 16384, True), ("components-16", 4096, True),
    ("components-128", 16384, True), ("cliques-64", 4096, True),
    ("components-256", 4096, True), ("components-256", 16384, True),        # levels of 99-110 vertices
    ("cliques-256", 4096, True),                                            # reach 1/16 exactly
    ("components-512", 4096, True), ("components-1024", 4096, True),        # reach 12 % and 24.7 % (<= 1/4)
    ("components-2048", 4096, False),                                       # reach 49 %
    ("kemp_star", 16384, False),          # the hub BFS reaches 1.2 %, the probe's BFS the bulk of the graph
    ("kemp", 4096, False), ("grid", 4096, False), ("dag", 4096, False), ("small_world", 4096, False)])
def test_the_few_vertices_test_on_each_class(name, n, few):
    """Test 2: the hub BFS and the probe each reaching at most 1/4 of the vertices, in place of any in-core GPU code
    (tuned_frontier, tuned_sparse, tuned_fw), whichever the cost model picked."""
    g = SG.make(name, n, seed=n)
    for code in ("tuned_frontier", "tuned_sparse", "tuned_fw"):
        said = D.instead(g, registry.get(code))
        assert (said is not None and said[0].name == "tuned_deep" and "few vertices" in said[1]) == few, (code, said)


def test_the_few_vertices_test_reads_the_hubs_degree_before_any_bfs(monkeypatch):
    """A hub of at least n / 16 out-edges reaches that many: no BFS where the cost model's pick is not
    tuned_frontier (whose depth test needs it anyway)."""
    from apsp_kernels.core import structure

    def refuse(g):
        raise AssertionError("searched")
    monkeypatch.setattr(structure, "hub_depth", refuse)
    g = SG.make("hub", 4096, seed=4096)
    assert D.instead(g, registry.get("tuned_fw")) is None and D.instead(g, registry.get("tuned_sparse")) is None


def test_a_hub_of_n_over_16_out_edges_fails_the_few_vertices_test_for_every_code(monkeypatch):
    """Dense graphs are tuned_fw's: where the cost model picked tuned_frontier too (its BFS is made anyway)."""
    import apsp_kernels.costs as C
    g = SG.make("components-512", 4096, seed=4096)
    assert D.instead(g, registry.get("tuned_frontier")) is not None
    monkeypatch.setattr(C, "max_out_degree", lambda g: g.n // 16)
    for code in ("tuned_frontier", "tuned_sparse", "tuned_fw"):
        assert D.instead(g, registry.get(code)) is None, code


def test_the_few_vertices_test_leaves_negative_weights_the_cpu_and_the_out_of_core_codes():
    from apsp_kernels.core import generators
    g = SG.make("components", 4096, seed=4096)
    assert D.instead(generators.with_potential(g), registry.get("tuned_fw")) is None     # tuned_deep takes none
    assert D.instead(g, registry.get("dijkstra_cpu_parallel")) is None
    assert D.instead(g, registry.get("tuned_fw_ooc")) is None and D.instead(g, registry.get("tuned_deep")) is None
    assert D.instead(g, registry.get("tuned_fw"), fits=lambda code: False) is None


def test_few_vertices_picks_tuned_deep_for_every_result():
    g = SG.make("components", 16384, seed=16384)
    for result in (None, "host", "device"):
        c = choice.choose(g, result=result, **H200)
        assert c.algorithm.name == "tuned_deep" and "few vertices" in c.reason and "cost model's pick" in c.reason


@pytest.mark.parametrize("name, n, device_code", [
    ("components-1024", 16384, "tuned_deep"),          # 1,007 vertices reached: tuned_deep for every result
    ("components-2048", 16384, "tuned_frontier"),      # 2,005 reached: tuned_frontier with the result on the device
    ("components-3584", 16384, "tuned_frontier"), ("components-2048", 32768, "tuned_frontier"),
    ("components-1024", 4096, "tuned_deep"), ("cliques-256", 4096, "tuned_deep")])
def test_few_vertices_on_the_device_past_1024_reached_is_tuned_frontiers(name, n, device_code):
    g = SG.make(name, n, seed=n)
    for code in ("tuned_sparse", "tuned_fw"):
        for result in (None, "host"):
            assert D.instead(g, registry.get(code), result)[0].name == "tuned_deep"
        to, why = D.instead(g, registry.get(code), "device")
        assert to.name == device_code and why.startswith(f"{device_code} instead of {code}: a source reaches few")
        assert (f"> {D.FRONTIER_REACHED}" in why) == (device_code == "tuned_frontier")
    frontier = D.instead(g, registry.get("tuned_frontier"), "device")    # the cost model's pick already: kept
    assert (frontier is None) == (device_code == "tuned_frontier")
    assert D.instead(g, registry.get("tuned_sparse"), "device", fits=lambda code: code.name != device_code) is None


def test_before_the_elimination_and_for_some_rows_too():
    big = structure_graphs.path(48000, seed=0)
    for result in ("host", "device"):           # the elimination weighed against tuned_deep, not tuned_frontier
        E.crossing.cache_clear()
        said = E.instead(big, registry.get("tuned_deep"), result)
        c = choice.choose(big, result=result, **H200)
        assert c.algorithm.name == ("tuned_elimination" if said else "tuned_deep")
        assert c.reason.startswith("tuned_deep instead of tuned_frontier")
    assert choice.choose(big, result=None, **H200).algorithm.name == "tuned_deep"     # rows: not the elimination
    c = choice.choose(SG.make("ring", 4096, seed=4096), result="host", **H200)
    assert c.algorithm.name == "tuned_deep" and "the cost model's pick: tuned_frontier" in c.reason


def _check_file():
    f = sorted((paths.RECORDED / "solver").glob("*-deep-auto-check.csv"))
    return f[-1] if f else None


# Measured misses of the recorded pick (a strict xfail each): the path of 24,000 with the result on the device, where
# the elimination's rule, then applied first, took it: named, the elimination took 139.8 ms against tuned_deep's
# 81.2 (1.72x; auto's own call, running the elimination, took 96.4: within the bound).  The rules have since changed
# order and the elimination's launch list its cost (tests/test_auto_elimination.py checks today's picks).
PICK_MISSES = {("path", 24000, "e2e_device_ms")}


def _cases():
    f = _check_file()
    if f is None:
        return [pytest.param("none", 0, "e2e_ms", marks=pytest.mark.skip(reason="no recorded deep check"))]
    df = pd.read_csv(f)
    a = df[df.code == "auto"]
    return [(g, int(n), m) for g, n in a[["graph", "n"]].itertuples(index=False) for m in MODES]


def _rows(gname, n):
    df = pd.read_csv(_check_file())
    t = df[(df.graph == gname) & (df.n == n) & (df.verified.astype(str) == "True")].set_index("code")
    return t.drop(index="dijkstra_cpu_parallel", errors="ignore")


@pytest.mark.parametrize("gname, n, mode", _cases())
def test_autos_own_call_is_within_the_bound(gname, n, mode):
    t = _rows(gname, n)
    codes = t.drop(index="auto")
    assert t.loc["auto", mode] <= 1.25 * codes[mode].min() + 2.0, (mode, t[mode].to_dict())


@pytest.mark.parametrize("gname, n, mode", [
    pytest.param(*c, marks=pytest.mark.xfail(strict=True, reason="a measured miss")) if c in PICK_MISSES else c
    for c in _cases()])
def test_the_recorded_pick_is_within_the_bound(gname, n, mode):
    """The pick recorded with each row (the rules as they were then) against the codes timed on it."""
    t = _rows(gname, n)
    pick = t.loc["auto", f"auto_{RESULT[mode]}_pick"]
    codes = t.drop(index="auto")
    assert codes.loc[pick, mode] <= 1.25 * codes[mode].min() + 2.0, (pick, mode, codes[mode].to_dict())


@pytest.mark.parametrize("spec, thin", [("path:4096", True), ("ring:4096", True), ("lollipop:8192", True),
                                        ("lollipop-64:16384", True), ("strip-2:4096", False), ("strip-3:6144", False),
                                        ("strip-4:4096", False), ("grid:4096", False)])
def test_the_hub_bfs_branching_tells_thin_deep_graphs_from_strips(spec, thin):
    """One hop path from the hub to every vertex (the path, the ring, the lollipops: branching 0) against paths of
    equal hops meeting (strips and grids: a half or more of the vertices with two parents)."""
    from apsp_kernels.core.structure import hub_branching
    name, n = spec.rsplit(":", 1)
    b = hub_branching(SG.make(name, int(n), seed=int(n)))
    assert (b <= D.BRANCHING) == thin and (b < 0.01 if thin else b > 0.45), b


def test_the_ladder_is_deep_but_not_thin():
    g = SG.make("strip-2", 4096, seed=4096)                      # depth n/2, as the ring's
    fr = registry.by_role(D.FROM)
    assert D.instead(g, fr, "host") is None
    code, why = D.instead(SG.make("ring", 4096, seed=4096), fr, "host")
    assert code is D.target() and "thin" in why


DEEP_ROWS = ("elimination/NVIDIA_H200-2026-11-30-small-deep-calls.csv",
             "solver/NVIDIA_H200-2026-11-30-host-33k-check-deep.csv")


@pytest.mark.parametrize("gname, n, result, medians", recorded_rounds.medians(*DEEP_ROWS))
def test_auto_within_the_bound_on_the_small_deep_rows(gname, n, result, medians):
    """The path, ring, lollipop and strips of 2-4 rows at 4,096-16,000 vertices (medians of 3-5 interleaved rounds,
    one H200): auto's pick by today's rules within 1.25x + 2 ms of the fastest code measured."""
    recorded_rounds.assert_pick_within(gname, n, result, medians)
