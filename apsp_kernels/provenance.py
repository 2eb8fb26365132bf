"""What machine and software produced a result: recorded beside every results file."""
from __future__ import annotations

import datetime as _dt
import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path

_PKGS = ("numpy", "scipy", "numba", "pandas", "cupy-cuda13x", "cupy-cuda12x", "cupy", "papermill", "seaborn")


def _git_commit():
    root = Path(__file__).resolve().parent.parent
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=5).stdout.strip()
        return out.stdout.strip() + ("-dirty" if dirty else "") if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return os.environ.get("APSP_GIT_COMMIT")


def _cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def gpu_info():
    """GPU name, driver, CUDA runtime and CuPy version, or None without a usable GPU."""
    try:
        import cupy as cp
        if cp.cuda.runtime.getDeviceCount() < 1:
            return None
        props = cp.cuda.runtime.getDeviceProperties(0)
        return {
            "gpu": props["name"].decode() if isinstance(props["name"], bytes) else props["name"],
            "sm_count": props["multiProcessorCount"],
            "compute_capability": f"{props['major']}.{props['minor']}",
            "gpu_memory_bytes": int(props["totalGlobalMem"]),
            "driver_version": cp.cuda.runtime.driverGetVersion(),
            "cuda_runtime_version": cp.cuda.runtime.runtimeGetVersion(),
            "cupy": cp.__version__,
        }
    except Exception:
        return None


def collect(profile=None, parameters=None) -> dict:
    pkgs = {}
    for p in _PKGS:
        try:
            pkgs[p] = metadata.version(p)
        except metadata.PackageNotFoundError:
            pass
    try:
        import numba
        threads = numba.config.NUMBA_NUM_THREADS
    except ImportError:
        threads = None
    info = {
        "timestamp": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "git_commit": _git_commit(),
        "hostname": platform.node(),
        "cpu": _cpu_model(),
        "cpu_cores": os.cpu_count(),
        "cpu_threads_used": threads,
        "python": platform.python_version(),
        "packages": pkgs,
        "profile": profile,
        "parameters": parameters or {},
    }
    gi = gpu_info()
    info.update(gi or {"gpu": None})
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=10)
        if out.returncode == 0:
            info["nvidia_driver"] = out.stdout.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError):
        pass
    return info
