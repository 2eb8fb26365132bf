"""scripts/host_crossing_features.py on rows made here: each graph's ratio from the last file that timed it."""
import sys

import pandas as pd

from script_runs import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import host_crossing_features as H  # noqa: E402


def test_the_ratio_per_graph_the_last_files(tmp_path):
    def rows(ms_elim, ms_front):
        return pd.DataFrame([dict(graph="grid", n=100, code=c, mode="e2e_ms", round=r, ms=ms)
                             for r in range(3) for c, ms in (("tuned_elimination", ms_elim), ("tuned_frontier", ms_front))]
                            + [dict(graph="grid", n=100, code="tuned_elimination", mode="e2e_int32_ms", round=0, ms=1.0)])
    rows(30.0, 20.0).to_csv(tmp_path / "a.csv", index=False)
    rows(10.0, 20.0).to_csv(tmp_path / "b.csv", index=False)
    r = H.ratios("e2e_ms", files=("a.csv", "b.csv"), where=tmp_path)
    assert len(r) == 1 and r.ratio.iloc[0] == 0.5
    assert H.ratios("e2e_int32_ms", files=("a.csv",), where=tmp_path).empty
