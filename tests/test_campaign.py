"""The campaign: independent processes, one commit per batch, thread affinity, the sampled
estimate's bookkeeping, and what the reports draw from it."""
import json
import os
import subprocess
import sys

import pandas as pd
import pytest

from apsp_kernels.core import generators as G
from apsp_kernels.measure import harness, provenance
from apsp_kernels.algorithms import registry
from apsp_kernels.study.seeds.kemp import runs as campaign, load as M, spec as plan, profiles


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


def test_dense_gpu_runs_of_under_a_second_are_timed_in_rounds():
    """paper: every job of a dense GPU code in its default memory at n <= 4096 -- every degree graph
    of the density study included -- is timed in 9 interleaved rounds; CPU codes, Harish, the memory
    modes, sampled and larger runs keep their repeats back to back."""
    P = profiles.profile("paper")
    jobs = plan.campaign_jobs(P)
    rounds = [j for j in jobs if j.rounds]
    assert rounds and all(j.repeats == P["rounds"] == 9 and j.n <= P["rounds_n"] for j in rounds)
    for j in rounds:
        a = registry.get(j.algorithm)
        assert a.device == "gpu" and a.representation == "dense" and j.samples is None and '"memory"' not in j.params
    for j in jobs:
        a = registry.get(j.algorithm)
        if not j.rounds and a.device == "gpu" and a.representation == "dense" and j.samples is None:
            assert j.n > P["rounds_n"] or '"memory"' in j.params or j.once
    degree = {(j.algorithm, j.graph) for j in rounds if j.n == P["degree_n"]}
    assert degree >= {(a, profiles.graph_label(*d)) for a in ("tran_fw", "tran_minplus", "katz_kider", "kemp_ooc")
                      for d in P["degrees"]}
    assert not any(j.rounds for j in jobs if j.algorithm == "harish" or registry.get(j.algorithm).device == "cpu")


def test_schedule_puts_each_size_in_one_group_and_rotates_the_rounds():
    P = profiles.profile("paper")
    jobs = plan.campaign_jobs(P)
    steps = plan.schedule(jobs)
    groups = [s for s in steps if isinstance(s, tuple)]
    assert sorted(g[0].n for g in groups) == [1024, 2048, 3072, 4096]
    assert all(len({j.n for j in g}) == 1 for g in groups)
    flat = [j for s in steps for j in (s if isinstance(s, tuple) else (s,))]
    assert sorted(flat, key=jobs.index) == jobs and len(flat) == len(jobs)         # every job once
    alone = [s for s in steps if not isinstance(s, tuple)]
    assert alone == [j for j in jobs if not j.rounds]                                # the rest in the plan's order
    for g in groups:                                                                 # a group comes where its size does
        i = steps.index(g)
        assert all(s.n <= g[0].n for s in steps[:i] if not isinstance(s, tuple))
        assert all(s.n >= g[0].n for s in steps[i + 1:] if not isinstance(s, tuple))
    g = next(g for g in groups if g[0].n == P["degree_n"])
    code = lambda j: (j.algorithm, j.variant, j.params)
    firsts, starts = set(), set()
    for r in range(P["rounds"]):
        order = plan.round_order(list(g), r)
        assert sorted(order, key=g.index) == list(g)                                  # each job once a round
        codes = [code(j) for j in order]
        for c in set(codes):                                                         # a code's graphs back to back
            at = [i for i, x in enumerate(codes) if x == c]
            assert at == list(range(at[0], at[0] + len(at)))
        firsts.add([j.graph for j in order if code(j)[:2] == ("katz_kider", "16")][0])
        starts.add(order[0])
    assert len(firsts) == len(P["degrees"])          # each degree graph of a code comes first in some round
    assert len(starts) > 1                           # and the round does not always start with the same job


def test_rounds_run_after_a_warm_up_each_and_record_the_round(tmp_path, monkeypatch):
    """The process runs a group as the schedule says: an untimed warm-up of every job of the size, then
    every round in its order, each run recorded with the round as its repeat (no GPU needed: the
    harness is a stand-in here)."""
    from apsp_kernels import gpu_device
    calls = []

    def fake_measure(algo, g, *, variant=None, repeats=3, warmup=1, reference=None, params=None, extra=None, samples=None):
        calls.append((algo.name, str(variant), extra["graph"], g.n, repeats, warmup))
        return [dict(extra, algorithm=algo.name, variant=str(variant), n=g.n, params=json.dumps(params or {}),
                     repeat=i, status="ok", wall_ms=1.0, estimate="measured" if samples is None else "sampled",
                     verified=True, device=algo.device) for i in range(repeats)]

    monkeypatch.setattr(gpu_device, "available", lambda: True)
    monkeypatch.setattr(harness, "measure", fake_measure)
    monkeypatch.setattr(campaign, "reference_checksum", lambda g: 0)
    P = profiles.profile("smoke")
    df = campaign.run_process(P, tmp_path, 0, notebooks=("03_harish_scaling",))
    jobs = [j for j in plan.campaign_jobs(P, ("03_harish_scaling",)) if not j.once]
    group = next(s for s in plan.schedule(jobs) if isinstance(s, tuple))
    i = calls.index((group[0].algorithm, str(None if group[0].variant == "None" else group[0].variant),
                     group[0].graph, group[0].n, 0, 1))
    k = len(group)
    assert [c[4:] for c in calls[i:i + k]] == [(0, 1)] * k                           # warm-ups: no timed run
    timed = calls[i + k:i + k + k * P["rounds"]]
    assert [c[4:] for c in timed] == [(1, 0)] * (k * P["rounds"])
    expect = [(j.algorithm, j.graph) for r in range(P["rounds"]) for j in plan.round_order(list(group), r)]
    assert [(c[0], c[2]) for c in timed] == expect
    mine = df[df["round_jobs"] == k]
    assert len(mine) == k * P["rounds"] and sorted(mine["repeat"].unique()) == list(range(P["rounds"]))
    assert (mine.groupby(["algorithm", "variant", "graph"]).size() == P["rounds"]).all()


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
    from apsp_kernels.study.report import summary as S
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
    # only runs measured after the method was last changed can confirm it
    from apsp_kernels.study.method import rules
    early, late = current
    for d, stamps in ((early, ["2000-01-01T00:00:00+00:00", "2099-01-01T00:00:00+00:00"]),
                      (late, ["2099-01-01T00:00:00+00:00", "2099-01-02T00:00:00+00:00"])):
        for i, t in enumerate(stamps):
            (d / f"provenance-{i}.json").write_text(json.dumps(dict(timestamp=t)))
    assert rules.METHOD_LAST_CHANGED < "2099" and not S.measured_after_method(early) and S.measured_after_method(late)


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
from apsp_kernels.study.seeds.kemp import runs as campaign
from apsp_kernels.algorithms import registry
from apsp_kernels.core import verify
campaign.start_thread_pool()
with campaign.pinned(registry.get("fw_sequential")):
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


def test_satellite_jobs_are_the_campaigns_own_jobs_of_their_codes_and_sizes():
    """A satellite times exactly the campaign's jobs of its roles at its sizes (same keys, same
    repeats), so its records join the main processes' as more processes of those quantities."""
    for name in ("smoke", "paper"):
        P = profiles.profile(name)
        sat, main = plan.satellite_jobs(P), {j.key: j for j in plan.campaign_jobs(P)}
        codes = {tuple(plan.K[r]) for r in P["satellites"]["roles"]}
        assert sat and all(main[j.key] == j for j in sat)
        assert {(j.algorithm, j.variant) for j in sat} == codes
        assert sorted(j.n for j in sat) == sorted(P["satellites"]["sizes"])
    P = profiles.profile("paper")
    assert list(profiles.all_processes(P)) == list(range(5 + 20))
    assert not profiles.is_satellite(P, 4) and profiles.is_satellite(P, 5) and profiles.is_satellite(P, 24)
    assert not profiles.is_satellite(P, 25) and profiles.satellite_count(profiles.profile("quick")) == 0


def test_a_satellite_process_runs_only_its_jobs_and_says_so(tmp_path, monkeypatch):
    from apsp_kernels import gpu_device
    calls = []

    def fake_measure(algo, g, *, variant=None, repeats=3, warmup=1, reference=None, params=None, extra=None, samples=None):
        calls.append((algo.name, str(variant), g.n, repeats))
        return [dict(extra, algorithm=algo.name, variant=str(variant), n=g.n, params=json.dumps(params or {}),
                     repeat=i, status="ok", wall_ms=1.0, estimate="measured", verified=True, device=algo.device)
                for i in range(repeats)]

    monkeypatch.setattr(gpu_device, "available", lambda: True)
    monkeypatch.setattr(harness, "measure", fake_measure)
    monkeypatch.setattr(campaign, "reference_checksum", lambda g: 0)
    P = profiles.profile("smoke")
    idx = P["processes"]                                   # the first satellite
    campaign.run_process(P, tmp_path, idx)
    assert [(a, n) for a, _, n, r in calls if r > 0] == [(j.algorithm, j.n) for j in plan.satellite_jobs(P)]
    prov = json.loads((tmp_path / f"provenance-{idx}.json").read_text())
    assert prov["parameters"]["satellite"] is True and prov["parameters"]["process"] == idx
    loaded, merged = campaign.load(tmp_path)
    assert merged["satellites"] == 1 and "1 satellite process" in M.processes_text(merged)
    with pytest.raises(ValueError, match="satellite"):
        campaign.run_process(P, tmp_path, idx + profiles.satellite_count(P))


def test_a_satellite_without_a_gpu_leaves_no_process_behind(tmp_path, monkeypatch):
    """Satellites time GPU codes: on a machine without a GPU one writes no records and no provenance
    (an empty process file would break loading the batch, and count as a process)."""
    from apsp_kernels import gpu_device
    monkeypatch.setattr(gpu_device, "available", lambda: False)
    P = profiles.profile("smoke")
    assert campaign.run_process(P, tmp_path, P["processes"]).empty
    assert not list(tmp_path.iterdir())
