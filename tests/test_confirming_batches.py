"""The studies with their own measurement (seeds 001, 002, 004): each independent batch's verdicts side by
side (apsp_kernels.study.report.batches, over the registry's studies that declare confirming batches), the
recorded table recomputed from the records, and the pieces that word it."""
import pandas as pd
import pytest

from apsp_kernels import paths
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
    recorded = B.load_table()
    assert recorded is not None, "python -m apsp_kernels.study.report.batches writes it"
    again = B.side_by_side(B.verdicts_by_batch()).astype(str)
    pd.testing.assert_frame_equal(recorded.astype(str).reset_index(drop=True), again.reset_index(drop=True))
    two = recorded[recorded["batch 2"] != ""]
    assert len(two) >= 26 and set(two["study"]) == {c.label for s in B.confirming_studies() for c in s.confirming}
