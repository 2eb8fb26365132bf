"""The study's figures: times and speed-ups against n with 95% intervals; sampled CPU
estimates drawn hollow; failed runs as red crosses, never as times; claimed bands shaded."""
from __future__ import annotations

import csv
import os

import numpy as np
import pandas as pd

from .. import paths
from . import measurements as M


def _theme():
    import seaborn as sns
    sns.set_theme(style="whitegrid")
    return sns


def plot_times(df, runs, title, ax=None, time_col="wall_ms"):
    """``runs``: [(algorithm, variant, label)].  Median and 95% interval per n."""
    import matplotlib.pyplot as plt
    sns = _theme()
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 5))
    colours = sns.color_palette("tab10", max(len(runs), 1))
    for (a, v, label), col in zip(runs, colours):
        s = M.summary(df[(df["algorithm"] == a) & (df["graph"] == M.KEMP) & ((v is None) | (df["variant"].astype(str) == str(v)))
                         & ~df["params"].str.contains('"memory"', regex=False)], time_col=time_col)
        if s.empty:
            continue
        for est, marker, ls, fill in (("measured", "o", "-", col), ("sampled", "o", "--", "none")):
            e = s[(s["estimate"] == est) & s["ok"]].sort_values("n")
            if est == "sampled":           # where a size was also run in full, the full runs are shown
                e = e[~e["n"].isin(s.loc[(s["estimate"] == "measured") & s["ok"], "n"])]
            if e.empty:
                continue
            ax.errorbar(e["n"], e["median"] / 1e3, yerr=[(e["median"] - e["ci_lo"]) / 1e3, (e["ci_hi"] - e["median"]) / 1e3],
                        marker=marker, ls=ls, mfc=fill, color=col, capsize=3,
                        label=label + (" (sampled estimate)" if est == "sampled" else ""))
        bad = s[~s["ok"]]
        if len(bad):
            ax.plot(bad["n"], np.full(len(bad), np.nanmax(s["median"]) / 1e3 if s["ok"].any() else 1), "x",
                    color="red", ms=10, label=f"{label}: FAILED verification")
    return finish_axes(ax, f"{'kernel' if time_col == 'kernel_ms' else 'end-to-end'} time (s), median, 95% CI", title, 7)


def plot_speedups(ax, sps, claimed=None, kemp=None, title="", ylabel="speed-up (x)"):
    """``sps``: [(DataFrame from measurements.speedups, label)].  Hollow markers where the
    baseline is a sampled estimate; the claimed and Kemp's ranges as bands."""
    sns = _theme()
    colours = sns.color_palette("tab10", max(len(sps), 1))
    for (sp, label), col in zip(sps, colours):
        if sp.empty:
            continue
        sp = sp.sort_values("n")
        ax.errorbar(sp["n"], sp["speedup"], yerr=[sp["speedup"] - sp["ci_lo"], sp["ci_hi"] - sp["speedup"]],
                    color=col, capsize=3, ls="-", marker="", label=label)
        s = sp[sp.get("baseline_timed", pd.Series("measured", index=sp.index)) == "sampled"]
        m = sp.drop(s.index)
        ax.plot(m["n"], m["speedup"], "o", color=col)
        ax.plot(s["n"], s["speedup"], "o", mfc="none", color=col)
    for rng, lab, c in ((claimed, "claimed", "tab:green"), (kemp, "Kemp measured", "tab:orange")):
        if rng:
            lo, hi = rng
            if lo == hi:
                ax.axhline(lo, color=c, ls=":", label=f"{lab}: {lo:g}x")
            else:
                ax.axhspan(lo, hi, color=c, alpha=0.15, label=f"{lab}: {lo:g}-{hi:g}x")
    ax.plot([], [], "o", mfc="none", color="grey", label="hollow: baseline is a sampled estimate")
    return finish_axes(ax, ylabel, title, 7)


def finish_axes(ax, ylabel, title, legend_size):
    """Both study plots: log2 n against a log scale."""
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("vertices n")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=legend_size)
    return ax


def save_figure(fig, name, profile_name="paper", notebook=None, run=None, commit=None):
    """figures/<name>.png and .svg for the paper and full profiles (the committed reference
    figures; ``figures/MANIFEST.csv`` records figure, notebook, run, commit); other profiles
    write under figures/<profile>/ so they never overwrite them."""
    import matplotlib
    d = paths.FIGURES if profile_name in ("paper", "full") else paths.FIGURES / str(profile_name)
    d.mkdir(parents=True, exist_ok=True)
    with matplotlib.rc_context({"svg.hashsalt": "apsp-repro"}):      # same data, same SVG bytes
        for ext in ("png", "svg"):
            fig.savefig(d / f"{name}.{ext}", bbox_inches="tight", dpi=120, metadata={"Date": None})
    if d == paths.FIGURES and notebook:
        _manifest(name, notebook, run, commit)
    return d / f"{name}.png"


def _manifest(name, notebook, run, commit):
    f = paths.FIGURES / "MANIFEST.csv"
    rows = []
    if f.exists():
        with open(f, newline="") as fh:
            rows = [r for r in csv.DictReader(fh) if r["figure"] != name]
    rows.append(dict(figure=name, notebook=notebook, run=run or "", commit=commit or ""))
    rows.sort(key=lambda r: r["figure"])
    tmp = f.with_suffix(f".{os.getpid()}.tmp")
    with open(tmp, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["figure", "notebook", "run", "commit"])
        w.writeheader()
        w.writerows(rows)
    tmp.replace(f)
