"""A code's growth from the paper's smallest to its largest size (harish_time_growth,
tran_fw_time_growth): the ratio is formed inside each process, so that a lease's host speed, which
moves both sizes' times of one process together, divides out (quantities.growth)."""
import numpy as np
import pandas as pd

from apsp_kernels.study.method import claims
from apsp_kernels.study.seeds.kemp import load as M, spec as plan
from apsp_kernels.study.method import estimate as E, quantities as Q, verdicts as V


def records(processes=25, growth=37.5, lease_sd=0.10, run_sd=0.02, seed=1):
    """Harish's times at n = 1024 and 21504: per process one lease factor on both sizes (the host
    speed of its machine lease), then independent noise per run."""
    rng = np.random.default_rng(seed)
    rows = []
    for p in range(processes):
        lease = np.exp(rng.normal(0, lease_sd))
        for n, base in ((1024, 500.0), (21504, 500.0 * growth)):
            for r in range(2):
                rows.append(dict(algorithm="harish", variant="atomic", n=n, graph=M.KEMP, params="{}", process=p, lease=p,
                                 repeat=r, status="ok", verified=True, estimate="measured", device="gpu",
                                 wall_ms=base * lease * np.exp(rng.normal(0, run_sd))))
    return pd.DataFrame(rows)


def test_growth_is_paired_and_decides_near_the_band_edge():
    c = plan.on_kemp(claims.load())["harish_time_growth"]                   # claimed 32x, widened to [25.6, 40]
    df = records()
    v, lo, hi, text = Q.growth(df, c)
    assert 36 < v < 39 and hi < 40 and "paired inside each of 25 processes on 25 leases" in text
    assert V.evaluate(c, df, aggregate=(v, lo, hi, text))["verdict"] == "reproduced"
    # the same records unpaired straddle the edge: the lease factors (10%) widen the interval
    a, _ = M.times(df, "harish", "atomic", 21504)
    b, _ = M.times(df, "harish", "atomic", 1024)
    apart = b.rename(index=lambda p: f"{p}-other", level="process")
    assert E.ratio(a, apart).hi > 40
    # a growth above the band is still found
    v, lo, hi, text = Q.growth(records(growth=60.0), c)
    assert V.evaluate(c, df, aggregate=(v, lo, hi, text))["verdict"] == "differs in magnitude"


def test_growth_not_measured_at_both_sizes():
    c = plan.on_kemp(claims.load())["harish_time_growth"]
    df = records()
    v, *_ , text = Q.growth(df[df["n"] == 1024], c)
    assert np.isnan(v) and "not measured at both" in text
