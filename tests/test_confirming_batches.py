"""The studies with their own measurement (seeds 001, 002, 004): each independent batch's verdicts side by
side (apsp_kernels.study.report.batches, over the registry's studies that declare confirming batches), the
recorded table recomputed from the records, and the pieces that word it."""
import json

import pandas as pd
import pytest

from apsp_kernels import paths
from apsp_kernels.study import records
from apsp_kernels.study.method import claims
from apsp_kernels.study.registry import STUDIES
from apsp_kernels.study.report import batches as B


def _long(rows):
    return pd.DataFrame([dict(study=s, batch=b, claim=c, verdict=v, ours=None, ci_lo=None, ci_hi=None, rests_on=r)
                         for s, b, c, v, r in rows])


def test_batches_side_by_side_count_the_claims_that_differ():
    long = _long([("A", "b1", "x", "reproduced", ""), ("A", "b2", "x", "reproduced", ""),
                  ("A", "b1", "y", "reproduced", ""), ("A", "b2", "y", "inconclusive", ""),
                  ("B", "c1", "z", "not testable", "")])
    wide = B.side_by_side(long)
    assert list(wide.set_index("claim")["same"]) == [True, False, True]
    assert wide.set_index("claim").loc["y", ["batch 1", "batch 2"]].tolist() == ["reproduced", "inconclusive"]
    s = B.sentence(wide)
    assert s.startswith("1 of 2 claims judged by two independent batches differ in verdict (y).")
    assert "1 claims were judged by one batch only" in s
    agree = B.sentence(B.side_by_side(long[long["claim"] != "y"]))
    assert agree.startswith("0 of 1 claims")


def test_rests_on_names_stand_ins_and_the_graphs_a_batch_did_not_measure():
    c = claims.load()["iitkgp_coarsening"]
    assert "generated stand-ins for 3 of 5 graphs" in B.rests_on(c) and "gene-human" in B.rests_on(c)
    measured = {("coarsen", g) for g in c["graphs"] if g != "geometric"}
    assert B.rests_on(c, measured).endswith("coarsen on geometric not measured in this batch")
    assert "not measured" not in B.rests_on(c, {("coarsen", g) for g in c["graphs"]})
    long = _long([("A", "b1", "x", "reproduced", "t"), ("A", "b2", "x", "reproduced", "t; more")])
    assert B.side_by_side(long)["rests on"].iloc[0] == "batch 1: t | batch 2: t; more"


def test_the_nthu_runs_of_one_day_form_one_batch(tmp_path):
    for name in ("20261123-021527", "20261123-093930", "20261125-151725"):
        d = tmp_path / f"{name}-nthu-single"
        d.mkdir()
        (d / "nthu-single.csv").write_text("n\n")
    got = STUDIES["nthu"].confirming[0].batches((tmp_path,))
    assert [(b.name, len(b.files)) for b in got] == [("20261123-nthu-single (2 runs)", 2), ("20261125-nthu-single (1 runs)", 1)]


def test_the_nthu_two_gpu_runs_on_one_model_of_card_form_one_batch_named_with_its_cards_and_dates(tmp_path):
    for name, gpu in (("20261123-092258", "NVIDIA H200"), ("20261124-224027", "NVIDIA H200"),
                      ("20261125-220255", "NVIDIA H100 80GB HBM3"), ("20261125-220543", "NVIDIA H100 80GB HBM3")):
        d = tmp_path / f"{name}-nthu-multi"
        d.mkdir()
        (d / "nthu-multi.csv").write_text("n\n")
        (d / "provenance.json").write_text(f'{{"gpu": "{gpu}", "gpu_count": 2}}')
    later = tmp_path / "20261201-000000-nthu-multi"             # a week on, the same model: a campaign of its own
    later.mkdir()
    (later / "nthu-multi.csv").write_text("n\n")
    (later / "provenance.json").write_text('{"gpu": "NVIDIA H100 80GB HBM3", "gpu_count": 2}')
    single, multi = STUDIES["nthu"].confirming
    assert single.batches((tmp_path,)) == []
    assert [(b.name, len(b.files)) for b in multi.batches((tmp_path,))] == [
        ("20261123 + 20261124-nthu-multi (2 runs, on 2 x NVIDIA H200)", 2),
        ("20261125-nthu-multi (2 runs, on 2 x NVIDIA H100 80GB HBM3)", 2),
        ("20261201-nthu-multi (1 runs, on 2 x NVIDIA H100 80GB HBM3)", 1)]
    assert multi.holds("nthu_multi_2gpu_speedup") and not multi.holds("nthu_bigger_blocks_faster")
    assert single.holds("nthu_bigger_blocks_faster") and not single.holds("nthu_stage_comm_share")


def test_the_compared_studies_are_the_registry_s_that_declare_confirming_batches():
    assert [s.name for s in B.confirming_studies()] == ["hochberg", "nthu", "iitkgp"]
    nthu = STUDIES["nthu"].confirming[0]
    assert not nthu.holds("nthu_multi_2gpu_speedup") and nthu.holds("nthu_bigger_blocks_faster")


@pytest.mark.slow
def test_the_recorded_table_is_what_the_records_give():
    """data/results/confirming-batches.csv, recomputed from the recorded batches: it cannot drift from them."""
    recorded = records.confirming_batches()
    assert recorded is not None, "python -m apsp_kernels.study.report.batches writes it"
    again = B.side_by_side(B.verdicts_by_batch()).astype(str)
    pd.testing.assert_frame_equal(recorded.astype(str).reset_index(drop=True), again.reset_index(drop=True))
    two = recorded[recorded["batch 2"] != ""]
    assert len(two) >= 26 and set(two["study"]) == {c.label for s in B.confirming_studies() for c in s.confirming}


def _unit(folder, boot, csv_text=None):
    folder.mkdir(parents=True)
    (folder / "provenance.json").write_text(json.dumps({"boot_id": boot}))
    if csv_text:
        (folder / "results.csv").write_text(csv_text)
    return folder


def test_a_batch_says_how_many_processes_ran_on_how_many_leases(tmp_path):
    # IIT Kharagpur's shape: one folder a batch, an invocation of 3 processes a stage
    inv = tmp_path / "b-iitkgp"
    _unit(inv / "apsp", "lease-a", "stage,process,n\napsp,0,10\napsp,1,10\napsp,2,10\n")
    _unit(inv / "sssp-geo", "lease-b", "stage,process,n\nsssp,0,10\nsssp,1,10\nsssp,2,10\n")
    us = B.units([inv])
    assert [(u["name"], u["lease"], u["processes"]) for u in us] == [("apsp", "lease-a", 3), ("sssp-geo", "lease-b", 3)]
    assert B.serving({"stage": "apsp"}, us) == us[:1]
    assert B.leases_text(us[:1]) == "3 processes on 1 lease (shared: lease lease-a: apsp, 3 processes)"
    assert B.leases_text(us).startswith("6 processes in 2 runs on 2 leases (shared: ")
    # NTHU's shape: one run a folder; a claim of n = 6000 rests on the runs that measured it
    runs = [_unit(tmp_path / name, boot, f"n\n{n}\n") for name, boot, n in
            (("r1-nthu-multi", "L1", 6000), ("r2-nthu-multi", "L1", 6000), ("r3-nthu-multi", "L1", 2048),
             ("r4-nthu-multi", "L2", 6000))]
    us = B.units(runs)
    stage = B.serving({"paper_n": [6000]}, us, {6000})
    assert [u["name"] for u in stage] == ["r1-nthu-multi", "r2-nthu-multi", "r4-nthu-multi"]
    assert B.leases_text(stage) == "3 processes on 2 leases (shared: lease L1: r1-nthu-multi, r2-nthu-multi)"
    assert [u["name"] for u in B.serving({"paper_n": []}, us, {6000})] == ["r3-nthu-multi"]
    assert B.leases_text(B.units([_unit(tmp_path / "p1", "L9")])) == "1 process on 1 lease"


def test_a_change_after_a_batch_was_measured_is_disclosed_in_the_rows_it_names():
    rows = [dict(date="2026-11-25T15:57:11+00:00", commit="abc1234", kind="statistic", study="s", change="ratio paired",
                 claims=["x"], batches_before=["b1", "b2"], moved="x: inconclusive -> reproduced in b2", disclosed="notes")]
    us = [dict(name="p1", lease="L1", processes=1, stages=set(), sizes=set())]
    text = B.disclosed({"id": "x"}, us, ["b2"], rows)
    assert text == ("1 process on 1 lease; 2026-11-25 15:57 UTC, abc1234 (statistic), after runs of this batch had been "
                    "measured: ratio paired; moved: x: inconclusive -> reproduced in b2")
    assert B.disclosed({"id": "y"}, us, ["b2"], rows) == "1 process on 1 lease"        # another claim
    assert B.disclosed({"id": "x"}, us, ["b3"], rows) == "1 process on 1 lease"        # a batch measured after it


def test_the_recorded_table_discloses_the_forking_paths_the_records_show():
    """The post-hoc pairing of Hochberg's ratio, the two-GPU batch completed after its interim verdicts, and the
    shared leases of IIT Kharagpur's invocations and of the 2 x H100 batch's stage runs, in the rows they touch."""
    t = records.confirming_batches()
    if t is None:
        pytest.skip("no recorded confirming-batches.csv")
    d = t.set_index("claim")["disclosed"]
    assert "7b62269 (statistic)" in d["hochberg_rows_faster_than_columns"]
    assert "890fee7 (stopping)" in d["nthu_stage_comm_share"] and "interim verdicts" in d["nthu_stage_comm_share"]
    assert "batch 2: 3 processes on 1 lease" in d["iitkgp_blocked_fw"]
    assert "batch 2: 3 processes on 2 leases (shared: lease 103d5169: 20261125-220255-nthu-multi, 20261125-220416" \
           in d["nthu_stage_comm_share"]
