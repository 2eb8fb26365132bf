"""The pre-registered confirmatory batch beside the reference: its runs are found by the plan's sha256 in their
provenance (not by folder name or date), each setting of the plan's design says how many of its leases are measured,
and no verdict of the batch is computed before every setting is complete; then every claim of the plan is set beside
the reference's verdict, same or different.  On a tiny recorded plan and results tree (tests/data/confirmatory/),
copied into tmp_path; nothing is written into reports/, data/results/ or figures/."""
import shutil
from pathlib import Path

import pandas as pd
import pytest

from apsp_kernels.study import preregistration as P
from apsp_kernels.study.report import compare as CM
from apsp_kernels.study.report import confirmatory as CF
from apsp_kernels.study.report import confirmatory_html as CH

DATA = Path(__file__).resolve().parent / "data" / "confirmatory"
PLAN = DATA / "plan.yaml"
SHA = P.sha256_of(PLAN)
REF = CM.reference_rows()
COMMITTED = CF.PLANS / "20261128-142438.yaml"      # the plan in force
REPLACED = CF.PLANS / "20261128-111300.yaml"


def _results(tmp_path, drop=()):
    """The recorded fixture tree in tmp_path, less the paths ``drop`` (below the results root)."""
    root = tmp_path / "results"
    shutil.copytree(DATA / "results", root)
    for rel in drop:
        p = root / rel
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    return root


def _plans(tmp_path):
    where = tmp_path / "plans"
    where.mkdir(exist_ok=True)
    shutil.copy(PLAN, where / PLAN.name)
    return where


def _forbid_verdicts(monkeypatch):
    """Any verdict of the batch, or any comparison with the reference, fails the test."""
    def refuse(*a, **k):
        raise AssertionError("a verdict of a partial batch was computed")
    for name in ("batch_verdicts", "study_rows", "comparison"):
        monkeypatch.setattr(CF, name, refuse)
    monkeypatch.setattr(CM, "compare", refuse)


def _by_name(st):
    return {s.name: s for s in st.settings}


def test_the_fixture_runs_name_the_fixture_plan():
    assert all(SHA in f.read_text() or "preregistration" not in f.read_text() or "f" * 64 in f.read_text()
               for f in (DATA / "results").rglob("provenance*.json"))
    assert CF.named_folders(SHA, DATA / "results")


def test_no_batch_is_not_yet_measured(tmp_path, monkeypatch):
    root = _results(tmp_path, drop=[d.name for d in (DATA / "results").iterdir()
                                    if d.name not in ("20990101-050000-nthu-single", "20990101-000000-hochberg")]
                    + ["20990101-000000-hochberg/p1", "20990101-000000-hochberg/p2"])
    _forbid_verdicts(monkeypatch)
    (st,) = CF.states(REF, root, _plans(tmp_path))
    assert not st.measured and not st.complete and st.table is None
    assert {s.status for s in st.settings} == {CF.NOT_MEASURED}
    page = CH.section_html(REF, root, _plans(tmp_path))
    assert "Not yet measured" in page and SHA in page and "20990101-000000" in page
    assert "kemp-campaign: 0 of 2 leases; hochberg: 0 of 2; nthu-single: 0 of 2" in page
    assert CM.SAME not in page and CM.DIFFERENT not in page


def test_runs_are_grouped_by_the_plans_hash_not_by_folder_or_day(tmp_path):
    root = _results(tmp_path)
    named = {d.relative_to(root).as_posix() for d in CF.named_folders(SHA, root)}
    assert "20990101-000000-hochberg/p3" not in named            # named as the batch's, measured under another plan
    assert "20990101-050000-nthu-single" not in named            # under no plan
    assert {"20990101-010000-nthu-single", "20990103-010000-nthu-single"} <= named      # days apart, one batch
    s = _by_name(CF.state(PLAN, root=root))
    assert s["hochberg"].shown_folders == ["20990101-000000-hochberg/p1", "20990101-000000-hochberg/p2"]
    assert sorted(lease.key for lease in s["kemp-campaign"].leases) == ["1", "2"]
    # two two-GPU settings on one lease each day, told apart by their sizes; the H200 lease is not counted
    assert s["nthu-multi-stage"].shown_folders == ["20990101-030000-nthu-multi", "20990102-030000-nthu-multi"]
    assert s["nthu-multi-big"].shown_folders == ["20990101-030500-nthu-multi", "20990102-030500-nthu-multi"]
    assert [lease.gpu for lease in s["nthu-multi-stage"].elsewhere] == ["NVIDIA H200"]
    assert sorted(lease.key for lease in s["nthu-multi-stage"].leases) == ["x1", "x2"]


def test_a_partial_batch_shows_its_progress_and_computes_no_verdict(tmp_path, monkeypatch):
    root = _results(tmp_path, drop=["20990101-000000-hochberg/p2", "20990102-030500-nthu-multi",
                                    "20990101-000000-paper-campaign/process-1.csv"])
    with pytest.raises(RuntimeError, match="not complete"):
        CF.batch_verdicts(CF.state(PLAN, root=root), root)
    _forbid_verdicts(monkeypatch)
    st = CF.state(PLAN, root=root, ref=REF)
    assert st.measured and not st.complete and st.table is None
    s = _by_name(st)
    assert [(n, len(s[n].leases), s[n].status) for n in s] == [
        ("kemp-campaign", 1, CF.PARTIAL), ("hochberg", 1, CF.PARTIAL), ("nthu-single", 2, CF.COMPLETE),
        ("nthu-multi-stage", 2, CF.COMPLETE), ("nthu-multi-big", 1, CF.PARTIAL)]
    page = CH.section_html(REF, root, _plans(tmp_path))
    assert "Partial" in page and SHA in page
    assert ("kemp-campaign: 1 of 2 leases; hochberg: 1 of 2; nthu-single: 2 of 2; nthu-multi-stage: 2 of 2; "
            "nthu-multi-big: 1 of 2") in page
    assert "on another model of GPU" in page
    assert CM.SAME not in page and CM.DIFFERENT not in page and "confirmatory [95% CI]" not in page


def _row(claim, **change):
    r = REF[REF["claim"] == claim].iloc[0].to_dict()
    r.update(change)
    if "ours_value" in change:
        r["ours"] = change["ours_value"]
    return r


def test_a_complete_batch_is_set_beside_the_reference_claim_by_claim(tmp_path, monkeypatch):
    root = _results(tmp_path)
    seen = {}
    fake = {"kemp": [_row("tran_fw_vs_fw"),
                     _row("kk_vs_fw", verdict="reproduced", ours_value=100.0, ci_lo=90.0, ci_hi=110.0)],
            "nthu": [_row("nthu_unrolled_32_vs_64")],
            "hochberg": []}                                   # a claim the batch's rows lack: said, never dropped

    def rows(study, batch, C):
        seen[study] = batch
        return pd.DataFrame(fake[study])
    monkeypatch.setattr(CF, "study_rows", rows)
    st = CF.state(PLAN, root=root, ref=REF)
    assert st.complete
    assert seen["kemp"].path.name == "20990101-000000-paper-campaign" and not seen["kemp"].files
    assert seen["hochberg"].path.name == "20990101-000000-hochberg" and not seen["hochberg"].files
    assert sorted(Path(f).name for f in seen["nthu"].files) == [
        "20990101-010000-nthu-single", "20990101-030000-nthu-multi", "20990101-030500-nthu-multi",
        "20990102-030000-nthu-multi", "20990102-030500-nthu-multi", "20990103-010000-nthu-single"]
    t = st.table
    assert list(t["claim"]) == ["tran_fw_vs_fw", "kk_vs_fw", "nthu_unrolled_32_vs_64", "hochberg_works_to_20000"]
    outcome = dict(zip(t["claim"], t["outcome"]))
    assert outcome == {"tran_fw_vs_fw": CM.SAME, "kk_vs_fw": CM.DIFFERENT, "nthu_unrolled_32_vs_64": CM.SAME,
                       "hochberg_works_to_20000": CM.UNDECIDABLE}
    why = dict(zip(t["claim"], t["why"]))
    assert "confirmatory reproduced" in why["kk_vs_fw"] and "the confirmatory number is 6.6x smaller" in why["kk_vs_fw"]
    assert "no row" in why["hochberg_works_to_20000"]
    page = CH.section_html(REF, root, _plans(tmp_path))
    assert "2 same verdict, 1 different verdict, 1 not decidable" in page and SHA in page
    differs = page.split("Where the verdict differs")[1].split("<details>")[0]
    assert "reproduced" in differs and "6.6x smaller" in differs and "confirmatory [95% CI]" in differs


def test_the_committed_plan_is_shown_with_its_hash_and_design():
    st = CF.state(COMMITTED)
    assert st.sha256 == P.sha256_of(COMMITTED) and st.batch == "20261128-142438"
    planned = {s.name: s.planned for s in st.settings}
    assert planned["kemp-campaign"] == 5 and planned["hochberg"] == 3 and planned["nthu-multi-big"] == 5
    kemp = next(s for s in st.plan["design"]["settings"] if s["name"] == "kemp-campaign")
    assert CF._lease_processes(kemp)[1] == {0, 5, 6, 7, 8}
    page = CH.section_html(REF)
    assert st.sha256 in page and 'id="confirmatory"' in page and "kemp-campaign" in page
    assert P.sha256_of(REPLACED) not in page and "<code>20261128-111300.yaml</code> was replaced" in page


def test_a_lease_counts_on_the_plans_model_of_gpu_only():
    assert CF._on_model("nvidia-h100", "NVIDIA H100 80GB HBM3")
    assert CF._on_model("nvidia-h100-x2", "NVIDIA H100 80GB HBM3")
    assert not CF._on_model("nvidia-h100", "NVIDIA H200") and not CF._on_model("nvidia-h100", None)


def test_a_replaced_plan_is_named_and_not_followed(tmp_path, monkeypatch):
    """A plan replaced before any of its data (replaced.csv beside the plans; the plan's file is never edited)
    leaves the report's plans and is named, with its successor and why, in one line."""
    _forbid_verdicts(monkeypatch)
    where = _plans(tmp_path)
    shutil.copy(PLAN, where / "20990101-000001.yaml")            # its successor (same content: a fixture)
    (where / CF.REPLACED).write_text("plan,replaced_by,date,why\n"
                                     "plan.yaml,20990101-000001.yaml,2099-01-01,the method changed before any data\n")
    assert [p.name for p, _ in CF.plans(where)] == ["20990101-000001.yaml"]
    assert len(CF.plans(where, include_replaced=True)) == 2
    empty = tmp_path / "no-results"
    empty.mkdir()
    html = CH.section_html(REF, empty, where)
    assert "was replaced by <code>20990101-000001.yaml</code>" in html and "the method changed before any data" in html
