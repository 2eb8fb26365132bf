"""The IIT Kharagpur study's measurements (seed 001), one independent process at a time.

Per graph: the BFS, SSSP and coarsening searches from each seeded source -- the CPU code first (its
first run is the reference of that source; on graphs up to ``SCIPY_CHECK_N`` vertices it is itself
checked against scipy), then every GPU code, repeats alternated -- and, on the seed's APSP graphs, the
APSP codes with the sequential and best CPU codes sampled as the campaign samples them (harness).  One
row per timed run.  ``status`` is ok only where the result was verified exactly (BFS levels, SSSP
distances, the Fletcher-64 of the APSP matrix); a sampled CPU estimate is no solution and is marked
``estimate='sampled'``; failed_verification, error and skipped rows carry no time."""
from __future__ import annotations

import json
import sys
import time
import traceback

import numpy as np

from .... import gpu_device
from ....measure import harness
from ....algorithms import registry
from ....core.verify import reference_vectors
from . import spec as spec
from ..kemp.runs import pinned, start_thread_pool, reference_checksum

TIMINGS = ("kernel_ms", "alloc_ms", "h2d_ms", "d2h_ms", "levels", "sweeps")
SCIPY_CHECK_N = 200_000       # the CPU reference's own check against scipy, on graphs up to this size
PROBLEM = {"bfs": "bfs", "sssp": "sssp", "coarsen": "sssp"}


def log_stderr(msg):
    print(msg, file=sys.stderr, flush=True)


def _variant(algo, v):
    return str(v if v is not None else algo.default_variant)


def _search(algo, g, variant, s):
    """One search from ``s`` (single-thread CPU codes pinned): (its row, wall ms, the launcher's timings)."""
    with pinned(algo) as core:
        t0 = time.perf_counter()
        d, t = algo.run(g, variant=variant, sources=[int(s)])
        wall = (time.perf_counter() - t0) * 1e3
    return np.asarray(d)[0], wall, dict(t, pinned_core=core)


def _error(row, e):
    return dict(row, status="error", verified=False, wall_ms=None, error=f"{type(e).__name__}: {e}",
                traceback=traceback.format_exc(limit=3))


def _cpu_row(row, algo, variant, g, s, stage, check):
    """The CPU code from ``s``: its time and its levels/distances (the reference of that source)."""
    try:
        d, wall, t = _search(algo, g, variant, s)
    except Exception as e:
        return _error(row, e), None
    row.update(status="ok", wall_ms=wall, pinned_core=t.get("pinned_core"), verified=None)
    if check:                                      # the reference's own check, where scipy is quick
        ok = bool(np.array_equal(d, reference_vectors(g, [int(s)], PROBLEM[stage])[0]))
        row.update(verified=ok, status="ok" if ok else "failed_verification", wall_ms=wall if ok else None)
    return row, d


def _gpu_row(row, algo, variant, g, s, ref):
    """A GPU search from ``s`` against the reference: wrong entries, and how many are too short
    (a race can only leave distances too long)."""
    if ref is None:
        return dict(row, status="error", verified=False, error="no reference: the CPU code failed on this source")
    try:
        d, wall, t = _search(algo, g, variant, s)
    except Exception as e:
        return _error(row, e)
    wrong = int(np.count_nonzero(d != ref))
    row.update({k: t[k] for k in TIMINGS if k in t})
    row.update(status="ok" if not wrong else "failed_verification", verified=not wrong, wrong_entries=wrong,
               undershoots=int(np.count_nonzero(d < ref)), wall_ms=wall)
    if wrong:                                      # a wrong result has no time
        row.update(wall_ms=None, kernel_ms=None, error=f"{wrong} of {g.n} entries differ from the CPU reference")
    return row


def _skipped(base, stage, runs, why):
    return [dict(base, stage=stage, algorithm=a, variant=_variant(registry.get(a), v), device=registry.get(a).device,
                 status="skipped", verified=None, error=why) for a, v in runs]


def single_source(S, stages, g, index, log, deadline, has_gpu):
    """Rows of the single-source stages on one graph.  A CPU code two stages share (Dijkstra for sssp and
    coarsen) is timed once per source and repeat, under the first of them."""
    name = g.meta["catalogue"]
    base = dict(spec.describe(g), m=g.m, process=index, estimate="measured")
    src, reps = spec.sources_for(S, name, g), spec.repeats_for(S, name)
    plan, timed = [], set()
    for st in stages:
        cpu_run = tuple(S[st]["cpu"])
        plan.append((st, cpu_run, cpu_run not in timed, [tuple(r) for r in S[st]["gpu"]] if has_gpu else []))
        timed.add(cpu_run)
    rows = []
    if not has_gpu:
        for st in stages:
            rows += _skipped(base, st, S[st]["gpu"], f"no GPU: {gpu_device.gpu_status()[1]}")
    if has_gpu and S["single_source"].get("gpu_warmup"):
        for _, _, _, runs in plan:                 # the memory pool at this graph's size, untimed
            for a, v in runs:
                try:
                    registry.get(a).run(g, variant=v, sources=[int(src[0])])
                except Exception:
                    pass                           # the timed runs record the error
    check = g.n <= SCIPY_CHECK_N
    for i, s in enumerate(src):
        if time.time() > deadline:
            log(f"  {name}: budget reached after {i} of {len(src)} sources")
            rows += [dict(base, stage=st, source=int(s), algorithm="-", variant="-", status="skipped",
                          error="the invocation's time budget ran out") for st in stages for s in src[i:]]
            break
        refs, t0, start = {}, time.perf_counter(), len(rows)
        for rep in range(reps):
            for st, (c, cv), own, runs in plan:
                ca = registry.get(c)
                if own:
                    row = dict(base, stage=st, algorithm=c, variant=_variant(ca, cv), device="cpu", source=int(s), repeat=rep)
                    row, d = _cpu_row(row, ca, cv, g, s, st, check and rep == 0)
                    rows.append(row)
                    if rep == 0:
                        refs[c] = d if row["status"] == "ok" else None
                for a, v in runs:
                    ga = registry.get(a)
                    row = dict(base, stage=st, algorithm=a, variant=_variant(ga, v), device="gpu", source=int(s), repeat=rep)
                    rows.append(_gpu_row(row, ga, v, g, s, refs.get(c)))
        bad = [f"{r['algorithm']}/{r['variant']}" for r in rows[start:] if r["status"] != "ok"]
        log(f"  {name} source {s}: {time.perf_counter() - t0:.1f} s" + (f"; not ok: {sorted(set(bad))}" if bad else ""))
    return rows


def apsp(S, g, index, log, has_gpu):
    """The APSP codes on one of the seed's APSP graphs: GPU codes verified (Fletcher-64 of the exact
    distances), the sequential and best CPU codes sampled, and (process 0) the full runs that validate
    the samples."""
    A = S["apsp"]
    name = g.meta["catalogue"]
    extra = {k: v for k, v in spec.describe(g).items() if k != "n"}
    extra.update(stage="apsp", graph=name, process=index)
    rows = []
    t0 = time.perf_counter()
    ref = reference_checksum(g)
    log(f"  {name}: reference checksum in {time.perf_counter() - t0:.1f} s")
    for a, v in A["gpu"]:
        if not has_gpu:
            rows += _skipped(dict(spec.describe(g), process=index), "apsp", [(a, v)], f"no GPU: {gpu_device.gpu_status()[1]}")
            continue
        rows += harness.measure(registry.get(a), g, variant=v, repeats=A["repeats"], warmup=1, reference=ref, extra=extra)
    for a, v, samples in list(A["sequential"]) + list(A["best_cpu"]):
        algo = registry.get(a)
        with pinned(algo) as core:
            rows += harness.measure(algo, g, variant=v, repeats=A["repeats"], warmup=1, samples=int(samples),
                                    extra=dict(extra, pinned_core=core))
    for a, gname in A.get("full_once", []):
        if index == 0 and gname == name:
            algo = registry.get(a)
            with pinned(algo) as core:
                rows += harness.measure(algo, g, repeats=1, warmup=0, reference=ref, extra=dict(extra, pinned_core=core))
    for r in rows:
        r.setdefault("graph", name)
    log(f"  {name}: apsp in {time.perf_counter() - t0:.1f} s; not ok: "
        f"{sorted({r['algorithm'] + '/' + str(r['variant']) for r in rows if r['status'] != 'ok'}) or 'none'}")
    return rows


def warm(S, stages, has_gpu):
    """Compile every code of the stages on a 64-vertex graph (numba's JIT, NVRTC) before timing."""
    g = spec.tiny()
    runs = []
    for st in stages:
        if st == "apsp":
            A = S["apsp"]
            runs += [(a, v, None) for a, v in A["gpu"]] + [(a, v, 2) for a, v, _ in list(A["sequential"]) + list(A["best_cpu"])]
        else:
            runs += [(a, v, "ss") for a, v in [S[st]["cpu"], *S[st]["gpu"]]]
    for a, v, how in runs:
        algo = registry.get(a)
        if algo.device == "gpu" and not has_gpu:
            continue
        try:
            if how == "ss":
                algo.run(g, variant=v, sources=[0])
            elif how is None:
                algo.run(g, variant=v)
            else:
                algo.sample(g, how, variant=v)
        except Exception:
            pass                                   # the timed runs record the error


def run_process(S, stages, graphs, index, sink, deadline, log=log_stderr):
    """One independent process: every graph of ``graphs`` through the ``stages`` it belongs to; ``sink``
    receives each graph's rows as soon as they are measured (a killed run keeps them)."""
    has_gpu = gpu_device.available()
    start_thread_pool()
    warm(S, stages, has_gpu)
    for name in graphs:
        st = [s for s in stages if name in S[s]["graphs"]]
        if not st:
            continue
        if time.time() > deadline:
            log(f"process {index}: budget reached before {name}")
            sink([dict(stage=s, graph=name, process=index, algorithm="-", variant="-", status="skipped",
                       error="the invocation's time budget ran out") for s in st])
            continue
        t0 = time.perf_counter()
        g = spec.graph(S, name, log)
        rows = []
        ss = [s for s in st if s in spec.SINGLE_SOURCE]
        if ss:
            rows += single_source(S, ss, g, index, log, deadline, has_gpu)
        if "apsp" in st:
            rows += apsp(S, g, index, log, has_gpu)
        sink(rows)
        log(f"process {index}: {name} ({', '.join(st)}) in {time.perf_counter() - t0:.0f} s")
        del g


def child(job, log=log_stderr):
    """A child process's job (JSON from the script): run it, appending rows to ``job['out']/results.csv``."""
    import pandas as pd
    from pathlib import Path
    out = Path(job["out"]) / "results.csv"
    S = spec.load(dry_run=job["dry_run"])

    def sink(rows):
        old = harness.read_records(out) if out.exists() and out.stat().st_size else None
        new = pd.DataFrame(rows)
        df = new if old is None else pd.concat([old, new], ignore_index=True)
        tmp = out.with_suffix(".tmp")
        df.to_csv(tmp, index=False)
        tmp.replace(out)

    run_process(S, job["stages"], job["graphs"], job["index"], sink, job["deadline"], log)
    return 0


def job_json(**kw):
    return json.dumps(kw)
