"""scripts/order_effect.py on rows made here: auto's median over the named pick's, by whether the pick ran first."""
import sys

import pandas as pd

from script_runs import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import order_effect as O  # noqa: E402


def test_autos_median_over_its_named_picks(tmp_path):
    rows = []
    for r in range(3):
        rows += [dict(graph="g", n=10, m=20, code="a", mode="e2e_ms", round=r, ms=10.0 + r, picked=""),
                 dict(graph="g", n=10, m=20, code="b", mode="e2e_ms", round=r, ms=50.0, picked=""),
                 dict(graph="g", n=10, m=20, code="auto", mode="e2e_ms", round=r, ms=9.0 + r, picked="a"),
                 dict(graph="h", n=10, m=20, code="auto", mode="e2e_ms", round=r, ms=9.0, picked="c")]
    pd.DataFrame(rows).to_csv(tmp_path / "x.csv", index=False)
    pd.DataFrame([dict(graph="g", n=1, ms=1.0)]).to_csv(tmp_path / "other.csv", index=False)
    r = O.ratios(tmp_path)
    assert len(r) == 1                                     # h: its pick was not timed by name; other.csv: no rounds
    row = r.iloc[0]
    assert row.code == "a" and bool(row.named_first) and row.ratio == 10.0 / 11.0
