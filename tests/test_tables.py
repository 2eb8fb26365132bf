"""The one table helper of the reports (study.tables): numbers to significant figures, no index
column, a unit in the header of every quantity, the same HTML for the same table."""
import math

import numpy as np
import pandas as pd
import pytest

from apsp_kernels.study.show import tables as T


@pytest.mark.parametrize("x, text", [
    (0.000123456, "0.000123"), (0.8781, "0.878"), (1.230, "1.23"), (28.813, "28.8"), (4190.2, "4190"),
    (163943.81, "163944"), (3.0, "3"), (-0.5, "-0.5"), (9.996, "10"), (1617.9, "1618"), (2e3, "2000"),
    (np.float64(0.0), "0"), (float("nan"), "-"), (None, "-"), (np.int64(1024), "1024"), (True, "yes"),
    (float("inf"), "inf"), ("text", "text")])
def test_fmt_three_significant_figures_without_exponent(x, text):
    assert T.fmt(x) == text


def test_fmt_never_writes_an_exponent_or_six_decimals():
    for v in np.geomspace(1e-6, 1e9, 200):
        s = T.fmt(v)
        assert "e" not in s and "E" not in s
        assert math.isclose(float(s), v, rel_tol=5.01e-3)          # 3 significant figures at least


def test_interval():
    assert T.interval(165.3, 125.01, 219.4) == "165x [125, 219]"
    assert T.interval(2003.0, 1617.9, 2470.2) == "2003x [1618, 2470]"
    assert T.interval(float("nan"), 1, 2) == "-"


def _summary():
    return pd.DataFrame(dict(algorithm=["fw_blocked", "katz_kider"], variant=[64, 32], n=[1024, 2048],
                             median=[872.739123, 155.78432], ci_lo=[4.646, 136.4], ci_hi=[163943.81, 177.8],
                             runs=[6, 6], processes=[3, 3], **{"G updates/s": [1.230456, 6.893]}), index=[26, 2])


def test_frame_has_no_index_and_a_unit_in_every_numeric_header():
    t = T.frame(_summary())
    assert list(t.index) == [0, 1] and "index" not in t.columns
    assert list(t.columns) == ["algorithm", "variant", "n (vertices)", "median (ms)", "95% CI low (ms)", "95% CI high (ms)",
                               "runs (count)", "independent processes (count)", "throughput (G updates/s)"]
    assert t.iloc[0].tolist() == ["fw_blocked", "64", "1024", "873", "4.65", "163944", "6", "3", "1.23"]
    assert t.attrs["numeric"] == list(t.columns[2:])


def test_a_named_index_becomes_a_column_and_levels_are_joined():
    piv = pd.DataFrame(dict(n=[16, 16, 32], variant=["a", "b", "a"], wrong=[0.0, 0.5, 1 / 3])).pivot(
        index="n", columns="variant", values="wrong")
    t = T.frame(piv.add_suffix(": runs wrong"), unit="fraction")
    assert list(t.columns) == ["n (vertices)", "a: runs wrong (%)", "b: runs wrong (%)"]
    assert t.iloc[1].tolist() == ["32", "33.3", "-"]
    multi = pd.DataFrame({("katz_kider", "memory (fastest)"): ["pinned"], ("tran_fw", "memory (fastest)"): ["pageable"]})
    assert list(T.frame(multi).columns) == ["katz_kider: memory (fastest)", "tran_fw: memory (fastest)"]


def test_speedup_intervals_are_ratios_and_suffixes_keep_their_unit():
    sp = pd.DataFrame(dict(n=[1024], speedup=[73.71], ci_lo=[54.39], ci_hi=[97.75], baseline_timed=["measured"]))
    assert list(T.frame(sp).columns) == ["n (vertices)", "speed-up (x)", "95% CI low (x)", "95% CI high (x)", "baseline timed"]
    merged = sp.merge(sp, on="n", suffixes=(" end-to-end", " kernel-only"))
    assert "speed-up end-to-end (x)" in T.frame(merged).columns
    both = T.frame(T.speedups({"end-to-end": sp, "kernel-only": sp}))
    assert both.iloc[0].tolist() == ["1024", "73.7 [54.4, 97.8]", "73.7 [54.4, 97.8]", "measured"]


def test_a_number_without_a_unit_is_refused():
    with pytest.raises(ValueError, match="no unit"):
        T.frame(pd.DataFrame({"mystery": [1.5]}))
    assert list(T.frame(pd.DataFrame({"mystery": [1.5]}), units={"mystery": "s"}).columns) == ["mystery (s)"]
    assert list(T.frame(pd.DataFrame({"time (ms)": [1.5]})).columns) == ["time (ms)"]      # its own unit


def test_show_is_deterministic_hides_the_index_and_colours_verdicts():
    a, b = T.show(_summary()).to_html(), T.show(_summary()).to_html()
    assert a == b and "row_heading" not in a and "blank" not in a
    v = T.show(pd.DataFrame(dict(claim=["c1", "c2"], verdict=["reproduced", "not reproduced"], quote=["q" * 60, "r"])))
    html = v.to_html()
    assert T.VERDICT_COLOURS["reproduced"] in html and T.VERDICT_COLOURS["not reproduced"] in html
    assert "max-width: 28em" in html                 # the long quote wraps inside bounds


def test_key_values_table():
    t = T.frame(T.key_values({"gpu": "H100", "cpu_mhz_now": 2994.30912, "cores": 16}, "provenance"))
    assert list(t.columns) == ["provenance", "value"] and t["value"].tolist() == ["H100", "2994", "16"]
