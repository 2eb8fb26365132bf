"""How long a campaign will take, predicted from the recorded runs before it starts, and said when it ran past.

A recorded process's duration is the time from its start to the next process's start on the same machine lease
(provenance ``timestamp`` and ``boot_id``): that is everything it did (graphs, CPU references, warm-ups, the timed
runs), which the records' own times leave out.  A profile is predicted from the recorded runs of the profile whose
plan per process it shares (``decide`` runs ``paper``'s plan in fewer processes); a main process and a satellite
process each take the median of their recorded kind.  The prediction holds for the recorded card (one H100) and
host; another GPU or CPU moves it, which is why a run says when it went past."""
from __future__ import annotations

import json
import statistics
from datetime import datetime
from pathlib import Path

from ... import records
from ....paths import RECORDED
from .profiles import PROFILES, all_processes, is_satellite

PLAN_FREE = ("processes", "satellites")     # keys that say how many processes, not what each process runs


def plan_of(name):
    """The first profile (in PROFILES' order) whose per-process plan profile ``name`` runs: its recorded runs
    predict ``name``'s processes."""
    mine = {k: v for k, v in PROFILES[name].items() if k not in PLAN_FREE}
    return next(o for o, P in PROFILES.items() if {k: v for k, v in P.items() if k not in PLAN_FREE} == mine)


def durations(run_dir):
    """[(process, satellite?, seconds)] of a recorded campaign: each process with a successor on its lease."""
    provs = []
    for f in Path(run_dir).glob("provenance-*.json"):
        p = json.loads(f.read_text())
        if p.get("timestamp") and p.get("boot_id"):
            provs.append((p["boot_id"], datetime.fromisoformat(p["timestamp"]), int(f.stem.split("-")[1]),
                          bool((p.get("parameters") or {}).get("satellite"))))
    out = []
    for boot in {b for b, *_ in provs}:
        mine = sorted((t, i, s) for b, t, i, s in provs if b == boot)
        out += [(i, s, (nxt[0] - t).total_seconds()) for (t, i, s), nxt in zip(mine, mine[1:])]
    return sorted(out)


def recorded_runs(profile_name, roots=(RECORDED,)):
    """The recorded campaigns of a profile that ran satellites (the plan's current shape), oldest first."""
    def shaped(d):
        return any(json.loads(f.read_text()).get("parameters", {}).get("satellite") for f in d.glob("provenance-*.json"))
    return records.folders(f"*-{profile_name}-campaign", shaped, roots)


def estimate(name, only=None, runs=None):
    """(seconds, how) for the processes ``only`` (default: all) of profile ``name``, or (None, why not)."""
    base = plan_of(name)
    runs = recorded_runs(base) if runs is None else runs
    got = [d for r in runs for d in durations(r)]
    main = [s for _, sat, s in got if not sat]
    sats = [s for _, sat, s in got if sat]
    if not main:
        return None, f"no recorded run of profile {base}'s plan to predict from"
    P = dict(PROFILES[name], name=name)
    idx = list(all_processes(P) if only is None else only)
    k_sat = sum(is_satellite(P, i) for i in idx)
    m, s = statistics.median(main), statistics.median(sats) if sats else 0.0
    secs = (len(idx) - k_sat) * m + k_sat * s
    how = (f"{len(idx) - k_sat} process{'es' if len(idx) - k_sat != 1 else ''} x {m / 60:.1f} min"
           + (f" + {k_sat} satellite{'s' if k_sat != 1 else ''} x {s:.0f} s" if k_sat else "")
           + f" (medians of {len(main)} + {len(sats)} recorded processes of profile {base}, "
             f"{', '.join(Path(r).name for r in runs)}; one H100)")
    return secs, how


def before(name, only=None, runs=None):
    """The line printed before a campaign starts."""
    secs, how = estimate(name, only, runs)
    if secs is None:
        return f"estimate: none ({how})"
    return f"estimate: about {secs / 60:.0f} min of measurement: {how}; the notebooks' render comes after"


def after(elapsed, name, only=None, runs=None):
    """The line printed when it ends: within the estimate, or past it and by how much."""
    secs, _ = estimate(name, only, runs)
    if secs is None:
        return f"measured in {elapsed / 60:.1f} min (no estimate to hold it to)"
    if elapsed > secs:
        return (f"PAST THE ESTIMATE: measured in {elapsed / 60:.1f} min, {100 * (elapsed / secs - 1):.0f}% over the "
                f"predicted {secs / 60:.1f} min (a slower GPU or host than the recorded H100's, or a busy machine)")
    return f"measured in {elapsed / 60:.1f} min, within the predicted {secs / 60:.1f} min"


def progress(name, idx, done, elapsed, runs=None):
    """'2 of 5 processes done (40%), about 12 min left by the estimate': the line after each process; ``done``: the
    process just finished, ``idx``: every process of this run, in order."""
    idx = list(idx)
    k = idx.index(done) + 1
    secs, _ = estimate(name, idx, runs)
    left, _ = estimate(name, idx[k:], runs) if k < len(idx) else (0.0, "")
    bar = f"{k} of {len(idx)} processes done ({100 * k // len(idx)}%)"
    if secs is None:
        return bar
    late = f", {elapsed / 60 - (secs - left) / 60:.0f} min behind it" if elapsed > 1.25 * (secs - left) else ""
    return bar + f", about {left / 60:.0f} min left by the estimate{late}"
