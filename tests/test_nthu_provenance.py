"""Each NTHU verdict row names the cards and runs its own number came from, on the recorded data: the two-GPU claims
were measured on 2 x H200 runs, the one-GPU claims on one H100, the stage bytes on no GPU at all.  Nothing is
written into reports/."""
import json

import pandas as pd
import pytest

from apsp_kernels.study.method import claims as claims_mod
from apsp_kernels.study.seeds.nthu import load as R
from apsp_kernels.study.seeds.nthu import study as NS, verdicts as NV

# the runs notebook 09 judges (its parameters: every run; the two-GPU campaign on H200 cards, two-GPU machines)
SINGLE = R.find_runs("single", "all", cards="")
MULTI = NS.reference_multi_runs()        # two-GPU machines only: a four-GPU machine's runs judge no claim
pytestmark = pytest.mark.skipif(not SINGLE or not MULTI, reason="no recorded NTHU runs of both kinds in data/results")


def test_two_gpu_claims_name_the_two_gpu_runs_and_their_cards():
    for cid in R.TWO_GPU:
        device, runs, profile = R.source_of(cid, SINGLE, MULTI)
        if cid in R.COMPUTED:
            assert "no GPU run" in device and runs == "-"
            continue
        assert device == "2 x NVIDIA H200", cid
        assert "nthu-multi" in runs and "nthu-single" not in runs and f"({len(MULTI)} runs)" in runs, cid
        assert profile == "nthu-multi"


def test_one_gpu_claims_name_every_one_gpu_run_they_pool():
    C = claims_mod.load()
    one = [cid for cid, c in C.items() if c.get("notebook") == "09_nthu" and cid not in R.TWO_GPU]
    assert set(R.SINGLE) <= set(one)
    for cid in one:
        device, runs, profile = R.source_of(cid, SINGLE, MULTI)
        assert device == "1 x NVIDIA H100 80GB HBM3" and SINGLE[0].name in runs and SINGLE[-1].name in runs, cid
        assert profile == "nthu-single"


def test_the_published_table_carries_each_rows_source(tmp_path):
    C = claims_mod.load()
    rows = [dict(claim=cid, verdict="reproduced", reason="-") for cid, c in C.items() if c.get("notebook") == "09_nthu"]
    t = NV.publish("09_nthu", rows, SINGLE, MULTI, reports_dir=tmp_path)
    written = pd.read_csv(tmp_path / "verdicts" / "09_nthu.csv").set_index("claim")
    assert list(written.index) == list(t["claim"])
    assert written.loc["nthu_multi_2gpu_speedup", "device"] == "2 x NVIDIA H200"
    assert written.loc["nthu_bigger_blocks_faster", "device"] == "1 x NVIDIA H100 80GB HBM3"
    assert written["device"].nunique() == 3


def test_the_index_source_of_the_notebook_names_both_kinds(tmp_path, monkeypatch):
    from apsp_kernels import paths
    monkeypatch.setattr(paths, "REPORTS", tmp_path)
    R.record_source("09_nthu", SINGLE, MULTI)
    s = json.loads((tmp_path / "sources" / "09_nthu.json").read_text())
    assert "one GPU: 1 x NVIDIA H100 80GB HBM3" in s["device"] and "two GPUs: 2 x NVIDIA H200" in s["device"]
    assert "nthu-multi" in s["run"] and "nthu-single" in s["run"] and s["profile"] == "nthu-single, nthu-multi"


def test_the_reference_verdict_table_names_each_nthu_rows_own_runs():
    from apsp_kernels.study.report import readme_findings as RF
    v = pd.read_csv(RF.reference_table()).set_index("claim")
    nthu = v[v["notebook"] == "09_nthu"]
    assert len(nthu)
    for cid, r in nthu.iterrows():
        assert (r["device"], r["results"], r["profile"]) == R.source_of(cid, SINGLE, MULTI), cid
    assert not (nthu.loc[[c for c in R.TWO_GPU if c not in R.COMPUTED], "device"].str.contains("H100")).any()
