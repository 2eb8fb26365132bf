"""Notebook 08's analysis of the Hochberg study (study/seeds/hochberg): on small synthetic
results with known answers, and on the recorded H100 results where they are in the checkout."""
import json

import numpy as np
import pandas as pd
import pytest

from apsp_kernels.study.method import claims
from apsp_kernels.study import words
from apsp_kernels import paths
from apsp_kernels.study.seeds.hochberg import analysis as H
from apsp_kernels.study.seeds.hochberg import load as D
from apsp_kernels.study.seeds.hochberg import verdicts as HV
from apsp_kernels.study.method import rules


def _row(stage, run, n, graph="cycle_undirected", w=None, wo=None, ev=None, **kw):
    r = dict(stage=stage, graph=graph, n=n, m=n, algorithm=run[0], variant=str(run[1]), status="ok", verified=True,
             wrong_runs=0.0, repeats=len(w or []), with_ms_json=json.dumps(w) if w else None,
             without_ms_json=json.dumps(wo) if wo else None, event_ms_json=json.dumps(ev) if ev else None)
    if wo:
        r.update(difference_ms=np.mean(w) - np.mean(wo), difference_se_ms=0.01, event_ms=np.mean(ev),
                 end_to_end_ms=np.mean(w), methods_disagree=False)
    r.update(kw)
    return r


def _study(tmp_path, rows):
    d = tmp_path / "20990101-000000-hochberg"
    d.mkdir()
    pd.DataFrame(rows).to_csv(d / "results.csv", index=False)
    (d / "provenance.json").write_text(json.dumps({"gpu": "test GPU", "timestamp": "2099-01-01", "sm_count": 132}))
    return D.load(str(d))


def test_no_results_fails_with_a_clear_message(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path / "a")
    monkeypatch.setattr(paths, "RECORDED", tmp_path / "b")
    with pytest.raises(FileNotFoundError, match="hochberg_measure.py"):
        D.latest()
    with pytest.raises(FileNotFoundError, match="no results.csv"):
        D.latest(str(tmp_path / "nowhere"))


def test_newest_results_folder_wins(tmp_path, monkeypatch):
    for root, name in (("a", "20990101-000000-hochberg"), ("b", "20990102-000000-hochberg"), ("b", "20990103-000000-hochberg-x")):
        (tmp_path / root / name).mkdir(parents=True)
        (tmp_path / root / name / "results.csv").write_text("stage\n")
    monkeypatch.setattr(paths, "RESULTS", tmp_path / "a")
    monkeypatch.setattr(paths, "RECORDED", tmp_path / "b")
    assert D.latest().name == "20990102-000000-hochberg"
    (tmp_path / "a" / "20990104-000000-hochberg").mkdir()
    (tmp_path / "a" / "20990104-000000-hochberg" / "results.csv").write_text("stage\n")
    assert D.latest().name == "20990104-000000-hochberg"
    assert D.latest(recorded_only=True).name == "20990102-000000-hochberg"


def test_exact_inverse_proportion_gives_slope_minus_one(tmp_path):
    rows = [_row("sm_scaling", H.GPU, 1980, w=[t + 5] * 5, wo=[5.0] * 5, ev=[t * f for f in (0.99, 1, 1, 1, 1.01)],
                 sm_granted=s, sm_seen=s) for s in (8, 16, 32, 64, 128) for t in [1000.0 / s]]
    st = _study(tmp_path, rows)
    s, lo, hi, k = H.sm_slope(st)
    assert k == 5 and s == pytest.approx(-1, abs=1e-9)
    assert np.isnan(lo) and np.isnan(hi)                  # one process on one lease: no interval over leases
    assert H.sm_table(st)["kernel, events [95% CI] (ms)"].str.endswith("(one lease: no interval)").all()
    assert rules.slope_rule(s, lo, hi, k, -1, 1.25)[0] == "inconclusive"
    a, b = H.fixed_part(st)
    assert a == pytest.approx(0, abs=1e-6) and b == pytest.approx(1000)


def test_his_difference_equals_the_event_time_when_copies_cancel(tmp_path):
    ev = [2.0, 2.1, 1.9, 2.0]
    rows = [_row("cycles", H.GPU, 10, w=[6 + e for e in ev], wo=[6.0] * 4, ev=ev),
            _row("cycles", H.CPU, 10, w=[1.0, 1.1, 1.2]),
            _row("cycles", H.GPU, 20, w=[6 + 2 * e for e in ev], wo=[6.0] * 4, ev=[2 * e for e in ev]),
            _row("cycles", H.CPU, 20, w=[9.0, 9.5, 10.0])]
    st = _study(tmp_path, rows)
    pts = H.difference_points(st, "cycle_undirected")
    assert [p[0] for p in pts] == [10, 20] and all(p[1] == pytest.approx(1) and np.isnan(p[2]) for p in pts)
    assert len(st.meas.df) == 4 + 3 + 4 + 3 and st.meas.df["lease"].nunique() == 1   # one process: one lease
    n, ci, rng = H.break_even(st, "cycle_undirected", "kernel_ms")
    assert 10 < n < 20 and rng == (10, 20)                        # the CPU is faster at 10, slower at 20
    assert H.break_even(st, "cycle_undirected")[0] is None         # end-to-end, the GPU never wins here
    t = H.cycles(st, "cycle_undirected")
    assert list(t["n"]) == [10, 20] and t["CPU (ms)"].iloc[1] == 9.5
    # one process on one lease: the median alone, no interval over its repeats
    assert t["events lo (ms)"].isna().all() and t["CPU hi (ms)"].isna().all() and (t["leases (count)"] == 1).all()
    r = t.iloc[1]
    assert H.cell(r["CPU (ms)"], r["CPU lo (ms)"], r["CPU hi (ms)"]) == "9.5 (one lease: no interval)"
    assert H.cell(r["events (ms)"], r["events lo (ms)"], r["events hi (ms)"]) == "4 (one lease: no interval)"
    assert H.cell(np.nan, np.nan, np.nan) == "-"


def test_race_counts_and_the_single_run_sentence(tmp_path):
    rows = [_row("race", H.NOSYNC, n, graph=g, w=None, status="failed_verification", verified=False, repeats=3,
                 wrong_runs=3.0, wrong_entries=n, undershoots=n // 2, spurious_negative_cycles=0, first_difference="(0, 1, 0, 1)")
            for g in ("chain", "kemp") for n in (31, 64)]
    rows += [_row("race", H.TEXT, n, graph=g, repeats=3) for g in ("chain", "kemp") for n in (31, 64)]
    st = _study(tmp_path, rows)
    r = H.race(st)
    assert list(r["graph"]) == ["chain", "kemp"]
    assert (r["wrong runs without the barrier (count)"] == 6).all() and (r["wrong runs with the barrier (count)"] == 0).all()
    assert r["wrong entries (count)"].iloc[0] == 95 and r["runs (count)"].iloc[0] == 6
    assert D.single_run(st.df).startswith("single run: one device process") and "race 3" in D.single_run(st.df)
    assert H.faithful_runs(st) == (0, 12)


def test_sanitizer_log_of_the_run_is_parsed(tmp_path, monkeypatch):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "h100-20990101-0000-sanitize.log").write_text(
        "racecheck: exit 0, ok; ========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"
        "racecheck-nosync: exit 99, ok: expected; ========= RACECHECK SUMMARY: 20 hazards displayed (164 errors, 0 warnings)\n")
    (logs / "h100-20990102-0000-sanitize.log").write_text("racecheck: exit 1, bad; ========= RACECHECK SUMMARY: 9 errors\n")
    monkeypatch.setattr(H, "LOGS", logs)
    st = _study(tmp_path, [_row("race", H.TEXT, 31, repeats=3)])          # results of 2099-01-01 00:00:00
    san, log = H.sanitizer(st)
    assert log.name.startswith("h100-20990101") and san["racecheck-nosync"][:2] == (99, 164) and san["racecheck"][1] == 0


RECORDED = sorted(paths.RECORDED.glob("*-hochberg"))


@pytest.mark.skipif(not RECORDED, reason="no recorded Hochberg results in this checkout")
@pytest.mark.parametrize("recorded", RECORDED, ids=lambda d: d.name)
def test_every_hochberg_claim_gets_a_verdict_that_says_what_its_interval_rests_on(recorded):
    """A single recorded run says so in every testable verdict; a batch of processes says its
    intervals are over the leases its processes ran on."""
    st = D.load(str(recorded))
    C = claims.load()
    rows = HV.verdict_rows(st, C)
    batch = any(p.is_dir() and p.name.startswith("p") for p in recorded.iterdir())
    said = "95% intervals over the leases" if batch else "single run: one device process"
    assert sorted(r["claim"] for r in rows) == sorted(c for c in C if c.startswith("hochberg_"))
    for r in rows:
        assert r["verdict"] in words.VERDICTS
        if C[r["claim"]].get("testable_here", True):
            assert said in r["reason"], r["claim"]
    said = HV.findings(st)
    assert set(said) == {"cycles", "sm", "explorations", "race"} and all(said.values())
