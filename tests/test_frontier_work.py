"""tuned_frontier's work counted on the CPU (apsp_kernels.core.frontier_work): exact against scipy, its rounds and
relaxations counted right, the cap kept; scripts/frontier_work.py's recorded rows read per graph from the last
file."""
import sys

import numpy as np
import pandas as pd
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from scipy.sparse.csgraph import dijkstra

from apsp_kernels.core import frontier_work as FW
from apsp_kernels.core.graph import Graph
from script_runs import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import frontier_work as F  # noqa: E402  (the script)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 40), st.integers(0, 200), st.integers(0, 2**31 - 1))
def test_the_distances_are_scipys(n, m, seed):
    rng = np.random.default_rng(seed)
    g = Graph.from_edges(n, rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(0, 50, m))
    d, rounds, relaxed = FW.frontier(g, 0)
    want = dijkstra(sp.csr_matrix((g.weights, g.indices, g.indptr), shape=(n, n)), indices=0)
    reached = np.isfinite(want)
    assert (d[reached] == want[reached]).all() and (d[~reached] > 2**40).all()
    assert 1 <= rounds <= n + 1 and relaxed <= rounds * g.m


def test_a_path_takes_a_round_a_vertex_and_each_edge_once():
    n = 50
    g = Graph.from_edges(n, np.arange(n - 1), np.arange(1, n), np.ones(n - 1, int))
    _, rounds, relaxed = FW.frontier(g, 0)
    assert (rounds, relaxed) == (n, n - 1)
    assert FW.relaxations_per_edge(g, k=1) == FW.frontier(g, int(FW.sources(g, 1)[0]))[2] / g.m


def test_a_lighter_long_way_relaxes_again():
    # 0 -> 2 directly (weight 10) and 0 -> 1 -> 2 (1 + 1): vertex 2 is lowered twice, its edge relaxed twice
    g = Graph.from_edges(4, [0, 0, 1, 2], [2, 1, 2, 3], [10, 1, 1, 1])
    d, rounds, relaxed = FW.frontier(g, 0)
    assert list(d) == [0, 1, 2, 3] and relaxed == 2 + 1 + 1 + 1 and rounds == 4


def test_the_count_stops_at_its_cap_and_the_mean_is_over_distinct_sources():
    n = 400
    g = Graph.from_edges(n, np.arange(n - 1), np.arange(1, n), np.ones(n - 1, int))
    assert FW.frontier(g, 0, cap=10)[2] == 10
    picked = FW.sources(g)
    assert len(set(picked.tolist())) == FW.SOURCES and (picked == FW.sources(g)).all()
    full = FW.relaxations_per_edge(g)
    assert full == sum(n - 1 - s for s in picked) / FW.SOURCES / g.m
    stopped = FW.relaxations_per_edge(g, enough=full / 4)          # the sum decides early: a lower bound past it
    assert full / 4 <= stopped < full
    assert FW.relaxations_per_edge(g, enough=full * 1.01) == full   # never decided early: the full count
    assert FW.relaxations_per_edge(g, enough=full) >= full


def test_the_recorded_medians_per_graph_the_last_file(tmp_path):
    def rows(elim, front, graph="grid8", extra=()):
        return pd.DataFrame([dict(graph=graph, n=100, code=c, mode="e2e_device_ms", round=r, ms=ms)
                             for r in range(3) for c, ms in (("tuned_elimination", elim), ("tuned_frontier", front),
                                                             *extra)])
    rows(30.0, 20.0).to_csv(tmp_path / "X-2026-01-01-a-check.csv", index=False)
    rows(10.0, 20.0).to_csv(tmp_path / "X-2026-01-02-b-check.csv", index=False)
    rows(1.0, 2.0, graph="ba").to_csv(tmp_path / "X-2026-01-03-c-check.csv", index=False)   # not a separator class
    r = F.recorded("e2e_device_ms", where=tmp_path)
    assert r.to_dict("records") == [dict(graph="grid8", n=100, frontier_ms=20.0, elimination_ms=10.0)]
    assert F.recorded("e2e_ms", where=tmp_path).empty
    assert F.recorded("e2e_device_ms", where=tmp_path, skip=("b",)).elimination_ms.tolist() == [30.0]


def test_choice_cost_times_one_result_a_new_graph_object(tmp_path):
    from script_runs import run_script
    r = run_script(ROOT / "scripts" / "choice_cost.py", "--graphs", "grid8:400", "--reps", "1", "--out", tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    t = pd.read_csv(tmp_path / "choice_cost.csv")
    assert list(t.result) == ["host", "int32", "device"] and (t.choose_ms > 0).all() and t.pick.notna().all()
    assert (tmp_path / "choice_cost.provenance.json").exists()


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 40), st.integers(0, 200), st.integers(0, 2**31 - 1))
def test_the_in_round_count_is_exact_too(n, m, seed):
    rng = np.random.default_rng(seed)
    g = Graph.from_edges(n, rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(0, 50, m))
    d, rounds, relaxed = FW.frontier(g, 0, in_round=True)
    want = dijkstra(sp.csr_matrix((g.weights, g.indices, g.indptr), shape=(n, n)), indices=0)
    reached = np.isfinite(want)
    assert (d[reached] == want[reached]).all() and (d[~reached] > 2**40).all()
    assert rounds <= FW.frontier(g, 0)[1]                 # a value lowered in a round is used in it: no more rounds


def test_in_round_a_later_vertex_uses_a_value_lowered_earlier_in_the_round():
    # round 2 holds 1 and 2 (in that order): 1 lowers 2 from 10 to 2, and 2 then relaxes 2 -> 3 from 2, not 10
    g = Graph.from_edges(4, [0, 0, 1, 2], [1, 2, 2, 3], [1, 10, 1, 1])
    d, rounds, _ = FW.frontier(g, 0, in_round=True)
    assert list(d) == [0, 1, 2, 3] and rounds == 3 and FW.frontier(g, 0)[1] == 4


def test_the_in_round_count_tells_weighted_paths_that_follow_the_hops():
    """kNN corridors (Euclidean weights) fall far below their round count, a king grid (random weights) much less."""
    from apsp_kernels.io import suite_graphs as SG
    corridor, king = SG.make("corridor-12", 4000, seed=1), SG.make("grid8-20", 4000, seed=1)
    c_rounds, c_in = FW.relaxations_per_edge(corridor), FW.relaxations_per_edge(corridor, in_round=True)
    k_rounds, k_in = FW.relaxations_per_edge(king), FW.relaxations_per_edge(king, in_round=True)
    assert c_in < 0.5 * c_rounds and k_in > 2 * c_in and k_in / k_rounds > c_in / c_rounds
