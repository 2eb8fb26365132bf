"""Golden snapshot of every recorded batch's verdict table, as the code computes it: a change of the code that
is not a change of the method must leave every verdict table identical.

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
KEPT = ["claim", "verdict", "ours", "ci_lo", "ci_hi", "leases", "reason"]
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
    ap.add_argument("--moved-since", nargs=2, metavar=("REV", "CSV"), help="compute nothing: write every verdict of the "
                    "stored tables that differs from the tables stored at git revision REV, with why, to CSV")
    a = ap.parse_args(argv)
    if a.moved_since:
        t = moved_since(a.moved_since[0])
        t.to_csv(a.moved_since[1], index=False)
        print(f"wrote {a.moved_since[1]} ({len(t)} verdicts moved since {a.moved_since[0]})")
        return 0
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


MOVED = ["study", "batch", "claim", "before", "after", "ours_before", "ours_after", "leases_after", "reason_after"]


def moved_since(rev):
    """Every verdict of the stored tables that differs from the one stored at git revision ``rev``, with why
    (:func:`why`), one row a claim of a batch; a claim new since ``rev`` is not listed."""
    import io
    import subprocess
    rows = []
    for name in sorted(p.stem for p in GOLDEN.glob("*.csv")):
        study, batch = name.split("--", 1)
        if study == "tuned":
            continue
        old = subprocess.run(["git", "show", f"{rev}:{(GOLDEN / f'{name}.csv').relative_to(ROOT)}"], cwd=ROOT,
                             capture_output=True, text=True)
        if old.returncode != 0:
            continue
        before = pd.read_csv(io.StringIO(old.stdout), dtype=str, keep_default_na=False)
        after = read(name)
        rows += [r for r in differences(study, batch, before, after) if r["before"] != "(absent)"]
    rows += pooled_differences(rev)
    t = pd.DataFrame(rows, columns=MOVED)
    t.insert(5, "why", [why(r) for r in t.to_dict("records")])
    return t


def pooled_differences(rev):
    """The verdicts of the pooled batches (data/results/confirming-batches.csv: NTHU's runs of a day or a campaign,
    which no golden table holds) that differ from that table at git revision ``rev``."""
    import io
    import subprocess
    f = ROOT / "data" / "results" / "confirming-batches.csv"
    old = subprocess.run(["git", "show", f"{rev}:{f.relative_to(ROOT)}"], cwd=ROOT, capture_output=True, text=True)
    if old.returncode != 0 or not f.exists():
        return []
    before = pd.read_csv(io.StringIO(old.stdout), keep_default_na=False).set_index("claim")
    after = pd.read_csv(f, keep_default_na=False)
    out = []
    for r in after.to_dict("records"):
        if r["claim"] not in before.index or "pooled" not in _batch_names(r["batches"]):
            continue
        names = _batch_names(r["batches"])["names"]
        for k in ("batch 1", "batch 2"):
            if before.loc[r["claim"], k] != r[k]:
                out.append(dict(study="nthu" if "NTHU" in r["study"] else r["study"], batch=names[k[-1]], claim=r["claim"],
                                before=before.loc[r["claim"], k], after=r[k], ours_before="-", ours_after="-",
                                leases_after="", reason_after=r.get("disclosed", "")))
    return out


def _batch_names(text):
    """{'names': {'1': batch 1's name, '2': ...}, 'pooled': ...} from confirming-batches.csv's ``batches`` cell; the key
    'pooled' only where a batch pools several run folders ('(3 runs)')."""
    names = dict(part.split(": ", 1) for part in text.split("; "))
    out = {"names": names}
    if any("runs" in v for v in names.values()):
        out["pooled"] = True
    return out


def why(r):
    """Why a verdict moved under the one estimator (study/method/estimate.py), read from its new reason and
    from how many processes and leases its batch recorded."""
    text = r["reason_after"]
    procs, leases = _processes_and_leases(r["batch"]) if (ROOT / "data" / "results" / r["batch"]).is_dir() else (0, 0)
    if not (ROOT / "data" / "results" / r["batch"]).is_dir():          # a pooled batch: its reason is its disclosure
        return "processes of one lease count once: " + text.split(" | ")[0].split(";")[0]
    own = float(r["leases_after"]) if str(r.get("leases_after", "")).strip() not in ("", "nan") else leases
    if "no interval" in text or "one lease" in text or "single run" in text or 0 < own < 2:
        return ("its numbers rest on one machine lease (processes of one lease count once): no interval over "
                "independent leases")
    if "on two or more leases" in text:
        return "fewer than 4 sizes on two or more leases: no slope over leases"
    if "interval reaches below it" in text:
        return "the crossing lies beyond the claim's last size, but its interval reaches below it (interval-aware up_to)"
    if "slope" in text:
        return "the slope's interval now includes the scatter between its points"
    if procs > leases:
        return (f"its {procs} processes ran on {leases} leases: the interval is over the {leases} leases, not the "
                f"{procs} processes")
    return "the ratio paired inside each process that ran both codes, its interval over independent leases"


def differences(study, batch, old, new):
    """The rows of ``new`` whose verdict differs from ``old`` (both golden tables), in :data:`MOVED`'s columns."""
    o, n = old.set_index("claim"), new.set_index("claim")
    from apsp_kernels.study.method.text import fmt
    num = lambda x: fmt(float(x)) if str(x).strip() else "-"
    span = lambda r: f"{num(r['ours'])} [{num(r['ci_lo'])}, {num(r['ci_hi'])}]" if r["ours"] else "-"
    return [dict(study=study, batch=batch, claim=cid, before=o.loc[cid, "verdict"] if cid in o.index else "(absent)",
                 after=n.loc[cid, "verdict"], ours_before=span(o.loc[cid]) if cid in o.index else "-",
                 ours_after=span(n.loc[cid]), leases_after=n.loc[cid].get("leases", ""), reason_after=n.loc[cid, "reason"])
            for cid in n.index if cid not in o.index or o.loc[cid, "verdict"] != n.loc[cid, "verdict"]]


def _processes_and_leases(batch):
    """(processes, distinct machine leases) a recorded batch's provenance files name (a file without a boot id:
    the batch's one lease)."""
    import json
    files = list((ROOT / "data" / "results" / batch).rglob("provenance*.json"))
    boots = {json.loads(f.read_text()).get("boot_id") or batch for f in files}
    return len(files), len(boots)


if __name__ == "__main__":
    sys.exit(main())
