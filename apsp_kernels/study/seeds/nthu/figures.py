"""Notebook 09's figures, in the study's style (:mod:`figures`: one theme, the registry's colour of
seed 004's single- and multi-GPU codes (data/codes.yaml), variants by line and marker, legends below,
one time unit)."""
from __future__ import annotations

from ....algorithms.gpu.fw_nthu import variant_name
import numpy as np
import pandas as pd

from ...method import codes, estimate
from ...show import figures as F
from .load import BLOCKS, SEED_PHASES, medians

_C = codes.load("nthu")
SINGLE, MULTI = _C["single"].algorithm, _C["multi"].algorithm

FORMS = (("dim3", "branch"), ("dim3", "select"), ("int", "branch"), ("int", "select"))


def spread(d, col="kernel_ms"):
    """(median, lo, hi) of ``col``: the median over the machine leases of the processes' medians and its 95%
    interval (estimate.interval); on one lease the ends are NaN and the figure draws no bar."""
    return tuple(estimate.interval(estimate.samples(d, col)))


def blocking(single, sizes=(6000, 12000)):
    """Kernel time against the blocking factor, one panel per n, one line per launch and update
    form (median, bars: the 95% interval over the machine leases, none for a setting timed on one
    lease: :func:`spread`), the seed's K20m totals beside at 6000."""
    sizes = [n for n in sizes if n in set(single["n"])] or sorted(set(single["n"]))[:2]
    fig, axes = F.subplots(1, len(sizes), figsize=(7 * len(sizes), 5.5), squeeze=False)
    ok = single[single["status"] == "ok"]
    several = (ok["lease"] if "lease" in ok else ok["process"]).nunique() >= 2
    # The four forms are variants of one code, so the registry's style gives them one colour and
    # tells them apart only by line and marker, too faint to read; here each form gets its own
    # colour too (from the palette no algorithm uses), keeping its line and marker; the int launches,
    # which often lie on the dim3 ones, get larger hollow markers so that both stay visible.
    form_colour = F.categories([variant_name(32, launch, update) for launch, update in FORMS])
    for ax, n in zip(axes[0], sizes):
        for launch, update in FORMS:
            d = ok[(ok["n"] == n) & (ok["launch"] == launch) & (ok["update"] == update)]
            g = pd.DataFrame({bs: spread(x) for bs, x in d.groupby("bs")}, index=["median", "min", "max"]).T
            g = g.reindex(BLOCKS).dropna(subset=["median"])
            if g.empty:
                continue
            v = variant_name(32, launch, update)
            hollow = launch == "int"
            st = dict(F.style(SINGLE, v), color=form_colour[v], mfc="white" if hollow else form_colour[v],
                      mew=1.8, lw=2, ms=9 if hollow else 6)
            ax.errorbar(g.index, g["median"], yerr=[g["median"] - g["min"], g["max"] - g["median"]], capsize=3,
                        label=f"{launch} launch, {update} update", **st)
        if n == 6000:
            bs = sorted(SEED_PHASES)
            ax.plot(bs, [sum(SEED_PHASES[b][1:]) for b in bs], "*", ms=12, color=F.KEMP,
                    label="seed 004 on a Tesla K20m (its phase table, sum of phases)")
        F.finish_axes(ax, "kernel time (ms), median and 95% interval over leases" if several else
                      "kernel time (ms), median (one lease: no interval)", f"n = {n}", yscale="log")
        ax.set_xlabel("blocking factor bs (vertices per block side)")
        ax.set_xticks([b for b in (2, 4, 8, 16, 32, 64) if n == 6000 or b >= 8])
        ax.set_xticklabels([str(b) for b in (2, 4, 8, 16, 32, 64) if n == 6000 or b >= 8])
    return fig


def _machine(d):
    """Each row's machine ('4 x NVIDIA H200' where the rows carry it, else their model of card): the series key,
    since a speed-up is only meaningful against the one-GPU time of the same machine."""
    if "machine" in d and d["machine"].notna().all():
        return d["machine"]
    return d["gpu"].fillna("unknown GPU") if "gpu" in d else pd.Series("unknown GPU", index=d.index)


def _repeat_speedups(many, ones, one):
    """Every P-GPU repeat's speed-up: its process's median one-GPU time at that n (``ones``: the machine's one-GPU
    rows) over the repeat's time, the machine's median ``one`` where the process timed no one-GPU solve.  The
    points show the scatter of repeats and processes that the median line hides."""
    own = ones.groupby(["process", "n"])["kernel_ms_max"].median()
    t1 = [own.get((p, n), one.get(n, np.nan)) for p, n in zip(many["process"], many["n"])]
    return pd.Series(t1, index=many.index) / many["kernel_ms_max"]


def scaling(multi, kernel="b32-dim3-branch", four=None):
    """P GPUs against one at the same n (the slowest rank's device time; line: medians over processes, points:
    every repeat of every process), per machine, P and design, with the claimed 2x and, where four GPUs ran, the
    ideal 4x; and the share of broadcasts in rank 0's time.  ``four``: the records of machines with more than two
    GPUs (four_gpus.load_runs), drawn as their own series: machines and models of card are never pooled."""
    parts = [x for x in (multi, four) if x is not None and len(x)]
    d = pd.concat([x.assign(machine=_machine(x)) for x in parts], ignore_index=True) if parts else pd.DataFrame()
    if len(d):
        d = d[(d["kernel"] == kernel) & (d["status"] == "ok")]
    fig, (ax1, ax2) = F.subplots(1, 2, figsize=(14, 6.5))
    series = [] if d.empty else sorted({(m, int(P)) for m, P in zip(d["machine"], d["n_gpus"]) if P > 1})
    colour = F.categories([f"{P} GPUs on {m}" for m, P in series])
    for machine, P in series:
        on = d[d["machine"] == machine]
        one = medians(on[on["n_gpus"] == 1], ["n"], "kernel_ms_max") if (on["n_gpus"] == 1).any() else pd.Series(dtype=float)
        for sync in ("row", "rowcol", "whole"):
            many = on[(on["n_gpus"] == P) & (on["variant"] == sync)]
            if many.empty:
                continue
            c = colour[f"{P} GPUs on {machine}"]
            st = dict(F.style(MULTI, sync), color=c, mfc=c)
            t = medians(many, ["n"], "kernel_ms_max")
            t = t[t.index.isin(one.index)]
            if len(t):
                ax1.plot(t.index, one[t.index] / t, label=f"{sync}, {P} GPUs on {machine}", **st)
                pts = many[many["n"].isin(one.index)]
                ax1.plot(pts["n"], _repeat_speedups(pts, on[on["n_gpus"] == 1], one), ls="none", marker=st["marker"],
                         mfc="none", color=c, ms=5, alpha=0.6)
            share = medians(many, ["n"], "comm_share")
            ax2.plot(share.index, 100 * share, label=f"{sync}, {P} GPUs on {machine}", **st)
            ax2.plot(many["n"], 100 * many["comm_share"], ls="none", marker=st["marker"], mfc="none", color=c, ms=5,
                     alpha=0.6)
    ax1.axhline(2, color=F.CLAIMED, ls=":", lw=1.5, label="claimed: 2x on 2 GPUs ('2-folded')")
    if any(P == 4 for _, P in series):
        ax1.axhline(4, color=F.KEMP, ls=":", lw=1, label="ideal on 4 GPUs: 4x (not claimed)")
    for ax in (ax1, ax2) if series else ():     # one legend entry says what the small hollow points are
        ax.plot([], [], ls="none", marker="o", mfc="none", color=F.KEMP, ms=5, label="points: each repeat of each process")
    F.finish_axes(ax1, "speed-up over one GPU of the same machine (x)", f"strong scaling ({kernel})", yscale=None)
    F.finish_axes(ax2, "broadcasts / device time (%)", "where the time goes (rank 0)", yscale="log")
    if not series:
        for ax in (ax1, ax2):
            ax.text(0.5, 0.5, "no two-GPU run recorded", transform=ax.transAxes, ha="center")
    ax1.set_ylim(bottom=0)
    return fig


def per_round(rounds, multi):
    """Compute and broadcast time of every round (rank 0) of the largest two-GPU row-design solve:
    where the time goes round by round."""
    fig, ax = F.subplots(figsize=(8, 5))
    two = multi[(multi["n_gpus"] == 2) & (multi["variant"] == "row")] if len(multi) else multi
    if rounds is None or rounds.empty or two.empty:
        ax.text(0.5, 0.5, "no per-round record", transform=ax.transAxes, ha="center")
        return fig
    row = two.sort_values("n").iloc[-1]
    r = rounds[(rounds["process"] == row["process"]) & (rounds["job"] == row["job_row"]) & (rounds["rank"] == 0)]
    r = r.sort_values("round")
    cats = F.categories(["compute (phases 1-3)", "broadcasts"])
    ax.plot(r["round"], r[["phase1_ms", "phase2_ms", "phase3_ms"]].sum(axis=1), color=cats["compute (phases 1-3)"],
            label="compute (phases 1-3)")
    ax.plot(r["round"], r["comm_ms"], color=cats["broadcasts"], label="broadcasts")
    F.finish_axes(ax, "time per round (ms)", f"rank 0, n = {int(row['n'])}, {row['variant']} design, 2 GPUs", xscale=None)
    ax.set_xlabel("round r")
    return fig
