"""Notebook 11's figures in the study's style (:mod:`figures`: one theme, the registry's colour of each code,
variants by line and marker, legends below): throughput against n beside the limits measured in the same run (a
roofline read sideways: one panel per limit), and the tuned run at the targets' size with each target's criterion."""
from __future__ import annotations

import numpy as np
from matplotlib.ticker import FuncFormatter, NullFormatter
from matplotlib.transforms import blended_transform_factory

from ...show import figures as F
from ...method.text import fmt
from .load import STATUS_COLOURS, limit_label, limits, per_n, rate
from .verdicts import TARGET_N

KIND_ORDER = ("minplus", "bandwidth", "pcie")
LIMIT_COLOUR = "#222222"
EMPTY = "tuned line: not measured yet\n(no *-tuned.csv in data/results/benchmarks)"


def _style(algorithm, variant):
    try:
        return F.style(algorithm, variant)
    except KeyError:                                   # a code this registry does not know (another branch)
        return dict(color="#636363", ls="--", marker="X", mfc="#636363")


def _kinds(*dfs):
    ks = {k for d in dfs for k in d.loc[d["line"] != "CPU", "limit_kind"] if k}
    return sorted(ks, key=lambda k: (KIND_ORDER.index(k) if k in KIND_ORDER else len(KIND_ORDER), k))


def roofline(bench, ref=None):
    """Updates/s against n (median of the verified rows), one panel per limit kind, the limit measured in the
    same run as a horizontal line; the tuned codes bold, the faithful codes of the same run thin, those of the
    faithful reference run (codes the tuned run did not time) faint; failed rows as red crosses on the axis,
    never as a throughput."""
    df = bench.df
    rdf = ref.df if ref is not None and ref.measured else df.iloc[0:0]
    rdf = rdf[(rdf["line"] == "faithful") & ~rdf["code"].isin(set(df["code"]))]
    kinds = _kinds(df, rdf)
    fig, axes = F.subplots(1, max(1, len(kinds)), figsize=(7.5 * max(1, len(kinds)), 6.5), squeeze=False)
    if not kinds:
        ax = axes[0][0]
        what = "no GPU row with a limit in the tuned run" if bench.measured else EMPTY + "\nand no faithful benchmark either"
        ax.text(0.5, 0.5, what, transform=ax.transAxes, ha="center", va="center")
        ax.set_xticks([]), ax.set_yticks([])
        return fig
    lim, rlim = limits(df), (limits(ref.df) if ref is not None and ref.measured else {})
    for ax, kind in zip(axes[0], kinds):
        bottom = blended_transform_factory(ax.transData, ax.transAxes)
        for d, faint in ((df, False), (rdf, True)):
            for code in sorted(set(d.loc[d["limit_kind"] == kind, "code"]), key=lambda c: (_rank(d, c), c)):
                rows = d[d["code"] == code]
                a, v, line = rows["algorithm"].iloc[0], rows["variant"].iloc[0], rows["line"].iloc[0]
                s, st = per_n(d, code), _style(a, v)
                if len(s):
                    tuned = line in ("tuned", "not in this registry")
                    label = f"{code} ({line})" if not faint else f"{code} (faithful, run of {ref.date})"
                    ax.plot(s["n"], s["updates_per_s"], lw=2.4 if tuned else 1.0, ms=7 if tuned else 4,
                            alpha=0.4 if faint else 1.0, label=label, **st)
                bad = rows[~rows["verified"]]
                if len(bad):
                    ax.plot(bad["n"], np.full(len(bad), 0.04), "x", color=F.FAILED, ms=10, mew=2, transform=bottom,
                            label=f"{code}: FAILED verification (no throughput)")
        value, whose = (lim[kind], "tuned run") if kind in lim else (rlim.get(kind), f"run of {ref.date}" if ref else "")
        if value:
            ax.axhline(value, color=LIMIT_COLOUR, ls="--", lw=1.4,
                       label=f"{limit_label(kind)}: {rate(value)} ({whose})")
        if kind == "minplus":
            ax.plot([TARGET_N], [13.5e12], "*", ms=15, color=F.CLAIMED, mec="#7a5a00",
                    label=f"target: tuned_fw >= 13.5 T updates/s at n = {TARGET_N}")
        if not bench.measured:
            ax.text(0.5, 0.5, EMPTY, transform=ax.transAxes, ha="center", va="center", fontsize=12, color="#57606a",
                    bbox=dict(facecolor="white", edgecolor="#57606a", alpha=0.9))
        F.finish_axes(ax, "updates/s (median of the verified rows)", f"bound by the {limit_label(kind)}")
    return fig


def _rank(d, code):
    return {"tuned": 0, "not in this registry": 0, "faithful": 1}.get(d.loc[d["code"] == code, "line"].iloc[0], 2)


def targets_figure(bench, rows):
    """Left: kernel time (a CPU row's wall time) of every code of the run at n = 16384, failed codes marked;
    right: each criterion's measured value against its requirement (1 = just met; right of it is met), the
    criteria not measured named at 1.  None where the run holds nothing (the notebook says so instead)."""
    if not bench.measured:
        return None
    df = bench.df
    fig, (ax1, ax2) = F.subplots(1, 2, figsize=(15, 6.5))
    at = df[df["n"] == TARGET_N]
    codes = sorted(set(at["code"]), key=lambda c: (_rank(at, c), c))
    for i, code in enumerate(codes):
        mine = at[at["code"] == code]
        s = per_n(at, code)
        st = _style(mine["algorithm"].iloc[0], mine["variant"].iloc[0])
        if len(s):
            ax1.barh(i, s["kernel_ms"].iloc[0], color=st["color"], alpha=1.0 if _rank(at, code) == 0 else 0.55)
            ax1.text(s["kernel_ms"].iloc[0], i, f" {fmt(s['kernel_ms'].iloc[0])} ms", va="center", fontsize=8)
        if (~mine["verified"]).any():
            ax1.text(0.01, i, "FAILED verification", transform=blended_transform_factory(ax1.transAxes, ax1.transData),
                     va="center", color=F.FAILED, fontweight="bold", fontsize=8)
    ax1.set_yticks(range(len(codes)), [f"{c} ({at.loc[at['code'] == c, 'line'].iloc[0]})" for c in codes])
    ax1.invert_yaxis()
    if codes:
        ax1.set_xscale("log")
    else:
        ax1.text(0.5, 0.5, f"no row at n = {TARGET_N}", transform=ax1.transAxes, ha="center")
    ax1.set_xlabel("kernel time (ms; CPU rows: wall time), median of verified rows")
    ax1.set_title(f"the run at n = {TARGET_N}")
    labels = [f"{r.target.split('.')[0]}. {r.criterion} ({r.required})" for r in rows.itertuples()]
    for i, r in enumerate(rows.itertuples()):
        colour = STATUS_COLOURS[r.status]
        if r.score == r.score:
            ax2.plot(r.score, i, "o", ms=10, color=colour)
            ax2.annotate(f"{r.measured}: {r.status}", (r.score, i), xytext=(9, 6), textcoords="offset points", fontsize=8,
                         color=colour)
        else:
            ax2.text(1, i, r.status.upper() if r.status == "failed" else r.status, va="center", ha="center", fontsize=8,
                     color=colour, bbox=dict(facecolor="white", edgecolor=colour))
    ax2.axvline(1, color=F.CLAIMED, lw=2, label="the target (right of the line: met)")
    ax2.set_yticks(range(len(labels)), [_wrap(t) for t in labels], fontsize=8)
    ax2.set_ylim(len(labels) - 0.4, -0.6)
    ax2.set_xscale("log")
    scores = rows["score"].dropna()
    lo, hi = (min(scores.min(), 1) / 3, max(scores.max(), 1) * 3) if len(scores) else (1 / 3, 3)
    ax2.set_xlim(lo, hi)
    ax2.set_xticks([t for t in (0.001, 0.01, 0.1, 0.3, 0.5, 1, 2, 3, 10, 100, 1000) if lo <= t <= hi])
    ax2.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{fmt(v)}x"))
    ax2.xaxis.set_minor_formatter(NullFormatter())
    ax2.set_xlabel("measured / required (for 'at most' criteria: required / measured)")
    ax2.set_title("the tuned line's goals")
    F.legend_below(ax2)
    return fig


def _wrap(text, width=48):
    import textwrap
    return "\n".join(textwrap.wrap(text, width))
