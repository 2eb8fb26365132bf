"""Blocked FW on the GPU: Katz & Kider's in-core kernel (Kemp Algs. 16-18) and Kemp's out-of-core
version (Alg. 19), whose host matrix lives in pinned memory and streams through the device in
partitions of block rows."""
from __future__ import annotations

import time

import numpy as np

from ... import gpu_device
from ...core.distances import finish
from ...core.graph import Graph, round_up
from . import runtime as gpu_runtime
from .dense import dense, result

KK_BLOCKS = (16, 32)


def _kk_kernels(filename, prefix, block):
    if block not in KK_BLOCKS:
        raise ValueError(f"block must be one of {KK_BLOCKS}, got {block}")
    names = [f"{prefix}_phase{p}<{block}>" for p in (1, 2, 3)]
    return [gpu_runtime.kernel(filename, nm, name_expressions=tuple(
        f"{prefix}_phase{p}<{b}>" for b in KK_BLOCKS for p in (1, 2, 3))) for nm in names]


def katz_kider(g: Graph, block=16, memory="pageable"):
    name = f"katz_kider_b{block}"
    p1, p2, p3 = _kk_kernels("katz_kider.cu", "kk", block)
    with dense(name, g, block, 1, memory) as buf:
        size = buf.size
        nb = size // block
        G, n32 = buf.dev[0], np.int32(size)
        with gpu_runtime.EventTimer() as t:
            for r in range(nb):
                r32 = np.int32(r)
                gpu_runtime.launch(name, p1, (1,), (block, block), (G, n32, r32))
                if nb > 1:
                    gpu_runtime.launch(name, p2, (nb - 1, 2), (block, block), (G, n32, r32))
                    gpu_runtime.launch(name, p3, (nb - 1, nb - 1), (block, block), (G, n32, r32))
        d = result(buf, 0, g.n)
        return d, dict(buf.timings, kernel_ms=t.ms, launches=nb * (3 if nb > 1 else 1))


def kemp_ooc(g: Graph, block=16, budget_bytes=None):
    """Kemp's out-of-core KK.  ``budget_bytes`` caps the device memory it may use (default:
    a third of what is free, Kemp's rule); a budget smaller than the matrix forces the graph
    through the partitioned path, as Kemp did with his small graphs."""
    cp = gpu_device.require_gpu()
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
        raise gpu_device.GPUMemoryError(f"{name}: a budget of {budget_bytes} bytes holds less than 3 block rows "
                                 f"of {strip} bytes; raise budget_bytes")
    rows_per_part = min(rows_per_part, nb)
    gpu_device.check_fits(name, (2 + rows_per_part) * strip, hint="a smaller budget_bytes")
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
    with gpu_runtime.EventTimer() as t:
        for r in range(nb):
            r32 = np.int32(r)
            row0 = hp + r * B * pitch
            cp.cuda.runtime.memcpyAsync(R.data.ptr, row0, strip, H2D, stream.ptr)
            cp.cuda.runtime.memcpy2DAsync(C.data.ptr, colw, hp + r * colw, pitch, colw, N, H2D, stream.ptr)
            gpu_runtime.launch(name, p1, (1,), (B, B), (R, C, n32, r32))
            if nb > 1:
                gpu_runtime.launch(name, p2, (nb - 1, 2), (B, B), (R, C, n32, r32))
            cp.cuda.runtime.memcpyAsync(row0, R.data.ptr, strip, D2H, stream.ptr)
            cp.cuda.runtime.memcpy2DAsync(hp + r * colw, pitch, C.data.ptr, colw, colw, N, D2H, stream.ptr)
            if nb == 1:
                continue
            for first in range(0, nb, rows_per_part):
                cnt = min(rows_per_part, nb - first)
                part = hp + first * B * pitch
                cp.cuda.runtime.memcpyAsync(S.data.ptr, part, cnt * strip, H2D, stream.ptr)
                gpu_runtime.launch(name, p3, (nb - 1, cnt), (B, B), (S, R, C, n32, r32, np.int32(first)))
                cp.cuda.runtime.memcpyAsync(part, S.data.ptr, cnt * strip, D2H, stream.ptr)
    timings["kernel_ms"] = t.ms   # kernels and the staging copies between them
    d = finish(np.array(H[:g.n, :g.n]))
    return d, timings
