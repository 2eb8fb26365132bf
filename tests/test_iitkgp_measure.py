"""The IIT Kharagpur study's sweep (data/sweeps/iitkgp.yaml), its graph cache and sources, and
scripts/iitkgp_measure.py in its --dry-run mode (every graph at ~160 vertices; the CPU parts only without a
GPU, whose rows then say 'skipped')."""
import fnmatch
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from apsp_kernels import gpu_device
from apsp_kernels.measure import harness, provenance
from apsp_kernels.algorithms import registry
from apsp_kernels.io import catalogue
from apsp_kernels.core.sources import in_largest_component, largest_component
from apsp_kernels.study.seeds.iitkgp import runs as R
from apsp_kernels.study.seeds.iitkgp import spec as S

from script_runs import dry_run, run_script

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "iitkgp_measure.py"


def test_the_seeds_graphs_and_codes():
    spec = S.load()
    assert spec["apsp"]["graphs"] == [g.name for g in catalogue.for_problem("apsp")]
    for st in S.SINGLE_SOURCE:
        assert spec[st]["graphs"] == [g.name for g in catalogue.for_problem("bfs")]
        for name, v in [spec[st]["cpu"], *spec[st]["gpu"]]:
            a = registry.get(name)
            assert a.problem == ("bfs" if st == "bfs" else "sssp") and str(v) in map(str, a.variants), (name, v)
    assert [int(v) for _, v in spec["coarsen"]["gpu"]] == [1, 2, 4, 8, 16]
    for name, v, *rest in spec["apsp"]["gpu"] + spec["apsp"]["sequential"] + spec["apsp"]["best_cpu"]:
        assert registry.get(name).problem == "apsp" and str(v) in map(str, registry.get(name).variants)
        assert not rest or registry.get(name).sampler is not None
    assert {a for a, *_ in spec["apsp"]["best_cpu"]} == set(registry.best_cpu_candidates())
    assert spec["budget_s"] <= 540 and spec["processes"] >= 3


def test_graph_selection():
    spec = S.load()
    assert S.graphs_for(spec, ["bfs", "sssp"]) == ["random-2700", "gene-human", "slashdot"]     # the large ones apart
    assert S.graphs_for(spec, ["bfs"], ["geometric"]) == ["geometric"]
    assert S.graphs_for(spec, ["apsp"]) == ["random-2700", "ego-facebook", "gene-4412", "bitcoin-otc", "random-7500"]
    with pytest.raises(ValueError, match="not graphs of the stages"):
        S.graphs_for(spec, ["apsp"], ["geometric"])
    small = S.load(dry_run=True)
    assert small["dry_n"] and "geometric" in S.graphs_for(small, ["bfs"])                    # a dry run takes them all
    assert small["single_source"]["sources"] < spec["single_source"]["sources"]
    assert S.scale_of(spec, "geometric") == 1 and S.scale_of(small, "geometric") < 1e-4


def test_density_is_the_seeds():
    assert S.density(2700, 1_808_853) == pytest.approx(0.496, abs=1e-3)              # "approximately 0.5"
    assert S.density(1_694_616, 11_094_209) == pytest.approx(7.7e-6, rel=0.01)      # the seed's 7e-6
    assert S.density(16_777_214, 132_557_200) == pytest.approx(9.4e-7, rel=0.01)


def test_graphs_are_cached_by_name_seed_and_size(tmp_path, monkeypatch):
    monkeypatch.setattr(S.paths, "CACHE", tmp_path)
    small = S.load(dry_run=True)
    g = S.graph(small, "slashdot")
    assert g.meta["cached"] is False and g.meta["origin"] == "stand-in"
    path = S.cache_path(small, "slashdot")
    assert path.exists() and "slashdot-seed0-n160-gen-" in path.name
    h = S.graph(small, "slashdot")
    assert h.meta["cached"] is True and h.meta["origin"] == "stand-in" and h.meta["catalogue"] == "slashdot"
    for a in ("indptr", "indices", "weights"):
        np.testing.assert_array_equal(getattr(g, a), getattr(h, a))
    src = S.sources_for(small, "slashdot", h)
    assert len(src) == small["single_source"]["sources"] and set(src) <= set(largest_component(h))
    np.testing.assert_array_equal(S.sources_for(small, "slashdot", h), src)             # cached beside the graph
    other = dict(small, seed=1)
    assert S.cache_path(other, "slashdot") != path


def test_the_study_code_is_fingerprinted():
    for f in ("apsp_kernels/study/seeds/iitkgp/runs.py", "apsp_kernels/study/seeds/iitkgp/spec.py", "data/sweeps/iitkgp.yaml"):
        assert (ROOT / f).exists()
        assert any(fnmatch.fnmatch(f, g) and f.count("/") == g.count("/") for g in provenance.CODE_GLOBS), f
    for f in ("apsp_kernels/study/seeds/iitkgp/load.py", "apsp_kernels/study/seeds/iitkgp/figures.py",
              "apsp_kernels/study/seeds/iitkgp/verdicts.py"):        # the report only reads: a re-render needs no new run
        assert not any(fnmatch.fnmatch(f, g) and f.count("/") == g.count("/") for g in provenance.CODE_GLOBS), f


@pytest.mark.slow
def test_dry_run_writes_results_and_provenance(tmp_path):
    r, prov = dry_run(SCRIPT, tmp_path)
    df = harness.read_records(tmp_path / "results.csv")
    assert prov["profile"] == "iitkgp-dryrun" and prov["code_fingerprint"] and prov["parameters"]["spec"]["dry_n"]
    assert [p["returncode"] for p in prov["processes_run"]] == [0, 0]
    assert set(df["stage"]) == set(S.STAGES) and set(df["process"]) == {0, 1}
    assert set(df["graph"]) == {g.name for g in catalogue.SEED001}
    cpu = df[df["device"] == "cpu"]
    assert (cpu["status"] == "ok").all() and cpu["wall_ms"].gt(0).all()
    ss = cpu[cpu["stage"] != "apsp"]
    assert ss.loc[ss["repeat"] == 0, "verified"].astype(str).str.lower().eq("true").all()   # checked against scipy
    assert set(ss["algorithm"]) == {"bfs_cpu", "dijkstra_sssp_cpu"}
    # Dijkstra shared by sssp and coarsen: timed once per source, under sssp
    assert not ((ss["stage"] == "coarsen") & (ss["algorithm"] == "dijkstra_sssp_cpu")).any()
    ap = cpu[cpu["stage"] == "apsp"]
    assert set(ap.loc[ap["estimate"] == "sampled", "algorithm"]) == {"fw_sequential", "dijkstra_cpu", "dijkstra_cpu_parallel",
                                                                      "fw_blocked_parallel"}
    full = ap[ap["estimate"] == "measured"]
    assert (full["process"] == 0).all() and full["verified"].astype(str).str.lower().eq("true").all()
    assert df["graph_origin"].notna().all() and set(df["graph_origin"]) <= {"stand-in", "generated as in the seed"}
    g = df[df["device"] == "gpu"]
    if not gpu_device.available():
        assert (g["status"] == "skipped").all() and g["error"].str.startswith("no GPU").all()
    else:
        exact = g[g["variant"] != "original"]
        assert (exact["status"] == "ok").all(), exact[exact["status"] != "ok"]
    assert "rows" in r.stdout and "apsp random-2700" in r.stdout


def test_a_second_invocation_needs_its_own_folder(tmp_path):
    (tmp_path / "results.csv").write_text("stage\n")
    r = run_script(SCRIPT, "--dry-run", "--stages", "bfs", "--out", tmp_path, timeout=120)
    assert r.returncode != 0 and "a folder of its own" in r.stderr


def test_unknown_stage_or_graph_is_refused():
    for args in (["--stages", "dfs"], ["--stages", "apsp", "--graphs", "geometric"]):
        r = run_script(SCRIPT, *args, timeout=120)
        assert r.returncode == 2 and "error" in r.stderr


def test_single_source_rows_verify_and_time_only_what_is_right(monkeypatch):
    """A GPU search is checked against the CPU reference of its source; a wrong one has no time and
    counts its wrong entries (CPU stand-ins for the GPU codes, no GPU needed)."""
    small = S.load(dry_run=True)
    g = catalogue.graph("bitcoin-otc", scale=100 / 5881)
    src = in_largest_component(g, 2, seed=0)
    monkeypatch.setattr(S, "sources_for", lambda S_, name, g_: src)
    good = registry.get("dijkstra_sssp_cpu")

    def wrong(graph, variant=None, sources=None):          # one reachable vertex 5 too far, per source
        d = good.run(graph, sources=sources)[0].copy()
        for row in d:
            row[np.flatnonzero((row > 0) & (row < 2**30 - 1))[0]] += 5
        return d, {"kernel_ms": 1.0, "sweeps": 3}
    fake = {"harish_sssp": type("A", (), {"name": "harish_sssp", "device": "gpu", "default_variant": "corrected",
                                          "multithreaded": False, "run": staticmethod(wrong)})()}
    real_get = registry.get
    monkeypatch.setattr(registry, "get", lambda n: fake.get(n) or real_get(n))
    spec = dict(small, sssp=dict(small["sssp"], gpu=[["harish_sssp", "original"]]))
    spec["single_source"] = dict(small["single_source"], gpu_warmup=False)
    rows = R.single_source(spec, ["sssp"], g, 0, lambda m: None, float("inf"), has_gpu=True)
    gr = pd.DataFrame([r for r in rows if r["device"] == "gpu"])
    assert len(gr) == 2 and (gr["status"] == "failed_verification").all() and gr["wall_ms"].isna().all()
    assert (gr["wrong_entries"] == 1).all() and (gr["undershoots"] == 0).all()
    cr = pd.DataFrame([r for r in rows if r["device"] == "cpu"])
    assert (cr["status"] == "ok").all() and cr["verified"].all()


def test_table_shows_times_speedups_and_failures():
    from apsp_kernels.study.seeds.iitkgp.measure import table
    rows = [dict(stage="bfs", graph="slashdot", graph_origin="stand-in", n=82168, algorithm="bfs_cpu", variant="None",
                 device="cpu", estimate="measured", status="ok", wall_ms=10.0),
            dict(stage="bfs", graph="slashdot", graph_origin="stand-in", n=82168, algorithm="parallel_bfs", variant="None",
                 device="gpu", estimate="measured", status="ok", wall_ms=2.0, kernel_ms=1.0),
            dict(stage="bfs", graph="slashdot", graph_origin="stand-in", n=82168, algorithm="queue_bfs", variant="None",
                 device="gpu", estimate="measured", status="failed_verification")]
    text = table(pd.DataFrame(rows))
    assert "bfs slashdot (stand-in, n=82168)" in text and "parallel_bfs/None measured: 2 / 1 ms  x5 over the CPU" in text
    assert "queue_bfs/None measured: - / - ms  [1 of 1 not ok: failed_verification]" in text
