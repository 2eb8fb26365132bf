"""Golden snapshot of every recorded batch's verdict table, as the code computes it (issue 31: the
study's reshaping must leave every verdict table identical).

    python scripts/verdict_golden.py            # (re)write tests/data/verdict-golden/*.csv
    python scripts/verdict_golden.py --check    # compare, print the tables that differ

``tests/test_verdict_golden.py`` recomputes each table with :func:`compute` and compares it with the
CSV.  A batch is one recorded run folder (or, for the tuned line and NTHU's notebook default, the
recorded files the notebook reads); only the columns that say what was decided are kept."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GOLDEN = ROOT / "tests" / "data" / "verdict-golden"
KEPT = ["claim", "verdict", "ours", "ci_lo", "ci_hi", "reason"]
TUNED_KEPT = ["target", "criterion", "status", "reason", "value", "required_value", "score"]


def batches():
    """{golden name: (study, batch)} of every recorded batch, oldest first within a study."""
    from apsp_kernels.study.registry import STUDIES
    out = {}
    for s in STUDIES.values():
        for run in s.runs():
            out[f"{s.name}--{run.name}"] = (s.name, run)
    return out


def compute(study, run):
    """The verdict table of one batch through the study registry, in golden form (strings)."""
    from apsp_kernels.study.registry import STUDIES
    s = STUDIES[study]
    table = pd.DataFrame(s.verdict_rows(s.load(run)))
    return normalise(table, TUNED_KEPT if study == "tuned" else KEPT)


def normalise(table, cols):
    """The kept columns as text, numbers to 12 significant digits (the same on every machine)."""
    t = table.reindex(columns=cols)
    out = pd.DataFrame(index=range(len(t)))
    for c in cols:
        v = t[c].reset_index(drop=True)
        if pd.api.types.is_numeric_dtype(v) and not pd.api.types.is_bool_dtype(v):
            out[c] = [("" if pd.isna(x) else format(float(x), ".12g")) for x in v]
        else:
            out[c] = ["" if (x is None or (isinstance(x, float) and pd.isna(x))) else str(x) for x in v]
    return out


def read(name):
    return pd.read_csv(GOLDEN / f"{name}.csv", dtype=str, keep_default_na=False)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the stored tables instead of writing them")
    ap.add_argument("--moved", metavar="CSV", help="also write every verdict that differs from the stored table, claim by "
                    "claim (study, batch, claim, before, after, their numbers and the new reason), to CSV")
    a = ap.parse_args(argv)
    moved = []
    GOLDEN.mkdir(parents=True, exist_ok=True)
    bad = 0
    for name, (study, run) in batches().items():
        t = compute(study, run)
        if a.moved and study != "tuned" and (GOLDEN / f"{name}.csv").exists():
            moved += differences(study, run.name, read(name), t)
        if a.check:
            same = (GOLDEN / f"{name}.csv").exists() and read(name).equals(t)
            bad += not same
            print(("same   " if same else "DIFFERS") + f"  {name}  ({len(t)} rows)")
        else:
            t.to_csv(GOLDEN / f"{name}.csv", index=False)
            print(f"wrote {name}.csv ({len(t)} rows)")
    if a.moved:
        pd.DataFrame(moved, columns=MOVED).to_csv(a.moved, index=False)
        print(f"wrote {a.moved} ({len(moved)} verdicts moved)")
    return 1 if bad else 0


MOVED = ["study", "batch", "claim", "before", "after", "ours_before", "ours_after", "reason_after"]


def differences(study, batch, old, new):
    """The rows of ``new`` whose verdict differs from ``old`` (both golden tables), in :data:`MOVED`'s columns."""
    o, n = old.set_index("claim"), new.set_index("claim")
    span = lambda r: f"{r['ours']} [{r['ci_lo']}, {r['ci_hi']}]" if r["ours"] else "-"
    return [dict(study=study, batch=batch, claim=cid, before=o.loc[cid, "verdict"] if cid in o.index else "(absent)",
                 after=n.loc[cid, "verdict"], ours_before=span(o.loc[cid]) if cid in o.index else "-",
                 ours_after=span(n.loc[cid]), reason_after=n.loc[cid, "reason"])
            for cid in n.index if cid not in o.index or o.loc[cid, "verdict"] != n.loc[cid, "verdict"]]


if __name__ == "__main__":
    sys.exit(main())
