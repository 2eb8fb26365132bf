"""The study registry: every claim names a registered study and one of its notebooks; a claim added to an
existing study reaches the summary at once, as *not testable* until a rule of its study names it (no claim is
decided by a measurement nobody wrote for it)."""

import pandas as pd
import pytest
import yaml

from apsp_kernels import paths
from apsp_kernels.study import records
from apsp_kernels.study.method import claims
from apsp_kernels.study.registry import STUDIES, of_notebook
from apsp_kernels.study.report import summary

NOTEBOOKS = {p.stem for p in (paths.ROOT / "notebooks").glob("*.ipynb")}


def test_every_claim_names_a_study_and_one_of_its_notebooks():
    for cid, c in claims.load().items():
        assert c.get("study") in STUDIES, f"claim {cid}: study {c.get('study')!r} is not registered"
        assert c["notebook"] in STUDIES[c["study"]].notebooks, f"claim {cid}: {c['notebook']} is not {c['study']}'s"


def test_every_notebook_but_the_summary_belongs_to_one_study():
    owned = [nb for s in STUDIES.values() for nb in s.notebooks]
    assert len(owned) == len(set(owned))
    assert set(owned) | {"07_summary"} == NOTEBOOKS
    assert of_notebook("02_katz_kider").name == "kemp" and of_notebook("07_summary") is None


def test_every_study_declares_its_parts_and_code():
    for s in STUDIES.values():
        for f in s.code:
            assert (paths.ROOT / f).is_file(), f"{s.name}: declared code {f} is missing"
        assert s.load.__module__ == s.open.__module__ == f"apsp_kernels.study.seeds.{s.name}.study"
        assert s.figures.__name__.startswith("apsp_kernels.study.")
        assert s.runs(), f"{s.name}: no recorded batch"
        assert [b.name for b in s.runs()] == sorted(b.name for b in s.runs())


def test_declared_code_is_fingerprinted():
    from apsp_kernels.measure import provenance
    for s in STUDIES.values():
        assert set(s.code) <= set(provenance.CODE_GLOBS)


# One dummy `range` claim per study with recorded batches (the tuned line has targets, not claims), on a pair of codes
# the study times; no rule names it, so it must reach the summary as 'not testable', saying why.
DUMMIES = {
    "kemp": dict(notebook="02_katz_kider", algorithm="katz_kider", variant=16, baseline="fw_sequential", time="end_to_end"),
    "hochberg": dict(notebook="08_hochberg", algorithm="hochberg_align", variant="64", baseline="fw_blocked_parallel",
                     baseline_variant="64", time="end_to_end"),
    "nthu": dict(notebook="09_nthu", algorithm="nthu_blocked", variant="b32-dim3-branch", baseline="nthu_blocked",
                 baseline_variant="b8-dim3-branch", time="kernel"),
    "iitkgp": dict(notebook="10_iitkgp", algorithm="katz_kider", variant="16", baseline="fw_sequential",
                   time="end_to_end", graph="random-2700"),
}


def _dummy_claims(tmp_path, study):
    """A copy of data/claims.yaml with one more claim of ``study`` (:data:`DUMMIES`); no code anywhere names it."""
    doc = yaml.safe_load(claims.CLAIMS_FILE.read_text(encoding="utf-8"))
    dummy = dict(id=f"dummy_{study}", kind="range", unit="x", claimed=[1, 1000], tolerance=1.25, study=study,
                 paper_n=[1024], quote="A dummy claim.", where="nowhere", source="a test",
                 quantity="time of the baseline / time of the algorithm", hardware="-", testable_here=True,
                 not_testable_reason="", readings=[], **DUMMIES[study])
    doc["claims"].append(dummy)
    f = tmp_path / "claims.yaml"
    f.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return f


@pytest.mark.slow
@pytest.mark.parametrize("study", sorted(DUMMIES))
def test_a_claim_added_to_claims_yaml_reaches_the_summary(study, tmp_path, monkeypatch):
    assert set(DUMMIES) == {name for name, s in STUDIES.items() if s.runs() and name != "tuned"}
    from apsp_kernels.study.method import verdicts as V
    s = STUDIES[study]
    run = [b for b in s.runs() if study != "nthu" or b.name.endswith("-single")][-1]
    loaded = s.load(run)
    monkeypatch.setenv("APSP_CLAIMS", str(_dummy_claims(tmp_path, study)))
    cid = f"dummy_{study}"
    assert cid in s.claims()
    rows = s.verdict_rows(loaded)
    table = rows if isinstance(rows, pd.DataFrame) else V.table(rows)
    reports = tmp_path / "reports"
    monkeypatch.setattr(paths, "REPORTS", reports)
    for nb, t in table.groupby("notebook"):
        records.publish(nb, t.drop(columns="notebook"), device="-", results=run.name, reports_dir=reports)
    got = summary.collect_verdicts()
    row = got[got["claim"] == cid]
    assert len(row) == 1 and row["notebook"].iloc[0] == DUMMIES[study]["notebook"]
    assert row["verdict"].iloc[0] == "not testable" and "no rule of" in row["reason"].iloc[0]


def test_a_claim_no_rule_names_is_not_testable_and_says_why():
    c = dict(id="x", kind="range", claimed=[1, 2], tolerance=1.25, algorithm="katz_kider", baseline="fw_sequential",
             notebook="10_iitkgp")
    row = STUDIES["iitkgp"].no_rule_row(c)
    assert row["verdict"] == "not testable" and "no rule of study iitkgp decides this claim" in row["reason"]


def test_a_claim_whose_rule_needs_a_tolerance_must_state_one(tmp_path):
    doc = yaml.safe_load(claims.CLAIMS_FILE.read_text(encoding="utf-8"))
    c = next(c for c in doc["claims"] if c["kind"] == "range" and c.get("tolerance"))
    del c["tolerance"]
    f = tmp_path / "claims.yaml"
    f.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    with pytest.raises(ValueError, match=f"claim '{c['id']}' \\(range\\) has no tolerance"):
        claims.load(f)


def test_the_hochberg_default_graph_is_his():
    from apsp_kernels.study.seeds.hochberg import load
    assert STUDIES["hochberg"].graph == load.HIS_GRAPH


def test_one_entry_point_measures_every_study(capsys):
    from apsp_kernels.study.__main__ import main
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in STUDIES)
    for name in STUDIES:                 # each study's own measurement answers --help
        try:
            rc = main(["measure", name, "--help"])
        except SystemExit as e:
            rc = e.code
        assert rc in (0, None), name
        assert "usage:" in capsys.readouterr().out, name
    with pytest.raises(SystemExit, match="no study 'nosuch'"):
        main(["measure", "nosuch"])


def test_the_device_wrappers_call_the_entry_point():
    for script, study in (("device_campaign.sh", "kemp"), ("device_hochberg.sh", "hochberg"), ("device_iitkgp.sh", "iitkgp"),
                          ("device_nthu_multi.sh", "nthu")):
        assert f"python3 -m apsp_kernels.study measure {study} " in (paths.ROOT / "scripts" / script).read_text()
