"""Notebook 08's figures (the Hochberg study, seed 002) in the study's style (study.figures: one
theme, one colour per algorithm, times in ms, legends below the panels): his Fig. 2.3 (cycles),
his Fig. 2.4 (run time against SMs), and his explorations."""
from __future__ import annotations

import matplotlib.ticker
import numpy as np

from ...show import figures as F
from . import analysis as H

GRAPH_TITLES = {"cycle_undirected": "undirected cycles (his graphs)", "cycle_directed": "directed cycles"}
# his three times of one GPU run: told apart by line style (one algorithm, one colour)
TIMES = (("events", "kernel, CUDA events", "-"), ("his difference", "kernel, his difference of averages", "-."),
         ("end-to-end", "end-to-end (allocation, copies, kernels)", ":"))


def _band(ax, x, mid, lo, hi, colour, ls, label):
    ax.plot(x, mid, ls=ls, color=colour, lw=1.4, label=label)
    ax.fill_between(x, lo, hi, color=colour, alpha=0.18, lw=0)


def _one_lease(t, what):
    """What a legend adds where some sizes of :func:`analysis.cycles`'s table rest on one lease."""
    k = int((t[f"{what} (ms)"].notna() & t[f"{what} lo (ms)"].isna()).sum())
    return f" (no interval at {k} size{'s' if k != 1 else ''} on one lease)" if k else ""


def _no_interval(estimates):
    """What a legend adds where some points rest on one lease: no error bar or band is drawn there."""
    k = sum(not e.has_interval and e.value == e.value for e in estimates)
    return f" (none at {k} point{'s' if k != 1 else ''} on one lease)" if k else ""


def plot_cycles(st, crossings, claimed=500):
    """Fig. 2.3 on the H100: his fw.c's three times and the all-core CPU FW against n, one panel per
    graph; the end-to-end break-even with its interval, and his ~500 (a laptop against a cluster)."""
    fig, axes = F.subplots(1, len(H.GRAPHS), figsize=(7 * len(H.GRAPHS), 5.5), sharey=True, squeeze=False)
    g_col, c_col = F.colour(H.GPU[0]), F.colour(H.CPU[0])
    for ax, graph in zip(axes[0], H.GRAPHS):
        t = H.cycles(st, graph)
        one = _one_lease(t, "end-to-end")
        _band(ax, t["n"], t["events (ms)"], t["events lo (ms)"], t["events hi (ms)"], g_col, "-", TIMES[0][1] + one)
        se2 = 2 * t["standard error (ms)"]
        _band(ax, t["n"], t["his difference (ms)"], t["his difference (ms)"] - se2, t["his difference (ms)"] + se2, g_col,
              "-.", TIMES[1][1] + " (+- 2 s.e.)")
        _band(ax, t["n"], t["end-to-end (ms)"], t["end-to-end lo (ms)"], t["end-to-end hi (ms)"], g_col, ":",
              TIMES[2][1] + one)
        c = t.dropna(subset=["CPU (ms)"])
        ax.errorbar(c["n"], c["CPU (ms)"], yerr=[c["CPU (ms)"] - c["CPU lo (ms)"], c["CPU hi (ms)"] - c["CPU (ms)"]],
                    color=c_col, marker="o", ms=3, capsize=2, lw=1,
                    label="CPU blocked FW, 16 threads (whole run)" + _one_lease(c, "CPU"))
        n, ci, measured = crossings[graph]
        if n:
            ax.axvline(n, color=g_col, lw=1, label=f"GPU end-to-end faster from n = {n:.0f}")
            if ci:       # an end among censored draws (0, inf) is drawn at the measured range's end
                ax.axvspan(max(ci[0], measured[0]), min(ci[1], measured[1]), color=g_col, alpha=0.08, lw=0)
        ax.axvline(claimed, color=F.CLAIMED, ls="--", lw=1.5, label=f"his laptop vs cluster GPU: about {claimed}")
        F.finish_axes(ax, "time (ms): median, 95% CI over leases", GRAPH_TITLES[graph])
    return fig


def plot_sm(st):
    """Fig. 2.4 on one H100: time against the SMs a green context gives the kernel, log-log, with the
    ideal 1/SMs line through the smallest count and the fitted slope."""
    fig, ax = F.subplots(figsize=(8, 5.5))
    col = F.colour(H.GPU[0])
    for (what, label, ls), c in zip(TIMES, ("event_ms_json", None, "with_ms_json")):
        if c is None:
            s = H.select_rows(st.df, "sm_scaling", H.GPU, status="ok").sort_values("sm_granted")
            ax.plot(s["sm_granted"], s["difference_ms"], ls=ls, color=col, marker="s", ms=4, label=label)
            continue
        es = H.times(st, "sm_scaling", H.GPU, c, by="sm_granted")
        sms = np.array(sorted(es), float)
        ci = np.array([tuple(es[x]) for x in sorted(es)])
        ax.errorbar(sms, ci[:, 0], yerr=[ci[:, 0] - ci[:, 1], ci[:, 2] - ci[:, 0]], ls=ls, color=col, marker="o",
                    capsize=3, label=label + ": median, 95% CI" + _no_interval(es.values()))
    sms, ts = H.sm_points(st)
    t0 = np.median(ts[0])
    ax.plot(sms, t0 * sms[0] / sms, color=F.KEMP, ls="--", lw=1, label=f"ideal: time ~ 1/SMs (from {sms[0]:.0f} SMs)")
    s, lo, hi, _ = H.sm_slope(st)
    fit = np.exp(np.mean(np.log([np.median(t) for t in ts])) + s * (np.log(sms) - np.log(sms).mean()))
    ax.plot(sms, fit, color=F.CLAIMED, lw=1.5, label=f"fitted: time ~ SMs^{s:.2f} [{lo:.2f}, {hi:.2f}] (events)")
    ax.set_xscale("log", base=2)
    gap = np.diff(np.log2(sms), append=np.inf)          # a count too close to the next is left unlabelled
    ax.set_xticks(sms, [f"{x:.0f}" if g > 0.15 else "" for x, g in zip(sms, gap)])
    ax.minorticks_off()
    ax.set_xlabel(f"SMs the kernel may use (of {st.prov.get('sm_count', 'all')})")
    F.finish_axes(ax, "time (ms)", f"his fw.c on a {int(st.df.loc[st.df['stage'] == 'sm_scaling', 'n'].iloc[0])}-vertex "
                  "undirected cycle, SMs restricted by green contexts", xscale=None)
    ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(10, subs=(1, 2, 3, 5)))
    ax.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())       # plain ms, not powers of ten
    ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    return fig


def plot_explorations(st):
    """Sec. 2.4: each exploration's kernel time over fw.c as shipped, per n (median ratio, 95% CI);
    the kernel without __syncthreads() has no time (its results are wrong)."""
    e = H.explorations(st)
    labels = list(dict.fromkeys(e["run"]))
    colours = F.categories(labels)
    ns = sorted(e["n"].unique())
    fig, ax = F.subplots(figsize=(11, 5.5))
    w = 0.8 / len(labels)
    for i, lab in enumerate(labels):
        for j, n in enumerate(ns):
            r = e[(e["run"] == lab) & (e["n"] == n)]
            x = j + (i - (len(labels) - 1) / 2) * w
            if r.empty:
                continue
            v, lo, hi = r["_rel"].iloc[0]
            first = j == 0
            if r["status"].iloc[0] != "ok":
                ax.plot(x, 1.035, "x", color=F.FAILED, ms=9, mew=2, transform=ax.get_xaxis_transform(), clip_on=False,
                        label=f"{lab}: wrong results, no time (strip above the panel)" if first else None)   # off the ratio axis
                continue
            ax.bar(x, v, w, color=colours[lab], label=lab if first else None)
            ax.errorbar(x, v, yerr=[[v - lo], [hi - v]], color="#333333", capsize=2, lw=1)
    ax.axhline(1, color=F.KEMP, lw=1)
    ax.set_xticks(range(len(ns)), [f"n = {n}" for n in ns])
    ax.set_xlabel("vertices n (undirected cycles)")
    F.finish_axes(ax, "kernel time / fw.c as shipped (x): median, 95% CI", "Explorations 2-5 and 8 on undirected cycles",
                  xscale=None, yscale=None)
    ax.set_title(ax.get_title(), pad=18)              # room for the strip of wrong runs above the panel
    return fig
