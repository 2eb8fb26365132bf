"""verdicts.crossover_of: where one code becomes faster than another, read off the log time ratio
fitted non-increasing in n, so a tie at the smallest size or one noisy size does not decide."""
import numpy as np
import pandas as pd

from apsp_kernels.study import measurements as M
from apsp_kernels.study import verdicts as V


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
    n, ci, measured = V.crossover_of(_records(ratio), "a", "b")
    assert 50 < n < 70 and measured == (10, 400)
    assert ci is not None and ci[0] <= n <= ci[1]


def test_one_noisy_size_past_the_crossing_does_not_undo_it():
    ratio = {100: 1.5, 200: 1.2, 400: 0.8, 800: 1.02, 1600: 0.6, 3200: 0.5}
    n, _, _ = V.crossover_of(_records(ratio), "a", "b")
    assert 200 < n < 800


def test_always_faster_never_faster_and_a_clean_crossing():
    assert V.crossover_of(_records({10: 0.9, 20: 0.8, 40: 0.7}), "a", "b")[0] == 0.0
    assert V.crossover_of(_records({10: 1.3, 20: 1.2, 40: 1.1}), "a", "b")[0] is None
    n, _, _ = V.crossover_of(_records({100: 2.0, 400: 0.5}), "a", "b")
    assert np.isclose(n, 200.0)                    # log-log interpolation: the zero halfway in log n
