"""``tuned_fw``: blocked FW with block 128, phase 3 a register-tiled min-plus product
(``cuda/tuned_fw.cu`` says how and why).  n is padded to a multiple of 128 with isolated vertices."""
from __future__ import annotations

import numpy as np

from .... import gpu_device
from ....core.graph import Graph, round_up
from .. import runtime as gpu_runtime
from ..dense import dense, result

TILE = 128          # block size of the FW and tile of the product (TFW_T in the kernel)
THREADS = 256       # 8 x 8 cells a thread (TFW_THREADS)


def padded(n):
    return round_up(max(int(n), 1), TILE)


def footprint(n, m=0):
    """Device bytes: the padded matrix and the transposed pivot column (colT, 128 x N)."""
    N = padded(n)
    return 4 * N * N + 4 * TILE * N


def _kernels():
    return [gpu_runtime.kernel("tuned_fw.cu", f"tfw_phase{p}") for p in (1, 2, 3)]


def tuned_fw(g: Graph, phases=False):
    """Distances and timings; ``phases=True`` adds phase1_ms .. phase3_ms (CUDA events around every
    launch, summed: a diagnostic, since the events themselves cost a little)."""
    name = "tuned_fw"
    gpu_device.require_gpu()
    N = padded(g.n)
    gpu_device.check_fits(name, footprint(g.n), hint="a smaller graph")
    with dense(name, g, TILE, 1, "pageable") as buf:
        assert buf.size == N
        timings = dict(buf.timings, **_solve(name, buf.dev[0], N, phases))
        d = result(buf, 0, g.n)
        return d, timings


def tuned_fw_resident(g: Graph):
    """The solver's end-to-end path (``shortest_paths``): the matrix built on the device from the graph's
    edges, solved in place and left there: (the n x n cupy view, not yet INF-normalised, timings)."""
    from ..resident import dense_on_device
    name = "tuned_fw"
    gpu_device.require_gpu()
    N = padded(g.n)
    gpu_device.check_fits(name, footprint(g.n), hint="a smaller graph")
    D, timings = dense_on_device(g, N)
    timings.update(_solve(name, D, N, False))
    return D[:g.n, :g.n], timings


def _solve(name, D, N, phases):
    """Blocked FW in place on the device matrix ``D`` (N x N, N a multiple of TILE): its timings."""
    cp = gpu_device.require_gpu()
    p1, p2, p3 = _kernels()
    nb = N // TILE
    n32 = np.int32(N)
    colT = cp.empty((TILE, N), cp.int32)
    marks = []
    with gpu_runtime.EventTimer() as t:
        for r in range(nb):
            r32 = np.int32(r)
            steps = [(p1, (1,), (D, n32, r32))]
            if nb > 1:
                steps += [(p2, (nb - 1, 2), (D, colT, n32, r32)), (p3, (nb - 1, nb - 1), (D, colT, n32, r32))]
            for i, (fn, grid, args) in enumerate(steps):
                if phases:
                    ev = cp.cuda.Event()
                    ev.record()
                    marks.append((i, ev))
                gpu_runtime.launch(name, fn, grid, (THREADS,), args)
            if phases:
                ev = cp.cuda.Event()
                ev.record()
                marks.append((None, ev))
    timings = dict(kernel_ms=t.ms, launches=nb * (3 if nb > 1 else 1), padded_n=N)
    if phases:
        per = [0.0, 0.0, 0.0]
        for (i, a), (_, b) in zip(marks, marks[1:]):
            if i is not None:
                per[i] += cp.cuda.get_elapsed_time(a, b)
        timings.update(phase1_ms=per[0], phase2_ms=per[1], phase3_ms=per[2])
    return timings
