"""The caveats a report shows beside a claim's verdict (a referee's audit of run L, item 4: stability is
not validity).  The fixed words live in data/claims.yaml (``stability_caveat`` for every campaign claim,
``caveat`` per claim); the numbers in them are computed here from a run's records, never written in."""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import yaml

from ..method import claims as claims_mod
from ..method import timings as M
from ..method import order_rules, rules
from ..seeds.kemp.spec import KEMP, NOTEBOOKS
from ..method.text import fmt


def _fixed():
    return yaml.safe_load(claims_mod.CLAIMS_FILE.read_text(encoding="utf-8")).get("stability_caveat", "")


def untimed_grid(df, c):
    """(sizes of the paper's grid nobody timed beyond our sizes, the grid's length, per-size ratios low to
    high as [(n, ratio)]) of a range claim over Kemp's grid."""
    sp = M.speedups(df, c["algorithm"], c["baseline"], variant=c.get("variant"),
                    baseline_variant=c.get("baseline_variant"), invert=bool(c.get("invert")), graph=KEMP)
    sp = sp[sp["n"].between(min(c["paper_n"]), max(c["paper_n"]))]
    pts = list(sp[["n", "speedup", "ci_lo", "ci_hi"]].itertuples(index=False, name=None))
    places = rules.grid_places(pts, c["paper_n"], 0, float("inf"))
    return [n for n, pl, *_ in places if pl == "untimed"], len(places), [(int(p[0]), p[1]) for p in pts]


def caveats(cid, df=None, run_dir=None, claims=None):
    """The caveat sentences to show beside claim ``cid``'s verdict: the fixed words of data/claims.yaml and
    the numbers computed from ``df`` (a campaign's records, from ``run_dir``) where the claim needs them."""
    C = claims or claims_mod.load()
    c = C[cid]
    out = []
    if c.get("notebook") in NOTEBOOKS and _fixed():
        out.append(_fixed())
    if c.get("caveat"):
        out.append(c["caveat"])
    if df is None:
        return out
    if cid == "ooc_slowdown_vs_kk":
        untimed, k, pts = untimed_grid(df, c)
        r = [v for _, v in pts]
        rises = all(b >= a for a, b in zip(r, r[1:]))
        need, placed = math.ceil(order_rules.SHARE * k), k - len(untimed)
        out.append(f"Its slow-down {'rises monotonically' if rises else 'moves'} from {fmt(r[0])}x at n = {pts[0][0]} to "
                   f"{fmt(r[-1])}x at n = {pts[-1][0]}; {len(untimed)} of Kemp's {k} sizes are untimed and counted "
                   f"unknown, so 'reproduced' needs {need} of the {placed} placeable sizes inside the band and 'differs in "
                   f"magnitude' at least {max(placed - (need - 1 - len(untimed)), 0)} of them clearly outside it.")
    return out


def table(run_dir, claims=None):
    """Every campaign claim's caveats for one recorded run: a DataFrame (claim, caveat), one row a sentence."""
    from ..seeds.kemp import runs as campaign
    df, _ = campaign.load(Path(run_dir))
    C = claims or claims_mod.load()
    rows = [(cid, s) for cid, c in C.items() if c.get("notebook") in NOTEBOOKS for s in caveats(cid, df, run_dir, C)]
    return pd.DataFrame(rows, columns=["claim", "caveat"])
