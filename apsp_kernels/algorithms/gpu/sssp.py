"""Harish & Narayanan's two-phase SSSP from chosen sources, as seed 001 presents it (§4: Algs. 10-12),
and its thread coarsening (§4.3).

* :func:`harish_sssp` -- the kernels of ``cuda/harish.cu`` (the ones the APSP launcher
  :func:`.harish.harish` repeats from every vertex, seed 001's Alg. 13), one host loop per source:
  ``variant="original"`` is Algorithm 11 as published, its lines 6-7 not atomic (the write-after-
  write race on U_a of §4.2: it may return distances that are too long); ``"corrected"`` makes
  them one atomicMin (§4.2's fix).
* :func:`harish_sssp_coarsened` -- ``cuda/sssp_coarsened.cu``: the corrected kernels with each
  thread doing the work of ``coarsen`` (1, 2, 4, 8 or 16) threads.

Each returns ``(distances, timings)``: int32 of shape (len(sources), n), INF where unreachable;
``kernel_ms`` (CUDA events around every search: initialisation, the sweeps, the host's read of the
flag after each, the copy of the row), ``sweeps`` (phase-1/phase-2 pairs, summed over the
sources), ``alloc_ms``, ``h2d_ms``, ``d2h_ms`` as the other GPU launchers.  ``threads``: threads per
block, 32 as the APSP launcher (Harish & Narayanan's); seed 001 does not state one."""
from __future__ import annotations

import numpy as np

from ...core.graph import Graph
from ...core.sources import as_sources
from . import runtime as gpu_runtime
from .csr import Searches, blocks

SSSP_VARIANTS = ("corrected", "original")
COARSENING = (1, 2, 4, 8, 16)
HARISH_THREADS = 32


def _checked(g, name):
    g.require_non_negative(f"{name}: Harish & Narayanan's algorithm")


def _search(name, g, sources, phase1, phase2, grid, threads):
    """Algorithm 10 from each source: initialise, then phase 1 and phase 2 until no cost changed."""
    src, n = as_sources(sources, g.n), g.n
    S = Searches(name, g, src, weights=True, extra_bytes=9 * n + 4)
    Va, Ea, Wa = S.arrays
    Ma, Ca, Ua, changed = S.alloc(lambda cp: (cp.empty(max(n, 1), cp.uint8), cp.empty(max(n, 1), cp.int32),
                                              cp.empty(max(n, 1), cp.int32), cp.zeros(1, cp.int32)))
    init = gpu_runtime.kernel("harish.cu", "harish_init")
    block, n32 = (int(threads),), np.int32(n)
    h = np.zeros(1, np.int32)
    sweeps = 0
    with gpu_runtime.EventTimer() as t:
        for row, s in enumerate(src):
            gpu_runtime.launch(name, init, blocks(n, threads), block, (Ma, Ca, Ua, n32, np.int32(s)))
            while True:                                   # Alg. 10 lines 8-12
                changed.fill(0)
                gpu_runtime.launch(name, phase1, grid, block, (Va, Ea, Wa, Ma, Ca, Ua, n32))
                gpu_runtime.launch(name, phase2, grid, block, (Ma, Ca, Ua, changed, n32))
                sweeps += 1
                changed.get(out=h)
                if h[0] == 0:
                    break
            S.keep(row, Ca)
    return S.result(), dict(S.timings, kernel_ms=t.ms, sweeps=sweeps, sources=len(src))


def harish_sssp(g: Graph, sources=None, variant="corrected", threads=HARISH_THREADS):
    if variant not in SSSP_VARIANTS:
        raise ValueError(f"variant must be one of {SSSP_VARIANTS}, got {variant!r}")
    name = f"harish_sssp_{variant}"
    _checked(g, name)
    k1 = "harish_kernel1" if variant == "original" else "harish_kernel1_atomic_ua"
    phase1, phase2 = gpu_runtime.kernel("harish.cu", k1), gpu_runtime.kernel("harish.cu", "harish_kernel2")
    return _search(name, g, sources, phase1, phase2, blocks(g.n, threads), threads)


def harish_sssp_coarsened(g: Graph, sources=None, coarsen=1, threads=HARISH_THREADS):
    if coarsen not in COARSENING:
        raise ValueError(f"coarsen must be one of {COARSENING}, got {coarsen!r}")
    name = f"harish_sssp_cf{coarsen}"
    _checked(g, name)
    names = tuple(f"sssp_phase{p}_coarsened<{c}>" for c in COARSENING for p in (1, 2))
    phase1, phase2 = (gpu_runtime.kernel("sssp_coarsened.cu", f"sssp_phase{p}_coarsened<{coarsen}>", name_expressions=names)
                      for p in (1, 2))
    return _search(name, g, sources, phase1, phase2, blocks(-(-g.n // coarsen), threads), threads)
