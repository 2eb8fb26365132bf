"""The reasons a person writes, on the recorded reference verdict table: every claim that differs or is not
reproduced gets a sentence of circumstances (not the rule's tally), each saying what it rests on, and the known
cases say what the records hold (a published kernel that fails verification, a one-thread CPU divisor, a sampled
divisor, a verdict that holds only within the tolerance or is computed, the paper's GPU against ours)."""
import re

import pandas as pd
import pytest

from apsp_kernels.study.method import claims as claims_mod
from apsp_kernels.study.report import compare, correctness, reasons
from apsp_kernels.study.report import findings_text as FT

TALLY = re.compile(r"inside at \d|above at \d|below at \d|across an edge at \d|holds at \d|within the noise at \d")


@pytest.fixture(scope="module")
def ref():
    v = compare.reference_rows()
    if v is None:
        pytest.skip("no recorded reference verdict table")
    return v


@pytest.fixture(scope="module")
def why(ref):
    return reasons.table(ref).set_index("claim")


@pytest.fixture(scope="module")
def fail(ref):
    return correctness.failures(correctness.batch_dirs(ref))


def test_every_claim_that_differs_gets_circumstances_not_a_tally(ref, why):
    differ = ref[ref["verdict"].isin(["differs in magnitude", "not reproduced"])]["claim"]
    assert len(differ)
    for cid in differ:
        said = why.loc[cid, "why"]
        assert why.loc[cid, "kinds"], f"{cid}: no circumstance found"
        assert not TALLY.search(said), f"{cid}: a tally, not a reason: {said}"
        assert said.endswith(".") and "[" in said, cid              # each circumstance names what it rests on
    assert set(why.index) == set(ref["claim"])


def test_the_published_iitkgp_sssp_kernel_fails_verification_and_the_claims_say_so(why, fail):
    f = correctness.of(fail, "harish_sssp", "original")
    assert f is not None and f["wrong"] == f["runs"] > 0          # wrong on every recorded run
    for cid in ("iitkgp_sssp", "iitkgp_race_wrong_result"):
        said = why.loc[cid, "why"]
        assert f"wrong distances in {f['wrong']} of {f['runs']}" in said, said
        assert "verified cells" in said and f["batches"] in said
    assert "so ours times the corrected kernel ('corrected')" in why.loc["iitkgp_sssp", "why"]


def test_a_claim_against_one_cpu_thread_says_so_with_the_best_cpu_beside(ref, why):
    said = why.loc["tran_fw_vs_fw", "why"]
    assert "Sequential FW (CPU, 1 thread), runs on one CPU thread" in said
    best = FT.best_cpu_of(ref.set_index("claim").loc["tran_fw_vs_fw", "best_cpu"])
    assert f"against the best CPU code here (Dijkstra APSP (CPU, all cores)) the same GPU code gives {best[0]}" in said
    assert "one_thread" in why.loc["tran_fw_vs_fw", "kinds"]


def test_sampled_tolerance_computed_and_hardware_circumstances(ref, why):
    rows = ref.set_index("claim")
    sampled = rows[rows["baseline_timed"].astype(str).str.contains("sampled")].index
    assert all("extrapolated from a sample" in why.loc[c, "why"] for c in sampled)
    for cid in rows[rows["basis"] == "within tolerance only"].index:
        assert "Agrees with the paper, though only through the tolerance" in why.loc[cid, "why"] and "set in" in why.loc[cid, "why"], cid
    from apsp_kernels.study.method import changes
    for cid in rows[rows["basis"] == "within tolerance only"].index:     # the change that set this claim's tolerance
        named = [x["commit"] for x in changes.load() if x["kind"] == "tolerance" and cid in x["claims"]]
        assert not named or f"set in {named[-1]}" in why.loc[cid, "why"], cid
    for cid in rows[rows["basis"] == "computed"].index:
        assert "computed, not run" in why.loc[cid, "why"], cid
    assert "the paper ran on the GeForce GTX 470" in why.loc["kk_vs_fw", "why"]
    assert "x the int32 throughput that bounds Katz & Kider blocked FW" in why.loc["kk_vs_fw", "why"]
    assert "generated stand-ins" in why.loc["iitkgp_blocked_fw", "why"]


def test_a_sentence_follows_its_row():
    """The circumstances are read from the row: change a cell, the sentence changes with it."""
    claims = claims_mod.load()
    c = claims["tran_fw_vs_fw"]
    row = dict(claim="tran_fw_vs_fw", verdict="differs in magnitude", basis="measured", ours_value=166.0,
               ours_text="166x [149, 184]", claimed_lo=48, claimed_hi=52, claimed="48-52x", leases=5,
               baseline_timed="measured", best_cpu="0.5x [0.4, 0.6] over dijkstra_cpu_parallel",
               hardware=c["hardware"], device="NVIDIA H100 80GB HBM3", reason="up to 5x larger than claimed")
    none = correctness.failures([])
    said = reasons.sentence(row, c, none)
    assert "lies 3.2x above the paper's band" in said and "0.50x [0.40, 0.60]" in said
    assert "extrapolated" not in said
    said = reasons.sentence(dict(row, baseline_timed="sampled", leases=1), c, none)
    assert "extrapolated from a sample at every size" in said and "rest on 1 machine lease" in said


def test_failures_are_counted_from_the_verified_cells(tmp_path):
    b = tmp_path / "20990101-000000-x"
    b.mkdir()
    pd.DataFrame(dict(algorithm=["harish_sssp"] * 3 + ["bfs_cpu"], variant=["original", "original", "corrected", None],
                      graph=["g1", "g2", "g1", "g1"], n=[10, 20, 10, 10], verified=[False, True, True, True])
                 ).to_csv(b / "results.csv", index=False)
    pd.DataFrame(dict(claim=["x"], verdict=["reproduced"])).to_csv(b / "verdicts.csv", index=False)
    v = pd.DataFrame(dict(claim=["x"], results=[f"data/results/{b.name}"]))
    folders = correctness.batch_dirs(v, tmp_path)
    assert folders == [b]
    f = correctness.failures(folders)
    assert f[["algorithm", "variant", "runs", "wrong", "graphs"]].values.tolist() == [["harish_sssp", "original", 2, 1, 1]]
    row = dict(claim="x", verdict="inconclusive", device="NVIDIA H100 80GB HBM3", hardware="not stated")
    said = reasons.sentence(row, dict(algorithm="harish_sssp", variant="corrected"), f)
    assert "returned wrong distances in 1 of 2 recorded runs on 1 graph, so ours times the corrected kernel" in said
