"""A user's run beside the reference: each outcome (same verdict, different verdict either way, not decidable at
this profile, a smoke run, a size the GPU's memory refused) on fixture tables made from the recorded reference
rows; the index built into a temporary folder keeps the reference's findings on its first screen."""
import pandas as pd

from apsp_kernels.study.report import compare as CM
from apsp_kernels.study.report import findings_index as FI

REF = CM.reference_rows()
MINE = "data/results/20990101-000000-decide-campaign"


def _mine(claim, **change):
    r = REF[REF["claim"] == claim].copy()
    r = r.drop(columns=["ours"]).rename(columns={"ours_value": "ours"}).assign(results=MINE, profile="decide", device="NVIDIA H200")
    for k, v in change.items():
        r[k] = v
    return r


def _one(table, claim):
    return table.set_index("claim").loc[claim]


def test_the_reference_table_is_the_one_the_readme_counts_and_covers_every_claim():
    from apsp_kernels.study.method import claims as claims_mod
    from apsp_kernels.study.report import readme_findings as RF
    assert CM.reference_table() == RF.reference_table()
    assert set(REF["claim"]) == set(claims_mod.load())


def test_a_render_of_the_recorded_reference_compares_nothing():
    user = REF.drop(columns=["ours"]).rename(columns={"ours_value": "ours"})
    assert CM.measured_here(user, REF).empty
    assert CM.compare(user, REF).empty
    assert "Nothing was measured on this machine" in CM.sentence(CM.compare(user, REF))


def test_same_verdict():
    t = CM.compare(_mine("kk_vs_fw"), REF)
    assert _one(t, "kk_vs_fw")["outcome"] == CM.SAME


def test_different_verdict_says_which_way_larger():
    # reference: reproduced at 117x over a band of 100x; yours 400x [380, 420] would differ, larger than claimed
    u = _mine("tuwien_cpu_break_even", ours=400.0, ci_lo=380.0, ci_hi=420.0, verdict="differs in magnitude")
    r = _one(CM.compare(u, REF), "tuwien_cpu_break_even")
    assert r["outcome"] == CM.DIFFERENT
    assert r["why"].startswith("reference reproduced, yours differs: larger than claimed")
    assert "larger" in r["why"].split(";")[1]


def test_different_verdict_says_which_way_smaller():
    u = _mine("kk_vs_fw", ours=20.0, ci_lo=18.0, ci_hi=22.0, verdict="differs in magnitude")
    r = _one(CM.compare(u, REF), "kk_vs_fw")
    assert r["outcome"] == CM.DIFFERENT
    assert "reference differs: larger than claimed, yours differs: smaller than claimed" in r["why"]
    assert "smaller" in r["why"].split(";")[1]


def test_one_lease_is_not_decidable_and_says_what_would_decide():
    r = _one(CM.compare(_mine("kk_vs_fw", leases=1.0), REF), "kk_vs_fw")
    assert r["outcome"] == CM.UNDECIDABLE and ">= 3 independent leases decide it: ./run_all.sh --profile decide --lease 1..3" in r["why"]


def test_a_profile_short_of_the_papers_sizes_is_not_decidable():
    r = _one(CM.compare(_mine("kk_vs_fw", profile="quick", matched_n="1024, 2048, 4096"), REF), "kk_vs_fw")
    assert r["outcome"] == CM.UNDECIDABLE
    assert "profile quick does not measure n = 3072, 8192" in r["why"] and "--profile decide" in r["why"]
    r = _one(CM.compare(_mine("kk_vs_fw", matched_n="1024, 2048"), REF), "kk_vs_fw")
    assert r["outcome"] == CM.UNDECIDABLE and "n = 3072, 4096, 8192, 12288, 16384" in r["why"]


def test_a_smoke_run_decides_nothing_and_says_so():
    u = pd.concat([_mine(c, profile="smoke", leases=1.0) for c in ("kk_vs_fw", "tuwien_cpu_break_even")])
    t = CM.compare(u, REF)
    assert set(t["outcome"]) == {CM.UNDECIDABLE}
    assert all("checks the pipeline" in w for w in t["why"])
    said = CM.sentence(t)
    assert "checks the pipeline and decides nothing" in said and "not findings" in said


def test_a_size_the_gpu_memory_refused_makes_its_claims_undecidable():
    recs = pd.DataFrame(dict(algorithm=["katz_kider", "katz_kider", "fw_sequential"], n=[16384, 16384, 1024],
                             error=["GPUMemoryError: katz_kider: needs 1024.0 MiB of device memory, 512.0 MiB free of "
                                    "8192.0 MiB; try a smaller graph", None, None]))
    refused = CM.refused_sizes(recs)
    assert refused[["algorithm", "n"]].values.tolist() == [["katz_kider", 16384]]
    claims = {"kk_vs_fw": dict(algorithm="katz_kider", baseline="fw_sequential")}
    r = _one(CM.compare(_mine("kk_vs_fw"), REF, refused, claims), "kk_vs_fw")
    assert r["outcome"] == CM.UNDECIDABLE and "n = 16384 does not fit this GPU's memory" in r["why"]
    assert "512.0 MiB free" in r["why"]


def test_other_versions_than_the_references_are_listed():
    ref = dict(gpu="NVIDIA H100 80GB HBM3", cuda_runtime_version=13020, driver_version=13000, cupy="14.2.0",
               gpu_memory_bytes=85017493504)
    mine = dict(ref, gpu="NVIDIA H200", cuda_runtime_version=12080, gpu_memory_bytes=150754820096)
    got = {w: (a, b) for w, a, b in CM.versions(mine, ref)}
    assert got == {"GPU": ("NVIDIA H200", "NVIDIA H100 80GB HBM3"), "CUDA runtime": ("12.8", "13.2"),
                   "GPU memory": ("140 GiB", "79 GiB")}
    assert CM.versions(ref, ref) == []


def _render(tmp_path, monkeypatch, user, results=()):
    from apsp_kernels.study.report import runner
    (tmp_path / "verdicts").mkdir()
    for nb, rows in user.groupby("notebook"):
        rows.drop(columns=["notebook"]).to_csv(tmp_path / "verdicts" / f"{nb}.csv", index=False)
    user.to_csv(tmp_path / "verdicts.csv", index=False)        # notebook 07's table of the user's own verdicts
    monkeypatch.setattr(runner, "REPORTS", tmp_path)
    runner.write_index(list(results))
    return (tmp_path / "index.html").read_text(), (tmp_path / "findings.html").read_text()


def test_the_index_of_a_smoke_run_keeps_the_reference_findings_and_calls_the_run_a_pipeline_check(tmp_path, monkeypatch):
    smoke = REF.drop(columns=["ours"]).rename(columns={"ours_value": "ours"}).assign(
        results="data/results/20990101-000000-smoke-campaign", profile="smoke", device="NVIDIA H100 80GB HBM3",
        verdict="not reproduced")
    index, paper = _render(tmp_path, monkeypatch, smoke,
                           [dict(name="02_katz_kider", title="02", status="ok", profile="smoke")])
    from apsp_kernels.study.report import your_run
    assert your_run.is_smoke(tmp_path, "02_katz_kider") and your_run.is_smoke(tmp_path, "07_summary")
    reports_table = index.split('id="reports"')[1]
    assert "not reproduced (smoke: decides nothing)" in reports_table
    first = FI.visible_text(FI.first_screen(index))
    assert "checks the pipeline and decides nothing" in first
    from apsp_kernels.study.report import findings_text as FT
    tally = FT.verdict_counts(REF)
    assert tally in first and tally in FI.visible_text(paper)
    assert "Your run beside the reference" in index and index.count("<tr data-claim=") == len(REF)


def test_the_index_of_a_recorded_render_says_nothing_was_measured_here(tmp_path, monkeypatch):
    index, _ = _render(tmp_path, monkeypatch, REF.drop(columns=["ours"]).rename(columns={"ours_value": "ours"}))
    first = FI.visible_text(FI.first_screen(index))
    assert "Nothing was measured on this machine" in first and 'id="your-run"' not in index


def test_a_decide_run_is_compared_claim_by_claim(tmp_path, monkeypatch):
    u = pd.concat([_mine("kk_vs_fw"), _mine("tuwien_cpu_break_even", ours=400.0, ci_lo=380.0, ci_hi=420.0,
                                            verdict="differs in magnitude")])
    index, _ = _render(tmp_path, monkeypatch, u)
    text = FI.visible_text(index.split('id="your-run"')[1])
    assert "1 same verdict, 1 different verdict" in text
    assert f"The other {len(REF) - 2} claims were not measured here" in text
    assert "reference reproduced, yours differs: larger than claimed" in text


def test_the_index_names_the_users_machine_its_versions_and_the_sizes_its_memory_refused(tmp_path, monkeypatch):
    import json
    run = tmp_path / "results" / "20990101-000000-decide-campaign"
    run.mkdir(parents=True)
    (run / "provenance-0.json").write_text(json.dumps(dict(
        gpu="NVIDIA GeForce RTX 4060", profile="decide", timestamp="2099-01-01T00:00:00+00:00",
        cuda_runtime_version=12080, driver_version=12080, cupy="13.6.0", gpu_memory_bytes=8 * 2**30)))
    pd.DataFrame(dict(algorithm=["katz_kider"], n=[16384], status=["error"],
                      error=["GPUMemoryError: katz_kider: needs 9000.0 MiB of device memory, 7000.0 MiB free of "
                             "8192.0 MiB; try a smaller graph"])).to_csv(run / "process-0.csv", index=False)
    reports = tmp_path / "reports"
    reports.mkdir()
    u = pd.concat([_mine("kk_vs_fw", results=str(run), device="NVIDIA GeForce RTX 4060"),
                   _mine("tuwien_cpu_break_even", results=str(run), device="NVIDIA GeForce RTX 4060")])
    index, _ = _render(reports, monkeypatch, u)
    text = FI.visible_text(index.split('id="your-run"')[1])
    assert "Your machine: NVIDIA GeForce RTX 4060, profile decide, measured 2099-01-01 00:00 UTC" in text
    assert "CUDA runtime: yours 12.8, the reference's 13.2" in text and "CuPy: yours 13.6.0, the reference's 14.2.0" in text
    assert "Sizes this GPU's memory refused" in text and "katz_kider at n = 16384" in text
    assert "n = 16384 does not fit this GPU's memory" in text


def test_a_row_is_measured_here_only_where_it_names_other_runs_than_the_reference():
    assert CM.runs_named("data/results/20261123-021527-nthu-single .. 20261125-154708-nthu-single (6 runs)") == {
        "20261123-021527-nthu-single", "20261125-154708-nthu-single"}
    assert CM._same_run("/elsewhere/data/results/20261124-235000-paper-campaign",
                        "data/results/20261124-235000-paper-campaign")
    assert CM._same_run("-", "-") and not CM._same_run(MINE, "data/results/20261124-235000-paper-campaign")
