"""Where one code overtakes another, and how a speed-up grows with n: the crossover size with its
censored 95% interval (the log time ratio fitted non-increasing in n), and the log-log slope of a
growth claim with its per-size points."""
from __future__ import annotations

import numpy as np
from scipy.optimize import isotonic_regression

from . import estimate, stats
from . import timings as M
from .speedups import graph_of, time_cols


def trend(df, c, sizes=None):
    """A growth claim: slope of log speed-up against log n with its 95% interval (estimate.slope: the
    scatter between sizes included) over every size both codes were timed at within the paper's range
    (``sizes`` restricts further), plus the per-size points."""
    cols, graph = time_cols(c)(c.get("time", "end_to_end")), graph_of(c)
    if c.get("paper_n") and sizes is None:
        lo, hi = min(c["paper_n"]), max(c["paper_n"])
        sizes = [n for n in M.sizes_of(df, c["algorithm"], c.get("variant"), graph=graph) if lo <= n <= hi]
    ps = M.pairs(df, c["algorithm"], c["baseline"], c.get("variant"), c.get("baseline_variant"), cols[0], cols[1], sizes,
                 graph=graph)
    sp = M.speedup_table(ps)
    return sp, estimate.slope(sp["n"], [(b, a) for _, a, b, _, _ in ps])


def crossover_of(df, a, b, variant_a=None, variant_b=None, time_col="wall_ms", n_boot=400, memory_a=None, *, graph):
    """The n at which ``a`` becomes faster than ``b``: the zero of the medians' log time ratio fitted
    non-increasing in n (log-log interpolation), 0 if ``a`` is faster from the smallest size, None if
    not even at the largest; with a 95% interval from draws of each size's ratio (estimate.ratio_draws: paired
    where both ran in one process, over leases), and the range of sizes where both were timed on ``graph``."""
    ns = sorted(set(M.sizes_of(df, a, variant_a, graph=graph)) & set(M.sizes_of(df, b, variant_b, graph=graph)))
    if not ns:
        return None, None, None
    if memory_a is not None:
        ns = sorted(set(df.loc[(df["algorithm"] == a) & df["params"].str.contains(f'"memory": "{memory_a}"', regex=False), "n"])
                    & set(M.sizes_of(df, b, variant_b, graph=graph)))
    ta = [M.times(df, a, variant_a, n, time_col, graph=graph, memory=memory_a)[0] for n in ns]
    tb = [M.times(df, b, variant_b, n, time_col, graph=graph)[0] for n in ns]
    keep = [i for i in range(len(ns)) if ta[i].size and tb[i].size]
    ns = [ns[i] for i in keep]
    ta, tb = [ta[i] for i in keep], [tb[i] for i in keep]
    if not ns:
        return None, None, None

    def cross(ratios):
        # A crossover claim's premise is that a's advantage grows with n: the log time ratio is
        # fitted non-increasing in n (pool adjacent violators) before its zero is read off, so that
        # medians that cross back and forth by noise at single sizes, or a tie at the smallest
        # size, do not decide where a becomes faster.
        r = isotonic_regression(np.log(np.asarray(ratios, float)), increasing=False).x
        if r[-1] >= 0:
            return None
        if r[0] < 0:
            return 0.0
        i = int(np.argmax(r < 0))
        x0, x1 = np.log(ns[i - 1]), np.log(ns[i])
        return float(np.exp(x0 + (x1 - x0) * r[i - 1] / (r[i - 1] - r[i])))

    rng = stats.rng()
    rd = [estimate.ratio_draws(x, y, rng, n_boot) for x, y in zip(ta, tb)]     # a's time / b's, per size
    point = cross([d.value for d in rd])
    dr = np.array([d.draws for d in rd])                                       # sizes x draws
    if not np.isfinite(dr).all():         # a size on one lease: no draws, so no interval for the crossing
        return point, (np.nan, np.nan), (ns[0], ns[-1])
    boots = [cross(dr[:, i]) for i in range(n_boot)]
    return point, censored_interval(boots, ns[0], ns[-1]) if point is not None else None, (ns[0], ns[-1])


def censored_interval(draws, n_lo, n_hi):
    """The 95% interval of bootstrap crossovers, censored draws kept: a draw where ``a`` is faster
    from the smallest size (0) lies at or below ``n_lo``, one where it never crosses (None) beyond
    ``n_hi``; dropping either would narrow the interval towards the point (Hochberg's break-even
    had 35 of 400 draws at 0).  An end that falls among censored draws is 0 (at or below ``n_lo``)
    or inf (beyond ``n_hi``), never a number the data do not hold."""
    if not draws:
        return None
    beyond = n_hi * 1e6            # any value above n_hi sorts the never-crossing draws last
    x = np.array([beyond if d is None else d for d in draws], dtype=float)
    lo, hi = (float(q) for q in np.quantile(x, [0.025, 0.975]))
    return (0.0 if lo < n_lo else lo), (np.inf if hi > n_hi else hi)
