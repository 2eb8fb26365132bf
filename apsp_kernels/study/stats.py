"""Statistics a reader can trust: medians with nonparametric 95% intervals, bootstrap
intervals for ratios of medians (speed-ups), and a bootstrap interval on a log-log slope.

All intervals are over the pooled repeats of independent runs (fresh processes).  With
fewer than 6 samples no order-statistic interval reaches 95%: the interval is then the
sample range and ``coverage`` says what it covers."""
from __future__ import annotations

import numpy as np
from scipy.stats import binom

CONF = 0.95
N_BOOT = 4000
_RNG_SEED = 20261122        # fixed: the same data give the same intervals (byte-identical reports)


def median_ci(x, conf=CONF):
    """(median, lo, hi, coverage): the distribution-free interval for the median from order
    statistics (binomial), the narrowest symmetric one with coverage >= ``conf``; the sample
    range (with its smaller coverage) when n is too small for that."""
    x = np.sort(np.asarray(x, float)[np.isfinite(x)])
    n = x.size
    if n == 0:
        return np.nan, np.nan, np.nan, 0.0
    med = float(np.median(x))
    for j in range(n // 2, -1, -1):                        # widen from the centre outwards
        cov = binom.cdf(n - j - 1, n, 0.5) - binom.cdf(j - 1, n, 0.5)   # P(x_(j) <= m <= x_(n-1-j))
        if cov >= conf:
            return med, float(x[j]), float(x[n - 1 - j]), float(cov)
    return med, float(x[0]), float(x[-1]), float(1 - 2 * 0.5 ** n) if n > 1 else 0.0


def _rng():
    return np.random.default_rng(_RNG_SEED)


def ratio_ci(numerator, denominator, conf=CONF, n_boot=N_BOOT):
    """(ratio of medians, lo, hi): a speed-up base/algorithm with its percentile bootstrap
    interval, resampling each side's repeats independently."""
    a = np.asarray(numerator, float)
    b = np.asarray(denominator, float)
    a, b = a[np.isfinite(a)], b[np.isfinite(b)]
    if a.size == 0 or b.size == 0:
        return np.nan, np.nan, np.nan
    point = float(np.median(a) / np.median(b))
    rng = _rng()
    ra = np.median(rng.choice(a, (n_boot, a.size)), axis=1)
    rb = np.median(rng.choice(b, (n_boot, b.size)), axis=1)
    lo, hi = np.quantile(ra / rb, [(1 - conf) / 2, (1 + conf) / 2])
    return point, float(lo), float(hi)


def geomean_ci(groups, conf=CONF, n_boot=N_BOOT):
    """Geometric mean over sizes of per-size ratios, with a bootstrap interval: each group is
    (numerator samples, denominator samples) at one size, resampled within the size."""
    return _mean_ci(groups, conf, n_boot, geometric=True)


def mean_ci(groups, conf=CONF, n_boot=N_BOOT):
    """Arithmetic mean over groups of per-group ratios (how Kemp averaged), bootstrap interval."""
    return _mean_ci(groups, conf, n_boot, geometric=False)


def _mean_ci(groups, conf, n_boot, geometric):
    groups = [(np.asarray(a, float), np.asarray(b, float)) for a, b in groups if len(a) and len(b)]
    if not groups:
        return np.nan, np.nan, np.nan
    rng = _rng()
    pts, boots = [], []
    for a, b in groups:
        pts.append(np.median(a) / np.median(b))
        boots.append(np.median(rng.choice(a, (n_boot, a.size)), axis=1) / np.median(rng.choice(b, (n_boot, b.size)), axis=1))
    pts, boots = np.array(pts), np.array(boots)
    if geometric:
        point, dist = np.exp(np.mean(np.log(pts))), np.exp(np.mean(np.log(boots), axis=0))
    else:
        point, dist = np.mean(pts), np.mean(boots, axis=0)
    lo, hi = np.quantile(dist, [(1 - conf) / 2, (1 + conf) / 2])
    return float(point), float(lo), float(hi)


def loglog_slope_ci(sizes, groups, conf=CONF, n_boot=N_BOOT):
    """Slope of log(ratio) against log(n) (least squares) with a bootstrap interval that
    resamples the repeats at each size: (slope, lo, hi).  Needs at least 3 sizes."""
    sizes = np.asarray(sizes, float)
    if sizes.size < 3:
        return np.nan, np.nan, np.nan
    rng = _rng()
    x = np.log(sizes)
    pts, boots = [], []
    for a, b in groups:
        a, b = np.asarray(a, float), np.asarray(b, float)
        pts.append(np.log(np.median(a) / np.median(b)))
        boots.append(np.log(np.median(rng.choice(a, (n_boot, a.size)), axis=1)
                            / np.median(rng.choice(b, (n_boot, b.size)), axis=1)))
    xc = x - x.mean()
    slope = float(np.dot(xc, np.array(pts)) / np.dot(xc, xc))
    dist = xc @ np.array(boots) / np.dot(xc, xc)
    lo, hi = np.quantile(dist, [(1 - conf) / 2, (1 + conf) / 2])
    return slope, float(lo), float(hi)


def overlap(a_lo, a_hi, b_lo, b_hi):
    return not (a_hi < b_lo or b_hi < a_lo)


def nested_mean_ci(families, conf=CONF, n_boot=N_BOOT):
    """Mean over families (algorithms) of each family's mean over its groups (sizes) of
    ratios of medians -- Kemp's 'average over all algorithms' -- with a bootstrap interval.
    ``families``: {name: [(numerator samples, denominator samples), ...]}."""
    rng = _rng()
    pts, boots = [], []
    for groups in families.values():
        groups = [(np.asarray(a, float), np.asarray(b, float)) for a, b in groups if len(a) and len(b)]
        if not groups:
            continue
        pts.append(np.mean([np.median(a) / np.median(b) for a, b in groups]))
        boots.append(np.mean([np.median(rng.choice(a, (n_boot, a.size)), axis=1)
                              / np.median(rng.choice(b, (n_boot, b.size)), axis=1) for a, b in groups], axis=0))
    if not pts:
        return np.nan, np.nan, np.nan
    dist = np.mean(boots, axis=0)
    lo, hi = np.quantile(dist, [(1 - conf) / 2, (1 + conf) / 2])
    return float(np.mean(pts)), float(lo), float(hi)
