"""``tuned_fw_stream``: one launch per pivot k, the ceiling of that design (``cuda/tuned_fw_stream.cu``),
and beside it the three-line CuPy FW a user would write, which does the same updates through CuPy's own
kernels.  Variants: ``int4`` (the kernel) and ``cupy`` (the three lines)."""
from __future__ import annotations

import numpy as np

from .... import gpu_device
from ....core.graph import Graph, round_up
from .. import runtime as gpu_runtime
from ..dense import dense, result

VARIANTS = ("int4", "cupy")
THREADS = 256
CUPY_FW = "for k in range(n): cp.minimum(D, D[:, k:k+1] + D[k:k+1, :], out=D)"


def footprint(n, m=0):
    """Device bytes of the larger variant: the CuPy lines hold the matrix and one temporary of its size."""
    return 2 * 4 * round_up(max(int(n), 1), 4) ** 2


def tuned_fw_stream(g: Graph, variant="int4"):
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    cp = gpu_device.require_gpu()
    name = f"tuned_fw_stream_{variant}"
    n = g.n
    if variant == "cupy":
        gpu_device.check_fits(name, footprint(n), hint="a smaller graph")
        with dense(name, g, 1, 1, "pageable") as buf:
            D = buf.dev[0]
            with gpu_runtime.EventTimer() as t:
                for k in range(n):          # the three lines, as a user writes them
                    cp.minimum(D, D[:, k:k + 1] + D[k:k + 1, :], out=D)
            return result(buf, 0, n), dict(buf.timings, kernel_ms=t.ms, launches=2 * n)
    step = gpu_runtime.kernel("tuned_fw_stream.cu", "tfs_step")
    with dense(name, g, 4, 1, "pageable") as buf:
        N = buf.size
        grid_y = max(1, -(-(N // 4) // THREADS))
        D, N32 = buf.dev[0], np.int32(N)
        with gpu_runtime.EventTimer() as t:
            for k in range(n):
                gpu_runtime.launch(name, step, (max(n, 1), grid_y), (THREADS,), (D, N32, np.int32(k)))
        return result(buf, 0, n), dict(buf.timings, kernel_ms=t.ms, launches=n)
