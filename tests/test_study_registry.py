"""The study registry (issue 31): every claim names a registered study and one of its notebooks; a claim
added to an existing study needs nothing but its lines in data/claims.yaml to reach the summary."""

from dataclasses import replace

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
        for part in ("load", "verdicts"):
            assert s.module(part).__name__.endswith(f"seeds.{s.name}.{part}")
        assert s.runs(), f"{s.name}: no recorded batch"
        assert [b.name for b in s.runs()] == sorted(b.name for b in s.runs())


def test_declared_code_is_fingerprinted():
    from apsp_kernels.measure import provenance
    for s in STUDIES.values():
        assert set(s.code) <= set(provenance.CODE_GLOBS)


# One dummy `range` claim per study with recorded batches (the tuned line has targets, not claims): a pair of codes
# that the study's newest batch timed together on the graph named, at sizes of that batch; the rest of the claim
# (sizes: those where both codes ran) is filled from the batch's own table, so that the claim is decided, not
# 'not testable'.
DUMMIES = {
    "kemp": dict(notebook="02_katz_kider", algorithm="katz_kider", variant=16, baseline="fw_sequential", time="end_to_end"),
    "hochberg": dict(notebook="08_hochberg", algorithm="hochberg_align", variant="64", baseline="fw_blocked_parallel",
                     baseline_variant="64", time="end_to_end"),          # his fw.c against the CPU FW, on his graph
    "nthu": dict(notebook="09_nthu", algorithm="nthu_blocked", variant="b32-dim3-branch", baseline="nthu_blocked",
                 baseline_variant="b8-dim3-branch", time="kernel"),      # two of its blocking factors
    "iitkgp": dict(notebook="10_iitkgp", algorithm="katz_kider", variant="16", baseline="fw_sequential",
                   time="end_to_end", graph="random-2700"),               # no default graph: the claim names one
}


def _newest(study):
    """The study's newest batch with the measurement its default reads (NTHU: a one-GPU run), loaded."""
    s = STUDIES[study]
    run = [b for b in s.runs() if study != "nthu" or b.name.endswith("-single")][-1]
    return run, s.load(run)


def _dummy_claims(tmp_path, study, frame):
    """A copy of data/claims.yaml with one more claim of ``study`` (:data:`DUMMIES`) at the sizes where ``frame``
    timed both its codes on its graph; no code anywhere names it."""
    from apsp_kernels.study.method import speedups
    d = DUMMIES[study]
    pair = speedups.speedup_pair(frame, dict(d, graph=d.get("graph") or STUDIES[study].graph))[0]
    assert len(pair), f"{study}: the dummy's codes were not timed together in its newest batch"
    doc = yaml.safe_load(claims.CLAIMS_FILE.read_text(encoding="utf-8"))
    dummy = dict(id=f"dummy_{study}", kind="range", unit="x", claimed=[1, 1000], tolerance=1.25, study=study,
                 paper_n=[int(n) for n in pair["n"]], quote="A dummy claim.", where="nowhere", source="a test",
                 quantity="time of the baseline / time of the algorithm", hardware="-", testable_here=True,
                 not_testable_reason="", readings=[], **d)
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
    run, loaded = _newest(study)
    monkeypatch.setenv("APSP_CLAIMS", str(_dummy_claims(tmp_path, study, s.frame(loaded))))
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
    assert row["verdict"].iloc[0] in claims.VERDICTS
    assert row["verdict"].iloc[0] != "not testable", row["reason"].iloc[0]     # decided on the batch's runs


def test_a_claim_without_a_table_to_read_is_not_testable_and_says_why():
    """Never dropped: where a study declares no table, or its batch holds none, or a speed-up names no graph."""
    c = dict(id="x", kind="range", claimed=[1, 2], algorithm="katz_kider", baseline="fw_sequential", notebook="10_iitkgp")
    iit = STUDIES["iitkgp"]
    empty = type("Rep", (), {"measured": False, "df": pd.DataFrame()})()
    row = iit.default_row(c, empty)
    assert row["verdict"] == "not testable" and "holds no measurement" in row["reason"]
    row = iit.default_row(c, type("Rep", (), {"measured": True, "df": pd.DataFrame({"algorithm": ["katz_kider"], "n": [64], "params": [None]})})())
    assert row["verdict"] == "not testable" and "names no graph" in row["reason"]
    row = replace(iit, frame=None).default_row(c, empty)
    assert row["verdict"] == "not testable" and "declares no measurement table" in row["reason"]


def test_the_hochberg_default_graph_is_his():
    assert STUDIES["hochberg"].graph == STUDIES["hochberg"].module("load").HIS_GRAPH


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
