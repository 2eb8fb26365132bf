"""Dense FW on the GPU, one pass over the matrix per pivot k: Hochberg's naive kernel (seed 002),
seed 001's naive FW (its Alg. 14), Tran's FW (Kemp Algs. 12-13) and seed 003's Thrust-style
transform.  Each returns ``(distances, timings)``: int32 distances (INF for no path, negative cycles
refused), ``kernel_ms`` (CUDA events around the launches), ``alloc_ms``, ``h2d_ms``, ``d2h_ms``; each
synchronises first."""
from __future__ import annotations

import numpy as np

from ... import gpu_device
from ...core.graph import Graph
from . import runtime as gpu_runtime
from .dense import TRAN_DEFINES, dense, pingpong, result

def hochberg_naive(g: Graph, memory="pageable"):
    name = "hochberg_naive"
    k = gpu_runtime.kernel("hochberg_naive.cu", "hochberg_fw_step")
    with dense(name, g, 32, 1, memory) as buf:
        Na, N = buf.size, g.n
        grid = ((N + 255) // 256, max(N, 1))
        with gpu_runtime.EventTimer() as t:
            for kk in range(N):
                gpu_runtime.launch(name, k, grid, (256,), (np.int32(kk), buf.dev[0], np.int32(Na), np.int32(N)))
        d = result(buf, 0, N)
        return d, dict(buf.timings, kernel_ms=t.ms, launches=N)


NAIVE_FW_TILE = 16      # seed 001 states no thread layout: 16 x 16 blocks (cuda/iitkgp_naive_fw.cu says why)


def iitkgp_naive_fw(g: Graph, memory="pageable"):
    """Seed 001's Algorithm 14: one launch per k, one thread per (u, v), in place, unpadded."""
    name = "iitkgp_naive_fw"
    k = gpu_runtime.kernel("iitkgp_naive_fw.cu", "naive_fw_step")
    with dense(name, g, 1, 1, memory) as buf:
        N, T = g.n, NAIVE_FW_TILE
        grid = (max(1, -(-N // T)), max(1, -(-N // T)))
        with gpu_runtime.EventTimer() as t:
            for kk in range(N):
                gpu_runtime.launch(name, k, grid, (T, T), (buf.dev[0], np.int32(N), np.int32(kk)))
        d = result(buf, 0, N)
        return d, dict(buf.timings, kernel_ms=t.ms, launches=N)


def tran_fw(g: Graph, memory="pageable"):
    k = gpu_runtime.kernel("tran_fw.cu", "tran_fw_step", defines=TRAN_DEFINES)
    return pingpong("tran_fw", g, memory, k, g.n,
                     lambda s, d, size, kk: (s, d, np.int32(size), np.int32(kk)))


_THRUST = None


def thrust_fw(g: Graph, memory="pageable"):
    """Seed 003's Thrust FW: a transform over every (i, j) per k, ping-pong buffers."""
    global _THRUST
    cp = gpu_device.require_gpu()
    if _THRUST is None:
        _THRUST = cp.ElementwiseKernel(
            "raw int32 G, int32 n, int32 k", "int32 P",
            "int row = i / n; int col = i - row * n; P = min(G[i], G[row * n + k] + G[k * n + col]);",
            "apsp_thrust_fw_step")
    name = "thrust_fw"
    with dense(name, g, 1, 2, memory) as buf:
        size = buf.size
        with gpu_runtime.EventTimer() as t:
            for kk in range(g.n):
                src, dst = buf.dev[kk % 2], buf.dev[(kk + 1) % 2]
                gpu_runtime.launch(name, _THRUST, src, np.int32(size), np.int32(kk), dst)
        d = result(buf, g.n % 2, g.n)
        return d, dict(buf.timings, kernel_ms=t.ms, launches=g.n)
