"""Benchmark: the two hardware limits of the device, then each GPU algorithm's throughput
as a fraction of the limit that bounds it.  A benchmark, not a test: it reports.

* bandwidth  -- a large device-to-device copy, bytes read + written per second;
* minplus    -- int32 ``min(a, b + c)`` per second from a register-only microkernel.

Which limit bounds what (the "two numbers" of METHOD.md):
* one pass over the matrix per k (hochberg_naive, tran_fw, thrust_fw): each update reads
  and writes one int32 -> updates/s <= bandwidth / 8 bytes;
* shared-memory tiled kernels (katz_kider, tran_minplus, kemp_ooc): arithmetic-bound ->
  updates/s <= minplus ops/s (kemp_ooc is in practice bounded by the PCIe staging);
* harish: an edge relaxation reads Ea and Wa (8 bytes) at least -> edges/s <= bandwidth / 8.
Updates: n^3 for the FW family, n^3 x squarings for min-plus, n x m for Harish (each edge
relaxed at least once per source; a lower bound on its work).

``algorithms`` picks codes (NAME or NAME/VARIANT, as the sanitizer driver takes them); ``cpu`` adds CPU
codes as rows beside them (their ``kernel_ms`` is the solve's wall time, with no limit), so that a GPU
code and the CPU code it is compared with share one file.  A ``tag`` names the file
``<device>-<date>-<tag>.csv``; ``append`` adds to it (several invocations, one table: each row carries
the limit measured by its own invocation).

``degrees``: Kemp's generator at out-degrees d - 2 .. d + 2 for each d (rows at several densities, the auto
choice's costs: ``costs.py``); default Kemp's own 2 .. 6.

Above n = 4096 a code runs ``large_repeats`` times (default once, with no warm-up on that graph: the
large solves take seconds to minutes each); more than one, after a warm-up solve, as at the small sizes.

The out-of-core codes (those with ``forced_params``) run up to ``ooc_max_n`` with their default budget,
or, given ``ooc_budget_fraction`` F, with ``budget_bytes`` = F x the n x n int32 matrix (0.25: a matrix
four times the device memory it may use); their rows then carry that ``budget_bytes``.

Each row is measured and verified by :func:`harness.measure`, as the campaign's are: every repeat checked
against the graph's one cached reference (:func:`algorithms.reference.reference_checksum`); a row is the
median of its repeats' times, ``verified`` only if every repeat was, and an error row where a run raised.
"""
from __future__ import annotations

import datetime as _dt
from pathlib import Path

import numpy as np
import pandas as pd

from .. import gpu_device
from . import harness, provenance
from ..algorithms import registry
from ..algorithms.reference import reference_checksum
from ..core import generators, structure
from ..algorithms.gpu import runtime as gpu_runtime

_MICRO = r"""
extern "C" __global__ void minplus_micro(const int* seed, int* out, int iters)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int a0 = seed[0] + t, a1 = a0 ^ 1, a2 = a0 ^ 2, a3 = a0 ^ 3, a4 = a0 ^ 5, a5 = a0 ^ 6, a6 = a0 ^ 7, a7 = a0 ^ 9;
    int b = seed[1], c = seed[2] + (t & 7);
    for (int i = 0; i < iters; ++i) {
        a0 = min(a0, b + a7); a1 = min(a1, c + a0); a2 = min(a2, b + a1); a3 = min(a3, c + a2);
        a4 = min(a4, b + a3); a5 = min(a5, c + a4); a6 = min(a6, b + a5); a7 = min(a7, c + a6);
        b -= 1; c += 1;
    }
    out[t] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
"""


def measure_limits(repeats=10):
    cp = gpu_device.require_gpu()
    n = 1 << 28  # 1 GiB of int32
    a = cp.arange(n, dtype=cp.int32)
    b = cp.empty_like(a)
    cp.copyto(b, a)
    times = []
    for _ in range(repeats):
        with gpu_runtime.EventTimer() as t:
            cp.copyto(b, a)
        times.append(t.ms)
    bw = 2 * a.nbytes / (np.median(times) / 1e3)
    del a, b
    k = cp.RawKernel(_MICRO, "minplus_micro")
    sm = gpu_device.sm_count()
    blocks, threads, iters = sm * 16, 256, 4096
    seed = cp.asarray([3, 1, 2], cp.int32)
    out = cp.empty(blocks * threads, cp.int32)
    k((blocks,), (threads,), (seed, out, np.int32(iters)))
    times = []
    for _ in range(repeats):
        with gpu_runtime.EventTimer() as t:
            k((blocks,), (threads,), (seed, out, np.int32(iters)))
        times.append(t.ms)
    ops = blocks * threads * iters * 8 / (np.median(times) / 1e3)
    return {"bandwidth_Bps": float(bw), "minplus_ops": float(ops)}


def picked(name, variant, only):
    """NAME or NAME/VARIANT named in ``only`` (None: every code)."""
    return only is None or bool({name, f"{name}/{variant}"} & set(only))


def _warm(algo, variant):
    """One small solve first: compilation (NVRTC, CuPy's own kernels, numba) stays out of every timing.
    [] if it ran, else the harness's error record."""
    return harness.measure(algo, generators.kemp(256, seed=1), variant=variant, repeats=0, warmup=1)


def row(algo, variant, g, records, limit_value, device, **kw):
    """The benchmark's row of one code on one graph from the harness's records of its repeats: the median
    time (a GPU code's ``kernel_ms``, CUDA events; a CPU code's ``wall_ms``), the updates per second and
    the fraction of the limit that bounds the code, and beside it ``wall_ms``, the median synchronised wall
    clock of the whole launcher call (the graph's upload, the kernel, the copy back, the finish: end to end as
    the study's launchers run; ``shortest_paths`` end to end is the structure suite's); an error row where a
    run raised."""
    base = dict(algorithm=algo.name, variant=variant, n=g.n, m=g.m)
    failed = [r for r in records if r["status"] == "error"]
    if failed or not records:
        return dict(base, verified=False, device=device, **kw,
                    error=failed[0]["error"] if failed else "no repeat recorded")
    ms = float(np.median([r["kernel_ms"] if algo.device == "gpu" else r["wall_ms"] for r in records]))
    ups = algo.updates(g) / (ms / 1e3)
    kind = algo.limit_kind
    lv = limit_value[kind] if kind else float("nan")
    wall = float(np.median([r["wall_ms"] for r in records]))
    return dict(base, kernel_ms=ms, wall_ms=wall, updates_per_s=ups, limit_kind=kind or "", limit=lv,
                fraction_of_limit=ups / lv, verified=all(r["verified"] is True for r in records), device=device, **kw)


def _write(before, rows, path):
    df = pd.DataFrame(rows)
    if before is not None:
        df = pd.concat([before, df], ignore_index=True)
    df.to_csv(path, index=False)
    return df


def run(sizes=(1024, 4096, 16384), repeats=3, out_dir=None, ooc_max_n=4096, log=print, algorithms=None, cpu=(),
        tag=None, append=False, ooc_budget_fraction=None, large_repeats=1, degrees=None):
    gpu_device.require_gpu()         # a clear error before any work when there is no GPU
    lim = measure_limits()
    limit_value = {"bandwidth": lim["bandwidth_Bps"] / 8, "minplus": lim["minplus_ops"]}
    log(f"limits: copy bandwidth {lim['bandwidth_Bps'] / 1e12:.2f} TB/s (read+write), "
        f"int32 min-plus {lim['minplus_ops'] / 1e12:.2f} Tops/s")
    dev = provenance.gpu_info()["gpu"]
    out_dir = Path(out_dir or Path(__file__).resolve().parents[2] / "data" / "results" / "benchmarks")
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{dev.replace(' ', '_')}-{_dt.date.today().isoformat()}" + (f"-{tag}" if tag else "")
    path = out_dir / f"{stem}.csv"
    before = pd.read_csv(path) if append and path.exists() else None
    prov = provenance.collect("bench", dict(sizes=list(sizes), repeats=repeats, algorithms=algorithms,
                                            cpu=list(cpu), ooc_max_n=ooc_max_n,
                                            ooc_budget_fraction=ooc_budget_fraction, large_repeats=large_repeats,
                                            degrees=degrees, **lim))
    provenance.write_invocation(out_dir / f"{stem}.provenance.json", prov, append)
    codes = [(a, v) for a in registry.by_device("gpu") if not a.exploration for v in a.variants
             if picked(a.name, v, algorithms)]
    codes += [(a, v) for a in registry.by_device("cpu") for v in a.variants if a.name in cpu or f"{a.name}/{v}" in cpu]
    warm = set()
    rows = []
    graphs = [(n, d) for n in sizes for d in (degrees or (None,))]
    for n, d in graphs:
        g = generators.kemp(n, seed=n) if d is None else generators.kemp(n, max(0, d - 2), d + 2, seed=n)
        ref = None                                      # the graph's cached reference, once a code runs on it
        depth = structure.probe(g).hop_depth            # what a sweep code's time grows with (costs.predict)
        for algo, variant in codes:
            if algo.forced_params is not None and n > ooc_max_n:       # out-of-core: PCIe-bound, slow
                continue
            fp = algo.footprint(n, g.m)
            if algo.device == "gpu" and algo.forced_params is None and fp > 0.9 * gpu_device.free_bytes()[0]:
                continue
            if g.has_negative and not algo.negative_weights:
                continue
            kw = {}
            if algo.forced_params is not None and ooc_budget_fraction is not None:
                kw["budget_bytes"] = int(ooc_budget_fraction * 4 * n * n)
            records = [] if (algo.name, variant) in warm else _warm(algo, variant)
            if not records:
                warm.add((algo.name, variant))
                if ref is None:
                    ref = reference_checksum(g)
                reps = repeats if n <= 4096 else large_repeats
                records = harness.measure(algo, g, variant=variant, repeats=reps,
                                          warmup=1 if reps > 1 else 0,        # a warm-up on the graph (caches)
                                          reference=ref, params=kw)
            rows.append(row(algo, variant, g, records, limit_value, dev, hop_depth=depth, **kw))
            r = rows[-1]
            _write(before, rows, path)              # after every row: a run cut short keeps what it measured
            log(f"{algo.name:15s} {str(variant):10s} n={n:6d} m={g.m:9d} "
                + (f"{r['kernel_ms']:10.1f} ms {r['updates_per_s'] / 1e9:9.1f} G/s "
                   f"{100 * r['fraction_of_limit']:6.2f}% of {r['limit_kind'] or 'no limit (CPU wall time)'} "
                   f"verified={r['verified']}" if "kernel_ms" in r else f"ERROR {r['error']}"))
    df = _write(before, rows, path)
    return df, lim, path
