"""Notebook 11's elimination section and the deep classes' sentence (study/seeds/tuned/elimination.py, suite.py),
computed from rows: from the recorded files, and from small made-up ones where each number is known."""
import matplotlib
import pandas as pd
import pytest

from apsp_kernels import elimination_choice as E
from apsp_kernels.study.seeds.tuned import elimination as EL, suite as SU

matplotlib.use("Agg")


def _row(graph, n, eh, ed, oh, od, ah=None, ad=None, pick_h="tuned_frontier", pick_d="tuned_elimination",
         other="tuned_frontier"):
    """A crossing or check row: the elimination's and ``other``'s end-to-end ms (host, device), auto's if given."""
    r = dict(graph=graph, n=n, e2e_verified=True, tuned_elimination_e2e_host_ms=eh, tuned_elimination_e2e_device_ms=ed,
             **{f"{other}_e2e_host_ms": oh, f"{other}_e2e_device_ms": od})
    if ah is not None:
        r.update(auto_e2e_host_ms=ah, auto_e2e_device_ms=ad, auto_host_pick=pick_h, auto_device_pick=pick_d)
    return r


def _deep(*a, pick_h="tuned_deep", **k):
    return _row(*a, pick_h=pick_h, other="tuned_deep", **k)


def _files(d):
    pd.DataFrame([_row("grid 10 x 10", 100, 30, 10, 20, 40), _row("grid 20 x 20", 400, 50, 10, 40, 40)]).to_csv(
        d / "G-2027-01-02-crossing.csv", index=False)
    pd.DataFrame([_deep("path 100", 100, 30, 30, 20, 20), _deep("path 400", 400, 10, 10, 20, 20)]).to_csv(
        d / "G-2027-01-02-crossing-deep.csv", index=False)
    pd.DataFrame([_row("grid 10 x 10", 100, 30, 10, 20, 40, ah=99, ad=99)]).to_csv(        # before the rows: not read
        d / "G-2027-01-01-auto-check.csv", index=False)
    pd.DataFrame([_row("grid 10 x 10", 100, 30, 10, 20, 40, ah=21, ad=11),
                  _row("kNN6 100", 100, 10, 10, 20, 40, ah=20, ad=30)]).to_csv(d / "G-2027-01-03-auto-check.csv",
                                                                               index=False)
    pd.DataFrame([_deep("ring 200", 200, 10, 10, 20, 40, ah=20, ad=11)]).to_csv(
        d / "G-2027-01-03-auto-check-deep.csv", index=False)


def test_the_check_table_and_its_count(tmp_path):
    _files(tmp_path)
    E.crossing.cache_clear()
    rows, check = EL.load(tmp_path)
    assert set(rows.against) == {"tuned_frontier", "tuned_deep"} and len(rows) == 4
    assert set(check.file) == {"G-2027-01-03-auto-check.csv", "G-2027-01-03-auto-check-deep.csv"}
    t = EL.check_table(check, tmp_path)
    assert len(t) == 6
    knn_host = t[(t.graph == "kNN6 100") & (t.result == "host")].iloc[0]
    assert not knn_host["pick within 1.25x + 2 ms"]          # frontier 20 against the elimination's 10
    knn_dev = t[(t.graph == "kNN6 100") & (t.result == "device")].iloc[0]
    assert knn_dev["pick within 1.25x + 2 ms"] and not knn_dev["auto's call within 1.25x + 2 ms"]    # 30 against 10
    ring_host = t[(t.graph == "ring 200") & (t.result == "host")].iloc[0]
    assert not ring_host["pick within 1.25x + 2 ms"] and ring_host["tuned_deep (ms)"] == 20.0
    fig = EL.figure(rows, check)
    assert len([a for a in fig.axes if a.lines]) == 2
    c = EL.crossing_table(rows, tmp_path)
    assert c[c.against == "tuned_deep"].graphs.iloc[0] == "path" and len(c) == 4
    learned = EL.learned(tmp_path)
    assert learned[("tuned_deep", "host")] is not None and 100 < learned[("tuned_deep", "host")] < 400
    assert learned[("tuned_frontier", "host")] is None                    # 1.5 and 1.25: never below 1
    assert learned[("tuned_frontier", "device")] == 100                   # 0.25 from the smallest size
    for f in tmp_path.glob("G-2027-*"):  # the same files measured before the host test took its present form
        f.rename(tmp_path / f.name.replace("G-2027", "G-2026"))
    E.crossing.cache_clear()
    rows, check = EL.load(tmp_path)
    t = EL.check_table(check, tmp_path)
    assert set(t[t.graph == "kNN6 100"].result) == {"device"} and set(t[t.graph == "ring 200"].result) == {"host",
                                                                                                         "device"}
    assert "(2 rows to the host against `tuned_frontier` left out" in EL.finding(rows, check, tmp_path)
    E.crossing.cache_clear()


def test_the_finding_is_the_recorded_rows():
    E.crossing.cache_clear()
    rows, check = EL.load()
    text = EL.finding(rows, check)
    for (code, res), n in EL.learned().items():
        if code == EL.CODES[1] and res != "device":          # to the host against tuned_frontier: the depth decides
            again = f" ({E.DEPTH_RENUMBERED[res]:,} where `{code}` renumbers the graph)" if res in E.DEPTH_RENUMBERED else ""
            assert f"{E.DEPTH[res]:,}{again} with the {EL.RESULTS[res]}" in text
        elif n is not None:
            assert f"from about n = {round(n, -2):,} with" in text and f"`{code}`" in text
    t = EL.check_table(check)
    if not len(t):                           # no check measured with the crossing rows read today
        assert "Checked on sizes" not in text
        return
    both = t.dropna(subset=["pick within 1.25x + 2 ms"])
    picks = int(both["pick within 1.25x + 2 ms"].astype(bool).sum())
    assert f"the faster of the two on {picks} of {len(both)} rows" in text
    calls = int(t["auto's call within 1.25x + 2 ms"].sum())
    assert f"auto's own call (its choice included) on {calls} of {len(t)}" in text
    assert EL.finding(pd.DataFrame(), pd.DataFrame()) == "No elimination rows recorded."


def test_the_rows_with_the_cpu_beside(tmp_path):
    b = dict(graph="path", n=1000, verified=True)
    pd.DataFrame([dict(b, code="dijkstra_cpu_parallel", e2e_ms=900.0),
                  dict(b, code="tuned_deep", kernel_ms=2.0, e2e_ms=10.0, e2e_device_ms=4.0),
                  dict(b, code="auto", kernel_ms=float("nan"), e2e_ms=9.0, e2e_device_ms=4.0,
                       auto_host_pick="tuned_deep", auto_device_pick="tuned_deep")]).to_csv(
        tmp_path / "G-2026-01-01-cpu-beside-deep.csv", index=False)
    t = EL.cpu_beside(tmp_path)
    assert list(t["CPU / host end to end (x)"]) == [90.0, 100.0]
    assert t.code.iloc[1] == "auto (host: tuned_deep, device: tuned_deep)" and pd.isna(t["kernel (ms)"].iloc[1])
    assert len(EL.cpu_beside(tmp_path / "none")) == 0


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
    assert "on the path (13.0x the all-core CPU Dijkstra and 20.0x networkit)." in text and "grid" not in text
    assert "picked `tuned_frontier` there (1.25x" in text and "3.0x on the path" in text and "Since" not in text
    assert "fastest on 1 of 2 classes (0.5 ms)" in text
    assert ("Over the 1 graphs of the run, auto's own call was within 1.25x + 2 ms of the fastest verified GPU code in "
            "every mode timed on 0; past it: path (on the device 9.0 ms against tuned_deep's 3.0)." in text)


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


def test_a_deep_check_measured_before_the_run_is_not_read_as_since(tmp_path):
    """The check of auto since its deep rule is read only where it was measured after the deep-road run (``where``:
    one folder standing for both data/results/solver and data/results/benchmarks)."""
    pd.DataFrame([dict(graph="path", n=100, code="auto", e2e_ms=1.0)]).to_csv(
        tmp_path / "GPU-2026-01-02-deep-auto-check.csv", index=False)
    pd.DataFrame([dict(graph="path", n=100)]).to_csv(tmp_path / "GPU-2026-01-01-structure-deep-road.csv", index=False)
    assert len(SU.load_deep_check(tmp_path)) == 1                       # the check is newer than the run
    (tmp_path / "GPU-2026-01-01-structure-deep-road.csv").rename(tmp_path / "GPU-2026-01-03-structure-deep-road.csv")
    assert len(SU.load_deep_check(tmp_path)) == 0                       # a run after it


def test_graphs_of_the_deep_road_run_measured_again_after_it(tmp_path):
    """A later suite run of some of the deep-road run's graphs (``structure-grid``) is read for those graphs only,
    and only where it is newer than the run; its sentence names auto's record on each."""
    base = dict(n=100, m=99, hop_depth=9, verified=True)
    run = pd.DataFrame([dict(base, graph="grid"), dict(base, graph="path")])
    run.to_csv(tmp_path / "GPU-2026-01-02-structure-deep-road.csv", index=False)
    pd.DataFrame([dict(base, graph="grid", kind="auto")]).to_csv(tmp_path / "GPU-2026-01-01-structure-grid.csv",
                                                                  index=False)
    assert SU.load_again(run, tmp_path)[0] == ""                        # older than the run: not read
    rows = [dict(base, graph="grid", kind="gpu", algorithm="a", e2e_ms=10, e2e_int32_ms=8, e2e_device_ms=4),
            dict(base, graph="grid", kind="gpu", algorithm="b", e2e_ms=12, e2e_int32_ms=9, e2e_device_ms=3),
            dict(base, graph="grid", kind="auto", algorithm="auto", picked="a", picked_device="b", e2e_ms=10.5,
                 e2e_int32_ms=8.2, e2e_device_ms=3.1),
            dict(base, graph="knn", kind="auto", algorithm="auto", picked="a", e2e_ms=1, e2e_int32_ms=1,
                 e2e_device_ms=1)]
    pd.DataFrame(rows).to_csv(tmp_path / "GPU-2026-01-03-structure-grid.csv", index=False)
    name, again = SU.load_again(run, tmp_path)
    assert name == "GPU-2026-01-03-structure-grid.csv" and set(again.graph) == {"grid"}
    text = SU.again_finding(name, again)
    assert "the grid of 100: within in every mode (on the device 3.1 ms, `b`, against b's 3.0)" in text
    rows[2]["e2e_device_ms"] = 9.0
    text = SU.again_finding(name, pd.DataFrame(rows[:3]))
    assert "the grid of 100: past it on the device (9.0 ms against b's 3.0)" in text


def test_the_host_path_rows_their_table_and_sentence(tmp_path):
    """The newest day's host path files with a 'fresh' variant are read (a first form without it is not), and the
    sentence states each code's range of what touching saved."""
    from apsp_kernels.study.seeds.tuned import host_path as HP
    def rows(code, n, host, fresh):
        return [dict(graph="grid", n=n, code=code, variant=v, median_ms=ms)
                for v, ms in (("device", 1.0), ("host", host), ("fresh", fresh), ("int32", 2.0), ("int32-fresh", 4.0))]
    pd.DataFrame(rows("a", 10, 80.0, 100.0) + rows("a", 20, 90.0, 100.0) + rows("b", 10, 50.0, 50.0)).to_csv(
        tmp_path / "G-2026-01-02-host-path-x.csv", index=False)
    pd.DataFrame([dict(graph="grid", n=10, code="a", variant="touched", median_ms=1.0)]).to_csv(
        tmp_path / "G-2026-01-02-host-path-fill.csv", index=False)
    r = HP.load(tmp_path)
    assert set(r.variant) == {"device", "host", "fresh", "int32", "int32-fresh"}
    t = HP.table(r)
    assert dict(zip(zip(t.code, t["n (vertices)"]), t["float64 saved (%)"])) == {("a", 10): 20.0, ("a", 20): 10.0,
                                                                               ("b", 10): 0.0}
    assert list(t["int32 saved (%)"]) == [50.0] * 3
    text = HP.finding(r)
    assert "`a` 10-20 % (largest: grid 10, 100.0 to 80.0 ms); `b` 0 %" in text
    assert HP.finding(HP.load(tmp_path / "none")).startswith("*No host path rows")


def test_part_of_the_suite_run_again_and_a_larger_size_are_said_after_the_finding(tmp_path):
    """A later run of some of the suite's graphs (read only where newer than the suite's own file) is summed up:
    auto within on how many, where past, and which of the suite run's misses are within there; a run at a larger
    size gets its range over the CPU code and its count."""
    base = dict(n=100, m=99, hop_depth=9, verified=True)
    gpu = lambda g, code, ms, dev: dict(base, graph=g, kind="gpu", algorithm=code, kernel_ms=ms / 2, e2e_ms=ms,
                                        e2e_int32_ms=ms, e2e_device_ms=dev)
    auto = lambda g, ms, dev, first: dict(base, graph=g, kind="auto", algorithm="auto", picked="a", e2e_ms=ms,
                                          e2e_int32_ms=ms, e2e_device_ms=dev, e2e_first_ms=first)
    cpu = lambda g: dict(base, graph=g, kind="cpu", algorithm="dijkstra_cpu_parallel", e2e_ms=500.0, threads=16)
    run = pd.DataFrame([gpu("grid", "a", 10, 10), gpu("grid", "b", 10, 4), auto("grid", 10, 10, 10),
                        gpu("ring", "a", 10, 10), auto("ring", 10, 10, 10), cpu("grid"), cpu("ring")])
    run.to_csv(tmp_path / "GPU-2026-01-02-structure.csv", index=False)
    later = pd.DataFrame([gpu("grid", "a", 10, 4), gpu("grid", "b", 10, 5), auto("grid", 10, 4.5, 10),
                          gpu("ring", "a", 10, 10), auto("ring", 10, 10, 30)])
    later.to_csv(tmp_path / "GPU-2026-01-01-structure-part.csv", index=False)
    assert SU.load_again(run, tmp_path, tag="structure-part", run_tag="structure")[0] == ""     # older: not read
    later.to_csv(tmp_path / "GPU-2026-01-03-structure-part.csv", index=False)
    name, again = SU.load_again(run, tmp_path, tag="structure-part", run_tag="structure")
    text = SU.later_finding(name, again, run, run[run.kind == "auto"])
    assert "after that run, post hoc (`GPU-2026-01-03-structure-part.csv`, 2 graphs;" in text and "in every mode on 1 of 2" in text
    assert "past it: ring 100 (first call 30.0 ms against a bound of 14.5: a's warm 10.0, the code auto ran)" in text
    assert ("of the misses above: grid 100 within in every mode (on the device 4.5 ms, 10.0 in that run, against "
            "a's 4.0)") in text
    assert SU.later_finding("", pd.DataFrame(), run, run) == ""
    big = pd.DataFrame([gpu("grid", "a", 10, 4), auto("grid", 10, 4, 10), cpu("grid"),
                        gpu("path", "a", 50, 4), auto("path", 50, 4, 10), cpu("path")]).assign(n=400)
    big.to_csv(tmp_path / "GPU-2026-01-03-structure-big.csv", index=False)
    text = SU.size_finding(*SU.load_size(tmp_path, tags=("structure-big",)))
    assert text == (" At n = 400 (2 graphs: grid, path; `GPU-2026-01-03-structure-big.csv`): auto's own call within "
                    "1.25x + 2 ms in all four modes on 2 of 2 graphs; through auto the GPU is 10x (path) to 50x (grid) "
                    "the all-core CPU code.")
    assert SU.size_finding(*SU.load_size(tmp_path, tags=("structure-none",))) == ""
    big.assign(n=5000).to_csv(tmp_path / "GPU-2026-01-03-structure-big.csv", index=False)     # past the suite's repeats
    assert "auto's own call (one timed call a mode at these sizes) within" in SU.size_finding(
        *SU.load_size(tmp_path, tags=("structure-big",)))
    big.assign(n=5000, e2e_rounds=3).to_csv(tmp_path / "GPU-2026-01-03-structure-big.csv", index=False)
    assert "auto's own call (warm calls the median of 3 interleaved rounds a mode) within" in SU.size_finding(
        *SU.load_size(tmp_path, tags=("structure-big",)))
    some = big.assign(n=5000, e2e_rounds=[float("nan")] * 3 + [3.0] * 3)          # the path's rows in rounds
    some.to_csv(tmp_path / "GPU-2026-01-03-structure-big.csv", index=False)
    assert ("auto's own call (warm calls the median of 3 interleaved rounds a mode; one timed call a mode on grid) "
            "within") in SU.size_finding(*SU.load_size(tmp_path, tags=("structure-big",)))
    path = pd.concat([some, some[some.graph == "path"].assign(graph="ring")])          # rounds on two of three
    path.assign(e2e_rounds=[3.0] * 3 + [float("nan")] * 6).to_csv(tmp_path / "GPU-2026-01-03-structure-big.csv",
                                                                 index=False)
    assert ("(one timed call a mode at these sizes; warm calls the median of 3 interleaved rounds a mode on grid)"
            in SU.size_finding(*SU.load_size(tmp_path, tags=("structure-big",))))
    big.to_csv(tmp_path / "GPU-2026-01-03-structure-big.csv", index=False)
    # a second tag: another size, and the path measured again there (its rows from that file, not both)
    more = pd.DataFrame([gpu("path", "a", 25, 4), auto("path", 25, 4, 10), cpu("path")]).assign(n=400)
    ring = pd.DataFrame([gpu("ring", "a", 100, 4), auto("ring", 100, 4, 10), cpu("ring")]).assign(n=800)
    more = pd.concat([more, ring])
    more.to_csv(tmp_path / "GPU-2026-01-04-structure-bigger.csv", index=False)
    name, rows, autos = SU.load_size(tmp_path, tags=("structure-big", "structure-bigger", "structure-none"))
    assert name == "`GPU-2026-01-03-structure-big.csv`, `GPU-2026-01-04-structure-bigger.csv`"
    assert len(rows[(rows.graph == "path")]) == 3 and len(autos) == 3
    text = SU.size_finding(name, rows, autos)
    assert "At n = 400 and 800 (3 graphs: grid 400, path 400, ring 800; `GPU-2026-01-03" in text
    assert "the GPU is 5x (ring 800) to 50x (grid 400)" in text and "on 3 of 3 graphs" in text


def test_the_larger_sizes_are_every_plans_rows_past_the_suites_sizes(tmp_path):
    """load_size reads, unless told, every run a plan names as its rows where each graph planned is past the suite's
    sizes: a new run at 32,768+ needs its plan only, not the notebook edited."""
    import yaml
    plan = lambda tag, ns, rows=True: (tmp_path / f"X-2026-01-0{len(ns)}-{tag}-plan.yaml").write_text(yaml.safe_dump(
        dict(graphs=[dict(graph="ring", n=n) for n in ns],
             rows=[f"benchmarks/X-2026-01-01-{tag}.csv"] if rows else None)))
    plan("big", [40000, 65536])
    plan("suite", [4096, 16384])                              # the suite's own sizes: read apart
    plan("mixed", [16384, 32768, 40000])
    plan("probe", [50000], rows=False)                        # rows beside the plan, not the suite's
    assert SU.larger_tags(tmp_path) == ("big",)
    recorded = SU.larger_tags()
    assert "structure" not in recorded and "refit-structure" not in recorded
    if recorded:
        assert {"structure-32k", "structure-65k-path", "structure-path-large"} <= set(recorded)
        assert SU.load_size()[0] == SU.load_size(tags=recorded)[0]


def test_classes_a_larger_size_plan_did_not_reach_are_named():
    """The plans naming a larger-size file as their rows say which graphs they did not measure (their deviation);
    the finding names those its rows do not hold."""
    name, rows, auto = SU.load_size(tags=("structure-32k",))
    if not name:
        pytest.skip("no recorded run at 32,768")
    assert {("ring", 32768), ("lollipop", 32768)} <= rows.attrs["not_measured"] and rows.attrs["planned"]
    assert "; 1 run under a plan committed before its data: the checks below name the files)" in SU.size_finding(
        name, rows, auto)
    assert "planned but not measured (the plan's deviation says why): lollipop 32,768, ring 32,768" in SU.size_finding(
        name, rows, auto)
    rows.attrs["not_measured"] = {("grid", 32768)}                  # a graph the rows hold is not said as missing
    assert "planned but not measured" not in SU.size_finding(name, rows, auto)


def test_a_replaced_runs_misses_are_said_with_the_code_auto_ran(tmp_path):
    """Rows at a larger size that replace an earlier run of the same graph: the finding names where auto's call was
    past the bound in the run replaced, how it was timed, and the code auto ran then beside the one it runs now."""
    base = dict(n=5000, m=4999, hop_depth=9, verified=True)
    gpu = lambda g, code, ms: dict(base, graph=g, kind="gpu", algorithm=code, kernel_ms=ms / 2, e2e_ms=ms,
                                   e2e_int32_ms=ms, e2e_device_ms=ms)
    auto = lambda g, ms, pick: dict(base, graph=g, kind="auto", algorithm="auto", picked=pick, picked_int32=pick,
                                    picked_device=pick, e2e_ms=ms, e2e_int32_ms=ms, e2e_device_ms=ms, e2e_first_ms=ms)
    cpu = lambda g: dict(base, graph=g, kind="cpu", algorithm="dijkstra_cpu_parallel", e2e_ms=1000.0, threads=16)
    pd.DataFrame([gpu("path", "a", 10), gpu("path", "b", 20), auto("path", 20, "b"), cpu("path"),
                  gpu("ring", "a", 10), auto("ring", 30, "a"), cpu("ring"),
                  gpu("grid", "a", 10), auto("grid", 10, "a"), cpu("grid")]
                 ).to_csv(tmp_path / "GPU-2026-01-01-structure-big.csv", index=False)
    pd.DataFrame([gpu("path", "a", 10), auto("path", 10, "a"), cpu("path"),
                  gpu("ring", "a", 10), auto("ring", 10, "a"), cpu("ring")]
                 ).assign(e2e_rounds=3).to_csv(tmp_path / "GPU-2026-01-02-structure-again.csv", index=False)
    text = SU.size_finding(*SU.load_size(tmp_path, tags=("structure-big", "structure-again")))
    every = "float64, int32, on the device, first call"
    assert "within 1.25x + 2 ms in all four modes on 3 of 3 graphs" in text
    assert text.endswith(" Earlier runs of these graphs, which these rows replace, had auto's call past the bound on "
                         f"ring 5,000 (single calls: {every}; the same code now, a); path 5,000 (single calls: "
                         f"{every}; auto then ran b, now a).")
    assert "Earlier runs" not in SU.size_finding(*SU.load_size(tmp_path, tags=("structure-big",)))
