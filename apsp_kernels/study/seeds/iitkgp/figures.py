"""Notebook 10's figures in the study's style (:mod:`.figures`: one colour per algorithm, variants by line,
sampled estimates hollow, legends below the panels): the seed's graphs and where ours came from, and its
Figs. 3-6 (BFS, SSSP, coarsening, APSP times and speed-ups per graph).  Each figure function returns None
where the batch holds nothing to draw, and the notebook says so instead of drawing an empty figure.  Every
graph is named with its origin: the real file, a stand-in, or generated as in the seed.  Which codes each
figure sets side by side, and their legends: data/codes.yaml (section iitkgp)."""
from __future__ import annotations

import numpy as np

from ....algorithms import registry
from ....io import catalogue
from ...method import codes as codes_mod
from ...show import figures as F
from . import load as R
from ...method import estimate
from .spec import density

CLASSES = {"uniform": "s", "power_law": "o", "geometric": "^"}
CODES = codes_mod.load("iitkgp")


def _legend(name):
    """[(algorithm, variant, label)] of one figure's codes, in its legend's order."""
    return [(c.algorithm, c.variant, label) for label, c in CODES[name].items()]


def _origins(df):
    return {e.name: (R.origin(df, e.name) if not df.empty else "not measured") for e in catalogue.SEED001}


def graphs_figure(df):
    """The nine graphs of §6.1 (density against n), marked by class, coloured by where ours came from."""
    fig, ax = F.subplots(figsize=(9, 5.5))
    org = _origins(df)
    col = F.categories(["real file", "stand-in", "generated as in the seed", "not measured"])
    seen = set()
    for e in catalogue.SEED001:
        x, y = e.n, density(e.n, e.m)
        lab = f"{org[e.name]} ({e.kind.replace('_', '-')})"
        ax.plot([x], [y], CLASSES[e.kind], ms=9, color=col[org[e.name]], label=None if lab in seen else lab)
        seen.add(lab)
        ax.annotate(f"{e.name} ({', '.join(e.places)})", (x, y), textcoords="offset points", fontsize=8,
                    xytext=(6, -12) if e.name == "gene-4412" else (6, 4))       # beside ego-facebook: below it
    ax.set_xscale("log")
    return F.finish_axes(ax, "density: average degree / n", "Seed 001's graphs (§6.1): class and origin here",
                         xscale=("log", 10)).figure


def _graph_axis(ax, df, graphs):
    ax.set_xticks(range(len(graphs)))
    ax.set_xticklabels([f"G{i + 1} {g}\n{R.origin(df, g)}" for i, g in enumerate(graphs)], fontsize=7)
    ax.set_xlim(-0.5, len(graphs) - 0.5)


def _times(ax, df, graphs, runs, unit="ms", time="end_to_end"):
    """Median time and 95% interval per graph for each (algorithm, variant, label); sampled hollow."""
    k = F.TIME_UNITS[unit]
    for j, (a, v, lab) in enumerate(runs):
        for kind in ("measured", "sampled"):
            xs, ys, lo, hi = [], [], [], []
            for i, g in enumerate(graphs):
                r, how = R.runs(df, g, a, v, R.col_for(a, time))
                if r.size and how == kind:
                    m, l, h = estimate.interval(r)
                    xs.append(i + (j - len(runs) / 2) * 0.06)
                    ys.append(m * k)
                    lo.append((m - (l if l == l else m)) * k)
                    hi.append(((h if h == h else m) - m) * k)
            if xs:
                st = F.style(a, v, sampled=kind == "sampled")
                ax.errorbar(xs, ys, yerr=[lo, hi], capsize=3, ls="none", marker=st["marker"], color=st["color"],
                            mfc=st["mfc"], label=lab + (" (sampled estimate)" if kind == "sampled" else ""))
    _graph_axis(ax, df, graphs)
    return F.finish_axes(ax, F.time_label(unit, "kernel_ms" if time == "kernel" else "wall_ms"), "", xscale=None)


def _ratio_bars(ax, pts, **style):
    """``pts`` [(x, ratio)]: the ratios that have a value, with their 95% intervals (an end that could
    not be formed is the value itself); nothing where none has."""
    pts = [(x, p) for x, p in pts if p["v"] == p["v"]]
    if pts:
        end = lambda k: np.array([p[k] if p[k] == p[k] else p["v"] for _, p in pts])
        x, v, lo, hi = np.array([x for x, _ in pts]), np.array([p["v"] for _, p in pts]), end("lo"), end("hi")
        ax.errorbar(x, v, yerr=[v - lo, hi - v], capsize=3, **style)


def _speedups(ax, df, graphs, series, title, bands=()):
    """Per graph: ``series`` [(num codes, den codes, label, algorithm for the colour, time)] as speed-ups
    time(num) / time(den) with their intervals; kernel-only hollow; ``bands`` [(lo, hi, label)]."""
    for j, (num, den, lab, a, time) in enumerate(series):
        st, off = F.style(a, den[0][1] if den[0][0] == a else num[0][1]), (j - len(series) / 2) * 0.06
        _ratio_bars(ax, [(i + off, R.ratio(df, g, num, den, time)) for i, g in enumerate(graphs)], ls="none",
                    marker=st["marker"], color=st["color"], mfc="none" if time == "kernel" else st["color"],
                    label=lab + (" (kernel-only)" if time == "kernel" else ""))
    for lo, hi, lab in bands:
        if lo == hi:
            ax.axhline(lo, color=F.CLAIMED, ls=":", lw=1.5, label=lab)
        else:
            ax.axhspan(lo, hi, color=F.CLAIMED, alpha=0.25, lw=0, label=lab)
    ax.axhline(1, color="grey", lw=0.8)
    _graph_axis(ax, df, graphs)
    return F.finish_axes(ax, "speed-up (x), 95% CI", title, xscale=None)


def _has(df, stage):
    return not df.empty and ((df["stage"] == stage) & (df["status"] == "ok") & (df["device"] == "gpu")).any()


def _stage_graphs(df, stage):
    order = [e.name for e in catalogue.SEED001]
    return [g for g in order if ((df["stage"] == stage) & (df["graph"] == g)).any()]


def _stage_figure(df, stage, codes, title, speedups, height=6, unit="ms"):
    """The two panels of Figs. 3, 4 and 6: the stage's times per graph for ``codes`` (left, ``title``), and
    ``speedups(ax, graphs)`` drawing its speed-ups on the right; None where no verified GPU run has it."""
    if not _has(df, stage):
        return None
    gs = _stage_graphs(df, stage)
    fig, (a1, a2) = F.subplots(1, 2, figsize=(15, height))
    _times(a1, df, gs, codes, unit=unit).set_title(title)
    speedups(a2, gs)
    return fig


def bfs_figure(df):
    """Fig. 3: BFS times per graph, and each GPU code's speed-up over the sequential BFS."""
    codes = _legend("bfs")
    cpu = [codes[0][:2]]
    return _stage_figure(df, "bfs", codes, "Fig. 3: one BFS from a random source (median over sources)",
                         lambda ax, gs: _speedups(ax, df, gs, [(cpu, [(a, v)], lab, a, t) for a, v, lab in codes[1:]
                                                               for t in ("end_to_end", "kernel")],
                                                  "over the sequential BFS"))


def sssp_figure(df):
    """Fig. 4: single-source SSSP times per graph, and the speed-up against the seed's density."""
    codes = _legend("sssp")
    cpu, gpu = [codes[0][:2]], [codes[1][:2]]

    def against_density(ax, gs):
        st = F.style(*gpu[0])
        for t, mfc in (("end_to_end", st["color"]), ("kernel", "none")):
            _ratio_bars(ax, [(float(df.loc[df["graph"] == g, "density"].dropna().iloc[0]),
                              R.ratio(df, g, cpu, gpu, t)) for g in gs],
                        ls="none", marker="o", color=st["color"], mfc=mfc,
                        label="corrected over Dijkstra" + (" (kernel-only)" if t == "kernel" else ""))
        ax.plot([0.5, 7e-6], [3.9, 94.4], "*", ms=14, color=F.KEMP, label="claimed: 3.9x at 0.5, 94.4x at 7e-6 (the seed's densities)")
        ax.set_xscale("log")
        ax.set_xlabel("density")
        F.finish_axes(ax, "speed-up (x), 95% CI", "against the seed's density (average degree / n)", xscale=None)

    return _stage_figure(df, "sssp", codes, "Fig. 4: one SSSP from a random source (median over sources)",
                         against_density)


def coarsening_figure(df):
    """Fig. 5: the speed-up over Dijkstra against the coarsening factor, one line per graph."""
    if not _has(df, "coarsen"):
        return None
    gs = _stage_graphs(df, "coarsen")
    fig, ax = F.subplots(figsize=(9, 6))
    col = F.categories(gs)
    coarsened, cpu = CODES["coarsened"].algorithm, [_legend("sssp")[0][:2]]
    factors = registry.get(coarsened).variants
    for g in gs:
        _ratio_bars(ax, [(cf, R.ratio(df, g, cpu, [(coarsened, cf)]))
                         for cf in factors], marker="o", color=col[g], label=R.label(df, g))
    ax.axhline(1, color="grey", lw=0.8, label="as fast as the CPU")
    ax.set_xscale("log", base=2)
    ax.set_xticks(list(factors), [str(f) for f in factors])
    ax.set_xlabel("coarsening factor CF")
    F.finish_axes(ax, "speed-up over Dijkstra (x), end-to-end, 95% CI", "Fig. 5: SSSP with thread coarsening", xscale=None)
    return fig


def apsp_figure(df):
    """Fig. 6: APSP times per graph, and the speed-ups the seed claims (bands: its numbers)."""
    seq, par = (list(map(tuple, CODES[k])) for k in ("sequential", "other_gpu"))
    kk, naive = tuple(CODES["blocked"]), tuple(CODES["naive"])
    series = [(seq, [kk], "blocked FW over the best sequential", kk[0], "end_to_end"),
              (par, [kk], "blocked FW over the best other GPU code", par[-1][0], "end_to_end"),
              (seq, [naive], "naive FW over the best sequential", naive[0], "end_to_end")]
    bands = [(500, 4000, "claimed: 500-4000x (blocked FW)"), (20, 20, "claimed: at least 20x (blocked FW over GPU codes)"),
             (6, 7, "claimed: 6-7x (naive FW)")]
    return _stage_figure(df, "apsp", _legend("apsp"), "Fig. 6: APSP times",
                         lambda ax, gs: _speedups(ax, df, gs, series, "speed-ups the seed claims", bands=bands),
                         height=6.5, unit="s")


STAGE_FIGURES = {"bfs": ("fig3_iitkgp_bfs", bfs_figure), "sssp": ("fig4_iitkgp_sssp", sssp_figure),
                 "coarsen": ("fig5_iitkgp_coarsening", coarsening_figure), "apsp": ("fig6_iitkgp_apsp", apsp_figure)}


def show_stage(rep, stage, profile, meta):
    """A stage's figure (saved as the study saves figures) and its table of times, or why there is none."""
    import matplotlib.pyplot as plt
    from IPython.display import Markdown, display
    from ...show import tables
    name, draw = STAGE_FIGURES[stage]
    fig = draw(rep.df)
    if fig is None:
        why = R.NOT_RUN if not rep.measured else f"the batch holds no verified GPU run of the {stage} stage"
        display(Markdown(f"*Not drawn: {why}.*"))
        return None
    F.save_figure(fig, name, profile, **meta)
    plt.show()
    display(tables.show(R.summary(rep.df, stage)))
    return fig
