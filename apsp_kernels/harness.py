"""Timing harness: tidy records, medians with spread, results files with provenance,
and the fitted c*n^3 model that extrapolates CPU times above a measured cap.

Times in a record:
* ``wall_ms`` -- end to end, host clock around the whole call, GPU synchronised;
* ``kernel_ms`` -- CUDA events around the kernels only (GPU algorithms);
* ``alloc_ms``, ``h2d_ms``, ``d2h_ms`` -- the parts of the host-device traffic.
Each claim names which of them it compares.
"""
from __future__ import annotations

import json
import time
import traceback
from pathlib import Path

import numpy as np
import pandas as pd

from . import provenance
from .verify import first_difference, fletcher64

from .paths import RESULTS as RESULTS_DIR


def _progress(it, **kw):
    try:
        from tqdm.auto import tqdm
        return tqdm(it, **kw)
    except ImportError:  # pragma: no cover
        return it


def measure(algo, graph, *, variant=None, repeats=3, warmup=1, reference=None, params=None, extra=None,
            samples=None):
    """Run ``algo`` (a registry entry) on ``graph``; return one record per repeat.

    ``reference`` is the expected distance matrix, or its Fletcher-64 checksum (int).
    A run whose result differs is recorded with ``verified=False`` and its error; a
    run that raises is recorded with ``status='error'`` -- neither is ever a time.
    ``samples``: time that many evenly spaced work units of a CPU code (``algo.sampler``)
    and record the whole-solve estimate (``estimate='sampled'``; see :func:`measure_sampled`).
    """
    if samples is not None:
        return measure_sampled(algo, graph, samples, variant=variant, repeats=repeats, warmup=warmup,
                               params=params, extra=extra)
    params = dict(params or {})
    base = dict(algorithm=algo.name, variant=str(variant if variant is not None else algo.default_variant),
                device=algo.device,
                n=graph.n, m=graph.m, degree=round(graph.m / max(graph.n, 1), 3),
                graph_seed=graph.meta.get("seed"), generator=graph.meta.get("generator"),
                params=json.dumps(params, sort_keys=True), **(extra or {}))
    records = []
    try:
        for _ in range(warmup):
            algo.run(graph, variant=variant, **params)
        for rep in range(repeats):
            t0 = time.perf_counter()
            out = algo.run(graph, variant=variant, **params)   # run() synchronises before returning
            wall = (time.perf_counter() - t0) * 1e3
            d, timings = out if isinstance(out, tuple) else (out, {})
            rec = dict(base, repeat=rep, status="ok", wall_ms=wall, estimate="measured", **timings)
            got = fletcher64(d)
            rec["checksum"] = f"{got:016x}"
            if reference is None:
                rec["verified"] = None
            elif isinstance(reference, (int, np.integer)):
                rec["verified"] = got == int(reference)
            else:
                diff = first_difference(d, reference)
                rec["verified"] = diff is None
                if diff is not None:
                    rec["error"] = f"differs from reference at {diff}"
            if rec["verified"] is False:
                rec["status"] = "failed_verification"
                rec.setdefault("error", "checksum differs from reference")
            records.append(rec)
    except Exception as e:  # one failing run must not lose the sweep
        records.append(dict(base, repeat=len(records), status="error", verified=False,
                            error=f"{type(e).__name__}: {e}", traceback=traceback.format_exc(limit=3)))
    return records


def measure_sampled(algo, graph, samples, *, variant=None, repeats=3, warmup=1, params=None, extra=None):
    """The time of a whole solve estimated from ``samples`` of its equal work units (pivots of
    the sequential FW, rounds of the blocked FW, sources of Dijkstra, rows of a squaring), run
    in the solve's own compiled code: ``wall_ms = setup + work * total / run``.  Such a record
    is ``estimate='sampled'``; its distances are no solution, so it is never verified (the
    full runs at small n are, and validate the estimate against measured times)."""
    params = dict(params or {})
    base = dict(algorithm=algo.name, variant=str(variant if variant is not None else algo.default_variant),
                device=algo.device, n=graph.n, m=graph.m, degree=round(graph.m / max(graph.n, 1), 3),
                graph_seed=graph.meta.get("seed"), generator=graph.meta.get("generator"),
                params=json.dumps(params, sort_keys=True), **(extra or {}))
    records = []
    try:
        for _ in range(warmup):
            algo.sample(graph, min(samples, 2), variant=variant, **params)
        for rep in range(repeats):
            setup, work, run, total = algo.sample(graph, samples, variant=variant, **params)
            records.append(dict(base, repeat=rep, status="ok", verified=None, estimate="sampled",
                                wall_ms=setup + work * total / run, sample_units=run, total_units=total,
                                sample_work_ms=work, setup_ms=setup))
    except Exception as e:
        records.append(dict(base, repeat=len(records), status="error", verified=False, estimate="sampled",
                            error=f"{type(e).__name__}: {e}", traceback=traceback.format_exc(limit=3)))
    return records


def summarise(df: pd.DataFrame, time_col="wall_ms", by=("algorithm", "variant", "n")) -> pd.DataFrame:
    """Median and spread (min, max, IQR) per group, over verified runs only.

    A group with any failed or erroring run is marked ``ok=False`` and gets no time.
    """
    by = list(by)
    rows = []
    for key, grp in df.groupby(by, sort=True, dropna=False):
        good = grp[(grp["status"] == "ok") & (grp["verified"].fillna(True).astype(bool))]
        ok = len(good) == len(grp) and len(good) > 0
        t = good[time_col].dropna() if time_col in good else pd.Series(dtype=float)
        row = dict(zip(by, key if isinstance(key, tuple) else (key,)))
        row.update(ok=ok, runs=len(grp), failed=len(grp) - len(good),
                   median=float(t.median()) if ok and len(t) else np.nan,
                   min=float(t.min()) if ok and len(t) else np.nan,
                   max=float(t.max()) if ok and len(t) else np.nan,
                   iqr=float(t.quantile(.75) - t.quantile(.25)) if ok and len(t) else np.nan,
                   extrapolated=bool(grp.get("extrapolated", pd.Series([False])).fillna(False).any()))
        if not ok:
            errs = grp.get("error", pd.Series(dtype=str)).dropna()
            row["error"] = errs.iloc[0] if len(errs) else "failed"
        rows.append(row)
    out = pd.DataFrame(rows)
    if "variant" in out:
        out["variant"] = out["variant"].astype(str)     # "None", "16", "atomic": one type to compare
    return out


# ------------------------------------------------------------- extrapolation
def fit_cubic(n, t):
    """Least-squares c for t = c n^3, fitted in relative terms (each point weighs the same)."""
    n = np.asarray(n, float)
    t = np.asarray(t, float)
    ok = np.isfinite(t) & (n > 0)
    if ok.sum() < 1:
        raise ValueError("no measured points to fit")
    x = n[ok] ** 3
    return float(np.exp(np.mean(np.log(t[ok]) - np.log(x))))


def extrapolate(summary: pd.DataFrame, algorithm, sizes, min_fit_n=512):
    """Rows for ``sizes`` not measured, from the fitted c n^3, marked ``extrapolated=True``."""
    s = summary[(summary["algorithm"] == algorithm) & summary["ok"] & (summary["n"] >= min_fit_n)]
    if s.empty:
        s = summary[(summary["algorithm"] == algorithm) & summary["ok"]]
    c = fit_cubic(s["n"], s["median"])
    have = set(s["n"])
    rows = []
    for n in sizes:
        if n in have:
            continue
        base = s.iloc[-1].to_dict()
        base.update(n=n, median=c * n**3, min=np.nan, max=np.nan, iqr=np.nan, runs=0, failed=0,
                    ok=True, extrapolated=True)
        rows.append(base)
    return pd.DataFrame(rows), c


# --------------------------------------------------------------- results files
def new_run_id(label):
    return time.strftime("%Y%m%d-%H%M%S") + f"-{label}"


def save_results(df: pd.DataFrame, run_id, profile=None, parameters=None, root=None, name="results"):
    """Write ``<root>/<run_id>/<name>.csv`` and ``provenance.json``; returns the folder."""
    out = Path(root or RESULTS_DIR) / run_id
    out.mkdir(parents=True, exist_ok=True)
    df.to_csv(out / f"{name}.csv", index=False)
    prov_path = out / "provenance.json"
    prov = provenance.collect(profile, parameters)
    prov["files"] = sorted({*json.loads(prov_path.read_text()).get("files", []), f"{name}.csv"}) \
        if prov_path.exists() else [f"{name}.csv"]
    prov_path.write_text(json.dumps(prov, indent=2, default=str))
    return out


def read_records(path):
    """A results CSV as written: variants and parameters stay text ("None" is a variant here,
    not a missing value, which pandas would otherwise make of it)."""
    df = pd.read_csv(path, dtype={"variant": str, "params": str}, keep_default_na=True)
    if "variant" in df:
        df["variant"] = df["variant"].fillna("None")
    return df


def load_results(run_dir, name="results"):
    run_dir = Path(run_dir)
    df = read_records(run_dir / f"{name}.csv")
    return df, json.loads((run_dir / "provenance.json").read_text())


def latest_run(label, root=None, require=None):
    """Newest ``<root>/*-<label>`` folder (optionally one whose provenance has ``require`` items)."""
    root = Path(root or RESULTS_DIR)
    for d in sorted(root.glob(f"*-{label}"), reverse=True):
        if not (d / "provenance.json").exists():
            continue
        if require:
            prov = json.loads((d / "provenance.json").read_text())
            if any(prov.get(k) != v for k, v in require.items()):
                continue
        return d
    return None
