"""scripts/predict_picks.py: a plan's predicted picks computed without a GPU, compared, and under another cost
table."""
import pandas as pd
import yaml

from script_runs import ROOT, run_script

SCRIPT = ROOT / "scripts" / "predict_picks.py"
H100_COSTS = ROOT / "data" / "results" / "benchmarks" / "NVIDIA_H100_80GB_HBM3-2026-11-25-costs.csv"


def _lines(out):
    return [yaml.safe_load(x.split("   #")[0])[0] for x in out.splitlines() if x.startswith("- ")]


def test_the_lines_are_plan_entries_and_auto_s_choice(tmp_path):
    from apsp_kernels import choice
    from apsp_kernels.io import suite_graphs as SG
    r = run_script(SCRIPT, "grid:1024", "ring:1024")
    assert r.returncode == 0, r.stderr
    got = _lines(r.stdout)
    assert [(x["graph"], x["n"]) for x in got] == [("grid", 1024), ("ring", 1024)]
    for x in got:
        g = SG.make(x["graph"], x["n"], seed=x["n"])
        assert x["m"] == g.m
        assert x["predicted_pick"] == {res: choice.choose(g, gpu=True, free_bytes=139 * 2**30, result=res)
                                       .algorithm.name for res in choice.RESULTS}


def test_a_plan_whose_prediction_moved_exits_1_and_says_which(tmp_path):
    r = run_script(SCRIPT, "grid:1024")
    now = _lines(r.stdout)[0]
    plan = tmp_path / "p-plan.yaml"
    plan.write_text(yaml.safe_dump({"graphs": [now]}))
    r = run_script(SCRIPT, "--plan", plan)
    assert r.returncode == 0 and "planned: as now" in r.stdout
    wrong = dict(now, predicted_pick=dict(now["predicted_pick"], device="katz_kider"))
    plan.write_text(yaml.safe_dump({"graphs": [wrong]}))
    r = run_script(SCRIPT, "--plan", plan)
    assert r.returncode == 1 and f"'device': 'katz_kider -> {now['predicted_pick']['device']}'" in r.stdout


def test_a_candidate_cost_table_is_read_as_its_device_s_and_moves_picks(tmp_path):
    """tuned_fw made 100 times faster in a table of another device: the cost model reads that device's rows."""
    d = pd.read_csv(H100_COSTS)
    fast = d.algorithm == "tuned_fw"
    d.loc[fast, "kernel_ms"] /= 100
    d.loc[fast, "updates_per_s"] *= 100
    cand = tmp_path / "NVIDIA_H200-2099-01-01-bench.csv"
    d.assign(device="NVIDIA H200").to_csv(cand, index=False)
    r = run_script(SCRIPT, "kemp:4096", "--costs", cand)
    assert r.returncode == 0, r.stderr
    assert "-> tuned_fw'" in r.stdout and _lines(r.stdout)[0]["predicted_pick"]["host"] != "tuned_fw"
    r = run_script(SCRIPT, "kemp:4096", "--costs", tmp_path / "no-date.csv")
    assert r.returncode == 2 and "not a results file name" in r.stderr
    r = run_script(SCRIPT, "kemp:4096", "--costs", tmp_path / "NVIDIA_H200-2099-01-02-bench.csv")
    assert r.returncode == 2 and "no such file" in r.stderr
    old = tmp_path / "NVIDIA_H200-2026-01-01-bench.csv"        # older than the recorded table: never read
    old.write_text(cand.read_text())
    r = run_script(SCRIPT, "kemp:4096", "--costs", old)
    assert r.returncode == 2 and "the cost model would not read it" in r.stderr


def test_a_bundled_network_is_given_with_its_own_n_and_a_bad_plan_is_one_line(tmp_path):
    from apsp_kernels.io import suite_graphs as SG
    r = run_script(SCRIPT, "helsinki-drive:0")
    assert r.returncode == 0, r.stderr
    assert _lines(r.stdout)[0]["n"] == SG.make("helsinki-drive", None, seed=0).n
    plan = tmp_path / "bad-plan.yaml"
    plan.write_text("graphs: [{n: 64}]\n")
    r = run_script(SCRIPT, "--plan", plan)
    assert r.returncode == 2 and "not a plan with graphs" in r.stderr and "Traceback" not in r.stderr
    r = run_script(SCRIPT, "--plan", tmp_path / "none.yaml")
    assert r.returncode == 2 and "not a plan with graphs" in r.stderr


def test_a_bad_graph_is_one_line():
    r = run_script(SCRIPT, "grid")
    assert r.returncode == 2 and "a graph is name:n" in r.stderr
    r = run_script(SCRIPT, "nosuch:64")
    assert r.returncode == 2 and "unknown graph 'nosuch'" in r.stderr
    r = run_script(SCRIPT)
    assert r.returncode == 2 and "no graph" in r.stderr
