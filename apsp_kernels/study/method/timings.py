"""Per-size statistics of timed runs, for every study: the runs that count, medians with their 95%
intervals, the times of one code at one size, paired speed-ups over a baseline, the best CPU code at a
size, and how far independent processes disagree.  A run's records are rows of harness.COLUMNS with a
``process`` column naming the independent process.  Every function that selects runs takes the graph
they were timed on, which the study names: the method has no graph of its own."""
from __future__ import annotations

import numpy as np
import pandas as pd

from . import estimate, stats
from .text import fmt


def good(df):
    """Runs that count: finished, and verified where they could be (sampled runs cannot)."""
    ok = df["status"] == "ok"
    v = df["verified"]
    return df[ok & (v.isna() | (v.astype(str).str.lower() == "true"))]


def summary(df, time_col="wall_ms", by=("algorithm", "variant", "graph", "params", "estimate", "n")):
    """Median with its 95% interval per group, over every verified run of every process; a
    group with a failed run is ``ok=False`` and gets no time."""
    by = [b for b in by if b in df]
    rows = []
    for key, grp in df.groupby(by, sort=True, dropna=False):
        g = good(grp)
        ok = len(g) == len(grp) and len(g) > 0
        e = estimate.interval(process_medians(g, time_col)) if (ok and time_col in g) else estimate.NONE
        med, lo, hi, cov = e.value, e.lo, e.hi, stats.CONF if e.has_interval else 0.0
        row = dict(zip(by, key if isinstance(key, tuple) else (key,)))
        row.update(ok=ok, runs=len(grp), failed=len(grp) - len(g), processes=grp["process"].nunique() if "process" in grp else 1,
                   leases=e.leases, median=med, ci_lo=lo, ci_hi=hi, coverage=cov)
        if not ok:
            errs = grp.get("error", pd.Series(dtype=str)).dropna()
            row["error"] = errs.iloc[0] if len(errs) else "failed"
        rows.append(row)
    return pd.DataFrame(rows)


def times(df, algorithm, variant=None, n=None, time_col="wall_ms", *, graph, memory=None, prefer="measured"):
    """Verified times of one (algorithm, variant) at n on ``graph``: the full runs where there are any
    (``prefer='measured'``), else the sampled estimates; returns (one value per process keyed by (lease,
    process): estimate.samples, estimate kind)."""
    empty = estimate.samples(df.iloc[0:0].assign(**{time_col: []}) if time_col not in df else df.iloc[0:0], time_col)
    d = df[(df["algorithm"] == algorithm) & (df["graph"] == graph)]
    if variant is not None:
        d = d[d["variant"].astype(str) == str(variant)]
    if n is not None:
        d = d[d["n"] == n]
    mem = d["params"].str.contains('"memory"', regex=False)
    d = d[d["params"].str.contains(f'"memory": "{memory}"', regex=False)] if memory is not None else d[~mem]
    if (d.loc[~d.index.isin(good(d).index), "estimate"] == "measured").any():
        return empty, "failed"          # a full solve failed here: no time at this size
    g = good(d)
    for kind in ((prefer, "sampled" if prefer == "measured" else "measured")):
        sel = g[g["estimate"] == kind]
        if len(sel) and time_col in sel:
            sel = sel.dropna(subset=[time_col])
            if len(sel):
                return estimate.samples(sel, time_col), kind
    return empty, None


def per_process(d, time_col="wall_ms"):
    """One number per independent process (the median of its repeats).  Repeats inside one process are not
    independent draws on this machine -- the processes' medians lie further apart than their repeats do
    (see process_spread) -- and processes on one lease are not either (estimate.py)."""
    return process_medians(d, time_col).to_numpy(float)


def process_medians(d, time_col="wall_ms"):
    """:func:`per_process` keyed by (lease, process) (estimate.samples)."""
    return estimate.samples(d, time_col)


def sizes_of(df, algorithm, variant=None, *, graph):
    d = df[(df["algorithm"] == algorithm) & (df["graph"] == graph)]
    if variant is not None:
        d = d[d["variant"].astype(str) == str(variant)]
    return sorted(int(n) for n in good(d)["n"].unique())


def pairs(df, algorithm, baseline, variant=None, baseline_variant=None, time_col="wall_ms",
          base_time_col="wall_ms", sizes=None, *, graph, **kw):
    """Per n where both were timed on ``graph`` (``sizes`` restricts): (n, algorithm's times, baseline's
    times, how the algorithm was timed, how the baseline was)."""
    ns = sorted(set(sizes_of(df, algorithm, variant, graph=graph))
                & set(sizes_of(df, baseline, baseline_variant, graph=graph)))
    if sizes is not None:
        ns = [n for n in ns if n in set(sizes)]
    out = []
    for n in ns:
        a, ka = times(df, algorithm, variant, n, time_col, graph=graph, **kw)
        b, kb = times(df, baseline, baseline_variant, n, base_time_col, graph=graph, **kw)
        if a.size and b.size:
            out.append((n, a, b, ka, kb))
    return out


def speedup_table(ps, invert=False):
    """Per n of :func:`pairs`: speed-up = baseline median / algorithm median (``invert``: the
    reverse, for a slow-down) with its 95% interval over leases (estimate.ratio: paired where both ran in
    one process), how each side was timed, and how many leases it rests on."""
    rows, ests = [], {}
    for n, a, b, ka, kb in ps:
        e = estimate.ratio(a, b) if invert else estimate.ratio(b, a)
        ests[int(n)] = e
        rows.append(dict(n=n, speedup=e.value, ci_lo=e.lo, ci_hi=e.hi, algorithm_timed=ka, baseline_timed=kb,
                         samples=min(a.size, b.size), leases=e.leases, paired=e.paired))
    t = pd.DataFrame(rows, columns=["n", "speedup", "ci_lo", "ci_hi", "algorithm_timed", "baseline_timed", "samples",
                                    "leases", "paired"])
    t.attrs["estimates"] = ests         # per n, with the draws a mean over sizes is read off (speedups.geo_interval)
    return t


def speedups(df, algorithm, baseline, variant=None, baseline_variant=None, time_col="wall_ms",
             base_time_col="wall_ms", sizes=None, invert=False, **kw):
    """Per n: the speed-up of ``algorithm`` over ``baseline`` (see :func:`speedup_table`); what
    it compares rides along in ``attrs`` (the figures colour it by algorithm)."""
    t = speedup_table(pairs(df, algorithm, baseline, variant, baseline_variant, time_col, base_time_col,
                            sizes, **kw), invert)
    t.attrs.update(algorithm=algorithm, variant=variant, baseline=baseline, baseline_variant=baseline_variant)
    return t


def speedups_of(df, code, baseline, **kw):
    """:func:`speedups` of one code over another, each a codes.Code (algorithm, variant; a variant of
    None: every variant)."""
    return speedups(df, code.algorithm, baseline.algorithm, code.variant, baseline.variant, **kw)


def best_cpu_times(df, n, candidates=None, *, graph):
    """The fastest CPU code we have at n on ``graph`` (by median, among the registry's best_cpu codes), and its times."""
    from ...algorithms import registry
    best = None
    for c in candidates or registry.best_cpu_candidates():
        t, kind = times(df, c, None, n, graph=graph)
        if t.size and (best is None or np.median(t) < np.median(best[1])):
            best = (c, t, kind)
    return best


def best_cpu_speedups(df, algorithm, variant=None, time_col="wall_ms", sizes=None, *, graph):
    rows, ests = [], {}
    for n in sizes_of(df, algorithm, variant, graph=graph):
        if sizes is not None and n not in set(sizes):
            continue
        a, _ = times(df, algorithm, variant, n, time_col, graph=graph)
        b = best_cpu_times(df, n, graph=graph)
        if a.size and b:
            e = estimate.ratio(b[1], a)
            ests[int(n)] = e
            rows.append(dict(n=n, speedup=e.value, ci_lo=e.lo, ci_hi=e.hi, best_cpu=b[0], baseline_timed=b[2],
                             leases=e.leases, paired=e.paired))
    t = pd.DataFrame(rows, columns=["n", "speedup", "ci_lo", "ci_hi", "best_cpu", "baseline_timed", "leases", "paired"])
    t.attrs.update(algorithm=algorithm, variant=variant, baseline=None, baseline_variant=None, estimates=ests)
    return t


def process_disagreements(df, time_col="wall_ms"):
    """Groups whose independent processes disagree: each process timed the group at least twice,
    two processes' ranges do not overlap, and their medians differ by more than 10%.  (With one
    repeat a process has no range of its own; :func:`process_spread` summarises those.)"""
    rows = []
    g = good(df)
    if "process" not in g or g["process"].nunique() < 2:
        return pd.DataFrame()
    for key, grp in g.groupby(["algorithm", "variant", "graph", "params", "estimate", "n"]):
        per = grp.groupby("process")[time_col].agg(["min", "max", "median", "size"])
        if len(per) < 2 or per["size"].min() < 2:
            continue
        lo_max, hi_min = per["min"].max(), per["max"].min()
        spread = per["median"].max() / per["median"].min()
        if lo_max > hi_min and spread > 1.10:
            rows.append(dict(zip(["algorithm", "variant", "graph", "params", "estimate", "n"], key),
                             process_medians_ms="; ".join(fmt(m, 4) for m in per["median"]),
                             max_over_min=spread))
    return pd.DataFrame(rows)


def process_spread(df, time_col="wall_ms"):
    """Per device: the median and largest ratio between the slowest and fastest process's median
    of a timed group -- how much the machine moved between independent runs."""
    g = good(df)
    if "process" not in g or g["process"].nunique() < 2:
        return pd.DataFrame()
    r = (g.groupby(["device", "algorithm", "variant", "graph", "params", "estimate", "n", "process"])[time_col].median()
         .groupby(level=[0, 1, 2, 3, 4, 5, 6]).agg(lambda x: x.max() / x.min()))
    d = r.groupby(level=0).describe(percentiles=[0.5, 0.9])[["count", "50%", "90%", "max"]]
    d.columns = ["timed_groups", "spread_median", "spread_p90", "spread_max"]
    return d.reset_index()


def sampled_validation(df):
    """Where a CPU code ran both in full and sampled at one size on one graph: the two medians,
    their ratio, whether the sampled median lies inside the full runs' spread (min-max of every
    process), and the ratio paired inside each process that ran both (the machine moves between
    processes: a pair inside one process does not carry that move).  Grouped by graph as well: the
    density study times the same codes and sizes on denser graphs, which are not the same job."""
    rows = []
    g = good(df)
    g = g[g["device"] == "cpu"]
    for (a, v, graph, n), grp in g.groupby(["algorithm", "variant", "graph", "n"]):
        full = grp.loc[grp["estimate"] == "measured", "wall_ms"].to_numpy(float)
        samp = grp.loc[grp["estimate"] == "sampled", "wall_ms"].to_numpy(float)
        if not (full.size and samp.size):
            continue
        paired = []
        if "process" in grp:
            for _, pg in grp.groupby("process"):
                f = pg.loc[pg["estimate"] == "measured", "wall_ms"].to_numpy(float)
                s = pg.loc[pg["estimate"] == "sampled", "wall_ms"].to_numpy(float)
                if f.size and s.size:
                    paired.append(np.median(s) / np.median(f))
        rows.append(dict(algorithm=a, variant=v, graph=graph, n=n, full_median_ms=np.median(full), full_min_ms=full.min(),
                         full_max_ms=full.max(), sampled_median_ms=np.median(samp),
                         sampled_over_full=np.median(samp) / np.median(full),
                         paired_processes=len(paired),
                         paired_median=float(np.median(paired)) if paired else np.nan,
                         paired_min=float(min(paired)) if paired else np.nan,
                         paired_max=float(max(paired)) if paired else np.nan,
                         full_spread=full.max() / full.min(),
                         within_spread=bool(full.min() <= np.median(samp) <= full.max())))
    return pd.DataFrame(rows)
