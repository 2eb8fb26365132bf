"""The GPU device for the CUDA algorithms: whether there is one, its memory (what is free, the refusal
before allocating what does not fit) and the buffers that hold a distance matrix (the host memory modes
of seed 003, a pitched matrix).  Imports CuPy lazily, so the package imports and the CPU parts run on
machines without a GPU.  Compiling, launching and timing kernels is ``algorithms/gpu/runtime``."""
from __future__ import annotations

import ctypes
import functools
import time

import numpy as np

MEMORY_MODES = ("pageable", "pinned", "zero_copy", "managed")


class GPUUnavailable(RuntimeError):
    pass


@functools.lru_cache(maxsize=1)
def gpu_status():
    """(available: bool, reason: str)."""
    try:
        import cupy as cp
    except Exception as e:  # ImportError, or a broken CUDA install
        return False, f"CuPy is not importable ({type(e).__name__}: {e})"
    try:
        n = cp.cuda.runtime.getDeviceCount()
    except Exception as e:
        return False, f"no CUDA device ({type(e).__name__}: {e})"
    if n < 1:
        return False, "no CUDA device"
    return True, "ok"


def available() -> bool:
    return gpu_status()[0]


def device_count() -> int:
    """The GPUs CuPy sees on this host (0 where there is none, or no CuPy)."""
    if not available():
        return 0
    import cupy as cp
    return int(cp.cuda.runtime.getDeviceCount())


def device_totals(count):
    """Total memory, in bytes, of GPUs 0 .. count-1, read from their properties: no context is made on any of
    them (a coordinating process that only plans keeps no memory on the GPUs its ranks will use)."""
    cp = require_gpu()
    return [int(cp.cuda.runtime.getDeviceProperties(i)["totalGlobalMem"]) for i in range(int(count))]


def require_gpu():
    ok, why = gpu_status()
    if not ok:
        raise GPUUnavailable(f"this algorithm needs a CUDA GPU: {why}; with a GPU, install CuPy: "
                             "pip install -e .[gpu] (CUDA 13 driver) or .[gpu12] (CUDA 12)")
    import cupy as cp
    return cp


def sm_count():
    """The current device's streaming multiprocessors."""
    cp = require_gpu()
    return cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["multiProcessorCount"]


class GPUMemoryError(MemoryError):
    pass


def free_bytes():
    """(free, total) device bytes, counting blocks CuPy's pool holds but does not use as free: the
    one answer to "does it fit" for the launchers, the solver's auto choice and the benchmark."""
    cp = require_gpu()
    free, total = cp.cuda.runtime.memGetInfo()
    return free + cp.get_default_memory_pool().free_bytes(), total


OUT_OF_CORE_HINT = "an out-of-core algorithm (role out_of_core in `python -m apsp_kernels list`)"


def check_fits(algorithm, need_bytes, hint=OUT_OF_CORE_HINT):
    """Refuse before allocating when the device cannot hold ``need_bytes``; ``hint``: what to try
    instead.  The default names the registry's role, not an algorithm: the registry imports this
    module, so asking it here would tie the floors into a circle."""
    free, total = free_bytes()
    if need_bytes > free:
        raise GPUMemoryError(
            f"{algorithm}: needs {need_bytes / 2**20:.1f} MiB of device memory, {free / 2**20:.1f} MiB free "
            f"of {total / 2**20:.1f} MiB; try a smaller graph or {hint}")


def gpu_error_no_uva(algorithm):
    return GPUUnavailable(f"{algorithm}: zero_copy needs unified virtual addressing, which this device lacks")


def _ms_since(t0):
    return (time.perf_counter() - t0) * 1e3


@functools.lru_cache(maxsize=1)
def _libcuda():
    return ctypes.CDLL("libcuda.so.1")


class PitchedMatrix:
    """``rows`` x ``width`` int32 in one pitched allocation, as cudaMallocPitch makes it (seed 002's
    Exploration 3).  CuPy wraps neither cudaMallocPitch nor cuMemAllocPitch, so this calls the
    driver's cuMemAllocPitch (what cudaMallocPitch calls) through ctypes; the driver picks ``pitch``
    (bytes per row).  ``array`` is the device matrix as CuPy sees it, (rows, pitch / 4); copies are
    cudaMemcpy2D between an unpadded host matrix and the pitched rows."""

    def __init__(self, algorithm, rows, width):
        cp = require_gpu()
        check_fits(algorithm, rows * (width * 4 + 1024))   # a pitch adds < 1 KiB a row; makes the context current
        ptr, pitch = ctypes.c_uint64(), ctypes.c_size_t()
        r = _libcuda().cuMemAllocPitch_v2(ctypes.byref(ptr), ctypes.byref(pitch), ctypes.c_size_t(width * 4),
                                          ctypes.c_size_t(rows), ctypes.c_uint(4))
        if r:
            raise GPUMemoryError(f"{algorithm}: cuMemAllocPitch({width * 4} bytes x {rows} rows) failed: CUresult {r}")
        self.cp, self.ptr, self.pitch, self.rows, self.width = cp, ptr.value, pitch.value, rows, width
        mem = cp.cuda.UnownedMemory(self.ptr, self.pitch * rows, self)
        self.array = cp.ndarray((rows, self.pitch // 4), cp.int32, cp.cuda.MemoryPointer(mem, 0))

    def _copy(self, dst, dpitch, src, spitch, kind):
        self.cp.cuda.runtime.memcpy2D(dst, dpitch, src, spitch, self.width * 4, self.rows, kind)

    def set(self, host):
        """Copy a (rows, width) C-ordered int32 host matrix in (cudaMemcpyHostToDevice = 1)."""
        self._copy(self.ptr, self.pitch, host.ctypes.data, host.strides[0], 1)

    def get(self, out):
        self._copy(out.ctypes.data, out.strides[0], self.ptr, self.pitch, 2)   # cudaMemcpyDeviceToHost
        return out

    def free(self):
        if self.ptr:
            self.cp.cuda.Device().synchronize()
            _libcuda().cuMemFree_v2(ctypes.c_uint64(self.ptr))
            self.ptr, self.array = 0, None


class DenseBuffers:
    """The distance matrix (and a ping-pong partner) in one of the host memory modes of seed 003.

    * ``pageable``  -- plain numpy host array, synchronous copies to/from device memory;
    * ``pinned``    -- page-locked host array, asynchronous copies;
    * ``zero_copy`` -- mapped page-locked host memory used by the kernels in place: no
                       device matrix and no copies (every access crosses the bus);
    * ``managed``   -- cudaMallocManaged: the host writes it, kernels fault pages in.

    ``fill(host_matrix_writer)`` lets the graph write its dense matrix straight into the
    mode's host buffer, so host initialisation is the same work in every mode.  Timings:
    ``alloc_ms``, ``h2d_ms``, ``d2h_ms`` (0 where the mode has no explicit copy).
    """

    def __init__(self, algorithm, size, count, mode="pageable"):
        if mode not in MEMORY_MODES:
            raise ValueError(f"memory mode must be one of {MEMORY_MODES}, got {mode!r}")
        cp = require_gpu()
        self.cp, self.algorithm, self.size, self.count, self.mode = cp, algorithm, size, count, mode
        self.nbytes = size * size * 4
        self.timings = dict(alloc_ms=0.0, h2d_ms=0.0, d2h_ms=0.0)
        self._host_allocs = []
        t0 = time.perf_counter()
        if mode in ("pageable", "pinned", "managed"):
            check_fits(algorithm, count * self.nbytes)
        if mode == "pageable":
            self.host = np.empty((size, size), np.int32)
            self.dev = [cp.empty((size, size), cp.int32) for _ in range(count)]
        elif mode == "pinned":
            import cupyx
            self.host = cupyx.empty_pinned((size, size), np.int32)
            self.dev = [cp.empty((size, size), cp.int32) for _ in range(count)]
        elif mode == "zero_copy":
            self.dev, hosts = [], []
            for _ in range(count):
                h, d = self._mapped()
                hosts.append(h)
                self.dev.append(d)
            self.host = hosts[0]
        else:  # managed
            self.dev, hosts = [], []
            for _ in range(count):
                mem = cp.cuda.malloc_managed(max(self.nbytes, 4))
                d = cp.ndarray((size, size), cp.int32, mem)
                hosts.append(np.ctypeslib.as_array((ctypes.c_int32 * (size * size)).from_address(mem.ptr))
                             .reshape(size, size))
                self.dev.append(d)
            self.host = hosts[0]
        cp.cuda.Device().synchronize()
        self.timings["alloc_ms"] = _ms_since(t0)

    def _mapped(self):
        cp = self.cp
        ptr = cp.cuda.runtime.hostAlloc(max(self.nbytes, 4), 2)  # cudaHostAllocMapped
        self._host_allocs.append(ptr)
        # With unified addressing (every 64-bit Linux CUDA device) a mapped host allocation
        # has the same address on the device; CuPy exposes no cudaHostGetDevicePointer.
        if not cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id).get("unifiedAddressing", 1):
            raise gpu_error_no_uva(self.algorithm)
        dptr = ptr
        mem = cp.cuda.UnownedMemory(dptr, max(self.nbytes, 4), self)
        d = cp.ndarray((self.size, self.size), cp.int32, cp.cuda.MemoryPointer(mem, 0))
        h = np.ctypeslib.as_array((ctypes.c_int32 * (self.size * self.size)).from_address(ptr))
        return h.reshape(self.size, self.size), d

    def to_device(self):
        """Copy the host matrix into dev[0] (and the partner, which ping-pong reads first too)."""
        cp = self.cp
        t0 = time.perf_counter()
        if self.mode in ("pageable", "pinned"):
            for d in self.dev:
                d.set(self.host)
        elif self.count > 1:  # mapped/managed: the partner is initialised on the host side
            for d in self.dev[1:]:
                d[...] = self.dev[0]
        cp.cuda.Device().synchronize()
        self.timings["h2d_ms"] = _ms_since(t0)

    def to_host(self, which=0):
        """The result (dev[which]) as a host numpy array (a copy)."""
        cp = self.cp
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        if self.mode in ("pageable", "pinned"):
            self.dev[which].get(out=self.host)
            out = np.array(self.host)
        else:
            out = cp.asnumpy(self.dev[which]) if self.mode == "managed" else np.array(
                self._host_view(which))
        self.timings["d2h_ms"] = _ms_since(t0)
        return out

    def _host_view(self, which):
        ptr = self._host_allocs[which]
        return np.ctypeslib.as_array((ctypes.c_int32 * (self.size * self.size)).from_address(ptr)) \
            .reshape(self.size, self.size)

    def free(self):
        for ptr in self._host_allocs:
            self.cp.cuda.runtime.freeHost(ptr)
        self._host_allocs = []
        self.dev = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.cp.cuda.Device().synchronize()
        self.free()
