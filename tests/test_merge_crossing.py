"""scripts/merge_crossing.py: a crossing file made of an earlier one and a newer lease's rows is the one the rule
reads (the recorded large deep crossing rebuilt from its two sources), and rows of other columns are refused."""
import importlib.util
import json
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("merge_crossing", ROOT / "scripts" / "merge_crossing.py")
M = importlib.util.module_from_spec(spec)
spec.loader.exec_module(M)
ELIM = ROOT / "data" / "results" / "elimination"
LEASE = ROOT / "data" / "results" / "device-logs" / "h200-20261201-2327-crossing-deep-large"


def test_the_recorded_large_crossing_is_its_two_sources_merged(tmp_path):
    old, new = ELIM / "NVIDIA_H200-2026-11-30-touched-crossing-deep.csv", LEASE / "crossing.csv"
    if not (old.exists() and new.exists()):
        pytest.skip("the recorded crossing rows are not here")
    out = tmp_path / "X-2026-01-01-large-crossing-deep.csv"
    assert M.main([str(old), str(new), "--out", str(out)]) == 0
    got = pd.read_csv(out)
    recorded = pd.read_csv(ELIM / "NVIDIA_H200-2026-12-01-large-crossing-deep.csv")
    key = lambda t: t.sort_values(["n", "graph"]).reset_index(drop=True)[recorded.columns]
    pd.testing.assert_frame_equal(key(got), key(recorded), check_exact=False, rtol=1e-9)
    prov = json.loads(out.with_suffix(".provenance.json").read_text())
    assert len(prov["invocations"]) == 3 and "touched-crossing-deep" in prov["note"]


def test_newer_rows_replace_the_earlier_of_a_graph_and_size():
    cols = dict(tuned_elimination_e2e_host_ms=1.0, tuned_deep_e2e_host_ms=2.0, e2e_verified=True)
    earlier = pd.DataFrame([dict(graph="path 10", n=10, m=9, **cols), dict(graph="ring 10", n=10, m=10, **cols)])
    newer = pd.DataFrame([dict(graph="path 10", n=10, m=9, **cols, rounds=3) | {"tuned_deep_e2e_host_ms": 5.0}])
    got = M.merged(earlier, newer)
    assert got.graph.tolist() == ["ring 10", "path 10"] and got.tuned_deep_e2e_host_ms.tolist() == [2.0, 5.0]
    with pytest.raises(ValueError, match="different columns"):
        M.merged(earlier, newer.rename(columns={"tuned_deep_e2e_host_ms": "tuned_fw_e2e_host_ms"}))
