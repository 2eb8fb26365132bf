"""The study's records on disk, in one place: the run-folder format (``<time>-<what>`` folders under
this machine's results and the recorded ones), finding runs, the "numbers from" line of the index,
and publishing a notebook's verdict table where the index and notebook 07 read it."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .. import paths


@dataclass
class Measurements:
    """One notebook's numbers and where they come from (the campaign's and the studies that share its
    reports: the note, the provenance, the run folder, whether measured now)."""
    df: pd.DataFrame            # every record of the campaign, all processes (figures filter what they show)
    prov: dict
    note: str                   # where the numbers come from, for the report
    run_dir: Path
    measured_now: bool
    own: pd.DataFrame = None    # the records of this notebook's own jobs (its failures are reported)
    notebook: str = ""          # whose numbers these are (the index says where each report's came from)


def rel(p):
    """A path as the reports show it: relative to the checkout where it lies inside it."""
    try:
        return Path(p).resolve().relative_to(paths.ROOT)
    except ValueError:
        return Path(p)


def folders(pattern, holds=None, roots=None):
    """The run folders matching ``pattern`` (a glob: ``*-hochberg``) that ``holds`` accepts, oldest
    (by name) first, one per name: where several roots hold the same name, the last root's."""
    roots = (paths.RECORDED, paths.RESULTS) if roots is None else roots    # this machine's win a tie of names
    found = {}
    for r in roots:
        for d in sorted(Path(r).glob(pattern)):
            if d.is_dir() and (holds is None or holds(d)):
                found[d.name] = d
    return [found[k] for k in sorted(found)]


def newest(pattern, holds=None, roots=None):
    """The newest of :func:`folders`, or None."""
    found = folders(pattern, holds, roots)
    return found[-1] if found else None


def pick(found, which, what):  # noqa: D401
    """Runs chosen from ``found`` (oldest first): "latest", "all", "none"/"" or comma-separated folder
    names, their prefixes or paths; a name that matches none is refused in one line."""
    if which in ("", "none", None):
        return []
    if which in ("latest", "all"):
        return found[-1:] if which == "latest" else list(found)
    by_name = {d.name: d for d in found}
    out = []
    for w in (w.strip() for w in str(which).split(",") if w.strip()):
        p = Path(w)
        if not p.is_dir():
            p = by_name.get(w) or next((d for d in found if d.name.startswith(w)), None)
        if p is None:
            raise FileNotFoundError(f"no {what} run named {w!r}")
        out.append(p)
    return out


def record_source(notebook, run, prov=None, *, measured_now=False, missing=None, device=None, date=None, commit=None,
                  run_text=None, profile=None):
    """Where a report's numbers come from, for the index (``reports/sources/<notebook>.json``): the
    run (a folder, files, or a text), the device, date and commit from its provenance unless given;
    ``run_text``: the runs in words where a notebook pools several kinds (written as given); ``profile``: the
    profile the run was measured under (its provenance's unless given; a recorded run's, not this render's);
    ``missing``: why there are no numbers yet."""
    if not notebook:
        return
    p = prov or {}
    out = paths.REPORTS / "sources"
    out.mkdir(parents=True, exist_ok=True)
    if missing:
        s = dict(measured_now=False, missing=missing, device=None, date="", commit="", run="-")
    else:
        runs = run if isinstance(run, (list, tuple)) else [run]
        s = dict(measured_now=bool(measured_now), device=device if device is not None else (p.get("gpu") or p.get("cpu")),
                 date=date if date is not None else str(p.get("timestamp") or "")[:10],
                 commit=commit if commit is not None else str(p.get("git_commit") or "")[:12],
                 run=run_text if run_text is not None else ", ".join(str(rel(r)) for r in runs),
                 profile=profile if profile is not None else str(p.get("profile") or ""))
    (out / f"{notebook}.json").write_text(json.dumps(s))


# the confirming batches' verdicts side by side: report/batches.py writes it, a seed's report reads it
CONFIRMING_BATCHES = "confirming-batches.csv"


def confirming_batches(root=None):
    """The recorded table of the confirming batches (under ``root``, else data/results), or None where none is."""
    f = Path(root or paths.RECORDED) / CONFIRMING_BATCHES
    return pd.read_csv(f, keep_default_na=False) if f.exists() else None


def device_of(prov):
    return prov.get("gpu") or f"CPU only ({prov.get('cpu')})"


def publish(notebook, table, *, device, results, profile="", run_dir=None, reports_dir=None):
    """A notebook's verdict table where the index and notebook 07 find it
    (``<reports>/verdicts/<notebook>.csv``) and, for a run measured now (``run_dir``), beside its
    records; returns the table as written."""
    t = table.assign(device=device, results=results, profile=profile)
    d = (reports_dir or paths.REPORTS) / "verdicts"
    d.mkdir(parents=True, exist_ok=True)
    t.to_csv(d / f"{notebook}.csv", index=False)
    if run_dir is not None:
        t.assign(notebook=notebook).to_csv(Path(run_dir) / f"verdicts-{notebook}.csv", index=False)
    return t
