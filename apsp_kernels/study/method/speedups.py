"""A speed-up claim's numbers: its time columns (kernel-only or end-to-end, per side), the paper's sizes
among ours, the per-size speed-ups over the baseline with their geometric mean, Kemp's
numbers beside ours, and the columns shown beside every speed-up (the other time, the best CPU code)."""
from __future__ import annotations

import numpy as np

from ...algorithms import registry
from . import estimate, timings as M
from .text import interval


def time_cols(c):
    """(algorithm's time column, baseline's) for the deciding time: kernel-only compares GPU
    kernel time with a CPU code's whole solve (a CPU has no transfers), and two GPU codes
    kernel against kernel."""
    a = registry.get(c["algorithm"]) if c.get("algorithm") in registry.ALGORITHMS else None
    b = registry.get(c["baseline"]) if c.get("baseline") in registry.ALGORITHMS else None
    def cols(kind):
        ta = "kernel_ms" if kind == "kernel" and a is not None and a.device == "gpu" else "wall_ms"
        tb = "kernel_ms" if kind == "kernel" and b is not None and b.device == "gpu" else "wall_ms"
        return ta, tb
    return cols


def matched_sizes(paper_n, measured):
    """Our sizes that are the paper's; where none is, the nearest of ours within 12.5% of a
    paper size (said in the table)."""
    measured = sorted(set(int(n) for n in measured))
    if not paper_n:
        return measured, "the paper names no sizes: every measured size"
    exact = [n for n in measured if n in set(paper_n)]
    if exact:
        return exact, ""
    near = sorted({min(measured, key=lambda m: abs(m - p)) for p in paper_n if measured
                   and abs(min(measured, key=lambda m: abs(m - p)) - p) <= p / 8})
    return near, ("nearest measured sizes to the paper's" if near else
                  "no measured size near the paper's: " + (f"both codes timed together at n = {measured[0]}..{measured[-1]}"
                                                             if measured else "never timed together"))


def fmt_points(sp):
    return "; ".join(f"n={int(r.n)}: {interval(r.speedup, r.ci_lo, r.ci_hi)}" for r in sp.itertuples())


def geo_interval(sp):
    """(value, lo, hi) of the geometric mean of a speed-up table's rows (estimate.geometric_mean over the
    estimates the table keeps per n: :func:`timings.speedup_table`)."""
    if sp.empty:
        return np.nan, np.nan, np.nan
    ests = sp.attrs.get("estimates")
    if ests is None:
        raise ValueError("a speed-up table without its estimates: build it with timings.speedups")
    return tuple(estimate.geometric_mean([ests[int(n)] for n in sp["n"]]))


def kemp_vs_ours(c, sp):
    """Kemp's own numbers at his sizes beside ours at the same n, where he gives per-size values."""
    pts = c.get("kemp_points") or {}
    out = []
    for n, k in sorted(pts.items()):
        r = sp[sp["n"] == int(n)]
        out.append(f"n={n}: Kemp {k:g}x, ours " + (interval(r['speedup'].iloc[0], r['ci_lo'].iloc[0], r['ci_hi'].iloc[0])
                                                     if len(r) else "not measured"))
    return "; ".join(out) or "-"


def graph_of(c):
    """The graph a claim's times are read on: its ``graph``, which the claim's study sets where claims.yaml
    names none (the method has no default graph of its own)."""
    if not c.get("graph"):
        raise ValueError(f"claim {c.get('id')!r} names no graph: its study gives it one before its times are read")
    return c["graph"]


def speedup_pair(df, c, sizes=None):
    """(end-to-end, kernel-only) per-size speed-ups for a claim's algorithm over its baseline."""
    cols = time_cols(c)
    kw = dict(variant=c.get("variant"), baseline_variant=c.get("baseline_variant"), sizes=sizes,
              invert=bool(c.get("invert")), graph=graph_of(c))
    e2e = M.speedups(df, c["algorithm"], c["baseline"], time_col=cols("end_to_end")[0],
                     base_time_col=cols("end_to_end")[1], **kw)
    ker = M.speedups(df, c["algorithm"], c["baseline"], time_col=cols("kernel")[0], base_time_col=cols("kernel")[1], **kw)
    return e2e, ker


def speedup_columns(df, c, ns, pair=None):
    """The columns beside a speed-up claim at sizes ``ns``: geometric means over them of the
    end-to-end and the kernel-only speed-up, of the speed-up over the best CPU code at each size
    (for a GPU code), and how the baseline was timed (measured or sampled).  ``pair``: the
    claim's :func:`speedup_pair` where the caller has it already."""
    e2e, ker = pair if pair is not None else speedup_pair(df, c)
    e2e, ker = e2e[e2e["n"].isin(ns)], ker[ker["n"].isin(ns)]
    out = dict(ours_end_to_end=interval(*geo_interval(e2e)) if len(e2e) else "-",
               ours_kernel=interval(*geo_interval(ker)) if len(ker) else "-",
               baseline_timed=", ".join(sorted(set(e2e["baseline_timed"]))) if len(e2e) else "-")
    if registry.get(c["algorithm"]).device == "gpu" and not c.get("invert"):
        b = M.best_cpu_speedups(df, c["algorithm"], c.get("variant"), sizes=ns, graph=graph_of(c))
        if len(b):
            out["best_cpu"] = f"{interval(*geo_interval(b))} over " + "/".join(sorted(set(b["best_cpu"])))
    return out
