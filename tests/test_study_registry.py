"""The study registry (issue 31): every claim names a registered study and one of its notebooks; a claim
added to an existing study needs nothing but its lines in data/claims.yaml to reach the summary."""

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


def _dummy_claims(tmp_path):
    """A copy of data/claims.yaml with one more claim of an existing study (Katz & Kider over the sequential
    FW, in notebook 02), decided by its kind's default measurement."""
    doc = yaml.safe_load(claims.CLAIMS_FILE.read_text(encoding="utf-8"))
    kk = next(c for c in doc["claims"] if c["id"] == "kk_vs_fw")
    dummy = {k: kk[k] for k in ("kind", "unit", "time", "paper_n", "paper_n_step", "tolerance", "algorithm", "variant",
                                "baseline", "baseline_variant", "study", "notebook")}
    dummy |= dict(id="dummy_kk_vs_fw", claimed=[1, 1000], quote="A dummy claim.", where="nowhere", source="a test",
                  quantity=kk["quantity"], hardware="-", testable_here=True, not_testable_reason="", readings=[])
    doc["claims"].append(dummy)
    f = tmp_path / "claims.yaml"
    f.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return f


@pytest.mark.slow
def test_a_claim_added_to_claims_yaml_reaches_the_summary(tmp_path, monkeypatch):
    f = _dummy_claims(tmp_path)
    monkeypatch.setenv("APSP_CLAIMS", str(f))
    assert "dummy_kk_vs_fw" in claims.load() and claims.load()["dummy_kk_vs_fw"]["study"] == "kemp"
    kemp = STUDIES["kemp"]
    run = kemp.runs()[-1]
    table = kemp.verdict_rows(kemp.load(run))
    reports = tmp_path / "reports"
    monkeypatch.setattr(paths, "REPORTS", reports)
    for nb, t in table.groupby("notebook"):
        records.publish(nb, t.drop(columns="notebook"), device="-", results=run.name, reports_dir=reports)
    got = summary.collect_verdicts()
    row = got[got["claim"] == "dummy_kk_vs_fw"]
    assert len(row) == 1 and row["notebook"].iloc[0] == "02_katz_kider"
    assert row["verdict"].iloc[0] in claims.VERDICTS


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
