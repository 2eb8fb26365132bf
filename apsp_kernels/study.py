"""What the claim notebooks share: profiles, sweeps with verification, recorded-results
fallback, speed-up tables, verdict tables and figures.  Notebooks stay thin."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from . import claims as claims_mod
from . import generators, gpu, harness, registry
from .verify import fletcher64

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "figures"

# sizes per profile; "seq_cap": the largest n at which the single-thread CPU codes are run
PROFILES = {
    "smoke": dict(cpu_sizes=[64, 128, 256], gpu_sizes=[128, 256], seq_cap=256, repeats=1, warmup=1),
    "quick": dict(cpu_sizes=[256, 512, 1024], gpu_sizes=[1024, 2048, 4096], seq_cap=1024, repeats=3, warmup=1),
    "paper": dict(cpu_sizes=[512, 1024, 2048, 4096], gpu_sizes=list(generators.KEMP_SIZES[::2]),
                  seq_cap=4096, repeats=3, warmup=1),
    "full": dict(cpu_sizes=[512, 1024, 2048, 4096, 8192], gpu_sizes=list(generators.KEMP_SIZES),
                 seq_cap=8192, repeats=5, warmup=1),
}


def profile(name):
    if name not in PROFILES:
        raise ValueError(f"unknown profile {name!r}; one of {sorted(PROFILES)}")
    return dict(PROFILES[name])


def kemp_graph(n, seed=0, min_degree=2, max_degree=6):
    return generators.kemp(n, min_degree, max_degree, 1, 1000, seed=seed + n)


def reference_checksum(g):
    """Fletcher-64 of the exact distances, from the parallel CPU Dijkstra (checked against
    scipy in the tests); large matrices are compared by checksum, as seed 003 does."""
    from .cpu import dijkstra_apsp
    return fletcher64(dijkstra_apsp(g, parallel=True))


def sweep(runs, sizes, *, repeats=3, warmup=1, seed=0, graph=kemp_graph, desc="sweep"):
    """``runs``: list of (algorithm name, variant, params dict).  Every run is verified."""
    recs = []
    for n in harness._progress(sizes, desc=desc):
        g = graph(n, seed)
        ref = reference_checksum(g)
        for name, variant, params in runs:
            algo = registry.get(name)
            recs += harness.measure(algo, g, variant=variant, repeats=repeats, warmup=warmup,
                                    reference=ref, params=params)
    df = pd.DataFrame(recs)
    if "variant" in df:
        df["variant"] = df["variant"].astype(str)
    return df


def measured_or_recorded(label, measure, source="measure", needs_gpu=True, profile_name=None, parameters=None):
    """Measure (and save under data/results/<run-id>-<label>/) or load the recorded reference run.

    Returns (DataFrame, provenance dict, note).  ``source="recorded"`` or no GPU where one is
    needed: the newest recorded run for ``label`` is used and the note says so.
    """
    if source == "measure" and (not needs_gpu or gpu.available()):
        df = measure()
        out = harness.save_results(df, harness.new_run_id(f"{profile_name}-{label}"), profile_name, parameters)
        _, prov = harness.load_results(out)
        return df, prov, f"measured now on {prov.get('gpu') or prov.get('cpu')} ({prov['timestamp']}), saved in {out.relative_to(ROOT)}"
    run = harness.latest_run(f"{profile_name}-{label}") or harness.latest_run(f"paper-{label}")
    if run is None:
        raise FileNotFoundError(f"no recorded results for {label!r} under data/results/ and no GPU to measure them")
    df, prov = harness.load_results(run)
    why = "requested" if source == "recorded" else f"no GPU here ({gpu.gpu_status()[1]})"
    return df, prov, (f"RECORDED results ({why}): measured on {prov.get('gpu')} at {prov['timestamp']}, "
                      f"commit {prov.get('git_commit')}, from {run.relative_to(ROOT)}")


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
                             baseline_extrapolated=m["extrapolated_base"]))


def claim_rows(claim_ids, measured):
    """Verdict table.  ``measured``: {claim id: (Series of speed-ups over n, note)}."""
    all_claims = claims_mod.load()
    rows = []
    for cid in claim_ids:
        c = all_claims[cid]
        s, note = measured.get(cid, (None, "not measured"))
        if s is None or len(s) == 0:
            med = lo = hi = np.nan
        else:
            med, lo, hi = float(np.median(s)), float(np.min(s)), float(np.max(s))
        rows.append({"claim": cid, "source": c["source"], "claimed": claims_mod.fmt_range(c.get("claimed")),
                     "original hardware": c.get("original_hardware", ""), "Kemp measured": claims_mod.fmt_range(c.get("kemp")),
                     "ours (median)": f"{med:.3g}x" if med == med else "-",
                     "ours (min-max)": f"{lo:.3g}-{hi:.3g}x" if lo == lo else "-",
                     "verdict": claims_mod.verdict(c.get("claimed"), lo if lo == lo else None, hi if hi == hi else None),
                     "note": note})
    return pd.DataFrame(rows)


def save_figure(fig, name):
    FIGURES.mkdir(exist_ok=True)
    for ext in ("png", "svg"):
        fig.savefig(FIGURES / f"{name}.{ext}", bbox_inches="tight", dpi=120)
    return FIGURES / f"{name}.png"


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
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("vertices n")
    ax.set_ylabel("time (s), median with min-max")
    ax.set_title(title)
    ax.legend(fontsize=8)
    return ax


REPORTS = ROOT / "reports"


def publish_verdicts(notebook, table: pd.DataFrame):
    """Write the notebook's claim table where the report index finds it."""
    d = REPORTS / "verdicts"
    d.mkdir(parents=True, exist_ok=True)
    table.to_csv(d / f"{notebook}.csv", index=False)
    return table
