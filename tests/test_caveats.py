"""The caveats shown beside a verdict (study.caveats): fixed words from data/claims.yaml, numbers computed."""
from pathlib import Path

from apsp_kernels.study.method import claims
from apsp_kernels.study.report import caveats as K

RUN = Path(__file__).resolve().parent.parent / "data" / "results" / "20261124-235000-paper-campaign"


def test_fixed_words_without_records():
    out = K.caveats("ooc_slowdown_vs_kk")
    assert out[0].startswith("Stability is not validity") and "inconclusive" in out[1]
    assert K.caveats("hochberg_difference_timing") == []          # not a campaign claim, no caveat of its own


def test_the_numbers_come_from_run_L():
    t = K.table(RUN)
    ooc = " ".join(t[t["claim"] == "ooc_slowdown_vs_kk"]["caveat"])
    assert "5 of Kemp's 17 sizes are untimed" in ooc and "rises monotonically" in ooc
    assert set(t["claim"]) <= set(claims.load())
