"""Notebook 09's study modules (nthu_report, nthu_verdicts, nthu_figures): the recorded one-GPU runs
(3 processes, pooled) judged as the seed's claims ask, the two-GPU claims 'not testable' until a
two-GPU run exists, and judged once one does -- shown here with SYNTHETIC two-GPU results written to
a temporary folder (never data/results/), in both directions (claims that hold, and claims that
fail), and with the recorded 2 x H200 runs (strong and weak scaling)."""
import json

import numpy as np
import pandas as pd

from apsp_kernels.study.method import estimate
import pytest

from apsp_kernels.study.method import claims
from apsp_kernels.algorithms.gpu.fw_nthu import padded_size
from apsp_kernels.algorithms.gpu.multi import schedule
from apsp_kernels.measure.provenance import same_source
from apsp_kernels.study.seeds.nthu import figures as NF, load as R, scaling as SC, study as NS, verdicts as NV
from apsp_kernels.study.show import tables

C = claims.load()


SINGLE_RUNS = ("20261123-021527-nthu-single", "20261123-093930-nthu-single", "20261123-094118-nthu-single")


def _recorded(kind, which, cards=""):
    runs = R.find_runs(kind, which, roots=[R.paths.RECORDED], cards=cards)
    if not runs:
        pytest.skip(f"no recorded *-nthu-{kind} run in data/results")
    return runs


@pytest.fixture(scope="module")
def single():
    """The notebook's default: every recorded one-GPU process."""
    return R.load(_recorded("single", "all"), "single")


@pytest.fixture(scope="module")
def multi():          # the first campaign, notebook 09's (multi_cards): the 2 x H200 runs, two-GPU machines only
    runs = NS.reference_multi_runs([R.paths.RECORDED])
    if not runs:
        pytest.skip("no recorded *-nthu-multi run in data/results")
    return R.load(runs, "multi")


def _verdicts(rows):
    return {r["claim"]: r for r in rows}


def test_every_nthu_claim_gets_one_row(single):
    rows = NV.rows(C, single, pd.DataFrame())
    assert sorted(r["claim"] for r in rows) == sorted(c for c in C if c.startswith("nthu_"))
    assert all(C[r["claim"]]["notebook"] == R.NB for r in rows)


SINGLE_VERDICTS = {"nthu_bigger_blocks_faster": "reproduced",
                   "nthu_16_beats_32_dim3": "not reproduced",               # 32 beats 16 on the H100
                   "nthu_int_launch_32_best": "reproduced",
                   "nthu_branch_vs_select": "differs in magnitude",         # select up to 2.5x faster
                   "nthu_phase1_launch_overhead": "reproduced",
                   "nthu_phase3_vs_sequential_ratio": "differs in magnitude"}


def test_the_recorded_single_gpu_runs():
    """What the three H100 processes of 2026-11-23 say, pooled (kernel times to 0.1%: the verdicts are
    far from any edge), with 95% intervals over the processes and no longer provisional.  Loaded by name: the
    notebook's default (every recorded run) now also holds the confirming batch of 2026-11-25."""
    single = R.load(_recorded("single", ",".join(SINGLE_RUNS)), "single")
    assert sorted(single["process"].unique()) == list(SINGLE_RUNS)
    v = _verdicts(NV.single_rows(C, single))
    # over 2 leases (two of the three processes shared one), the phase-3 ratio's interval reaches the band's edge
    assert {c: r["verdict"] for c, r in v.items()} == dict(SINGLE_VERDICTS, nthu_phase3_vs_sequential_ratio="inconclusive")
    for r in v.values():        # the basis is computed from the records and said in every reason
        assert f"3 processes ({', '.join(SINGLE_RUNS)}) on 2 machine leases, up to 2 repeats per setting: ratios " \
               "paired inside each process, 95% intervals over the leases" in r["reason"]
        assert "provisional" in r["reason"]           # two of the three processes shared a lease
    assert "the seed's own phase table: 1.13x" in v["nthu_16_beats_32_dim3"]["reason"]
    # the study's one estimator: paired inside each process, over the leases
    p = [x for x in v["nthu_16_beats_32_dim3"]["per_size"].split("; ") if "dim3 branch" in x][0]
    num, den = (R.samples(single, "kernel_ms", n=6000, bs=b, launch="dim3", update="branch") for b in (32, 16))
    assert len(num) == len(den) == 3
    e = estimate.ratio(num, den)
    assert e.paired and e.leases == 2
    assert p.endswith(f"{tables.fmt(e.value)}x [{tables.fmt(e.lo)}, {tables.fmt(e.hi)}]") and e.lo < e.value < e.hi


def test_the_latest_single_gpu_run_alone_is_provisional(single):
    """single_runs = "latest" stays available: one process on one lease, no interval."""
    latest = R.load(_recorded("single", "latest"), "single")
    v = _verdicts(NV.single_rows(C, latest))
    name = latest["process"].iloc[0]
    for r in v.values():
        assert f"1 process ({name}) on 1 machine lease" in r["reason"] and "one lease gives no interval" in r["reason"]


def test_the_tables_take_the_median_over_the_processes_medians():
    df = pd.DataFrame(dict(n=6000, bs=32, launch="dim3", update="branch", status="ok", kernel_ms=[1.0, 1.0, 1.0, 10.0, 4.0],
                           process=["p1", "p1", "p1", "p2", "p2"]))
    assert R.medians(df, ["n", "bs"], "kernel_ms").loc[(6000, 32)] == pytest.approx((1.0 + 7.0) / 2)
    assert R.kernel_table(df)["dim3 / branch (ms)"].iloc[0] == pytest.approx(4.0)     # not the pooled median (1.0)


def test_the_note_names_the_commits_and_checks_the_kernel_source(tmp_path):
    runs = []
    for name, commit in (("20261120-000000-nthu-single", "f653c6e57bac4b6bba98f80026f77ab98de2931f"),
                         ("20261121-000000-nthu-single", "b41ef8c406b7e00e6901be271eab07d443df37eb"),
                         ("20261122-000000-nthu-single", "b41ef8c406b7e00e6901be271eab07d443df37eb")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "provenance.json").write_text(json.dumps(dict(git_commit=commit)))
        runs.append(tmp_path / name)
    assert R.commits_note(runs[1:]) == "The one-GPU processes ran at commit b41ef8c (2 processes)."
    same = same_source(["f653c6e", "b41ef8c"], R.KERNEL_SOURCE)
    if same is None:
        pytest.skip("no git history here to compare the commits")
    assert same is True                                     # nthu_blocked.cu: the same at both
    assert same_source(["f653c6e", "b41ef8c"], "apsp_kernels/algorithms/gpu/fw_nthu.py") is False    # import paths
    assert same_source(["f653c6e", "0" * 40], R.KERNEL_SOURCE) is None     # an unknown commit: cannot tell
    note = R.commits_note(runs)
    assert note.startswith("The one-GPU processes are pooled over commits f653c6e (1 process), b41ef8c (2 processes); "
                           "the kernel source `cuda/nthu_blocked.cu` is the same at all of them")


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
    assert "3 processes" in v["nthu_multi_2gpu_speedup"]["reason"] and "on 3 machine leases" in v["nthu_multi_2gpu_speedup"]["reason"]
    assert "up to 2 repeats per setting" in v["nthu_multi_2gpu_speedup"]["reason"]
    assert v["nthu_multi_bandwidth_grows_with_bs"]["per_size"].count("n=6000") == 3
    # the tables and figures of the two-GPU section build
    assert {"ours: broadcast share (%)", "seed: Memcpy share (%)"} <= set(R.stage_table(multi).columns)
    sc = SC.scaling_table(multi)
    assert sc.loc[(sc["n"] == 32768) & (sc["GPUs (count)"] == 2) & (sc["design"] == "row"), "speed-up over one GPU (x)"].iloc[0] == \
        pytest.approx(2 / (1 + 2048 / 32768), rel=0.05)
    tables.frame(sc), tables.frame(R.stage_table(multi))                       # units in every header
    for fig in (NF.scaling(multi), NF.per_round(R.load_rounds(runs), multi)):
        assert fig.axes[0].lines
    assert "P GPUs: `20261121-000000-nthu-multi`: 2 x NVIDIA H200, NCCL 2.28.9" in R.measurements([], runs, pd.DataFrame(), multi).note


def test_two_gpu_claims_fail_on_synthetic_results(tmp_path):
    """The rules can fail: no speed-up growth, a flat 1.2x, communication shares the wrong way round,
    bandwidth falling with bs."""
    for i in range(3):
        fake_multi(tmp_path / f"2026112{i}-000000-nthu-multi", speedup=lambda n: 1.2, shares=(0.02, 0.08, 0.45),
                   bw=(300, 160, 80, 40), seed=i)
    multi = R.load(R.find_runs("multi", "all", roots=[tmp_path]), "multi")
    v = _verdicts(NV.multi_rows(C, multi))
    assert v["nthu_multi_2gpu_speedup"]["verdict"] == "differs in magnitude"
    assert "3 processes" in v["nthu_multi_2gpu_speedup"]["reason"]
    assert v["nthu_multi_poor_at_small_n"]["verdict"] in ("inconclusive", "not reproduced")
    assert v["nthu_stage_comm_share"]["verdict"] == "not reproduced"
    assert v["nthu_multi_bandwidth_grows_with_bs"]["verdict"] == "not reproduced"


def test_a_two_gpu_run_without_the_needed_settings_says_what_is_missing(tmp_path):
    ds = [fake_multi(tmp_path / f"2026112{i}-000000-nthu-multi", seed=i) for i in range(3)]
    for d in ds:
        df = pd.read_csv(d / "nthu-multi.csv")
        df[df["n"] != 6000].to_csv(d / "nthu-multi.csv", index=False)
    v = _verdicts(NV.multi_rows(C, R.load(ds, "multi")))
    assert v["nthu_stage_comm_share"]["verdict"] == "not testable"
    assert "no two-GPU run of all three designs at n = 6000, bs 64" in v["nthu_stage_comm_share"]["reason"]
    assert v["nthu_multi_2gpu_speedup"]["verdict"] == "reproduced"


def _weak_run(folder, rows, n0=None):
    """A *-nthu-multi folder of (n, P, label, ms) rows; ``n0``: its weak rows' weak_n0 (None: the column
    absent, as in a run recorded without --weak-from)."""
    recs = []
    for n, P, label, t in rows:
        for rep, f in enumerate((0.99, 1.0, 1.01)):
            r = dict(algorithm="nthu_multi", variant="row", status="ok", n=n, n_gpus=P, kernel="b32-dim3-branch", label=label,
                     repeat=rep, kernel_ms=t * f, kernel_ms_max=t * f, comm_ms=0.1 * (P > 1), bandwidth_GBps=None, verified=True)
            if n0 is not None:
                r["weak_n0"] = n0 if label == "weak" else None
            recs.append(r)
    folder.mkdir(parents=True)
    pd.DataFrame(recs).to_csv(folder / "nthu-multi.csv", index=False)
    return folder


def test_weak_scaling_efficiency(tmp_path):
    """Weak rows get their n0 (weak_n0, or the run's smallest n where the column is absent), T(1, n0) and
    the efficiency T(1, n0) sqrt(P) / T(P, n0 sqrt P); one-GPU rows and strong rows get none."""
    old = _weak_run(tmp_path / "20261120-000000-nthu-multi",            # weak from its smallest size, no weak_n0
                    [(2048, 1, "strong", 6.0), (2048, 2, "strong", 5.8), (4096, 1, "strong", 35.0),
                     (2912, 1, "weak", 14.0), (2912, 2, "weak", 10.5)])
    new = _weak_run(tmp_path / "20261121-000000-nthu-multi",            # --weak-from 8192
                    [(8192, 1, "strong", 250.0), (11584, 1, "weak", 690.0), (11584, 2, "weak", 361.0)], n0=8192)
    multi = R.load([old, new], "multi")
    assert SC.weak_n0(multi).dropna().unique().tolist() == [2048, 8192]
    w = SC.weak_points(multi)
    assert w[["n0", "n_gpus", "n"]].values.tolist() == [[2048, 2, 2912], [8192, 2, 11584]]
    assert w["efficiency"].tolist() == pytest.approx([6.0 * np.sqrt(2) / 10.5, 250.0 * np.sqrt(2) / 361.0])
    sc = SC.scaling_table(multi).set_index(["scaling", "n", "GPUs (count)"])
    assert sc.loc[("weak", 2912, 2), "weak: n0 (vertices)"] == 2048
    assert sc.loc[("weak", 2912, 2), "weak: T(1 GPU, n0) (ms)"] == pytest.approx(6.0)
    assert sc.loc[("weak", 2912, 2), "weak efficiency (%)"] == pytest.approx(100 * 6.0 * np.sqrt(2) / 10.5)
    assert sc.loc[("weak", 2912, 2), "speed-up over one GPU (x)"] == pytest.approx(14.0 / 10.5)     # same n
    assert sc.loc[("weak", 11584, 2), "weak efficiency (%)"] == pytest.approx(100 * 250.0 * np.sqrt(2) / 361.0)
    assert sc.loc[("weak", 11584, 1), "weak: n0 (vertices)"] == 8192
    assert np.isnan(sc.loc[("weak", 11584, 1), "weak efficiency (%)"])         # one GPU at n0 sqrt 2: no weak point
    assert sc.loc["strong", ["weak: n0 (vertices)", "weak efficiency (%)"]].isna().all().all()
    tables.frame(sc.reset_index())                                             # units in every header
    assert "from n0 = 2048 on 2 GPUs (row design, n = 2912): T(1, n0) = 6 ms, T(2, n) = 10.5 ms, efficiency 80.8%" \
        in SC.weak_findings(multi)
    assert SC.weak_points(pd.DataFrame()).empty and SC.weak_findings(pd.DataFrame()) == "no weak-scaling run recorded"


def test_the_recorded_two_gpu_runs(multi):
    """The 2 x H200 runs of 2026-11-23 and -24 (three leases): the pivot-row design halves the time at large n,
    weak efficiency ~80% from 2048 and ~98-99% from 8192 and 16384, and each verdict's basis counts only the
    processes that ran its settings."""
    w = SC.weak_points(multi).set_index("n0")
    if not {2048, 8192, 16384} <= set(w.index):
        pytest.skip("the recorded two-GPU runs are not those of 2026-11-23")
    assert w.loc[2048, "t1_n0"] == pytest.approx(5.94, abs=0.01) and w.loc[2048, "t"] == pytest.approx(10.5, abs=0.1)
    assert w["efficiency"].tolist() == pytest.approx([0.80, 0.98, 0.99], abs=0.01)
    assert w["n"].tolist() == [2912, 11584, 23168]
    v = _verdicts(NV.multi_rows(C, multi))
    # the campaign's 8 processes ran on 3 leases, 4 of them on one: over leases, the 2x at n >= 16384 is
    # inside the band at 2 of 4 settings and across its edge at the others (65536: one process on one lease)
    assert v["nthu_multi_2gpu_speedup"]["verdict"] == "inconclusive"
    assert "weak scaling" in v["nthu_multi_2gpu_speedup"]["reason"] and "79.6% from n0 = 2048" in v["nthu_multi_2gpu_speedup"]["reason"]
    assert "5 processes" in v["nthu_multi_2gpu_speedup"]["reason"] and "on 3 machine leases" in v["nthu_multi_2gpu_speedup"]["reason"]
    # the speed-up rises from 1.0x at 2048 to 2x; sizes on one lease stay out of the slope
    r = v["nthu_multi_poor_at_small_n"]
    assert r["verdict"] == "reproduced" and "over 7 sizes" in r["reason"] and "(one lease, no spread)" in r["reason"]
    for cid in ("nthu_stage_comm_share", "nthu_multi_bandwidth_grows_with_bs"):   # n = 6000: the 3 stage runs only
        assert ("3 processes (20261123-092258-nthu-multi, 20261124-224027-nthu-multi, 20261124-224151-nthu-multi) on 2 "
                "machine leases") in v[cid]["reason"] and "provisional" in v[cid]["reason"]


def test_the_confirming_two_gpu_batch_on_2_x_h100_gives_the_same_five_verdicts():
    """The confirming batch, the 2 x H100 campaign of 2026-11-25 (three leases, 3 stage and 3 scaling processes,
    each with its one-GPU baseline on the same machine) judges all five two-GPU claims as the 2 x H200 campaign does, on 3 processes a setting."""
    h100 = R.load(_recorded("multi", "all", "NVIDIA H100 80GB HBM3"), "multi")
    assert set(h100["process"].str[:8]) == {"20261125"} and h100.groupby("process")["n"].size().size == 6
    assert set(h100["gpu"]) == {"NVIDIA H100 80GB HBM3"}
    v = _verdicts(NV.multi_rows(C, h100))
    assert {cid: r["verdict"] for cid, r in v.items()} == dict.fromkeys(R.MULTI, "reproduced")
    assert "on 3 machine leases" in v["nthu_multi_2gpu_speedup"]["reason"]
    for cid in ("nthu_stage_comm_share", "nthu_multi_bandwidth_grows_with_bs"):     # 2 of the 3 stage runs shared a lease
        assert "3 processes" in v[cid]["reason"] and "on 2 machine leases" in v[cid]["reason"]
    said = R.confirmation()          # the 2 x H200 campaign's shared leases leave two of its verdicts inconclusive
    assert said.startswith("**The independent batches differ.**") and "5 of 7 claims got the same verdict" in said
    assert "differing: nthu_multi_2gpu_speedup, nthu_stage_comm_share" in said
    assert "stability, not validity" in said


def test_find_runs_of_one_model_of_card(tmp_path):
    for name, gpu in (("20261120-000000-nthu-multi", "NVIDIA H200"), ("20261121-000000-nthu-multi", "NVIDIA H100 80GB HBM3")):
        fake_multi(tmp_path / name)
        (tmp_path / name / "provenance.json").write_text(json.dumps({"gpu": gpu}))
    names = lambda c: [d.name for d in R.find_runs("multi", "all", roots=[tmp_path], cards=c)]
    assert names("NVIDIA H200") == ["20261120-000000-nthu-multi"] and len(names("")) == 2 and names("A100") == []


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
    assert SC.plan_table(65536, 32, (4, 8))["matrix on each GPU (GB)"].round(1).tolist() == [17.2] * 6
    assert "so 32 is the faster" in R.findings(single)


def test_basis_counts_processes_leases_and_repeats():
    df = pd.DataFrame(dict(variant=["a"] * 3 + ["b"], n=1, process=["p1", "p1", "p2", "p2"], lease=["L1", "L1", "L2", "L2"]))
    assert R.basis(df).startswith("2 processes (p1, p2) on 2 machine leases, up to 2 repeats per setting: ratios paired")
    assert "provisional" in R.basis(df)
    assert "one lease gives no interval" in R.basis(df.assign(lease="L1"))
    rows = pd.DataFrame(dict(process=["p1", "p1", "p2", "p1", "p2"], lease=["L1", "L1", "L2", "L1", "L2"],
                             code=["a", "a", "a", "b", "b"], status="ok", kernel_ms=[2.0, 2.2, 2.1, 1.0, 1.05]))
    e = R.ratio(R.samples(rows, "kernel_ms", code="a"), R.samples(rows, "kernel_ms", code="b"))
    assert e.paired and e.leases == 2 and e.lo < e.value < e.hi and e.value == pytest.approx(2.05)
    one = rows[rows["process"] == "p1"]
    e = R.ratio(R.samples(one, "kernel_ms", code="a"), R.samples(one, "kernel_ms", code="b"))
    assert e.value == pytest.approx(2.1) and not e.has_interval          # one lease: no interval


@pytest.mark.slow
def test_notebook_09_judges_synthetic_two_gpu_runs(tmp_path, monkeypatch):
    """The notebook itself, given a folder of synthetic two-GPU runs through its parameters: its
    two-GPU section, figures and verdicts (written to the temporary reports folder)."""
    import papermill as pm
    from apsp_kernels import paths
    ds = [fake_multi(tmp_path / "runs" / f"2026112{i}-000000-nthu-multi", seed=i) for i in range(3)]   # 3 leases
    out = tmp_path / "09.ipynb"
    pm.execute_notebook(str(R.paths.ROOT / "notebooks" / "09_nthu.ipynb"), str(out), cwd=str(R.paths.ROOT / "notebooks"),
                        parameters=dict(profile="smoke", batch=",".join(map(str, ds))), progress_bar=False,
                        kernel_name="python3")
    v = pd.read_csv(paths.REPORTS / "verdicts" / "09_nthu.csv").set_index("claim")["verdict"]
    assert v["nthu_multi_2gpu_speedup"] == "reproduced" and v["nthu_16_beats_32_dim3"] == "not reproduced"
    text = out.read_text()
    assert (paths.FIGURES / "smoke" / "fig_nthu_scaling.png").exists() and R.PENDING + "." not in text


def test_the_device_commands_are_the_device_scripts():
    """The commands the notebook prints while two-GPU results are pending are those that
    scripts/device_nthu_multi.sh runs (and docs/seeds/nthu.md lists)."""
    import re
    text = re.sub(r"\s+", " ", (R.paths.ROOT / "scripts" / "device_nthu_multi.sh").read_text().replace("\\\n", " "))
    page = re.sub(r"\s+", " ", (R.paths.ROOT / "docs" / "seeds" / "nthu.md").read_text())
    for cmd in R.DEVICE_COMMANDS:
        assert cmd in text and cmd.split("multi ", 1)[1] in page


def test_the_blocking_figure_draws_intervals_over_leases_only():
    """A setting timed on one lease has its median and no bar; on two, the interval over the leases."""
    rows = [dict(n=6000, bs=32, launch="dim3", update="branch", status="ok", kernel_ms=t, process=p, lease=l)
            for t, p, l in ((1.0, "p1", "a"), (1.1, "p1", "a"), (1.2, "p2", "b"), (1.3, "p3", "a"))]
    rows += [dict(r, bs=16, lease="a") for r in rows]
    d = pd.DataFrame(rows)
    v, lo, hi = NF.spread(d[d["bs"] == 32])
    assert v == pytest.approx((1.175 + 1.2) / 2) and lo < v < hi      # lease a: median of p1 (1.05), p3 (1.3)
    v, lo, hi = NF.spread(d[d["bs"] == 16])
    assert v == pytest.approx(1.2) and np.isnan(lo) and np.isnan(hi)
    fig = NF.blocking(d, sizes=(6000,))
    assert len(fig.axes[0].lines) >= 2                               # both settings drawn, one without a bar
