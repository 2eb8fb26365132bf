"""Launchers of the faithful CUDA kernels (``cuda/*.cu``).

Each takes a Graph and returns ``(distances, timings)``: an int32 numpy matrix (INF for
"no path", checked for negative cycles) and ``kernel_ms`` (CUDA events around all kernel
launches), ``alloc_ms``, ``h2d_ms``, ``d2h_ms``.  They synchronise before returning, so
a host clock around a call is the end-to-end time.
"""
from __future__ import annotations

import time

import numpy as np

from . import gpu
from .distances import finish, minplus_steps
from .graph import Graph, GraphError, round_up

KK_BLOCKS = (16, 32)


def _dense(name, g: Graph, multiple, count, memory):
    size = round_up(max(g.n, 1), multiple)
    buf = gpu.DenseBuffers(name, size, count, memory)
    g.to_dense(pad_to=size, out=buf.host)
    buf.to_device()
    return buf


def _result(buf, which, n):
    d = buf.to_host(which)[:n, :n]
    return finish(np.ascontiguousarray(d))


def hochberg_naive(g: Graph, memory="pageable"):
    name = "hochberg_naive"
    k = gpu.kernel("hochberg_naive.cu", "hochberg_fw_step")
    with _dense(name, g, 32, 1, memory) as buf:
        Na, N = buf.size, g.n
        grid = ((N + 255) // 256, max(N, 1))
        with gpu.EventTimer() as t:
            for kk in range(N):
                gpu.launch(name, k, grid, (256,), (np.int32(kk), buf.dev[0], np.int32(Na), np.int32(N)))
        d = _result(buf, 0, N)
        return d, dict(buf.timings, kernel_ms=t.ms, launches=N)


def _pingpong(name, g, memory, fn, steps, args_of):
    with _dense(name, g, 16, 2, memory) as buf:
        size = buf.size
        grid, block = (size // 16, size // 16), (16, 16)
        with gpu.EventTimer() as t:
            for s in range(steps):
                src, dst = buf.dev[s % 2], buf.dev[(s + 1) % 2]
                gpu.launch(name, fn, grid, block, args_of(src, dst, size, s))
        d = _result(buf, steps % 2, g.n)
        return d, dict(buf.timings, kernel_ms=t.ms, launches=steps)


def tran_fw(g: Graph, memory="pageable"):
    k = gpu.kernel("tran_fw.cu", "tran_fw_step")
    return _pingpong("tran_fw", g, memory, k, g.n,
                     lambda s, d, size, kk: (s, d, np.int32(size), np.int32(kk)))


def tran_minplus(g: Graph, memory="pageable"):
    k = gpu.kernel("tran_minplus.cu", "tran_minplus_square")
    return _pingpong("tran_minplus", g, memory, k, minplus_steps(g),
                     lambda s, d, size, _: (s, d, np.int32(size)))


def _kk_kernels(filename, prefix, block):
    if block not in KK_BLOCKS:
        raise ValueError(f"block must be one of {KK_BLOCKS}, got {block}")
    names = [f"{prefix}_phase{p}<{block}>" for p in (1, 2, 3)]
    return [gpu.kernel(filename, nm, name_expressions=tuple(
        f"{prefix}_phase{p}<{b}>" for b in KK_BLOCKS for p in (1, 2, 3))) for nm in names]


def katz_kider(g: Graph, block=16, memory="pageable"):
    name = f"katz_kider_b{block}"
    p1, p2, p3 = _kk_kernels("katz_kider.cu", "kk", block)
    with _dense(name, g, block, 1, memory) as buf:
        size = buf.size
        nb = size // block
        G, n32 = buf.dev[0], np.int32(size)
        with gpu.EventTimer() as t:
            for r in range(nb):
                r32 = np.int32(r)
                gpu.launch(name, p1, (1,), (block, block), (G, n32, r32))
                if nb > 1:
                    gpu.launch(name, p2, (nb - 1, 2), (block, block), (G, n32, r32))
                    gpu.launch(name, p3, (nb - 1, nb - 1), (block, block), (G, n32, r32))
        d = _result(buf, 0, g.n)
        return d, dict(buf.timings, kernel_ms=t.ms, launches=nb * (3 if nb > 1 else 1))


_THRUST = None


def thrust_fw(g: Graph, memory="pageable"):
    """Seed 003's Thrust FW: a transform over every (i, j) per k, ping-pong buffers."""
    global _THRUST
    cp = gpu.require_gpu()
    if _THRUST is None:
        _THRUST = cp.ElementwiseKernel(
            "raw int32 G, int32 n, int32 k", "int32 P",
            "int row = i / n; int col = i - row * n; P = min(G[i], G[row * n + k] + G[k * n + col]);",
            "apsp_thrust_fw_step")
    name = "thrust_fw"
    with _dense(name, g, 1, 2, memory) as buf:
        size = buf.size
        with gpu.EventTimer() as t:
            for kk in range(g.n):
                src, dst = buf.dev[kk % 2], buf.dev[(kk + 1) % 2]
                gpu.launch(name, _THRUST, src, np.int32(size), np.int32(kk), dst)
        d = _result(buf, g.n % 2, g.n)
        return d, dict(buf.timings, kernel_ms=t.ms, launches=g.n)


def kemp_ooc(g: Graph, block=16, budget_bytes=None):
    """Kemp's out-of-core KK.  ``budget_bytes`` caps the device memory it may use (default:
    a third of what is free, Kemp's rule); a budget smaller than the matrix forces the graph
    through the partitioned path, as Kemp did with his small graphs."""
    cp = gpu.require_gpu()
    import cupyx
    name = f"kemp_ooc_b{block}"
    p1, p2, p3 = _kk_kernels("kemp_out_of_core.cu", "ooc", block)
    N = round_up(max(g.n, 1), block)
    nb = N // block
    strip = block * N * 4                        # one block row: B x N int32
    if budget_bytes is None:
        budget_bytes = cp.cuda.runtime.memGetInfo()[0] // 3
    rows_per_part = int(budget_bytes // strip) - 2   # R and C take two strips' worth
    if rows_per_part < 1:
        raise gpu.GPUMemoryError(f"{name}: a budget of {budget_bytes} bytes holds less than 3 block rows "
                                 f"of {strip} bytes; raise budget_bytes")
    rows_per_part = min(rows_per_part, nb)
    gpu.check_fits(name, (2 + rows_per_part) * strip, hint="a smaller budget_bytes")
    timings = dict(alloc_ms=0.0, h2d_ms=0.0, d2h_ms=0.0, partitions=-(-nb // rows_per_part))
    t0 = time.perf_counter()
    H = cupyx.empty_pinned((N, N), np.int32)
    R = cp.empty((block, N), cp.int32)
    C = cp.empty((N, block), cp.int32)
    S = cp.empty((rows_per_part * block, N), cp.int32)
    cp.cuda.Device().synchronize()
    timings["alloc_ms"] = (time.perf_counter() - t0) * 1e3
    g.to_dense(pad_to=N, out=H)
    hp = H.ctypes.data
    H2D, D2H = cp.cuda.runtime.memcpyHostToDevice, cp.cuda.runtime.memcpyDeviceToHost
    pitch, colw = N * 4, block * 4
    stream = cp.cuda.get_current_stream()
    n32, B = np.int32(N), block
    with gpu.EventTimer() as t:
        for r in range(nb):
            r32 = np.int32(r)
            row0 = hp + r * B * pitch
            cp.cuda.runtime.memcpyAsync(R.data.ptr, row0, strip, H2D, stream.ptr)
            cp.cuda.runtime.memcpy2DAsync(C.data.ptr, colw, hp + r * colw, pitch, colw, N, H2D, stream.ptr)
            gpu.launch(name, p1, (1,), (B, B), (R, C, n32, r32))
            if nb > 1:
                gpu.launch(name, p2, (nb - 1, 2), (B, B), (R, C, n32, r32))
            cp.cuda.runtime.memcpyAsync(row0, R.data.ptr, strip, D2H, stream.ptr)
            cp.cuda.runtime.memcpy2DAsync(hp + r * colw, pitch, C.data.ptr, colw, colw, N, D2H, stream.ptr)
            if nb == 1:
                continue
            for first in range(0, nb, rows_per_part):
                cnt = min(rows_per_part, nb - first)
                part = hp + first * B * pitch
                cp.cuda.runtime.memcpyAsync(S.data.ptr, part, cnt * strip, H2D, stream.ptr)
                gpu.launch(name, p3, (nb - 1, cnt), (B, B), (S, R, C, n32, r32, np.int32(first)))
                cp.cuda.runtime.memcpyAsync(part, S.data.ptr, cnt * strip, D2H, stream.ptr)
    timings["kernel_ms"] = t.ms   # kernels and the staging copies between them
    d = finish(np.array(H[:g.n, :g.n]))
    return d, timings


HARISH_VARIANTS = ("original", "atomic", "corrected")


def harish(g: Graph, variant="atomic"):
    """Harish & Narayanan's APSP: SSSP from every source, Ca copied to pinned host memory after each."""
    if variant not in HARISH_VARIANTS:
        raise ValueError(f"variant must be one of {HARISH_VARIANTS}, got {variant!r}")
    if g.has_negative:
        raise GraphError("Harish & Narayanan's algorithm needs non-negative edge weights "
                         f"(min weight {int(g.weights.min())})")
    cp = gpu.require_gpu()
    import cupyx
    name = f"harish_{variant}"
    n, m = g.n, g.m
    gpu.check_fits(name, 4 * (n + 1 + 2 * m) + 9 * n + 4, hint="a smaller graph")
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
    f = lambda nm: gpu.kernel("harish.cu", nm)
    init, k2 = f("harish_init"), f("harish_kernel2")
    k1 = f("harish_kernel1") if variant == "original" else f("harish_kernel1_atomic_ua")
    katomic = f("harish_atomic")
    grid, block, n32 = ((n + 31) // 32,), (32,), np.int32(n)
    flag = np.zeros(1, np.int32)
    sweeps = 0
    stream = cp.cuda.get_current_stream()
    with gpu.EventTimer() as t:
        for s in range(n):
            gpu.launch(name, init, grid, block, (Ma, Ca, Ua, n32, np.int32(s)))
            while True:
                changed.fill(0)
                if variant == "atomic":
                    gpu.launch(name, katomic, grid, block, (Va, Ea, Wa, Ma, Ca, changed, n32))
                else:
                    gpu.launch(name, k1, grid, block, (Va, Ea, Wa, Ma, Ca, Ua, n32))
                    gpu.launch(name, k2, grid, block, (Ma, Ca, Ua, changed, n32))
                sweeps += 1
                changed.get(out=flag)
                if flag[0] == 0:
                    break
            cp.cuda.runtime.memcpyAsync(out.ctypes.data + s * n * 4, Ca.data.ptr, n * 4,
                                        cp.cuda.runtime.memcpyDeviceToHost, stream.ptr)
    timings.update(kernel_ms=t.ms, sweeps=sweeps)
    return finish(np.array(out)), timings
