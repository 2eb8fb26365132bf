"""A code's growth from the paper's smallest to its largest size (harish_time_growth,
tran_fw_time_growth): the ratio is formed inside each process, so that a lease's host speed, which
moves both sizes' times of one process together, divides out (quantities.growth)."""
import numpy as np
import pandas as pd

from apsp_kernels.study.method import claims
from apsp_kernels.study.seeds.kemp import load as M
from apsp_kernels.study.method import quantities as Q, stats, verdicts as V


def records(processes=25, growth=37.5, lease_sd=0.10, run_sd=0.02, seed=1):
    """Harish's times at n = 1024 and 21504: per process one lease factor on both sizes (the host
    speed of its machine lease), then independent noise per run."""
    rng = np.random.default_rng(seed)
    rows = []
    for p in range(processes):
        lease = np.exp(rng.normal(0, lease_sd))
        for n, base in ((1024, 500.0), (21504, 500.0 * growth)):
            for r in range(2):
                rows.append(dict(algorithm="harish", variant="atomic", n=n, graph=M.KEMP, params="{}", process=p,
                                 repeat=r, status="ok", verified=True, estimate="measured", device="gpu",
                                 wall_ms=base * lease * np.exp(rng.normal(0, run_sd))))
    return pd.DataFrame(rows)


def test_paired_ratio_divides_out_what_moves_both_sides():
    a = pd.Series([2.0, 4.0, 8.0, 16.0]) * 10
    b = pd.Series([2.0, 4.0, 8.0, 16.0])
    v, lo, hi, k = stats.paired_ratio_ci(a, b)
    assert (v, k) == (10.0, 4) and abs(lo - 10) < 1e-9 and abs(hi - 10) < 1e-9     # the same ratio in every run
    _, ulo, uhi = stats.ratio_ci(a.to_numpy(), b.to_numpy())
    assert uhi / ulo > 10                                     # unpaired, the lease factors count twice
    # only runs with both sides count
    v, lo, hi, k = stats.paired_ratio_ci(pd.Series({0: 10.0, 1: 20.0, 2: 30.0}), pd.Series({1: 1.0, 2: 1.0, 3: 1.0}))
    assert k == 2 and v == 25.0
    assert np.isnan(stats.paired_ratio_ci(pd.Series({0: 1.0}), pd.Series({1: 1.0}))[0])


def test_growth_is_paired_and_decides_near_the_band_edge():
    c = claims.load()["harish_time_growth"]                   # claimed 32x, widened to [25.6, 40]
    df = records()
    v, lo, hi, text = Q.growth(df, c)
    assert 36 < v < 39 and hi < 40 and "inside each of 25 processes" in text
    assert V.evaluate(c, df, aggregate=(v, lo, hi, text))["verdict"] == "reproduced"
    # the same records unpaired straddle the edge: the lease factors (10%) widen the interval
    a, _ = M.times(df, "harish", "atomic", 21504)
    b, _ = M.times(df, "harish", "atomic", 1024)
    assert stats.ratio_ci(a, b)[2] > 40
    # a growth above the band is still found
    v, lo, hi, text = Q.growth(records(growth=60.0), c)
    assert V.evaluate(c, df, aggregate=(v, lo, hi, text))["verdict"] == "differs in magnitude"


def test_growth_not_measured_at_both_sizes():
    c = claims.load()["harish_time_growth"]
    df = records()
    v, *_ , text = Q.growth(df[df["n"] == 1024], c)
    assert np.isnan(v) and "not measured at both" in text
