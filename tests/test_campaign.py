"""The campaign: independent processes, one commit per batch, thread affinity, the sampled
estimate's bookkeeping, and what the reports draw from it."""
import json
import os
import subprocess
import sys

import pandas as pd
import pytest

from apsp_kernels import generators as G
from apsp_kernels import harness, provenance, registry
from apsp_kernels.study import campaign, measurements as M, plan, profiles


def test_plan_interleaves_and_deduplicates():
    P = profiles.profile("paper")
    jobs = plan.campaign_jobs(P)
    keys = [j.key for j in jobs]
    assert len(keys) == len(set(keys))
    assert [j.n for j in jobs] == sorted(j.n for j in jobs)                  # by size: CPU and GPU interleave
    devices = {registry.get(j.algorithm).device for j in jobs if j.n == 4096}
    assert devices == {"cpu", "gpu"}
    seq = [j for j in jobs if j.algorithm == "fw_sequential" and j.graph == plan.KEMP]
    assert {j.n for j in seq if j.samples} >= set(P["gpu_sizes"])             # sampled at every GPU size
    assert {j.n for j in seq if j.samples is None} >= {n for n in P["cpu_sizes"] if n <= P["full_cap"]}


@pytest.mark.parametrize("name", ["smoke", "quick", "paper", "full"])
def test_plans_are_those_of_the_all_pairs_codes(name, monkeypatch):
    """The single-source codes (problem bfs/sssp) change no profile's campaign: its jobs are the
    ones a registry of the APSP codes alone gives, and none of them is a single-source code."""
    P = profiles.profile(name)
    jobs = plan.campaign_jobs(P)
    assert all(registry.get(j.algorithm).problem == "apsp" for j in jobs)
    monkeypatch.setattr(registry, "ALGORITHMS", {k: a for k, a in registry.ALGORITHMS.items() if a.problem == "apsp"})
    assert plan.campaign_jobs(P) == jobs


def test_sampled_estimate_is_marked_and_scaled():
    g = G.kemp(256, seed=3)
    rec = harness.measure(registry.get("fw_sequential"), g, samples=16, repeats=1, warmup=0)[0]
    assert rec["estimate"] == "sampled" and rec["verified"] is None
    assert rec["total_units"] == 256 and rec["sample_units"] == 16
    assert rec["wall_ms"] == pytest.approx(rec["setup_ms"] + rec["sample_work_ms"] * 16)


def test_campaign_process_and_batch_provenance(tmp_path):
    P = profiles.profile("smoke")
    df = campaign.run_process(P, tmp_path, 0, notebooks=("00_environment_and_cpu_baselines",))
    assert (tmp_path / "process-0.csv").exists() and (tmp_path / "provenance-0.json").exists()
    full = df[df["estimate"] == "measured"]
    assert full["verified"].astype(bool).all() and (df["status"] == "ok").all()
    single = df[(df["algorithm"] == "fw_sequential")]
    if hasattr(os, "sched_setaffinity"):
        assert single["pinned_core"].notna().all()
    loaded, prov = campaign.load(tmp_path)
    assert prov["processes"] == 1 and len(loaded) == len(df)
    # a process measured at other code may not join the batch
    p = json.loads((tmp_path / "provenance-0.json").read_text())
    p["code_fingerprint"] = "0" * 40
    (tmp_path / "provenance-0.json").write_text(json.dumps(p))
    with pytest.raises(provenance.ProvenanceError):
        campaign.run_process(P, tmp_path, 1, notebooks=("00_environment_and_cpu_baselines",))


def test_processes_from_separate_machines_are_merged_only_at_one_commit(tmp_path):
    """A reference run's processes are measured on separate machine leases and copied into one
    folder: loading it checks again that they ran the same code, and counts the leases."""
    rec = pd.DataFrame([dict(algorithm="fw_sequential", variant=None, device="cpu", n=64, graph=plan.KEMP,
                             params="{}", status="ok", wall_ms=1.0, estimate="measured", verified=True, process=i)
                        for i in range(2)])
    for i, boot in enumerate(("boot-a", "boot-b")):
        rec[rec["process"] == i].to_csv(tmp_path / f"process-{i}.csv", index=False)
        (tmp_path / f"provenance-{i}.json").write_text(json.dumps(dict(git_commit="c1", code_fingerprint="f1", boot_id=boot)))
    _, prov = campaign.load(tmp_path)
    assert prov["processes"] == 2 and prov["machine_boots"] == 2
    assert M.processes_text(prov) == "2 independent processes on 2 machine leases"
    (tmp_path / "provenance-1.json").write_text(json.dumps(dict(git_commit="c2", code_fingerprint="f2", boot_id="boot-b")))
    with pytest.raises(provenance.ProvenanceError, match="different code"):
        campaign.load(tmp_path)


def test_stability_table_keeps_superseded_runs_apart(tmp_path, monkeypatch):
    from apsp_kernels import paths
    from apsp_kernels.study import summary as S
    monkeypatch.setattr(paths, "RECORDED", tmp_path)
    for name, verdicts in (("20260101-000000", ["reproduced", "inconclusive"]),
                           ("20260102-000000", ["reproduced", "reproduced"]),
                           ("20260103-000000", ["reproduced", "reproduced"])):
        d = tmp_path / f"{name}-paper-campaign"
        d.mkdir()
        pd.DataFrame(dict(claim=["tran_fw_vs_fw", "kk_vs_fw"], verdict=verdicts)).to_csv(d / "verdicts.csv", index=False)
    (tmp_path / "20260101-000000-paper-campaign" / S.SUPERSEDED).write_text("older intervals\n")
    current, superseded = S.recorded_runs("paper")
    assert [r.name[:15] for r in current] == ["20260102-000000", "20260103-000000"]
    assert [r.name[:15] for r in superseded] == ["20260101-000000"]
    assert S.verdict_table(current)["same"].all()
    assert not S.verdict_table(current + superseded)["same"].all()
    # a claim of a study with its own run (08-10) is the same beside every campaign: it is left out
    d = tmp_path / "20260103-000000-paper-campaign"
    pd.DataFrame(dict(claim=["tran_fw_vs_fw", "kk_vs_fw", "hochberg_syncthreads_needed"],
                      verdict=["reproduced"] * 3)).to_csv(d / "verdicts.csv", index=False)
    assert list(S.verdict_table(current).index) == ["tran_fw_vs_fw", "kk_vs_fw"]
    # only runs measured after the method was fixed can confirm it
    from apsp_kernels.study import rules
    early, late = current
    for d, stamps in ((early, ["2000-01-01T00:00:00+00:00", "2099-01-01T00:00:00+00:00"]),
                      (late, ["2099-01-01T00:00:00+00:00", "2099-01-02T00:00:00+00:00"])):
        for i, t in enumerate(stamps):
            (d / f"provenance-{i}.json").write_text(json.dumps(dict(timestamp=t)))
    assert rules.METHOD_FIXED < "2099" and not S.measured_after_method(early) and S.measured_after_method(late)


def test_reference_run_refuses_a_dirty_tree(tmp_path):
    with pytest.raises(provenance.ProvenanceError):
        provenance.check_batch(tmp_path, {"git_commit": "abc-dirty", "code_fingerprint": "x"}, strict=True)
    provenance.check_batch(tmp_path, {"git_commit": "abc-dirty", "code_fingerprint": "x"}, strict=False)


def test_fingerprint_matches_the_commit_of_a_clean_tree():
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=provenance.ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--"] + list(provenance.CODE_GLOBS),
                           cwd=provenance.ROOT, capture_output=True, text=True)
    if head.returncode or dirty.stdout.strip():
        pytest.skip("no git, or the measurement code has uncommitted changes")
    assert provenance.fingerprint_of_commit(head.stdout.strip()) == provenance.code_fingerprint()


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs CPU affinity and at least 2 cores")
def test_pinning_leaves_the_thread_pool_on_every_core():
    code = """
import os, numpy as np
from apsp_kernels.study import campaign
from apsp_kernels import registry, verify
campaign._start_thread_pool()
with campaign._pinned(registry.get("fw_sequential")):
    verify.fletcher64(np.zeros(1 << 22, np.int32))
allowed = []
for t in os.listdir("/proc/self/task"):
    for line in open(f"/proc/self/task/{t}/status"):
        if line.startswith("Cpus_allowed_list"):
            allowed.append(line.split(":")[1].strip())
print(sorted(set(allowed)))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=provenance.ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    sets = eval(out.stdout.strip().splitlines()[-1])
    assert len(sets) == 1, f"some threads are pinned: {sets}"


def test_disagreeing_processes_are_found():
    rows = []
    for p, t in ((0, 100.0), (1, 101.0), (2, 300.0)):
        rows += [dict(algorithm="a", variant="None", graph="kemp 2-6", params="{}", estimate="measured", n=8,
                      process=p, wall_ms=t * f, status="ok", verified=True) for f in (1.0, 1.01)]
    dis = M.process_disagreements(pd.DataFrame(rows))
    assert len(dis) == 1 and dis["max_over_min"].iloc[0] > 2
    same = pd.DataFrame([dict(r, wall_ms=100.0) for r in rows])
    assert M.process_disagreements(same).empty


def test_failed_full_solve_gives_no_time():
    rows = [dict(algorithm="a", variant="None", graph="kemp 2-6", params="{}", estimate="measured", n=8, process=0,
                 wall_ms=1.0, status=s, verified=v) for s, v in (("ok", True), ("failed_verification", False))]
    t, kind = M.times(pd.DataFrame(rows), "a", None, 8)
    assert t.size == 0 and kind == "failed"
