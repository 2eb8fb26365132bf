"""The README's five-line findings summary, computed from the reference verdict table: the recorded paper
campaign's ``verdicts.csv`` (the newest that is not superseded), which ``./run_all.sh --source recorded`` renders
as ``reports/verdicts.csv`` behind the index and the findings report.  The lines are written between two HTML
comment markers in README.md, so that no tally in the README is typed by hand;
tests/test_readme_findings.py fails where the README's block is not the one this module computes.

    python -m apsp_kernels.study.report.readme_findings            # rewrite the block in README.md
    python -m apsp_kernels.study.report.readme_findings --check    # exit 1 where it is out of date
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pandas as pd

from ... import paths
from .. import words
from . import findings_text as FT
from ..show import signed
from .forest import SEED_NAMES

BEGIN = "<!-- findings:begin (computed: python -m apsp_kernels.study.report.readme_findings; do not edit by hand) -->"
END = "<!-- findings:end -->"
README = paths.ROOT / "README.md"
SHOWN = 3             # claims named at each end (furthest above, furthest below the paper)


def reference_table(root=None):
    """The newest recorded paper campaign's verdict table that is not superseded (notebook 07 renders the
    recorded batch from it), or None."""
    from . import summary
    runs = summary.recorded_runs("paper")[0] if root is None else sorted(
        d for d in Path(root).glob("*-paper-campaign") if (d / "verdicts.csv").exists() and not (d / summary.SUPERSEDED).exists())
    return runs[-1] / "verdicts.csv" if runs else None


def _name(cid, claims):
    """The claim in a sentence: its seed and its in_words without the asides in parentheses (the citation among
    them; a formula's own brackets, '2(N/bs)', stay)."""
    c = claims.get(cid) or {}
    said = re.sub(r"\s+\([^()]*\)", "", FT.claim_words(cid, claims)).strip().rstrip(".")
    return f"{SEED_NAMES.get(FT.seed_of(c.get('where')), 'seed ' + FT.seed_of(c.get('where')))}: {said}"


def _value(x, unit):
    if x is None:
        return "-"
    if unit == "vertices":
        return f"n = {FT.fmt(abs(x))}"
    if unit == "slope":
        return f"slope {FT.fmt(x, 3) if x >= 0 else '-' + FT.fmt(-x, 3)}"
    return f"{FT.fmt(x, 3)}x"


def _factor(r):
    """How far ours lies from the paper's band, as ours / the band's near end by magnitude (> 1 above, < 1 below)."""
    ours, lo, hi = signed.ours_of(r), signed.num(r.get("claimed_lo")), signed.num(r.get("claimed_hi"))
    if ours is None or lo is None:
        return None
    hi = hi if hi is not None else float("inf")
    if hi <= 0:
        ours, lo, hi = abs(ours), abs(hi), abs(lo)
    if lo <= 0 or ours <= 0:
        return None
    return ours / hi if ours > hi else ours / lo


def _pair(r, claims):
    c = claims.get(r["claim"]) or {}
    f = _factor(r)
    return (f"{_name(r['claim'], claims)} (paper {r['claimed']}, ours {_value(signed.ours_of(r), c.get('unit'))}"
            + (f", {FT.fmt(f if f >= 1 else 1 / f)}x {'above' if f >= 1 else 'below'} it" if f else "") + ")")


def lines(v, claims, table=None):
    """The five lines, from the verdict rows ``v`` (one per claim)."""
    rows = v.to_dict("records")
    n = len(rows)
    tally = FT._count_list(signed.counts(v), signed.ORDER)
    where = f"[its verdict table]({table})" if table else "its verdict table"
    one = f"**{n} claims** of the five seeds, each judged on the recorded reference batches ({where}): {tally}."

    rep = [r for r in rows if r["verdict"] == words.REPRODUCED]
    basis = pd.Series([str(r.get("basis") or "-") for r in rep]).value_counts().to_dict() if rep else {}
    parts = [f"{basis.get('measured', 0)} on a plain measurement",
             f"{basis.get('within tolerance only', 0)} only within the tolerance (our interval excludes the paper's own number)",
             f"{basis.get('computed', 0)} computed (arithmetic, no timing)",
             f"{basis.get('bound', 0)} on a bound"]
    two = f"Of the {len(rep)} *reproduced*, " + ", ".join(parts[:-1]) + " and " + parts[-1] + "."

    larger = [r for r in rows if signed.direction(r) == signed.LARGER]
    smaller = [r for r in rows if signed.direction(r) == signed.SMALLER]
    by_seed = pd.Series([SEED_NAMES.get(FT.seed_of(r.get("where")), "?") for r in larger]).value_counts()
    one_thread = sum("1 thread" in FT._label((claims.get(r["claim"]) or {}).get("baseline") or "") for r in larger)
    up = sorted((r for r in larger if _factor(r)), key=_factor, reverse=True)[:SHOWN]
    three = (f"*Differs: larger than claimed*, {len(larger)} ("
             + ", ".join(f"{c} {k}" for k, c in by_seed.items()) + ")"
             + (f", {one_thread} of them a speed-up over a one-thread CPU code" if one_thread else "")
             + "; furthest above the paper: " + "; ".join(_pair(r, claims) for r in up) + ".")

    down = sorted((r for r in smaller if _factor(r)), key=_factor)[:SHOWN]
    four = (f"*Differs: smaller than claimed*, {len(smaller)}; the biggest shortfalls, furthest below the paper: "
            + "; ".join(_pair(r, claims) for r in down) + ".")

    five = ("Every claim with the paper's number, ours and the reason: the replication report "
            "`reports/replication.html` (in ReScience C's shape; its PDF: `python -m apsp_kernels.study.report.replication`), "
            "the findings report `reports/findings.html` and the index `reports/index.html`, all written from this "
            "table by `./run_all.sh --source recorded`; notes by seed: [docs/findings.md](docs/findings.md).")
    return [one, two, three, four, five]


def block(v=None, claims=None, table=None):
    """The README's block, markers included."""
    from ..method import claims as claims_mod
    if v is None:
        table = table or reference_table()
        v = pd.read_csv(table)
    claims = claims if claims is not None else claims_mod.load()
    shown = str(Path(table).resolve().relative_to(paths.ROOT)) if table else None
    return "\n".join([BEGIN, *(f"- {s}" for s in lines(v, claims, shown)), END])


def current(text):
    """The block in a README's text, or None."""
    m = re.search(re.escape(BEGIN) + r".*?" + re.escape(END), text, re.S)
    return m.group(0) if m else None


def write(readme=README, new=None):
    """Replace the block in ``readme`` (it must hold the markers); returns whether it changed."""
    text = Path(readme).read_text()
    old = current(text)
    if old is None:
        raise SystemExit(f"{readme}: no findings markers ({BEGIN!r} ... {END!r})")
    new = new or block()
    if new == old:
        return False
    Path(readme).write_text(text.replace(old, new))
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description="Write (or --check) the README's computed findings block.")
    ap.add_argument("--check", action="store_true", help="exit 1 where README.md's block is not the computed one")
    a = ap.parse_args(argv)
    if a.check:
        ok = current(README.read_text()) == block()
        print("README findings block is " + ("current" if ok else "OUT OF DATE"), file=sys.stderr)
        return 0 if ok else 1
    print("README.md " + ("rewritten" if write() else "already current"), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
