"""A pre-registered batch is shown fixed before its data existed: every recorded provenance that names a plan names a
committed plan by its sha256, at that plan's code, from a commit with that plan's method.  And the plan writer, the
refusal to measure under a broken plan and the plan's Markdown, on plans written into tmp folders (never into
data/preregistration/)."""
import json
import subprocess
from pathlib import Path

import pytest
import yaml

from apsp_kernels import paths
from apsp_kernels.measure import provenance
from apsp_kernels.study import preregistration as P
from apsp_kernels.study.preregistration_md import render

ROOT = provenance.ROOT


def _git(*args, cwd=ROOT):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=30)


def _named(results=paths.RECORDED):
    """(file, record) of every recorded provenance that names a plan (one record, or one per invocation)."""
    out = []
    for f in sorted(Path(results).rglob("*provenance*.json")):
        d = json.loads(f.read_text())
        out += [(f, p) for p in d.get("invocations") or [d] if p.get("preregistration")]
    return out


def plan_problems(prov, root=ROOT, method_of=None):
    """What is wrong with a provenance record that names a plan ([]: nothing)."""
    method_of = method_of or (lambda c: provenance.fingerprint_of_commit(c, root, provenance.METHOD_GLOBS))
    named = prov["preregistration"]
    f = Path(root) / named["path"]
    if not f.is_file():
        return [f"plan {named['path']} is not in the repository"]
    bad = []
    if P.sha256_of(f) != named["sha256"]:
        bad.append(f"plan {named['path']} is not the plan it measured under (sha256 {named['sha256'][:12]})")
    plan = yaml.safe_load(f.read_text(encoding="utf-8"))
    if prov.get("code_fingerprint") != plan["code_fingerprint"]:
        bad.append(f"code fingerprint {str(prov.get('code_fingerprint'))[:12]} is not the plan's")
    commit = str(prov.get("git_commit") or "").removesuffix("-dirty")
    if method_of(commit) != plan["method_fingerprint"]:
        bad.append(f"the method of commit {commit[:12] or None} is not the plan's")
    return bad


def test_every_recorded_batch_under_a_plan_is_that_plans():
    named = _named()
    if not named:
        pytest.skip("no recorded provenance names a plan yet")
    if _git("rev-parse", "--is-shallow-repository").stdout.strip() != "false":
        pytest.skip("a shallow clone (or no git): the commits' method fingerprints cannot be computed")
    bad = {str(f.relative_to(ROOT)): why for f, p in named if (why := plan_problems(p))}
    assert not bad, bad


@pytest.fixture(scope="module")
def plan():
    return P.build("20990101-000000", ROOT / "data" / "preregistration" / "20990101-000000.yaml")


def test_the_plan_covers_every_claim_as_claims_yaml_has_it(plan):
    raw = yaml.safe_load((ROOT / "data" / "claims.yaml").read_text(encoding="utf-8"))["claims"]
    assert [c["id"] for c in plan["claims"]] == [c["id"] for c in raw]
    for c, r in zip(plan["claims"], raw):
        assert (c["study"], c["kind"], c["claimed"], c["tolerance"], c["paper_n"], c["graphs"]) == \
               (r["study"], r["kind"], r.get("claimed"), r.get("tolerance"), r.get("paper_n"), r.get("graphs")), c["id"]
        assert c["quantity"].get("time") == r.get("time") and c["quantity"].get("algorithm") == r.get("algorithm")
        if r.get("testable_here", True):
            assert c["rule"].startswith("method.") and c["settings"], c["id"]
            assert all(rule.strip() in plan["rules"] for rule in c["rule"].split(" or ")), c["id"]
        else:
            assert c["rule"].startswith("none") and c["reason"] == r["not_testable_reason"]
    assert plan["claims_sha256"] == P.sha256_of(ROOT / "data" / "claims.yaml")
    assert plan["method_fingerprint"] == provenance.method_fingerprint()
    assert plan["code_fingerprint"] == provenance.code_fingerprint()


def test_the_design_gives_every_setting_its_leases(plan):
    d = plan["design"]
    settings = {s["name"]: s for s in d["settings"]}
    assert {s["study"] for s in settings.values()} >= {c["study"] for c in plan["claims"]}
    for s in settings.values():
        assert s["leases"] >= (5 if s.get("two_gpu") else 3), s["name"]
        assert sorted({c["lease"] for c in s["commands"]}) == list(range(1, s["leases"] + 1)), s["name"]
        assert len({c["command"] for c in s["commands"]}) >= s["leases"] or s["study"] == "nthu", s["name"]
        assert s["device"] in (d["device"], f"{d['device']}-x2"), s["name"]    # one model of card for the batch
    two_gpu = [c for c in plan["claims"] if c["quantity"].get("algorithm") in P.two_gpu_codes()]
    assert two_gpu and all(c["leases"] >= 5 and all(settings[n].get("two_gpu") for n in c["settings"]) for c in two_gpu)
    assert all(c["leases"] >= 3 for c in plan["claims"] if c["testable_here"])
    kemp = [c["command"] for c in settings["kemp-campaign"]["commands"] if c["lease"] == 1]
    assert kemp == ["./run_all.sh --profile paper --batch 20990101-000000 --processes 0 --stage measure",      # ~8 min
                    "./run_all.sh --profile paper --batch 20990101-000000 --processes 5,6,7,8 --stage measure"]  # its satellites
    assert d["environment"]["APSP_PREREGISTRATION"] == "data/preregistration/20990101-000000.yaml"
    assert d["stopping_rule"] and plan["report"] and d["device"] == "nvidia-h100"


def test_too_few_leases_are_refused():
    with pytest.raises(ValueError):
        P.design("B", leases=2)
    with pytest.raises(ValueError):
        P.design("B", two_gpu_leases=4)


def test_writing_refuses_a_dirty_tree(tmp_path):
    g = ["-c", "user.name=t", "-c", "user.email=t@t"]
    assert _git("init", "-q", cwd=tmp_path).returncode == 0
    (tmp_path / "a.txt").write_text("one\n")
    _git("add", "a.txt", cwd=tmp_path)
    assert _git(*g, "commit", "-qm", "one", cwd=tmp_path).returncode == 0
    assert P.dirty(tmp_path) == []
    (tmp_path / "a.txt").write_text("two\n")
    with pytest.raises(SystemExit, match="dirty tree"):
        P.write(tmp_path / "plan.yaml", root=tmp_path)
    assert not (tmp_path / "plan.yaml").exists()


def test_a_written_plan_checks(plan, tmp_path):
    f = tmp_path / "plan.yaml"
    f.write_text(P.dump(plan), encoding="utf-8")
    bad = P.check(f)
    clean = not P.dirty()
    assert bad == [] if clean else all("of method_commit" in b for b in bad), bad
    broken = yaml.safe_load(f.read_text())
    broken["claims"] = broken["claims"][1:]
    broken["design"]["settings"][0]["leases"] = 2
    f.write_text(P.dump(broken), encoding="utf-8")
    bad = P.check(f)
    assert any(plan["claims"][0]["id"] in b for b in bad) and any("kemp-campaign" in b for b in bad)


def _plan_file(tmp_path, **fingerprints):
    f = tmp_path / "plan.yaml"
    f.write_text(yaml.safe_dump({"method_fingerprint": provenance.method_fingerprint(),
                                 "code_fingerprint": provenance.code_fingerprint(), **fingerprints}))
    return f


def test_collect_refuses_a_plan_whose_method_is_not_this_trees(tmp_path, monkeypatch):
    monkeypatch.setenv(provenance.PLAN_ENV, str(_plan_file(tmp_path, method_fingerprint="0" * 40)))
    with pytest.raises(provenance.ProvenanceError, match="method_fingerprint"):
        provenance.collect("test")
    monkeypatch.setenv(provenance.PLAN_ENV, str(_plan_file(tmp_path, code_fingerprint="0" * 40)))
    with pytest.raises(provenance.ProvenanceError, match="code_fingerprint"):
        provenance.collect("test")
    monkeypatch.setenv(provenance.PLAN_ENV, str(tmp_path / "missing.yaml"))
    with pytest.raises(provenance.ProvenanceError, match="no plan file"):
        provenance.collect("test")


def test_collect_names_the_plan_it_measures_under(tmp_path, monkeypatch):
    f = _plan_file(tmp_path)
    monkeypatch.setenv(provenance.PLAN_ENV, str(f))
    assert provenance.collect("test")["preregistration"] == {"path": str(f.resolve()), "sha256": P.sha256_of(f)}
    monkeypatch.delenv(provenance.PLAN_ENV)
    assert "preregistration" not in provenance.collect("test")


def test_the_guard_catches_a_changed_plan_and_other_code(tmp_path):
    plan = tmp_path / "data" / "preregistration" / "B.yaml"
    plan.parent.mkdir(parents=True)
    plan.write_text(yaml.safe_dump({"method_fingerprint": "m" * 40, "code_fingerprint": "c" * 40}))
    prov = {"git_commit": "abc", "code_fingerprint": "c" * 40,
            "preregistration": {"path": "data/preregistration/B.yaml", "sha256": P.sha256_of(plan)}}
    method = {"abc": "m" * 40}.get
    assert plan_problems(prov, tmp_path, method) == []
    assert len(plan_problems({**prov, "code_fingerprint": "x"}, tmp_path, method)) == 1
    assert len(plan_problems({**prov, "git_commit": "def-dirty"}, tmp_path, method)) == 1
    plan.write_text(plan.read_text() + "# changed after the batch\n")
    assert any("not the plan it measured under" in b for b in plan_problems(prov, tmp_path, method))
    results = tmp_path / "results" / "B-hochberg" / "p1"
    results.mkdir(parents=True)
    (results / "provenance.json").write_text(json.dumps({"invocations": [{}, prov]}))
    assert [p for _, p in _named(tmp_path / "results")] == [prov]


def test_the_markdown_shows_the_whole_plan(plan):
    text = render(plan, "f" * 64, "data/preregistration/20990101-000000.yaml")
    assert "f" * 64 in text and plan["method_fingerprint"] in text and plan["code_fingerprint"] in text
    assert all(f"| {c['id']} |" in text for c in plan["claims"])
    assert all(c["command"] in text for s in plan["design"]["settings"] for c in s["commands"])
    assert all(r in text for r in plan["design"]["stopping_rule"] + plan["report"])
