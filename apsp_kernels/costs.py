"""Measured costs for ``shortest_paths(method="auto")`` (issue 14, target 5): each code's throughput as the newest
benchmark rows measured it (``data/results/benchmarks/*.csv``, this machine's ``$APSP_RESULTS_DIR/benchmarks``
first; verified rows only), so that the automatic choice ranks the codes that can run here by their predicted
time on the graph rather than by a fixed preference.

A prediction scales the rate a code reached at the benchmark size nearest the graph's n (on a log scale), with
its fastest variant there, to the graph's work (the registry's ``updates(g)``: n^3 for the dense codes, n m for
the sparse ones): time = updates(g) / rate.  It is a model built from another machine's measurements (the
recorded reference runs are an H100's), trusted for the ranking rather than the milliseconds, and every
prediction says which rows it came from.  This module names no algorithm: it reads rows by the registry's names."""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from . import paths

FILE = re.compile(r"^(?P<device>.+?)-(?P<date>\d{4}-\d\d-\d\d)(?:-(?P<tag>.+))?\.csv$")


@dataclass(frozen=True)
class Prediction:
    algorithm: str
    variant: object              # the registry's variant (the fastest measured at that n), or None
    ms: float                    # predicted time of one solve of the graph
    rate: float                  # updates/s the prediction scales
    n: int                       # the benchmark size it was measured at
    source: str                  # device, date and file of those rows

    def __str__(self):
        v = f"/{self.variant}" if self.variant is not None else ""
        rate = f"{self.rate / 1e12:.3g} T" if self.rate >= 1e12 else f"{self.rate / 1e9:.3g} G"
        ms = f"~{self.ms:.3g} ms" if self.ms >= 0.01 else "under 0.01 ms"
        return f"{self.algorithm}{v} {ms} ({rate} updates/s at n = {self.n} on {self.source})"


def _folders():
    return (paths.RESULTS / "benchmarks", paths.RECORDED / "benchmarks")


@functools.lru_cache(maxsize=8)
def table(folders=None):
    """Every verified benchmark row with a time, each code's newest date only, as one frame (columns of the
    benchmark files, plus ``date`` and ``source``).  ``folders``: a tuple of folders (default: this machine's
    results, then the recorded ones; a file name found in both is read from the first)."""
    seen, frames = set(), []
    for d in (folders or _folders()):
        d = Path(d)
        for f in sorted(d.glob("*.csv")) if d.is_dir() else ():
            m = FILE.match(f.name)
            if not m or f.name in seen:
                continue
            seen.add(f.name)
            df = pd.read_csv(f)
            if not {"algorithm", "n", "kernel_ms", "updates_per_s", "verified"} <= set(df.columns):
                continue
            df = df[(df.verified.astype(str) == "True") & (df.updates_per_s > 0)].copy()
            df["date"], df["source"] = m.group("date"), f"{m.group('device').replace('_', ' ')}, {m.group('date')}"
            frames.append(df)
    if not frames:
        return pd.DataFrame(columns=["algorithm", "variant", "n", "updates_per_s", "date", "source"])
    rows = pd.concat(frames, ignore_index=True)
    newest = rows.groupby("algorithm").date.transform("max")
    return rows[rows.date == newest].reset_index(drop=True)


def _variant(algo, v):
    """The registry's variant a results file wrote as text or as a float ("32", "32.0"), or None."""
    if v is None or (isinstance(v, float) and math.isnan(v)) or str(v) in ("", "None", "nan"):
        return None
    for x in algo.variants:
        try:
            if str(x) == str(v) or float(x) == float(v):
                return x
        except (TypeError, ValueError):
            continue
    return None


def predict(algo, g, folders=None):
    """The predicted time of ``algo`` on graph ``g`` from its newest benchmark rows, or None where it has none.
    ``folders``: where the benchmark CSVs are (a tuple of folders; default: ``table``'s)."""
    rows = table(tuple(map(Path, folders)) if folders else None)
    rows = rows[rows.algorithm == algo.name]
    if rows.empty:
        return None
    ns = sorted(set(int(n) for n in rows.n))
    n0 = min(ns, key=lambda x: (abs(math.log(x / max(g.n, 1))), x))
    at = rows[rows.n == n0].copy()
    at["key"] = at["variant"].map(lambda v: str(_variant(algo, v)))
    at = at[~at.key.isin([str(v) for v in algo.inexact_variants])]       # never a variant that may be wrong
    if at.empty:
        return None
    by = at.groupby("key").updates_per_s.median()
    key = by.idxmax()
    best = at[at.key == key]
    rate = float(by[key])
    variant = _variant(algo, best.variant.iloc[0]) if "variant" in best else None
    return Prediction(algo.name, variant, algo.updates(g) / rate * 1e3, rate, n0, best.source.iloc[0])
