"""Where a solve's result goes and what it needs (the solver's face, :mod:`.api`): the host memory a solve holds
(refused in one line before anything is allocated), integer distances as the caller's dtype, and the result
placed where the caller wants it (CuPy arrays with ``device=True``, or the caller's ``out``)."""
from __future__ import annotations

import numpy as np

from . import gpu_device
from .core.graph import INF, Graph
from .core.memory import check_out, human, require_host
from .core.wide import INF64


def host_bytes(g: Graph, algo, predecessors=False, dtype=np.float64) -> int:
    """Host memory a solve of ``g`` by ``algo`` holds at its peak: the algorithm's own (a CPU code's
    footprint; a GPU code's int32 result copied back), the ``dtype`` copy and the predecessors."""
    n2 = g.n * g.n
    own = algo.footprint(g.n, g.m) if algo.device == "cpu" else 4 * n2
    return int(own + (0 if np.dtype(dtype) == np.int32 else np.dtype(dtype).itemsize * n2) + (4 * n2 if predecessors else 0))


def check_resources(g: Graph, algo, predecessors=False, dtype=np.float64, extra_host=0):
    """Refuse in one line, before anything is allocated, a solve this machine cannot hold: host memory
    (:func:`host_bytes` plus ``extra_host``) and, for an in-core GPU code where a GPU is present, its
    device footprint.  Out-of-core codes size their device use themselves."""
    need = host_bytes(g, algo, predecessors, dtype) + int(extra_host)
    require_host(need, f"solving {g.n} vertices with {algo.name} ({g.n} x {g.n} matrices)")
    if algo.device == "gpu" and algo.forced_params is None and gpu_device.available():
        gpu_device.check_fits(algo.name, algo.footprint(g.n, g.m))


def check_devices(g: Graph, algo, devices, predecessors=False, dtype=np.float64, rows=None, extra_host=0):
    """Refuse in one line, before any GPU work, a solve by the multi-GPU code ``algo`` on ``devices`` GPUs that this
    host cannot hold.  Host: :func:`host_bytes` (the int32 result, the ``dtype`` copy, predecessors) and the shared
    block the ranks write into, which stands beside the int32 result for a moment, for ``rows`` of the n rows (the
    sources asked for; default all) plus ``extra_host``.  Each GPU: the code's ``footprint_per_gpu(n, m, devices)``
    against the smallest total memory of GPUs 0 .. devices-1 (a rank checks what is free on its own GPU before it
    allocates).  First of all, a count above this host's GPUs is refused.  Returns (host bytes, bytes per GPU)."""
    have = gpu_device.device_count()
    if devices > have:
        raise ValueError(f"{devices} GPU{'s' if devices != 1 else ''} asked for; this host has {have}")
    rows = g.n if rows is None else int(rows)
    host = (host_bytes(g, algo, predecessors, dtype) + 4 * g.n * g.n) * rows // max(g.n, 1) + int(extra_host)
    require_host(host, f"solving {g.n} vertices with {algo.name} on {devices} GPUs ({rows} x {g.n} results)")
    need = int(algo.footprint_per_gpu(g.n, g.m, devices))
    totals = gpu_device.device_totals(devices)
    if totals and need > min(totals):
        raise gpu_device.GPUMemoryError(
            f"{algo.name} on {devices} GPUs: needs {human(need)} of device memory on each, the smallest of them has "
            f"{human(min(totals))}; try more GPUs or a smaller graph")
    return host, need


def as_dtype(d, dtype, inf):
    """Integer distances ``d`` (``inf``: no path) as ``dtype``: a float type (np.inf), int32 (INF) or int64 (INF64)."""
    dt = np.dtype(dtype)
    if dt in (np.int32, np.int64):
        if dt == np.int32 and inf != INF:
            if d.size and (d[d != inf].max(initial=0) > INF // 2 or d.min() < -(INF // 2)):
                raise ValueError("these distances pass the int32 bound: dtype=np.int64 (INF64) or float64 hold them")
        out = d.astype(dt)
        out[d == inf] = INF if dt == np.int32 else INF64
        return out
    if dt.kind != "f":
        raise ValueError(f"dtype must be a float type (np.inf for no path), int32 (INF) or int64 (INF64), got {dtype}")
    f = as_float(d, dt, d != inf)
    f[d == inf] = np.inf
    return f


def as_float(d, dtype, finite):
    """``d`` as the float ``dtype``, refused in one line where a distance (``finite``: those that are) passes what
    that type holds (float16 turns 70000 into inf): 'no path' must not be made up by the cast."""
    with np.errstate(over="ignore"):
        f = d.astype(dtype)
    lost = finite & ~np.isfinite(f)
    if lost.any():
        worst = np.abs(d[lost]).max()
        raise ValueError(f"dtype {np.dtype(dtype)} cannot hold these distances (|{worst.item()}| is beyond its "
                         f"largest, {np.finfo(dtype).max.item():g}): use np.float32 or np.float64")
    return f


def placed(d, pred, device, out):
    """A host result where the caller wants it: CuPy arrays (``device``), or written into ``out``."""
    if device:
        import cupy as cp
        return cp.asarray(d), (cp.asarray(pred) if pred is not None else None)
    if out is not None:
        np.copyto(check_out(out, d.shape, d.dtype), d)
        return out, pred
    return d, pred
