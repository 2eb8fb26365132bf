"""Notebook 09's four-GPU section (seeds/nthu/four_gpus.py) and the scaling figure's machines, on SYNTHETIC frames
and run folders written to a temporary folder (never data/results/, reports/ or figures/): the table's arithmetic,
machines never pooled, the line where no four-GPU run is recorded, and such runs kept out of the two-GPU claims."""
import json

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from apsp_kernels.study.registry import STUDIES
from apsp_kernels.study.seeds.nthu import figures as NF, four_gpus as FG
from apsp_kernels.study.seeds.nthu import study as NS
from apsp_kernels.study.show import tables

KERNEL = FG.KERNEL


def _rows(machine, process, n, P, times, share=0.0, sync="row", label="strong", n0=None, gpu="NVIDIA H200"):
    """One process's repeats of one setting: the slowest rank's time ``times`` (ms), ``share`` of it broadcasting."""
    return [dict(machine=machine, gpu=gpu, process=process, lease=process, n=n, n_gpus=P, variant=sync, kernel=KERNEL,
                 status="ok", label=label, weak_n0=n0, repeat=i, kernel_ms=t, kernel_ms_max=t, comm_ms=t * share,
                 comm_share=share) for i, t in enumerate(times)]


def _four():
    """A four-GPU machine, two processes: at 16384 one GPU 2000 ms, two 1000 / 1100 ms, four 520 / 560 ms."""
    m = "4 x NVIDIA H200"
    rows = []
    for p, f in (("p1", 1.0), ("p2", 1.1)):
        rows += _rows(m, p, 16384, 1, [2000 * f, 2000 * f])
        rows += _rows(m, p, 16384, 2, [1000 * f, 1000 * f], share=0.01 * f)
        rows += _rows(m, p, 16384, 4, [500 * f, 540 * f], share=0.02 * f)
    return pd.DataFrame(rows)


def _reference():
    """A two-GPU machine (the paper's setting), one process: 2048 and 16384 on one GPU and two."""
    m = "2 x NVIDIA H200"
    rows = _rows(m, "r1", 2048, 1, [6.0, 6.2]) + _rows(m, "r1", 2048, 2, [5.8, 6.0], share=0.3)
    rows += _rows(m, "r1", 16384, 1, [1900.0]) + _rows(m, "r1", 16384, 2, [980.0, 990.0], share=0.012)
    return pd.DataFrame(rows)


def test_the_strong_table_is_speed_up_and_efficiency_over_the_same_machine_s_one_gpu():
    t = FG.strong_table(_four()).set_index("GPUs (count)")
    t1 = np.median([2000.0, 2200.0])                     # median over processes of each process's median
    t2, t4 = np.median([1000.0, 1100.0]), np.median([520.0, 572.0])
    assert t.loc[1, "device time (ms)"] == pytest.approx(t1) and t.loc[1, "speed-up over one GPU (x)"] == pytest.approx(1)
    assert t.loc[2, "speed-up over one GPU (x)"] == pytest.approx(t1 / t2)
    assert t.loc[4, "speed-up over one GPU (x)"] == pytest.approx(t1 / t4)
    assert t.loc[4, "efficiency (%)"] == pytest.approx(100 * t1 / (4 * t4))
    assert t.loc[2, "broadcast share (%)"] == pytest.approx(100 * np.median([0.01, 0.011]))
    assert np.isnan(t.loc[1, "broadcast share (%)"])     # one GPU broadcasts nothing
    assert t["processes (count)"].tolist() == [2, 2, 2] and t["repeats (count)"].tolist() == [2, 2, 2]
    tables.frame(t.reset_index())                        # units in every header


def test_machines_are_never_pooled():
    """The same n on two machines: each speed-up over its own machine's one GPU, one row each."""
    both = pd.concat([_four(), _reference()], ignore_index=True)
    t = FG.strong_table(both).set_index(["machine", "n (vertices)", "GPUs (count)"])
    assert t.loc[("2 x NVIDIA H200", 16384, 2), "speed-up over one GPU (x)"] == pytest.approx(1900 / 985)
    assert t.loc[("4 x NVIDIA H200", 16384, 2), "speed-up over one GPU (x)"] == \
        pytest.approx(np.median([2000.0, 2200.0]) / 1050)


def test_the_other_designs_and_kernels_stay_out():
    d = pd.concat([_four(), pd.DataFrame(_rows("4 x NVIDIA H200", "p1", 16384, 4, [100.0], sync="whole"))])
    d = pd.concat([d, pd.DataFrame(_rows("4 x NVIDIA H200", "p1", 16384, 4, [50.0])).assign(kernel="b64-dim3-branch")])
    assert FG.strong_table(d).equals(FG.strong_table(_four()))


def test_weak_scaling_where_recorded():
    m = "4 x NVIDIA H200"
    rows = _rows(m, "w1", 8192, 1, [250.0]) + _rows(m, "w1", 16384, 4, [520.0], label="weak", n0=8192)
    rows += _rows(m, "w1", 11585, 2, [360.0], label="weak", n0=8192)
    w = FG.weak_table(pd.DataFrame(rows)).set_index("GPUs (count)")
    assert w.loc[4, "weak efficiency (%)"] == pytest.approx(100 * 250 * 2 / 520)       # T(1, n0) sqrt(4) / T(4, 2 n0)
    assert w.loc[2, "weak: n0 (vertices)"] == 8192 and w.loc[4, "n (vertices)"] == 16384
    tables.frame(w.reset_index())
    text = FG.findings(FG.strong_table(pd.DataFrame(rows)), w.reset_index())
    assert f"from n0 = 8192 on 4 GPUs (n = 16384): {100 * 250 * 2 / 520:.3g}% efficient" in text
    assert FG.weak_table(_four()).empty and "No weak-scaling run is recorded" in FG.findings(FG.strong_table(_four()))


def test_the_findings_are_computed_from_the_table():
    t = FG.strong_table(_four())
    text = FG.findings(t)
    s4 = t.loc[t["GPUs (count)"] == 4, "speed-up over one GPU (x)"].iloc[0]
    assert "on 4 x NVIDIA H200 at n = 16384: " in text and f"{s4:.3g}x on 4 GPUs" in text
    assert "Each number rests on one process" not in text          # two processes here
    one = FG.findings(FG.strong_table(_four().query("process == 'p1'")))
    assert "Each number rests on one process on one machine lease (no interval), up to 2 repeats a setting" in one


def _folder(path, gpu_count, gpu="NVIDIA H200", rows=None):
    path.mkdir(parents=True)
    pd.DataFrame(rows if rows is not None else _four().query("process == 'p1'").drop(columns=["machine", "gpu", "process",
                                                                                                    "lease", "comm_share"])
                 ).to_csv(path / "nthu-multi.csv", index=False)
    prov = dict(gpu=gpu, git_commit="f" * 40, timestamp="2026-11-28T16:55:02+00:00", nccl_version="2.28.9",
                boot_id=path.name)
    if gpu_count is not None:
        prov["gpu_count"] = gpu_count
    (path / "provenance.json").write_text(json.dumps(prov))
    return path


def test_without_a_four_gpu_run_the_section_says_so_in_one_line(tmp_path):
    assert FG.section(roots=[tmp_path]).text == FG.MISSING
    _folder(tmp_path / "20261123-000000-nthu-multi", 2)                 # a two-GPU machine only
    _folder(tmp_path / "20261124-000000-nthu-multi", None)              # no count recorded: not beyond two
    s = FG.section(roots=[tmp_path])
    assert s.runs == [] and s.strong.empty and s.text == FG.MISSING and "\n" not in FG.MISSING


def test_a_four_gpu_run_is_found_and_named_with_its_provenance(tmp_path):
    _folder(tmp_path / "20261123-000000-nthu-multi", 2)
    four = _folder(tmp_path / "20261128-000000-nthu-multi", 4)
    s = FG.section(roots=[tmp_path])
    assert s.runs == [four] and set(s.df["machine"]) == {"4 x NVIDIA H200"}
    assert "`20261128-000000-nthu-multi`: 4 x NVIDIA H200, commit ffffffffffff, 2026-11-28, NCCL 2.28.9" in s.text
    assert s.strong["GPUs (count)"].tolist() == [1, 2, 4]


def test_a_four_gpu_machine_judges_no_two_gpu_claim_and_forms_no_campaign(tmp_path):
    two = _folder(tmp_path / "20261123-000000-nthu-multi", 2)
    four = _folder(tmp_path / "20261124-000000-nthu-multi", 4)
    assert NS._two_gpu_machines([two, four]) == [two]
    multi = STUDIES["nthu"].confirming[1]
    assert [(b.name, b.files) for b in multi.batches((tmp_path,))] == [
        ("20261123-nthu-multi (1 runs, on 2 x NVIDIA H200)", (two,))]


def _labels(ax):
    return [l.get_label() for l in ax.lines if not l.get_label().startswith("_")]


def test_the_scaling_figure_without_four_gpu_rows():
    fig = NF.scaling(_reference())
    ax1, ax2 = fig.axes[:2]
    assert "row, 2 GPUs on 2 x NVIDIA H200" in _labels(ax1) and not any("4 GPUs" in l for l in _labels(ax1))
    assert not any("ideal on 4 GPUs" in l for l in _labels(ax1))
    pts = [l for l in ax1.lines if l.get_linestyle() == "None" and len(l.get_xdata())]
    assert [len(p.get_xdata()) for p in pts] == [4]                   # every two-GPU repeat a point
    plt.close(fig)
    ref = _reference().drop(columns="machine")                          # without machines: the model of card names it
    fig = NF.scaling(ref)
    assert "row, 2 GPUs on NVIDIA H200" in _labels(fig.axes[0])
    plt.close(fig)


def test_the_scaling_figure_with_four_gpu_rows_draws_each_machine_and_p_apart():
    fig = NF.scaling(_reference(), four=_four())
    ax1, ax2 = fig.axes[:2]
    got = _labels(ax1)
    for want in ("row, 2 GPUs on 2 x NVIDIA H200", "row, 2 GPUs on 4 x NVIDIA H200", "row, 4 GPUs on 4 x NVIDIA H200",
                 "ideal on 4 GPUs: 4x (not claimed)", "points: each repeat of each process"):
        assert want in got
    line = next(l for l in ax1.lines if l.get_label() == "row, 4 GPUs on 4 x NVIDIA H200")
    assert line.get_ydata()[0] == pytest.approx(np.median([2000.0, 2200.0]) / np.median([520.0, 572.0]))
    pts = [l for l in ax1.lines if l.get_linestyle() == "None" and len(l.get_xdata())]
    assert sorted(len(p.get_xdata()) for p in pts) == [4, 4, 4]          # 2 processes x 2 repeats on the 4-GPU machine
    four_pts = max(pts, key=lambda p: max(p.get_ydata()))
    assert sorted(four_pts.get_ydata()) == pytest.approx(sorted([2000 / 500, 2000 / 540, 2200 / 550, 2200 / 594]))
    assert "row, 4 GPUs on 4 x NVIDIA H200" in _labels(ax2)
    plt.close(fig)


def test_the_scaling_figure_with_nothing_recorded_says_so():
    fig = NF.scaling(pd.DataFrame(), four=pd.DataFrame())
    assert any("no two-GPU run recorded" in t.get_text() for t in fig.axes[0].texts)
    plt.close(fig)
