"""Can this device run a kernel on fewer SMs, fairly?  Tries a CUDA green context (cuda-python) and MPS
with CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, and prints one line for each:

    green contexts: WORKS (...)  |  green contexts: DOES NOT WORK (why)
    MPS: WORKS (...)             |  MPS: DOES NOT WORK (why)

A way WORKS only if a census kernel (%smid of each block) ran on no more SMs than were granted and on
fewer than the whole device.  Without a GPU both lines say why not; the exit code is 0 either way.

    python scripts/sm_restriction_probe.py [--sms 16] [--percent 25]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from apsp_kernels import gpu_device  # noqa: E402
from apsp_kernels.algorithms.gpu import sm_limit  # noqa: E402


def green_line(sms):
    ok, why = sm_limit.green_probe(sms)
    return f"green contexts: {'WORKS' if ok else 'DOES NOT WORK'} ({why})"


def mps_line(percent):
    try:
        total = gpu_device.sm_count()
        with sm_limit.mps_daemon() as env:
            out = sm_limit.mps_client(env, percent, [sys.executable, __file__, "--census"])
        seen, ms = out.split()[-2:]
        seen = int(seen)
    except Exception as e:
        return f"MPS: DOES NOT WORK ({type(e).__name__}: {e})"
    ok = 0 < seen < total
    return (f"MPS: {'WORKS' if ok else 'DOES NOT WORK'} (at {percent}% blocks ran on {seen} distinct SMs of {total}; "
            f"a spinning launch took {float(ms):.2f} ms)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sms", type=int, default=16, help="SMs asked of the green context")
    ap.add_argument("--percent", type=int, default=25, help="CUDA_MPS_ACTIVE_THREAD_PERCENTAGE of the MPS client")
    ap.add_argument("--census", action="store_true", help=argparse.SUPPRESS)     # the MPS client's job
    a = ap.parse_args(argv)
    if a.census:
        seen, ms = sm_limit.sm_census()
        print(f"census {seen} {ms:.4f}")
        return 0
    ok, why = gpu_device.gpu_status()
    if not ok:
        print(f"green contexts: DOES NOT WORK (no GPU: {why})")
        print(f"MPS: DOES NOT WORK (no GPU: {why})")
        return 0
    print(green_line(a.sms), flush=True)
    print(mps_line(a.percent), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
