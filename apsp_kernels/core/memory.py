"""Host memory checked before a large allocation, so that a graph too big for this machine is refused
in one line (what it needs, what is free) instead of a MemoryError traceback or the OOM killer.
The device side is :func:`apsp_kernels.gpu_device.check_fits`."""
from __future__ import annotations

import os

import numpy as np

from .limits import GraphError


class HostMemoryError(GraphError):
    """The input is well formed but this machine's memory cannot hold what its solve needs."""


def available_bytes() -> int:
    """Memory the kernel says a new allocation can get without swapping (MemAvailable), else free pages."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 2**63 - 1          # unknown: let the allocation decide


def human(nbytes: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(nbytes) < 1024 or unit == "PiB":
            return f"{nbytes:.1f} {unit}" if unit != "B" else f"{int(nbytes)} B"
        nbytes /= 1024
    return f"{nbytes:.1f} PiB"


def require_host(nbytes: int, what: str):
    """Refuse (one line) before allocating ``nbytes`` of host memory for ``what``."""
    free = available_bytes()
    if nbytes > free:
        raise HostMemoryError(f"{what} needs {human(nbytes)} of host memory, {human(free)} is available")


def check_out(out, shape, dtype):
    """``out`` if it can take a result of ``shape`` and ``dtype`` (a C-contiguous numpy array of both), else
    a ValueError in one line."""
    if not isinstance(out, np.ndarray) or out.shape != tuple(shape) or out.dtype != dtype or not out.flags.c_contiguous:
        got = f"{type(out).__name__} {getattr(out, 'dtype', '')} {getattr(out, 'shape', '')}".strip()
        raise ValueError(f"out must be a C-contiguous numpy array of dtype {np.dtype(dtype)} and shape {tuple(shape)}, "
                         f"got {got}")
    return out
