"""The recorded Hochberg study (seed 002): the results of its measurement (``measure.py``), read as they are
(:func:`read`, the contract's ``load``: numbers only), and as notebook 08 shows them, one row per point
(:func:`load`).  A results folder is one batch of independent processes: ``<batch>-hochberg/p<K>/`` (``--batch B
--process K``, one fresh process each), or a ``<time>-hochberg/`` folder holding results.csv itself (one process:
the layout of the first recorded run, 20261123-021236).  Each quantity is computed per process (the median of that
process's repeats); its interval is the one estimator's, over machine leases (method/estimate), and every verdict's
reason says how many processes and leases it rests on (:func:`single_run`).  Which run of the sweep plays which part
(his fw.c, the CPU FW, the explorations) is data: data/codes.yaml, section hochberg."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .... import paths
from ....measure import provenance
from ... import records
from ...method import codes

NB = "08_hochberg"
_C = codes.load("hochberg")
GPU, CPU = tuple(_C["gpu"]), tuple(_C["cpu"])          # his fw.c as shipped; the best CPU FW
TEXT, NOSYNC = tuple(_C["text"]), tuple(_C["nosync"])  # his text's Na % 32: the explorations' base; no barrier
COLUMNS, UNPADDED, PITCH, NEXT_HOP = (tuple(_C[k]) for k in ("columns", "unpadded", "pitch", "next_hop"))
RUNS = {tuple(c): label for label, c in _C["labels"].items()}
HIS_GRAPH, GRAPHS = "cycle_undirected", ("cycle_undirected", "cycle_directed")
MS_COLUMNS = ("with_ms_json", "without_ms_json", "event_ms_json")


KEYS = ("stage", "graph", "n", "algorithm", "variant", "sm_granted")     # one point of the study
_COUNTS = ("wrong_runs", "repeats", "wrong_entries", "undershoots", "spurious_negative_cycles")
_OK = ("ok", "failed_verification")


@dataclass
class Study:
    df: pd.DataFrame            # one row per point (stage, graph, n, run[, SMs]); times in JSON lists: one median per
    #                             process where 2+ processes have it, else the repeats (intervals: from ``raw``)
    prov: dict                  # the first process's provenance (every process of a batch has the same code)
    run_dir: Path
    meas: records.Measurements  # per-run rows (wall_ms, kernel_ms) for the shared helpers, no process column
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
    roots = (paths.RECORDED,) if recorded_only else (paths.RECORDED, paths.RESULTS)
    # where this machine's results and the recorded ones hold the same name, this machine's
    found = records.folders("*-hochberg", processes_of, roots)
    if not found:
        raise FileNotFoundError(f"no Hochberg results (a <time>-hochberg folder with results.csv) under {paths.RESULTS} "
                                f"or {paths.RECORDED}: run `python scripts/hochberg_measure.py` on a GPU, or pass results=")
    return found[-1]


def lists_of(r, col):
    v = r.get(col)
    return json.loads(v) if isinstance(v, str) else []


def per_run(df):
    """One row per timed run (GPU: wall time with the kernel and its event time; CPU: its wall
    time for both, a CPU has nothing to copy), in the campaign's columns, with its process and lease where
    ``df`` has them (every process's rows, :attr:`Study.raw`)."""
    out = []
    for r in df.to_dict("records"):
        w = lists_of(r, "with_ms_json")
        ev = lists_of(r, "event_ms_json") or w
        for a, b in zip(w, ev):
            out.append(dict(stage=r["stage"], algorithm=r["algorithm"], variant=str(r["variant"]), graph=r["graph"],
                            n=int(r["n"]), sms=r.get("sm_granted"), params="{}", estimate="measured", status=r["status"],
                            verified=r["verified"], wall_ms=a, kernel_ms=b,
                            **{k: r[k] for k in ("process", "lease") if k in r}))
    return pd.DataFrame(out)


@dataclass
class Records:
    """One batch as measured: every process's rows (``process``: its folder; ``lease``: its machine's boot id)."""
    raw: pd.DataFrame
    provs: list
    run_dir: Path
    processes: tuple


def read(results="", recorded_only=False):
    """Every process of the results folder (:func:`latest`), refusing a batch measured at more than one commit."""
    d = latest(results, recorded_only)
    procs = processes_of(d)
    provs = [json.loads((p / "provenance.json").read_text()) if (p / "provenance.json").exists() else {} for p in procs]
    if len(procs) > 1:
        provenance.check_batch(d, provs[0], pattern="*/provenance.json")     # ProvenanceError: one batch, one commit
    raw = pd.concat([pd.read_csv(p / "results.csv").assign(process=p.name, lease=v.get("boot_id") or d.name)
                     for p, v in zip(procs, provs)], ignore_index=True)     # no boot id: the folder's one lease
    raw["variant"] = raw["variant"].astype(str)
    return Records(raw, provs, d, tuple(procs))


def load(results="", recorded_only=False):
    """The batch as notebook 08 shows it (:func:`study_of`)."""
    return study_of(read(results, recorded_only))


def study_of(rec):
    """The points of a batch (:func:`collapse`), and where its numbers come from."""
    raw, provs, d, procs = rec.raw, rec.provs, rec.run_dir, rec.processes
    df, prov = collapse(raw), provs[0]
    when = prov.get("timestamp") if len(procs) == 1 else \
        f"{min(str(p.get('timestamp')) for p in provs)} to {max(str(p.get('timestamp')) for p in provs)}"
    note = (f"**RECORDED results** of `scripts/hochberg_measure.py`: measured on {prov.get('gpu')} with {prov.get('cpu')} "
            f"({prov.get('cpu_cores')} cores) from {when}, commit {str(prov.get('git_commit'))[:12]}, "
            f"in `{records.rel(d)}`; {single_run(raw)}. This notebook runs nothing on a GPU.")
    return Study(df, prov, d, records.Measurements(per_run(raw), prov, note, d, False, None, NB), raw, tuple(procs))


def collapse(raw):
    """One row per point.  One process: its rows as they are.  Several: per point, the lists of
    times hold one median per process where two or more processes timed it, else the one process's
    repeats (a point's intervals are over its leases, from the raw rows: analysis.times);
    ``_pooled_*`` every repeat; ``processes`` how many timed it; counts summed; his difference and
    the scalar times the median over processes, his standard error that of the processes'
    differences; ``methods_disagree`` where more than half the processes say so;
    ``_diff_ratio_json`` his difference / event time per process."""
    if raw["process"].nunique() <= 1:
        return raw.drop(columns=["lease"], errors="ignore")
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
        for c in MS_COLUMNS:
            if c not in g:
                continue
            per = {p: lists_of(x, c) for p, x in zip(timed["process"], timed.to_dict("records"))}
            per = {p: v for p, v in per.items() if v}
            r["_pooled_" + c] = json.dumps([x for v in per.values() for x in v]) if per else None
            r[c] = json.dumps([float(np.median(v)) for v in per.values()]) if len(per) >= 2 else \
                (json.dumps(next(iter(per.values()))) if per else None)
        if k >= 2 and timed["difference_ms"].notna().all() if "difference_ms" in timed else False:
            # his own standard error of each process's difference (measure/difference_timing.py), their median: a
            # description of his method's precision; every interval over processes is the estimator's
            se = timed["difference_se_ms"].to_numpy(float) if "difference_se_ms" in timed else np.array([])
            r["difference_se_ms"] = float(np.nanmedian(se)) if np.isfinite(se).any() else np.nan
            r["_diff_ratio_json"] = json.dumps([_his_ratio(x) for x in timed.to_dict("records")])
        if "methods_disagree" in g and timed.get("methods_disagree") is not None and k:
            r["methods_disagree"] = bool(timed["methods_disagree"].astype(str).str.lower().eq("true").sum() > k / 2)
        if "first_difference" in g:
            f = g["first_difference"].dropna()
            r["first_difference"] = f.iloc[0] if len(f) else None
        r.pop("process", None)
        r.pop("lease", None)
        out.append(r)
    return pd.DataFrame(out)


def _his_ratio(r):
    """His difference of averages / the mean event time, of one process's alternated runs."""
    w, wo, ev = (np.asarray(lists_of(r, c)) for c in MS_COLUMNS)
    return float((w.mean() - wo.mean()) / ev.mean())


def nproc(r):
    """How many processes timed this point (1 for a study of one process)."""
    k = r.get("processes") if hasattr(r, "get") else None
    return int(k) if k is not None and k == k else 1


def pooled_of(r, col):
    """Every repeat of this point, over its processes."""
    v = lists_of(r, "_pooled_" + col)
    return v or lists_of(r, col)


def select_rows(df, stage, run, **kw):
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
    """The sentence every verdict carries: how many processes and machine leases the intervals rest on
    (``df``: every process's rows, with ``process`` and ``lease``; :attr:`Study.raw`)."""
    k = df["process"].nunique() if "process" in df else 1
    leases = df["lease"].nunique() if "lease" in df else k
    if k <= 1:
        return (f"single run: one device process ({repeats_text(df)} repeats per point) on one lease: no interval over "
                "independent leases")
    names = sorted(df["process"].unique(), key=lambda p: (int(re.sub(r"\D", "", p) or 0), p))
    return (f"{k} device processes ({', '.join(names)}) on {leases} machine lease{'s' if leases != 1 else ''}, "
            f"{repeats_text(df)} repeats per point in each: ratios paired inside each process, 95% intervals over "
            "the leases" + ("; fewer than the 3 leases the study asks for, so the verdicts are provisional"
                            if leases < 3 else ""))
