"""GPU runtime for the CUDA algorithms: compiling the kernels of ``algorithms/gpu/cuda`` (one cached
module per source and defines), launching with errors that name the algorithm, and timing with CUDA
events.  Whether there is a device, and its memory, is ``gpu_device``."""
from __future__ import annotations

import contextlib
import functools
from pathlib import Path

from ...gpu_device import require_gpu

CUDA_DIR = Path(__file__).resolve().parent / "cuda"     # the kernels' sources


class GPUKernelError(RuntimeError):
    pass


def compile_options(defines=()):
    """NVRTC/nvcc options of every kernel: the include folder, and the constants that Python and
    the kernels share passed as defines, so that each is written once (INF in graph.py; a
    launcher's tile size beside its launcher)."""
    from ...core.graph import INF
    return ("-std=c++17", f"-I{CUDA_DIR}", f"-DAPSP_INF={int(INF)}",
            *(f"-D{k}={v}" for k, v in defines))


@functools.lru_cache(maxsize=None)
def module(filename, name_expressions=(), defines=()):
    """Compile ``cuda/<filename>`` once with NVRTC (CuPy caches the binary on disk)."""
    cp = require_gpu()
    code = (CUDA_DIR / filename).read_text()
    return cp.RawModule(code=code, options=compile_options(defines),
                        name_expressions=list(name_expressions) or None)


def kernel(filename, name, name_expressions=(), defines=()):
    """One kernel of ``cuda/<filename>``; ``defines``: ((NAME, value), ...) the file expects."""
    return module(filename, tuple(name_expressions), tuple(defines)).get_function(name)


@contextlib.contextmanager
def named_errors(algorithm):
    """Any CUDA error inside becomes a GPUKernelError naming the algorithm (a launcher that issues
    thousands of calls wraps them once)."""
    try:
        yield
    except Exception as e:
        if type(e).__module__.startswith("cupy"):
            raise GPUKernelError(f"{algorithm}: CUDA error: {e}") from e
        raise


def launch(algorithm, fn, *args, **kw):
    """Call a kernel; any CUDA error becomes a GPUKernelError naming the algorithm."""
    with named_errors(algorithm):
        return fn(*args, **kw)


class EventTimer:
    """CUDA events around a region on the current stream; ``ms`` after ``stop()``."""

    def __init__(self):
        cp = require_gpu()
        self._start, self._end = cp.cuda.Event(), cp.cuda.Event()

    def __enter__(self):
        self._start.record()
        return self

    def __exit__(self, *exc):
        self._end.record()
        self._end.synchronize()

    @property
    def ms(self):
        import cupy as cp
        return cp.cuda.get_elapsed_time(self._start, self._end)
