"""``tuned_deep``: shortest paths of a deep, thin sparse graph (paths, rings, long tails) with one warp per
source, several sources a block, every round inside the warp (``cuda/tuned_deep.cu`` says how and why it is
exact).  Non-negative weights.

``sources`` and ``dtype`` as :mod:`.frontier` takes them (the same CSR arrays, the same refusals): None for
all n rows, or vertex numbers (repeats and any order allowed); "int32" (INF where unreachable) or "float32"
(+inf), None picking by the graph."""
from __future__ import annotations

import numpy as np

from .... import gpu_device
from ....core.graph import Graph, GraphError
from ....core.sources import as_sources
from .. import runtime as gpu_runtime
from . import frontier

NAME = "tuned_deep"
QCAP = 64                     # DEEP_QCAP of cuda/tuned_deep.cu (tests/test_tuned_deep_emulated.py compares)
MAX_WARPS = 8                 # DEEP_MAX_WARPS: the kernel's launch bound is 32 of these
EXPRS = ("deep_solve<int>", "deep_solve<float>")


def slice_bytes(n):
    """One warp's (source's) shared memory: two frontier bitmaps of ceil(n / 32) words, two queues of QCAP
    vertices, two counters."""
    return 4 * (2 * (-(-max(int(n), 1) // 32)) + 2 * QCAP + 2)


def footprint(n, m, rows=None):
    """Device bytes: the rows x n distances (rows = n: every source), the CSR, and per row its source and
    its round count (tuned_frontier's)."""
    return frontier.rows_footprint(n, m, rows)


def block_warps(n, limit):
    """Sources a block: MAX_WARPS where their slices fit in ``limit`` bytes of shared memory, fewer where not
    (n = 16384: 4.6 KiB a slice, 8 warps in 37 KiB; n = 65536: 16.9 KiB, 8 in 135 KiB after opting in);
    0 where not even one fits."""
    return max(0, min(MAX_WARPS, int(limit) // slice_bytes(n)))


def _shared_opt_in(cp, fn, n):
    """(warps a block, dynamic shared bytes), opting the kernel in past 48 KiB where the device allows."""
    limit = cp.cuda.runtime.deviceGetAttribute(frontier.OPTIN_ATTRIBUTE, cp.cuda.Device().id)
    warps = block_warps(n, limit)
    if warps == 0:
        raise GraphError(f"{NAME}: n = {n} needs {slice_bytes(n)} bytes of shared memory a source for its two "
                         f"frontier bitmaps and queues; this device allows {limit} a block")
    smem = warps * slice_bytes(n)
    if smem > frontier.DEFAULT_SHARED:
        fn.max_dynamic_shared_size_bytes = smem
    return warps, smem


def tuned_deep(g: Graph, sources=None, dtype=None):
    return frontier.host_result(*_solve(g, sources, dtype))


def tuned_deep_resident(g: Graph, sources=None):
    """The solver's end-to-end path (``shortest_paths``): the int32 rows of ``sources`` (all by default) left on
    the device, INF not yet normalised, and the timings."""
    D, timings = _solve(g, sources, "int32")
    if isinstance(D, np.ndarray):
        D = gpu_device.require_gpu().asarray(D)
    return D, timings


def _solve(g, sources, dtype):
    """One launch, a warp a source: the (sources x n) device matrix (a host array where there is nothing to
    solve) and the timings, kernel_ms from CUDA events around the launch."""
    dtype, indptr, indices, weights = frontier.csr_arrays(g, dtype, who=NAME)
    n = g.n
    src = np.arange(n, dtype=np.int64) if sources is None else as_sources(sources, n)
    k = int(src.size)
    np_t = np.int32 if dtype == "int32" else np.float32
    timings = dict(alloc_ms=0.0, h2d_ms=0.0, d2h_ms=0.0, kernel_ms=0.0, rounds_max=0, sources=k, dtype=dtype)
    if n == 0 or k == 0:
        return np.zeros((k, n), np_t), timings
    cp = gpu_device.require_gpu()
    fn = gpu_runtime.kernel("tuned_deep.cu", f"deep_solve<{'int' if dtype == 'int32' else 'float'}>",
                            name_expressions=EXPRS)
    warps, smem = _shared_opt_in(cp, fn, n)
    D, rounds, Va, Ea, Wa, Sa = frontier.device_arrays(cp, NAME, n, k, np_t, indptr, indices, weights, src, timings)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    args = (D, Va, Ea, Wa, Sa, np.int32(n), np.int32(k), rounds)
    gpu_runtime.launch(NAME, fn, (-(-k // warps),), (32 * warps,), args, shared_mem=smem)
    end.record()
    end.synchronize()
    r = rounds.get()
    if (r < 0).any():
        raise RuntimeError(f"{NAME}: source {int(src[np.argmax(r < 0)])} still had a frontier after n + 1 = "
                           f"{n + 1} rounds (a bug: weights are >= 0)")
    timings.update(kernel_ms=float(cp.cuda.get_elapsed_time(start, end)), rounds_max=int(r.max()), warps=warps,
                   shared_bytes=smem)
    return D, timings
