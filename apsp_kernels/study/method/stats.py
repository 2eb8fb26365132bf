"""The draws beneath the study's one estimator (:mod:`estimate`, which every ratio, slope and interval
goes through): the uncertain median of one group of positive values drawn from a t-scaled log-normal
model (:func:`centre_draws`), the central interval of draws, and the bracket of a paper's grid of sizes
by the sizes timed here.

Why a model: a batch has 3-5 independent leases, and with fewer than 6 values no distribution-free
interval reaches 95% (three values cover the median with 75%), while a bootstrap over three values gives
little more than their range -- how the first two reference runs got intervals narrower than the ~20%
the timings moved between machine leases.  So the median of k values is drawn as log(median) +
t_(k-1) * sqrt(pi/2) * s / sqrt(k), s the standard deviation of their logs.
"""
from __future__ import annotations

import bisect

import numpy as np

CONF = 0.95
N_BOOT = 4000
RNG_SEED = 20261122        # fixed: the same data give the same intervals (byte-identical reports)
_MEDIAN_SE = np.sqrt(np.pi / 2)   # standard error of a median / that of a mean (normal samples)


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


def rng():
    """The study's random generator, seeded: the same data give the same intervals (byte-identical reports)."""
    return np.random.default_rng(RNG_SEED)


def quantiles(dist, conf):
    """The central ``conf`` interval of draws; NaN where any draw is (a group of one run)."""
    if np.isnan(dist).any():
        return np.nan, np.nan
    lo, hi = np.quantile(dist, [(1 - conf) / 2, (1 + conf) / 2])
    return float(lo), float(hi)


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


