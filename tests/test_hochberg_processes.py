"""The Hochberg study over independent processes: a batch ``<batch>-hochberg/p<K>/`` of
scripts/hochberg_measure.py --batch B --process K, read by seeds/hochberg/load as one process per folder;
intervals over the processes' medians where two or more timed a point, the repeats of the one
process otherwise; a batch of mixed code refused; the recorded single run still one process."""
import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from apsp_kernels.study.method import claims
from apsp_kernels.study import words
from apsp_kernels import paths
from apsp_kernels.measure import provenance
from apsp_kernels.study.seeds.hochberg import analysis as H
from apsp_kernels.study.seeds.hochberg import load as D
from apsp_kernels.study.seeds.hochberg import verdicts as HV
from apsp_kernels.study.method import estimate

from script_runs import ROOT
from test_report_hochberg import _row

PROV = {"gpu": "test GPU", "timestamp": "2099-01-01", "sm_count": 132, "git_commit": "abc123", "code_fingerprint": "f00d"}
COLUMNS = "columns", ("hochberg_explore", "columns")


def _batch(tmp_path, per_process, name="20990101-000000-hochberg", prov=PROV):
    """A batch folder: ``per_process`` = [rows of p1, rows of p2, ...]."""
    d = tmp_path / name
    for k, rows in enumerate(per_process, 1):
        p = d / f"p{k}"
        p.mkdir(parents=True)
        pd.DataFrame(rows).to_csv(p / "results.csv", index=False)
        (p / "provenance.json").write_text(json.dumps(dict(prov, timestamp=f"2099-01-0{k}", boot_id=f"boot-{k}")))
    return d


def _explorations(scale, extra=()):
    """Columns against his text's layout at n = 100: tight repeats inside a process, ``scale`` apart between them."""
    tight = (0.999, 1.0, 1.001, 1.0, 1.0)
    return [_row("explorations", COLUMNS[1], 100, w=[10 * scale * f for f in tight], ev=[2 * scale * f for f in tight]),
            _row("explorations", H.TEXT, 100, w=[10 * f for f in tight], ev=[1.0 * f for f in tight]), *extra]


def test_a_batch_is_read_as_one_process_per_folder_and_intervals_are_over_leases(tmp_path):
    scales = (1.0, 1.3, 0.8)
    st = D.load(str(_batch(tmp_path, [_explorations(s) for s in scales])))
    assert [p.name for p in st.processes] == ["p1", "p2", "p3"] and sorted(st.raw["process"].unique()) == ["p1", "p2", "p3"]
    assert sorted(st.raw["lease"].unique()) == ["boot-1", "boot-2", "boot-3"]
    assert len(st.df) == 2 and (st.df["processes"] == 3).all()
    e = H.ratio(st, COLUMNS[1], H.TEXT, 100)
    # both codes ran in every process: paired there; the ratio itself moves between processes (2, 2.6, 1.6),
    # and the interval is over the three leases, not the tight repeats
    assert e.paired and e.leases == 3 and e.value == pytest.approx(2.0) and e.lo < 1.6 and e.hi > 2.6
    s = D.single_run(st.raw)
    assert s.startswith("3 device processes (p1, p2, p3) on 3 machine leases") and "provisional" not in s
    assert "3 independent device processes" not in st.meas.note and "2099-01-01 to 2099-01-03" in st.meas.note


def test_two_leases_are_provisional_and_a_point_of_one_process_has_no_interval(tmp_path):
    only = _row("explorations", H.GPU, 100, w=[9.0, 9.1, 8.9, 9.0, 9.0], ev=[0.9, 0.91, 0.89, 0.9, 0.9])
    st = D.load(str(_batch(tmp_path, [_explorations(1.0, [only]), _explorations(1.2)])))
    s = D.single_run(st.raw)
    assert s.startswith("2 device processes") and "provisional" in s
    e = H.ratio(st, H.GPU, H.TEXT, 100)        # paired in p1 alone: one lease
    assert e.leases == 1 and not e.has_interval and e.value == pytest.approx(0.9)
    assert st.df.loc[st.df["variant"] == "64", "processes"].iloc[0] == 1


def test_one_process_has_no_interval(tmp_path):
    st = D.load(str(_batch(tmp_path, [_explorations(1.0)])))
    assert [p.name for p in st.processes] == ["p1"] and "processes" not in st.df
    e = H.ratio(st, COLUMNS[1], H.TEXT, 100)
    assert e.value == pytest.approx(2.0) and not e.has_interval
    assert D.single_run(st.raw).startswith("single run: one device process")


def test_a_batch_without_boot_ids_is_one_lease(tmp_path):
    d = _batch(tmp_path, [_explorations(s) for s in (1.0, 1.3, 0.8)])
    for k in (1, 2, 3):
        (d / f"p{k}" / "provenance.json").write_text(json.dumps(dict(PROV, timestamp=f"2099-01-0{k}")))
    st = D.load(str(d))
    assert st.raw["lease"].nunique() == 1 and not H.ratio(st, COLUMNS[1], H.TEXT, 100).has_interval


def test_his_difference_and_counts_over_processes(tmp_path):
    def cyc(f):
        ev = [2.0 * f, 2.1 * f, 1.9 * f, 2.0 * f]
        return [_row("cycles", H.GPU, 10, w=[6 + e for e in ev], wo=[6.0] * 4, ev=ev),
                _row("cycles", H.CPU, 10, w=[1.0 * f, 1.1 * f, 1.2 * f]),
                _row("race", H.NOSYNC, 31, w=None, status="failed_verification", verified=False, repeats=3, wrong_runs=2.0,
                     wrong_entries=5, undershoots=2, spurious_negative_cycles=0, first_difference="(0, 1, 0, 1)"),
                _row("race", H.TEXT, 31, repeats=3)]
    st = D.load(str(_batch(tmp_path, [cyc(1.0), cyc(1.1), cyc(0.9)])))
    (n, v, lo, hi), = H.difference_points(st, "cycle_undirected")
    assert n == 10 and v == pytest.approx(1) and (lo, hi) == pytest.approx((1.0, 1.0))
    r = H.race(st)
    assert r["wrong runs without the barrier (count)"].iloc[0] == 6 and r["runs (count)"].iloc[0] == 9 and r["sizes"].iloc[0] == "31"
    assert H.faithful_runs(st) == (0, 3 * (4 + 3)) and len(st.meas.df) == 3 * (4 + 3)   # every run of every process
    assert st.meas.df.groupby(["process", "lease"]).ngroups == 3
    t = H.cycles(st, "cycle_undirected")
    assert t["CPU (ms)"].iloc[0] == pytest.approx(1.1) and t["events (ms)"].iloc[0] == pytest.approx(2.0)
    # three leases: every time of the tables has its interval over them
    assert t["leases (count)"].iloc[0] == 3 and t["events lo (ms)"].iloc[0] < 2.0 < t["events hi (ms)"].iloc[0]
    assert t["CPU lo (ms)"].iloc[0] < 1.1 < t["CPU hi (ms)"].iloc[0]
    cell = H.cell(*t.loc[0, ["events (ms)", "events lo (ms)", "events hi (ms)"]])
    assert cell.startswith("2 [") and "lease" not in cell


def test_a_batch_of_mixed_code_is_refused(tmp_path):
    d = _batch(tmp_path, [_explorations(1.0), _explorations(1.1)])
    (d / "p2" / "provenance.json").write_text(json.dumps(dict(PROV, git_commit="def456")))
    with pytest.raises(provenance.ProvenanceError, match="one batch, one commit"):
        D.load(str(d))


def test_the_script_refuses_to_join_a_batch_of_other_code(tmp_path):
    """--batch B --process K: another commit already in the batch is refused before anything is measured;
    a taken process number and an odd batch name too."""
    script = ROOT / "scripts" / "hochberg_measure.py"
    batch = tmp_path / "20990101-000000-local-hochberg-dryrun"
    (batch / "p1").mkdir(parents=True)
    (batch / "p1" / "provenance.json").write_text(json.dumps(dict(PROV, git_commit="0" * 40)))
    env = dict(os.environ, APSP_RESULTS_DIR=str(tmp_path))
    run = lambda *a: subprocess.run([sys.executable, str(script), "--dry-run", *a], capture_output=True, text=True,
                                    cwd=ROOT, env=env, timeout=300)
    r = run("--batch", "20990101-000000", "--process", "2")
    assert r.returncode != 0 and "one batch, one commit" in r.stderr and not (batch / "p2" / "results.csv").exists()
    r = run("--batch", "20990101-000000", "--process", "1")
    assert r.returncode != 0 and "holds a process already" in r.stderr
    r = run("--batch", "2099+x", "--process", "1")
    assert r.returncode != 0 and "--batch takes" in r.stderr
    r = run("--batch", "20990101-000000")
    assert r.returncode != 0 and "go together" in r.stderr


def test_newest_batch_is_found_beside_single_process_folders(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path / "a")
    monkeypatch.setattr(paths, "RECORDED", tmp_path / "b")
    (tmp_path / "b" / "20990101-000000-hochberg").mkdir(parents=True)
    (tmp_path / "b" / "20990101-000000-hochberg" / "results.csv").write_text("stage\n")
    _batch(tmp_path / "a", [_explorations(1.0)], name="20990102-000000-hochberg")
    (tmp_path / "a" / "20990103-000000-hochberg").mkdir()                  # an empty batch: not a result
    assert D.latest().name == "20990102-000000-hochberg"
    assert D.latest(recorded_only=True).name == "20990101-000000-hochberg"
    with pytest.raises(FileNotFoundError, match="no results.csv"):
        D.latest(str(tmp_path / "a" / "20990103-000000-hochberg"))


RECORDED = sorted(d for d in paths.RECORDED.glob("*-hochberg") if (d / "results.csv").exists())


def _split(recorded, tmp_path, factors=(1.0, 1.08, 0.95)):
    """The recorded single run as a synthetic batch of len(factors) processes, each's times scaled."""
    df = pd.read_csv(recorded / "results.csv")
    prov = json.loads((recorded / "provenance.json").read_text())
    rows = []
    for f in factors:
        d = df.copy()
        for c in ("with_ms_json", "without_ms_json", "event_ms_json"):
            d[c] = d[c].map(lambda v: json.dumps([x * f for x in json.loads(v)]) if isinstance(v, str) else v)
        for c in ("difference_ms", "event_ms", "end_to_end_ms", "without_ms"):
            d[c] = d[c] * f
        rows.append(d.to_dict("records"))
    return _batch(tmp_path, rows, name=recorded.name.replace("-hochberg", "9-hochberg"), prov=prov)


@pytest.mark.skipif(not RECORDED, reason="no recorded Hochberg results in this checkout")
def test_the_recorded_run_split_into_three_processes_gets_verdicts_over_processes(tmp_path):
    st = D.load(str(_split(RECORDED[-1], tmp_path)))
    C = claims.load()
    rows = HV.verdict_rows(st, C)
    assert sorted(r["claim"] for r in rows) == sorted(c for c in C if c.startswith("hochberg_"))
    for r in rows:
        assert r["verdict"] in words.VERDICTS
        if C[r["claim"]].get("testable_here", True):
            assert "3 device processes (p1, p2, p3) on 3 machine leases" in r["reason"] and "single run" not in r["reason"]
    said = HV.findings(st)
    assert set(said) == {"cycles", "sm", "explorations", "race"} and all(said.values())
    one = D.load(str(RECORDED[-1]))
    assert H.faithful_runs(st) == tuple(3 * x for x in H.faithful_runs(one))


@pytest.mark.skipif(not RECORDED, reason="no recorded Hochberg results in this checkout")
def test_notebook_08_renders_a_batch_of_processes(tmp_path):
    import papermill as pm
    d = _split(RECORDED[-1], tmp_path)
    out = tmp_path / "08.ipynb"
    pm.execute_notebook(str(paths.ROOT / "notebooks" / "08_hochberg.ipynb"), str(out), cwd=str(paths.ROOT / "notebooks"),
                        parameters=dict(profile="smoke", batch=str(d)), progress_bar=False, kernel_name="python3")
    text = out.read_text()
    assert "3 device processes (p1, p2, p3) on 3 machine leases" in text and "single run: one device process" not in text
    v = pd.read_csv(paths.REPORTS / "verdicts" / "08_hochberg.csv")
    assert v["reason"].str.contains("3 device processes").sum() >= 6


def test_two_invocations_make_one_batch_that_the_report_reads_as_two_processes(tmp_path):
    """scripts/hochberg_measure.py --batch B --process 1, then 2 (the CPU rows of the dry run's cycles):
    p1/ and p2/, each with its provenance, read back as two processes."""
    env = dict(os.environ, APSP_RESULTS_DIR=str(tmp_path))
    for k in (1, 2):
        r = subprocess.run([sys.executable, str(ROOT / "scripts" / "hochberg_measure.py"), "--dry-run", "--stages", "cycles",
                            "--batch", "20990101-000000", "--process", str(k)], capture_output=True, text=True, cwd=ROOT,
                           env=env, timeout=300)
        assert r.returncode == 0, r.stderr[-3000:]
    d = tmp_path / "20990101-000000-local-hochberg-dryrun"
    provs = [json.loads((d / p / "provenance.json").read_text()) for p in ("p1", "p2")]
    assert [p["parameters"]["process"] for p in provs] == ["p1", "p2"] and provs[0]["git_commit"] == provs[1]["git_commit"]
    st = D.load(str(d))
    assert [p.name for p in st.processes] == ["p1", "p2"] and D.single_run(st.raw).startswith("2 device processes (p1, p2) on 1 machine lease")
    cpu = st.df[st.df["algorithm"] == H.CPU[0]]
    assert len(cpu) and (cpu["processes"] == 2).all() and all(len(json.loads(v)) == 2 for v in cpu["with_ms_json"])


def test_the_device_script_runs_the_measurement_as_the_readme_says():
    text = (ROOT / "scripts" / "device_hochberg.sh").read_text()
    assert "measure hochberg --batch \"$batch\" --process \"$process\" --strict" in text and "device-logs" in text
    readme = (ROOT / "docs" / "seeds" / "hochberg.md").read_text()     # the README's Hochberg section moved there
    assert all(f"scripts/device_hochberg.sh B {k}" in readme for k in (1, 2, 3))


def test_a_name_in_both_places_is_taken_from_this_machines_results(tmp_path, monkeypatch):
    """A copy of a recorded batch among this machine's results (a render into APSP_RESULTS_DIR) is the
    one read, whatever the hash seed: the choice used to follow a set's order."""
    monkeypatch.setattr(paths, "RESULTS", tmp_path / "a")
    monkeypatch.setattr(paths, "RECORDED", tmp_path / "b")
    for root in ("a", "b"):
        _batch(tmp_path / root, [_explorations(1.0)], name="20990102-000000-hochberg")
    assert D.latest() == tmp_path / "a" / "20990102-000000-hochberg"
    assert D.latest(recorded_only=True) == tmp_path / "b" / "20990102-000000-hochberg"


def test_a_ratio_of_two_codes_pairs_them_inside_each_process(tmp_path):
    """Both codes ran in each process on the same lease: a lease that runs everything 1.3x slower moves
    both sides together, so the ratio is formed inside each process first (estimate.ratio) and
    the interval is over the per-process ratios -- the confirming batch 20261125-153000 needed this
    (notes/method-history.md).  Drawn independently, the lease's speed would count twice."""
    tight = (0.999, 1.0, 1.001, 1.0, 1.0)
    per = []
    for s, r in ((1.0, 1.20), (1.3, 1.15), (0.8, 1.25)):      # lease speed s, columns / rows r in that process
        per.append([_row("explorations", COLUMNS[1], 100, w=[10 * s * r * f for f in tight], ev=[s * r * f for f in tight]),
                    _row("explorations", H.TEXT, 100, w=[10 * s * f for f in tight], ev=[s * f for f in tight])])
    st = D.load(str(_batch(tmp_path, per)))
    v, lo, hi = H.ratio(st, COLUMNS[1], H.TEXT, 100)
    want = estimate.ratio(estimate.as_samples(pd.Series([1.20, 1.15, 1.25], index=["p1", "p2", "p3"])),
                          estimate.as_samples(pd.Series([1.0, 1.0, 1.0], index=["p1", "p2", "p3"])))
    assert want.paired and (v, lo, hi) == pytest.approx(tuple(want), rel=1e-3)
    assert lo > 1.0                                        # every process says columns are slower: so does the interval
    apart = estimate.ratio(estimate.as_samples([1.3 * 1.15 * 1.0, 1.2, 0.8 * 1.25]),
                           estimate.as_samples(pd.Series([1.0, 1.3, 0.8], index=["q1", "q2", "q3"])))
    assert apart.lo < 1.0 < apart.hi                       # the lease's speed counted twice hides it
    # the claim's ordering points use the same pairing
    (n, r, plo2, phi2), = H.ordering_points(st, COLUMNS[1], H.TEXT, [100])
    assert (r, plo2, phi2) == pytest.approx((v, lo, hi))
