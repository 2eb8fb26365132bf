"""Notebook 08's analysis of the Hochberg study (seed 002): the recorded results of
scripts/hochberg_measure.py as tables, intervals and verdicts.  A results folder is one batch of
independent processes: ``<batch>-hochberg/p<K>/`` (``--batch B --process K``, one fresh process and
machine lease each), or a ``<time>-hochberg/`` folder holding results.csv itself (one process: the
layout of the first recorded run, 20261123-021236).  Each quantity is computed per process (the
median of that process's repeats); where two or more processes have a point, its interval is over
the processes (stats.median_ci / ratio_ci / centre_draws on one median per process, issue 10);
where one process has it, the interval comes from the repeats within that process, as before, and
every verdict's reason says which (:func:`single_run`).  (Named report_*, not hochberg_*:
provenance.CODE_GLOBS fingerprints ``study/hochberg_*.py`` as measurement code, and this module
only reads measurements.)"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths, provenance
from . import measurements as M
from . import stats, verdicts as V
from .tables import fmt, interval

NB = "08_hochberg"
GPU, CPU = ("hochberg_align", "64"), ("fw_blocked_parallel", "64")      # his fw.c as shipped; the best CPU FW
TEXT = ("hochberg_align", "32")                   # his text's Na % 32: the explorations' base
NOSYNC = ("hochberg_explore", "nosync")
HIS_GRAPH, GRAPHS = "cycle_undirected", ("cycle_undirected", "cycle_directed")
LOGS = paths.RECORDED / "device-logs"
RUNS = {("hochberg_align", "64"): "fw.c as shipped (Na % 64)", ("hochberg_align", "32"): "his text (Na % 32)",
        ("hochberg_explore", "unpadded"): "unpadded (Na = N)", ("hochberg_explore", "pitch"): "cudaMallocPitch",
        ("hochberg_explore", "columns"): "column blocks", ("hochberg_explore", "next_hop"): "with the path matrix",
        ("hochberg_explore", "nosync"): "no __syncthreads()"}
_MS = ("with_ms_json", "without_ms_json", "event_ms_json")


KEYS = ("stage", "graph", "n", "algorithm", "variant", "sm_granted")     # one point of the study
_COUNTS = ("wrong_runs", "repeats", "wrong_entries", "undershoots", "spurious_negative_cycles")
_OK = ("ok", "failed_verification")


@dataclass
class Study:
    df: pd.DataFrame            # one row per point (stage, graph, n, run[, SMs]); times in JSON lists: the samples of
    #                             its interval -- one median per process where 2+ processes have it, else the repeats
    prov: dict                  # the first process's provenance (every process of a batch has the same code)
    run_dir: Path
    meas: M.Measurements        # per-run rows (wall_ms, kernel_ms) for the shared helpers, no process column
    raw: pd.DataFrame = None    # every process's results.csv, with ``process`` (its folder's name)
    processes: tuple = ()       # the process folders


def processes_of(d):
    """The process folders of a results folder: the folder itself where it holds results.csv (one
    process), else its subfolders holding one (``p<K>/``), in process order."""
    d = Path(d)
    if (d / "results.csv").exists():
        return [d]
    key = lambda p: (int(re.sub(r"\D", "", p.name) or 0), p.name)
    return sorted((p for p in d.glob("*") if p.is_dir() and (p / "results.csv").exists()), key=key) if d.is_dir() else []


def latest(results="", recorded_only=False):
    """The results folder: ``results`` if given, else the newest ``*-hochberg`` holding results.csv
    (one process) or process folders with it (a batch) among this machine's results (unless
    ``recorded_only``) and the recorded ones."""
    if results:
        d = Path(results) if Path(results).is_absolute() else paths.ROOT / results
        if not processes_of(d):
            raise FileNotFoundError(f"{d} holds no results.csv of scripts/hochberg_measure.py (nor p<K>/ folders with one)")
        return d
    roots = (paths.RECORDED,) if recorded_only else (paths.RESULTS, paths.RECORDED)
    found = sorted({d for r in roots for d in r.glob("*-hochberg")}, key=lambda p: p.name)
    found = [d for d in found if processes_of(d)]
    if not found:
        raise FileNotFoundError(f"no Hochberg results (a <time>-hochberg folder with results.csv) under {paths.RESULTS} "
                                f"or {paths.RECORDED}: run `python scripts/hochberg_measure.py` on a GPU, or pass results=")
    return found[-1]


def _lists(r, col):
    v = r.get(col)
    return json.loads(v) if isinstance(v, str) else []


def per_run(df):
    """One row per timed run (GPU: wall time with the kernel and its event time; CPU: its wall
    time for both, a CPU has nothing to copy), in the campaign's columns."""
    out = []
    for r in df.to_dict("records"):
        w = _lists(r, "with_ms_json")
        ev = _lists(r, "event_ms_json") or w
        for a, b in zip(w, ev):
            out.append(dict(stage=r["stage"], algorithm=r["algorithm"], variant=str(r["variant"]), graph=r["graph"],
                            n=int(r["n"]), sms=r.get("sm_granted"), params="{}", estimate="measured", status=r["status"],
                            verified=r["verified"], wall_ms=a, kernel_ms=b))
    return pd.DataFrame(out)


def load(results="", recorded_only=False):
    """Every process of the results folder (:func:`latest`), refusing a batch measured at more than
    one commit; the points with their interval samples (:func:`collapse`)."""
    d = latest(results, recorded_only)
    procs = processes_of(d)
    provs = [json.loads((p / "provenance.json").read_text()) if (p / "provenance.json").exists() else {} for p in procs]
    if len(procs) > 1:
        provenance.check_batch(d, provs[0], pattern="*/provenance.json")     # ProvenanceError: one batch, one commit
    raw = pd.concat([pd.read_csv(p / "results.csv").assign(process=p.name) for p in procs], ignore_index=True)
    raw["variant"] = raw["variant"].astype(str)
    df, prov = collapse(raw), provs[0]
    when = prov.get("timestamp") if len(procs) == 1 else \
        f"{min(str(p.get('timestamp')) for p in provs)} to {max(str(p.get('timestamp')) for p in provs)}"
    note = (f"**RECORDED results** of `scripts/hochberg_measure.py`: measured on {prov.get('gpu')} with {prov.get('cpu')} "
            f"({prov.get('cpu_cores')} cores) from {when}, commit {str(prov.get('git_commit'))[:12]}, "
            f"in `{M.rel(d)}`; {single_run(raw)}. This notebook runs nothing on a GPU.")
    return Study(df, prov, d, M.Measurements(per_run(df), prov, note, d, False, None, NB), raw, tuple(procs))


def collapse(raw):
    """One row per point.  One process: its rows as they are.  Several: per point, the lists of
    times hold one median per process (the samples of an interval over processes) where two or
    more processes timed it, else the one process's repeats; ``_pooled_*`` every repeat, for a
    ratio whose other side ran in one process only; ``processes`` how many timed it; counts
    summed; his difference and the scalar times the median over processes, his standard error
    that of the processes' differences; ``methods_disagree`` where more than half the processes
    say so; ``_diff_ratio_json`` his difference / event time per process."""
    if raw["process"].nunique() <= 1:
        return raw.copy()
    keys = [k for k in KEYS if k in raw]
    out = []
    for _, g in raw.groupby(keys, sort=False, dropna=False):
        r = dict(g.iloc[0])
        ok = g[g["status"].isin(_OK)]
        timed = ok[ok["with_ms_json"].notna()] if "with_ms_json" in ok else ok.iloc[0:0]
        k = timed["process"].nunique()
        r["status"] = "ok" if (g["status"] == "ok").all() else \
            "failed_verification" if (g["status"] == "failed_verification").any() else g.loc[g["status"] != "ok", "status"].iloc[0]
        r["verified"] = bool(g["verified"].astype(str).str.lower().eq("true").all()) if "verified" in g else None
        r["processes"] = k
        for c in _COUNTS:
            if c in g:
                r[c] = g[c].sum(min_count=1)
        for c in ("difference_ms", "event_ms", "end_to_end_ms", "without_ms", "sm_seen"):
            if c in g:
                r[c] = g[c].median()
        for c in _MS:
            if c not in g:
                continue
            per = {p: _lists(x, c) for p, x in zip(timed["process"], timed.to_dict("records"))}
            per = {p: v for p, v in per.items() if v}
            r["_pooled_" + c] = json.dumps([x for v in per.values() for x in v]) if per else None
            r[c] = json.dumps([float(np.median(v)) for v in per.values()]) if len(per) >= 2 else \
                (json.dumps(next(iter(per.values()))) if per else None)
        if k >= 2 and timed["difference_ms"].notna().all() if "difference_ms" in timed else False:
            d = timed["difference_ms"].to_numpy(float)
            r["difference_se_ms"] = float(d.std(ddof=1) / np.sqrt(len(d)))
            r["_diff_ratio_json"] = json.dumps([_his_ratio(x) for x in timed.to_dict("records")])
        if "methods_disagree" in g and timed.get("methods_disagree") is not None and k:
            r["methods_disagree"] = bool(timed["methods_disagree"].astype(str).str.lower().eq("true").sum() > k / 2)
        if "first_difference" in g:
            f = g["first_difference"].dropna()
            r["first_difference"] = f.iloc[0] if len(f) else None
        r.pop("process", None)
        out.append(r)
    return pd.DataFrame(out)


def _his_ratio(r):
    """His difference of averages / the mean event time, of one process's alternated runs."""
    w, wo, ev = (np.asarray(_lists(r, c)) for c in _MS)
    return float((w.mean() - wo.mean()) / ev.mean())


def _nproc(r):
    """How many processes timed this point (1 for a study of one process)."""
    k = r.get("processes") if hasattr(r, "get") else None
    return int(k) if k is not None and k == k else 1


def _pooled(r, col):
    """Every repeat of this point, over its processes."""
    v = _lists(r, "_pooled_" + col)
    return v or _lists(r, col)


def _sel(df, stage, run, **kw):
    d = df[(df["stage"] == stage) & (df["algorithm"] == run[0]) & (df["variant"] == str(run[1]))]
    for k, v in kw.items():
        d = d[d[k] == v]
    return d


def repeats_text(df):
    """'cycles 10 (GPU) and 3 (CPU), explorations 5, ...': the repeats of each stage's points."""
    ok = df[df["status"].isin(["ok", "failed_verification"])]
    parts = []
    for stage, grp in ok.groupby("stage", sort=False):
        by = {dev: "/".join(str(int(k)) for k in sorted(g["repeats"].dropna().unique()))
              for dev, g in grp.groupby(grp["algorithm"].eq(CPU[0]).map({True: "CPU", False: "GPU"}))}
        parts.append(f"{stage.replace('_', ' ')} " + (" and ".join(f"{v} ({d})" for d, v in by.items()) if len(by) > 1
                                                      else next(iter(by.values()))))
    return ", ".join(parts)


def single_run(df):
    """The sentence every verdict carries: how many independent processes the intervals rest on
    (``df``: every process's rows, with ``process``; :attr:`Study.raw`)."""
    k = df["process"].nunique() if "process" in df else 1
    if k <= 1:
        return (f"single run: one device process; intervals from the repeats within it ({repeats_text(df)} per point), "
                "not from independent runs")
    names = sorted(df["process"].unique(), key=lambda p: (int(re.sub(r"\D", "", p) or 0), p))
    ok = df[df["status"].isin(_OK) & df["with_ms_json"].notna()] if "with_ms_json" in df else df.iloc[0:0]
    per = ok.groupby([c for c in KEYS if c in ok], dropna=False)["process"].nunique()
    alone = int((per < 2).sum())
    return (f"{k} independent device processes ({', '.join(names)}), {repeats_text(df)} repeats per point in each: "
            f"95% intervals over the processes' medians"
            + (f", except at {alone} of {len(per)} timed points that ran in one process only (intervals from its repeats)"
               if alone else "")
            + ("; fewer than the 3 independent processes issue 10 asks for, so the verdicts are provisional" if k < 3 else ""))


# ------------------------------------------------------------------ Fig. 2.3: his cycles
def cycles(st, graph):
    """Per n: his difference (mean, standard error), the event and end-to-end times (median, 95% CI
    over the repeats), the all-core CPU FW (median, CI), and whether his two times disagree."""
    g = _sel(st.df, "cycles", GPU, graph=graph, status="ok")
    c = _sel(st.df, "cycles", CPU, graph=graph, status="ok").set_index("n")
    rows = []
    for r in g.sort_values("n").to_dict("records"):
        ev, w = stats.median_ci(_lists(r, "event_ms_json")), stats.median_ci(_lists(r, "with_ms_json"))
        cp = stats.median_ci(_lists(c.loc[r["n"]], "with_ms_json")) if r["n"] in c.index else (np.nan,) * 4
        rows.append({"n": r["n"], "his difference (ms)": r["difference_ms"], "standard error (ms)": r["difference_se_ms"],
                     "events (ms)": ev[0], "events lo (ms)": ev[1], "events hi (ms)": ev[2],
                     "end-to-end (ms)": w[0], "end-to-end lo (ms)": w[1], "end-to-end hi (ms)": w[2],
                     "CPU (ms)": cp[0], "CPU lo (ms)": cp[1], "CPU hi (ms)": cp[2],
                     "methods disagree": r["methods_disagree"]})
    return pd.DataFrame(rows)


def cycles_at(st, sizes):
    """Fig. 2.3's numbers at a few sizes, as the report's table shows them."""
    out = []
    for graph in GRAPHS:
        t = cycles(st, graph)
        for r in t[t["n"].isin(sizes)].to_dict("records"):
            out.append({"graph": graph, "n": r["n"], "his difference +- 2 s.e. (ms)":
                        f"{fmt(r['his difference (ms)'])} +- {fmt(2 * r['standard error (ms)'])}",
                        "kernel, events [95% CI] (ms)": interval(r["events (ms)"], r["events lo (ms)"], r["events hi (ms)"], ""),
                        "end-to-end [95% CI] (ms)": interval(r["end-to-end (ms)"], r["end-to-end lo (ms)"], r["end-to-end hi (ms)"], ""),
                        "CPU, 16 threads [95% CI] (ms)": interval(r["CPU (ms)"], r["CPU lo (ms)"], r["CPU hi (ms)"], ""),
                        "CPU / GPU end-to-end (x)": r["CPU (ms)"] / r["end-to-end (ms)"],
                        "his two kernel times disagree": str(r["methods disagree"]).lower() == "true"})
    return pd.DataFrame(out)


def sm_table(st):
    s = _sel(st.df, "sm_scaling", GPU, status="ok").sort_values("sm_granted")
    t0 = np.median(_lists(s.iloc[0], "event_ms_json"))
    rows = []
    for r in s.to_dict("records"):
        ev, w = stats.median_ci(_lists(r, "event_ms_json")), stats.median_ci(_lists(r, "with_ms_json"))
        rows.append({"SMs granted (count)": r["sm_granted"], "SMs its blocks ran on (count)": r["sm_seen"],
                     "kernel, events [95% CI] (ms)": interval(*ev[:3], ""), "his difference (ms)": r["difference_ms"],
                     "end-to-end [95% CI] (ms)": interval(*w[:3], ""),
                     f"speed-up over {s['sm_granted'].iloc[0]:.0f} SMs, events (x)": t0 / ev[0],
                     "ideal: SMs ratio (x)": r["sm_granted"] / s["sm_granted"].iloc[0]})
    return pd.DataFrame(rows)


def difference_points(st, graph, n_boot=2000):
    """[(n, his difference / mean event time, lo, hi)]: over the processes (the median of each
    process's ratio, stats.median_ci) where two or more timed n, else a bootstrap over his
    alternated pairs within the one process."""
    rng = np.random.default_rng(stats._RNG_SEED)
    out = []
    for r in _sel(st.df, "cycles", GPU, graph=graph, status="ok").sort_values("n").to_dict("records"):
        per = _lists(r, "_diff_ratio_json")
        if len(per) >= 2:                                   # one value per process: the interval over them
            v, lo, hi, _ = stats.median_ci(per)
            out.append((int(r["n"]), float(v), float(lo), float(hi)))
            continue
        w, wo, ev = (np.asarray(_lists(r, c)) for c in _MS)
        i = rng.integers(0, len(w), (n_boot, len(w)))
        b = (w[i].mean(1) - wo[i].mean(1)) / ev[i].mean(1)
        lo, hi = np.quantile(b, [0.025, 0.975])
        out.append((int(r["n"]), float((w.mean() - wo.mean()) / ev.mean()), float(lo), float(hi)))
    return out


def break_even(st, graph, time_col="wall_ms"):
    """(n, 95% interval, measured range) from which his fw.c beats the all-core CPU FW."""
    return V.crossover_of(st.meas.df[st.meas.df["stage"] == "cycles"], GPU[0], CPU[0], GPU[1], CPU[1],
                          time_col=time_col, graph=graph)


# ------------------------------------------------------------------ Fig. 2.4: time against SMs
def sm_points(st, col="event_ms_json"):
    s = _sel(st.df, "sm_scaling", GPU, status="ok").sort_values("sm_granted")
    return s["sm_granted"].to_numpy(float), [np.asarray(_lists(r, col)) for r in s.to_dict("records")]


def sm_slope(st, col="event_ms_json", n_boot=stats.N_BOOT):
    """Least-squares slope of log(median time) on log(SMs), with a 95% interval from draws of each
    count's median (stats.centre_draws over its repeats): (slope, lo, hi, points)."""
    sms, ts = sm_points(st, col)
    if len(sms) < 2:
        return np.nan, np.nan, np.nan, len(sms)
    x = np.log(sms) - np.log(sms).mean()
    rng = np.random.default_rng(stats._RNG_SEED)
    y = np.log([np.median(t) for t in ts])
    draws = np.log(np.array([stats.centre_draws(t, rng, n_boot) for t in ts]))
    lo, hi = stats._quantiles(x @ draws / (x @ x), stats.CONF)
    return float(x @ y / (x @ x)), lo, hi, len(sms)


def fixed_part(st, col="event_ms_json"):
    """t = a + b / SMs fitted to the medians: (a, b) in ms -- the part no SM count shortens."""
    sms, ts = sm_points(st, col)
    b, a = np.polyfit(1 / sms, [np.median(t) for t in ts], 1)
    return float(a), float(b)


# ------------------------------------------------------------------ Sec. 2.4: explorations and the race
def ratio(st, num, den, n, col="event_ms_json", stage="explorations"):
    """time(num) / time(den) at n, (median ratio, lo, hi): over the processes' medians where both
    ran in two or more processes, else over the repeats (of the one process)."""
    a, b = (_sel(st.df, stage, r, n=n, status="ok") for r in (num, den))
    if a.empty or b.empty:
        return np.nan, np.nan, np.nan
    ra, rb = a.iloc[0].to_dict(), b.iloc[0].to_dict()
    if _nproc(ra) >= 2 and _nproc(rb) >= 2:
        return stats.ratio_ci(_lists(ra, col), _lists(rb, col))
    return stats.ratio_ci(_pooled(ra, col), _pooled(rb, col))


def ordering_points(st, slower, faster, sizes, col="event_ms_json"):
    """[(n, time(slower) / time(faster), lo, hi)]: the claim holds where the interval is above 1."""
    return [(int(n), *ratio(st, slower, faster, n, col)) for n in sizes]


def exploration_sizes(st, multiple=None):
    ns = sorted(int(n) for n in st.df.loc[st.df["stage"] == "explorations", "n"].unique())
    return [n for n in ns if multiple is None or n % multiple]


def explorations(st):
    """Every exploration's kernel time, end-to-end time and his difference at each n, and its
    kernel time over fw.c as shipped (medians, 95% CI over the repeats)."""
    rows = []
    for r in st.df[st.df["stage"] == "explorations"].sort_values("n").to_dict("records"):
        run, ok = (r["algorithm"], r["variant"]), r["status"] == "ok"
        ev, w = stats.median_ci(_lists(r, "event_ms_json")), stats.median_ci(_lists(r, "with_ms_json"))
        rel = ratio(st, run, GPU, r["n"]) if ok else (np.nan,) * 3
        rows.append({"n": int(r["n"]), "run": RUNS.get(run, "/".join(run)), "status": r["status"],
                     "kernel, events [95% CI] (ms)": interval(ev[0], ev[1], ev[2], "") if ok else "no time: wrong results",
                     "his difference (ms)": r["difference_ms"] if ok else np.nan,
                     "end-to-end [95% CI] (ms)": interval(w[0], w[1], w[2], "") if ok else "-",
                     "kernel / fw.c as shipped [95% CI] (x)": interval(*rel, "") if ok else "-",
                     "row stride (count)": r.get("row_stride"), "_rel": rel})
    return pd.DataFrame(rows)


def race(st):
    """Per graph class: how often, and how, the kernel without __syncthreads() was wrong, beside its
    control (the same kernel with the barrier, same inputs)."""
    rows = []
    for kind, g in st.df[st.df["stage"] == "race"].groupby("graph", sort=False):
        ns, bad, ctl = g[g["variant"] == NOSYNC[1]], None, g[g["variant"] == TEXT[1]]
        bad = ns[ns["status"] == "failed_verification"]
        entries = int(sum(n * n * k for n, k in zip(ns["n"], ns["repeats"])))
        rows.append({"graph": kind, "sizes": ", ".join(str(n) for n in sorted(set(ns["n"]))),
                     "wrong runs without the barrier (count)": int(ns["wrong_runs"].sum()),
                     "runs (count)": int(ns["repeats"].sum()),
                     "wrong entries (count)": int(ns["wrong_entries"].sum()),
                     "wrong entries, share (%)": 100 * ns["wrong_entries"].sum() / entries,
                     "below the true distance (count)": int(ns["undershoots"].sum()),
                     "refused as negative cycles (count)": int(ns["spurious_negative_cycles"].sum()),
                     "first wrong entry (i, j, got, true)": bad["first_difference"].iloc[0] if len(bad) else "-",
                     "wrong runs with the barrier (count)": int(ctl["wrong_runs"].sum()),
                     "control runs (count)": int(ctl["repeats"].sum())})
    return pd.DataFrame(rows)


def sanitizer(st):
    """compute-sanitizer's summary lines (scripts/sanitize.sh) from the newest device log that is not
    later than this results folder: {run: (exit code, errors reported, line)}, and the log's path."""
    stamp = st.run_dir.name[:13].replace("-", "")
    logs = sorted(p for p in LOGS.glob("*-sanitize.log")
                  if re.search(r"-(\d{8})-(\d{4})-", p.name) and "".join(re.search(r"-(\d{8})-(\d{4})-", p.name).groups()) <= stamp)
    if not logs:
        return {}, None
    out = {}
    for line in logs[-1].read_text(errors="replace").splitlines():
        m = re.match(r"(\S+): exit (\d+), .*SUMMARY: (.*)$", line)
        if m:
            errs = re.search(r"(\d+) errors?", m.group(3))
            out[m.group(1)] = (int(m.group(2)), int(errs.group(1)) if errs else None, m.group(3).strip())
    return out, logs[-1]


def faithful_runs(st):
    """(wrong runs, runs) of his kernel with the barrier over the whole recorded study."""
    d = st.df[(st.df["algorithm"] == GPU[0]) & st.df["status"].isin(["ok", "failed_verification"])]
    return int(d["wrong_runs"].fillna(0).sum()), int(d["repeats"].sum())

