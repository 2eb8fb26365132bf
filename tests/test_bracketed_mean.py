"""estimate.bracketed_mean: Kemp's averages over his whole grid of graphs where only some were timed
here -- a bracket from the timed neighbours, never an interpolation."""
import numpy as np
import pytest

from apsp_kernels.study.method import estimate


def bracket(*a, **k):
    return estimate.bracketed_mean(*a, **k)[:7]


def _runs(median, k=5, spread=0.05, seed=0):
    rng = np.random.default_rng(seed)
    return median * np.exp(rng.normal(0, spread, k))


def test_every_grid_size_timed_gives_a_point_and_a_central_interval():
    fam = {"a": ([1, 2, 3], [(n, _runs(10.0 * n, seed=n), _runs(1.0, seed=10 + n)) for n in (1, 2, 3)])}
    low, high, lo, hi, timed, between, beyond = bracket(fam)
    assert low == high and lo < low < hi and (timed, between, beyond) == (3, 0, 0)
    assert low == pytest.approx(np.mean([np.median(_runs(10.0 * n, seed=n)) / np.median(_runs(1.0, seed=10 + n))
                                         for n in (1, 2, 3)]))


def test_untimed_grid_sizes_lie_between_their_neighbours_ratios():
    # ratios 10 at n=1, 40 at n=4 (exactly: no spread); the grid 1..4 has 2 and 3 untimed
    fam = {"a": ([1, 2, 3, 4], [(1, [10.0] * 5, [1.0] * 5), (4, [40.0] * 5, [1.0] * 5)])}
    low, high, *_, timed, between, beyond = bracket(fam)
    assert low == pytest.approx((10 + 10 + 10 + 40) / 4) and high == pytest.approx((10 + 40 + 40 + 40) / 4)
    assert (timed, between, beyond) == (2, 2, 0)


def test_grid_sizes_beyond_the_timed_ones_are_unknown():
    fam = {"a": ([1, 2, 3], [(1, [10.0] * 5, [1.0] * 5), (2, [20.0] * 5, [1.0] * 5)])}
    low, high, lo, hi, timed, between, beyond = bracket(fam)
    assert low == pytest.approx(10.0) and np.isinf(high) and np.isinf(hi) and beyond == 1


def test_timed_sizes_off_the_grid_serve_as_neighbours_only():
    # Katz & Kider's grid ends at 17408; timed at 16384 and 19456, the latter off the grid
    fam = {"kk": ([16384, 17408], [(16384, [100.0] * 5, [1.0] * 5), (19456, [200.0] * 5, [1.0] * 5)])}
    low, high, *_, timed, between, beyond = bracket(fam)
    assert (timed, between, beyond) == (1, 1, 0) and low == 100 and high == 150


def test_several_codes_average_their_own_means():
    fam = {"a": ([1, 2], [(1, [2.0] * 5, [1.0] * 5), (2, [4.0] * 5, [1.0] * 5)]),
           "b": ([1], [(1, [30.0] * 5, [1.0] * 5)])}
    low, high, *_ = bracket(fam)
    assert low == high == pytest.approx((3 + 30) / 2)


def test_interval_covers_the_grid_mean_while_the_bracket_holds():
    """Simulated: a ratio curve rising with n, timed at every other grid size by 5 noisy runs;
    the interval must contain the true grid mean in at least 95% of trials."""
    grid = [1, 2, 3, 4, 5, 6, 7]
    true = {n: 5.0 * n ** 1.5 for n in grid}
    rng = np.random.default_rng(1)
    hits, trials = 0, 200
    for _ in range(trials):
        groups = [(n, true[n] * np.exp(rng.normal(0, 0.1, 5)), np.exp(rng.normal(0, 0.1, 5))) for n in (1, 3, 5, 7)]
        *_, lo, hi, _t, _b, _u = bracket({"a": (grid, groups)}, n_boot=1000)
        hits += lo <= np.mean(list(true.values())) <= hi
    assert hits / trials >= 0.95


def test_a_single_run_gives_no_interval():
    fam = {"a": ([1], [(1, [10.0], [1.0] * 5)])}
    low, high, lo, hi, *_ = bracket(fam)
    assert low == 10 and np.isnan(lo) and np.isnan(hi)


def test_nothing_timed():
    assert np.isnan(bracket({})[0])


def test_fully_timed_interval_has_about_its_nominal_coverage():
    """With every grid size timed the bracket closes and the interval is the central 95% one: it must
    cover the true mean at least about 95% of the time (a speed-up's interval, two independent t-draws,
    errs wide: test_rules' ratio test allows up to 100%) without being wide: a point (0%), swapped
    quantiles (0%) or an envelope far wider than the noise all fail."""
    grid = [1, 2, 3]
    true = {n: 5.0 * n for n in grid}
    rng = np.random.default_rng(2)
    hits, trials, widths = 0, 300, []
    for _ in range(trials):
        groups = [(n, true[n] * np.exp(rng.normal(0, 0.1, 5)), np.exp(rng.normal(0, 0.1, 5))) for n in grid]
        *_, lo, hi, _t, _b, _u = bracket({"a": (grid, groups)}, n_boot=1000)
        hits += lo <= np.mean(list(true.values())) <= hi
        widths.append(hi / lo)
    assert 0.92 <= hits / trials and 1.0 < np.median(widths) < 1.4, (hits / trials, np.median(widths))
