"""What the claim notebooks share: profiles, sweeps with verification, recorded-results
fallback, speed-up tables, verdict tables and figures.  Notebooks stay thin."""
from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from . import claims as claims_mod
from . import generators, gpu, harness, registry
from .verify import fletcher64

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "figures"
CACHE = Path(os.environ.get("APSP_CACHE_DIR") or ROOT / "data" / "cache")

# What each profile measures.  Keys:
#   cpu_sizes   notebook 00's sizes; gpu_sizes: the claim notebooks' sizes (Kemp's graphs)
#   seq_cap     largest n for the single-thread CPU codes (above: fitted c n^3, marked extrapolated)
#   par_cap     largest n for the multi-threaded blocked CPU FW;  minplus_cap: CPU min-plus squaring
#   cubic_cap   largest n for the GPU kernels that sweep the whole matrix once per k (Hochberg,
#               Tran FW, Thrust-style, Tran min-plus): they take 20-50 s each at n = 21504
#   ooc_cap     largest n for the forced out-of-core sweep; ooc_big: (n, budget MiB), a graph
#               larger than the device budget;  race_sizes: small graphs for Harish's race
#   variant_cap largest n for Harish's original and corrected variants (atomic: all sizes)
#   degree_n / degrees: graph size and (min, max) out-degree ranges of the density study
#   mem_sizes   the host memory mode sweep (seed 003 goes from 16 vertices up)
#   repeats     timed repeats per size, ``repeats_large`` above ``large_n``; one untimed
#               warm-up per algorithm at the first size of a sweep (JIT compile, CuPy pool)
PROFILES = {
    "smoke": dict(variant_cap=256, cpu_sizes=[64, 128, 256], gpu_sizes=[128, 256], seq_cap=256, par_cap=256, minplus_cap=128,
                  cubic_cap=256, ooc_cap=256, ooc_big=(512, 0.5), race_sizes=[32, 64], degree_n=256,
                  degrees=[(2, 6), (16, 24)], mem_sizes=[16, 64, 256], repeats=1, large_n=256, repeats_large=1),
    "quick": dict(variant_cap=2048, cpu_sizes=[256, 512, 1024], gpu_sizes=[1024, 2048, 4096], seq_cap=1024, par_cap=2048,
                  minplus_cap=512, cubic_cap=4096, ooc_cap=2048, ooc_big=(4096, 16), race_sizes=[64, 256, 512],
                  degree_n=1024, degrees=[(2, 6), (8, 12), (16, 24)], mem_sizes=[16, 64, 256, 1024],
                  repeats=3, large_n=2048, repeats_large=2),
    "paper": dict(variant_cap=8192, cpu_sizes=[512, 1024, 2048, 3072],
                  gpu_sizes=[1024, 2048, 3072, 4096, 6144, 8192, 10240, 12288, 16384, 19456, 21504],
                  seq_cap=3072, par_cap=4096, minplus_cap=1024, cubic_cap=12288, ooc_cap=12288,
                  ooc_big=(16384, 512), race_sizes=[64, 128, 256, 512, 1024], degree_n=2048,
                  degrees=[(2, 6), (8, 12), (16, 24), (32, 48)],
                  mem_sizes=[16, 32, 64, 128, 256, 512, 1024, 2048], repeats=3, large_n=2048, repeats_large=2),
    "full": dict(variant_cap=21504, cpu_sizes=[512, 1024, 2048, 3072, 4096], gpu_sizes=list(generators.KEMP_SIZES), seq_cap=4096,
                 par_cap=8192, minplus_cap=2048, cubic_cap=21504, ooc_cap=21504, ooc_big=(21504, 1024),
                 race_sizes=[64, 128, 256, 512, 1024, 2048], degree_n=4096,
                 degrees=[(2, 6), (8, 12), (16, 24), (32, 48), (64, 96)],
                 mem_sizes=[16, 32, 64, 128, 256, 512, 1024, 2048, 4096], repeats=5, large_n=8192, repeats_large=3),
}


def profile(name):
    if name not in PROFILES:
        raise ValueError(f"unknown profile {name!r}; one of {sorted(PROFILES)}")
    return dict(PROFILES[name], name=name)


def sizes_upto(P, cap, *lists):
    """Sorted union of the profile's CPU and GPU sizes (or ``lists``) up to ``cap``."""
    pool = set().union(*lists) if lists else set(P["cpu_sizes"]) | set(P["gpu_sizes"])
    return sorted(n for n in pool if n <= cap)


def repeats_for(P, n):
    return P["repeats"] if n <= P["large_n"] else P["repeats_large"]


def kemp_graph(n, seed=0, min_degree=2, max_degree=6):
    return generators.kemp(n, min_degree, max_degree, 1, 1000, seed=seed + n)


def _graph_key(g):
    h = hashlib.sha1()
    for a in (g.indptr, g.indices, g.weights):
        h.update(np.ascontiguousarray(a).tobytes())
    return f"{g.n}-{g.m}-{h.hexdigest()}"


def reference_checksum(g):
    """Fletcher-64 of the exact distances, from the parallel CPU Dijkstra (checked against
    scipy in the tests); large matrices are compared by checksum, as seed 003 does.
    Cached on disk by a hash of the graph, so notebooks of one batch solve each graph once."""
    from .cpu import dijkstra_apsp
    cache = CACHE / "reference_checksums.json"
    key = _graph_key(g)
    known = json.loads(cache.read_text()) if cache.exists() else {}
    if key in known:
        return int(known[key], 16)
    value = fletcher64(dijkstra_apsp(g, parallel=True))
    CACHE.mkdir(parents=True, exist_ok=True)
    known = json.loads(cache.read_text()) if cache.exists() else {}
    known[key] = f"{value:016x}"
    tmp = cache.with_suffix(".tmp")
    tmp.write_text(json.dumps(known, indent=0))
    tmp.replace(cache)
    return value


# ------------------------------------------------------ reuse within one batch
def batch_id():
    """``run_all.sh`` sets APSP_BATCH so that notebooks of one batch share measurements: a
    record (same algorithm, variant, parameters and graph) measured by an earlier notebook of
    the batch is reused, not re-measured.  Interactive runs have no batch and measure all."""
    return os.environ.get("APSP_BATCH") or None


_WARMED = set()   # (algorithm, variant, params) warmed up in this process
_KEY = ["algorithm", "variant", "params", "n", "m", "graph_seed", "generator"]   # what makes a record reusable


def _batch_records(batch):
    frames = []
    for f in sorted(harness.RESULTS_DIR.glob(f"{batch}-*/results.csv")):
        df = harness.read_records(f)
        if "reused_from" in df:
            df = df[df["reused_from"].isna()]           # only first-hand measurements
        frames.append(df.assign(reused_from=f.parent.name))
    return pd.concat(frames, ignore_index=True) if frames else None


def sweep(runs, sizes, *, repeats=3, warmup=1, seed=0, graph=kemp_graph, desc="sweep", tag=None, reuse=True):
    """``runs``: list of (algorithm name, variant, params dict).  Every run is verified.

    ``repeats``: an int or a function of n.  Warm-up runs only at the first size (kernels
    compiled, pools filled); later sizes go straight to the timed repeats.
    """
    prior = _batch_records(batch_id()) if reuse and batch_id() else None
    recs = []
    for n in harness._progress(sizes, desc=desc):
        g = graph(n, seed)
        ref = None
        reps = repeats(n) if callable(repeats) else repeats
        for name, variant, params in runs:
            algo = registry.get(name)
            v = str(variant if variant is not None else algo.default_variant)
            pj = json.dumps(dict(params or {}), sort_keys=True)
            if prior is not None:
                want = dict(zip(_KEY, (name, v, pj, g.n, g.m, g.meta.get("seed"), g.meta.get("generator"))))
                hit = prior[np.logical_and.reduce([prior[k] == x for k, x in want.items()])]
                if len(hit):
                    hit = hit[hit["reused_from"] == hit["reused_from"].iloc[0]]   # one run's records
                if len(hit) >= reps:
                    recs += [dict(r, tag=tag) for r in hit.to_dict("records")]
                    continue
            if ref is None:
                t0 = time.perf_counter()
                ref = reference_checksum(g)
                if os.environ.get("APSP_VERBOSE"):
                    print(f"  [{desc}] reference n={n}: {time.perf_counter() - t0:.1f} s", file=sys.__stderr__, flush=True)
            key = (name, v, pj)
            w = warmup if key not in _WARMED else 0
            _WARMED.add(key)
            t0 = time.perf_counter()
            new = harness.measure(algo, g, variant=variant, repeats=reps, warmup=w, reference=ref,
                                  params=params, extra={"tag": tag})
            recs += new
            if os.environ.get("APSP_VERBOSE"):      # batch logs on the console, not in the report
                print(f"  [{desc}] {name}/{v} n={n}: {len(new)} runs, {new[-1]['status']}, "
                      f"{time.perf_counter() - t0:.1f} s", file=sys.__stderr__, flush=True)
    return pd.DataFrame(recs)             # variants are text already (harness.measure)


def tagged(df, tag=None):
    """The records of one sweep of a notebook: ``tag=None`` is the main size sweep."""
    if "tag" not in df:
        return df if tag is None else df.iloc[0:0]
    return df[df["tag"].isna()] if tag is None else df[df["tag"] == tag]


def memory_mode(df):
    """The host memory mode of each record (from its parameters); CPU runs are 'host'."""
    return df["params"].map(lambda p: json.loads(p).get("memory", "pageable") if isinstance(p, str) else "pageable") \
        .where(df["device"] == "gpu", "host")


def run_id(profile_name, label):
    batch = batch_id()
    return f"{batch}-{profile_name}-{label}" if batch else harness.new_run_id(f"{profile_name}-{label}")


def measured_or_recorded(label, measure, source="measure", needs_gpu=True, profile_name=None, parameters=None):
    """Measure (and save under data/results/<run-id>-<label>/) or load the recorded reference run.

    Returns (DataFrame, provenance dict, note).  ``source="recorded"`` or no GPU where one is
    needed: the newest recorded run for ``label`` (this profile's, else the ``paper`` one) is
    used, CPU baselines included, so that every speed-up divides times taken on one machine.
    """
    if source not in ("measure", "recorded"):
        raise ValueError(f"source must be 'measure' or 'recorded', got {source!r}")
    if source == "measure" and (not needs_gpu or gpu.available()):
        df = measure()
        out = harness.save_results(df, run_id(profile_name, label), profile_name, parameters)
        prov = json.loads((out / "provenance.json").read_text())
        prov.update(run_dir=str(out.relative_to(ROOT)), measured_now=True)
        return df, prov, (f"Measured now on {prov.get('gpu') or 'the CPU'} with {prov.get('cpu')} "
                          f"({prov['timestamp']}), saved in `{out.relative_to(ROOT)}`.")
    run = harness.latest_run(f"{profile_name}-{label}") or harness.latest_run(f"paper-{label}")
    if run is None:
        raise FileNotFoundError(f"no recorded results for {label!r} under {harness.RESULTS_DIR} "
                                f"and no GPU to measure them ({gpu.gpu_status()[1]})")
    df, prov = harness.load_results(run)
    prov.update(run_dir=str(run.relative_to(ROOT)), measured_now=False)
    why = "requested" if source == "recorded" else f"no GPU here: {gpu.gpu_status()[1]}"
    return df, prov, (f"**RECORDED results** ({why}): measured on {prov.get('gpu')} with {prov.get('cpu')} "
                      f"at {prov['timestamp']}, commit {str(prov.get('git_commit'))[:12]}, profile "
                      f"{prov.get('profile')}, from `{run.relative_to(ROOT)}`. Nothing GPU-related was run now.")


summarise = harness.summarise      # the notebooks' name for it


def with_extrapolated(summary, baselines, sizes):
    """Append fitted c n^3 rows (``extrapolated=True``) for each baseline at ``sizes`` it lacks."""
    parts = [summary]
    for b in baselines:
        if ((summary["algorithm"] == b) & summary["ok"]).any():
            ext, _ = harness.extrapolate(summary, b, sizes)
            parts.append(ext)
    out = pd.concat(parts, ignore_index=True)
    out["extrapolated"] = out["extrapolated"].fillna(False).astype(bool)
    return out


def speedups(summary, algorithm, baseline, variant=None, baseline_variant=None):
    """Per n: baseline median / algorithm median (both verified), with extrapolation marked."""
    a = summary[(summary["algorithm"] == algorithm) & summary["ok"]]
    if variant is not None:
        a = a[a["variant"].astype(str) == str(variant)]
    b = summary[(summary["algorithm"] == baseline) & summary["ok"]]
    if baseline_variant is not None:
        b = b[b["variant"].astype(str) == str(baseline_variant)]
    m = a.merge(b, on="n", suffixes=("", "_base"))
    return pd.DataFrame(dict(n=m["n"], speedup=m["median_base"] / m["median"],
                             baseline_extrapolated=m["extrapolated_base"].astype(bool) | m["extrapolated"].astype(bool)))


def measured_points(sp):
    """The speed-ups whose both times were measured (no extrapolation)."""
    return sp[~sp["baseline_extrapolated"]]


def claim_rows(claim_ids, measured, device=None):
    """Verdict table.  ``measured``: {claim id: (Series of speed-ups, note)} or
    {claim id: dict(values=..., note=..., verdict=..., ours=...)} for claims that are not a
    speed-up range (trends, crossovers); ``verdict`` then overrides the range rule."""
    all_claims = claims_mod.load()
    rows = []
    for cid in claim_ids:
        c = all_claims[cid]
        m = measured.get(cid, (None, "not measured"))
        if isinstance(m, tuple):
            m = dict(values=m[0], note=m[1])
        s = m.get("values")
        s = pd.Series([] if s is None else s, dtype=float).dropna()
        med, lo, hi = (float(s.median()), float(s.min()), float(s.max())) if len(s) else (np.nan,) * 3
        # same ordering as claimed: the GPU code faster (a slow-down claim: slower) than its baseline
        verdict = m.get("verdict") or claims_mod.verdict(c.get("claimed"), lo if len(s) else None,
                                                       hi if len(s) else None, same_direction=bool(med > 1))
        ours = m.get("ours") or (f"{med:.3g}x (min {lo:.3g}x, max {hi:.3g}x)" if len(s) else "-")
        rows.append({"claim": cid, "source": c["source"],
                     "claimed": c.get("detail") if c.get("kind") in ("trend", "crossover_n") and c.get("detail")
                     else claims_mod.fmt_range(c.get("claimed")),
                     "original hardware": c.get("original_hardware", ""),
                     "Kemp measured": (f"near n = {c['kemp'][0]:g}" + (f"-{c['kemp'][1]:g}" if c["kemp"][1] != c["kemp"][0] else "")
                                       if c.get("kind") == "crossover_n" and c.get("kemp") else claims_mod.fmt_range(c.get("kemp"))),
                     "ours": ours, "verdict": verdict, "note": m.get("note", ""),
                     "ours_median": med, "ours_min": lo, "ours_max": hi,
                     # stricter than the verdict rule (which asks only that the ranges overlap)
                     "median in claimed range": ("-" if not c.get("claimed") or med != med or c.get("kind") == "crossover_n"
                                                 else "yes" if c["claimed"][0] <= med <= c["claimed"][1] else "no"),
                     "claimed_low": (c.get("claimed") or [np.nan])[0], "claimed_high": (c.get("claimed") or [np.nan, np.nan])[-1],
                     "kemp_low": (c.get("kemp") or [np.nan])[0], "kemp_high": (c.get("kemp") or [np.nan, np.nan])[-1],
                     "device": device or ""})
    return pd.DataFrame(rows)


SHOWN = ["claim", "source", "claimed", "original hardware", "Kemp measured", "ours", "verdict",
         "median in claimed range", "note"]


def save_figure(fig, name, profile_name="paper"):
    """figures/<name>.png and .svg for the paper and full profiles (the committed reference
    figures); other profiles write under figures/<profile>/ so they never overwrite them."""
    d = FIGURES if profile_name in ("paper", "full") else FIGURES / str(profile_name)
    d.mkdir(parents=True, exist_ok=True)
    import matplotlib
    with matplotlib.rc_context({"svg.hashsalt": "apsp-repro"}):      # same data, same SVG bytes
        for ext in ("png", "svg"):
            fig.savefig(d / f"{name}.{ext}", bbox_inches="tight", dpi=120, metadata={"Date": None})
    return d / f"{name}.png"


def plot_times(summary, title, ax=None, label_col="label"):
    """log-log time vs n; extrapolated points hollow and dashed, failures as red crosses."""
    import matplotlib.pyplot as plt
    import seaborn as sns
    sns.set_theme(style="whitegrid")
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 5))
    s = summary.copy()
    if label_col not in s:
        s[label_col] = [a if str(v) in ("None", "nan") else f"{a} ({v})"
                        for a, v in zip(s["algorithm"], s["variant"])]
    palette = dict(zip(sorted(s[label_col].unique()), sns.color_palette("tab10", s[label_col].nunique())))
    for lab, grp in s.groupby(label_col):
        grp = grp.sort_values("n")
        meas = grp[grp["ok"] & ~grp["extrapolated"]]
        ext = grp[grp["ok"] & grp["extrapolated"]]
        ax.errorbar(meas["n"], meas["median"] / 1e3,
                    yerr=[(meas["median"] - meas["min"]) / 1e3, (meas["max"] - meas["median"]) / 1e3],
                    marker="o", label=lab, color=palette[lab], capsize=3)
        if len(ext):
            edge = pd.concat([meas.tail(1), ext])
            ax.plot(edge["n"], edge["median"] / 1e3, ls="--", marker="o", mfc="none", color=palette[lab],
                    label=f"{lab} (extrapolated, c n^3)")
        bad = grp[~grp["ok"]]
        if len(bad):
            ax.plot(bad["n"], np.full(len(bad), ax.get_ylim()[1] if ax.has_data() else 1), "x", color="red",
                    ms=10, label=f"{lab}: FAILED verification")
    return _finish_axes(ax, "time (s), median with min-max", title, 8)


def _finish_axes(ax, ylabel, title, legend_size):
    """Both study plots: log2 n against a log scale."""
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("vertices n")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=legend_size)
    return ax


REPORTS = ROOT / "reports"


def publish_verdicts(notebook, table: pd.DataFrame, prov=None):
    """Write the notebook's claim table where the report index and notebook 07 find it
    (reports/verdicts/<notebook>.csv) and, for a run measured now, beside its results.
    Returns the columns a reader wants, for display."""
    d = REPORTS / "verdicts"
    d.mkdir(parents=True, exist_ok=True)
    if prov:
        table = table.assign(results=prov.get("run_dir", ""), profile=prov.get("profile", ""))
    table.to_csv(d / f"{notebook}.csv", index=False)
    if prov and prov.get("measured_now") and prov.get("run_dir"):
        table.assign(notebook=notebook).to_csv(ROOT / prov["run_dir"] / "verdicts.csv", index=False)
    shown = table[[c for c in SHOWN if c in table]]
    return shown.style.hide(axis="index").set_properties(**{"text-align": "left", "vertical-align": "top"})


# ------------------------------------------------------------ helpers the claim notebooks share
def show_runs(note, summary):
    """What every claim notebook says first: where the numbers come from, and which runs failed."""
    from IPython.display import Markdown, display
    display(Markdown(note))
    bad = failures(summary)
    if bad.empty:
        display(Markdown("Every run was **verified** against the CPU reference (Fletcher-64 of the exact distances)."))
    else:
        display(Markdown("**Runs that FAILED verification or raised** (never plotted as times):"))
        display(bad)


def failures(summary):
    """Groups that failed verification or raised: shown in every notebook, never plotted as times."""
    cols = [c for c in ("algorithm", "variant", "n", "tag", "runs", "failed", "error") if c in summary]
    return summary.loc[~summary["ok"], cols]


def claim_values(sp):
    """Speed-ups a verdict uses: the measured points if there are any, else the ones with an
    extrapolated baseline (and the note says so)."""
    meas = measured_points(sp)
    if len(meas):
        ns = sorted(meas["n"])
        return meas["speedup"], f"measured at n = {', '.join(map(str, ns))}"
    if len(sp):
        return sp["speedup"], "baseline EXTRAPOLATED (c n^3 fit) at every n"
    return sp["speedup"], "no comparable sizes"


def crossover(summary, a, b, variant_a=None, variant_b=None):
    """Smallest n at which ``a`` becomes faster than ``b`` (medians, log-log interpolation between
    the bracketing sizes); None if it never does over the measured range, 0 if it always is."""
    sa = summary[(summary["algorithm"] == a) & summary["ok"]]
    sb = summary[(summary["algorithm"] == b) & summary["ok"]]
    if variant_a is not None:
        sa = sa[sa["variant"] == str(variant_a)]
    if variant_b is not None:
        sb = sb[sb["variant"] == str(variant_b)]
    m = sa.merge(sb, on="n", suffixes=("_a", "_b")).sort_values("n")
    if m.empty:
        return None
    r = np.log(m["median_a"].to_numpy() / m["median_b"].to_numpy())   # < 0: a faster
    n = m["n"].to_numpy(float)
    if r[0] < 0:
        return 0.0
    for i in range(1, len(r)):
        if r[i] < 0:
            x0, x1 = np.log(n[i - 1]), np.log(n[i])
            return float(np.exp(x0 + (x1 - x0) * r[i - 1] / (r[i - 1] - r[i])))
    return None


def ooc_budget(n, block, partitions):
    """Device bytes that make Kemp's out-of-core KK split the graph into ``partitions`` parts,
    as Kemp forced his small graphs through the partitioned path."""
    N = -(-max(n, 1) // block) * block
    nb = N // block
    strip = block * N * 4
    return int((2 + -(-nb // partitions)) * strip)


CUBIC = ("hochberg_naive", "tran_fw", "thrust_fw", "tran_minplus")


def gpu_runs(P, n, ooc_partitions=4, include=None):
    """Every GPU algorithm and variant the profile measures at size ``n`` (the one list that
    notebooks 01-06 draw from, so that the batch reuses what an earlier notebook measured).
    ``include``: names, or "name:variant" for one variant."""
    out = []
    for a in registry.by_device("gpu"):
        if include is not None and a.name not in include and not any(i.startswith(a.name + ":") for i in include):
            continue
        if a.name in CUBIC and n > P["cubic_cap"]:
            continue
        for v in a.variants:
            if include is not None and a.name not in include and f"{a.name}:{v}" not in include:
                continue
            if a.name == "kemp_ooc":
                if n <= P["ooc_cap"]:
                    out.append((a.name, v, {"budget_bytes": ooc_budget(n, v, ooc_partitions)}))
            elif a.name == "harish" and v != "atomic":
                if n <= P["variant_cap"]:
                    out.append((a.name, v, {}))
            else:
                out.append((a.name, v, {}))
    return out


def sweep_gpu(P, sizes, seed=0, include=None, ooc_partitions=4, desc="GPU"):
    """``gpu_runs`` at each size (a sweep per size, since the run list depends on n)."""
    frames = [sweep(gpu_runs(P, n, ooc_partitions, include), [n], repeats=lambda k: repeats_for(P, k),
                    seed=seed, desc=f"{desc} n={n}") for n in sizes]
    frames = [f for f in frames if len(f)]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def sweep_cpu(P, names, cap, seed=0, sizes=None, desc="CPU"):
    """CPU baselines (default variants; blocked codes at B = 64) up to ``cap``."""
    runs = [(nm, 64 if nm.startswith("fw_blocked") else None, {}) for nm in names]
    return sweep(runs, sizes_upto(P, cap) if sizes is None else [n for n in sizes if n <= cap],
                 repeats=lambda k: repeats_for(P, k), seed=seed, desc=desc)


def plot_speedups(ax, summary, pairs, claim=None, kemp=None, title=""):
    """Speed-up vs n for (algorithm, variant, baseline, baseline variant, label) tuples; hollow
    markers where the baseline is extrapolated; the claimed and Kemp's ranges as bands."""
    import seaborn as sns
    colors = sns.color_palette("tab10", len(pairs))
    for (algo, var, base, base_var, label), col in zip(pairs, colors):
        sp = speedups(summary, algo, base, variant=var, baseline_variant=base_var).sort_values("n")
        if sp.empty:
            continue
        meas = sp[~sp["baseline_extrapolated"]]
        ext = sp[sp["baseline_extrapolated"]]
        ax.plot(meas["n"], meas["speedup"], "o-", color=col, label=label)
        if len(ext):
            edge = pd.concat([meas.tail(1), ext])
            ax.plot(edge["n"], edge["speedup"], "o--", mfc="none", color=col, label=f"{label} (baseline extrapolated)")
    for rng, lab, c in ((claim, "claimed", "tab:green"), (kemp, "Kemp measured", "tab:orange")):
        if rng:
            lo, hi = rng
            if lo == hi:
                ax.axhline(lo, color=c, ls=":", label=f"{lab}: {lo:g}x")
            else:
                ax.axhspan(lo, hi, color=c, alpha=0.15, label=f"{lab}: {lo:g}-{hi:g}x")
    return _finish_axes(ax, "speed-up (x), end-to-end time", title, 7)


NOTEBOOK_LABELS = {"00_environment_and_cpu_baselines": "cpu_baselines", "01_tran_fw": "tran_fw",
                   "02_katz_kider": "katz_kider", "03_harish_scaling": "harish_scaling",
                   "04_memory_modes": "memory_modes", "05_out_of_core": "out_of_core",
                   "06_all_algorithms": "all_algorithms"}


def collect_verdicts(profile_name):
    """Every notebook's verdict table: this batch's (reports/verdicts/) where the notebook ran
    in it, else the newest one recorded beside a results run of this profile or ``paper``."""
    frames = []
    for nb in sorted({c["notebook"] for c in claims_mod.load().values()}):
        f = REPORTS / "verdicts" / f"{nb}.csv"
        if not f.exists():
            label = NOTEBOOK_LABELS.get(nb, nb.split("_", 1)[-1])
            runs = [harness.latest_run(f"{p}-{label}", require=None) for p in (profile_name, "paper")]
            runs = [r for r in runs if r is not None and (r / "verdicts.csv").exists()]
            if not runs:
                continue
            f = runs[0] / "verdicts.csv"
        t = pd.read_csv(f)
        t["notebook"] = nb
        t["table_from"] = str(f.relative_to(ROOT))
        frames.append(t)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def device_of(prov):
    return prov.get("gpu") or f"CPU only ({prov.get('cpu')})"
