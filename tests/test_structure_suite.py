"""The structure suite's newer classes (3-D grids, small worlds, many components, a DAG with negative weights, a
dense graph), its plan, the rule that spares a code's end-to-end calls where its kernel alone is past the bound,
and the exact reference of a graph with negative weights. No GPU needed."""
import math

import numpy as np
import pytest
from scipy.sparse import csgraph

from apsp_kernels import structure_suite as S
from apsp_kernels.algorithms.reference import _exact
from apsp_kernels.core import structure_graphs as SGR
from apsp_kernels.core.graph import GraphError
from apsp_kernels.core.limits import INF
from apsp_kernels.core.distances import from_scipy
from apsp_kernels.io import suite_graphs as SG


@pytest.mark.parametrize("n", [1, 2, 7, 64, 65, 200, 1000])
@pytest.mark.parametrize("name", SG.MORE)
def test_every_newer_class_is_seeded_and_has_n_vertices(name, n):
    g, again = SG.make(name, n, seed=3), SG.make(name, n, seed=3)
    assert g == again and g.n == n
    assert g.has_negative == (name == "dag" and g.m > 0 and g.weights.min() < 0)
    assert g.meta["generator"] == name
    if n >= 64:
        assert SG.make(name, n, seed=4) != g


def _both_ways(g):
    a = g.to_scipy()
    return (a != a.T).nnz == 0


@pytest.mark.parametrize("n", [8, 27, 1000, 4096, 5000])
def test_grid3d_joins_each_vertex_to_its_next_neighbour_on_three_axes(n):
    g = SGR.grid3d(n, seed=1)
    side = g.meta["side"]
    assert side ** 3 <= n < (side + 1) ** 3
    i = np.arange(n)
    want = ((i % side < side - 1) & (i + 1 < n)).sum() + (((i // side) % side < side - 1) & (i + side < n)).sum() \
        + (i + side * side < n).sum()
    assert g.m == 2 * want and _both_ways(g)
    assert 1 <= g.weights.min() and g.weights.max() <= 20
    assert csgraph.connected_components(g.to_scipy())[0] == 1


def test_the_small_world_is_a_lattice_with_a_tenth_of_its_edges_moved():
    n = 4096
    g = SGR.small_world(n, seed=2)
    a = g.to_scipy()
    assert _both_ways(g) and a.diagonal().max() == 0
    src, dst, _ = g.edges()
    gap = np.minimum((dst - src) % n, (src - dst) % n)
    lattice = (gap <= 3).mean()
    assert 0.85 < lattice < 0.95                       # 10 % moved (a few land within 3 by chance)
    assert csgraph.connected_components(a)[0] == 1
    assert SG.make("small_world", n, seed=n).m > 5 * n


@pytest.mark.parametrize("n", [64, 100, 4096])
def test_components_are_separate_kemp_graphs_of_64_vertices(n):
    g = SGR.components(n, seed=5)
    src, dst, _ = g.edges()
    assert (src // 64 == dst // 64).all()
    parts = csgraph.connected_components(g.to_scipy(), connection="weak")[1]
    assert len(set(parts)) == math.ceil(n / 64)


@pytest.mark.parametrize("name, size, edges_per_part", [("components-16", 16, None), ("cliques-64", 64, 64 * 63)])
def test_sized_classes_by_name_are_separate_parts_of_that_size(name, size, edges_per_part):
    g = SG.make(name, 1000, seed=3)
    src, dst, _ = g.edges()
    assert (src // size == dst // size).all()
    parts = csgraph.connected_components(g.to_scipy(), connection="weak")[1]
    assert len(set(parts)) == math.ceil(1000 / size)
    if edges_per_part:                                   # complete parts; the last has 1000 % 64 = 40 vertices
        assert g.m == (1000 // size) * edges_per_part + 40 * 39


def test_a_strip_is_the_grid_with_that_many_rows():
    g = SG.make("strip-8", 1000, seed=3)
    assert g.meta["rows"] == 8 and g.meta["cols"] == 125
    assert g.m == 2 * (8 * 124 + 7 * 125)                  # right and down neighbours, both ways
    w = g.edges()[2]
    assert w.min() >= SGR.GRID_WEIGHTS[0] and w.max() <= SGR.GRID_WEIGHTS[1]
    assert SGR.grid(1000, seed=3).meta["rows"] == 31       # the square grid as before


def test_a_corridor_is_a_knn_graph_in_a_long_rectangle():
    """Points of a rectangle of area 1, ``aspect`` times as long as wide, each joined to its 6 nearest by their
    length: the hub BFS's widest level narrower than sqrt(n) (the elimination's narrow levels), unlike the square."""
    import math
    from apsp_kernels.core.structure import hub_depth
    g = SG.make("corridor-64", 4000, seed=4)
    assert g.meta["generator"] == "corridor" and g.meta["aspect"] == 64 and not g.has_negative
    src, dst, w = g.edges()
    assert (w >= 1).all() and np.array_equal(np.sort(src * g.n + dst), np.sort(dst * g.n + src))   # both ways
    assert hub_depth(g).widest < 0.7 * math.sqrt(g.n) < hub_depth(SG.make("knn", 4000, seed=4)).widest
    assert SGR.corridor(500, aspect=1, seed=1).m == SGR.knn(500, seed=1).m     # aspect 1: the square's points scaled
    with pytest.raises(GraphError, match="aspect"):
        SGR.corridor(100, aspect=0.5)


def test_a_delaunay_graph_is_a_planar_triangulation_of_about_six_edges_a_vertex():
    """Every edge both ways, weighed by its length as the kNN graph's; 3 n - 3 - h undirected edges (h on the hull),
    so m / n just under 6: a graph of the denser rules (``elimination_choice.DENSER``), shallower than the kNN graph
    and with wider BFS levels."""
    import math
    from apsp_kernels import elimination_choice as E
    from apsp_kernels.core.structure import hub_depth, probe
    g, knn = SG.make("delaunay", 4000, seed=4), SG.make("knn", 4000, seed=4)
    assert g.meta["generator"] == "delaunay" and not g.has_negative and not SG.known("delaunay-16")
    src, dst, w = g.edges()
    assert (w >= 1).all() and np.array_equal(np.sort(src * g.n + dst), np.sort(dst * g.n + src))   # both ways
    hull = 3 * g.n - 3 - g.m // 2                     # Euler's formula for a triangulation: h = 3 n - 3 - edges
    assert 3 <= hull < 100 and E.denser(g) and 5.9 < g.m / g.n < 6
    assert csgraph.connected_components(g.to_scipy(), connection="weak")[0] == 1
    assert probe(g).hop_depth < 0.7 * math.sqrt(g.n) < probe(knn).hop_depth
    assert hub_depth(g).widest > 1.5 * hub_depth(knn).widest                  # about 4 sqrt(n) against 2
    with pytest.raises(GraphError, match="n >= 3"):
        SGR.delaunay(2)


def test_grid8_is_the_grid_with_its_diagonals():
    """Each vertex joined to its 8 neighbours both ways: 2 (4 rc - 3 r - 3 c + 2) edges on r x c, hop depth
    max(r, c) - 1; ``grid8-R`` a strip of R rows, deeper by n / R."""
    from apsp_kernels import elimination_choice as E
    from apsp_kernels.core.structure import probe
    g = SG.make("grid8", 40 * 40, seed=1)
    assert g.meta["rows"] == 40 and g.m == 2 * (4 * 1600 - 3 * 40 - 3 * 40 + 2) and E.denser(g)
    src, dst, w = g.edges()
    assert ((1 <= w) & (w <= 20)).all() and np.array_equal(np.sort(src * g.n + dst), np.sort(dst * g.n + src))
    r, c = divmod(src, 40)
    r2, c2 = divmod(dst, 40)
    assert (np.maximum(abs(r - r2), abs(c - c2)) == 1).all()                 # king's moves only
    assert probe(g).hop_depth == 39
    strip = SG.make("grid8-10", 4000, seed=1)
    assert strip.meta["rows"] == 10 and probe(strip).hop_depth == 399
    partial = SGR.grid8(1000, rows=31, seed=2)                                  # the last row partial
    assert partial.n == 1000 and (partial.edges()[1] < 1000).all()


def test_knn_islands_is_a_knn_graph_and_paths_apart():
    g = SG.make("knn_islands", 1000, seed=2)
    parts = csgraph.connected_components(g.to_scipy(), connection="weak")[1]
    sizes = np.bincount(parts)
    assert sizes.max() == 800 and sorted(sizes)[:-1] == [8] * 25 and not g.has_negative
    src, dst, _ = g.edges()
    tail = src >= 800
    assert (np.abs(src[tail] - dst[tail]) == 1).all() and (dst[tail] >= 800).all()
    assert g.m == SG.make("knn", 800, seed=2).m + 2 * 25 * 7


def test_kemp_star_puts_the_vertex_of_most_out_edges_outside_the_bulk():
    g = SG.make("kemp_star", 1000, seed=3)
    hub = int(np.argmax(np.diff(g.indptr)))
    parts = csgraph.connected_components(g.to_scipy(), connection="weak")[1]
    assert hub == 999 and np.diff(g.indptr)[hub] == SGR.STAR_LEAVES and (parts == parts[hub]).sum() == 201
    with pytest.raises(GraphError, match="star of 200"):
        SGR.kemp_star(100)


@pytest.mark.parametrize("bad", ["components-0", "cliques", "grid-8", "foo"])
def test_an_unknown_graph_name_is_one_line_before_any_gpu(bad, capsys):
    assert not SG.known(bad)
    with pytest.raises(KeyError, match="unknown structure-suite graph"):
        SG.make(bad, 64)
    with pytest.raises(SystemExit):
        S.main(["--graphs", "kemp", bad, "--list"])
    assert f"unknown graph '{bad}'" in capsys.readouterr().err


def test_without_pymetis_the_suite_refuses_before_any_gpu_unless_told(monkeypatch, capsys):
    """Without METIS the elimination orders by BFS levels and auto never picks it: rows no rule speaks for.  The
    suite says so in one line before it looks for a GPU; --without-metis measures anyway."""
    from apsp_kernels import elimination_choice
    monkeypatch.setattr(elimination_choice, "measured_ordering", lambda: False)
    with pytest.raises(SystemExit):
        S.main(["--graphs", "kemp", "--sizes", "64"])
    assert "pymetis is not installed here" in capsys.readouterr().err

    def gpu():
        raise RuntimeError("past the check: looking for a GPU")
    monkeypatch.setattr(S.gpu_device, "require_gpu", gpu)
    with pytest.raises(RuntimeError, match="past the check"):
        S.main(["--graphs", "kemp", "--sizes", "64", "--without-metis"])
    monkeypatch.setattr(elimination_choice, "measured_ordering", lambda: True)
    assert elimination_choice.unmeasured_ordering() is None
    with pytest.raises(RuntimeError, match="past the check"):
        S.main(["--graphs", "kemp", "--sizes", "64"])


def test_a_graph_named_with_its_size():
    assert SG.spec("grid8-40:12000") == ("grid8-40", 12000) and SG.spec("helsinki-walk:0") == ("helsinki-walk", 0)
    for bad in ("grid", "grid:", ":64", "grid:6k"):
        with pytest.raises(ValueError, match="a graph is name:n"):
            SG.spec(bad)


@pytest.mark.parametrize("n", [2, 50, 2000])
def test_the_dag_has_negative_edges_no_cycle_and_the_reference_is_scipys_johnson(n):
    g = SGR.dag(n, seed=6)
    assert csgraph.connected_components(g.to_scipy(), connection="strong")[0] == n          # no cycle
    if n > 2:
        assert g.has_negative and -100 <= g.weights.min() and g.weights.max() <= 1000
    want = from_scipy(csgraph.johnson(g.to_scipy().astype(np.float64), directed=True))
    got = _exact(g)
    assert got.dtype == np.int32 and np.array_equal(got, want)
    assert (got == INF).any()


def test_the_dense_graph_has_about_a_quarter_of_all_pairs():
    g = SGR.dense(400, seed=7)
    assert abs(g.m / (400 * 399) - 0.25) < 0.02 and not g.has_negative
    assert csgraph.connected_components(g.to_scipy(), connection="strong")[0] == 1


def test_the_plan_measures_every_class_at_each_size_and_the_dense_ones_once():
    got = S.plan([4096, 16384], list(SG.CLASSES + SG.ROADS))
    assert ("complete", 2048) in got and ("dense", 4096) in got
    assert not any(name in SG.CAPPED and n == 16384 for name, n in got)
    for name in SG.CLASSES:
        if name not in SG.CAPPED:
            assert (name, 4096) in got and (name, 16384) in got
    assert [n for name, n in got if name in SG.ROADS] == [None, None]
    assert len(got) == len(set(got))
    assert S.plan([16384], ["complete", "dense", "dag"]) == [("dag", 16384)]


def test_a_code_whose_kernel_alone_is_past_the_bound_is_not_timed_end_to_end():
    """The fastest kernel first; a code is spared only where its kernel is past 1.25x + 2 ms of the fastest
    end-to-end time in every mode, never where one mode could still hold it within the bound."""
    e2e = {"a": dict(e2e_ms=100.0, e2e_int32_ms=60.0, e2e_device_ms=20.0),
           "b": dict(e2e_ms=90.0, e2e_int32_ms=70.0, e2e_device_ms=50.0),
           "c": dict(e2e_ms=400.0, e2e_int32_ms=400.0, e2e_device_ms=400.0)}
    ran = []

    def run(name):
        ran.append(name)
        return e2e[name], True
    timed = [dict(algorithm="c", kernel_ms=110.0), dict(algorithm="a", kernel_ms=10.0),
             dict(algorithm="b", kernel_ms=40.0), dict(algorithm="d", kernel_ms=200.0)]
    rows = list(S.end_to_end_rows(timed, run))
    # c's kernel (110) is within 1.25 x 90 + 2 = 114.5 of the float64 mode's fastest: timed; d's 200 is past all
    assert ran == ["a", "b", "c"]
    assert [r["algorithm"] for r in rows] == ["a", "b", "c", "d"]
    d = rows[-1]
    assert "e2e_ms" not in d and "not timed" in d["error"] and "200.0 ms" in d["error"]


def test_a_result_that_fails_does_not_set_the_fastest_time():
    timed = [dict(algorithm="a", kernel_ms=1.0), dict(algorithm="b", kernel_ms=50.0)]
    rows = list(S.end_to_end_rows(timed, lambda name: ({"e2e_ms": 2.0}, name != "a")))
    assert rows[0]["verified"] is False and rows[1].get("e2e_ms") == 2.0          # b still timed


def test_networkit_is_not_run_on_negative_weights_and_scipy_takes_johnson():
    g = SGR.dag(300, seed=8)
    assert "negative weights" in S._library("networkit", g)
    got = S._library("scipy", g)()
    assert np.array_equal(from_scipy(got), _exact(g))


@pytest.mark.parametrize("name", ["dag", "kemp", "grid"])
def test_one_graphs_rows_without_a_gpu(name, monkeypatch):
    """graph_rows end to end with the GPU parts stood in for: the negative-weight graph's codes are those that
    take negative weights, its CPU row is Johnson's; the elimination runs only where the separators are small;
    the CPU rows are real and verified."""
    from apsp_kernels import gpu_device
    from apsp_kernels.algorithms import registry
    from apsp_kernels.measure import harness
    monkeypatch.setattr(gpu_device, "free_bytes", lambda: (1e12, 1e12))
    kernel = {a.name: 1.0 + i for i, a in enumerate(registry.ALGORITHMS.values())}
    monkeypatch.setattr(harness, "measure", lambda a, g, **kw: [dict(kernel_ms=kernel[a.name], verified=True)])
    monkeypatch.setattr(S, "_end_to_end", lambda g, ref, repeats, **m: (
        {c: 10.0 * kernel.get(m.get("method"), 1.0) for c, _ in S.MODES}, True))
    g = SG.make(name, 300, seed=300)
    elim, deep = (registry.by_role(r) for r in ("auto_small_separators", "auto_deep_graphs"))
    rows = S.graph_rows(name, g, 1, ["networkit"], 5.0, log=lambda *a: None)    # the rules' codes with no --extra
    by = {r["algorithm"]: r for r in rows}
    gpu = [r for r in rows if r.get("kind") == "gpu" and r["verified"]]
    assert all(registry.get(r["algorithm"]).negative_weights for r in gpu) or not g.has_negative
    cpu = "int64_johnson" if name == "dag" else "dijkstra_cpu_parallel"
    assert by[cpu]["verified"] is True and by[cpu]["kind"] == "cpu"
    if name == "dag":
        assert "negative weights" in by["networkit"]["error"] and deep.name not in by
    small = name == "grid"
    assert by[elim.name]["verified"] is small and ("not small" in by[elim.name]["error"]) is not small
    assert by["auto"]["verified"] is True and by["auto"]["picked"] and by["auto"]["picked_device"]
    def no_cpu_work(*a):
        raise AssertionError("CPU rows made where they are not timed")
    monkeypatch.setattr(S, "_warm_cpu", no_cpu_work)
    monkeypatch.setattr(S, "_library", no_cpu_work)
    only = S.graph_rows(name, g, 1, ["networkit"], 5.0, log=lambda *a: None, codes_only=[deep.name])
    assert [r["algorithm"] for r in only] == ([] if name == "dag" else [deep.name])       # no CPU rows, no auto row
    alone = S.graph_rows(name, g, 1, ["networkit"], 5.0, log=lambda *a: None, auto_only=True)
    assert [r["algorithm"] for r in alone] == ["auto"]


def test_appending_a_graph_measured_again_replaces_its_rows(tmp_path, monkeypatch):
    from apsp_kernels import gpu_device
    from apsp_kernels.measure import provenance
    import pandas as pd
    monkeypatch.setattr(gpu_device, "require_gpu", lambda: None)
    monkeypatch.setattr(provenance, "gpu_info", lambda: {"gpu": "GPU X"})
    monkeypatch.setattr(provenance, "collect", lambda *a, **k: {})
    calls = []
    monkeypatch.setattr(S, "graph_rows", lambda name, g, *a, **k: calls.append(name) or [
        dict(graph=name, n=g.n, algorithm="x", kind="gpu", verified=True, kernel_ms=float(len(calls)), e2e_ms=1.0)])
    monkeypatch.setattr(S, "summary", lambda df: df)
    S.main(["--sizes", "64", "--graphs", "ring", "path", "--out", str(tmp_path)])
    S.main(["--sizes", "64", "--graphs", "path", "--out", str(tmp_path), "--append"])
    (f,) = tmp_path.glob("GPU_X-*-structure.csv")
    df = pd.read_csv(f)
    assert df.graph.tolist() == ["ring", "path"] and df.kernel_ms.tolist() == [1.0, 3.0]


def test_appending_autos_rows_alone_keeps_the_graphs_other_rows(tmp_path, monkeypatch):
    """--auto-only --append (auto measured again after a change of its rules) replaces auto's row of each graph it
    measures and keeps every code's and CPU row beside it."""
    from apsp_kernels import gpu_device
    from apsp_kernels.measure import provenance
    import pandas as pd
    monkeypatch.setattr(gpu_device, "require_gpu", lambda: None)
    monkeypatch.setattr(provenance, "gpu_info", lambda: {"gpu": "GPU X"})
    monkeypatch.setattr(provenance, "collect", lambda *a, **k: {})
    monkeypatch.setattr(S, "summary", lambda df: df)
    monkeypatch.setattr(S, "graph_rows", lambda name, g, *a, auto_only=False, **k: (
        [dict(graph=name, n=g.n, algorithm="auto", kind="auto", picked="new" if auto_only else "old")]
        + ([] if auto_only else [dict(graph=name, n=g.n, algorithm="x", kind="gpu", picked="")])))
    S.main(["--sizes", "64", "--graphs", "ring", "path", "--out", str(tmp_path)])
    S.main(["--sizes", "64", "--graphs", "path", "--out", str(tmp_path), "--append", "--auto-only"])
    (f,) = tmp_path.glob("GPU_X-*-structure.csv")
    df = pd.read_csv(f).fillna("")
    assert sorted(map(tuple, df[["graph", "algorithm", "picked"]].values.tolist())) == [
        ("path", "auto", "new"), ("path", "x", ""), ("ring", "auto", "old"), ("ring", "x", "")]


def test_appending_some_codes_rows_keeps_the_graphs_other_rows(tmp_path, monkeypatch):
    """--codes-only C --append replaces the rows of the codes named on each graph measured and keeps the rest."""
    from apsp_kernels import gpu_device
    from apsp_kernels.measure import provenance
    import pandas as pd
    monkeypatch.setattr(gpu_device, "require_gpu", lambda: None)
    monkeypatch.setattr(provenance, "gpu_info", lambda: {"gpu": "GPU X"})
    monkeypatch.setattr(provenance, "collect", lambda *a, **k: {})
    monkeypatch.setattr(S, "summary", lambda df: df)
    monkeypatch.setattr(S, "graph_rows", lambda name, g, *a, codes_only=(), **k: (
        [dict(graph=name, n=g.n, algorithm=c, kind="gpu", e2e_ms=2.0) for c in codes_only] or
        [dict(graph=name, n=g.n, algorithm=c, kind="gpu", e2e_ms=1.0) for c in ("tuned_deep", "tuned_fw")]))
    S.main(["--sizes", "64", "--graphs", "ring", "path", "--out", str(tmp_path)])
    S.main(["--sizes", "64", "--graphs", "path", "--out", str(tmp_path), "--append", "--codes-only", "tuned_deep"])
    (f,) = tmp_path.glob("GPU_X-*-structure.csv")
    got = sorted(map(tuple, pd.read_csv(f)[["graph", "algorithm", "e2e_ms"]].values.tolist()))
    assert got == [("path", "tuned_deep", 2.0), ("path", "tuned_fw", 1.0), ("ring", "tuned_deep", 1.0),
                   ("ring", "tuned_fw", 1.0)]
    with pytest.raises(SystemExit):
        S.main(["--list", "--codes-only", "scipy"])                  # a CPU code: said at once


def test_the_cpu_code_is_warmed_once_a_process_before_its_first_timed_call(monkeypatch):
    from apsp_kernels import api
    seen = []
    monkeypatch.setattr(S, "_WARM", set())
    monkeypatch.setattr(api, "shortest_paths", lambda g, method=None, **k: seen.append((g.n, g.has_negative, method)))
    for name in ("D", "D", "J", "D", "J"):
        S._warm_cpu(name)
    assert seen == [(64, False, "D"), (64, True, "J")]


def test_first_calls_measured_again_are_read_with_their_rounds_and_commit(tmp_path):
    """``load_first_calls``: every ``*-auto-first-call.csv`` summary, the newest file's row of a graph, the rounds the
    script ran (its ``--rounds`` up to n = 4096, 3 above) and the commit of its provenance."""
    import json
    import pandas as pd
    from apsp_kernels.study.seeds.tuned import suite as SU
    assert SU.load_first_calls(tmp_path).empty
    for day, ms in (("2026-01-01", 50.0), ("2026-01-02", 40.0)):
        pd.DataFrame([dict(graph="path", n=16384, auto_first_ms=ms, auto_warm_ms=30.0),
                      dict(graph="ring", n=4096, auto_first_ms=ms, auto_warm_ms=9.0)]).to_csv(
            tmp_path / f"GPU-{day}-auto-first-call.csv", index=False)
        (tmp_path / f"GPU-{day}-auto-first-call.provenance.json").write_text(json.dumps(
            dict(timestamp=f"{day}T00:00:00+00:00", git_commit="c0ffee" + day[-2:], parameters=dict(rounds=4))))
    t = SU.load_first_calls(tmp_path).set_index("graph")
    assert t.loc["path", "auto_first_ms"] == 40.0 and t.loc["path", "rounds"] == 3 and t.loc["ring", "rounds"] == 4
    assert t.loc["path", "commit"] == "c0ffee02"


def test_the_reports_table_and_finding_name_where_autos_call_was_past_the_bound(tmp_path):
    import pandas as pd
    from apsp_kernels.study.seeds.tuned import suite as SU
    gpu = lambda g, code, ms: dict(graph=g, n=4096, m=1, hop_depth=1, algorithm=code, kind="gpu", verified=True,
                                   kernel_ms=ms / 2, e2e_ms=ms, e2e_int32_ms=ms, e2e_device_ms=ms)
    rows = pd.DataFrame([gpu("ring", "x", 10.0), gpu("ring", "y", 20.0), gpu("grid", "x", 10.0),
                         dict(graph="ring", n=4096, m=1, hop_depth=1, algorithm="dijkstra_cpu_parallel", kind="cpu",
                              verified=True, kernel_ms=500.0, e2e_ms=500.0, threads=16),
                         dict(graph="grid", n=4096, m=1, hop_depth=1, algorithm="dijkstra_cpu_parallel", kind="cpu",
                              verified=True, kernel_ms=300.0, e2e_ms=300.0, threads=16)])
    auto = pd.DataFrame([dict(graph="ring", n=4096, picked="x", verified=True, e2e_ms=10.0, e2e_int32_ms=15.0,
                              e2e_device_ms=10.0, e2e_first_ms=14.6),
                         dict(graph="grid", n=4096, picked="x", verified=True, e2e_ms=10.0, e2e_int32_ms=10.0,
                              e2e_device_ms=14.6, e2e_first_ms=np.nan)])
    assert SU.past_bound(auto.iloc[0], rows[rows.graph == "ring"]) == [                      # 15 > 1.25 x 10 + 2
        ("int32", 15.0, "x", 10.0), ("first call", 14.6, "x", 10.0)]
    assert SU.past_bound(auto.iloc[1], rows[rows.graph == "grid"]) == [("on the device", 14.6, "x", 10.0)]
    t = SU.table(rows, auto)
    assert t.set_index("graph")[SU.PAST].to_dict() == {
        "grid": "on the device: 14.6 ms against x's 10.0",
        "ring": "int32: 15.0 ms against x's 10.0, the code auto ran; first call: 14.6 ms against x's 10.0, the code "
                "auto ran"}                          # the grid's row names no device pick: not said
    assert t.set_index("graph")["auto first call (ms)"].to_dict()["ring"] == 14.6
    f = SU.finding(rows, auto)
    assert "on 0 of 2 graphs" in f and "from 30x" in f
    assert "ring 4,096 (int32 15.0 ms against x's 10.0, first call 14.6 ms against x's 10.0)" in f
    assert "Measured again" not in f
    # interleaved rounds after the run (load_scatter's rows) on a missed graph and mode: said apart, with their commit
    call = lambda code, r, ms: dict(graph="grid", n=4096, code=code, mode="e2e_device_ms", round=r, ms=ms,
                                    picked="x" if code == "auto" else "", commit="abc1234ff")
    after = pd.DataFrame([call("auto", 0, 11.0), call("auto", 1, 12.0), call("x", 0, 10.0), call("x", 1, 10.0),
                          call("y", 0, 30.0), call("y", 1, 30.0)])
    rows.attrs["commits"] = ["1111111aa", "2222222bb"]
    f = SU.finding(rows, auto, after=after)
    assert "grid 4,096 (on the device 14.6 ms against x's 10.0)" in f
    assert ("Measured again after the run, post hoc (interleaved rounds, the scatter table; under the commit named, the "
            "run's own 1111111 to 2222222): grid 4,096 on the device 11.5 ms against x's 10.0, within (2 rounds, "
            "commit abc1234).") in f
    # a first call measured again in rounds (load_first_calls' rows): said for the graph whose first call missed
    firsts = pd.DataFrame([dict(graph="ring", n=4096, auto_first_ms=11.2, auto_warm_ms=10.4, rounds=5, commit="abc1234ff"),
                           dict(graph="grid", n=4096, auto_first_ms=99.0, auto_warm_ms=9.0, rounds=5, commit="abc1234ff")])
    f = SU.finding(rows, auto, after=after, first_calls=firsts)
    assert ("Its first call measured again after the run, post hoc (`scripts/auto_first_call.py`: medians of rounds in "
            "one process, auto's first call on a new graph object beside its own warm call): ring 4,096 first call "
            "11.2 ms, its own warm call 10.4 (5 rounds, commit abc1234).") in f
    assert "99.0" not in f                                  # the grid's first call was not past the bound
    assert "Its first call" not in SU.finding(rows, auto, first_calls=firsts[firsts.graph == "grid"])
    (tmp_path / "GPU_Z-2026-01-02-structure.csv").write_text("graph\n")
    (tmp_path / "GPU_Y-2026-01-01-structure.csv").write_text("graph\n")
    assert SU.device(tmp_path) == "GPU Z"
    import matplotlib
    matplotlib.use("Agg")
    assert len(SU.figure(rows, auto, on="GPU Z").axes) == 1


def test_every_end_to_end_time_is_of_a_call_after_a_warm_one_in_its_mode(monkeypatch):
    """At every n and for the named codes as for auto: a first call in a mode (buffers of that size made, kernels
    loaded) took up to 1.9x a warm one at 16,384 vertices, so no timed call is a first one."""
    from apsp_kernels import api
    calls = []
    class Result(np.ndarray):
        def get(self):
            return self
    monkeypatch.setattr(api, "shortest_paths", lambda g, **kw: calls.append(tuple(sorted(kw))) or Result((1, 1)))
    monkeypatch.setattr(S, "_checksum", lambda d: 0)
    times, ok = S._end_to_end(SG.make("ring", 5000, seed=1), 0, 1, method="x")
    assert ok and set(times) == {c for c, _ in S.MODES}
    assert [c for c in calls] == [c for c in calls[::2] for _ in (0, 1)]      # each mode's call twice in a row
    assert len(calls) == 2 * len(S.MODES)


def test_a_collapsed_wide_table_is_named_by_its_captions_first_sentence():
    nbformat = pytest.importorskip("nbformat", reason="the report tools (nbformat) are not installed here")
    from apsp_kernels.study.report.report_layout import collapse_wide_tables
    row = "<tr>" + "<th>c</th>" * 12 + "</tr>"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=[
        nbformat.v4.new_output("display_data", data={"text/html": f"<table><caption>Warm calls. More.</caption>{row}</table>"}),
        nbformat.v4.new_output("display_data", data={"text/html": f"<table>{row}</table>"}),
        nbformat.v4.new_output("display_data", data={"text/html": "<table><tr><th>a</th></tr></table>"})])])
    outs = [o["data"]["text/html"] for o in collapse_wide_tables(nb).cells[0].outputs]
    assert outs[0].startswith("<details") and "<summary>Warm calls: 12 columns" in outs[0]
    assert "<summary>The full table: 12 columns" in outs[1] and not outs[2].startswith("<details")


def test_a_miss_says_where_autos_rules_here_now_pick_the_fastest_code(monkeypatch):
    """The suite's rows keep the pick of the rules that measured them; where today's rules pick, for a missed mode's
    result, the code that was the fastest there, the finding says so (and only then)."""
    import pandas as pd
    from apsp_kernels.study.seeds.tuned import suite as SU
    base = dict(graph="lollipop", n=16384, m=48768, hop_depth=16256, kind="gpu", verified=True)
    rows = pd.DataFrame([dict(base, algorithm="tuned_deep", kernel_ms=40.0, e2e_ms=170.0, e2e_int32_ms=120.0,
                              e2e_device_ms=65.0),
                         dict(base, algorithm="tuned_elimination", kernel_ms=3.0, e2e_ms=160.0, e2e_int32_ms=100.0,
                              e2e_device_ms=44.0)])
    auto = pd.DataFrame([dict(graph="lollipop", n=16384, picked="tuned_deep", verified=True, e2e_ms=170.0,
                              e2e_int32_ms=120.0, e2e_device_ms=66.0, e2e_first_ms=175.0)])
    said = SU._misses(rows, auto, "lollipop", 16384)              # 66 > 1.25 x 44 + 2: past on the device
    assert said.startswith("lollipop 16,384 (on the device 66.0 ms against tuned_elimination's 44.0")
    assert said.endswith("; auto's rules here now pick tuned_elimination on the device)")   # the per-graph crossing
    monkeypatch.setattr(SU, "_pick_now", lambda g, n, res: "tuned_deep")
    assert "now pick" not in SU._misses(rows, auto, "lollipop", 16384)


def test_a_code_bound_past_the_budget_by_a_smaller_size_is_not_run(monkeypatch):
    """--skip-past-s: a code's verified kernel at the largest smaller n of the class, times the square of the sizes'
    ratio, is a lower bound; past the budget the code is not run and its row says why.  Without a row there, or
    under the budget, it runs."""
    import pandas as pd
    from apsp_kernels import gpu_device
    from apsp_kernels.measure import harness
    earlier = pd.DataFrame([dict(graph="ring", n=n, algorithm=code, verified=ok, kernel_ms=ms)
                            for n, code, ok, ms in [(100, "tuned_fw", True, 900.0), (150, "tuned_fw", True, 2000.0),
                                                    (150, "tuned_deep", True, 10.0), (150, "tuned_sparse", False, 9e9),
                                                    (300, "tuned_fw", True, 1.0)]])
    assert S.lower_bound_ms(earlier, "ring", "tuned_fw", 300) == (8000.0, 150, 2000.0)   # 2 s x (300 / 150)^2
    assert S.lower_bound_ms(earlier, "ring", "tuned_sparse", 300) is None                 # unverified: no bound
    assert S.lower_bound_ms(earlier, "path", "tuned_fw", 300) is None
    monkeypatch.setattr(gpu_device, "free_bytes", lambda: (1e12, 1e12))
    ran = []
    monkeypatch.setattr(harness, "measure",
                        lambda a, g, **kw: ran.append(a.name) or [dict(kernel_ms=1.0, verified=True)])
    monkeypatch.setattr(S, "_end_to_end", lambda g, ref, repeats, **m: ({c: 10.0 for c, _ in S.MODES}, True))
    g = SG.make("ring", 300, seed=300)
    rows = S.graph_rows("ring", g, 1, [], 5.0, log=lambda *a: None, codes_only=["tuned_fw", "tuned_deep"],
                        skip_past_s=5.0, earlier=earlier)
    by = {r["algorithm"]: r for r in rows}
    assert ran == ["tuned_deep"] and by["tuned_fw"]["verified"] is False
    assert by["tuned_fw"]["error"] == ("not run: at least 8 s (its kernel 2.00 s at n = 150 times (n / 150)^2), "
                                       "past --skip-past-s 5")
    kept = []
    S.graph_rows("ring", g, 1, [], 5.0, log=lambda *a: None, codes_only=["tuned_fw", "tuned_deep"],
                 skip_past_s=5.0, earlier=earlier, keep=lambda so_far: kept.append([r["algorithm"] for r in so_far]))
    assert kept == [["tuned_fw"], ["tuned_fw", "tuned_deep"]]      # each row kept as it is done (a cut call)
    ran.clear()
    S.graph_rows("ring", g, 1, [], 5.0, log=lambda *a: None, codes_only=["tuned_fw"], skip_past_s=10.0, earlier=earlier)
    assert ran == ["tuned_fw"]                                                            # 8 s < 10 s: it runs


def test_the_budget_and_its_earlier_file_go_together(capsys):
    for argv in (["--skip-past-s", "5", "--list"], ["--earlier", "x.csv", "--list"],
                 ["--skip-past-s", "5", "--earlier", "/nonexistent.csv", "--list"]):
        with pytest.raises(SystemExit):
            S.main(argv)
        err = capsys.readouterr().err
        assert "--skip-past-s" in err or "--earlier" in err, err


@pytest.mark.parametrize("block_words", [7, 40, 1 << 20])
def test_a_results_checksum_by_blocks_of_rows_is_the_whole_matrixs(block_words):
    """The suite checks a result block of rows by block (a float64 result of 65,536 vertices converted whole to int32
    took three times its 34 GB): equal to the whole int32 matrix's Fletcher-64, float64 with inf and int32 alike,
    and it can fail (one entry changed)."""
    from apsp_kernels.core.verify import fletcher64
    rng = np.random.default_rng(3)
    d = rng.integers(0, 1000, (13, 13)).astype(np.float64)
    d[rng.random(d.shape) < 0.2] = np.inf
    whole = fletcher64(from_scipy(d))
    assert S._checksum(d, block_words) == whole == S._checksum(from_scipy(d), block_words)
    d[12, 5] += 1
    assert S._checksum(d, block_words) != whole


@pytest.mark.gpu
def test_a_device_results_checksum_by_blocks_is_the_hosts():
    cp = pytest.importorskip("cupy", reason="CuPy is not installed")
    from apsp_kernels import gpu_device
    if not gpu_device.available():
        pytest.skip("no GPU here")
    d = np.arange(30 * 30, dtype=np.float64).reshape(30, 30)
    d[4, 7] = np.inf
    assert S._checksum(cp.asarray(d), 100) == S._checksum(d)


def test_rounds_rotate_the_codes_and_time_every_mode_once_a_round():
    seen = []
    from apsp_kernels.measure.rounds import interleaved
    calls = interleaved(["a", "b", "auto"], 3, lambda name, kw: seen.append((name, tuple(kw))) or 1.0, S.MODES,
                        "rotate")
    firsts = [c["code"] for c in calls if c["position"] == 0]
    assert firsts == ["a", "b", "auto"]                                    # each code first in one round
    assert len(calls) == 3 * 3 * len(S.MODES) and {c["round"] for c in calls} == {0, 1, 2}
    for code in ("a", "b", "auto"):                                        # every place of a round once a code
        assert sorted(c["position"] // len(S.MODES) for c in calls if c["code"] == code and c["mode"] == "e2e_ms") \
            == [0, 1, 2]
    assert [m for _, m in seen[:3]] == [tuple(kw) for _, kw in S.MODES]


def test_rows_timed_in_rounds_take_the_medians_and_keep_their_single_calls():
    rows = [dict(algorithm="a", kind="gpu", verified=True, kernel_ms=5.0, e2e_ms=900.0, e2e_int32_ms=300.0,
                 e2e_device_ms=80.0),
            dict(algorithm="c", kind="gpu", verified=True, kernel_ms=900.0,
                 error="end to end not timed: its kernel alone (900.0 ms) is past ..."),
            dict(algorithm="auto", kind="auto", verified=True, e2e_ms=800.0, e2e_int32_ms=400.0, e2e_device_ms=90.0,
                 e2e_first_ms=950.0)]
    times = {"a": [600.0, 650.0, 700.0], "auto": [610.0, 640.0, 5000.0]}
    calls = [dict(code=code, mode=col, round=r, position=0, ms=ms * (1 if col == "e2e_ms" else 0.5))
             for code, ms_list in times.items() for r, ms in enumerate(ms_list) for col, _ in S.MODES]
    S.in_rounds(rows, calls)
    a, c, auto = rows
    assert a["e2e_ms"] == 650.0 and a["single_e2e_ms"] == 900.0 and a["e2e_rounds"] == 3
    assert auto["e2e_ms"] == 640.0 and auto["e2e_device_ms"] == 320.0 and auto["e2e_first_ms"] == 950.0
    assert "e2e_rounds" not in c and c["error"].endswith("past ...")     # 900 > 1.25 x 650 + 2 in every mode
    c["kernel_ms"] = 500.0                                                  # within 1.25 x 650 + 2 in float64
    S.in_rounds(rows, calls)
    assert c["error"].endswith("within the bound of the fastest of the 3 rounds' medians in some mode: not known")


def test_the_suite_times_large_graphs_in_rounds_when_asked(monkeypatch):
    """--rounds: on a graph past SMALL every code timed end to end and auto are timed again in interleaved rounds,
    each call kept; at SMALL or below, or with one round, the single calls stand."""
    from apsp_kernels import api, gpu_device
    from apsp_kernels.measure import harness
    monkeypatch.setattr(gpu_device, "free_bytes", lambda: (1e12, 1e12))
    monkeypatch.setattr(harness, "measure", lambda a, g, **kw: [dict(kernel_ms=1.0, verified=True)])
    monkeypatch.setattr(S, "_end_to_end", lambda g, ref, repeats, **m: ({c: 10.0 for c, _ in S.MODES}, True))
    monkeypatch.setattr(S, "call_ms", lambda g, name, kw: 7.0)
    monkeypatch.setattr(S, "reference_checksum", lambda g: 0)
    monkeypatch.setattr(S, "matches", lambda d, ref: True)
    monkeypatch.setattr(api, "shortest_paths", lambda g, **kw: None)
    g = SG.make("ring", S.SMALL + 1, seed=1)
    calls = []
    rows = S.graph_rows("ring", g, 1, [], 5.0, log=lambda *a: None, rounds=2, calls=calls)
    timed = [r for r in rows if r.get("e2e_rounds")]
    assert {r["algorithm"] for r in timed} == {c["code"] for c in calls} and "auto" in {c["code"] for c in calls}
    assert all(r["e2e_ms"] == 7.0 and r["single_e2e_ms"] == 10.0 for r in timed)
    assert {c["picked"] for c in calls if c["code"] == "auto"} <= {r["picked"] for r in rows if r["kind"] == "auto"} | {
        r["picked_int32"] for r in rows if r["kind"] == "auto"} | {r["picked_device"] for r in rows if r["kind"] == "auto"}
    small = S.graph_rows("ring", SG.make("ring", 300, seed=1), 1, [], 5.0, log=lambda *a: None, rounds=2, calls=calls)
    assert not any(r.get("e2e_rounds") for r in small)


def test_rounds_go_with_every_code_and_auto(capsys):
    for argv in (["--rounds", "0", "--list"], ["--rounds", "3", "--auto-only", "--list"],
                 ["--rounds", "3", "--codes-only", "tuned_deep", "--list"]):
        with pytest.raises(SystemExit):
            S.main(argv)
        assert "--rounds" in capsys.readouterr().err
