"""Notebook 09's study modules (nthu_report, nthu_verdicts, nthu_figures): the recorded one-GPU run
judged as the seed's claims ask, the two-GPU claims 'not testable' until a two-GPU run exists, and
judged once one does -- shown here with SYNTHETIC two-GPU results written to a temporary folder
(never data/results/), in both directions (claims that hold, and claims that fail)."""
import json

import numpy as np
import pandas as pd
import pytest

from apsp_kernels import claims
from apsp_kernels.algorithms.gpu.fw_nthu import padded_size
from apsp_kernels.algorithms.gpu.multi import schedule
from apsp_kernels.study import nthu_figures as NF, nthu_report as R, nthu_verdicts as NV, tables

C = claims.load()


@pytest.fixture(scope="module")
def single():
    runs = R.find_runs("single", "latest", roots=[R.paths.RECORDED])
    if not runs:
        pytest.skip("no recorded *-nthu-single run in data/results")
    return R.load(runs, "single")


def _verdicts(rows):
    return {r["claim"]: r for r in rows}


def test_every_nthu_claim_gets_one_row(single):
    rows = NV.rows(C, single, pd.DataFrame())
    assert sorted(r["claim"] for r in rows) == sorted(c for c in C if c.startswith("nthu_"))
    assert all(C[r["claim"]]["notebook"] == R.NB for r in rows)


def test_the_recorded_single_gpu_run(single):
    """What the H100 run of 2026-11-23 says (kernel times to 0.1%: the verdicts are far from any edge)."""
    v = _verdicts(NV.single_rows(C, single))
    assert v["nthu_bigger_blocks_faster"]["verdict"] == "reproduced"
    assert v["nthu_16_beats_32_dim3"]["verdict"] == "not reproduced"            # 32 beats 16 on the H100
    assert v["nthu_int_launch_32_best"]["verdict"] == "reproduced"
    assert v["nthu_branch_vs_select"]["verdict"] == "differs in magnitude"      # select up to 2.5x faster
    assert v["nthu_phase1_launch_overhead"]["verdict"] == "reproduced"
    assert v["nthu_phase3_vs_sequential_ratio"]["verdict"] == "differs in magnitude"
    for r in v.values():        # the basis is computed from the records and said in every reason
        assert "1 independent process (20261123-021527-nthu-single) with up to 2 repeats" in r["reason"]
        assert "provisional" in r["reason"]
    assert "the seed's own phase table: 1.13x" in v["nthu_16_beats_32_dim3"]["reason"]


def test_two_gpu_claims_wait_for_a_two_gpu_run(single):
    v = _verdicts(NV.multi_rows(C, pd.DataFrame()))
    for cid in ("nthu_multi_2gpu_speedup", "nthu_multi_poor_at_small_n", "nthu_stage_comm_share",
                "nthu_multi_bandwidth_grows_with_bs"):
        assert v[cid]["verdict"] == "not testable" and v[cid]["reason"].startswith(R.PENDING)
    assert v["nthu_stage_bytes_per_round"]["verdict"] == "reproduced"            # the schedule's arithmetic
    assert "whole: 145 MB; rowcol: 3.08 MB; row: 1.54 MB" == v["nthu_stage_bytes_per_round"]["ours_text"]


# ------------------------------------------------------------------ synthetic two-GPU results
STRONG = (2048, 4096, 8192, 16384, 32768)


def _t1(n):
    return 15260.0 * (n / 32768) ** 3 + 2.0            # ms on one GPU


def fake_multi(folder, speedup=lambda n: 2 / (1 + 2048 / n), shares=(0.45, 0.08, 0.02), bw=(40, 80, 160, 300),
               repeats=2, jitter=0.01, seed=0):
    """A *-nthu-multi folder as scripts/nthu_measure.py writes it, with chosen outcomes."""
    rng = np.random.default_rng(seed)
    rows, rounds = [], []

    def add(n, P, sync, kernel, label, t, share=0.05, bandwidth=None):
        for rep in range(repeats):
            tt = t * (1 + jitter * rng.standard_normal())
            rows.append(dict(algorithm="nthu_multi", variant=sync, device="gpu", graph="kemp 2-6", status="ok", n=n,
                             n_gpus=P, kernel=kernel, label=label, repeat=rep, seed=n, kernel_ms=tt, kernel_ms_max=tt,
                             comm_ms=tt * share if P > 1 else 0.0, compute_ms=tt * (1 - share), phase1_ms=1.0,
                             phase2_ms=2.0, phase3_ms=tt - 3, received_bytes=1e6 if P > 1 else 0,
                             payload_bytes_per_round=1e6, bandwidth_GBps=bandwidth if P > 1 else None, verified=True,
                             verified_by="one-GPU result" if P > 1 else "cpu reference"))
            K = 8
            rounds.append(pd.DataFrame(dict(job=len(rows) - 1, rank=0, comm_ms=[0.1] * K, phase1_ms=[0.01] * K,
                                            phase2_ms=[0.02] * K, phase3_ms=[tt / K] * K, received_bytes=[10] * K,
                                            round=range(K))))
    for n in STRONG:
        add(n, 1, "row", "b32-dim3-branch", "strong", _t1(n))
        for sync in ("row", "rowcol", "whole"):
            add(n, 2, sync, "b32-dim3-branch", "strong", _t1(n) / speedup(n) * (1.0 if sync == "row" else 1.3))
    for bs, b in zip((8, 16, 32), bw):
        add(6000, 2, "row", f"b{bs}-dim3-branch", "strong", 100.0, bandwidth=b)
    for sync, share in zip(("whole", "rowcol", "row"), shares):        # bs 64: the stage table's runs
        add(6000, 2, sync, "b64-dim3-branch", "strong", 50.0, share=share, bandwidth=bw[3] if sync == "row" else 1.0)
    folder.mkdir(parents=True)
    pd.DataFrame(rows).to_csv(folder / "nthu-multi.csv", index=False)
    pd.concat(rounds).to_csv(folder / "nthu-multi-rounds.csv.gz", index=False)
    (folder / "provenance.json").write_text(json.dumps(dict(gpu="NVIDIA H200", gpu_count=2, nccl_version="2.28.9",
                                                            launched_by="spawn", git_commit="0" * 40,
                                                            timestamp="2026-11-24T00:00:00+00:00")))
    return folder


def test_two_gpu_claims_hold_on_synthetic_results(tmp_path):
    for i in range(3):                          # three independent processes: intervals over processes
        fake_multi(tmp_path / f"2026112{i}-000000-nthu-multi", seed=i)
    runs = R.find_runs("multi", "all", roots=[tmp_path])
    multi = R.load(runs, "multi")
    v = _verdicts(NV.multi_rows(C, multi))
    assert v["nthu_multi_2gpu_speedup"]["verdict"] == "reproduced"              # 1.78x and 1.88x at 16384, 32768
    assert v["nthu_multi_2gpu_speedup"]["matched_n"] == "16384, 32768"
    assert v["nthu_multi_poor_at_small_n"]["verdict"] == "reproduced"           # rises from 1x at 2048
    assert v["nthu_stage_comm_share"]["verdict"] == "reproduced"
    assert v["nthu_multi_bandwidth_grows_with_bs"]["verdict"] == "reproduced"
    assert "3 independent processes" in v["nthu_multi_2gpu_speedup"]["reason"]
    assert "with up to 2 repeats per setting" in v["nthu_multi_2gpu_speedup"]["reason"]
    assert v["nthu_multi_bandwidth_grows_with_bs"]["per_size"].count("n=6000") == 3
    # the tables and figures of the two-GPU section build
    assert {"ours: broadcast share (%)", "seed: Memcpy share (%)"} <= set(R.stage_table(multi).columns)
    sc = R.scaling_table(multi)
    assert sc.loc[(sc["n"] == 32768) & (sc["GPUs (count)"] == 2) & (sc["design"] == "row"), "speed-up over one GPU (x)"].iloc[0] == \
        pytest.approx(2 / (1 + 2048 / 32768), rel=0.05)
    tables.frame(sc), tables.frame(R.stage_table(multi))                       # units in every header
    for fig in (NF.scaling(multi), NF.per_round(R.load_rounds(runs), multi)):
        assert fig.axes[0].lines
    assert "P GPUs: `20261121-000000-nthu-multi`: 2 x NVIDIA H200, NCCL 2.28.9" in R.measurements([], runs, pd.DataFrame(), multi).note


def test_two_gpu_claims_fail_on_synthetic_results(tmp_path):
    """The rules can fail: no speed-up growth, a flat 1.2x, communication shares the wrong way round,
    bandwidth falling with bs."""
    fake_multi(tmp_path / "20261120-000000-nthu-multi", speedup=lambda n: 1.2, shares=(0.02, 0.08, 0.45),
               bw=(300, 160, 80, 40))
    multi = R.load(R.find_runs("multi", "all", roots=[tmp_path]), "multi")
    v = _verdicts(NV.multi_rows(C, multi))
    assert v["nthu_multi_2gpu_speedup"]["verdict"] == "differs in magnitude"
    assert "1 independent process" in v["nthu_multi_2gpu_speedup"]["reason"]
    assert v["nthu_multi_poor_at_small_n"]["verdict"] in ("inconclusive", "not reproduced")
    assert v["nthu_stage_comm_share"]["verdict"] == "not reproduced"
    assert v["nthu_multi_bandwidth_grows_with_bs"]["verdict"] == "not reproduced"


def test_a_two_gpu_run_without_the_needed_settings_says_what_is_missing(tmp_path):
    d = fake_multi(tmp_path / "20261120-000000-nthu-multi")
    df = pd.read_csv(d / "nthu-multi.csv")
    df[df["n"] != 6000].to_csv(d / "nthu-multi.csv", index=False)
    v = _verdicts(NV.multi_rows(C, R.load([d], "multi")))
    assert v["nthu_stage_comm_share"]["verdict"] == "not testable"
    assert "no two-GPU run of all three designs at n = 6000, bs 64" in v["nthu_stage_comm_share"]["reason"]
    assert v["nthu_multi_2gpu_speedup"]["verdict"] == "reproduced"


def test_find_runs(tmp_path):
    for name in ("20261120-000000-nthu-multi", "20261121-000000-nthu-multi"):
        fake_multi(tmp_path / name)
    (tmp_path / "20261122-000000-nthu-multi").mkdir()                # no csv: not a run
    names = lambda w: [d.name for d in R.find_runs("multi", w, roots=[tmp_path])]
    assert names("all") == ["20261120-000000-nthu-multi", "20261121-000000-nthu-multi"]
    assert names("latest") == ["20261121-000000-nthu-multi"] and names("none") == []
    assert names("20261120") == ["20261120-000000-nthu-multi"]
    assert names(str(tmp_path / "20261121-000000-nthu-multi")) == ["20261121-000000-nthu-multi"]
    with pytest.raises(FileNotFoundError):
        R.find_runs("multi", "19990101", roots=[tmp_path])


def test_the_seed_tables_and_ours_in_their_shape(single):
    t = R.phase_table(single, 6000)
    assert list(t["block size bs (vertices)"]) == [2, 4, 8, 16, 32, 64]
    row = t[t["block size bs (vertices)"] == 16].iloc[0]
    assert row["K (count)"] == 376 and row["sequential ratio"] == "1 : 752 : 141376" and row["seed: K (count)"] == 375
    assert row["seed: time ratio"] == "1 : 2.51 : 141"
    st = R.stage_table(pd.DataFrame())
    assert list(st["seed (MB)"]) == [144.77, 3.0802, 1.5401, 1.5401]
    N = padded_size(6000, 64)
    assert list(st["bytes per round, ours (MB)"][:3]) == [schedule.payload_bytes(s, 64, N) / 1e6 for s in ("whole", "rowcol", "row")]
    assert R.plan_table(65536, 32, (4, 8))["matrix on each GPU (GB)"].round(1).tolist() == [17.2] * 6
    assert "so 32 is the faster" in R.findings(single)


def test_basis_counts_processes_and_repeats():
    df = pd.DataFrame(dict(variant=["a"] * 3 + ["b"], n=1, process=["p1", "p1", "p2", "p2"]))
    assert R.basis(df).startswith("2 independent processes (p1, p2) with up to 2 repeats per setting: 95% intervals")
    assert "provisional" in R.basis(df[df["process"] == "p1"])
    num, den = {"p1": np.array([2.0, 2.2]), "p2": np.array([2.1])}, {"p1": np.array([1.0]), "p2": np.array([1.05])}
    v, lo, hi = R.ratio(num, den)
    assert lo < v < hi and v == pytest.approx(2.1 / 1.025)         # medians of the processes' medians
    v, lo, hi = R.ratio({"p1": np.array([2.0, 2.2])}, {"p1": np.array([1.0, 1.1])})
    assert (v, lo, hi) == pytest.approx((2.1 / 1.05, 2.0 / 1.1, 2.2 / 1.0))      # one process: the repeats' range


@pytest.mark.slow
def test_notebook_09_judges_synthetic_two_gpu_runs(tmp_path, monkeypatch):
    """The notebook itself, given a folder of synthetic two-GPU runs through its parameters: its
    two-GPU section, figures and verdicts (written to the temporary reports folder)."""
    import papermill as pm
    from apsp_kernels import paths
    d = fake_multi(tmp_path / "runs" / "20261120-000000-nthu-multi")
    out = tmp_path / "09.ipynb"
    pm.execute_notebook(str(R.paths.ROOT / "notebooks" / "09_nthu.ipynb"), str(out), cwd=str(R.paths.ROOT / "notebooks"),
                        parameters=dict(profile="smoke", multi_runs=str(d)), progress_bar=False, kernel_name="python3")
    v = pd.read_csv(paths.REPORTS / "verdicts" / "09_nthu.csv").set_index("claim")["verdict"]
    assert v["nthu_multi_2gpu_speedup"] == "reproduced" and v["nthu_16_beats_32_dim3"] == "not reproduced"
    text = out.read_text()
    assert (paths.FIGURES / "smoke" / "fig_nthu_scaling.png").exists() and R.PENDING + "." not in text


def test_the_device_commands_are_the_device_scripts():
    """The commands the notebook prints while two-GPU results are pending are those that
    scripts/device_nthu_multi.sh runs (and the README lists)."""
    import re
    text = re.sub(r"\s+", " ", (R.paths.ROOT / "scripts" / "device_nthu_multi.sh").read_text().replace("\\\n", " "))
    readme = re.sub(r"\s+", " ", (R.paths.ROOT / "README.md").read_text())
    for cmd in R.DEVICE_COMMANDS:
        assert cmd in text and cmd.split("multi ", 1)[1] in readme
