"""What the dense GPU launchers share: the padded host/device matrix in the chosen host memory
mode, the result copied back and finished (INF, negative cycles), and ping-pong stepping."""
from __future__ import annotations

import numpy as np

from ... import gpu_device
from ...core.distances import finish
from ...core.graph import Graph, round_up
from . import runtime as gpu_runtime

TRAN_TILE = 16          # Tran's 16 x 16 thread blocks (Kemp Algs. 12-15); passed to his kernels as TRAN_B
TRAN_DEFINES = (("TRAN_B", TRAN_TILE),)


def dense(name, g: Graph, multiple, count, memory):
    size = round_up(max(g.n, 1), multiple)
    buf = gpu_device.DenseBuffers(name, size, count, memory)
    g.to_dense(pad_to=size, out=buf.host)
    buf.to_device()
    return buf


def result(buf, which, n):
    d = buf.to_host(which)[:n, :n]
    return finish(np.ascontiguousarray(d))


def pingpong(name, g, memory, fn, steps, args_of):
    """Tran's stepping: ``steps`` launches over TRAN_TILE x TRAN_TILE blocks between two buffers."""
    with dense(name, g, TRAN_TILE, 2, memory) as buf:
        size = buf.size
        grid, block = (size // TRAN_TILE, size // TRAN_TILE), (TRAN_TILE, TRAN_TILE)
        with gpu_runtime.EventTimer() as t:
            for s in range(steps):
                src, dst = buf.dev[s % 2], buf.dev[(s + 1) % 2]
                gpu_runtime.launch(name, fn, grid, block, args_of(src, dst, size, s))
        d = result(buf, steps % 2, g.n)
        return d, dict(buf.timings, kernel_ms=t.ms, launches=steps)
