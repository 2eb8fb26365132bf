"""The independent batches of the studies that measure on their own (Hochberg, seed 002; NTHU on one
and on two GPUs, seed 004; IIT Kharagpur, seed 001), their verdicts side by side.

A verdict measured once is not yet a finding: each of these studies was measured a second time, in a
fresh batch, and this table says, claim by claim, whether the batches agree.  Agreement is stability,
not validity: it says the measurement is repeatable, not that the reading of the claim is right.

What was not fixed before a batch was measured is said in the row it touches (``disclosed``), computed
from the records: how many processes a verdict rests on and on how many machine leases (provenance
``boot_id``; the lease, not the process, is the independent unit), and every change of
data/analysis-changes.csv that names the claim and came after the batch had been measured (an analysis
changed after the batch had been seen, a batch completed after its interim verdicts had been read).

The studies compared are those of the study registry that declare their confirming batches
(``Study.confirming``); a batch is, per study:
- Hochberg: a ``<batch>-hochberg/`` folder of ``p<K>/`` processes (each on its own lease);
- NTHU one GPU: the ``<time>-nthu-single`` runs of one day (the runs of 2026-11-23 and those of
  2026-11-25 were measured as two batches, one run a lease);
- NTHU two GPUs: the ``<time>-nthu-multi`` runs of one campaign (one model of card, each run within 2 days
  of the one before; each run measures its one-GPU baseline on the same machine), measured until every setting
  up to n = 32768 has 3 processes: 2 x H200 on 23-24 Nov (three leases: the first campaign, which also ran
  n = 65536 and two weak points once) and 2 x H100 on 25 Nov (three leases, the confirming batch);
- IIT Kharagpur: a ``<batch>-iitkgp/`` folder (its invocations, 3 processes each).
Each batch's rows are
the study's (``Study.verdict_rows``): a claim added to data/claims.yaml is compared with no code here.

Computing it loads every batch (about a minute), so the table is written once,
``python -m apsp_kernels.study.report.batches`` -> ``data/results/confirming-batches.csv``, notebook 07
shows it, and tests/test_confirming_batches.py recomputes it from the records (it cannot drift)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from ... import paths
from ...io import catalogue
from ..method import changes as changes_mod
from ..method import claims as claims_mod
from ..records import CONFIRMING_BATCHES


def confirming_studies():
    """The registered studies that declare confirming batches, in the registry's order."""
    from ..registry import STUDIES            # here: the registry's table of studies names this module's
    return [s for s in STUDIES.values() if s.confirming]


def rests_on(c, measured=None):
    """What a claim's verdict rests on beyond the timing: generated stand-ins for the seed's real graphs,
    and (``measured``: the batch's (stage, graph) pairs) graphs of the claim this batch did not measure."""
    out = []
    graphs = c.get("graphs") or []
    stand = [g for g in graphs if not catalogue.entry(g).generated_by_seed]
    if stand:
        out.append(f"generated stand-ins for {len(stand)} of {len(graphs)} graphs ({', '.join(stand)})")
    if measured is not None and c.get("stage"):
        missing = [g for g in graphs if (c["stage"], g) not in measured]
        if missing:
            out.append(f"{c['stage']} on {', '.join(missing)} not measured in this batch")
    return "; ".join(out)


def units(batch_paths):
    """The measuring units of a batch: every folder with a provenance.json (a run, a Hochberg process, an
    IIT Kharagpur invocation), each with its name, its lease (boot id), how many processes it ran (the
    distinct ``process`` values of its records, else 1), and the stages and sizes n it measured."""
    out = []
    for p in map(Path, batch_paths):
        dirs = [p] if (p / "provenance.json").exists() else sorted(d for d in p.iterdir() if (d / "provenance.json").exists())
        for d in dirs:
            prov = json.loads((d / "provenance.json").read_text())
            procs, stages, sizes = 1, set(), set()
            for f in sorted(d.glob("*.csv")):
                df = pd.read_csv(f, usecols=lambda c: c in ("process", "stage", "n"))
                if "process" in df:
                    procs = max(procs, df["process"].nunique())
                stages |= set(df["stage"].dropna()) if "stage" in df else set()
                sizes |= set(df["n"].dropna().astype(int)) if "n" in df else set()
            out.append(dict(name=d.name, lease=prov.get("boot_id") or f"{d.name} (no boot id)", processes=procs,
                            stages=stages, sizes=sizes))
    return out


def serving(c, us, named=frozenset()):
    """The units a claim's verdict rests on: those that measured its stage; else, where the units record sizes,
    those that measured one of its paper sizes, or (a claim naming none) not only sizes other claims name
    (``named``); else every unit."""
    if c.get("stage") and any(u["stages"] for u in us):
        got = [u for u in us if c["stage"] in u["stages"]]
    elif any(u["sizes"] for u in us):
        own = set(c.get("paper_n") or ())
        got = [u for u in us if u["sizes"] & own] if own else [u for u in us if not u["sizes"] <= set(named)]
    else:
        got = us
    return got or us


def leases_text(us):
    """'3 processes on 1 lease (shared: lease a520799d: apsp, 3 processes)': the processes, the leases they ran on, and
    every lease that held more than one process."""
    by = {}
    for u in us:
        by.setdefault(u["lease"], []).append(u)
    n = sum(u["processes"] for u in us)
    shared = [(lease, g) for lease, g in by.items() if sum(u["processes"] for u in g) > 1]
    runs = f" in {len(us)} runs" if 1 < len(us) != n else ""
    text = f"{n} process{'es' if n != 1 else ''}{runs} on {len(by)} lease{'s' if len(by) != 1 else ''}"
    if shared:
        text += " (shared: " + "; ".join(
            f"lease {lease[:8]}: " + ", ".join(u["name"] + (f", {u['processes']} processes" if u["processes"] > 1 else "")
                                             for u in g) for lease, g in shared) + ")"
    return text


def disclosed(c, us, batch_names, rows=None):
    """What a claim's verdict in one batch rests on that was not fixed in advance: its processes and leases,
    and each change of data/analysis-changes.csv that names the claim and came after the batch was measured."""
    out = [leases_text(us)]
    for r in changes_mod.touching(c.get("id", ""), batch_names, rows):
        out.append(f"{changes_mod.when(r)}, {r['commit']} ({r['kind']}), after runs of this batch had been measured: {r['change']}; "
                   f"moved: {r['moved']}")
    return "; ".join(out)


def verdicts_by_batch(root=None, claims=None, changes=None):
    """One row per (study, batch, claim): verdict, ours [CI], what it rests on and what is disclosed."""
    C = claims or claims_mod.load()
    rows_changes = changes if changes is not None else changes_mod.load()
    rows = []
    for s, conf in ((s, conf) for s in confirming_studies() for conf in s.confirming):
        for b in conf.batches((Path(root or paths.RECORDED),)):
            loaded = s.load(b)
            measured = conf.measured(loaded) if conf.measured else None
            paths_ = list(b.files) or [b.path]
            us = units(paths_)
            names = [Path(x).name for x in paths_]
            vrows = [r for r in s.verdict_rows(loaded, C) if conf.holds is None or conf.holds(r["claim"])]
            named = {n for r in vrows for n in (C.get(r["claim"], {}).get("paper_n") or ())}
            for r in vrows:
                cid = r["claim"]
                c = {**C.get(cid, {}), "id": cid}
                rows.append(dict(study=conf.label, batch=b.name, claim=cid, verdict=r["verdict"], ours=r.get("ours"),
                                 ci_lo=r.get("ci_lo"), ci_hi=r.get("ci_hi"), rests_on=rests_on(C.get(cid, {}), measured),
                                 disclosed=disclosed(c, serving(c, us, named), names, rows_changes)))
    return pd.DataFrame(rows)


def side_by_side(long):
    """Claims down, each study's batches across (batch 1 its oldest; ``batches`` names them), ``same`` where every batch that
    judged the claim gave one verdict, what the verdicts rest on (stand-ins, unmeasured graphs) and what is disclosed
    (leases, changes after the batch was measured)."""
    out = []
    for study, g in long.groupby("study", sort=False):
        w = g.pivot(index="claim", columns="batch", values="verdict")
        names = list(w.columns)
        w.columns = [f"batch {i + 1}" for i in range(len(names))]
        w.insert(0, "study", study)
        w["same"] = g.groupby("claim")["verdict"].nunique() == 1
        order = {b: i + 1 for i, b in enumerate(names)}
        w["rests on"] = [_rests_text(g[g["claim"] == cid], order) for cid in w.index]
        if "disclosed" in g:
            w["disclosed"] = [_rests_text(g[g["claim"] == cid], order, "disclosed", "-") for cid in w.index]
        w["batches"] = "; ".join(f"{i + 1}: {b}" for i, b in enumerate(names))
        out.append(w.reset_index())
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()


def _rests_text(rows, order, column="rests_on", empty="all its graphs measured"):
    """One text where every batch rests on the same, else each batch's own."""
    texts = dict(zip(rows["batch"], rows[column]))
    if len(set(texts.values())) <= 1:
        return next(iter(texts.values()), "")
    return " | ".join(f"batch {order[b]}: {t or empty}" for b, t in sorted(texts.items(), key=lambda x: order[x[0]]))


def sentence(wide):
    """How many of the claims judged by two or more batches agree, computed from the table."""
    if wide.empty:
        return "No study with its own measurement has two recorded batches yet."
    batch_cols = [c for c in wide.columns if c.startswith("batch ")]
    two = wide[wide[batch_cols].notna().sum(axis=1) >= 2]
    differ = two[~two["same"]]
    text = (f"{len(differ)} of {len(two)} claims judged by two independent batches differ in verdict"
            + (f" ({', '.join(differ['claim'])})" if len(differ) else "") + ".")
    one = len(wide) - len(two)
    return text + (f" {one} claims were judged by one batch only." if one else "")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=None, help="where the batches are (default data/results)")
    ap.add_argument("--out", default=None, help=f"where to write the table (default <root>/{CONFIRMING_BATCHES})")
    a = ap.parse_args(argv)
    wide = side_by_side(verdicts_by_batch(a.root))
    out = Path(a.out or Path(a.root or paths.RECORDED) / CONFIRMING_BATCHES)
    wide.to_csv(out, index=False)
    print(sentence(wide), f"-> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
