"""Notebook 11's elimination section and the deep classes' sentence (study/seeds/tuned/elimination.py, suite.py),
computed from rows: from the recorded files, and from small made-up ones where each number is known."""
import matplotlib
import pandas as pd

from apsp_kernels import elimination_choice as E
from apsp_kernels.study.seeds.tuned import elimination as EL, suite as SU

matplotlib.use("Agg")


def _row(graph, n, eh, ed, fh, fd, ah=None, ad=None, pick_h="tuned_frontier", pick_d="tuned_elimination"):
    r = dict(graph=graph, n=n, e2e_verified=True, tuned_elimination_e2e_host_ms=eh, tuned_elimination_e2e_device_ms=ed,
             tuned_frontier_e2e_host_ms=fh, tuned_frontier_e2e_device_ms=fd)
    if ah is not None:
        r.update(auto_e2e_host_ms=ah, auto_e2e_device_ms=ad, auto_host_pick=pick_h, auto_device_pick=pick_d)
    return r


def test_the_check_table_and_its_count(tmp_path):
    pd.DataFrame([_row("grid 10 x 10", 100, 30, 10, 20, 40)]).to_csv(tmp_path / "G-2026-01-01-crossing.csv",
                                                                      index=False)
    pd.DataFrame([_row("grid 10 x 10", 100, 30, 10, 20, 40, ah=21, ad=11),
                  _row("ring 100", 100, 10, 10, 20, 40, ah=20, ad=30)]).to_csv(
        tmp_path / "G-2026-01-02-auto-check.csv", index=False)
    pd.DataFrame([_row("ring 100", 100, float("nan"), 10, float("nan"), float("nan"), ah=float("nan"), ad=12)]
                 ).drop(columns=["tuned_frontier_e2e_host_ms", "tuned_frontier_e2e_device_ms"]).to_csv(
        tmp_path / "G-2026-01-03-auto-check-repeat7-ring.csv", index=False)
    rows, check = EL.load(tmp_path)
    t = EL.check_table(check)
    assert len(t) == 5
    ring_host = t[(t.graph == "ring 100") & (t.result == "host") & (t.run == "median of 3")].iloc[0]
    assert not ring_host["pick within 1.25x + 2 ms"]          # frontier 20 against the elimination's 10
    ring_dev = t[(t.graph == "ring 100") & (t.result == "device") & (t.run == "median of 3")].iloc[0]
    assert ring_dev["pick within 1.25x + 2 ms"] and not ring_dev["auto's call within"]    # 30 against 10
    rerun = t[t.run == "median of 7"].iloc[0]
    assert rerun["pick within 1.25x + 2 ms"] is None and rerun["auto's call within"]       # one code timed: no pick
    fig = EL.figure(rows, check)
    assert len([a for a in fig.axes if a.lines]) == 2


def test_the_finding_is_the_recorded_rows(monkeypatch):
    E.crossing.cache_clear()
    rows, check = EL.load()
    text = EL.finding(rows, check)
    c = E.crossing()
    first_device = min(n for n, x in zip(c.sizes, c.ratios["device"]) if x < 1)
    first_host = min(n for n, x in zip(c.sizes, c.ratios["host"]) if x < 1)
    assert f"at every size measured (the smallest, n = {first_device:,}" in text and first_device == c.sizes[0]
    assert f"on the host from n = {first_host:,}" in text and first_host > c.sizes[0]
    t = EL.check_table(check)
    both = t.dropna(subset=["pick within 1.25x + 2 ms"])
    picks = int(both["pick within 1.25x + 2 ms"].astype(bool).sum())
    assert f"on {picks} of the {len(both)} rows that timed both" in text
    calls = int(t["auto's call within"].sum())
    assert f"auto's own call on {calls} of {len(t)}" in text
    assert EL.finding(pd.DataFrame(), pd.DataFrame()) == "No elimination rows recorded."


def test_the_deep_sentence_from_rows():
    base = dict(n=1000, m=999, hop_depth=999, verified=True)
    rows = pd.DataFrame([
        dict(base, graph="path", algorithm="tuned_deep", kind="gpu", kernel_ms=2, e2e_ms=10, e2e_device_ms=3),
        dict(base, graph="path", algorithm="tuned_frontier", kind="gpu", kernel_ms=6, e2e_ms=12, e2e_device_ms=8),
        dict(base, graph="path", algorithm="tuned_elimination", kind="gpu", kernel_ms=0.5, e2e_ms=30, e2e_device_ms=9),
        dict(base, graph="path", algorithm="dijkstra_cpu_parallel", kind="cpu", e2e_ms=130, threads=16),
        dict(base, graph="path", algorithm="networkit", kind="cpu", e2e_ms=200, threads=16),
        dict(base, graph="grid", algorithm="tuned_deep", kind="gpu", kernel_ms=9, e2e_ms=20, e2e_device_ms=10),
        dict(base, graph="grid", algorithm="tuned_frontier", kind="gpu", kernel_ms=3, e2e_ms=8, e2e_device_ms=4)])
    auto = pd.DataFrame([dict(graph="path", n=1000, picked="tuned_frontier", e2e_ms=12.5, e2e_device_ms=9.0,
                              verified=True)])
    text = SU.deep_finding(rows, auto)
    assert "path (13.0x the all-core CPU Dijkstra and 20.0x networkit)" in text and "grid" not in text
    assert "picked `tuned_frontier` there (1.25x" in text and "3.0x on the path" in text and "Since" not in text
    assert "fastest on 1 of 2 classes (0.5 ms)" in text


def test_the_deep_check_counts_graphs_within_the_bound_in_every_mode():
    def rows(graph, n, auto_dev):
        b = dict(graph=graph, n=n, verified=True)
        return [dict(b, code="dijkstra_cpu_parallel", e2e_ms=900.0),
                dict(b, code="tuned_deep", e2e_ms=10.0, e2e_int32_ms=8.0, e2e_device_ms=4.0),
                dict(b, code="tuned_frontier", e2e_ms=12.0, e2e_int32_ms=11.0, e2e_device_ms=9.0),
                dict(b, code="auto", e2e_ms=10.5, e2e_int32_ms=8.1, e2e_device_ms=auto_dev)]
    check = pd.DataFrame(rows("path", 100, 4.2) + rows("ring", 100, 9.0) + rows("path", 400, 7.0))
    assert SU.deep_check(check) == (2, 3, [100, 400])        # ring: 9.0 > 1.25 x 4.0 + 2 on the device
    base = dict(n=100, m=99, hop_depth=99, verified=True)
    suite = pd.DataFrame([dict(base, graph="path", algorithm="tuned_deep", kind="gpu", kernel_ms=2, e2e_ms=10,
                               e2e_device_ms=3)])
    text = SU.deep_finding(suite, pd.DataFrame(columns=["graph", "n"]), check)
    assert "(path, ring; n = 100 to 400)" in text and "on 2 of 3 graphs" in text
