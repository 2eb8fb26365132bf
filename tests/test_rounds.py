"""Interleaved rounds read one way (apsp_kernels.measure.rounds): each code's median per graph and mode."""
import math

import pandas as pd

from apsp_kernels.measure import rounds


def _rows():
    times = {("a", "e2e_ms"): (10, 11, 50), ("b", "e2e_ms"): (9, 30, 31), ("a", "e2e_device_ms"): (4, 5, 6)}
    return pd.DataFrame([dict(graph="g", n=100, m=400, code=c, mode=mode, round=i, ms=ms)
                         for (c, mode), ts in times.items() for i, ms in enumerate(ts)])


def test_each_codes_median_per_graph_and_mode():
    med = rounds.medians(_rows())
    assert med.loc[("g", 100, "e2e_ms"), "a"] == 11 and med.loc[("g", 100, "e2e_ms"), "b"] == 30
    assert med.loc[("g", 100, "e2e_device_ms"), "a"] == 5 and math.isnan(med.loc[("g", 100, "e2e_device_ms"), "b"])


def test_one_mode_and_other_keys():
    med = rounds.medians(_rows(), "e2e_ms", by=("graph", "n", "m"))
    assert list(med.index) == [("g", 100, 400)] and med.iloc[0].to_dict() == {"a": 11.0, "b": 30.0}


def test_what_rounds_are_and_reading_several_files(tmp_path):
    _rows().to_csv(tmp_path / "x.csv", index=False)
    _rows().assign(n=200).to_csv(tmp_path / "y.csv", index=False)
    both = rounds.read(["x.csv", "y.csv"], tmp_path)
    assert rounds.are_rounds(both) and not rounds.are_rounds(both.drop(columns="mode"))
    assert list(both.n.unique()) == [100, 200] and len(both) == 18
