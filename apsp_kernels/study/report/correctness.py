"""Which codes returned wrong distances in the recorded runs: every timed run is checked against a CPU reference
and its ``verified`` cell records the outcome, so a published kernel that fails verification is a count over the
recorded rows, never a sentence typed beside it.  The reasons and the replication report read it from here.

:func:`batch_dirs` -- the recorded batch folders a verdict table's ``results`` cells name;
:func:`failures` -- per (algorithm, variant): runs, wrong runs, graphs, of those batches' result rows."""
from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd

from ... import paths
from . import compare

WANTED = {"algorithm", "variant", "verified", "graph", "n", "degree"}
COLUMNS = ("algorithm", "variant", "runs", "wrong", "graphs", "batches")


def batch_dirs(v, root=None):
    """The folders under data/results/ that the rows' ``results`` cells name (each once, in name order)."""
    root = Path(root or paths.RECORDED)
    names = set()
    for cell in v.get("results", pd.Series(dtype=str)).dropna().astype(str):
        names |= compare.runs_named(cell)
    return [root / n for n in sorted(names) if (root / n).is_dir()]


@functools.lru_cache(maxsize=64)
def _rows_of(folder):
    """The result rows of one batch folder that say whether a run verified (verdict tables and logs have no
    ``verified`` column and are skipped by it)."""
    got = []
    for f in sorted(Path(folder).rglob("*.csv")):
        head = pd.read_csv(f, nrows=0).columns
        if not {"algorithm", "verified"} <= set(head):
            continue
        t = pd.read_csv(f, usecols=lambda c: c in WANTED, low_memory=False)
        got.append(t.assign(batch=Path(folder).name))
    return pd.concat(got, ignore_index=True) if got else pd.DataFrame(columns=sorted(WANTED | {"batch"}))


def _graph_names(t):
    """One name a graph: its name with its size and degree (Kemp's generated graphs share one name across sizes)."""
    parts = [t[c].map(lambda x: "" if pd.isna(x) else str(x)) for c in ("graph", "n", "degree") if c in t]
    return functools.reduce(lambda a, b: a + "/" + b, parts) if parts else pd.Series("", index=t.index)


def failures(folders):
    """One row per (algorithm, variant) with at least one run that did not verify: how many runs it had, how many
    returned wrong distances, on how many graphs (by name, else by size) and in which batches."""
    rows = [_rows_of(str(f)) for f in folders]
    t = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()
    if t.empty:
        return pd.DataFrame(columns=COLUMNS)
    t = t.assign(variant=t["variant"].fillna("").astype(str),
                 wrong=t["verified"].astype(str).str.lower().eq("false"),
                 where=_graph_names(t))
    g = t.groupby(["algorithm", "variant"])
    out = pd.DataFrame({"runs": g.size(), "wrong": g["wrong"].sum(),
                        "graphs": g.apply(lambda x: x.loc[x["wrong"], "where"].nunique(), include_groups=False),
                        "batches": g["batch"].apply(lambda b: ", ".join(sorted(set(b))))}).reset_index()
    out = out[out["wrong"] > 0].astype({"wrong": int, "runs": int, "graphs": int})
    return out[list(COLUMNS)].sort_values(["algorithm", "variant"]).reset_index(drop=True)


def of(fail, algorithm, variant=None):
    """The failure row of ``algorithm`` (and ``variant`` where given), or None."""
    if fail is None or fail.empty or not algorithm:
        return None
    hit = fail[fail["algorithm"] == algorithm]
    if variant is not None:
        hit = hit[hit["variant"] == str(variant)]
    return hit.iloc[0] if len(hit) else None
