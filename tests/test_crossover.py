"""crossings.crossover_of: where one code becomes faster than another, read off the log time ratio
fitted non-increasing in n, so a tie at the smallest size or one noisy size does not decide."""
import numpy as np
import pandas as pd

from apsp_kernels.study.seeds.kemp import load as M
from apsp_kernels.study.method import crossings


def _records(ratio):
    """Code 'a' and code 'b' at the sizes of ``ratio`` (n -> time a / time b), 3 processes each with
    a little spread; b takes 1 ms at every size."""
    rows = []
    for n, r in ratio.items():
        for p, wiggle in enumerate((0.98, 1.0, 1.02)):
            for alg, t in (("a", r * wiggle), ("b", 1.0 / wiggle)):
                rows.append(dict(algorithm=alg, variant="None", graph=M.KEMP, n=n, params="{}", estimate="measured",
                                 status="ok", verified=True, wall_ms=t, process=p))
    return pd.DataFrame(rows)


def test_a_tie_at_the_smallest_size_does_not_make_a_faster_from_the_start():
    # the Hochberg batch's shape: 0.99x at n = 10, then b wins until about 60, then a for good
    ratio = {10: 0.99, 20: 1.35, 30: 1.2, 40: 1.1, 50: 1.04, 70: 0.96, 100: 0.8, 200: 0.6, 400: 0.55}
    n, ci, measured = crossings.crossover_of(_records(ratio), "a", "b", graph=M.KEMP)
    assert 50 < n < 70 and measured == (10, 400)
    assert ci is not None and ci[0] <= n <= ci[1]


def test_one_noisy_size_past_the_crossing_does_not_undo_it():
    ratio = {100: 1.5, 200: 1.2, 400: 0.8, 800: 1.02, 1600: 0.6, 3200: 0.5}
    n, _, _ = crossings.crossover_of(_records(ratio), "a", "b", graph=M.KEMP)
    assert 200 < n < 800


def test_always_faster_never_faster_and_a_clean_crossing():
    assert crossings.crossover_of(_records({10: 0.9, 20: 0.8, 40: 0.7}), "a", "b", graph=M.KEMP)[0] == 0.0
    assert crossings.crossover_of(_records({10: 1.3, 20: 1.2, 40: 1.1}), "a", "b", graph=M.KEMP)[0] is None
    n, _, _ = crossings.crossover_of(_records({100: 2.0, 400: 0.5}), "a", "b", graph=M.KEMP)
    assert np.isclose(n, 200.0)                    # log-log interpolation: the zero halfway in log n


def test_censored_draws_stay_in_the_interval():
    # 40 of 400 draws where a is faster from the smallest size: the lower end is that size, not a
    # number read off the 360 others (they were dropped before, narrowing the interval to the point)
    draws = [0.0] * 40 + list(np.linspace(40, 120, 360))
    lo, hi = crossings.censored_interval(draws, 10, 1800)
    assert lo == 0.0 and 110 < hi < 120
    lo, hi = crossings.censored_interval(list(np.linspace(12000, 14000, 380)) + [None] * 20, 1024, 16384)
    assert 12000 < lo < 12200 and hi == np.inf
    lo, hi = crossings.censored_interval(list(np.linspace(12000, 14000, 399)) + [None], 1024, 16384)
    assert hi < 14000                                 # one never-crossing draw of 400: inside the 2.5% tail
    assert crossings.censored_interval([], 10, 20) is None


def test_a_crossing_near_the_smallest_size_keeps_the_draws_that_cross_before_it():
    # a tie at the smallest size: some bootstrap draws have a faster from the start (0)
    rows = _records({10: 1.0, 20: 0.9, 40: 0.8, 80: 0.7})
    n, ci, measured = crossings.crossover_of(rows, "a", "b", graph=M.KEMP)
    assert n is not None and ci is not None and ci[0] == 0.0 and ci[1] >= n
