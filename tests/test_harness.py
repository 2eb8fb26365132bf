import json

import numpy as np
import pandas as pd
import pytest

from apsp_kernels import harness, registry, reference_apsp, fletcher64
from apsp_kernels import generators as G


def test_measure_records_and_verifies():
    g = G.kemp(64, seed=1)
    ref = reference_apsp(g)
    recs = harness.measure(registry.get("fw_sequential"), g, repeats=3, reference=ref)
    assert len(recs) == 3 and all(r["verified"] and r["status"] == "ok" for r in recs)
    recs = harness.measure(registry.get("fw_sequential"), g, repeats=1, reference=fletcher64(ref))
    assert recs[0]["verified"]


def test_wrong_result_is_recorded_as_failed_and_gets_no_time():
    g = G.kemp(64, seed=1)
    wrong = reference_apsp(g)
    wrong[5, 7] += 1
    recs = harness.measure(registry.get("fw_sequential"), g, repeats=2, reference=wrong)
    assert all(r["status"] == "failed_verification" for r in recs)
    s = harness.summarise(pd.DataFrame(recs))
    assert not s["ok"].iloc[0] and np.isnan(s["median"].iloc[0])


def test_errors_do_not_stop_the_sweep():
    algo = registry.get("dijkstra_cpu")
    from apsp_kernels import Graph
    g = Graph.from_edges(3, [0, 1], [1, 2], [-1, 2])
    recs = harness.measure(algo, g, repeats=2)
    assert recs[0]["status"] == "error" and "non-negative" in recs[0]["error"]


def test_cubic_fit_and_extrapolation_are_marked():
    n = np.array([512, 1024, 2048])
    s = pd.DataFrame(dict(algorithm="a", variant=None, n=n, ok=True, median=2e-6 * n**3.0,
                          min=0, max=0, iqr=0, runs=3, failed=0, extrapolated=False))
    rows, c = harness.extrapolate(s, "a", [1024, 4096])
    assert c == pytest.approx(2e-6)
    assert list(rows["n"]) == [4096] and rows["extrapolated"].all()
    assert rows["median"].iloc[0] == pytest.approx(2e-6 * 4096**3)


def test_results_files_have_provenance(tmp_path):
    df = pd.DataFrame([dict(algorithm="x", n=1, wall_ms=1.0)])
    out = harness.save_results(df, "20260101-000000-test", profile="smoke", parameters={"a": 1}, root=tmp_path)
    prov = json.loads((out / "provenance.json").read_text())
    for key in ("gpu", "cpu", "cpu_cores", "python", "packages", "git_commit", "profile", "parameters", "timestamp"):
        assert key in prov
    assert harness.latest_run("test", root=tmp_path) == out
