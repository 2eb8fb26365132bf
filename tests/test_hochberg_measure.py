"""The Hochberg study's sweep (data/sweeps/hochberg.yaml), its graphs and references, and
scripts/hochberg_measure.py in its --dry-run mode (the CPU parts; GPU rows say 'skipped' without a GPU)."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from apsp_kernels import gpu_device, reference_apsp
from apsp_kernels.measure import provenance
from apsp_kernels.algorithms import registry
from apsp_kernels.study.seeds.hochberg import spec as S

from script_runs import dry_run

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "hochberg_measure.py"


def test_his_sizes():
    spec = S.load()
    assert S.sizes(spec["cycles"]["sizes"]) == list(range(10, 1801, 10))      # "10, 20, 30, ..., 1800"
    assert spec["cycles"]["repeats"] == 10 and spec["sm_scaling"]["n"] == 1980
    assert S.sizes([{"first": 10, "last": 30, "step": 10}, 25, {"first": 100, "last": 200, "step": 100}]) == [10, 20, 25, 30, 100, 200]
    small = S.load(dry_run=True)
    assert max(S.sizes(small["cycles"]["sizes"])) <= 100 and small["cycles"]["graphs"] == spec["cycles"]["graphs"]


def _runs(spec):
    c, e, r, s = (spec[k] for k in S.STAGES)
    return [c["gpu"], c["cpu"], s["run"], *e["runs"], *r["runs"]]


def test_spec_names_only_known_graphs_and_runs():
    spec = S.load()
    for kind in (*spec["cycles"]["graphs"], spec["explorations"]["graph"], *spec["race"]["graphs"], spec["sm_scaling"]["graph"]):
        assert kind in S.GRAPHS
    for name, variant in _runs(spec):
        assert str(variant) in map(str, registry.get(name).variants), (name, variant)
    assert ["hochberg_explore", "nosync"] in spec["race"]["runs"]


@pytest.mark.parametrize("n", [1, 2, 5, 10, 37])
@pytest.mark.parametrize("directed", [True, False])
def test_cycle_formula_is_the_reference(n, directed):
    kind = "cycle_directed" if directed else "cycle_undirected"
    g = S.make(kind, n)
    np.testing.assert_array_equal(S.cycle_distances(n, directed), reference_apsp(g))
    np.testing.assert_array_equal(S.reference(kind, g), reference_apsp(g))


@pytest.mark.parametrize("kind", sorted(S.GRAPHS))
def test_every_graph_has_its_exact_reference(kind):
    g = S.make(kind, 45)
    assert g.n == 45
    np.testing.assert_array_equal(S.reference(kind, g), reference_apsp(g))


def test_the_study_code_is_fingerprinted():
    import fnmatch
    files = ["apsp_kernels/study/seeds/hochberg/runs.py", "apsp_kernels/study/seeds/hochberg/spec.py", "data/sweeps/hochberg.yaml",
             "apsp_kernels/measure/difference_timing.py", "apsp_kernels/algorithms/gpu/sm_limit.py", "apsp_kernels/algorithms/gpu/fw_hochberg.py",
             "apsp_kernels/algorithms/gpu/cuda/hochberg_explore.cu"]
    for f in files:
        assert (ROOT / f).exists()
        assert any(fnmatch.fnmatch(f, g) and f.count("/") == g.count("/") for g in provenance.CODE_GLOBS), f


def test_dry_run_writes_results_and_provenance(tmp_path):
    r, prov = dry_run(SCRIPT, tmp_path)
    df = pd.read_csv(tmp_path / "results.csv")
    assert prov["profile"] == "hochberg-dryrun" and prov["code_fingerprint"] and "cycles" in prov["parameters"]["spec"]
    assert set(df["stage"]) == set(S.STAGES)
    cpu = df[df["algorithm"] == "fw_blocked_parallel"]
    assert len(cpu) == 2 * 2 and (cpu["status"] == "ok").all() and cpu["end_to_end_ms"].gt(0).all()
    gpu_rows = df[df["algorithm"].str.startswith("hochberg")]
    if not gpu_device.available():
        assert (gpu_rows["status"] == "skipped").all()
    else:
        good = gpu_rows[~gpu_rows["variant"].eq("nosync")]
        assert good["status"].isin(["ok"]).all(), good[good["status"] != "ok"]
    assert "rows" in r.stdout and "cycles:" in r.stdout


def test_table_shows_every_stage():
    from apsp_kernels.study.seeds.hochberg.measure import table
    rows = [dict(stage="cycles", graph="cycle_undirected", n=100, algorithm="hochberg_align", variant="64", status="ok",
                 difference_ms=1.5, event_ms=1.2, end_to_end_ms=2.0, methods_disagree=True),
            dict(stage="cycles", graph="cycle_undirected", n=100, algorithm="fw_blocked_parallel", variant="64",
                 status="ok", end_to_end_ms=3.0),
            dict(stage="explorations", graph="cycle_undirected", n=1000, algorithm="hochberg_explore", variant="nosync",
                 status="failed_verification"),
            dict(stage="explorations", graph="cycle_undirected", n=1000, algorithm="hochberg_explore", variant="pitch",
                 status="ok", event_ms=4.0),
            dict(stage="race", graph="chain", n=33, algorithm="hochberg_explore", variant="nosync",
                 status="failed_verification", wrong_runs=2, wrong_entries=40, undershoots=3, spurious_negative_cycles=1),
            dict(stage="race", graph="chain", n=33, algorithm="hochberg_align", variant="32", status="ok", wrong_runs=0,
                 wrong_entries=0, undershoots=0),
            dict(stage="sm_scaling", graph="cycle_undirected", n=1980, algorithm="hochberg_align", variant="64",
                 status="not_testable", error="no fair SM restriction here")]
    text = table(pd.DataFrame(rows))
    assert "1.50 / 1.20 / 2.00 (True)" in text and "CPU 3.00" in text
    assert "explore/nosync failed_verification" in text and "explore/pitch 4.00" in text
    assert "wrong at n=[33] (40, 3; 1)" in text and "right at every n of [33]" in text
    assert "not_testable" in text and "no fair SM restriction" in text
