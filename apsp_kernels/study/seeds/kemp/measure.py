"""Measure the campaign (seeds 000 and 003): every notebook's jobs, each once per independent process, into
``<results>/<batch>-<profile>-campaign`` (``python -m apsp_kernels.study measure kemp --profile paper``)."""
from __future__ import annotations

import argparse
import time

from .... import gpu_device
from . import profiles, runs, timing
from .load import campaign_dir


def measure(profile, processes=None, batch=None):
    """The batch's campaign (``processes``: which of the independent processes to run now; all by default) in
    ``campaign_dir(profile, batch)``; None where no GPU is usable (the notebooks then render the recorded run)."""
    if not gpu_device.available():
        print(f"no GPU ({gpu_device.gpu_status()[1]}): the claim notebooks render the recorded reference run", flush=True)
        return None
    d = campaign_dir(profile, batch)
    print(f"batch {batch}: campaign -> {d}", flush=True)
    print(timing.before(profile, processes), flush=True)
    if profile == "decide" and processes is None:
        print("one machine lease: every process of this campaign runs on this boot, so its intervals rest on one lease "
              "and decide nothing; for verdicts, measure with --lease 1, 2, 3 on three boots (one --batch), "
              "docs/your-gpu.md", flush=True)
    t0 = time.perf_counter()
    out = runs.run(profiles.profile(profile), d, only=processes)
    print(timing.after(time.perf_counter() - t0, profile, processes), flush=True)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m apsp_kernels.study measure kemp",
                                description="Measure the campaign of notebooks 00-06 (seeds 000 and 003).")
    p.add_argument("--profile", default=profiles.DEFAULT, choices=sorted(profiles.PROFILES))
    p.add_argument("--processes", default=None,
                   help="which independent processes of the campaign to run now, e.g. 0 or 1,2 (default: all)")
    p.add_argument("--batch", default=None, help="batch id (default: now); a campaign split over leases names the same one")
    a = p.parse_args(argv)
    measure(a.profile, [int(x) for x in a.processes.split(",")] if a.processes else None,
            a.batch or time.strftime("%Y%m%d-%H%M%S"))
    return 0
