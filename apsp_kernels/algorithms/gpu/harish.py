"""Harish & Narayanan's SSSP-based APSP on the GPU (Kemp Algs. 10-11; seed 001's race and fix)."""
from __future__ import annotations

import time

import numpy as np

from ... import gpu_device
from ...core.distances import finish
from ...core.graph import Graph
from . import runtime as gpu_runtime

HARISH_VARIANTS = ("original", "atomic", "corrected")


def harish(g: Graph, variant="atomic"):
    """Harish & Narayanan's APSP: SSSP from every source, Ca copied to pinned host memory after each."""
    if variant not in HARISH_VARIANTS:
        raise ValueError(f"variant must be one of {HARISH_VARIANTS}, got {variant!r}")
    g.require_non_negative("Harish & Narayanan's algorithm")
    cp = gpu_device.require_gpu()
    import cupyx
    name = f"harish_{variant}"
    n, m = g.n, g.m
    gpu_device.check_fits(name, 4 * (n + 1 + 2 * m) + 9 * n + 4, hint="a smaller graph")
    timings = dict(alloc_ms=0.0, h2d_ms=0.0, d2h_ms=0.0)
    t0 = time.perf_counter()
    out = cupyx.empty_pinned((n, n), np.int32)
    Ma = cp.empty(n, cp.uint8)
    Ca = cp.empty(n, cp.int32)
    Ua = cp.empty(n, cp.int32)
    changed = cp.zeros(1, cp.int32)
    timings["alloc_ms"] = (time.perf_counter() - t0) * 1e3
    t0 = time.perf_counter()
    Va, Ea, Wa = (cp.asarray(a.astype(np.int32)) for a in (g.indptr, g.indices, g.weights))
    cp.cuda.Device().synchronize()
    timings["h2d_ms"] = (time.perf_counter() - t0) * 1e3
    f = lambda nm: gpu_runtime.kernel("harish.cu", nm)
    init, k2 = f("harish_init"), f("harish_kernel2")
    k1 = f("harish_kernel1") if variant == "original" else f("harish_kernel1_atomic_ua")
    katomic = f("harish_atomic")
    grid, block, n32 = ((n + 31) // 32,), (32,), np.int32(n)
    flag = np.zeros(1, np.int32)
    sweeps = 0
    stream = cp.cuda.get_current_stream()
    with gpu_runtime.EventTimer() as t:
        for s in range(n):
            gpu_runtime.launch(name, init, grid, block, (Ma, Ca, Ua, n32, np.int32(s)))
            while True:
                changed.fill(0)
                if variant == "atomic":
                    gpu_runtime.launch(name, katomic, grid, block, (Va, Ea, Wa, Ma, Ca, changed, n32))
                else:
                    gpu_runtime.launch(name, k1, grid, block, (Va, Ea, Wa, Ma, Ca, Ua, n32))
                    gpu_runtime.launch(name, k2, grid, block, (Ma, Ca, Ua, changed, n32))
                sweeps += 1
                changed.get(out=flag)
                if flag[0] == 0:
                    break
            cp.cuda.runtime.memcpyAsync(out.ctypes.data + s * n * 4, Ca.data.ptr, n * 4,
                                        cp.cuda.runtime.memcpyDeviceToHost, stream.ptr)
    timings.update(kernel_ms=t.ms, sweeps=sweeps)
    return finish(np.array(out)), timings
