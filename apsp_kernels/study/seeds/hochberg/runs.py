"""The Hochberg study's measurements (seed 002), stage by stage, as one row per (stage, graph, n,
algorithm, variant[, SM count]): his cycles with his difference-of-averages kernel time beside the
CUDA-event time and the end-to-end time of the same runs, and the all-core CPU FW on the same graphs;
his explorations; the no-__syncthreads() race; run time against SM count.  Raw per-run times are
kept as JSON lists.  ``status`` is ok only where every run was verified exactly; failed_verification,
error, skipped and not_testable rows carry no time that counts."""
from __future__ import annotations

import json
import sys
import traceback

import numpy as np

from ....measure import difference_timing, harness
from .... import gpu_device
from ....algorithms import registry
from ....algorithms.gpu import sm_limit
from ....core.distances import NegativeCycleError
from ....core.verify import first_difference
from . import spec as spec


TIME_COLUMNS = ("difference_ms", "difference_se_ms", "event_ms", "end_to_end_ms", "without_ms", "methods_disagree")


def _ms_list(xs):
    return json.dumps([round(float(x), 4) for x in xs])


def _run_id(run):
    name, variant = run
    return dict(algorithm=name, variant=str(variant))


def gpu_difference(run, g, ref, repeats, **params):
    """His three times of one GPU code on one graph (apsp_kernels.measure.difference_timing)."""
    name, variant = run
    row = _run_id(run)
    try:
        t = difference_timing.measure_algorithm(registry.get(name), g, variant=variant, repeats=repeats,
                                                check=lambda d: first_difference(d, ref) is None, **params)
    except NegativeCycleError as e:        # a wrong result (a racy variant's garbage), refused by the launcher
        return dict(row, status="failed_verification", verified=False, error=f"spurious negative cycle: {e}")
    except Exception as e:
        return dict(row, status="error", verified=False, error=f"{type(e).__name__}: {e}",
                    traceback=traceback.format_exc(limit=3))
    ok = all(t.ok)
    times = {k: t.summary()[k] if ok else None for k in TIME_COLUMNS}   # a wrong result has no time
    row.update(status="ok" if ok else "failed_verification", verified=ok, wrong_runs=t.ok.count(False), **times,
               repeats=t.repeats, with_ms_json=_ms_list(t.with_ms), without_ms_json=_ms_list(t.without_ms),
               event_ms_json=_ms_list(t.event_ms))
    row.update({k: t.timings[k] for k in ("row_stride", "pitch_bytes") if k in t.timings})
    return row


def cpu_wall(run, g, ref, repeats):
    """Wall time of a CPU code (the harness: verified, one warm-up)."""
    name, variant = run
    recs = harness.measure(registry.get(name), g, variant=variant, repeats=repeats, warmup=1, reference=ref)
    bad = [r for r in recs if r["status"] != "ok"]
    walls = [r["wall_ms"] for r in recs if "wall_ms" in r]
    row = dict(_run_id(run), status=bad[0]["status"] if bad else "ok", verified=not bad, repeats=len(recs),
               end_to_end_ms=None if bad else float(np.mean(walls)), with_ms_json=_ms_list(walls))
    if bad:
        row["error"] = bad[0].get("error")
    return row


def skipped(run, why):
    return dict(_run_id(run), status="skipped", verified=None, error=why)


def cycles(S, log):
    """Fig. 2.3: his cycles, his three times, and the CPU FW on the same graphs."""
    rows, has_gpu = [], gpu_device.available()
    cpu_sizes = set(spec.sizes(S["cpu_sizes"]))
    for kind in S["graphs"]:
        for n in spec.sizes(S["sizes"]):
            g = spec.make(kind, n)
            ref = spec.reference(kind, g)
            base = dict(stage="cycles", graph=kind, n=n, m=g.m)
            rows.append(dict(base, **(gpu_difference(S["gpu"], g, ref, S["repeats"]) if has_gpu
                                      else skipped(S["gpu"], "no GPU"))))
            if n in cpu_sizes:
                rows.append(dict(base, **cpu_wall(S["cpu"], g, ref, S["cpu_repeats"])))
            log(f"cycles {kind} n={n}: " + ", ".join(f"{r['algorithm']} {r['status']}" for r in rows[-2:] if r["n"] == n
                                                  and r["graph"] == kind))
    return rows


def explorations(S, log):
    """Sec. 2.4: each exploration's three times at a few sizes."""
    rows, has_gpu = [], gpu_device.available()
    for n in spec.sizes(S["sizes"]):
        g = spec.make(S["graph"], n)
        ref = spec.reference(S["graph"], g)
        for run in S["runs"]:
            r = gpu_difference(run, g, ref, S["repeats"]) if has_gpu else skipped(run, "no GPU")
            rows.append(dict(stage="explorations", graph=S["graph"], n=n, m=g.m, **r))
            log(f"explorations n={n} {run[0]}/{run[1]}: {r['status']}")
    return rows


def race(S, log):
    """Exploration 2: how often, and how, the kernel without __syncthreads() is wrong (its control: the
    same kernel with the barrier).  wrong_entries counts entries that differ over all runs;
    undershoots those below the true distance (a path that does not exist)."""
    rows, has_gpu = [], gpu_device.available()
    for kind in S["graphs"]:
        for n in spec.sizes(S["sizes"]):
            g = spec.make(kind, n)
            ref = spec.reference(kind, g)
            for run in S["runs"]:
                base = dict(stage="race", graph=kind, n=n, m=g.m, **_run_id(run))
                if not has_gpu:
                    rows.append(dict(base, **skipped(run, "no GPU")))
                    continue
                rows.append(dict(base, **_race_runs(run, g, ref, S["repeats"])))
                log(f"race {kind} n={n} {run[0]}/{run[1]}: {rows[-1]['status']} "
                    f"({rows[-1].get('wrong_runs')} of {S['repeats']} runs wrong)")
    return rows


def _race_runs(run, g, ref, repeats):
    """A run whose garbage put a negative number on the diagonal is refused by the launcher as a
    negative cycle: that is a wrong run too (``spurious_negative_cycles``)."""
    a = registry.get(run[0])
    wrong_runs = wrong = under = cycles = 0
    first = None
    try:
        for _ in range(repeats):
            try:
                d, _ = a.run(g, variant=run[1])
            except NegativeCycleError as e:
                wrong_runs, cycles, first = wrong_runs + 1, cycles + 1, first or str(e)
                continue
            diff = d != ref
            if diff.any():
                wrong_runs += 1
                wrong += int(diff.sum())
                under += int((d < ref).sum())
                first = first or str(first_difference(d, ref))
    except Exception as e:
        return dict(status="error", verified=False, error=f"{type(e).__name__}: {e}")
    return dict(status="ok" if not wrong_runs else "failed_verification", verified=not wrong_runs, repeats=repeats,
                wrong_runs=wrong_runs, wrong_entries=wrong, undershoots=under, spurious_negative_cycles=cycles,
                first_difference=first)


def sm_scaling(S, log, child_argv=None):
    """Fig. 2.4: his kernel at fixed n on fewer SMs -- green contexts if they work here, else MPS (one
    client process per share, ``child_argv`` + a JSON job), else a not_testable row saying why."""
    base = dict(stage="sm_scaling", graph=S["graph"], n=S["n"])
    if not gpu_device.available():
        return [dict(base, **skipped(S["run"], "no GPU"))]
    ok, why_green = sm_limit.green_probe(min(S["sm_counts"]))
    log(f"green contexts: {'WORKS' if ok else 'DOES NOT WORK'} ({why_green})")
    g = spec.make(S["graph"], S["n"])
    ref = spec.reference(S["graph"], g)
    if ok:
        rows = []
        for c in S["sm_counts"]:
            with sm_limit.green_context(c) as granted:
                seen, _ = sm_limit.sm_census()
                r = gpu_difference(S["run"], g, ref, S["repeats"])
            rows.append(dict(base, m=g.m, sm_method="green_context", sm_requested=c, sm_granted=granted, sm_seen=seen, **r))
            log(f"sm_scaling {granted} SMs (blocks on {seen}): {r['status']}, event time {r.get('event_ms')} ms")
        return rows
    why_mps = "no command line for the MPS clients"
    if child_argv:
        try:
            rows = _mps_rows(S, base, child_argv, log)
            if any(r.get("sm_seen", 1e9) < gpu_device.sm_count() for r in rows):
                return rows
            why_mps = "the percentage did not restrict the SMs (the census saw all of them)"
        except Exception as e:
            why_mps = f"{type(e).__name__}: {e}"
    log(f"MPS: DOES NOT WORK ({why_mps})")
    return [dict(base, **_run_id(S["run"]), status="not_testable", verified=None,
                 error=f"no fair SM restriction here: green contexts: {why_green}; MPS: {why_mps}")]


def _mps_rows(S, base, child_argv, log):
    rows = []
    with sm_limit.mps_daemon() as env:
        for pct in S["mps_percentages"]:
            job = dict(graph=S["graph"], n=S["n"], run=S["run"], repeats=S["repeats"])
            out = sm_limit.mps_client(env, pct, [*child_argv, json.dumps(job)])
            r = json.loads(out.strip().splitlines()[-1])
            rows.append(dict(base, sm_method="mps", sm_requested=pct, **r))
            log(f"sm_scaling MPS {pct}% (blocks on {r.get('sm_seen')} SMs): {r['status']}")
    return rows


def sm_child(job):
    """One MPS client's measurement (run in its own process): the census and his three times."""
    g = spec.make(job["graph"], job["n"])
    seen, _ = sm_limit.sm_census()
    r = gpu_difference(job["run"], g, spec.reference(job["graph"], g), job["repeats"])
    return dict(m=g.m, sm_seen=seen, **r)


STAGE_FUNCTIONS = dict(cycles=cycles, explorations=explorations, race=race, sm_scaling=sm_scaling)


def log_stderr(msg):
    print(msg, file=sys.stderr, flush=True)
