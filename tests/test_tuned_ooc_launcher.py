"""tuned_fw_ooc's launcher (algorithms/gpu/tuned/ooc.py) without a GPU: CuPy replaced by a stand-in whose
device memory is host memory, whose copies are row-by-row memmoves (cudaMemcpy2DAsync's pitches), whose
kernels are the real ones on the CPU emulation (tests/emulate/tuned_ooc_harness.cpp, built by
test_tuned_ooc.py's fixture) launched with the grids and arguments the launcher passes, and whose streams
run each step at its issue (an order the waits allow).  What it checks: the launcher's translation of
steps into copies and launches (pointers, strides, grids, argument order); not CuPy's API, nor the
concurrency, which the GPU tests and the model's random orders check."""
import ctypes
import types

import numpy as np
import pytest

from apsp_kernels import gpu_device, reference_apsp
from apsp_kernels.algorithms.gpu import runtime as gpu_runtime
from apsp_kernels.core import generators as G
from apsp_kernels.algorithms.gpu.tuned import ooc, ooc_plan, ooc_steps

import test_tuned_ooc
from tuned_graphs import kinds

emu = test_tuned_ooc.emu            # the emulation library: test_tuned_ooc's fixture, used here by name


class Dev(np.ndarray):
    """Device memory as host memory: ``.data.ptr`` as CuPy's arrays have it."""

    @property
    def data(self):
        return types.SimpleNamespace(ptr=self.ctypes.data)


def aligned(shape):
    size = int(np.prod(shape))
    raw = np.full(size + 4, -12345, np.int32)
    skip = (-raw.ctypes.data % 16) // 4
    return raw[skip:skip + size].reshape(shape)


class Kernel:
    def __init__(self, lib, name, parts=None):
        self.lib, self.name, self.parts = lib, name, parts       # parts: gets each product's parts of k

    def __call__(self, grid, block, args, stream=None):
        assert stream is not None                 # every launch names its stream (no current-stream context)
        gx, gy, gz = (tuple(grid) + (1, 1))[:3]
        # the launcher passes every pointer as a numpy uint64 address (8 bytes: how CuPy packs it for an int*)
        a = [ctypes.c_void_p(int(x)) if isinstance(x, np.uint64) else int(x) for x in args]
        if self.name == "tfo_product":
            assert tuple(block) == (256,)
            self.parts.append(gz)
            self.lib.emu_tfo_product(gx, gy, gz, *a)
        elif self.name == "tfo_transpose":
            assert tuple(block) == (32, 8) and gz == 1
            self.lib.emu_tfo_transpose(gx, gy, *a)
        else:
            assert tuple(block) == (256,) and gz == 1
            phase = int(self.name[-1])
            D, rest = a[0], a[1:]
            colT = rest.pop(0) if phase > 1 else None
            self.lib.emu_tfw_phase(phase, gx, gy, D, colT, *rest)


def fake_cupy(calls):
    recorded = set()                              # events recorded so far (by address)

    def eventRecord(event, stream):
        recorded.add(event)

    def streamWaitEvent(stream, event, flags):
        assert event in recorded and flags == 0   # a wait for an event not yet recorded would not wait

    def memcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream):
        calls.append(kind)
        for r in range(height):
            ctypes.memmove(dst + r * dpitch, src + r * spitch, width)

    class Stream:
        ptr = 7

        def __init__(self, non_blocking=False):
            assert non_blocking

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

        def wait_event(self, ev):
            assert ev.ptr in recorded

    class Event:
        def __init__(self):
            self.ptr = id(self)

        def record(self, stream=None):
            recorded.add(self.ptr)

        def synchronize(self):
            pass

    runtime = types.SimpleNamespace(memcpy2DAsync=memcpy2DAsync, memcpyHostToDevice=1, memcpyDeviceToHost=2,
                                    memcpyDeviceToDevice=3, eventRecord=eventRecord, streamWaitEvent=streamWaitEvent)
    cuda = types.SimpleNamespace(Stream=Stream, Event=Event, runtime=runtime, get_elapsed_time=lambda a, b: 1.0,
                                 get_current_stream=lambda: Stream(True),
                                 Device=lambda: types.SimpleNamespace(synchronize=lambda: None))
    return types.SimpleNamespace(cuda=cuda, int32=np.int32, empty=lambda n, dt: aligned((n,)).view(Dev))


@pytest.fixture
def on_emulation(emu, monkeypatch):
    calls = []
    monkeypatch.setattr(gpu_device, "require_gpu", lambda: fake_cupy(calls))
    parts = []
    monkeypatch.setattr(gpu_runtime, "kernel",
                        lambda f, name: Kernel(emu, name, parts) if f == "tuned_fw_ooc.cu" else None)
    monkeypatch.setattr(gpu_device, "check_fits", lambda *a, **k: None)
    monkeypatch.setattr(gpu_device, "sm_count", lambda: 4)      # small products split k too
    import sys
    monkeypatch.setitem(sys.modules, "cupyx", types.SimpleNamespace(empty_pinned=lambda shape, dt: aligned(shape)))
    return types.SimpleNamespace(copies=calls, parts=parts)


@pytest.mark.parametrize("n, S", [(300, 128), (300, 256), (100, 128)])
def test_launcher_on_the_emulated_kernels(on_emulation, n, S):
    for label, g in kinds(n, seed=870 + n, negative=True)[:2]:
        on_emulation.copies.clear()
        on_emulation.parts.clear()
        d, t = ooc.tuned_fw_ooc(g, budget_bytes=ooc_plan.budget_for(n, S), super_block=S)
        np.testing.assert_array_equal(d, reference_apsp(g), err_msg=f"{label} n={n} S={S}")
        p = ooc_plan.plan(n, t["budget_bytes"], max_super_block=S)
        assert t["super_blocks"] == p.blocks and t["steps"] == len(ooc_steps.schedule(p))
        assert set(on_emulation.copies) == ({1, 2, 3} if p.blocks > 1 else {1, 2})
        # split k where a product of 256-deep pivots has room for it on the 4 emulated SMs
        assert max(on_emulation.parts, default=1) == (2 if S == 256 else 1)


def test_launcher_refuses_before_touching_the_device(on_emulation):
    with pytest.raises(gpu_device.GPUMemoryError, match="pivot bands"):
        ooc.tuned_fw_ooc(G.kemp(1000, seed=1), budget_bytes=100_000)
    assert on_emulation.copies == [] and on_emulation.parts == []
