"""Notebook 11's logic without a GPU: finding and reading the tuned benchmark files, and the tuned line's targets from
synthetic rows -- met, not met, failed (unverified rows, never used as a time) and not measured (no file, no
row, no budget, another device)."""
import json
import re

import pytest

import tuned_synthetic as SYN
from apsp_kernels.study.seeds.tuned import figures as TF
from apsp_kernels.study.seeds.tuned import load as R
from apsp_kernels.study.seeds.tuned import verdicts as T


def run_of(tmp_path, rows, **kw):
    return R.load([SYN.write(tmp_path, rows, **kw)])


def status(rows, target, word):
    """The status of the criterion of ``target`` ("1", "2", "3") whose text holds ``word``."""
    r = rows[rows["target"].str.startswith(target + ".") & rows["criterion"].str.contains(word, regex=False)]
    assert len(r) == 1, (target, word, rows[["target", "criterion"]])
    return r.iloc[0]


def test_every_criterion_met(tmp_path):
    rows = T.evaluate(run_of(tmp_path, SYN.met_rows()).df)
    # the CPU Dijkstra's wall time over tuned_sparse's kernel time divides unlike times: not measured without a
    # wall time of the GPU code (a referee's audit of run L); every other criterion met
    assert list(rows["status"]) == ["met"] * 4 + ["not measured", "met"], rows[["criterion", "status", "reason"]]
    assert set(T.overall(rows)["status"]) == {"met", "not measured"}
    assert status(rows, "1", "throughput")["measured"] == "14 T updates/s"
    assert status(rows, "1", "fraction")["measured"] == "84.8%"
    ooc = status(rows, "2", "kernel time")
    assert ooc["value"] == pytest.approx(1.25) and "worst at n = 8192" in ooc["reason"]
    assert status(rows, "2", "budget")["value"] == pytest.approx(4.0)
    sp = status(rows, "3", "dijkstra_cpu_parallel")
    assert sp["measured"] == "15x kernel-only (GPU kernel / CPU wall time); end to end not measured"
    assert "tuned_sparse/256" in sp["reason"] and sp["value"] != sp["value"]      # the fastest batch; no verdict value
    h = status(rows, "3", "harish/atomic")
    assert h["value"] == pytest.approx(113.35) and h["measured"].endswith("kernel-only; end to end not measured")
    assert (rows["score"].dropna() >= 1).all()
    # with a wall time of every row, the CPU criterion is decided end to end
    with_wall = [dict(r, wall_ms=r["kernel_ms"] * (4 if r["algorithm"] == "tuned_sparse" else 1)) for r in SYN.met_rows()]
    sp = status(T.evaluate(run_of(tmp_path / "w", with_wall).df), "3", "dijkstra_cpu_parallel")
    assert sp["status"] == "not met" and sp["value"] == pytest.approx(15.0 / 4) and "3.75x end to end" in sp["measured"]


def test_criteria_not_met(tmp_path):
    rows_in = SYN.met_rows()
    rows_in[2] = SYN.row("tuned_fw", "", 16384, SYN.fw_ms(10e12))                    # 10 T/s, 61% of the limit
    rows_in[6] = SYN.row("tuned_fw_ooc", "", 32768, 3 * SYN.fw_ms(13e12, 32768), budget_bytes=2 ** 31)   # 2x
    rows_in[9] = SYN.row("tuned_sparse", "256", 16384, 500.0, kind="sparse")         # 3x CPU, 22.7x Harish
    rows_in[10] = SYN.row("tuned_sparse", "128", 16384, 600.0, kind="sparse")
    rows = T.evaluate(run_of(tmp_path, rows_in).df)
    for target, word in (("1", "throughput"), ("1", "fraction"), ("2", "budget"), ("3", "harish")):
        assert status(rows, target, word)["status"] == "not met", (target, word)
    assert status(rows, "2", "kernel time")["status"] == "met"        # the sizes both ran: 4096 and 8192 (1.2x, 1.25x)
    assert status(rows, "3", "dijkstra")["status"] == "not measured"  # unlike times: no verdict
    assert status(rows, "3", "dijkstra")["measured"].startswith("3x kernel-only")
    assert (rows.loc[rows["status"] == "not met", "score"] < 1).all()
    assert set(T.overall(rows)["status"]) == {"not met"}


def test_unverified_rows_fail_and_are_never_used_as_a_time(tmp_path):
    rows_in = SYN.met_rows()
    rows_in[2] = SYN.row("tuned_fw", "", 16384, 1.0, verified=False)                  # absurdly fast, and wrong
    rows_in.append(SYN.row("tuned_sparse", "512", 16384, 1.0, verified=False, kind="sparse", error="ValueError: boom"))
    rows_in.append(SYN.row("tuned_fw_ooc", "", 16384, 1.0, verified=False, budget_bytes=2 ** 28))
    rows = T.evaluate(run_of(tmp_path, rows_in).df)
    assert list(rows["status"]) == ["failed"] * 6, rows[["criterion", "status"]]
    assert rows["measured"].eq("-").all() and rows["value"].isna().all()
    assert "boom" in status(rows, "3", "harish")["reason"] and "512" in status(rows, "3", "harish")["reason"]
    assert "FAILED at n = 16384" in status(rows, "1", "throughput")["reason"]
    assert set(T.overall(rows)["status"]) == {"failed"}
    # a failed baseline has no time: the criterion is not measured, and says why
    rows_in = SYN.met_rows()
    rows_in[11] = SYN.row("harish", "atomic", 16384, 1.0, verified=False, kind="sparse")
    r = status(T.evaluate(run_of(tmp_path, rows_in).df), "3", "harish")
    assert r["status"] == "not measured" and "failed" in r["reason"] and r["value"] != r["value"]
    # the tables and sentences show a failed row as failed, without its time
    df = run_of(tmp_path, [SYN.row("tuned_fw", "", 16384, 1.0, verified=False), SYN.row("tuned_fw", "", 4096, 10.0)]).df
    t = R.rows_table(df)
    bad = t[t["verified"] == "FAILED"]
    assert len(bad) == 1 and bad["kernel time (ms)"].isna().all() and bad["throughput (G updates/s)"].isna().all()
    assert R.closing(df) == ["`tuned_fw`: 6.87 T updates/s at n = 4096, 41.6% of the int32 add-min limit measured in the "
                             "same run; verified at n = 4096 (1 size); FAILED at n = 16384."]
    assert "1 of 2 rows FAILED" in R.verification(df)
    # above the measured limit (tuned_fw did 101-107% on the H100): said, with what the limit is
    fast = R.closing(run_of(tmp_path, [SYN.row("tuned_fw", "", 4096, 0.5)]).df)[0]
    assert "above 100%" in fast and "micro-kernel" in fast


def test_not_measured_without_a_file_a_row_a_budget_or_an_h100(tmp_path):
    empty = R.load_tuned(tmp_path / "nothing")
    assert not empty.measured and empty.files == []
    rows = T.evaluate(empty.df)
    assert list(rows["status"]) == ["not measured"] * 6 and rows["measured"].eq("-").all()
    assert rows["reason"].str.contains("no tuned benchmark has been recorded yet").all()
    assert "not measured" in R.note(empty, R.load_reference(tmp_path / "nothing")).lower()
    # rows of other codes only; a tuned_fw_ooc without its budget; tuned_fw at other sizes only
    rows_in = [r for r in SYN.met_rows() if r["algorithm"] != "tuned_sparse"]
    rows_in = [{k: v for k, v in r.items() if k != "budget_bytes"} for r in rows_in if not (r["algorithm"] == "tuned_fw"
                                                                                          and r["n"] == 16384)]
    rows = T.evaluate(run_of(tmp_path, rows_in).df)
    assert status(rows, "1", "throughput")["status"] == "not measured"
    assert "no tuned_fw row at n = 16384 (its rows: n = 4096, 8192)" in status(rows, "1", "throughput")["reason"]
    assert "no device memory budget" in status(rows, "2", "budget")["reason"]
    assert status(rows, "2", "kernel time")["status"] == "met"
    assert "no tuned_sparse row in the run" in status(rows, "3", "harish")["reason"]
    # a missing baseline at that size
    rows_in = [r for r in SYN.met_rows() if r["algorithm"] != "dijkstra_cpu_parallel"]
    r = status(T.evaluate(run_of(tmp_path, rows_in).df), "3", "dijkstra")
    assert r["status"] == "not measured" and "--cpu" in r["reason"]
    # the targets are set for one H100
    other = [dict(r, device="NVIDIA A100-SXM4-80GB") for r in SYN.met_rows()]
    rows = T.evaluate(run_of(tmp_path / "a100", other, device="NVIDIA A100-SXM4-80GB").df)
    assert list(rows["status"]) == ["not measured"] * 6 and rows["reason"].str.contains("not an H100").all()
    # the number is shown, not judged (the CPU Dijkstra's, unlike times, has none: its text says both)
    assert rows["value"].notna().sum() == 5 and rows["measured"].ne("-").all()


def test_tuned_fw_ooc_absent_from_the_registry_is_said(tmp_path, monkeypatch):
    from apsp_kernels.algorithms import registry
    monkeypatch.delitem(registry.ALGORITHMS, "tuned_fw_ooc", raising=False)
    rows_in = [r for r in SYN.met_rows() if r["algorithm"] != "tuned_fw_ooc"]
    rows = T.evaluate(run_of(tmp_path, rows_in).df)
    r = status(rows, "2", "kernel time")
    assert r["status"] == "not measured" and "not in this registry" in r["reason"]
    # its rows, where a file holds them, are still read and judged (the code of another branch)
    df = run_of(tmp_path, SYN.met_rows()).df
    assert set(df.loc[df["algorithm"] == "tuned_fw_ooc", "line"]) == {"not in this registry"}
    assert status(T.evaluate(df), "2", "kernel time")["status"] == "met"
    assert "tuned_fw_ooc" not in R.tuned_codes()


def test_files_newest_tuned_run_and_reference(tmp_path):
    SYN.write(tmp_path, SYN.met_rows(), date="2026-11-30")
    new = SYN.write(tmp_path, SYN.met_rows(), date="2026-12-02")
    ooc = SYN.write(tmp_path, SYN.met_rows()[4:7], date="2026-12-02", tag="tuned-ooc")
    SYN.write(tmp_path, SYN.met_rows(), date="2026-12-03", tag="other")              # not a tuned run
    ref = SYN.write(tmp_path, SYN.met_rows()[3:4], tag=None, date="2026-11-22")
    assert R.find_tuned(tmp_path) == sorted([new, ooc]) and R.find_reference(tmp_path) == ref
    assert R.find_tuned(new) == [new]                                                 # one file named
    b = R.load_tuned(tmp_path)
    assert b.date == "2026-12-02" and b.device == SYN.H100 and b.commits == ["0123456789ab"] and len(b.provs) == 2
    assert set(b.df["source"]) == {new.name, ooc.name}
    # variants stay text ("256", not 256.0), a missing one is ''
    only = R.load([SYN.write(tmp_path / "v", [SYN.row("tuned_sparse", 256, 16384, 1.0, kind="sparse"),
                                              SYN.row("tuned_fw", None, 16384, 1.0)])]).df
    assert list(only["code"]) == ["tuned_sparse/256", "tuned_fw"]


def test_the_index_says_where_the_numbers_come_from(tmp_path, monkeypatch):
    from apsp_kernels import paths
    monkeypatch.setattr(paths, "REPORTS", tmp_path / "reports")
    R.record_source(R.load_tuned(tmp_path / "none"))
    s = json.loads((tmp_path / "reports" / "sources" / "11_tuned.json").read_text())
    assert s["missing"].startswith("no device measurement yet: ")
    R.record_source(run_of(tmp_path, SYN.met_rows()))
    s = json.loads((tmp_path / "reports" / "sources" / "11_tuned.json").read_text())
    assert (s["device"], s["date"], s["commit"]) == (SYN.H100, "2026-12-01", "0123456789ab") and "missing" not in s


def test_limits_and_figures(tmp_path):
    b = run_of(tmp_path, SYN.met_rows())
    ref = R.load([SYN.write(tmp_path / "ref", [SYN.row("hochberg_naive", "", 4096, 300.0, kind="bandwidth")], tag=None)])
    lt = R.limits_table(b, ref)
    assert set(lt["limit"]) == {"int32 add-min limit", "copy-bandwidth limit"}
    assert lt.loc[lt["limit"] == "int32 add-min limit", "median (G updates/s)"].iloc[0] == pytest.approx(16500)
    from apsp_kernels.study.show import tables
    tables.frame(lt), tables.frame(R.rows_table(b.df))                # units in every numeric header
    fig = TF.roofline(b, ref)
    assert [ax.get_title() for ax in fig.axes] == ["bound by the int32 add-min limit", "bound by the copy-bandwidth limit"]
    labels = [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
    assert "hochberg_naive (faithful, run of 2026-12-01)" in labels and "tuned_sparse/256 (tuned)" in labels
    rows = T.evaluate(b.df)
    assert TF.targets_figure(b, rows) is not None
    empty = R.load([])
    assert TF.targets_figure(empty, T.evaluate(empty.df)) is None
    assert len(TF.roofline(empty, ref).axes) == 1 and len(TF.roofline(empty, None).axes) == 1


def test_style_colours_the_status(tmp_path):
    html = T.style(T.evaluate(run_of(tmp_path, SYN.met_rows()).df)).to_html()
    assert R.STATUS_COLOURS["met"] in html and ">reason<" in html and ">score<" not in html and ">value<" not in html


@pytest.mark.slow
def test_notebook_11_renders_a_synthetic_run_and_no_run(tmp_path):
    """The notebook itself through its parameters: a folder with a synthetic tuned run (its targets met), and an
    empty folder (every target not measured, no tuned number anywhere)."""
    import nbformat
    import papermill as pm
    from apsp_kernels import paths
    SYN.write(tmp_path / "bench", SYN.met_rows())
    (tmp_path / "none").mkdir()
    nb = paths.ROOT / "notebooks" / "11_tuned.ipynb"
    for folder in ("bench", "none"):
        out = tmp_path / f"{folder}.ipynb"
        pm.execute_notebook(str(nb), str(out), cwd=str(nb.parent), parameters=dict(profile="smoke", batch=str(tmp_path / folder)),
                            progress_bar=False, kernel_name="python3")
        cells = nbformat.read(out, as_version=4).cells
        assert not [o for c in cells for o in c.get("outputs", []) if o.get("output_type") == "error" or o.get("name") == "stderr"]
        text = json.dumps([o.get("data", o.get("text")) for c in cells for o in c.get("outputs", [])])
        if folder == "bench":
            assert ">met<" in text and "14 T updates/s" in text and (paths.FIGURES / "smoke" / "fig_tuned_targets.png").exists()
            assert "`tuned_fw`: 14 T updates/s at n = 16384, 84.8% of the int32 add-min limit" in text
        else:
            assert ">not measured<" in text and "Not measured yet" in text and "No figure of the targets" in text
            assert ">met<" not in text and ">failed<" not in text
            assert set(re.findall(r"[\d.]+ T updates/s", text)) == {"13.5 T updates/s"}       # the target's, none measured


def test_the_device_command_is_the_script_that_writes_the_tuned_file():
    from apsp_kernels import paths
    script = (paths.ROOT / R.DEVICE_COMMAND).read_text()
    assert "--tag $TAG" in script and "TAG=tuned" in script and R.TAG == "tuned"


def test_the_suite_reads_auto_rows_from_the_newer_of_its_two_files(tmp_path):
    """The suite's own auto rows (the same run as the CPU rows they are divided by) unless an ``--auto-only`` run is
    of a later date (never a day-older auto file beside newer suite rows)."""
    import pandas as pd
    from apsp_kernels.study.seeds.tuned import suite as SU
    suite_rows = pd.DataFrame(dict(graph=["ring", "ring"], n=[16, 16], kind=["gpu", "auto"], picked=["", "new"]))
    auto_rows = pd.DataFrame(dict(graph=["ring"], n=[16], kind=["auto"], picked=["old"]))
    suite_rows.to_csv(tmp_path / "GPU-2026-11-26-structure.csv", index=False)
    auto_rows.to_csv(tmp_path / "GPU-2026-11-25-auto.csv", index=False)
    rows, auto = SU.load(tmp_path)
    assert len(rows) == 2 and auto.picked.tolist() == ["new"]
    auto_rows.assign(picked="same day").to_csv(tmp_path / "GPU-2026-11-26-auto.csv", index=False)
    assert SU.load(tmp_path)[1].picked.tolist() == ["new"]
    import json                                        # of one day: the provenance's timestamps order them
    for tag, ts in (("structure", "2026-11-26T09:00:00+00:00"), ("auto", "2026-11-26T10:00:00+00:00")):
        (tmp_path / f"GPU-2026-11-26-{tag}.provenance.json").write_text(json.dumps({"timestamp": ts}))
    assert SU.load(tmp_path)[1].picked.tolist() == ["same day"]
    auto_rows.assign(picked="later").to_csv(tmp_path / "GPU-2026-11-27-auto.csv", index=False)
    assert SU.load(tmp_path)[1].picked.tolist() == ["later"]
