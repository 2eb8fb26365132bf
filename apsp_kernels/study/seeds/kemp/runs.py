"""The measurement campaign: every job of the notebooks, run in ``processes`` independent
fresh processes (so that a slow or fast moment of the machine, a JIT cache or a memory pool
cannot make all repeats agree), CPU and GPU jobs interleaved by size, and the dense GPU codes'
runs of under a second timed in rounds interleaved over every code and graph of their size
(plan.schedule).  Each process writes
``process-<i>.csv`` and ``provenance-<i>.json`` into one run folder; a batch records one commit.

    python -m apsp_kernels.study.seeds.kemp.runs --profile paper --out DIR --process 0
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from .... import gpu_device
from ....measure import harness, provenance
from ....algorithms import registry
from ....algorithms.reference import reference_checksum     # the one cached reference per graph
from ....core.verify import fletcher64
from . import spec as plan
from . import timing
from .profiles import all_processes, is_satellite, make_graph, profile, satellite_count

from ....paths import ROOT
KEY = ["algorithm", "variant", "params", "graph", "n", "samples"]


def start_thread_pool():
    """Start numba's worker threads now, with every core allowed: threads inherit the affinity
    of the thread that creates them, and the first parallel call (a Fletcher-64 check, say) may
    otherwise come while a single-thread job holds the process on one core -- leaving every
    multi-threaded code of the process on that one core (seen: 8-10x slower all-core codes in
    the processes that found their references cached)."""
    import numpy as np
    fletcher64(np.zeros(1 << 22, np.int32))


@contextlib.contextmanager
def pinned(algo):
    """Single-thread CPU codes run pinned to one core (the last one this process may use, away
    from core 0's interrupts); multi-threaded and GPU codes keep every core."""
    if algo.device != "cpu" or algo.multithreaded or not hasattr(os, "sched_setaffinity"):
        yield None
        return
    allowed = os.sched_getaffinity(0)
    core = max(allowed)
    os.sched_setaffinity(0, {core})
    try:
        yield core
    finally:
        os.sched_setaffinity(0, allowed)


def _log(msg):
    if os.environ.get("APSP_VERBOSE", "1") != "0":
        print(msg, file=sys.__stderr__, flush=True)


def run_process(P, out_dir, index, notebooks=plan.NOTEBOOKS, seed=0):
    """One independent run of every job (GPU jobs only where a GPU is usable), in the order of
    plan.schedule: a job's repeats back to back, or a size's jobs timed in interleaved rounds."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    satellite = is_satellite(P, index)
    if index >= P["processes"] and not satellite:
        raise ValueError(f"process {index}: profile {P['name']} has processes 0..{P['processes'] - 1}"
                         f" and {satellite_count(P)} satellite(s) after them")
    has_gpu = gpu_device.available()
    jobs = [j for j in (plan.satellite_jobs(P, notebooks) if satellite else plan.campaign_jobs(P, notebooks))
            if (index == 0 or not j.once) and (has_gpu or registry.get(j.algorithm).device == "cpu")]
    if satellite and not jobs:             # a satellite's codes are GPU codes: without a GPU it is no process at all
        _log(f"  [process {index}] satellite: nothing to run here ({'no GPU' if not has_gpu else 'no jobs'})")
        return pd.DataFrame()
    prov = provenance.collect(P["name"], dict(notebooks=list(notebooks), seed=seed, process=index, satellite=satellite))
    provenance.check_batch(out_dir, prov, strict=P["name"] in ("paper", "full"))
    (out_dir / f"provenance-{index}.json").write_text(json.dumps(prov, indent=2, default=str))
    start_thread_pool()
    steps = plan.schedule(jobs)
    warmed, recs, graphs, refs = set(), [], {}, {}
    t_start = time.perf_counter()

    def graph(j, keep=()):
        gk = (j.graph, j.n)
        if gk not in graphs:
            for k in [k for k in graphs if k not in keep]:
                del graphs[k]                                # one graph in memory at a time (a round: its own)
            graphs[gk] = make_graph(j.graph, j.n, seed)
        return graphs[gk]

    def measure(j, repeats, warm, **extra):
        g = graph(j, keep=extra.pop("keep", ()))
        algo = registry.get(j.algorithm)
        params = json.loads(j.params)
        warmed.add((j.algorithm, j.variant, params.get("memory"), j.samples is None))
        if j.samples is None and (j.graph, j.n) not in refs:
            refs[(j.graph, j.n)] = reference_checksum(g)     # an int per graph: kept for the process
        ref = refs.get((j.graph, j.n)) if j.samples is None else None
        with pinned(algo) as core:
            return harness.measure(algo, g, variant=None if j.variant == "None" else j.variant, repeats=repeats,
                                   warmup=warm, reference=ref, params=params, samples=j.samples,
                                   extra=dict(graph=j.graph, samples=j.samples, process=index, pinned_core=core, **extra))

    def save():
        pd.DataFrame(recs).to_csv(out_dir / f"process-{index}.csv", index=False)   # a killed run keeps what it measured

    for i, step in enumerate(steps):
        t0 = time.perf_counter()
        if isinstance(step, plan.Job):
            j = step
            wkey = (j.algorithm, j.variant, json.loads(j.params).get("memory"), j.samples is None)
            new = measure(j, j.repeats, 0 if wkey in warmed else 1)
            recs += new
            save()
            what = (f"{j.algorithm}/{j.variant} {j.graph} n={j.n} {j.estimate}"
                    f"{'' if j.samples is None else f'({j.samples})'}: {new[-1]['status']}")
        else:
            group, rounds = list(step), step[0].repeats
            keep = {(j.graph, j.n) for j in group}
            for j in group:                                  # untimed: the first run of each at this size
                recs += measure(j, 0, 1, keep=keep)          # (an error is recorded; a warm-up has no record)
            status = []
            for r in range(rounds):
                for j in plan.round_order(group, r):
                    for rec in measure(j, 1, 0, keep=keep, round_jobs=len(group)):
                        rec["repeat"] = r
                        recs.append(rec)
                        status.append(rec["status"])
                save()
            bad = sum(s != "ok" for s in status)
            what = (f"{len(group)} dense GPU jobs at n={group[0].n} in {rounds} interleaved rounds: "
                    + ("ok" if not bad else f"{bad} of {len(status)} runs not ok"))
        _log(f"  [process {index} {i + 1}/{len(steps)}] {what}, "
             f"{time.perf_counter() - t0:.1f} s (total {time.perf_counter() - t_start:.0f} s)")
    df = pd.DataFrame(recs)
    df.to_csv(out_dir / f"process-{index}.csv", index=False)
    return df


def _in_kernel():
    """Inside a Jupyter kernel (a notebook measuring for itself), whatever a child process writes
    to the kernel's stdout or stderr is captured into the notebook, and its report."""
    return type(sys.stdout).__module__.startswith("ipykernel")


def run(P, out_dir, processes=None, notebooks=plan.NOTEBOOKS, seed=0, only=None):
    """``processes`` independent fresh processes, one after the other (default: the profile's, its
    satellites included; ``only``: just these).
    Their progress goes to the console; from inside a notebook to ``out_dir/campaign.log``
    instead (a report shows results, not a progress log)."""
    idx = (range(processes) if processes else all_processes(P)) if only is None else only
    out_dir = Path(out_dir)
    log = None
    if _in_kernel():
        out_dir.mkdir(parents=True, exist_ok=True)
        log = open(out_dir / "campaign.log", "a", encoding="utf-8")
    say = (lambda m: print(m, file=log, flush=True)) if log else _log
    t_all = time.perf_counter()
    try:
        for i in idx:
            t0 = time.perf_counter()
            say(f"campaign {P['name']}: process {i} -> {out_dir}")
            # -c, not -m apsp_kernels.study.seeds.kemp.runs: the package imports the module before runpy
            # would run it as __main__ (a RuntimeWarning in every process)
            cmd = [sys.executable, "-c", "from apsp_kernels.study.seeds.kemp.runs import main; main()", "--profile", P["name"],
                   "--out", str(out_dir), "--process", str(i), "--seed", str(seed), "--notebooks", ",".join(notebooks)]
            r = subprocess.run(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT if log else None)
            if r.returncode != 0:
                where = f"; its log: {out_dir / 'campaign.log'}" if log else ""
                raise RuntimeError(f"campaign process {i} failed (exit {r.returncode}){where}")
            say(f"campaign {P['name']}: process {i} done in {time.perf_counter() - t0:.0f} s; "
                + timing.progress(P["name"], idx, i, time.perf_counter() - t_all))
    finally:
        if log:
            log.close()
    return out_dir


def load(run_dir):
    """Every process's records of a campaign folder, and the first process's provenance."""
    run_dir = Path(run_dir)
    files = sorted(run_dir.glob("process-*.csv"))
    if not files:
        raise FileNotFoundError(f"{run_dir}: no process-*.csv (the campaign has not run there)")
    df = pd.concat([harness.read_records(f) for f in files], ignore_index=True)
    if "samples" in df:
        df["samples"] = pd.to_numeric(df["samples"], errors="coerce")
    provs = [json.loads(p.read_text()) for p in sorted(run_dir.glob("provenance-*.json"))]
    df["lease"] = df["process"].map(leases(run_dir)).fillna(run_dir.name)
    df["satellite"] = df["process"].isin(satellites(run_dir))
    if provs:              # processes measured on separate machines are merged here: check again
        provenance.check_batch(run_dir, provs[0])
    prov = dict(provs[0]) if provs else {}
    prov["processes"] = len(files)
    prov["satellites"] = sum(bool((p.get("parameters") or {}).get("satellite")) for p in provs)
    prov["process_timestamps"] = [p.get("timestamp") for p in provs]
    prov["machine_boots"] = len({p["boot_id"] for p in provs if p.get("boot_id")})   # 0: not recorded
    return df, prov


def satellites(run_dir):
    """The processes of a campaign folder that its provenance calls satellites (a few codes and sizes only)."""
    out = set()
    for f in Path(run_dir).glob("provenance-*.json"):
        if (json.loads(f.read_text()).get("parameters") or {}).get("satellite"):
            out.add(int(f.stem.split("-")[1]))
    return out


def leases(run_dir):
    """{process: machine lease} of a campaign folder: the boot id of each process's provenance.  A process
    whose provenance records none is put on the folder's one lease (nothing shows its processes apart)."""
    out = {}
    for f in Path(run_dir).glob("provenance-*.json"):
        p = json.loads(f.read_text())
        out[int(f.stem.split("-")[1])] = p.get("boot_id") or Path(run_dir).name
    return out


def select(df, jobs):
    """The records of ``jobs`` (a notebook's share of the campaign)."""
    keys = pd.DataFrame([dict(zip(KEY, (j.algorithm, j.variant, j.params, j.graph, j.n,
                                        float(j.samples) if j.samples is not None else float("nan"))))
                         for j in jobs]).drop_duplicates()
    d = df.copy()
    d["samples"] = pd.to_numeric(d.get("samples"), errors="coerce")
    m = d.merge(keys, on=KEY, how="inner")
    return m


def main(argv=None):
    p = argparse.ArgumentParser(description="Run one independent process of the measurement campaign.")
    p.add_argument("--profile", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--process", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--notebooks", default=",".join(plan.NOTEBOOKS))
    a = p.parse_args(argv)
    run_process(profile(a.profile), a.out, a.process, tuple(a.notebooks.split(",")), a.seed)


if __name__ == "__main__":
    main()
