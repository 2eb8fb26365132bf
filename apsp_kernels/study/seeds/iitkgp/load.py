"""Notebook 10's logic (seed 001, IIT Kharagpur): find the IIT-KGP measurement (scripts/iitkgp_measure.py's
``<batch>-iitkgp`` folder, this machine's results first, then the recorded ones), the statistics of its
rows, and the verdict of every seed-001 claim (data/claims.yaml, ``notebook: 10_iitkgp``) under the rules
of method/rules.  Where nothing was measured, every claim is *not testable* and says why, computed from
what the folder holds.  The figures are :mod:`.figures`.

Statistics as everywhere in the study (method/estimate.py): a code's time on a graph in one process is the
median of its verified runs there (single-source codes: over every source and repeat, the same sources in
every process); a speed-up is the ratio of two codes' times, paired inside each process that ran both, with
its 95% interval over the machine leases (an invocation's processes share one lease).  A code whose full run failed verification on a graph has no time there
(the racy ``original`` SSSP excepted: its wrong runs are counted, never timed)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ....measure import harness
from ... import records
from ...method import timings
from .... import paths
from ....measure.provenance import same_source
from ....algorithms import registry
from ....io import catalogue
from ...method import codes
from ...method import estimate
from ...method.text import fmt

NB = "10_iitkgp"
NOT_RUN = "the IIT-KGP measurement has not been run on the device yet"
SUFFIX = "-iitkgp"


@dataclass
class Report:
    df: pd.DataFrame                       # every row of every invocation of the batch (empty: none)
    provs: dict = field(default_factory=dict)     # invocation -> provenance
    run_dir: Path | None = None

    @property
    def measured(self):
        return not self.df.empty

    def prov(self):
        return next(iter(self.provs.values()), {})


PARTIAL = "PARTIAL.md"     # in a batch folder: which stages it still lacks (measured over several device sessions)


def find_batch():
    """The newest complete ``<batch>-iitkgp`` folder holding results, among this machine's and the
    recorded ones: a batch still being measured (its PARTIAL.md says what it lacks) is rendered only
    when named, so that the report never shows a figure with a graph silently missing."""
    return records.newest(f"*{SUFFIX}", lambda d: any(d.glob("*/results.csv")) and not (d / PARTIAL).exists())


def load(run_dir=None):
    """The batch's rows (``invocation``: the folder each came from) and each invocation's provenance."""
    d = Path(run_dir) if run_dir else find_batch()
    if d is None or not any(d.glob("*/results.csv")):
        return Report(pd.DataFrame(), {}, d)
    frames, provs = [], {}
    for f in sorted(d.glob("*/results.csv")):
        t = harness.read_records(f)
        t["invocation"] = f.parent.name
        p = f.parent / "provenance.json"
        provs[f.parent.name] = json.loads(p.read_text()) if p.exists() else {}
        t["lease"] = _leases(t, provs[f.parent.name], f.parent.name)
        frames.append(t)
    df = pd.concat(frames, ignore_index=True)
    # a process is its own in its invocation; processes of one lease are clustered by the estimator
    df["process"] = df["invocation"] + ":" + df["process"].astype("Int64").astype(str)
    df["estimate"] = df.get("estimate", pd.Series(index=df.index, dtype=object)).fillna("measured")
    return Report(df, provs, d)


def _leases(t, prov, invocation):
    """Each row's machine lease: its process's boot id where the invocation recorded one per process
    (``processes_run``), else the invocation's (its processes ran on its machine), else the invocation itself."""
    own = {p.get("index"): p.get("boot_id") for p in prov.get("processes_run") or [] if p.get("boot_id")}
    whole = prov.get("boot_id") or invocation
    return t["process"].map(lambda p: own.get(int(p)) if p == p and int(p) in own else whole)


def mixed_code(rep):
    """The (commit, fingerprint) pairs of the batch's invocations: more than one breaks 'one batch, one commit'."""
    return sorted({(str(p.get("git_commit")), str(p.get("code_fingerprint"))[:12]) for p in rep.provs.values()})


# what the seed-001 codes are made of: the GPU kernels, and the CPU baselines beside them
KERNEL_SOURCES = {"GPU kernel sources": "apsp_kernels/algorithms/gpu/cuda",
                  "CPU baselines": "apsp_kernels/algorithms/cpu"}


def shared_code(commits, root=None):
    """Which of :data:`KERNEL_SOURCES` are byte-identical at every one of a mixed batch's commits (git,
    where the checkout has the history), as a sentence starting with a space: what 'different code'
    amounts to for the kernels and baselines it measures."""
    parts = []
    for what, path in KERNEL_SOURCES.items():
        same = same_source(commits, path, root=root)
        parts.append(f"the {what} (`{path.split('apsp_kernels/', 1)[1]}/`) "
                     + {True: "are the same at all of them", False: "differ between them",
                        None: "could not be compared here (no git history)"}[same])
    return " Checked with `git diff`: " + "; ".join(parts) + "."


def note(rep):
    """Where the report's numbers come from, in one paragraph."""
    if not rep.measured:
        return (f"**No IIT-KGP results**: {NOT_RUN} (no `*{SUFFIX}` folder with a `results.csv` under "
                f"`{records.rel(paths.RESULTS)}` or `{records.rel(paths.RECORDED)}`). Every claim below is *not testable* "
                "until `scripts/iitkgp_measure.py` has run there (README: the IIT-KGP measurement).")
    p = rep.prov()
    inv = ", ".join(f"`{k}` ({len(v.get('processes_run') or [])} processes)" for k, v in rep.provs.items())
    code = mixed_code(rep)
    warn = (f" **The invocations were measured at different code {code}: one batch should be one commit.**"
            + shared_code([c for c, _ in code]) if len(code) > 1 else "")
    return (f"**RECORDED results** of the IIT-KGP measurement: {p.get('gpu') or 'no GPU'} with {p.get('cpu')}, "
            f"from {str(p.get('timestamp'))[:10]}, commit {str(p.get('git_commit'))[:12]}, in `{records.rel(rep.run_dir)}`: "
            f"{inv}.{warn}")


def record_source(rep):
    """The index's 'numbers from' cell (reports/sources/10_iitkgp.json)."""
    records.record_source(NB, rep.run_dir, rep.prov(), missing=None if rep.measured else f"no device measurement yet: {NOT_RUN}")


# ------------------------------------------------------------------ statistics
def seed_n(graph):
    return catalogue.entry(graph).n


def origin(df, graph):
    o = df.loc[df["graph"] == graph, "graph_origin"].dropna() if "graph_origin" in df else pd.Series(dtype=object)
    return o.iloc[0] if len(o) else "not measured"


def label(df, graph):
    return f"{graph} ({origin(df, graph)})"


def runs(df, graph, algorithm, variant=None, col="wall_ms"):
    """Per-process medians of one code's verified runs on one graph, keyed by (lease, process)
    (estimate.samples), and how it was timed: full runs where at least two processes have them, else the
    sampled estimates, else what there is; (values, 'measured' | 'sampled' | 'failed' | None)."""
    d = df[(df["graph"] == graph) & (df["algorithm"] == algorithm)]
    if variant is not None:
        d = d[d["variant"].astype(str) == str(variant)]
    if d.empty:
        return _none(col), None
    exact = str(variant) not in map(str, registry.get(algorithm).inexact_variants)
    if exact and d.loc[d["estimate"] == "measured", "status"].isin(["failed_verification", "error"]).any():
        return _none(col), "failed"
    g = timings.good(d)
    g = g.dropna(subset=[col]) if col in g else g.iloc[0:0]
    full, samp = g[g["estimate"] == "measured"], g[g["estimate"] == "sampled"]
    use = full if full["process"].nunique() >= 2 or samp.empty else samp
    if use.empty:
        return _none(col), None
    return estimate.samples(use, col), str(use["estimate"].iloc[0])


def _none(col):
    return estimate.samples(pd.DataFrame({col: []}), col)


def col_for(algorithm, time):
    return "kernel_ms" if time == "kernel" and registry.get(algorithm).device == "gpu" else "wall_ms"


def fastest(df, graph, codes, time="end_to_end"):
    """The fastest of ``codes`` [(algorithm, variant)] on a graph by median: (runs, how, code)."""
    best = (_none("wall_ms"), None, None)
    for a, v in codes:
        r, how = runs(df, graph, a, v, col_for(a, time))
        if r.size and (not best[0].size or np.median(r) < np.median(best[0])):
            best = (r, how, (a, v))
    return best


def ratio(df, graph, num, den, time="end_to_end"):
    """Time of the fastest of ``num`` / time of the fastest of ``den`` on one graph, with its 95% interval:
    dict(v, lo, hi, num/den codes and how they were timed), v NaN where either is missing."""
    a, ka, ca = fastest(df, graph, num, time)
    b, kb, cb = fastest(df, graph, den, time)
    e = estimate.ratio(a, b) if a.size and b.size else estimate.NONE
    return dict(graph=graph, n=seed_n(graph), v=e.value, lo=e.lo, hi=e.hi, num=ca, den=cb, num_timed=ka, den_timed=kb,
                leases=e.leases, paired=e.paired, est=e)


def summary(df, stage):
    """One row per (graph, code) of a stage: median time and its 95% interval over the processes."""
    out = []
    d = df[df["stage"] == stage] if "stage" in df else df.iloc[0:0]
    for (g, a, v, est), grp in d[d["algorithm"] != "-"].groupby(["graph", "algorithm", "variant", "estimate"], sort=False):
        bad = int(grp["status"].isin(["failed_verification", "error"]).sum())
        ok = timings.good(grp).dropna(subset=["wall_ms"])
        if bad and str(v) not in map(str, registry.get(a).inexact_variants):
            ok = ok.iloc[0:0]                              # an exact code that was wrong here has no time
        r = estimate.samples(ok, "wall_ms")
        e = estimate.interval(r)
        out.append(dict(graph=label(df, g), algorithm=a, variant=v, estimate=est, median=e.value, ci_lo=e.lo, ci_hi=e.hi,
                        processes=len(r), leases=e.leases, runs=len(grp), failed=bad,
                        **{"skipped (count)": int((grp["status"] == "skipped").sum())}))
    return pd.DataFrame(out, columns=["graph", "algorithm", "variant", "estimate", "median", "ci_lo", "ci_hi", "processes",
                                      "leases", "runs", "failed", "skipped (count)"])


def race(df):
    """The racy original SSSP (§4.2) beside the corrected one: how many searches were wrong, by how much."""
    out = []
    if df.empty:
        return pd.DataFrame(out)
    d = df[(df["stage"] == "sssp") & (df["algorithm"] == codes.load("iitkgp")["race"].algorithm) & (df["status"] != "skipped")]
    for (g, v), grp in d.groupby(["graph", "variant"], sort=False):
        out.append({"graph": label(df, g), "variant": v, "searches (count)": len(grp),
                    "wrong searches (count)": int((grp["status"] == "failed_verification").sum()),
                    "wrong entries (count)": int(grp.get("wrong_entries", pd.Series(0)).fillna(0).sum()),
                    "too short (count)": int(grp.get("undershoots", pd.Series(0)).fillna(0).sum())})
    return pd.DataFrame(out)


def graphs_table(rep):
    """The seed's nine graphs (§6.1): its numbers, the real file, and what this batch measured."""
    from .spec import density
    df = rep.df
    rows = []
    for e, t in zip(catalogue.SEED001, catalogue.table()):
        got = origin(df, e.name) if rep.measured else "not measured"
        rows.append({"graph": e.name, "seed's place": t["seed_places"], "n": e.n, "edges (count)": e.m,
                     "average degree (edges per vertex)": fmt(2 * e.m / e.n),
                     "density (average degree / n)": fmt(density(e.n, e.m)),
                     "the seed says": e.seed_words, "real file": t["real"], "url": t["url"],
                     "measured here": got, "without the real file": t["here"]})
    return pd.DataFrame(rows)

