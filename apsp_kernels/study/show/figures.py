"""The study's figures, in one style: one theme, **one colour per algorithm** in every figure
(:func:`palette`, from the registry's order: nothing else names an algorithm or picks its
colour), variants of one algorithm told apart by line and marker, one time unit per figure,
legends below their panel (never over a claimed band), panels laid out without overlap
(constrained layout).  Times and speed-ups against n with 95% intervals; sampled CPU estimates
drawn hollow and dashed; failed runs as red crosses, never as times; claimed bands shaded."""
from __future__ import annotations

import csv
import functools
import os

import numpy as np
import pandas as pd

from ... import paths
from ..method import timings as M

# CPU codes dark and muted (the sequential FW, every paper's baseline, black), GPU codes
# saturated; taken in the registry's order, each device from its own list, so that a new code
# of one kind leaves the other kind's colours alone.  Spares follow for codes beyond the lists.
CPU_COLOURS = ("#000000", "#8c564b", "#7f7f7f", "#393b79", "#637939", "#843c39", "#7b4173", "#bd9e39", "#6b6ecf")
GPU_COLOURS = ("#9467bd", "#1f77b4", "#17becf", "#ff7f0e", "#e377c2", "#2ca02c", "#bcbd22")
SPARE_COLOURS = ("#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363", "#fd8d3c", "#74c476", "#9e9ac8",
                 "#6baed6", "#fdae6b", "#a1d99b", "#bcbddc", "#ce6dbd", "#de9ed6", "#e7ba52", "#b5cf6b",
                 "#8c6d31", "#5254a3", "#ad494a", "#3f8f8f", "#c49c94", "#dbdb8d", "#9edae5")
FAILED = "#d62728"           # a failed run (never an algorithm's colour)
CLAIMED = "#f0b400"          # the claimed range, a band
KEMP = "#4d4d4d"             # Kemp's measured range (hatched) and his own points
LINESTYLES = ("-", "-.", ":", (0, (5, 1, 1, 1, 1, 1)))      # by variant (the default first)
MARKERS = ("o", "s", "^", "D", "v", "P")
SAMPLED_LINESTYLE = "--"     # a sampled CPU estimate: dashed, hollow markers
TIME_UNITS = {"ms": 1.0, "s": 1e-3}          # from the records' milliseconds
# A time's parts (the records' column names) in plain words, for legends a reader sees.
PART_LABELS = {"alloc_ms": "allocation", "h2d_ms": "copy to GPU", "kernel_ms": "kernel", "d2h_ms": "copy back"}
RC = {"svg.hashsalt": "apsp-repro", "figure.dpi": 100, "savefig.dpi": 120, "legend.fontsize": 10,
      "legend.frameon": False}


@functools.lru_cache(maxsize=None)
def _palette():
    from ...algorithms import registry
    out, taken = {}, {"cpu": iter(CPU_COLOURS), "gpu": iter(GPU_COLOURS)}
    spare = iter(SPARE_COLOURS)
    for a in registry.ALGORITHMS.values():
        c = next(taken.get(a.device, spare), None) or next(spare, None)
        if c is None:
            raise RuntimeError("more algorithms than colours: add colours to study/show/figures.py")
        out[a.name] = c
    return tuple(out.items())


def palette():
    """{algorithm: colour} for every algorithm of the registry."""
    return dict(_palette())


def colour(algorithm):
    return palette()[algorithm]


def style(algorithm, variant=None, sampled=False):
    """Colour, line and marker of one (algorithm, variant): the algorithm's colour; its variants
    (in the registry's order, the default first) by line style and marker; a sampled estimate
    dashed with hollow markers."""
    from ...algorithms import registry
    variants = [str(v) for v in registry.get(algorithm).variants]
    i = variants.index(str(variant)) if str(variant) in variants else 0
    col = colour(algorithm)
    return dict(color=col, ls=SAMPLED_LINESTYLE if sampled else LINESTYLES[i % len(LINESTYLES)],
                marker=MARKERS[i % len(MARKERS)], mfc="none" if sampled else col)


def categories(names):
    """Colours for things that are not algorithms (memory modes, the parts of a time), from a
    palette no algorithm uses."""
    import seaborn as sns
    return dict(zip(names, sns.color_palette("Set2", len(names)).as_hex()))


def theme():
    """The one theme of every figure (seaborn's whitegrid), and deterministic SVG ids."""
    import matplotlib
    import seaborn as sns
    sns.set_theme(style="whitegrid")
    matplotlib.rcParams.update(RC)
    return sns


def subplots(nrows=1, ncols=1, **kw):
    """plt.subplots in the study's theme, with constrained layout (labels and legends never run
    into the next panel)."""
    import matplotlib.pyplot as plt
    from .alt_text import attach_to_display
    theme()
    kw.setdefault("layout", "constrained")
    out = plt.subplots(nrows, ncols, **kw)
    attach_to_display()                # the figure, once shown, says what it shows (its alt text)
    return out


def time_label(unit="s", time_col="wall_ms"):
    return f"{'kernel' if time_col == 'kernel_ms' else 'end-to-end'} time ({unit}), median, 95% CI"


def plot_times(df, runs, title, ax=None, time_col="wall_ms", unit="s", *, graph):
    """``runs``: [(algorithm, variant, label)] timed on ``graph``.  Median and 95% interval per n, in ``unit``
    (one time unit per figure: seconds unless a figure says otherwise)."""
    if ax is None:
        _, ax = subplots(figsize=(8, 5))
    k = TIME_UNITS[unit]
    failed = False
    for a, v, label in runs:
        s = M.summary(df[(df["algorithm"] == a) & (df["graph"] == graph) & ((v is None) | (df["variant"].astype(str) == str(v)))
                         & ~df["params"].str.contains('"memory"', regex=False)], time_col=time_col)
        if s.empty:
            continue
        for est in ("measured", "sampled"):
            e = s[(s["estimate"] == est) & s["ok"]].sort_values("n")
            if est == "sampled":           # where a size was also run in full, the full runs are shown
                e = e[~e["n"].isin(s.loc[(s["estimate"] == "measured") & s["ok"], "n"])]
            if e.empty:
                continue
            ax.errorbar(e["n"], e["median"] * k, yerr=[(e["median"] - e["ci_lo"]) * k, (e["ci_hi"] - e["median"]) * k],
                        capsize=3, label=label + (" (sampled estimate)" if est == "sampled" else ""),
                        **style(a, v, sampled=est == "sampled"))
        bad = s[~s["ok"]]
        if len(bad):
            # a failed run has no time: marked in a strip above the panel (axes coordinates, outside
            # the plotting area), never at a time on the data axis
            ax.plot(bad["n"], np.full(len(bad), 1.035), "x", color=FAILED, ms=9, mew=2, clip_on=False,
                    transform=ax.get_xaxis_transform(), label=f"{label}: FAILED verification (no time; strip above the panel)")
            failed = True
    out = finish_axes(ax, time_label(unit, time_col), title)
    if failed:
        ax.set_title(ax.get_title(), pad=18)          # room for the strip of failed runs under the title
    return out


def _colour_side(sps):
    """Which side of the speed-ups tells the series apart: the baseline where one (algorithm,
    variant) is set against several baselines, else the algorithm."""
    nums = {(sp.attrs.get("algorithm"), str(sp.attrs.get("variant"))) for sp, _ in sps}
    bases = {(sp.attrs.get("baseline"), str(sp.attrs.get("baseline_variant"))) for sp, _ in sps}
    return "baseline" if len(nums) == 1 and len(bases) > 1 else "algorithm"


def plot_speedups(ax, sps, claimed=None, kemp=None, title="", ylabel="speed-up (x)", points=None):
    """``sps``: [(DataFrame from measurements.speedups, label)], coloured by the algorithm they
    compare (or by the baseline where one algorithm is set against several); hollow markers where
    the baseline is a sampled estimate; the claimed range as a band, Kemp's measured range
    hatched, ``points``: (label, {n: value}) Kemp's own numbers as stars."""
    theme()
    side = _colour_side(sps)
    for sp, label in sps:
        if sp.empty:
            continue
        a = sp.attrs.get(side)
        st = style(a, sp.attrs.get("variant" if side == "algorithm" else "baseline_variant")) if a else \
            dict(color="#555555", ls="-", marker="o", mfc="#555555")
        sp = sp.sort_values("n")
        ax.errorbar(sp["n"], sp["speedup"], yerr=[sp["speedup"] - sp["ci_lo"], sp["ci_hi"] - sp["speedup"]],
                    color=st["color"], ls=st["ls"], capsize=3, marker="", label=label)
        s = sp[sp.get("baseline_timed", pd.Series("measured", index=sp.index)) == "sampled"]
        m = sp.drop(s.index)
        ax.plot(m["n"], m["speedup"], st["marker"], color=st["color"])
        ax.plot(s["n"], s["speedup"], st["marker"], mfc="none", color=st["color"])
    for rng, lab, kw in ((claimed, "claimed", dict(color=CLAIMED, alpha=0.25, lw=0)),
                         (kemp, "Kemp measured", dict(facecolor="none", edgecolor=KEMP, hatch="//", lw=0, alpha=0.6))):
        if rng:
            lo, hi = rng
            if lo == hi:
                ax.axhline(lo, color=kw.get("color", KEMP), ls=":", lw=1.5, label=f"{lab}: {lo:g}x")
            else:
                ax.axhspan(lo, hi, label=f"{lab}: {lo:g}-{hi:g}x", **kw)
    if points:
        lab, pts = points
        ax.plot(list(pts), list(pts.values()), "*", ms=14, color=KEMP, label=lab)
    ax.plot([], [], "o", mfc="none", color="grey", label="hollow: baseline is a sampled estimate")
    return finish_axes(ax, ylabel, title)


def finish_axes(ax, ylabel, title, xscale=("log", 2), yscale="log"):
    """Every study plot: log2 n against a log scale, the legend below the panel."""
    if xscale:
        ax.set_xscale(xscale[0], base=xscale[1])
        ax.set_xlabel("vertices n")
    if yscale:
        ax.set_yscale(yscale)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    legend_below(ax)
    return ax


def legend_below(ax, ncol=None):
    """The legend under the panel, clear of its tick labels and axis label: never over the data
    or a claimed band."""
    from matplotlib.transforms import ScaledTranslation
    from matplotlib.container import ErrorbarContainer
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    # the data first (errorbar series), then what they are read against (bands, Kemp's points)
    order = sorted(range(len(handles)), key=lambda i: not isinstance(handles[i], ErrorbarContainer))
    handles, labels = [handles[i] for i in order], [labels[i] for i in order]
    fig = ax.figure
    r = fig.canvas.get_renderer()
    gap = (ax.get_window_extent(r).y0 - ax.get_tightbbox(r).y0) / fig.dpi + 0.05      # inches
    shift = ScaledTranslation(0, -gap, fig.dpi_scale_trans)
    return ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0), bbox_transform=ax.transAxes + shift,
                     ncol=ncol or (2 if len(handles) > 4 else 1))


def legend_outside(fig, ax, ncol=None):
    """One legend for panels that share their series (memory modes), below the figure."""
    handles, labels = ax.get_legend_handles_labels()
    return fig.legend(handles, labels, loc="outside lower center", ncol=ncol or min(len(handles), 5))


def save_figure(fig, name, profile_name="paper", notebook=None, run=None, commit=None):
    """figures/<name>.png and .svg for the paper and full profiles (the committed reference
    figures; ``figures/MANIFEST.csv`` records figure, notebook, run, commit); other profiles
    write under figures/<profile>/ so they never overwrite them."""
    import matplotlib
    from .alt_text import attach_to_display
    attach_to_display()                # shown next (plt.show), the figure carries its alt text
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
