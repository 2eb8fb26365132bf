"""The benchmark rows the cost model reads (:func:`apsp_kernels.costs.table`): every verified row with a time of the
benchmark CSVs of one device (:func:`model_device`), each code's newest date only, read with the csv module into
plain dicts (pandas' per-file cost was most of ``method="auto"``'s first call: ~120 ms of CPU for 13 small files on
a 2-core machine, now ~9), and pandas imported only where a caller asks for the rows as a frame (:func:`frame`): its
import was ~150 ms of every process that imported the package, auto's or not."""
from __future__ import annotations

import csv
import functools
import re
from pathlib import Path

from .measure import provenance

FILE = re.compile(r"^(?P<device>.+?)-(?P<date>\d{4}-\d\d-\d\d)(?:-(?P<tag>.+))?\.csv$")

# the columns a prediction reads, and those of them that are numbers
COLUMNS = ("algorithm", "variant", "n", "m", "kernel_ms", "updates_per_s", "verified", "graph", "hop_depth", "threads")
NUMBERS = ("n", "m", "kernel_ms", "updates_per_s", "hop_depth", "threads")


def _number(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return float("nan")


@functools.lru_cache(maxsize=8)
def frame(folders):
    """:func:`read`'s rows as one pandas frame (the cost table as reports and tests read it)."""
    import pandas as pd
    rows = read(folders)
    if not rows:
        return pd.DataFrame(columns=["algorithm", "variant", "n", "updates_per_s", "date", "source"])
    return pd.DataFrame(list(rows))


def _clear():
    read.cache_clear()
    frame.cache_clear()


@functools.lru_cache(maxsize=8)
def read(folders):
    """The rows of the benchmark CSVs in ``folders`` (a tuple, read in order; a file name found twice is read
    from the first), as :func:`apsp_kernels.costs.table` describes them: a tuple of dicts, each code's newest
    date only."""
    # read with the csv module, not pandas: pandas' per-file cost (~10 ms a file) was most of auto's first call
    seen, files = set(), []
    for d in folders:
        d = Path(d)
        for f in sorted(d.glob("*.csv")) if d.is_dir() else ():
            m = FILE.match(f.name)
            if m and f.name not in seen:
                seen.add(f.name)
                files.append((f, m))
    device = model_device(files)
    rows = []
    for f, m in files:
        if device is not None and m.group("device") != device:
            continue
        with open(f, newline="") as fh:
            reader = csv.DictReader(fh)
            have = set(reader.fieldnames or ())
            if not {"algorithm", "n", "m", "kernel_ms", "verified"} <= have:
                continue
            file_rows = [{c: r.get(c) for c in COLUMNS} for r in reader]
        suite = "graph" in have
        threads = None if "threads" in have else _threads_used(f)   # else the provenance's (NaN where neither)
        source = f"{m.group('device').replace('_', ' ')}, {m.group('date')}"
        for r in file_rows:
            for c in NUMBERS:
                r[c] = _number(r[c])
            # the structure suite (structure_suite.py): its Kemp graphs fit the model, the other classes are
            # what auto is checked on; it records times only (predict rates them)
            if suite and r["graph"] != "kemp":
                continue
            if str(r["verified"]) != "True" or not r["kernel_ms"] > 0 or r["updates_per_s"] <= 0:
                continue
            if threads is not None:
                r["threads"] = threads
            r.update(date=m.group("date"), source=source, suite=suite, file=f.name)
            rows.append(r)
    # a code the benchmark measured (several sizes and densities) is predicted from those rows; the suite's (one
    # density, degree ~4) only for a code the benchmark has none of (tuned_frontier).  Taking the suite's because
    # they were newer left tuned_sparse one density: 12.1 ms predicted at degree 8, n = 4096, for 5.5 measured
    # (scripts/auto_check.py on the H100, 2026-11-26)
    measured = {r["algorithm"] for r in rows if not r["suite"]}
    rows = [r for r in rows if not (r["suite"] and r["algorithm"] in measured)]
    newest = {}
    for r in rows:
        newest[r["algorithm"]] = max(newest.get(r["algorithm"], ""), r["date"])
    return tuple(r for r in rows if r["date"] == newest[r["algorithm"]])



def model_device(files):
    """The one device whose rows the model reads: that of the newest ``*-costs.csv`` (``bench --degrees 4 16 64
    --tag costs``, the run made for the model) among ``files`` ((path, FILE match) pairs), or None (every row)
    where there is none.  A code's rows from another device, however new (the structure suite measured on an H200
    to check auto), would otherwise be ranked against this device's rows of the other codes."""
    costs = [(m.group("date"), m.group("device")) for _, m in files if m.group("tag") == "costs"]
    return max(costs)[1] if costs else None


def _threads_used(f):
    """The CPU threads a benchmark file's rows ran on, from its provenance (``<name>.provenance.json`` beside it:
    each invocation's ``cpu_threads_used``, the largest where they differ), or NaN where it says nothing."""
    used = [i.get("cpu_threads_used") for i in provenance.invocations(f)]
    used = [float(u) for u in used if isinstance(u, (int, float))]
    return max(used) if used else float("nan")


def stamp(f):
    """A results file's place in time: the date in its name, then its provenance's timestamp (files of one day),
    then its name."""
    m = FILE.match(Path(f).name)
    ts = (provenance.invocations(f) or [{}])[-1].get("timestamp") or ""
    return (m.group("date") if m else "", str(ts), Path(f).name)
