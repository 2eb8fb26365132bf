"""Builds a CPU emulation of CUDA kernels (tests/emulate/<harness>.cpp, the kernels' own sources under
APSP_HOST_EMULATION) as a shared library, for the tests of the tuned kernels."""
import ctypes
import shutil
import subprocess
from pathlib import Path

import pytest

from apsp_kernels.algorithms.gpu.runtime import CUDA_DIR, compile_options

HERE = Path(__file__).resolve().parent / "emulate"
MODES = ("late", "early")      # cp.async copies performed at their wait, or at their issue


def build(harness, mode, out_dir, what, extra=()):
    """ctypes handle of ``harness`` (a .cpp in tests/emulate) compiled with the kernels' defines (and ``extra``:
    ((NAME, value), ...) of the kernel's own, as a launch's); ``mode``
    'early' makes cp.async copy at issue (a stage refilled while other threads still read it shows),
    'late' at the wait (a read before the wait sees stale data).  Skips without g++, naming ``what``."""
    if shutil.which("g++") is None:
        pytest.skip(f"g++ not found: the CPU emulation of {what} is skipped")
    tag = "".join(f"_{k}{v}" for k, v in extra)
    so = Path(out_dir) / f"{Path(harness).stem}_{mode}{tag}.so"
    defines = [o for o in compile_options() if o.startswith("-D")] + [f"-D{k}={v}" for k, v in extra]
    early = ["-DAPSP_EMU_COPY_EARLY"] if mode == "early" else []
    r = subprocess.run(["g++", "-std=c++20", "-O2", "-shared", "-fPIC", "-Wall", "-Wno-unknown-pragmas",
                        f"-I{HERE}", f"-I{CUDA_DIR}", *defines, "-DAPSP_HOST_EMULATION", *early,
                        str(HERE / harness), "-o", str(so)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    return ctypes.CDLL(str(so))
