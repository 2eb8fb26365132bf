"""When ``method="auto"`` hands a graph to tuned_elimination (apsp_kernels/elimination_choice.py): the crossing learned
from the recorded rows, the separator test on the graph classes, and auto's picks held to the structure suite's
bound (1.25x + 2 ms end to end) on every recorded crossing row."""
import functools
import math
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import recorded_rounds

from apsp_kernels import choice, elimination_choice as E, paths
from apsp_kernels.algorithms import registry
from apsp_kernels.core.graph import Graph
from apsp_kernels.io import suite_graphs as SG
from apsp_kernels.measure import rounds
from apsp_kernels.structure_suite import within_bound
from apsp_kernels.study.seeds.tuned import elimination as EL

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import elimination_measure as EM  # noqa: E402  (the crossing rows' graph generators)

H200 = dict(gpu=True, free_bytes=140e9)     # the crossing rows' device, whatever this machine has
TOLERANCE, SLACK_MS = 1.25, 2.0             # the structure suite's bound


def _csv(path, rows):
    pd.DataFrame(rows).to_csv(path, index=False)


def _row(n, elim_host, fr_host, elim_dev, fr_dev, ok=True):
    return dict(graph=f"g {n}", n=n, e2e_verified=ok, tuned_elimination_e2e_host_ms=elim_host,
                tuned_frontier_e2e_host_ms=fr_host, tuned_elimination_e2e_device_ms=elim_dev,
                tuned_frontier_e2e_device_ms=fr_dev)


def test_the_crossing_takes_the_worst_graph_of_each_size_and_interpolates_on_log_n(tmp_path):
    _csv(tmp_path / "GPU-2026-01-01-crossing.csv", [
        _row(1000, 30, 10, 5, 10), _row(1010, 12, 10, 8, 10),          # one size (within 2 %): the worse ratio
        _row(4000, 5, 10, 2, 10), _row(4000, 1, 10, 1, 10, ok=False),  # an unverified row is not read
        _row(16000, math.nan, math.nan, 1, 10)])                       # host not measured there
    E.crossing.cache_clear()
    c = E.crossing(tmp_path)
    assert c.sizes == (1000, 4000, 16000) and c.source == "GPU-2026-01-01-crossing.csv"
    assert c.ratios["host"][:2] == (3.0, 0.5) and math.isnan(c.ratios["host"][2])
    assert c.ratios["device"] == (0.8, 0.2, 0.1)
    assert c.ratio(500, "device") is None and c.ratio(990, "device") == 0.8       # 990: within 2 % of 1,000
    assert c.ratio(2010, "device") == pytest.approx(0.8 - 0.6 * math.log(2010 / 1000) / math.log(4000 / 1000))
    assert c.ratio(10 ** 6, "device") == 0.1 and c.ratio(10 ** 6, "host") == 0.5    # beyond: the largest size's
    assert c.ratio(4000, "rows") is None


def test_a_newer_file_replaces_an_older_one(tmp_path):
    _csv(tmp_path / "GPU-2026-01-01-crossing.csv", [_row(1000, 1, 10, 1, 10)])
    _csv(tmp_path / "GPU-2026-02-01-crossing.csv", [_row(1000, 20, 10, 20, 10)])
    E.crossing.cache_clear()
    assert E.crossing(tmp_path).ratio(1000, "host") == 2.0
    E.crossing.cache_clear()
    assert E.crossing(tmp_path / "none") is None


def _deep_row(graph, n, m, elim, deep, ok=True):
    return dict(graph=f"{graph} {n}", n=n, m=m, e2e_verified=ok, tuned_elimination_e2e_host_ms=elim,
                tuned_deep_e2e_host_ms=deep, tuned_elimination_e2e_device_ms=elim, tuned_deep_e2e_device_ms=deep)


def test_on_density_is_the_chord_between_the_graphs_measured_and_the_end_beyond():
    pts = ((1.0, 1.4), (2.0, 1.2), (3.0, 0.8))
    assert E.on_density(pts, 2.5) == pytest.approx(1.0) and E.on_density(pts, 1.5) == pytest.approx(1.3)
    assert E.on_density(pts, 0.5) == 1.4 and E.on_density(pts, 10.0) == 0.8 and E.on_density(pts, 3.0) == 0.8
    assert E.on_density(((2.0, 0.9), (2.0, 1.1), (4.0, 0.5)), 2.0) == 1.1        # one m / n twice: the worse
    assert E.on_density(((1.0, math.nan), (2.0, 0.9)), 1.0) == 0.9               # a ratio not measured: left out
    assert math.isnan(E.on_density((), 1.0))


def test_each_deep_graph_by_its_m_over_n_where_the_rows_have_m(tmp_path):
    """With ``m`` in the rows each graph's ratio is interpolated on m / n at each size (then on log n); without a
    density, or where the rows have no m, the worst graph's as before."""
    _csv(tmp_path / "GPU-2026-01-01-crossing-deep.csv", [
        _deep_row("path", 1000, 1000, 14, 10), _deep_row("lollipop", 1000, 3000, 8, 10),
        _deep_row("path", 4000, 4000, 8, 10), _deep_row("lollipop", 4000, 12000, 4, 10)])
    E.crossing.cache_clear()
    c = E.crossing(tmp_path, E.DEEP)
    assert c.points["device"][0] == ((1.0, 1.4), (3.0, 0.8)) and c.ratios["device"] == (1.4, 0.8)
    assert c.ratio(1000, "device") == 1.4 and c.ratio(1000, "device", 1.0) == 1.4
    assert c.ratio(1000, "device", 2.0) == pytest.approx(1.1) and c.ratio(1000, "device", 3.0) == pytest.approx(0.8)
    assert c.ratio(2000, "device", 3.0) == pytest.approx(0.8 - 0.4 * math.log(2) / math.log(4))
    path, lolli = SG.make("path", 1000, seed=1000), SG.make("lollipop-64", 1000, seed=1000)
    td = registry.get("tuned_deep")
    assert E.instead(path, td, "device", where=tmp_path) is None                 # 1.4x: tuned_deep stays
    code, why = E.instead(lolli, td, "device", where=tmp_path)                    # m / n 5.9: beyond the lollipop
    assert code.name == "tuned_elimination" and "m / n = 5.90" in why and "interpolated" in why
    rows = pd.read_csv(tmp_path / "GPU-2026-01-01-crossing-deep.csv").drop(columns="m")
    rows.to_csv(tmp_path / "GPU-2026-01-01-crossing-deep.csv", index=False)
    E.crossing.cache_clear()
    c = E.crossing(tmp_path, E.DEEP)
    assert not any(c.points["device"]) and c.ratio(1000, "device", 3.0) == 1.4     # no m: the worst graph's
    assert E.instead(lolli, td, "device", where=tmp_path) is None
    E.crossing.cache_clear()


def test_each_result_from_the_newest_file_with_rows_of_it(tmp_path):
    """A file that times one result (the int32 rows, measured apart) replaces the older rows of that result only."""
    _csv(tmp_path / "GPU-2026-01-01-crossing.csv", [_row(16000, 20, 10, 5, 10)])
    _csv(tmp_path / "GPU-2026-02-01-int32-crossing.csv", [dict(graph="g 16000", n=16000, m=64000, e2e_verified=True,
                                                               tuned_elimination_e2e_int32_ms=5.0,
                                                               tuned_frontier_e2e_int32_ms=10.0)])
    E.crossing.cache_clear()
    assert E.crossing(tmp_path).source == "GPU-2026-02-01-int32-crossing.csv"            # the newest, any result
    assert E.crossing(tmp_path, E.FROM, "host").ratio(16000, "host") == 2.0
    assert E.crossing(tmp_path, E.FROM, "device").ratio(16000, "device") == 0.5
    c = E.crossing(tmp_path, E.FROM, "int32")
    assert c.ratio(16000, "int32") == 0.5 and math.isnan(c.ratios["host"][0])
    assert not c.per_graph                       # against tuned_frontier the worst graph's, though the rows have m
    E.crossing.cache_clear()


def test_int32_to_the_host_by_its_own_depth_threshold_and_float64_rows_where_it_has_none(tmp_path, monkeypatch):
    monkeypatch.setitem(E.DEPTH, "host", 50_000)  # each result reads its own threshold (int32's 28,000)
    g = SG.make("grid", 16000, seed=16000)       # sqrt(n) x D = 31,623: past 28,000, not 50,000 (m / n 4)
    fr = registry.get("tuned_frontier")
    _csv(tmp_path / "GPU-2026-01-01-crossing.csv", [_row(16000, 20, 10, 5, 10)])
    E.crossing.cache_clear()
    to, why = E.instead(g, fr, "int32", where=tmp_path)
    assert to is E.target() and "28,000" in why and "in int32" in why
    assert E.instead(g, fr, "host", where=tmp_path) is None
    _csv(tmp_path / "GPU-2026-01-01-crossing.csv", [_row(40000, 20, 10, 5, 10)])    # its rows start past n:
    E.crossing.cache_clear()                                                          # the depth decides still
    assert E.instead(g, fr, "int32", where=tmp_path)[0] is E.target()
    monkeypatch.setattr(E, "DEPTH_FROM", g.n + 1)                                     # ... from DEPTH_FROM on
    assert E.instead(g, fr, "int32", where=tmp_path) is None
    E.crossing.cache_clear()


def test_the_result_kind_of_a_call():
    assert choice.result_kind(True, np.int32) == "device" and choice.result_kind(False, np.int32) == "int32"
    assert choice.result_kind(False, np.float64) == choice.result_kind() == choice.result_kind(False, "f4") == "host"


def test_files_of_one_day_are_ordered_by_their_provenance(tmp_path):
    import json
    for name, ts, ratio in (("b", "2026-01-01T09:00:00+00:00", 20), ("a", "2026-01-01T10:00:00+00:00", 5)):
        _csv(tmp_path / f"GPU-2026-01-01-{name}-crossing.csv", [_row(1000, ratio, 10, ratio, 10)])
        (tmp_path / f"GPU-2026-01-01-{name}-crossing.provenance.json").write_text(json.dumps({"timestamp": ts}))
    E.crossing.cache_clear()
    assert E.crossing(tmp_path).source == "GPU-2026-01-01-a-crossing.csv"          # measured later, named first
    E.crossing.cache_clear()


def test_the_recorded_deep_rows_give_the_lollipop_to_the_elimination_before_the_path():
    """The rule on the rows it was set from: at 16,384 on the device the lollipop (m / n 3.0) and the ring (2.0) go to
    the elimination (0.58x and 0.82x at 16,000 in the interleaved rounds), the path (1.0; 1.23x) stays with
    tuned_deep."""
    E.crossing.cache_clear()
    got = {name: choice.choose(SG.make(name, 16384, seed=16384), result="device", **H200).algorithm.name
           for name in ("path", "ring", "lollipop")}
    assert got == {"path": "tuned_deep", "ring": "tuned_elimination", "lollipop": "tuned_elimination"}


def _grid3d(k):
    return Graph.from_scipy(sp.csr_matrix(nx.to_scipy_sparse_array(nx.grid_graph((k, k, k)), format="csr")))


def _small_world(n):
    return Graph.from_scipy(sp.csr_matrix(nx.to_scipy_sparse_array(nx.watts_strogatz_graph(n, 6, 0.1, seed=0),
                                                                    format="csr")))


def test_against_tuned_deep_its_own_crossing_file(tmp_path):
    """The deep graphs' rows (``*-crossing-deep.csv``, the elimination against tuned_deep) are read apart from
    ``*-crossing.csv`` (against tuned_frontier), and decide where tuned_deep would run."""
    _csv(tmp_path / "GPU-2026-01-01-crossing.csv", [_row(1000, 1, 10, 1, 10)])
    _csv(tmp_path / "GPU-2026-01-02-crossing-deep.csv", [dict(
        graph="path 1000", n=1000, e2e_verified=True, tuned_elimination_e2e_host_ms=20, tuned_deep_e2e_host_ms=10,
        tuned_elimination_e2e_device_ms=5, tuned_deep_e2e_device_ms=10)])
    E.crossing.cache_clear()
    front, deep = E.crossing(tmp_path), E.crossing(tmp_path, E.DEEP)
    assert front.source == "GPU-2026-01-01-crossing.csv" and front.ratio(1000, "host") == 0.1
    assert deep.source == "GPU-2026-01-02-crossing-deep.csv"
    assert deep.ratio(1000, "host") == 2.0 and deep.ratio(1000, "device") == 0.5
    g = SG.make("path", 1000, seed=1000)
    td = registry.get("tuned_deep")
    assert "tuned_elimination instead of tuned_deep" in E.instead(g, td, "device", where=tmp_path)[1]
    assert E.instead(g, td, "host", where=tmp_path) is None
    assert E.instead(g, registry.get("tuned_sparse"), "device", where=tmp_path) is None
    E.crossing.cache_clear()


@pytest.mark.parametrize("make, small", [
    (lambda: Graph.from_scipy(EM.grid(128, 128)), True), (lambda: Graph.from_scipy(EM.knn(16384)), True),
    (lambda: SG.make("path", 16384), True), (lambda: SG.make("ring", 16384), True),
    (lambda: SG.make("lollipop", 16384), True), (lambda: SG.make("helsinki-walk"), True),
    (lambda: SG.make("helsinki-drive"), True), (lambda: SG.make("bremen-dist"), True),
    (lambda: SG.make("knn_islands", 24000, seed=24000), True),        # 80 % in one part, the rest in pieces
    (lambda: SG.make("components", 16384), False), (lambda: SG.make("kemp", 16384), False), (lambda: SG.make("ba", 16384), False),
    (lambda: SG.make("hub", 16384), False), (lambda: _small_world(16384), False), (lambda: _grid3d(32), False),
    (lambda: SG.make("grid3d", 18000, seed=18000), False),           # widest 3.92 sqrt(n), but D 0.56 sqrt(n)
    (lambda: SG.make("south-seattle-car"), True)])                   # widest 3.73, D 1.00
def test_the_separator_test_on_each_class(make, small):
    g = make()
    ok, s = E.separators_small(g)
    assert ok == small, (s.widest / math.sqrt(g.n), s.mean_reach)


def test_a_graph_the_hub_bfs_barely_reaches_is_not_taken_for_one_with_small_separators():
    # a directed star out of vertex 0 into a random graph that cannot reach back: the hub's levels are narrow only
    # because it reaches little
    rng = np.random.default_rng(0)
    n = 4096
    src, dst = rng.integers(1, n, 4 * n), rng.integers(1, n, 4 * n)
    src, dst = np.r_[src, np.zeros(60, np.int64)], np.r_[dst, np.arange(1, 61)]
    g = Graph.from_scipy(sp.csr_matrix((np.ones(src.size), (dst, src)), shape=(n, n)))
    ok, s = E.separators_small(g)
    assert not ok and (s.mean_reach < E.REACH or s.widest > E.WIDEST * math.sqrt(n))


def test_instead_says_no_unless_every_condition_holds():
    E.crossing.cache_clear()
    g = Graph.from_scipy(EM.grid(219, 219))                      # 47,961: past the host crossing
    fr = registry.get("tuned_frontier")
    to, why = E.instead(g, fr, "host")
    assert to.name == "tuned_elimination"
    assert why.startswith("tuned_elimination instead of tuned_frontier") and "probe's hop depth" in why
    to, why = E.instead(g, fr, "device")
    assert to.name == "tuned_elimination" and "crossing.csv" in why
    assert E.instead(g, registry.get("tuned_sparse"), "host") is None   # only where tuned_frontier won
    assert E.instead(g, fr, None) is None                         # rows, not all pairs
    assert E.instead(g, fr, "host", fits=lambda code: False) is None
    assert E.instead(Graph.from_scipy(EM.knn(12000)), fr, "device") is None       # below the rows and not deep
    assert E.instead(Graph.from_scipy(EM.grid(16, 480)), fr, "device")[0] is E.target()   # 7,680: deep
    assert E.instead(Graph.from_scipy(EM.grid(8, 520)), fr, "host")[0] is E.target()      # 4,160: deep, below
    assert E.instead(Graph.from_scipy(EM.grid(8, 480)), fr, "host") is None    # the rows; 3,840: below DEPTH_FROM
    to, why = E.instead(Graph.from_scipy(EM.grid(126, 127)), fr, "device")        # 16,002: the depth on the device
    assert to.name == "tuned_elimination" and f">= {E.DEPTH['device']:,}" in why and "on the device)" in why
    assert E.instead(SG.make("kemp", 48000, seed=1), fr, "host") is None           # large separators


# The float64 rows to the host against tuned_frontier renumbered (medians of 3 interleaved rounds; the crossing
# file's single calls) the host threshold was set from; graphs of fewer than DENSER edges a vertex (the denser
# graphs have their own threshold).
HOST_ROWS = ("NVIDIA_H200-2026-12-01-rederive-1.csv", "NVIDIA_H200-2026-12-01-rederive-2.csv",
             "../solver/NVIDIA_H200-2026-12-01-renumbered-check.csv", "../solver/NVIDIA_H200-2026-12-01-refit-check.csv",
             "NVIDIA_H200-2026-12-01-crossing.csv")
HOST_MISSES = {"south-seattle-car 29763"}   # 29,673 < 62,000: the elimination 0.88x; test 3 takes it (wide levels)


def _host_cases():
    out = []
    for f in HOST_ROWS:
        df = pd.read_csv(E.folder() / f)
        if rounds.are_rounds(df):                            # interleaved rounds: each code's median
            df = rounds.medians(df, "e2e_ms", by=("graph", "n", "m")).reset_index()
            df = df.rename(columns=lambda c: f"{c}_e2e_host_ms" if c.startswith("tuned") else c)
            df["graph"] = df.graph + " " + df.n.astype(str)
        df = df[(df.m < E.DENSER * df.n) & df.tuned_elimination_e2e_host_ms.notna()]
        out += [pytest.param(r.graph, r.tuned_elimination_e2e_host_ms < r.tuned_frontier_e2e_host_ms,
                             marks=[pytest.mark.xfail(strict=True, reason="a known miss of test 1, test 3 takes it")]
                             if r.graph in HOST_MISSES else [], id=f"{f.rsplit('-', 1)[-1]}-{r.graph}")
                for r in df.itertuples()]
    return out


@pytest.mark.parametrize("name, elimination_faster", _host_cases())
def test_the_float64_host_depth_test_on_the_rows_it_was_set_from(name, elimination_faster):
    """Test 1 with a float64 result on the host on graphs of fewer than DENSER edges a vertex: sqrt(n) x the probe's
    hop depth >= DEPTH["host"] (narrowed on strips), set from rows of tuned_frontier renumbered, puts each graph on
    its faster side, but South Seattle (test 3's)."""
    cls, _, n = name.partition(" ")
    g = SG.make(cls) if n == "29763" else _graph(name)
    ok, depth, score = E.deep_enough(g, "host")
    assert ok == elimination_faster, (depth, score, E.depth_threshold(g, "host"))
    assert (E.instead(g, registry.get("tuned_frontier"), "host") is not None) == ok


INT32_ROWS = "NVIDIA_H200-2026-11-29-int32-crossing.csv"


@pytest.mark.parametrize("name, faster", [
    *[(r.graph, "elimination" if r.tuned_elimination_e2e_int32_ms < r.tuned_frontier_e2e_int32_ms else "frontier")
      for r in pd.read_csv(E.folder() / INT32_ROWS).itertuples()],
    ("south-seattle-car", "elimination")])                  # the suite's int32 calls: 427.2 against 509.5 ms
def test_the_int32_host_depth_test_on_the_rows_it_was_set_from(name, faster):
    """Test 1 with an int32 result on the host: its own threshold, set from the int32 rows (medians of 3 interleaved
    rounds) and South Seattle's suite calls, puts each graph on its faster side."""
    cls, _, n = name.partition(" ")
    g = SG.make(cls, int(n), seed=int(n)) if n else SG.make(cls)
    ok, depth, score = E.deep_enough(g, "int32")
    assert ok == (faster == "elimination"), (depth, score)
    assert (E.instead(g, registry.get("tuned_frontier"), "int32") is not None) == ok
    assert E.deep_enough(g, "host")[0] == (score >= E.depth_threshold(g, "host"))     # float64 keeps its own


DEVICE_DEPTH_ROWS = "NVIDIA_H200-2026-11-29-depth-small.csv"


def _device_depth_cases():
    small = pd.read_csv(E.folder() / DEVICE_DEPTH_ROWS)
    # the crossing rows auto reads now (tuned_frontier renumbered: the size crossing moved from 17,100 to 26,100)
    cross = pd.read_csv(E.folder() / E.crossing(None, E.FROM, "device").source).query("n <= 24000")
    return [(r.graph, r.tuned_elimination_e2e_device_ms < r.tuned_frontier_e2e_device_ms)
            for df in (small, cross) for r in df.itertuples()]


@pytest.mark.parametrize("name, elimination_faster", _device_depth_cases())
def test_the_device_test_on_the_rows_it_was_set_from(name, elimination_faster):
    """With the result on the device: the size crossing, or below it from 8,000 vertices the depth (sqrt(n) x D >=
    DEPTH["device"]), set from the small rows (medians of 5 interleaved rounds) and the crossing rows up to 24,000,
    puts each of them on its faster side; the crossing rows are those auto reads now (measured again against
    tuned_frontier renumbered; the small rows time the kernel before)."""
    cls, _, n = name.partition(" ")
    g = SG.make(cls) if cls.startswith("helsinki") else _graph(name)
    assert (E.instead(g, registry.get("tuned_frontier"), "device") is not None) == elimination_faster


def test_auto_through_choose_and_its_reason():
    g = Graph.from_scipy(EM.knn(48000))
    host, dev, rows = (choice.choose(g, result=r, **H200) for r in ("host", "device", None))
    assert host.algorithm.name == dev.algorithm.name == "tuned_elimination"
    assert "the cost model's pick: tuned_frontier" in host.reason and "result on the host" in host.reason
    assert rows.algorithm.name == "tuned_frontier"
    assert choice.choose(g, result="device", gpu=False, free_bytes=0).algorithm.device == "cpu"
    assert choice.choose(g, result="device", gpu=True, free_bytes=1e9).algorithm.name != "tuned_elimination"


# Measured misses of the bound on the rows the rule learned from (named, each a strict xfail, so that it fails once
# auto gets it right).  Against tuned_frontier on the device the size crossing is the worst graph's, and the depth
# test below it takes the grids that cross earlier (the grid of 16,000 on the device: elimination 68.4 ms,
# tuned_frontier renumbered 76.1; 100.7 and 167.3 against the kernel before);
# against tuned_deep the rows have m, and each graph's ratio is interpolated on m / n: none past it.
# Against tuned_frontier renumbered (the crossing rows of 2026-12-01, which the depth thresholds predate): the grid of
# 160 x 100 to the host, where the depth test (set against the kernel before) runs the elimination: 199.0 ms against
# tuned_frontier's 146.8.
MISSES = {("crossing", "grid 160 x 100", "host")}


def _crossing_file(tag, result):
    """The crossing file auto reads for ``result`` against the code of ``tag`` (the newest with rows of it), or None."""
    role = next(r for r, t in E.TAGS.items() if t == tag)
    c = E.crossing(None, role, result)
    return None if c is None else E.folder() / c.source


def _crossing_cases():
    out = []
    for tag in E.TAGS.values():
        for r in E.RESULTS:
            f = _crossing_file(tag, r)
            if f is None:
                out.append(pytest.param(tag, "none", r, marks=pytest.mark.skip(reason=f"no recorded {tag} {r} rows")))
                continue
            out += [pytest.param(tag, g, r, marks=pytest.mark.xfail(strict=True, reason="a measured miss"))
                    if (tag, g, r) in MISSES else (tag, g, r) for g in pd.read_csv(f).graph]
    return out


def _graph(name):
    cls, rest = name.split(" ", 1)
    if cls == "grid" and " x " in rest:
        r, c = (int(x) for x in rest.split(" x "))
        return Graph.from_scipy(EM.grid(r, c))
    if cls == "kNN6":
        return Graph.from_scipy(EM.knn(int(rest)))
    return SG.make(cls, int(rest), seed=int(rest))


@pytest.mark.parametrize("tag, gname, result", _crossing_cases())
def test_auto_is_within_the_bound_on_every_recorded_crossing_row(tag, gname, result):
    """auto's pick (as choose makes it here, from the recorded rows) against the faster of the two codes on the
    recorded row it learned from: tuned_elimination and tuned_frontier (``*-crossing.csv``), or tuned_elimination
    and tuned_deep on the deep graphs (``*-crossing-deep.csv``)."""
    E.crossing.cache_clear()
    f = _crossing_file(tag, result)
    if tag == "crossing" and result == "host" and EL.before_host_rule(f.name):
        pytest.skip("float64 to the host against tuned_frontier: rows of the host path before its result was touched "
                    "during the solve; the rule is checked on rows of today's path (the touched rows' test)")
    df = pd.read_csv(f)
    row = df[df.graph == gname].iloc[0]
    role = next(r for r, t in E.TAGS.items() if t == tag)
    codes = ("tuned_elimination", registry.by_role(role).name)
    times = {c: row[f"{c}_e2e_{result}_ms"] for c in codes}
    if any(math.isnan(t) for t in times.values()):
        pytest.skip(f"{result} not measured at n = {row.n}")
    pick = choice.choose(_graph(gname), result=result, **H200).algorithm.name
    assert pick in times, (pick, times)
    assert times[pick] <= TOLERANCE * min(times.values()) + SLACK_MS, (pick, times)


# The checks measured after the rule's rows (elimination_gpu_measure --e2e --auto: *-auto-check*.csv), on sizes and
# graphs those rows did not have.  Their misses, each a strict xfail, by file:
# * 2026-11-28 (the rule then: the elimination first, against tuned_frontier only; the loop-built launch list):
#   of the pick, the ring and the lollipop of 32,000 on the host (the elimination 650-671 ms, tuned_frontier's
#   845-1,099); of auto's own call alone, three rows of one process whose same code took 1.42-1.55x its named call
#   (median of 7 again, the *-repeat7-* files: 0.86-1.04x), the scatter the launch list's host time made.
# * 2026-11-29 (tuned_deep first, both crossings learned with the vectorised list): of the pick, the ring and the
#   lollipop of 18,000 on the device (tuned_deep 51.3 and 86.8 ms, the elimination 37.4 and 38.3: deep graphs other
#   than the path cross earlier than the worst one the rule keeps), the grid of 27,889 and of 40,000 on the host
#   (tuned_frontier 623.9 and 1,652 against 497.5 and 960: on the host the grid crosses long before the kNN graph);
#   of auto's own call, those but the grid of 27,889 (614.4 ms: within), and the lollipop of 18,000 on the host
#   (1.26x) and of 40,000 on the device (1.34x), where the pick was right.
OLD, NEW = "NVIDIA_H200-2026-11-28-auto-check", "NVIDIA_H200-2026-11-29-auto-check"
PICK_MISSES = {(f"{OLD}-deep.csv", "ring 32000", "host"), (f"{OLD}-deep.csv", "lollipop 32000", "host"),
               (f"{NEW}-deep.csv", "ring 18000", "device"), (f"{NEW}-deep.csv", "lollipop 18000", "device"),
               (f"{NEW}.csv", "grid 167 x 167", "host"), (f"{NEW}.csv", "grid 200 x 200", "host")}
CALL_MISSES = (PICK_MISSES - {(f"{NEW}.csv", "grid 167 x 167", "host")}) | {
    (f"{OLD}.csv", "grid 219 x 219", "device"), (f"{OLD}.csv", "grid 256 x 256", "device"),
    (f"{OLD}-deep.csv", "ring 65536", "device"),
    (f"{NEW}-deep.csv", "lollipop 18000", "host"), (f"{NEW}-deep.csv", "lollipop 40000", "device")}


def _check_rows():
    out = []
    for f in sorted(E.folder().glob("*-auto-check*.csv")):
        df = pd.read_csv(f)
        for _, r in df.iterrows():
            for res in ("host", "device"):
                if not math.isnan(r[f"auto_e2e_{res}_ms"]):
                    out.append((f.name, r.graph, res))
    return out or [pytest.param("none", "none", "host", marks=pytest.mark.skip(reason="no recorded auto check"))]


def _check_row(fname, gname):
    df = pd.read_csv(E.folder() / fname)
    return df[df.graph == gname].iloc[0]


def _times(row, result):
    return {c: row[f"{c}_e2e_{result}_ms"] for c in ("tuned_elimination", "tuned_frontier", "tuned_deep")
            if f"{c}_e2e_{result}_ms" in row and not math.isnan(row[f"{c}_e2e_{result}_ms"])}


@pytest.mark.parametrize("fname, gname, result", [
    pytest.param(*c, marks=pytest.mark.xfail(strict=True, reason="a measured miss")) if c in PICK_MISSES else c
    for c in _check_rows()])
def test_the_checked_picks_are_within_the_bound_and_todays(fname, gname, result):
    """The pick recorded with each checked row: its own time on the row within the bound of the fastest code
    measured there; and, where the check was measured with today's crossing rows, the pick auto makes today."""
    E.crossing.cache_clear()
    row = _check_row(fname, gname)
    pick = row[f"auto_{result}_pick"]
    if EL.current(fname) and not (result == "host" and EL.before_host_rule(fname)):   # today's rows and host rule
        assert choice.choose(_graph(gname), result=result, **H200).algorithm.name == pick
    times = _times(row, result)
    if pick in times:
        assert times[pick] <= TOLERANCE * min(times.values()) + SLACK_MS, (pick, times)


@pytest.mark.parametrize("fname, gname, result", [
    pytest.param(*c, marks=pytest.mark.xfail(strict=True, reason="a measured miss")) if c in CALL_MISSES else c
    for c in _check_rows()])
def test_autos_own_calls_are_within_the_bound(fname, gname, result):
    row = _check_row(fname, gname)
    times = _times(row, result)
    auto = row[f"auto_e2e_{result}_ms"]
    assert auto <= TOLERANCE * min(times.values()) + SLACK_MS, (auto, times)


def test_no_elimination_where_it_would_not_order_the_graph_as_in_its_rows(monkeypatch):
    """Without pymetis the elimination orders by BFS levels, 3-9x slower than in the rows its crossings rest on."""
    import apsp_kernels.algorithms.cpu.elimination as EL
    g = Graph.from_scipy(EM.grid(219, 219))
    fr = registry.get("tuned_frontier")
    assert E.measured_ordering() and E.instead(g, fr, "host") is not None
    monkeypatch.setattr(EL, "default_bisector", lambda: "levels")
    assert not E.measured_ordering()
    assert E.instead(g, fr, "host") is None and E.instead(g, fr, "device") is None
    assert choice.choose(g, result="host", **H200).algorithm.name == "tuned_frontier"


SMALL_ROWS = ("elimination/NVIDIA_H200-2026-11-30-touched-small-calls.csv",
              "elimination/NVIDIA_H200-2026-11-30-strips-small.csv",
              "elimination/NVIDIA_H200-2026-11-30-narrow-strips.csv")
SMALL_MISSES = set()


@pytest.mark.parametrize("gname, n, result, medians", [
    pytest.param(*c, marks=pytest.mark.xfail(strict=True, reason="a known miss: the docstring of elimination_choice"))
    if c[:3] in SMALL_MISSES else c for c in recorded_rounds.medians(*SMALL_ROWS)])
def test_auto_within_the_bound_on_the_rows_below_16000(gname, n, result, medians):
    """Below the crossing rows' smallest size (4,096-14,000 vertices, medians of 3-5 interleaved rounds, one H200):
    auto's pick, by today's rules, within 1.25x + 2 ms of the faster code measured, but for the misses listed."""
    recorded_rounds.assert_pick_within(gname, n, result, medians)


def test_narrow_levels_lower_the_depth_threshold_and_wide_ones_do_not_raise_it():
    """The depth test's threshold scales with the hub BFS's widest level below sqrt(n) (a strip's separator) and
    stays ``DEPTH`` at sqrt(n) and beyond (the square grid, the kNN graph); the strips are below the renumbering's
    reach, the grid of 16,384 past it (to the host ``DEPTH_RENUMBERED``)."""
    grid, knn = SG.make("grid", 16384, seed=16384), SG.make("knn", 16384, seed=16384)
    narrow, wider = SG.make("strip-20", 5000, seed=5000), SG.make("strip-40", 6000, seed=6000)
    for result in E.RESULTS:
        assert E.depth_threshold(grid, result) == E.DEPTH_RENUMBERED.get(result, E.DEPTH[result])   # renumbered
        assert E.depth_threshold(narrow, result) < E.depth_threshold(wider, result) < 0.7 * E.DEPTH[result]
        assert E.depth_threshold(knn, result) == E.denser_threshold(knn.n, result)                 # m / n 7.05
    assert E.deep_enough(narrow)[0] and not E.deep_enough(wider)[0]        # scores 18,950 and 14,562


CORRIDOR_ROWS = ("elimination/NVIDIA_H200-2026-11-30-corridor-sweep.csv",
                 "solver/NVIDIA_H200-2026-11-30-corridors-check.csv", "solver/NVIDIA_H200-2026-11-30-denser-check.csv",
                 "solver/NVIDIA_H200-2026-11-30-denser-check-knn.csv", "solver/NVIDIA_H200-2026-11-30-denser-int32-check.csv",
                 "solver/NVIDIA_H200-2026-11-30-denser-int32-check-knn.csv")
# Every recorded file with medians of both codes on a kNN graph or corridor of 10,000 vertices or more when
# denser_threshold was set (2026-11-30): the rows its constants were fitted on.
DENSER_FIT_ROWS = CORRIDOR_ROWS + tuple(f"solver/NVIDIA_H200-{x}-check.csv" for x in (
    "2026-11-29-device-depth", "2026-11-29-int32-crossing", "2026-11-29-int32-edge", "2026-11-29-shallow",
    "2026-11-30-depth-from", "2026-11-30-host-33k", "2026-11-30-host-touched"))


# Corridors of those rows measured again after METIS's regions were ordered in threads (the elimination's time
# changed; in sample, not held out): their medians replace the older ones.  Only the three the device's round count
# of 10 (test 3 then) put past the bound on the older rows were measured again (a one-sided refresh: every other row
# keeps its medians of the one-thread ordering); two stayed past there (corridor-8 of 12,000 by 0.2 ms on the named
# codes' medians, auto's own median 1.38x).  Under one round count of 17 (test 3 re-fitted against tuned_frontier
# renumbered) both keep tuned_frontier, the faster on these rows.
REMEASURED = "solver/NVIDIA_H200-2026-11-30-threads-remeasure.csv"


def _corridor_medians():
    medians = lambda files: rounds.medians(rounds.read(files, paths.RECORDED))
    med, again = medians(CORRIDOR_ROWS), medians([REMEASURED])
    med = pd.concat([med.drop(again.index, errors="ignore"), again]).sort_index()
    return [pytest.param(g, int(n), RESULT[mode], r.tuned_elimination, r.tuned_frontier)
            for (g, n, mode), r in med.iterrows()]


RESULT = {"e2e_ms": "host", "e2e_int32_ms": "int32", "e2e_device_ms": "device"}


@pytest.mark.parametrize("gname, n, result, elim_ms, frontier_ms", _corridor_medians())
def test_the_denser_graphs_depth_test_on_the_corridor_rows(gname, n, result, elim_ms, frontier_ms):
    """On every corridor row it was set from (medians of rotated rounds, one H200) and the square kNN graphs of
    28,000 and 29,000, test 1 in tuned_frontier's place runs a code within 1.25x + 2 ms of the faster of the two:
    none below ``DENSER_FROM``, none at corridor-8's score of 26,181 at 12,000 (1.54-1.77x), in int32 at
    corridor-12's 28,179 at 10,500 (1.82x) nor at corridor-9's 33,248 at 14,000 (1.38-1.62x: a threshold by n)."""
    g = SG.make(gname, n, seed=n)
    assert E.denser(g) and E.depth_from(g) == E.DENSER_FROM
    swap = E.instead(g, registry.get("tuned_frontier"), result)
    ms = elim_ms if swap is not None else frontier_ms
    assert within_bound(ms, min(elim_ms, frontier_ms)), (swap is not None, elim_ms, frontier_ms)


def test_a_denser_graph_is_not_taken_below_its_least_n_nor_narrowed():
    """A kNN corridor of 4,500 vertices, 560 hops deep (score 37,566, levels of 0.36 sqrt(n)): the rules for grids
    and strips would take it (their threshold narrowed to 16,918), the denser graphs' test does not; the same at
    12,000 (score 97,495) passes, and says why."""
    fr = registry.get("tuned_frontier")
    small, large = SG.make("corridor-128", 4500, seed=4500), SG.make("corridor-128", 12000, seed=12000)
    assert E.instead(small, fr, "host") is None and E.instead(small, fr, "device") is None
    assert E.depth_threshold(small, "host") == E.denser_threshold(small.n, "host")
    to, why = E.instead(large, fr, "device")
    assert to is E.target() and f">= {E.denser_threshold(large.n, 'device'):,.0f}" in why and "levels of any width" in why


def test_the_host_threshold_is_raised_where_tuned_frontier_renumbers():
    """To the host in float64 the depth threshold is ``DEPTH_RENUMBERED`` from the launcher's ``RENUMBER_WORK``
    sources x edges (set against the renumbered kernel), ``DEPTH`` below it; int32 and the device keep ``DEPTH``."""
    from apsp_kernels.algorithms.gpu.tuned.frontier import RENUMBER_WORK
    small, large = SG.make("strip-20", 5000, seed=5000), SG.make("grid", 26000, seed=26000)
    assert small.n * small.m < RENUMBER_WORK <= large.n * large.m
    assert E.depth_base(small, "host") == E.DEPTH["host"] < E.depth_base(large, "host") == E.DEPTH_RENUMBERED["host"]
    for result in ("int32", "device"):
        assert E.depth_base(large, result) == E.DEPTH[result]
    ok, depth, score = E.deep_enough(large, "host")             # 51,598: past 33,000, below 62,000
    assert E.DEPTH["host"] < score < E.DEPTH_RENUMBERED["host"] and not ok
    assert E.instead(large, registry.get("tuned_frontier"), "host") is None
    assert E.instead(large, registry.get("tuned_frontier"), "int32")[0] is E.target()
    g = Graph.from_scipy(EM.grid(219, 219))                       # 47,961: a score of 95,000
    assert "62,000 where tuned_frontier renumbers the graph" in E.instead(g, registry.get("tuned_frontier"), "host")[1]


def test_the_denser_graphs_threshold_falls_with_n():
    """To the host 61,000 at 10,000 vertices, 38,000 at 30,000; below the device's flat 33,000 only past about
    40,000 vertices to the host, 26,000 in int32."""
    at = {n: E.denser_threshold(n, "host") for n in (10_000, 14_000, 20_000, 30_000)}
    assert list(at.values()) == sorted(at.values(), reverse=True)
    assert 60_000 < at[10_000] < 62_000 and at[30_000] == E.DENSER_AT["host"]
    for result in E.RESULTS:
        assert E.denser_threshold(E.DENSER_N, result) == E.DENSER_AT[result]
        assert E.denser_threshold(10_000, result) >= E.DENSER_AT["device"]       # no denser graph at 10,000 taken
                                                                                  # below 33,000 in any result


def test_the_denser_graphs_threshold_is_the_fits_crossing():
    """The host constants are the crossing of the least-squares fit (scripts/denser_crossing_fit.py) over the rows
    they were set from, within rounding: the score at ``DENSER_N`` within 1 %, the slope within 0.01."""
    import denser_crossing_fit as fit
    sweep = [f for f in DENSER_FIT_ROWS if f.startswith("elimination/")]           # the script's order: a
    got = fit.fit([paths.RECORDED / f for f in sweep + sorted(set(DENSER_FIT_ROWS) - set(sweep))])   # row once
    for mode, result in RESULT.items():
        if result == "device":                      # 33,000 at every n there: the fit's form missed, held out
            assert E.DENSER_SLOPE[result] == 0 and E.DENSER_AT[result] == 33_000
            continue
        c, _, graphs = got[mode]
        assert graphs >= 20
        assert abs(fit.crossing_score(c, E.DENSER_N) / E.DENSER_AT[result] - 1) < 0.01, (result, c)
        assert abs(fit.slope(c) - E.DENSER_SLOPE[result]) < 0.01, (result, c)


def test_the_work_test_takes_a_graph_whose_frontier_relaxes_each_edge_often():
    g = SG.make("delaunay", 16384, seed=16384)         # shallow (0.5 sqrt(n)), its levels 4.5 sqrt(n): tests 1-2 say no
    fr, sweeps = registry.get("tuned_frontier"), registry.by_role(E.SWEEPS)
    assert E._by_rows(g, fr, E.FROM, "host", None) is None and not E.separators_small(g)[0]
    for result in E.RESULTS:                           # levels of >= WIDE sqrt(n): the in-round count in every result
        for place in (fr, sweeps):
            to, why = E.instead(g, place, result)
            assert to is E.target() and f"still relaxes each edge >= {E.IN_ROUND_WORK:g}" in why
            assert f">= {E.WIDE:g} sqrt(n)" in why and why.startswith(f"{to.name} instead of {place.name}")
        assert choice.choose(g, result=result, **H200).algorithm is E.target()
    assert E.instead(g, registry.get("tuned_deep"), "host") is None         # in tuned_frontier's place only


def test_in_the_sweeps_place_only_test_3_acts():
    """In tuned_sparse's place (the cost model may rank it above tuned_frontier) tests 1 and 2 are not asked: a grid
    deep enough for test 1 keeps tuned_sparse."""
    sweeps = registry.by_role(E.SWEEPS)
    grid = SG.make("grid", 22000, seed=22000)                # test 1 takes it in tuned_frontier's place
    assert E.instead(grid, registry.get("tuned_frontier"), "device") is not None
    assert E.instead(grid, sweeps, "device") is None and E.by_work(grid, sweeps, "device") is None


def test_choose_hands_the_sweeps_place_to_test_3():
    """Where the cost model ranks tuned_sparse first (the Delaunay graph of 14,000: ~158 ms against tuned_frontier's
    ~160 on the H100's rows), choose asks test 3 in its place, in every result; for some rows it keeps the pick."""
    g = SG.make("delaunay", 14000, seed=14000)
    sweeps = registry.by_role(E.SWEEPS)
    assert choice.choose(g, result=None, **H200).algorithm is sweeps
    for result in E.RESULTS:
        c = choice.choose(g, result=result, **H200)
        assert c.algorithm is E.target() and c.reason.startswith(f"{E.target().name} instead of {sweeps.name}")


def test_the_work_test_says_no_below_its_size_on_wide_levels_and_on_a_low_count(monkeypatch):
    fr = registry.get("tuned_frontier")
    deep_strip = SG.make("strip-2", 6000, seed=6000)                      # counted at 59 a source, but n < 10,000
    assert deep_strip.n < E.WORK_FROM and E.by_work(deep_strip, fr, "host") is None
    knn = SG.make("knn", 15000, seed=15000)                               # counted at 7.5
    assert E.by_work(knn, fr, "host") is None
    from apsp_kernels.core import frontier_work as FW

    def not_counted(*a, **k):
        raise AssertionError("counted a graph whose levels are wide")
    monkeypatch.setattr(FW, "relaxations_per_edge_once", not_counted)
    assert E.by_work(SG.make("kemp", 16384, seed=16384), fr, "device") is None   # a random graph: levels of 51 sqrt(n)


# The checks measured against tuned_frontier renumbered: not the rows the older tests below speak of
RENUMBERED_CHECKS = ("renumbered", "refit", "wide-levels")


def test_the_work_threshold_on_the_older_rows():
    """Every graph of WORK_FROM vertices or more in the held-out checks' rows before the round count was first set
    (its own check, frontier-work, left out; tuned_frontier before its renumbering) counted at WORK or more had the
    elimination within the bound of tuned_frontier in every result timed (scripts/frontier_work.py's table)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import frontier_work as FWS
    skip = ("frontier-work",) + RENUMBERED_CHECKS
    counts = FWS.table(FWS.recorded("e2e_device_ms", skip=skip))[["graph", "n", "relaxations_per_edge"]]
    checked = 0
    for mode in ("e2e_ms", "e2e_int32_ms", "e2e_device_ms"):
        t = FWS.recorded(mode, skip=skip).merge(counts, on=["graph", "n"])
        over = t[(t.n >= E.WORK_FROM) & (t.relaxations_per_edge >= E.WORK)]
        assert (over.elimination_ms <= TOLERANCE * over.frontier_ms + SLACK_MS).all(), over
        checked += len(over)
    assert checked >= 20


def test_the_round_count_says_why_in_one_line():
    """Test 3 by its round count (to the host in float64 the in-round count is not made below levels of WIDE
    sqrt(n)): a corridor of aspect 64 counted at 17 or more goes to the elimination, and the reason names the count,
    its threshold and the hub BFS's widest level; the narrower count's words are not in it."""
    g = SG.make("corridor-64", 12000, seed=12000)
    to, why = E.by_work(g, registry.get("tuned_frontier"), "host")
    assert to is E.target() and f"relaxes each edge >= {E.WORK:g} times a source" in why
    assert f"no level of the hub BFS holds more than {E.WORK_WIDEST:g} sqrt(n)" in why and "still" not in why
    assert "\n" not in why


def test_the_in_round_count_takes_a_king_grid_the_round_count_kept_to_the_host():
    """A king grid of 16,000 counted at 12.7 in rounds (below WORK) and 7.3 in-round: the elimination in int32 and
    on the device by the in-round count, tuned_frontier to the host in float64; a king grid of 12,000 counted at 7.2
    in-round: below IN_ROUND_FROM, tuned_frontier everywhere; a kNN corridor counted at 11.7 in rounds and 3.3
    in-round: tuned_frontier in every result."""
    fr = registry.get("tuned_frontier")
    king = SG.make("grid8-64", 16000, seed=16000)
    assert E.by_work(king, fr, "host") is None
    for result in E.IN_ROUND_RESULTS:
        to, why = E.by_work(king, fr, result)
        assert to is E.target() and f"still relaxes each edge >= {E.IN_ROUND_WORK:g}" in why
        assert f"from {E.IN_ROUND_FROM:,} vertices" in why
    small = SG.make("grid8", 12000, seed=12000)
    assert small.n < E.IN_ROUND_FROM and all(E.by_work(small, fr, r) is None for r in E.RESULTS)
    corridor = SG.make("corridor-12", 12000, seed=12000)
    assert all(E.by_work(corridor, fr, r) is None for r in E.RESULTS)


def test_the_in_round_threshold_on_the_older_rows():
    """IN_ROUND_WORK: in the held-out checks' rows up to and with ``processes`` (scripts/frontier_work.py's table,
    the last file per graph; tuned_frontier before its renumbering), from WORK_FROM vertices every king grid and
    Delaunay graph counts at or above it and most kNN corridors below; where the rule asks it now (from
    IN_ROUND_FROM vertices in int32 and on the device, from WORK_FROM on levels of WIDE sqrt(n) or more in every
    result) the elimination was within the bound of tuned_frontier on every graph counted at or above it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import frontier_work as FWS
    from apsp_kernels.core.structure import hub_depth_once
    later = ("in-round",) + RENUMBERED_CHECKS                      # checks after the rule: not the rows it came from
    counts = FWS.table(FWS.recorded("e2e_device_ms", skip=later))
    counts = counts[counts.n >= E.WORK_FROM]
    kind = counts.graph.str.split("-").str[0]
    assert (counts[kind.isin(["grid8", "delaunay"])].in_round_per_edge >= E.IN_ROUND_WORK).all()
    corridors = counts[kind == "corridor"]
    assert (corridors.in_round_per_edge < E.IN_ROUND_WORK).mean() > 0.9 and len(corridors) >= 30
    over = counts[counts.in_round_per_edge >= E.IN_ROUND_WORK][["graph", "n"]].copy()
    over["wide"] = [hub_depth_once(SG.make(g, n, seed=n)).widest >= E.WIDE * math.sqrt(n) for g, n in
                    zip(over.graph, over.n)]
    assert over.wide.sum() >= 3 and (over.n >= E.IN_ROUND_FROM).sum() >= 5
    checked = 0
    for mode in ("e2e_ms", "e2e_int32_ms", "e2e_device_ms"):
        asked = over if RESULT[mode] in E.IN_ROUND_RESULTS else over[over.wide]
        asked = asked[asked.wide | (asked.n >= E.IN_ROUND_FROM)]
        t = FWS.recorded(mode, skip=later).merge(asked, on=["graph", "n"])
        bad = t[t.elimination_ms > TOLERANCE * t.frontier_ms + SLACK_MS]
        assert bad.empty, bad
        checked += len(t)
    assert checked >= 15


# The rows test 3 was re-fitted from (tuned_frontier renumbered, medians of 3 interleaved rounds, one H200) and the
# checks since: the graphs near its lines, each with auto's pick in every result held to the bound.
REFIT_ROWS = ("elimination/NVIDIA_H200-2026-12-01-rederive-1.csv", "elimination/NVIDIA_H200-2026-12-01-rederive-2.csv",
              "solver/NVIDIA_H200-2026-12-01-renumbered-check.csv", "solver/NVIDIA_H200-2026-12-01-refit-check.csv")
NEAR_THE_LINES = (("grid8", 12000), ("grid8-100", 12000), ("grid8-60", 14000), ("grid8-100", 16000), ("grid8", 16000),
                  ("corridor-10", 12500), ("corridor-16", 12000), ("corridor-14", 15000), ("delaunay", 11000),
                  ("delaunay", 14000), ("delaunay", 16000), ("grid", 12000), ("strip-64", 12800), ("knn", 20000))


@functools.lru_cache(maxsize=1)
def _refit_medians():
    med = rounds.medians(rounds.read(REFIT_ROWS, paths.RECORDED))
    return {key: med.loc[key[:2]] for key in NEAR_THE_LINES}


@pytest.mark.parametrize("gname, n", NEAR_THE_LINES)
def test_the_rule_on_the_rows_test_3_was_refit_from(gname, n):
    """auto's pick (tuned_frontier, the elimination, or the elimination in tuned_sparse's place) within 1.25x + 2 ms
    of the faster of the two in every result, on the graphs near test 3's lines: under the counts set against the
    kernel before, six of these pairs were past (king grids of 12,000-14,000 sent by the in-round count at
    1.30-1.84x, corridor-10 of 12,500 by the device's count of 10 at 1.35x, grid8-60 of 14,000 to the host by 15 at
    1.38x), and after the re-fit the Delaunay graphs of 14,000 and 16,000 in all three (tuned_sparse, the rule not
    asked)."""
    med = _refit_medians()[(gname, n)]
    g = SG.make(gname, n, seed=n)
    for mode, r in med.iterrows():
        picked = choice.choose(g, result=RESULT[mode], **H200).algorithm.name
        assert picked in ("tuned_elimination", "tuned_frontier"), (mode, picked)
        best = min(r.tuned_elimination, r.tuned_frontier)
        assert within_bound(r[picked], best), (mode, picked, r.tuned_elimination, r.tuned_frontier)
