"""The study's one estimator: every ratio, every slope and every interval of every study comes from here.

The unit of replication is the machine lease (one boot of the device machine: provenance ``boot_id``).
Processes on one lease share its host, its clocks and its neighbours, so they are not independent draws:
a lease holding several processes counts once, with the median of its processes (lease-clustered).

* :func:`samples` -- one value per process (the median of its repeats), keyed by (lease, process);
  :func:`samples_by` the same for every point of a table at once.
* :func:`ratio` -- the ratio of two codes' times.  **Paired** where both codes ran in the same processes:
  the ratio is formed inside each process first (whatever moves both codes of one process together, the
  host's speed, divides out), then one value per lease.  **Unpaired** where no process ran both: each
  side's lease values are drawn independently.  The :class:`Estimate` says which, and over how many leases.
* :func:`interval` -- one quantity (a time, a per-process ratio) over its leases.
* :func:`geometric_mean` -- the geometric mean of several points' estimates (a speed-up over the paper's
  sizes), its interval from the points' draws, each point independent of the others.
* :func:`slope` -- a log-log slope over points, its interval from the points' residual scatter about the
  line (t with k - 2 degrees of freedom, one fewer per extra group of a pooled fit), the residual
  variance never below the points' median measurement variance.

Every interval draws the uncertain median of k lease values from one model: log-normal leases, the
median's standard error sqrt(pi/2) * s / sqrt(k) on the log scale, scaled by Student's t with k - 1
degrees of freedom (stats.centre_draws).  Fewer than two leases give no interval (NaN): one lease says
nothing of how a second would differ.  A frame without a ``lease`` column counts each process as its own
lease; every loader of recorded runs sets it from the provenance.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.stats import t as student_t

from . import stats

INDEX = ("lease", "process")


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% interval, and what the interval rests on."""
    value: float
    lo: float = np.nan
    hi: float = np.nan
    leases: int = 0             # independent machine leases behind the interval
    processes: int = 0          # processes behind them
    paired: bool = False        # a ratio formed inside each process first
    draws: np.ndarray | None = field(default=None, compare=False, repr=False)   # what the interval was read off

    def __iter__(self):         # (value, lo, hi): what the rules take
        return iter((self.value, self.lo, self.hi))

    def __getitem__(self, i):
        return (self.value, self.lo, self.hi)[i]

    def __len__(self):
        return 3

    def scaled(self, factor):
        """The same estimate times a constant (a ratio scaled to the quantity a claim names)."""
        return Estimate(self.value * factor, self.lo * factor, self.hi * factor, self.leases, self.processes, self.paired,
                        None if self.draws is None else self.draws * factor)

    @property
    def has_interval(self):
        return self.lo == self.lo and self.hi == self.hi

    def basis(self):
        """'paired in 5 processes on 5 leases' / 'unpaired, 3 leases' / 'one lease: no interval'."""
        where = f"{self.leases} lease{'s' if self.leases != 1 else ''}"
        how = f"paired inside each of {self.processes} processes on {where}" if self.paired else f"over {where}"
        return how + ("" if self.leases >= 2 else ": no interval over independent leases")


NONE = Estimate(np.nan)


def exact(value, n_boot=stats.N_BOOT):
    """A computed value (arithmetic on a schedule, not a timing): no uncertainty, its draws all the value."""
    return Estimate(float(value), float(value), float(value), draws=np.full(n_boot, float(value)))


def samples(d, col):
    """One value per process: the median of ``col`` over each process's rows of ``d``, keyed by (lease,
    process)."""
    d = _keyed(d, col)
    if d.empty:
        return pd.Series(dtype=float, index=pd.MultiIndex.from_tuples([], names=list(INDEX)))
    return d.groupby(list(INDEX), sort=True)[col].median().astype(float)


def samples_by(d, col, by):
    """:func:`samples` of each point of ``d`` at once: {the point's value of column ``by``: its values per
    process}, for a table of many points (one grouping, not one per point)."""
    d = _keyed(d, col)
    if d.empty:
        return {}
    per = d.groupby([by, *INDEX], sort=True)[col].median().astype(float)
    return {k: s.droplevel(0) for k, s in per.groupby(level=0, sort=True)}


def _keyed(d, col):
    d = d.dropna(subset=[col])
    if d.empty:
        return d
    return d.assign(lease=d["lease"] if "lease" in d else d["process"] if "process" in d else np.arange(len(d)),
                    process=d["process"] if "process" in d else np.arange(len(d)))


def as_samples(x):
    """A Series keyed by (lease, process) as it is; a Series keyed otherwise: each key a process on its own lease;
    an array: each value its own process on its own lease, paired with nothing."""
    if isinstance(x, pd.Series) and isinstance(x.index, pd.MultiIndex) and list(x.index.names[-2:]) == list(INDEX):
        return x.astype(float)
    v = np.asarray(x, float)
    if isinstance(x, pd.Series):
        keys = [str(i) for i in x.index]
    else:               # values without names: processes of their own, never paired with another array's
        keys = [f"{next(_UNNAMED)}" for _ in range(v.size)]
    return pd.Series(v, index=pd.MultiIndex.from_arrays([keys, keys], names=list(INDEX)))


_UNNAMED = itertools.count()


def lease_values(s):
    """The median over each lease's processes: the values an interval is over."""
    s = as_samples(s)
    s = s[np.isfinite(s.to_numpy(float))]
    return s.groupby(level="lease").median().to_numpy(float) if len(s) else np.array([])


def interval(s, n_boot=stats.N_BOOT, rng=None):
    """One quantity over its leases: the median of the lease values with its 95% interval."""
    s = as_samples(s)
    v = lease_values(s)
    if v.size == 0:
        return NONE
    draws = stats.centre_draws(v, rng if rng is not None else stats.rng(), n_boot)
    lo, hi = stats.quantiles(draws, stats.CONF)
    return Estimate(float(np.median(v)), lo, hi, int(v.size), int(s.size), False, draws)


@dataclass(frozen=True)
class Draws:
    """A ratio's point value and draws of it (for the quantities built of several ratios)."""
    value: float
    draws: np.ndarray
    leases: int
    processes: int
    paired: bool


def ratio_draws(num, den, rng=None, n_boot=stats.N_BOOT):
    """:func:`ratio`'s point value and ``n_boot`` draws of it."""
    rng = rng if rng is not None else stats.rng()
    a, b = as_samples(num), as_samples(den)
    a, b = a[np.isfinite(a.to_numpy(float))], b[np.isfinite(b.to_numpy(float))]
    if a.empty or b.empty:
        return Draws(np.nan, np.full(n_boot, np.nan), 0, 0, False)
    both = a.index.intersection(b.index)
    if len(both):
        r = (a[both] / b[both])
        v = r.groupby(level="lease").median().to_numpy(float)
        return Draws(float(np.median(v)), stats.centre_draws(v, rng, n_boot), int(v.size), int(len(both)), True)
    va, vb = lease_values(a), lease_values(b)
    draws = stats.centre_draws(va, rng, n_boot) / stats.centre_draws(vb, rng, n_boot)
    return Draws(float(np.median(va) / np.median(vb)), draws, int(min(va.size, vb.size)),
                 int(min(a.size, b.size)), False)


def ratio(num, den, n_boot=stats.N_BOOT):
    """``num`` / ``den`` (two codes' per-process values, :func:`samples`) with its 95% interval over leases:
    paired where both ran in the same processes, else each side drawn independently (module docstring)."""
    d = ratio_draws(num, den, n_boot=n_boot)
    lo, hi = stats.quantiles(d.draws, stats.CONF)
    return Estimate(d.value, lo, hi, d.leases, d.processes, d.paired, d.draws)


class Point(tuple):
    """A rule's point ``(x, value, lo, hi[, claimed])`` that keeps the :class:`Estimate` behind it (``.est``),
    so that a mean over points draws from the points' own draws."""
    def __new__(cls, x, est, *claimed):
        self = super().__new__(cls, (x, *est, *claimed))
        self.est = est
        return self


def geometric_mean(ests):
    """The geometric mean of several estimates (each point's value and draws: a speed-up at several sizes or
    graphs), with its 95% interval: the geometric mean taken draw by draw.  The points count as independent:
    each point's draws are shuffled on their own first, because every point's draws come from the one seeded
    generator and would otherwise move together (a mean of k equal-width points would keep their width
    instead of narrowing by sqrt(k)).  No interval where a point has none (fewer than two leases)."""
    ests = [e for e in ests if e.value == e.value and e.value > 0]
    if not ests:
        return NONE
    value = float(np.exp(np.mean(np.log([e.value for e in ests]))))
    info = dict(leases=int(min(e.leases for e in ests)), processes=int(min(e.processes for e in ests)),
                paired=all(e.paired for e in ests))
    if any(e.draws is None for e in ests):
        raise ValueError("a point without its draws: build it with estimate.ratio / estimate.interval")
    if any(np.isnan(e.draws).any() for e in ests):
        return Estimate(value, **info)
    rng = stats.rng()
    logs = np.mean([np.log(rng.permutation(e.draws)) for e in ests], axis=0)
    lo, hi = stats.quantiles(np.exp(logs), stats.CONF)
    return Estimate(value, lo, hi, draws=np.exp(logs), **info)


def slope(x, points, groups=None, n_boot=stats.N_BOOT):
    """The least-squares slope of log(value) on log(x) over points, each point a ratio ``(num, den)`` of
    per-process values or one quantity's per-process values.  ``groups``: a label per point for a pooled
    fit (each group its own level: centred on its own means).  The 95% interval is t with k - 1 - g
    degrees of freedom (k points, g groups) on the residual scatter about the line, the residual variance
    floored at the points' median measurement variance (from the central 95% of their log draws): the
    scatter between points, not only each point's own uncertainty, decides the width.  NaN with fewer than
    k - 1 - g = 1 degrees of freedom."""
    x = np.log(np.asarray(x, float))
    rng = stats.rng()
    ys, var, leases, paired = [], [], [], []
    for p in points:
        d = ratio_draws(*p, rng=rng, n_boot=n_boot) if isinstance(p, tuple) else _single_draws(p, rng, n_boot)
        ys.append(np.log(d.value) if d.value > 0 else np.nan)
        var.append(_log_variance(d.draws))
        leases.append(d.leases)
        paired.append(d.paired)
    y = np.asarray(ys, float)
    g = np.asarray(groups if groups is not None else np.zeros(len(y)))
    ok = np.isfinite(y) & np.isfinite(x)
    x, y, g, var = x[ok], y[ok], g[ok], np.asarray(var, float)[ok]
    xc, yc = x.copy(), y.copy()
    for lab in set(g.tolist()):
        m = g == lab
        xc[m], yc[m] = x[m] - x[m].mean(), y[m] - y[m].mean()
    k, ng = len(y), len(set(g.tolist()))
    sxx = float(xc @ xc)
    info = dict(leases=int(min(leases)) if leases else 0, processes=0, paired=bool(paired) and all(paired))
    if k == 0 or sxx == 0:
        return Estimate(np.nan, **info)
    b = float(xc @ yc / sxx)
    df = k - 1 - ng
    if df < 1:
        return Estimate(b, **info)
    resid = yc - b * xc
    s2 = float(resid @ resid / df)
    meas = float(np.nanmedian(var)) if np.isfinite(var).any() else np.nan
    if not np.isfinite(meas):           # no point has an interval of its own: nothing to floor with, and
        return Estimate(b, **info)      # leases < 2 somewhere means no interval over independent leases
    half = student_t.ppf((1 + stats.CONF) / 2, df) * np.sqrt(max(s2, meas) / sxx)
    return Estimate(b, b - half, b + half, **info)


def _log_variance(draws):
    """A point's measurement variance on the log scale, from the central 95% of its draws (their half-width
    over 1.96, squared): the draws of a median over two leases have t(1) tails, whose raw variance says
    nothing.  NaN without draws."""
    d = draws[np.isfinite(draws) & (draws > 0)]
    if d.size < 2:
        return np.nan
    lo, hi = np.quantile(np.log(d), [(1 - stats.CONF) / 2, (1 + stats.CONF) / 2])
    return float(((hi - lo) / (2 * 1.959964)) ** 2)


def _single_draws(s, rng, n_boot):
    v = lease_values(s)
    if v.size == 0:
        return Draws(np.nan, np.full(n_boot, np.nan), 0, 0, False)
    return Draws(float(np.median(v)), stats.centre_draws(v, rng, n_boot), int(v.size), int(as_samples(s).size), False)


def largest(groups, n_boot=stats.N_BOOT):
    """The largest of several quantities (each its per-process values, :func:`samples`) with a 95% interval
    that allows for picking the largest after the fact: the upper end is the largest of the groups' upper
    ends (whichever group is truly the largest, its own upper end lies above it with 97.5%), the lower end
    the largest of the groups' lower ends at 2.5% / groups each (Bonferroni: every group's lower end lies
    below its truth with 97.5% together).  Taking the largest of the draws instead sets the lower end too
    high where groups tie (coverage near 50% with four equal groups).  (Estimate, index of the largest);
    no interval without two leases in every group."""
    vals = [lease_values(g) for g in groups]
    if not vals or any(v.size == 0 for v in vals):
        return NONE, None
    rng, conf = stats.rng(), stats.CONF
    meds = [float(np.median(v)) for v in vals]
    draws = [stats.centre_draws(v, rng, n_boot) for v in vals]
    k, a = len(vals), 1 - conf
    worst = int(np.argmax(meds))
    info = dict(leases=int(min(v.size for v in vals)), processes=int(min(as_samples(g).size for g in groups)))
    if any(np.isnan(d).any() for d in draws):
        return Estimate(meds[worst], **info), worst
    lo = max(float(np.quantile(d, a / (2 * k))) for d in draws)
    hi = max(float(np.quantile(d, 1 - a / 2)) for d in draws)
    return Estimate(meds[worst], lo, hi, **info), worst


def bracketed_mean(families, n_boot=stats.N_BOOT):
    """Kemp's average over his graphs where only some of them were timed here: the mean over families
    (algorithms) of each family's mean over its ``grid`` (the sizes his average covers for it) of per-size
    ratios (:func:`ratio_draws`), returned as a bracket, not a model.

    ``families``: {name: (grid, [(n, numerator samples, denominator samples), ...])}, the groups at every
    size both were timed (sizes off the grid count as neighbours).  A grid size that was timed takes its
    ratio; one between two timed sizes lies between their ratios; one beyond the timed sizes is unknown,
    [0, inf).  Returns (low, high, lo, hi, timed, between, beyond, leases): the means of the lower and upper
    envelopes, the 2.5% quantile of the lower envelope's draws and the 97.5% of the upper's (so the
    interval covers the grid mean with at least 95% while the bracket holds), how many grid sizes of all
    families were timed, bracketed, unknown, and the fewest leases behind any ratio.  With every grid size
    timed, low = high and the interval is the usual central one.  The bracket assumes a ratio between two
    timed sizes lies between theirs (the curve monotone between timed neighbours); an extremum between
    them breaks that assumption there, and nothing here bounds by how much."""
    rng = stats.rng()
    lows, highs, lo_boots, hi_boots, leases = [], [], [], [], []
    counts = [0, 0, 0]
    for grid, groups in families.values():
        groups = sorted((int(n), a, b) for n, a, b in groups if len(a) and len(b))
        if not groups or not grid:
            continue
        rd = {n: ratio_draws(a, b, rng, n_boot) for n, a, b in groups}
        pts = {n: d.value for n, d in rd.items()}
        draws = {n: d.draws for n, d in rd.items()}
        leases += [d.leases for d in rd.values()]
        lo_pts, hi_pts, lo_d, hi_d = [], [], [], []
        for g, a, b in stats.grid_neighbours(grid, pts):
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
        return (np.nan,) * 4 + (0, 0, 0, 0)
    lo_dist, hi_dist = np.mean(lo_boots, axis=0), np.mean(hi_boots, axis=0)
    if np.isnan(lo_dist).any() or np.isnan(hi_dist).any():      # a ratio on one lease
        lo, hi = np.nan, np.nan
    else:
        lo = float(np.quantile(lo_dist, (1 - stats.CONF) / 2))
        hi = float(np.quantile(hi_dist, (1 + stats.CONF) / 2)) if np.isfinite(hi_dist).all() else np.inf
    return float(np.mean(lows)), float(np.mean(highs)), lo, hi, *counts, int(min(leases))
