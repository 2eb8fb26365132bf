"""The independent batches of the studies that measure on their own (Hochberg, seed 002; NTHU on one
and on two GPUs, seed 004; IIT Kharagpur, seed 001), their verdicts side by side.

A verdict measured once is not yet a finding: each of these studies was measured a second time, in a
fresh batch on fresh machine leases under the method as fixed (docs/method.md), and this table says,
claim by claim, whether the batches agree.  Agreement is stability, not validity: it says the
measurement is repeatable, not that the reading of the claim is right.

The studies compared are those of the study registry that declare their confirming batches
(``Study.confirming``); a batch is, per study:
- Hochberg: a ``<batch>-hochberg/`` folder of ``p<K>/`` processes (each on its own lease);
- NTHU one GPU: the ``<time>-nthu-single`` runs of one day (the runs of 2026-11-23 and those of
  2026-11-25 were measured as two batches, one run a lease);
- NTHU two GPUs: the ``<time>-nthu-multi`` runs of one campaign (one model of card, each run within 2 days
  of the one before; each run measures its one-GPU baseline on the same machine), measured until every setting
  up to n = 32768 has 3 processes: 2 x H200 on 23-24 Nov (three leases: the first campaign, which also ran
  n = 65536 and two weak points once) and 2 x H100 on 25 Nov (three leases, issue 33's confirming batch);
- IIT Kharagpur: a ``<batch>-iitkgp/`` folder (its invocations, 3 processes each).
Each batch's rows are
the study's (``Study.verdict_rows``): a claim added to data/claims.yaml is compared with no code here.

Computing it loads every batch (about a minute), so the table is written once,
``python -m apsp_kernels.study.report.batches`` -> ``data/results/confirming-batches.csv``, notebook 07
shows it, and tests/test_confirming_batches.py recomputes it from the records (it cannot drift)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from ... import paths
from ...io import catalogue
from ..method import claims as claims_mod

TABLE = "confirming-batches.csv"


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


def verdicts_by_batch(root=None, claims=None):
    """One row per (study, batch, claim): verdict, ours [CI], and what it rests on."""
    C = claims or claims_mod.load()
    rows = []
    for s, conf in ((s, conf) for s in confirming_studies() for conf in s.confirming):
        for b in conf.batches((Path(root or paths.RECORDED),)):
            loaded = s.load(b)
            measured = conf.measured(loaded) if conf.measured else None
            for r in s.verdict_rows(loaded, C):
                cid = r["claim"]
                if conf.holds is None or conf.holds(cid):
                    rows.append(dict(study=conf.label, batch=b.name, claim=cid, verdict=r["verdict"], ours=r.get("ours"),
                                     ci_lo=r.get("ci_lo"), ci_hi=r.get("ci_hi"), rests_on=rests_on(C.get(cid, {}), measured)))
    return pd.DataFrame(rows)


def side_by_side(long):
    """Claims down, each study's batches across (batch 1 its oldest; ``batches`` names them), ``same`` where every batch that
    judged the claim gave one verdict, and what the verdicts rest on (stand-ins, unmeasured graphs)."""
    out = []
    for study, g in long.groupby("study", sort=False):
        w = g.pivot(index="claim", columns="batch", values="verdict")
        names = list(w.columns)
        w.columns = [f"batch {i + 1}" for i in range(len(names))]
        w.insert(0, "study", study)
        w["same"] = g.groupby("claim")["verdict"].nunique() == 1
        order = {b: i + 1 for i, b in enumerate(names)}
        w["rests on"] = [_rests_text(g[g["claim"] == cid], order) for cid in w.index]
        w["batches"] = "; ".join(f"{i + 1}: {b}" for i, b in enumerate(names))
        out.append(w.reset_index())
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()


def _rests_text(rows, order):
    """One text where every batch rests on the same, else each batch's own."""
    texts = dict(zip(rows["batch"], rows["rests_on"]))
    if len(set(texts.values())) <= 1:
        return next(iter(texts.values()), "")
    return " | ".join(f"batch {order[b]}: {t or 'all its graphs measured'}" for b, t in sorted(texts.items(), key=lambda x: order[x[0]]))


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


def load_table(root=None):
    f = Path(root or paths.RECORDED) / TABLE
    return pd.read_csv(f, keep_default_na=False) if f.exists() else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=None, help="where the batches are (default data/results)")
    ap.add_argument("--out", default=None, help=f"where to write the table (default <root>/{TABLE})")
    a = ap.parse_args(argv)
    wide = side_by_side(verdicts_by_batch(a.root))
    out = Path(a.out or Path(a.root or paths.RECORDED) / TABLE)
    wide.to_csv(out, index=False)
    print(sentence(wide), f"-> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
