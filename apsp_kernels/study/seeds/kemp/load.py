"""Where a notebook's numbers come from: this batch's campaign, a campaign run for the
notebook alone, or the recorded reference run (the per-size statistics drawn from them are
method/timings.py's, named here too for the notebooks, on Kemp's graphs unless a caller names
another)."""
from __future__ import annotations

import functools
import time
from pathlib import Path


from .... import gpu_device
from ....paths import RECORDED, RESULTS
from . import runs as campaign, spec as plan
from ... import records

rel = records.rel


# the per-size statistics, as the notebooks' M.<name> (they live in method/timings.py)
from ...method import timings  # noqa: E402
from ...method.timings import (good, per_process, process_disagreements, process_medians,  # noqa: E402,F401
                               process_spread, sampled_validation, speedup_table, summary)
from .spec import KEMP  # noqa: E402


def _on_kemp(f):
    """``f`` (method/timings.py's, which takes the graph its runs were timed on) on Kemp's graphs unless the
    caller names another."""
    @functools.wraps(f)
    def on(*args, graph=KEMP, **kw):
        return f(*args, graph=graph, **kw)
    return on


times, sizes_of, pairs, speedups, speedups_of, best_cpu_times, best_cpu_speedups = map(_on_kemp, (
    timings.times, timings.sizes_of, timings.pairs, timings.speedups, timings.speedups_of, timings.best_cpu_times,
    timings.best_cpu_speedups))


def campaign_dir(profile_name, batch):
    """Where batch ``batch`` (``run_all.sh``'s id: the notebooks of one batch read one campaign) measures."""
    return RESULTS / f"{batch}-{profile_name}-campaign"


def latest_campaign(profile_name):
    """Newest campaign of the profile, among this machine's results and the committed ones."""
    return records.newest(f"*-{profile_name}-campaign", lambda d: any(d.glob("process-*.csv")), (RECORDED, RESULTS))


Measurements = records.Measurements


def _needs_gpu(jobs):
    from ....algorithms import registry
    return any(registry.get(j.algorithm).device == "gpu" for j in jobs)


def campaign_of_batch(P, batch):
    """Batch ``batch``'s campaign folder, where it holds records (None for no batch)."""
    if not batch:
        return None
    for root in (RESULTS, RECORDED):
        d = root / f"{batch}-{P['name']}-campaign"
        if list(d.glob("process-*.csv")):
            return d
    return None


def load(notebook, P, source="measure", seed=0, batch=None):
    """The records of ``notebook``'s jobs.  ``measure``: batch ``batch``'s campaign
    if it holds records, else a campaign of this notebook alone (``P['processes']`` fresh
    processes); without a GPU where one is needed, the recorded reference run.  ``recorded``:
    the newest recorded campaign of this profile, else of ``paper``, else of ``quick``."""
    if source not in ("measure", "recorded"):
        raise ValueError(f"source must be 'measure' or 'recorded', got {source!r}")
    jobs = plan.jobs_for(notebook, P)
    can = gpu_device.available() or not _needs_gpu(jobs)
    d = campaign_of_batch(P, batch) if source == "measure" else None
    if d is None and source == "measure" and can:
        d = RESULTS / f"{time.strftime('%Y%m%d-%H%M%S')}-{P['name']}-local-{notebook.split('_')[0]}"
        campaign.run(P, d, notebooks=(notebook,), seed=seed)
    if d is not None:
        df, prov = campaign.load(d)
        return Measurements(df, prov, (f"Measured in this batch on {prov.get('gpu') or 'the CPU'} with {prov.get('cpu')} "
                                       f"(from {prov.get('timestamp')}), {processes_text(prov)}, "
                                       f"commit {str(prov.get('git_commit'))[:12]}; records in `{rel(d)}`"
                                       + (" (its progress log: `campaign.log`)." if (d / "campaign.log").exists() else ".")),
                            d, True, campaign.select(df, jobs), notebook)
    d = latest_campaign(P["name"]) or latest_campaign("paper") or latest_campaign("quick")
    if d is None:
        raise FileNotFoundError(f"no recorded campaign under {RESULTS} and no GPU to measure ({gpu_device.gpu_status()[1]})")
    df, prov = campaign.load(d)
    own = campaign.select(df, plan.jobs_for(notebook, _profile_of(prov, P)))
    why = "requested" if source == "recorded" else f"no GPU here: {gpu_device.gpu_status()[1]}"
    return Measurements(df, prov, (f"**RECORDED results** ({why}): measured on {prov.get('gpu')} with {prov.get('cpu')}, "
                                   f"{processes_text(prov)} from {prov.get('timestamp')}, commit "
                                   f"{str(prov.get('git_commit'))[:12]}, profile {prov.get('profile')}, from "
                                   f"`{rel(d)}`. Nothing GPU-related was run now."), d, False, own, notebook)


def processes_text(prov):
    """'3 independent processes on 3 machine leases' (distinct boot ids), where recorded."""
    k, boots, sat = prov["processes"], prov.get("machine_boots") or 0, prov.get("satellites") or 0
    where = f" on {boots} machine lease{'s' if boots != 1 else ''}" if boots else ""
    main = f"{k - sat} independent process{'es' if k - sat != 1 else ''}"
    return main + (f" and {sat} satellite process{'es' if sat != 1 else ''} (a few codes and sizes only)" if sat else "") + where


def _profile_of(prov, P):
    from .profiles import profile
    name = prov.get("profile") or P["name"]
    return profile(name) if name != P["name"] else P
