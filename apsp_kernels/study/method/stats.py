"""Statistics a reader can trust: medians with 95% intervals, intervals for ratios of medians
(speed-ups), averages of ratios, log-log slopes and crossovers.

The unit of every interval is the independent run (a fresh process, on its own machine lease
for a reference run): one median per run.  A reference run has 3 of them, and with fewer than 6
no distribution-free interval reaches 95% (three values cover the median with 75%), while a
bootstrap over three values gives little more than their range -- which is how the first two
reference runs (batches 213935 and 215654) got intervals narrower than the ~20% the timings
moved between machine leases.  So every interval here draws the uncertain median of each group
from one model: log-normal runs, the median's standard error sqrt(pi/2) * s / sqrt(k) on the log
scale (s the sample standard deviation of the k runs' logs), scaled by Student's t with k - 1
degrees of freedom (:func:`centre_draws`).  Ratios, averages, slopes and crossovers combine
those draws; the largest of several groups' medians, picked after the fact (the density claim's
worst code), takes the largest of their upper ends and a Bonferroni lower end (:func:`max_median_ci`).
A group of a single run has no interval (NaN): one run says nothing of its spread.  Where a claim
compares a code with itself (one code at several degrees), the value per run is itself paired
inside the run (quantities.paired_spread), so what moves between runs divides out first.
"""
from __future__ import annotations

import bisect

import numpy as np
from scipy.stats import binom

CONF = 0.95
N_BOOT = 4000
RNG_SEED = 20261122        # fixed: the same data give the same intervals (byte-identical reports)
_MEDIAN_SE = np.sqrt(np.pi / 2)   # standard error of a median / that of a mean (normal samples)


def median_ci(x, conf=CONF):
    """(median, lo, hi, coverage): from 6 values on, the distribution-free interval from order
    statistics (binomial), the narrowest symmetric one with coverage >= ``conf``; below that,
    the t-scaled log-normal interval of :func:`centre_draws`, computed in closed form (its
    nominal coverage is ``conf`` under that model)."""
    x = np.sort(np.asarray(x, float)[np.isfinite(x)])
    n = x.size
    if n == 0:
        return np.nan, np.nan, np.nan, 0.0
    med = float(np.median(x))
    if n < 6:
        if n < 2 or np.any(x <= 0):
            return med, np.nan, np.nan, 0.0
        from scipy.stats import t
        half = t.ppf((1 + conf) / 2, n - 1) * _MEDIAN_SE * np.log(x).std(ddof=1) / np.sqrt(n)
        return med, float(med * np.exp(-half)), float(med * np.exp(half)), conf
    for j in range(n // 2, -1, -1):                        # widen from the centre outwards
        cov = binom.cdf(n - j - 1, n, 0.5) - binom.cdf(j - 1, n, 0.5)   # P(x_(j) <= m <= x_(n-1-j))
        if cov >= conf:
            return med, float(x[j]), float(x[n - 1 - j]), float(cov)
    return med, float(x[0]), float(x[-1]), float(1 - 2 * 0.5 ** n)


def centre_draws(x, rng, n_boot=N_BOOT):
    """``n_boot`` draws of the uncertain median of one group of independent positive values (one
    per run): log(median) + t_(k-1) * sqrt(pi/2) * s / sqrt(k), s the standard deviation of the
    logs.  NaN for fewer than two values."""
    x = np.asarray(x, float)
    x = x[np.isfinite(x)]
    if x.size < 2 or np.any(x <= 0):
        return np.full(n_boot, np.nan)
    lx = np.log(x)
    se = _MEDIAN_SE * lx.std(ddof=1) / np.sqrt(x.size)
    # t with 1 or 2 degrees of freedom has tails heavy enough to leave float range: held at e^+-300
    # (far outside any interval), so that a ratio of two draws is never inf / inf = NaN
    return np.exp(np.clip(np.log(np.median(x)) + se * rng.standard_t(x.size - 1, n_boot), -300.0, 300.0))


def paired_ratio_ci(numerator, denominator, conf=CONF, n_boot=N_BOOT):
    """(median, lo, hi, runs) of the ratio numerator / denominator formed inside each run first
    (two Series keyed by run; runs with both), then one group's median interval (:func:`centre_draws`).
    For a code against itself (its time at two sizes): what moves both sides of one run together,
    the machine lease's host speed, divides out, where :func:`ratio_ci` would count it twice."""
    both = numerator.index.intersection(denominator.index)
    r = (numerator[both] / denominator[both]).to_numpy(float)
    r = r[np.isfinite(r)]
    if r.size == 0:
        return np.nan, np.nan, np.nan, 0
    lo, hi = quantiles(centre_draws(r, _rng(), n_boot), conf)
    return float(np.median(r)), lo, hi, int(r.size)


def _rng():
    return np.random.default_rng(RNG_SEED)


def ratio_ci(numerator, denominator, conf=CONF, n_boot=N_BOOT):
    """(ratio of medians, lo, hi): a speed-up base/algorithm with its 95% interval, each side's
    median drawn independently (:func:`centre_draws`)."""
    a = np.asarray(numerator, float)
    b = np.asarray(denominator, float)
    a, b = a[np.isfinite(a)], b[np.isfinite(b)]
    if a.size == 0 or b.size == 0:
        return np.nan, np.nan, np.nan
    point = float(np.median(a) / np.median(b))
    rng = _rng()
    lo, hi = quantiles(centre_draws(a, rng, n_boot) / centre_draws(b, rng, n_boot), conf)
    return point, lo, hi


def quantiles(dist, conf):
    """The central ``conf`` interval of draws; NaN where any draw is (a group of one run)."""
    if np.isnan(dist).any():
        return np.nan, np.nan
    lo, hi = np.quantile(dist, [(1 - conf) / 2, (1 + conf) / 2])
    return float(lo), float(hi)


def geomean_ci(groups, conf=CONF, n_boot=N_BOOT):
    """Geometric mean over sizes of per-size ratios, with a 95% interval: each group is
    (numerator runs, denominator runs) at one size."""
    return _mean_ci(groups, conf, n_boot, geometric=True)


def mean_ci(groups, conf=CONF, n_boot=N_BOOT):
    """Arithmetic mean over groups of per-group ratios (how Kemp averaged), with a 95% interval."""
    return _mean_ci(groups, conf, n_boot, geometric=False)


def _mean_ci(groups, conf, n_boot, geometric):
    groups = [(np.asarray(a, float), np.asarray(b, float)) for a, b in groups if len(a) and len(b)]
    if not groups:
        return np.nan, np.nan, np.nan
    rng = _rng()
    pts, boots = [], []
    for a, b in groups:
        pts.append(np.median(a) / np.median(b))
        boots.append(centre_draws(a, rng, n_boot) / centre_draws(b, rng, n_boot))
    pts, boots = np.array(pts), np.array(boots)
    if geometric:
        point, dist = np.exp(np.mean(np.log(pts))), np.exp(np.mean(np.log(boots), axis=0))
    else:
        point, dist = np.mean(pts), np.mean(boots, axis=0)
    lo, hi = quantiles(dist, conf)
    return float(point), lo, hi


def loglog_slope_ci(sizes, groups, conf=CONF, n_boot=N_BOOT):
    """Slope of log(ratio) against log(n) (least squares) with a 95% interval from the draws of
    each size's medians: (slope, lo, hi).  Needs at least 3 sizes."""
    sizes = np.asarray(sizes, float)
    if sizes.size < 3:
        return np.nan, np.nan, np.nan
    rng = _rng()
    x = np.log(sizes)
    pts, boots = [], []
    for a, b in groups:
        a, b = np.asarray(a, float), np.asarray(b, float)
        pts.append(np.log(np.median(a) / np.median(b)))
        boots.append(np.log(centre_draws(a, rng, n_boot) / centre_draws(b, rng, n_boot)))
    xc = x - x.mean()
    slope = float(np.dot(xc, np.array(pts)) / np.dot(xc, xc))
    lo, hi = quantiles(xc @ np.array(boots) / np.dot(xc, xc), conf)
    return slope, lo, hi


def pooled_slope_ci(per_group, conf=CONF, n_boot=N_BOOT):
    """Slope of log(median) against log(x), pooled over groups that each have their own level (seed
    001's coarsening: time against the coarsening factor on several graphs): every group is centred
    on its own means, the slope is sum(xc * yc) / sum(xc^2) over all of them, with a 95% interval from
    the draws of each median (:func:`centre_draws`).  ``per_group``: [(x values, [runs at each x])];
    (slope, lo, hi), NaN without at least 3 points over groups of 2 or more."""
    rng = _rng()
    num = den = 0.0
    num_d = np.zeros(n_boot)
    used = 0
    for xs, rs in per_group:
        if len(xs) < 2:
            continue
        xc = np.log(np.asarray(xs, float))
        xc = xc - xc.mean()
        y = np.log([np.median(np.asarray(r, float)) for r in rs])
        d = np.log(np.array([centre_draws(r, rng, n_boot) for r in rs]))
        num += float(xc @ (y - y.mean()))
        num_d = num_d + xc @ (d - d.mean(axis=0))
        den += float(xc @ xc)
        used += len(xs)
    if used < 3 or den == 0:
        return np.nan, np.nan, np.nan
    lo, hi = quantiles(num_d / den, conf)
    return num / den, lo, hi


def max_median_ci(groups, conf=CONF, n_boot=N_BOOT):
    """The largest of several groups' medians (each group one value per independent run) with a 95%
    interval that allows for picking the largest after the fact: the upper end is the largest of the
    groups' upper ends (whichever group is truly the largest, its own upper end lies above it with
    97.5%), the lower end the largest of the groups' lower ends at 2.5% / groups each (Bonferroni:
    every group's lower end lies below its truth with 97.5% together).  Taking the largest of the
    draws instead sets the lower end too high where groups tie (coverage near 50% with four equal
    groups; tests/test_rules.py).  (value, lo, hi, index of the largest); NaN without two values in
    every group."""
    groups = [np.asarray(g, float) for g in groups]
    if not groups or any(g[np.isfinite(g)].size == 0 for g in groups):
        return np.nan, np.nan, np.nan, None
    rng = _rng()
    meds = [float(np.median(g[np.isfinite(g)])) for g in groups]
    draws = [centre_draws(g, rng, n_boot) for g in groups]
    k, a = len(groups), 1 - conf
    worst = int(np.argmax(meds))
    if any(np.isnan(d).any() for d in draws):
        return meds[worst], np.nan, np.nan, worst
    lo = max(float(np.quantile(d, a / (2 * k))) for d in draws)
    hi = max(float(np.quantile(d, 1 - a / 2)) for d in draws)
    return meds[worst], lo, hi, worst


def overlap(a_lo, a_hi, b_lo, b_hi):
    return not (a_hi < b_lo or b_hi < a_lo)


def grid_neighbours(grid, timed):
    """Each size g of a paper's ``grid`` with the timed sizes that bound it: (g, g, g) where g was
    timed, (g, a, b) between its nearest timed neighbours a < g < b, (g, None, None) beyond every
    timed size.  The bracket of :func:`bracketed_mean_ci` and of rules.grid_places: a size between
    two timed ones lies between them, one beyond them is unknown (no interpolation, no model)."""
    ns = sorted(set(timed))
    for g in sorted(set(grid)):
        i = bisect.bisect_left(ns, g)
        if i < len(ns) and ns[i] == g:
            yield g, g, g
        elif 0 < i < len(ns):
            yield g, ns[i - 1], ns[i]
        else:
            yield g, None, None


def bracketed_mean_ci(families, conf=CONF, n_boot=N_BOOT):
    """Kemp's average over his graphs where only some of them were timed here: the mean over
    families (algorithms) of each family's mean over its ``grid`` (the sizes his average covers
    for it) of per-size ratios of medians, returned as a bracket, not a model.

    ``families``: {name: (grid, [(n, numerator samples, denominator samples), ...])}, the groups
    at every size both were timed (sizes off the grid count as neighbours).  A grid size that was
    timed takes its ratio; one between two timed sizes lies between their ratios; one
    beyond the timed sizes is unknown, [0, inf).  Returns (low, high, lo, hi, timed, between,
    beyond): the means of the lower and upper envelopes, the 2.5% quantile of the lower
    envelope's draws and the 97.5% of the upper's (so the interval covers the grid mean with at
    least 95% while the bracket holds), and how many grid sizes of all families were timed,
    bracketed, unknown.  With every grid size timed, low = high and the interval is the usual
    central one.  The bracket assumes a ratio between two timed sizes lies between theirs (the
    curve monotone between timed neighbours); an extremum between them (the out-of-core code's
    speed-up over FW peaks somewhere between 4096 and 12288) breaks that assumption there, and
    nothing here bounds by how much."""
    rng = _rng()
    lows, highs, lo_boots, hi_boots = [], [], [], []
    counts = [0, 0, 0]
    for grid, groups in families.values():
        groups = sorted((int(n), np.asarray(a, float), np.asarray(b, float)) for n, a, b in groups if len(a) and len(b))
        if not groups or not grid:
            continue
        pts = {n: np.median(a) / np.median(b) for n, a, b in groups}
        draws = {n: centre_draws(a, rng, n_boot) / centre_draws(b, rng, n_boot) for n, a, b in groups}
        lo_pts, hi_pts, lo_d, hi_d = [], [], [], []
        for g, a, b in grid_neighbours(grid, pts):
            if a is None:
                counts[2] += 1
                lo_pts.append(0.0), hi_pts.append(np.inf)
                lo_d.append(np.zeros(n_boot)), hi_d.append(np.full(n_boot, np.inf))
                continue
            counts[0 if a == g else 1] += 1          # timed (a = b = g), or between its timed neighbours
            lo_pts.append(min(pts[a], pts[b])), hi_pts.append(max(pts[a], pts[b]))
            lo_d.append(np.minimum(draws[a], draws[b])), hi_d.append(np.maximum(draws[a], draws[b]))
        lows.append(np.mean(lo_pts)), highs.append(np.mean(hi_pts))
        lo_boots.append(np.mean(lo_d, axis=0)), hi_boots.append(np.mean(hi_d, axis=0))
    if not lows:
        return (np.nan,) * 4 + (0, 0, 0)
    lo_dist, hi_dist = np.mean(lo_boots, axis=0), np.mean(hi_boots, axis=0)
    if np.isnan(lo_dist).any() or np.isnan(hi_dist).any():      # a group of a single run
        lo, hi = np.nan, np.nan
    else:
        lo = float(np.quantile(lo_dist, (1 - conf) / 2))
        hi = float(np.quantile(hi_dist, (1 + conf) / 2)) if np.isfinite(hi_dist).all() else np.inf
    return float(np.mean(lows)), float(np.mean(highs)), lo, hi, *counts
