"""The caveats shown beside a verdict (study.caveats): fixed words from data/claims.yaml, numbers computed."""
from pathlib import Path

import pandas as pd

from apsp_kernels.study.method import claims
from apsp_kernels.study.report import caveats as K

RUN = Path(__file__).resolve().parent.parent / "data" / "results" / "20261124-235000-paper-campaign"


def test_fixed_words_without_records():
    out = K.caveats("ooc_slowdown_vs_kk")
    assert out[0].startswith("Stability is not validity") and "inconclusive" in out[1]
    assert K.caveats("hochberg_difference_timing") == []          # not a campaign claim, no caveat of its own


def test_growth_by_lease_pairs_inside_each_lease():
    c = dict(algorithm="harish", variant=None, paper_n=[1024, 2048])
    rows = [dict(algorithm="harish", variant="atomic", graph="kemp 2-6", n=n, process=p, wall_ms=t, estimate="measured",
                 status="ok", verified=True, params="{}", repeat=0)
            for p, speed in enumerate((1.0, 1.0, 2.0, 2.0)) for n, t in ((1024, 10 * speed), (2048, 80 * speed))]
    v, lo, hi, k, per = K.growth_by_lease(pd.DataFrame(rows), c, {0: "a", 1: "a", 2: "b", 3: "b"})
    assert k == 2 and v == 8 and (per == 8).all()


def test_the_numbers_come_from_run_L():
    t = K.table(RUN)
    ooc = " ".join(t[t["claim"] == "ooc_slowdown_vs_kk"]["caveat"])
    assert "5 of Kemp's 17 sizes are untimed" in ooc and "rises monotonically" in ooc
    h = " ".join(t[t["claim"] == "harish_time_growth"]["caveat"])
    assert "25 processes on 5 leases" in h and "4 of 25 per-process ratios" in h
    assert set(t["claim"]) <= set(claims.load())
