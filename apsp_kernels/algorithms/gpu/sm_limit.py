"""Running kernels on fewer SMs, fairly (seed 002, Fig. 2.4: run time against the number of cores).
Launching fewer blocks is no stand-in: the kernel's work per block would change.  Two ways keep the
kernel and its launch as they are and take SMs away from it:

* a CUDA **green context** (driver API, CUDA >= 12.4, through cuda-python's ``cuda.bindings``): a
  partition of the SMs; made current on this thread, with CuPy's current stream one of its streams,
  every launch and copy of the launchers runs on those SMs only;
* **MPS** with ``CUDA_MPS_ACTIVE_THREAD_PERCENTAGE``: needs a control daemon (started here with its own
  pipe folder, so no other process joins it, and quit afterwards) and one client process per share.

Either is believed only where :func:`sm_census` sees blocks run on no more SMs than were granted."""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile

import numpy as np

from ... import gpu_device
from . import runtime as gpu_runtime

_CENSUS = r"""
extern "C" __global__ void sm_census(int* seen, long long spin)
{
    unsigned int sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    if (threadIdx.x == 0) {
        atomicAdd(&seen[sm], 1);
        long long t0 = clock64();
        while (clock64() - t0 < spin) { }     // hold the SM so that the blocks spread over all it may use
    }
}
"""


class SMLimitError(RuntimeError):
    pass


def sm_census(blocks_per_sm=4, spin=200_000):
    """(distinct SMs that ran blocks of a launch on the current stream, ms the launch took)."""
    cp = gpu_device.require_gpu()
    total = gpu_device.sm_count()
    k = cp.RawKernel(_CENSUS, "sm_census")          # a new module, loaded in the context current now
    # only memset, this kernel and a copy: no CuPy kernel loaded earlier in another context runs here
    k((total * blocks_per_sm,), (32,), (cp.zeros(1024, cp.int32), np.int64(spin)))   # first launch: module load
    seen = cp.zeros(1024, cp.int32)                 # %smid < %nsmid, at most a few hundred
    with gpu_runtime.EventTimer() as t:
        k((total * blocks_per_sm,), (32,), (seen, np.int64(spin)))
    return int(np.count_nonzero(cp.asnumpy(seen))), t.ms


def _check(result, what):
    err, *values = result if isinstance(result, tuple) else (result,)
    if int(getattr(err, "value", err)) != 0:
        raise SMLimitError(f"{what} failed: {err}")
    return values[0] if len(values) == 1 else values


def _driver():
    try:
        from cuda.bindings import driver
    except ImportError:
        try:
            from cuda import cuda as driver       # cuda-python before 12.6
        except ImportError as e:
            raise SMLimitError(f"cuda-python is not importable ({e}); green contexts need it") from None
    for name in ("cuGreenCtxCreate", "cuDevSmResourceSplitByCount", "cuCtxFromGreenCtx", "cuGreenCtxStreamCreate"):
        if not hasattr(driver, name):
            raise SMLimitError(f"cuda-python lacks {name} (green contexts need CUDA >= 12.4)")
    return driver


@contextlib.contextmanager
def green_context(sm_count):
    """Run the body on a green context of ``sm_count`` SMs (rounded by the driver: on compute
    capability 9.0 a multiple of 8, at least 8); yields the SMs granted.  ``sm_count`` >= the device's
    SMs gives a green context over all of them, so that every point is measured the same way."""
    cp = gpu_device.require_gpu()
    cu = _driver()
    cp.cuda.Device().synchronize()                  # the primary context is current on this thread
    _check(cu.cuInit(0), "cuInit")
    dev = _check(cu.cuDeviceGet(cp.cuda.Device().id), "cuDeviceGet")
    whole = _check(cu.cuDeviceGetDevResource(dev, cu.CUdevResourceType.CU_DEV_RESOURCE_TYPE_SM),
                   "cuDeviceGetDevResource")
    if sm_count >= whole.sm.smCount:
        group = whole
    else:
        groups, _, _ = _check(cu.cuDevSmResourceSplitByCount(1, whole, 0, int(sm_count)), "cuDevSmResourceSplitByCount")
        group = groups[0]
    desc = _check(cu.cuDevResourceGenerateDesc([group], 1), "cuDevResourceGenerateDesc")
    green = _check(cu.cuGreenCtxCreate(desc, dev, cu.CUgreenCtxCreate_flags.CU_GREEN_CTX_DEFAULT_STREAM),
                   "cuGreenCtxCreate")
    stream = None
    try:
        ctx = _check(cu.cuCtxFromGreenCtx(green), "cuCtxFromGreenCtx")
        _check(cu.cuCtxPushCurrent(ctx), "cuCtxPushCurrent")
        # CuPy loads a module into the context current at its first launch; the launchers' modules are
        # cached (gpu_runtime.module): load them afresh in here, and afresh again outside, in case a module
        # handle is bound to the context that loaded it
        gpu_runtime.module.cache_clear()
        try:
            stream = _check(cu.cuGreenCtxStreamCreate(green, cu.CUstream_flags.CU_STREAM_NON_BLOCKING, 0),
                            "cuGreenCtxStreamCreate")
            ext = cp.cuda.ExternalStream(int(stream))          # int(): the handle's value (getPtr: its address)
            with ext:
                yield int(group.sm.smCount)
            ext.synchronize()
        finally:
            if stream is not None:
                cu.cuStreamDestroy(stream)
            cu.cuCtxPopCurrent()
            gpu_runtime.module.cache_clear()
    finally:
        cu.cuGreenCtxDestroy(green)


def green_probe(sm_count=16):
    """(works, one line saying why): a census inside a green context of ``sm_count`` SMs."""
    try:
        full, full_ms = sm_census()
        with green_context(sm_count) as granted:
            seen, ms = sm_census()
    except Exception as e:
        return False, f"{type(e).__name__}: {e}"
    ok = 0 < seen <= granted < full
    return ok, (f"asked {sm_count} SMs, granted {granted}; blocks ran on {seen} distinct SMs "
                f"(all {full} without it); a spinning launch took {ms:.2f} ms vs {full_ms:.2f} ms")


@contextlib.contextmanager
def mps_daemon():
    """An MPS control daemon with its own pipe and log folders; yields the environment a client
    needs (add CUDA_MPS_ACTIVE_THREAD_PERCENTAGE); quits the daemon on the way out."""
    ctl = shutil.which("nvidia-cuda-mps-control")
    if ctl is None:
        raise SMLimitError("nvidia-cuda-mps-control is not on the PATH")
    base = tempfile.mkdtemp(prefix="apsp-mps-")
    env = dict(os.environ, CUDA_MPS_PIPE_DIRECTORY=os.path.join(base, "pipe"),
               CUDA_MPS_LOG_DIRECTORY=os.path.join(base, "log"))
    for k in ("CUDA_MPS_PIPE_DIRECTORY", "CUDA_MPS_LOG_DIRECTORY"):
        os.makedirs(env[k])
    r = subprocess.run([ctl, "-d"], env=env, capture_output=True, text=True, timeout=30)
    if r.returncode:
        raise SMLimitError(f"nvidia-cuda-mps-control -d failed ({r.returncode}): {(r.stderr or r.stdout).strip()}")
    try:
        yield env
    finally:
        subprocess.run([ctl], input="quit\n", env=env, capture_output=True, text=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)


def mps_client(env, percentage, argv, timeout=300):
    """Run ``argv`` as an MPS client limited to ``percentage`` % of the SMs; its stdout."""
    r = subprocess.run(argv, env=dict(env, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=str(percentage)),
                       capture_output=True, text=True, timeout=timeout)
    if r.returncode:
        raise SMLimitError(f"MPS client at {percentage}% failed ({r.returncode}): {r.stderr.strip()[-500:]}")
    return r.stdout
