"""Notebook 07's hardware hypothesis (summary.implied_cpu_gain): the implied CPU gain carries Kemp's
range and our interval, and the sentence about one CPU factor is computed from their intersection."""
import pandas as pd

from apsp_kernels.measure import hardware
from apsp_kernels.study.report import summary as S


def _verdicts(rows):
    return pd.DataFrame(rows, columns=["claim", "ours", "ci_lo", "ci_hi"])


def test_the_implied_gain_carries_both_ranges():
    C = {"a": {"kemp": [40, 50]}}
    r = hardware.ratio("GeForce GTX 470", "int32")
    t, text = S.implied_cpu_gain(C, _verdicts([("a", 100.0, 80.0, 125.0)]), bound={"a": "int32"})
    lo, hi = (float(x) for x in t.loc[0, "implied single-thread CPU gain (x)"].split("-"))
    assert abs(lo - 40 * r / 125) / lo < 0.05 and abs(hi - 50 * r / 80) / hi < 0.05
    assert text.startswith("One CPU factor")


def test_ranges_without_a_common_factor_say_so():
    C = {"a": {"kemp": [40, 50]}, "b": {"kemp": [40, 50]}}
    v = _verdicts([("a", 100.0, 95.0, 105.0), ("b", 1000.0, 950.0, 1050.0)])      # 10x apart, narrow intervals
    t, text = S.implied_cpu_gain(C, v, bound={"a": "int32", "b": "int32"})
    assert text.startswith("No single CPU factor") and "\u201cb\u201d" in text and "\u201ca\u201d" in text


def test_no_claim_no_sentence():
    t, text = S.implied_cpu_gain({}, _verdicts([]), bound={"a": "int32"})
    assert t.empty and text == ""
