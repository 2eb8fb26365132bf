"""Timing harness: one verified record per run (or a sampled estimate, marked as such).
Statistics, results files and provenance live in :mod:`apsp_kernels.study`.

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

import numpy as np
import pandas as pd

from ..core.verify import first_difference, fletcher64


def _base_record(algo, graph, variant, params, extra):
    """What every record of one (algorithm, variant, parameters, graph) carries."""
    return dict(algorithm=algo.name, variant=str(variant if variant is not None else algo.default_variant),
                device=algo.device, n=graph.n, m=graph.m, degree=round(graph.m / max(graph.n, 1), 3),
                graph_seed=graph.meta.get("seed"), generator=graph.meta.get("generator"),
                params=json.dumps(params, sort_keys=True), **(extra or {}))


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
    base = _base_record(algo, graph, variant, params, extra)
    records = []
    try:
        for _ in range(warmup):
            algo.run(graph, variant=variant, **params)
        for rep in range(repeats):
            t0 = time.perf_counter()
            d, timings = algo.run(graph, variant=variant, **params)   # run() synchronises before returning
            wall = (time.perf_counter() - t0) * 1e3
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
    base = _base_record(algo, graph, variant, params, extra)
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


def read_records(path):
    """A results CSV as written: variants and parameters stay text ("None" is a variant here,
    not a missing value, which pandas would otherwise make of it)."""
    df = pd.read_csv(path, dtype={"variant": str, "params": str}, keep_default_na=True)
    if "variant" in df:
        df["variant"] = df["variant"].fillna("None")
    return df
