"""The study's one estimator (study/method/estimate.py): ratios paired where both codes ran in one process,
intervals over independent machine leases, slopes whose intervals include the scatter between points."""
import warnings

import numpy as np
import pandas as pd
import pytest

from apsp_kernels.study.method import estimate as E


def frame(leases, processes_per_lease=1, codes=(("a", 10.0), ("b", 1.0)), lease_sd=0.2, run_sd=0.01, seed=1):
    """Per-run rows of codes timed in every process; each lease scales every time of its processes
    (its host's speed), each run has a little noise of its own."""
    rng = np.random.default_rng(seed)
    rows = []
    for lease in range(leases):
        f = np.exp(rng.normal(0, lease_sd))
        for p in range(processes_per_lease):
            for code, base in codes:
                for r in range(3):
                    rows.append(dict(code=code, lease=f"L{lease}", process=f"L{lease}p{p}",
                                     ms=base * f * np.exp(rng.normal(0, run_sd))))
    return pd.DataFrame(rows)


def side(df, code):
    return E.samples(df[df["code"] == code], "ms")


def test_samples_are_one_median_per_process_keyed_by_lease():
    s = side(frame(3, 2), "a")
    assert list(s.index.names) == ["lease", "process"] and len(s) == 6
    assert len(E.lease_values(s)) == 3


def test_paired_and_unpaired_give_the_documented_intervals():
    """Both codes ran in every process: the ratio is formed inside each process, the host's speed divides
    out and the interval is narrow.  The same values with the processes' names taken apart (no process ran
    both): each side drawn independently, the lease factors count twice and the interval is wide."""
    df = frame(5)
    paired = E.ratio(side(df, "a"), side(df, "b"))
    assert paired.paired and paired.leases == 5 and paired.processes == 5
    assert paired.lo < 10 < paired.hi and paired.hi / paired.lo < 1.05
    b = df[df["code"] == "b"].assign(process=lambda d: d["process"] + "-other")
    unpaired = E.ratio(side(df, "a"), E.samples(b, "ms"))
    assert not unpaired.paired and unpaired.leases == 5
    assert unpaired.lo < 10 < unpaired.hi and unpaired.hi / unpaired.lo > 1.3
    assert paired.value == pytest.approx(10, rel=0.02) and unpaired.value == pytest.approx(10, rel=0.05)
    assert "paired inside each of 5 processes on 5 leases" == paired.basis()


def test_processes_of_one_lease_count_once():
    """Five processes on one lease are one independent unit: no interval.  The same five on five leases
    give one."""
    one = frame(1, processes_per_lease=5)
    e = E.ratio(side(one, "a"), side(one, "b"))
    assert e.leases == 1 and e.processes == 5 and not e.has_interval and e.value == pytest.approx(10, rel=0.02)
    assert "no interval" in e.basis()
    five = frame(5, processes_per_lease=1)
    assert E.ratio(side(five, "a"), side(five, "b")).has_interval


def test_lease_clustering_widens_what_shared_leases_would_narrow():
    """Three leases of four processes each: treated as twelve independent processes the interval would
    be narrower than the data support; clustered by lease it is the interval of three."""
    df = frame(3, processes_per_lease=4, lease_sd=0.3)
    b = df[df["code"] == "b"].assign(process=lambda d: d["process"] + "-x")     # unpaired: lease noise shows
    clustered = E.ratio(side(df, "a"), E.samples(b, "ms"))
    naive = E.ratio(E.samples(df[df["code"] == "a"].assign(lease=lambda d: d["process"]), "ms"),
                    E.samples(b.assign(lease=lambda d: d["process"]), "ms"))
    assert clustered.leases == 3 and naive.leases == 12
    assert clustered.hi / clustered.lo > naive.hi / naive.lo


def test_an_array_is_one_process_per_lease():
    e = E.interval([1.0, 1.1, 0.9, 1.05])
    assert e.leases == 4 and e.lo < 1.0 < e.hi
    assert not E.interval([5.0]).has_interval


def test_slope_interval_includes_the_scatter_between_points():
    """Five points, each measured precisely, lying off any line: the interval from the points' own
    uncertainty alone would be narrow; the residual scatter makes it wide (the seed-001 density trend)."""
    x = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2]
    level = [4.0, 47.0, 20.0, 60.0, 10.0]          # no clear trend, precisely measured
    rng = np.random.default_rng(2)
    pts = [E.as_samples(v * np.exp(rng.normal(0, 0.01, 5))) for v in level]
    e = E.slope(x, pts)
    assert e.lo < 0 < e.hi and e.hi - e.lo > 0.3
    on_line = [E.as_samples(100 * xi ** 0.5 * np.exp(rng.normal(0, 0.01, 5))) for xi in x]
    e = E.slope(x, on_line)
    assert e.value == pytest.approx(0.5, abs=0.01) and e.hi - e.lo < 0.05


def test_slope_of_ratios_and_pooled_groups():
    n = [1024, 2048, 4096, 8192]
    groups = [(E.as_samples(np.array([x, x * 1.01, x * 0.99])), E.as_samples(np.ones(3))) for x in n]
    e = E.slope(n, groups)
    assert e.value == pytest.approx(1, abs=1e-2) and 0.9 < e.lo <= e.hi < 1.1
    cf = [1, 2, 4, 8, 16]
    rng = np.random.default_rng(3)
    xs, pts, gs = [], [], []
    for g, lvl in enumerate((1.0, 50.0, 1e4)):
        for f in cf:
            xs.append(f), gs.append(g), pts.append(E.as_samples(lvl * f * np.exp(rng.normal(0, 0.02, 3))))
    e = E.slope(xs, pts, groups=gs)
    assert e.value == pytest.approx(1, abs=0.03) and 0.9 < e.lo < 1 < e.hi < 1.1
    assert np.isnan(E.slope([1, 2], [E.as_samples([1.0, 1.1])] * 2).lo)       # no degree of freedom left


def test_largest_of_several_allows_for_the_pick():
    rng = np.random.default_rng(5)
    hits, trials = 0, 200
    for _ in range(trials):
        groups = [E.as_samples(t * np.exp(rng.normal(0, 0.1, 5))) for t in (1.1, 1.1, 1.1, 1.1)]
        e, worst = E.largest(groups, n_boot=800)
        hits += e.lo <= 1.1 <= e.hi
    assert hits / trials >= 0.95
    e, worst = E.largest([E.as_samples([1.1, 1.2, 1.15]), E.as_samples([1.3])])
    assert e.value == 1.3 and worst == 1 and not e.has_interval


@pytest.mark.parametrize("k", [3, 5])
def test_a_ratio_over_k_leases_covers_95_percent(k):
    rng = np.random.default_rng(11)
    hits, trials = 0, 300
    for _ in range(trials):
        a, b = np.exp(rng.normal(0, 0.2, k)), np.exp(rng.normal(0, 0.2, k))
        e = E.ratio(E.as_samples(a), pd.Series(b, index=pd.MultiIndex.from_arrays(
            [[f"x{i}" for i in range(k)]] * 2, names=["lease", "process"])), n_boot=800)
        hits += e.lo <= 1 <= e.hi
    assert 0.92 <= hits / trials <= 1.0


def test_far_apart_leases_give_finite_intervals_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e = E.ratio(E.as_samples([1.0, 5000.0]), pd.Series([3.0, 1e-3], index=pd.MultiIndex.from_arrays(
            [["y0", "y1"]] * 2, names=["lease", "process"])))
    assert np.isfinite(list(e)).all() and e.lo < e.value < e.hi


def test_samples_by_gives_each_points_samples_at_once():
    d = pd.DataFrame(dict(n=[1, 1, 1, 2, 2], lease=["a", "a", "b", "a", "b"], process=["p1", "p1", "p2", "p1", "p2"],
                          t=[1.0, 3.0, 5.0, 7.0, np.nan]))
    by = E.samples_by(d, "t", "n")
    assert sorted(by) == [1, 2]
    for n, g in d.groupby("n"):
        pd.testing.assert_series_equal(by[n], E.samples(g, "t"), check_names=False)
    assert not E.interval(by[2]).has_interval and E.interval(by[2]).value == 7.0    # one lease left: no interval
    assert E.samples_by(d.iloc[0:0], "t", "n") == {}


@pytest.mark.parametrize("k", [3, 5])
def test_a_time_over_k_leases_covers_95_percent(k):
    """The model behind every interval of a time: from 3 or 5 independent leases, the median's interval
    covers the true median about 95% of the time (a bootstrap over three covers far less)."""
    rng = np.random.default_rng(7)
    hits, trials = 0, 300
    for _ in range(trials):
        e = E.interval(E.as_samples(np.exp(rng.normal(0, 0.2, k))), n_boot=800)
        hits += e.lo <= 1 <= e.hi
    assert 0.92 <= hits / trials <= 1.0


def test_a_geometric_mean_over_points_is_read_off_their_draws():
    """Four points of equal spread: the mean's value is their geometric mean and its interval narrows about
    as sqrt(4) (each point's draws shuffled on their own: one seeded generator would make them move together);
    a point on one lease leaves the mean without an interval; a point without draws is an error."""
    pts = [E.ratio(side(frame(5, seed=s, codes=(("a", v), ("b", 1.0))), "a"),
                   side(frame(5, seed=s, codes=(("a", v), ("b", 1.0))), "b").rename(lambda x: x + "-o", level=1))
           for s, v in zip(range(4), (2.0, 4.0, 8.0, 16.0))]
    g = E.geometric_mean(pts)
    assert g.value == pytest.approx(np.exp(np.mean(np.log([p.value for p in pts]))))
    width = lambda e: np.log(e.hi / e.lo)
    assert 0.35 < width(g) / np.mean([width(p) for p in pts]) < 0.7
    assert g.leases == 5 and not g.paired and g.lo < g.value < g.hi
    one = E.ratio(E.as_samples([3.0]), E.as_samples([1.0]))
    assert not E.geometric_mean(pts + [one]).has_interval
    with pytest.raises(ValueError, match="without its draws"):
        E.geometric_mean([E.Estimate(2.0, 1.0, 3.0, leases=3)])
    p = E.Point(1024, g)
    assert p == (1024, g.value, g.lo, g.hi) and p.est is g
