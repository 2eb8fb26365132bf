"""The reference on a second GPU model: a recorded batch with its own verdict table on another GPU than the
reference's is found, compared claim by claim, and shown with the claims whose verdict differs first; a batch on
the reference's GPU, or without a verdict table, is not.  Fixtures in a temporary results folder."""
import json
import shutil

import pandas as pd

from apsp_kernels.study.report import compare as CM
from apsp_kernels.study.report import second_gpu as SG

REF = CM.reference_rows()


def _batch(root, name, gpu, boots, rows=None):
    d = root / name
    d.mkdir(parents=True)
    for i, b in enumerate(boots):
        (d / f"provenance-{i}.json").write_text(json.dumps(dict(gpu=gpu, boot_id=b, profile="decide",
                                                                timestamp="2026-11-28T10:03:02+00:00",
                                                                git_commit="beea47a2612b")))
    if rows is not None:
        rows.to_csv(d / "verdicts.csv", index=False)
    return d


def _mine(claims, **change):
    r = REF[REF["claim"].isin(claims)].drop(columns=["ours"]).rename(columns={"ours_value": "ours"})
    r = r.assign(results="data/results/20261128-100300-decide-campaign", profile="decide", device="NVIDIA H200")
    for k, v in change.items():
        r[k] = v
    return r


def test_a_batch_on_another_gpu_is_found_compared_and_its_differences_come_first(tmp_path):
    ref_dir = CM.reference_table().parent
    shutil.copytree(ref_dir, tmp_path / ref_dir.name)
    mine = _mine(["kk_vs_fw", "tuwien_cpu_break_even"])
    i = mine.index[mine["claim"] == "tuwien_cpu_break_even"]
    mine.loc[i, ["ours", "ci_lo", "ci_hi", "verdict"]] = [400.0, 380.0, 420.0, "differs in magnitude"]
    _batch(tmp_path, "20261128-100300-decide-campaign", "NVIDIA H200", ["a", "b", "c"], mine)
    _batch(tmp_path, "20261128-110000-decide-campaign", "NVIDIA H200", ["d"])                    # no verdict table
    _batch(tmp_path, "20261128-120000-decide-campaign", SG.provenance(ref_dir)["gpu"], ["e"], mine)   # same GPU
    found = SG.batches(tmp_path)
    assert [d.name for d, _ in found] == ["20261128-100300-decide-campaign"]
    assert SG.leases(found[0][0]) == 3
    t = SG.comparison(found[0][0], REF)
    assert dict(zip(t["claim"], t["outcome"])) == {"kk_vs_fw": CM.SAME, "tuwien_cpu_break_even": CM.DIFFERENT}
    page = SG.section_html(REF, root=tmp_path)
    assert "NVIDIA H200" in page and "3 machine leases" in page and "1 same verdict, 1 different verdict" in page
    differs = page.split("Where the verdict differs")[1].split("<details>")[0]
    assert "larger than claimed" in differs and "400" in differs


def test_nothing_is_shown_without_such_a_batch(tmp_path):
    ref_dir = CM.reference_table().parent
    shutil.copytree(ref_dir, tmp_path / ref_dir.name)
    assert SG.batches(tmp_path) == [] and SG.section_html(REF, root=tmp_path) == ""


def test_the_recorded_h200_batch_is_compared_with_the_reference():
    """The decide campaign measured on three H200 leases: every campaign claim compared, each decided (3 leases,
    the paper's sizes), and the index's section names the card."""
    found = dict((d.name, p) for d, p in SG.batches())
    assert found["20261128-100300-decide-campaign"]["gpu"] == "NVIDIA H200"
    d = SG.paths.RECORDED / "20261128-100300-decide-campaign"
    assert SG.leases(d) == 3 and SG.satellites(d) == 12 and SG.leases(d, satellites=True) == 3
    t = SG.comparison(d, REF)
    assert len(t) == 44 and set(t["outcome"]) <= {CM.SAME, CM.DIFFERENT}
    page = SG.section_html(REF)
    assert "NVIDIA H200" in page and "main processes on 3 machine leases; 12 satellite processes on 3 leases" in page
