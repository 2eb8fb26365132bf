"""The quantities behind claims that are not one speed-up per size: averages the way Kemp
formed them, time growth from the smallest to the largest graph, memory limits, a peak
ratio, memory-mode boundaries, flatness over degree (paired inside each process).  Each
returns (value, lo, hi, text) for :func:`verdicts.evaluate` (``aggregate=``) or the arguments
of a crossover."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...algorithms import registry
from . import timings as M
from . import estimate
from .speedups import graph_of
from .text import fmt, interval


def kemp_ran_up_to():
    """{algorithm: the largest of Kemp's graphs it ran at} (data/claims.yaml, from seed 000)."""
    import yaml
    from . import claims
    with open(claims.file(), encoding="utf-8") as f:
        return yaml.safe_load(f).get("kemp_ran_up_to", {})


def average_pairs(df, c, default_variants, time_col="wall_ms"):
    """{algorithm: (grid, M.pairs)}: the sizes Kemp's average covers for it (the claim's paper_n
    up to the largest graph that algorithm ran at in his study) and its pairs with the baseline
    at every size both were timed here (those off the grid serve as neighbours of a bracket);
    ``time_col`` for the GPU sides (the CPU baseline is its wall time)."""
    algos = c.get("algorithms") or [c["algorithm"]]
    cap = kemp_ran_up_to()
    base_col = time_col if registry.get(c["baseline"]).device == "gpu" else "wall_ms"
    out = {}
    for a in algos:
        v = c.get("variant") if len(algos) == 1 else default_variants.get(a)
        grid = [int(n) for n in c.get("paper_n") or [] if n <= cap.get(a, n)]
        p = M.pairs(df, a, c["baseline"], v, c.get("baseline_variant"), time_col=time_col, base_time_col=base_col,
                    graph=graph_of(c))
        if p and grid:
            out[a] = (grid, p)
    return out


def _family(ps):
    """{algorithm: (grid, [(n, baseline times, algorithm times)])} of :func:`average_pairs`: a
    speed-up of each algorithm per size, the shape estimate.bracketed_mean takes."""
    return {a: (grid, [(n, b, t) for n, t, b, _, _ in p]) for a, (grid, p) in ps.items()}


def _ends(lo, hi):
    """An interval's ends as text, an upper end open above 'unbounded'."""
    return f"[{fmt(lo)}, {'unbounded' if hi == np.inf else fmt(hi)}]"


def _short(vt, lo, hi):
    """A bracket as a table cell: 'between 150 and 217x [125, 277]'; no interval (a single run) said so."""
    return f"{vt}x {_ends(lo, hi)}" if lo == lo else f"{vt}x (single run)"


def _bracket(fam):
    """(value, lo, hi, text, value text) of estimate.bracketed_mean: the value is the lower
    envelope's mean where the upper one is open, else the geometric middle of the two; the value
    text gives both ends, which the verdict's reason quotes instead of a point."""
    low, high, lo, hi, timed, between, beyond, leases = estimate.bracketed_mean(fam)
    if low != low:
        return np.nan, np.nan, np.nan, "-", "-"
    vt = fmt(low) if low == high else f"between {fmt(low)} and {fmt(high)}" if np.isfinite(high) else f"at least {fmt(low)}"
    val = low if low == high or not np.isfinite(high) else float(np.sqrt(low * high))
    over = f"Kemp's {timed + between + beyond} graphs" if len(fam) == 1 else (
        f"{len(fam)} codes of each one's mean over Kemp's graphs it ran at ({timed + between + beyond} code-graph pairs)")
    parts = [f"{timed} timed"] + ([f"{between} between timed sizes, bracketed by their ratios"] if between else []) + (
        [f"{beyond} beyond them, unknown"] if beyond else [])
    ci = (f"95% interval {_ends(lo, hi)} over {leases} leases" if lo == lo else
          f"no interval ({leases} lease{'s' if leases != 1 else ''}: one lease says nothing of a second)")
    return val, lo, hi, f"mean over {over} {vt}x ({'; '.join(parts)}); {ci}", vt


def average(df, c, default_variants, ps=None):
    """Kemp's average speed-up: mean over his graphs of per-graph speed-ups, per algorithm (only
    the graphs that algorithm ran at in his study); over several algorithms the mean of their
    means (declared in claims.yaml).  Graphs of his not timed here are bracketed by the timed
    ones around them (estimate.bracketed_mean), never interpolated.  ``ps``: :func:`average_pairs`
    where the caller has them (they serve :func:`average_columns` too)."""
    ps = average_pairs(df, c, default_variants) if ps is None else ps
    val, lo, hi, txt, vt = _bracket(_family(ps))
    if ps and txt != "-":
        timed = {a: [str(n) for n, *_ in p if n in set(grid)] for a, (grid, p) in ps.items()}
        txt += "; timed: " + "; ".join(f"{a} at n = {', '.join(ns)}" if ns else f"{a} at none of them"
                                       for a, ns in timed.items())
    return val, lo, hi, txt, vt


def average_columns(df, c, default_variants, end_to_end, ps=None):
    """The columns beside an average (``end_to_end``: :func:`average`'s result for it; ``ps``: the
    pairs it was formed from), formed the
    same way: from kernel-only times, over the best CPU code at each size (where every code
    averaged is a GPU code), and how the baseline was timed (measured or sampled)."""
    ps = average_pairs(df, c, default_variants) if ps is None else ps
    if not ps:
        return {}

    def mean_text(fam):
        v, lo, hi, _, vt = _bracket(fam)
        return _short(vt, lo, hi) if fam and v == v else "-"

    v, lo, hi, _, vt = end_to_end
    out = dict(ours_end_to_end=_short(vt, lo, hi) if v == v else "-",
               ours_kernel=mean_text(_family(average_pairs(df, c, default_variants, time_col="kernel_ms"))),
               baseline_timed=", ".join(sorted({kb for _, p in ps.values() for *_, kb in p})))
    if all(registry.get(a).device == "gpu" for a in ps):
        best, names = {}, set()
        for a, (grid, p) in ps.items():
            for n, t, *_ in p:                  # the algorithm's own times at n, as the average used them
                b = M.best_cpu_times(df, n, graph=graph_of(c))
                if b:
                    best.setdefault(a, (grid, []))[1].append((n, b[1], t))
                    names.add(b[0])
        if best:
            out["best_cpu"] = f"{mean_text(best)} over " + "/".join(sorted(names))
    return out


def growth(df, c):
    """Time at the paper's largest size over time at its smallest (one code), paired inside each
    process: in runs G′, I and J the two sizes' times of Harish's code moved together from lease to
    lease (a third to two thirds of their variance between leases), their ratio not at all."""
    lo_n, hi_n = min(c["paper_n"]), max(c["paper_n"])
    g = graph_of(c)
    ns = M.sizes_of(df, c["algorithm"], c.get("variant"), graph=g)
    if lo_n not in ns or hi_n not in ns:
        return np.nan, np.nan, np.nan, f"not measured at both n = {lo_n} and n = {hi_n}"
    a, _ = M.times(df, c["algorithm"], c.get("variant"), hi_n, graph=g)
    b, _ = M.times(df, c["algorithm"], c.get("variant"), lo_n, graph=g)
    e = estimate.ratio(a, b)
    return e.value, e.lo, e.hi, f"t(n={hi_n}) / t(n={lo_n}) = {interval(*e)}, {e.basis()}"


def memory_limit(c, memory_bytes, grid):
    """Largest size of ``grid`` whose device footprint (the registry's formula) fits in
    ``memory_bytes``: computed, not run (our GPU has 64x the memory)."""
    fp = registry.get(c["algorithm"]).footprint
    fits = [n for n in grid if fp(n, 4 * n) <= memory_bytes]
    v = float(max(fits)) if fits else np.nan
    return v, v, v, (f"largest of Kemp's sizes whose footprint ({registry.get(c['algorithm']).name}: "
                     f"{fp(int(v), 0) / 2**30:.2f} GiB at n = {int(v)}) fits in {memory_bytes / 2**30:.2f} GiB: "
                     "computed from the registry's footprint, not run")


def peak_ratio(df, c, others_variants):
    """'At its peak ... at least v x faster than any other': per size the smallest ratio of any
    other code's time to this one's; the value at the size where that is largest."""
    best, g = None, graph_of(c)
    for n in M.sizes_of(df, c["algorithm"], c.get("variant"), graph=g):
        a, _ = M.times(df, c["algorithm"], c.get("variant"), n, graph=g)
        worst = None
        for o in c["baselines"]:
            t, _ = M.times(df, o, others_variants.get(o), n, graph=g)
            if not t.size:
                worst = None
                break
            r = estimate.ratio(t, a)
            if worst is None or r.value < worst[0]:
                worst = (*r, o)
        if worst and (best is None or worst[0] > best[1][0]):
            best = (n, worst)
    if best is None:
        return np.nan, np.nan, np.nan, "no size with every other code measured"
    n, (v, l, h, o) = best
    return v, l, h, f"at n = {n}: {interval(v, l, h)} over the next fastest ({o})"


def paired_spread(df, algorithm, variant, n, graphs, time_col="wall_ms", *, reference):
    """How far one code's time moves between graphs of one size, paired inside each process: per
    process, each round's time on every graph over the same round's time on ``reference`` (the
    campaign times every graph of a dense code in each round, within a fraction of a second:
    plan.schedule), the median over rounds per graph, and the largest over the smallest of those
    (the reference counting as 1).  One value per process whose every round has every graph, keyed by
    (lease, process) (estimate.samples); what moves the machine between rounds, processes and leases
    divides out."""
    d = M.good(df[(df["algorithm"] == algorithm) & (df["n"] == n) & df["graph"].isin(list(graphs))
                & ~df["params"].str.contains('"memory"', regex=False) & (df["estimate"] == "measured")])
    if variant is not None:
        d = d[d["variant"].astype(str) == str(variant)]
    d = d.dropna(subset=[time_col])
    present, out = set(d["graph"]), {}
    lease = dict(zip(d["process"], d["lease"] if "lease" in d else d["process"]))
    for p, grp in d.groupby("process"):
        t = grp.pivot_table(index="repeat", columns="graph", values=time_col, aggfunc="median")
        if reference not in t or t.shape[1] < 2 or set(t.columns) != present:
            continue
        t = t.dropna()
        if t.empty or (t <= 0).any().any():
            continue
        prof = np.log(t).sub(np.log(t[reference]), axis=0).median()      # per graph, 0 for the reference
        out[(lease[p], p)] = float(np.exp(prof.max() - prof.min()))
    return estimate.as_samples(pd.Series(out, dtype=float).rename_axis(list(estimate.INDEX))) if out else \
        estimate.as_samples(pd.Series(dtype=float, index=pd.MultiIndex.from_tuples([], names=list(estimate.INDEX))))


def flat_over_degree(df, algorithms, n, default_variants, time_col="wall_ms", *, reference):
    """Whether every dense code's time is the same at every degree, at one n: per code, per process
    the max/min of its time over the degree ranges, paired round by round inside the process
    (:func:`paired_spread`: the machine's moves between rounds and leases divide out), one value per
    process; then the largest of the codes' medians over processes, with an interval that allows
    for having picked the largest (estimate.largest), each graph's time taken over ``reference``'s.  The kernel-only
    value rides along in the text."""
    graphs = sorted(df.loc[df["n"] == n, "graph"].unique())
    spreads, names = [], []
    for a in algorithms:
        s = paired_spread(df, a, default_variants.get(a), n, graphs, time_col, reference=reference)
        if len(s) >= 1:
            spreads.append(s)
            names.append(a)
    if not spreads:
        return np.nan, np.nan, np.nan, "fewer than two degree ranges measured"
    e, worst = estimate.largest(spreads)
    v, lo, hi = e
    ker = [paired_spread(df, a, default_variants.get(a), n, graphs, "kernel_ms", reference=reference) for a in names]
    parts = [f"{a} {fmt(float(np.median(s)))}x" + (f" (kernel-only {fmt(float(np.median(k)))}x)" if len(k) else "")
             for a, s, k in zip(names, spreads, ker)]
    what = "end-to-end" if time_col == "wall_ms" else "kernel-only"
    return v, lo, hi, (f"max/min {what} time over {len(graphs)} degree ranges at n = {n}, paired round by round "
                       f"in each process, median over {e.leases} leases ({max(len(s) for s in spreads)} processes); the largest, "
                       f"{names[worst]}: {interval(v, lo, hi)}; per code: " + "; ".join(parts))


def mode_times(df, algorithm, n, mode, graph):
    return M.times(df, algorithm, None, n, memory=mode, graph=graph)[0]


def zero_copy_boundary(df, algorithm, modes, *, graph):
    """Where the copying modes overtake zero-copy: per n the ratio of zero-copy's time to the
    fastest other mode's, and its crossover (log-log interpolation) with a 95% interval."""
    ns = sorted(df.loc[(df["algorithm"] == algorithm) & df["params"].str.contains('"memory"', regex=False), "n"].unique())
    rows = []
    for n in ns:
        z = mode_times(df, algorithm, n, "zero_copy", graph)
        others = {m: mode_times(df, algorithm, n, m, graph) for m in modes if m != "zero_copy"}
        others = {m: t for m, t in others.items() if t.size}
        if not z.size or not others:
            continue
        best = min(others, key=lambda m: np.median(others[m]))
        v, lo, hi = estimate.ratio(others[best], z)           # > 1: zero-copy faster
        rows.append((int(n), v, lo, hi, best))
    return rows


def boundary(rows):
    """The n at which a ratio (> 1 first) falls below 1: None if never, 0 if below at once."""
    if not rows:
        return None, None, None
    vals = [r[1] for r in rows]
    ns = [r[0] for r in rows]
    if vals[0] < 1:
        return 0, None, (ns[0], ns[-1])
    for i in range(1, len(vals)):
        if vals[i] < 1:
            x0, x1 = np.log(ns[i - 1]), np.log(ns[i])
            r0, r1 = np.log(vals[i - 1]), np.log(vals[i])
            x = float(np.exp(x0 + (x1 - x0) * r0 / (r0 - r1)))
            lo = rows[i - 1][0] if rows[i - 1][2] > 1 else None
            hi = rows[i][0] if rows[i][3] < 1 else None
            return x, ((lo, hi) if lo and hi else None), (ns[0], ns[-1])
    return None, None, (ns[0], ns[-1])
