"""Would a second reference run give the same verdicts?  The method asks for two independent runs
with identical verdict tables (docs/method.md); whether a claim's verdict can flip depends on how far its value lies
from an edge of its band compared with how much the value moves between runs.  Before spending a
run's device time on that question, ask the runs already recorded: draw ``k`` of their processes
(without replacement, each draw one pseudo-run of ``k`` independent leases, as a reference run
has), compute every verdict of the draw, and count how often each claim's verdict equals the one
of the run under test.  A claim that agrees in, say, 1 draw of 4 will most likely flip in the next
run: its rule or its measurement needs more precision first.

Only processes measured under the same measurement design belong in one pool: mixing
runs of another plan gives draws with sizes or rounds that neither plan measured.  Satellite
processes (profiles, key ``satellites``: a few codes and sizes only) form a pool of their own:
each draw takes ``k`` main processes and ``satellites`` satellites, distinct, from the two pools
(``--satellite-runs``: folders holding satellites only, e.g. a probe).

    python -m apsp_kernels.study.report.stability data/results/<run>-paper-campaign [<run> ...] --draws 30 \
        --out data/results/<run>-paper-campaign/stability.csv
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import pandas as pd

from ..contract import Batch
from ..registry import STUDIES
from ..seeds.kemp import profiles, runs

SEED = 20261123          # fixed: the same pool gives the same draws
TABLE = "stability.csv"  # its name beside the run under test, where notebook 07 reads it (summary.predicted_agreement)


def pool(run_dirs, load=None, satellites=False):
    """[(label, records of one process)] over the main processes of every run folder (``satellites``:
    over its satellite processes instead, those numbered from the profile's ``processes`` on)."""
    load = load or runs.load
    PROFILES, is_satellite = profiles.PROFILES, profiles.is_satellite
    found = []
    for d in map(Path, run_dirs):
        df, prov = load(d)
        P = PROFILES.get(prov.get("profile"))
        for p, rows in df.groupby("process", sort=True):
            if (P is not None and is_satellite(P, int(p))) == satellites:
                found.append((f"{d.name}:{int(p)}", rows))
    return found


def draws(processes, k, count, seed=SEED):
    """``count`` draws of ``k`` distinct processes (their labels), each a pseudo-run; every
    draw distinct where the pool allows it."""
    if k > len(processes):
        raise ValueError(f"a draw of {k} processes from a pool of {len(processes)}: give more runs or a smaller k")
    rng = random.Random(seed)
    labels = [lab for lab, _ in processes]
    seen, out = set(), []
    for _ in range(20 * count):
        pick = tuple(sorted(rng.sample(labels, k)))
        if pick not in seen:
            seen.add(pick)
            out.append(pick)
        if len(out) == count:
            break
    return out


def with_satellites(picks, satellite_labels, s, seed=SEED):
    """Each draw of main processes with ``s`` distinct satellites added (drawn anew for every draw)."""
    if s > len(satellite_labels):
        raise ValueError(f"{s} satellites a draw from a pool of {len(satellite_labels)}")
    rng = random.Random(seed + 1)
    return [tuple(pick) + tuple(sorted(rng.sample(list(satellite_labels), s))) for pick in picks]


def own_rows(loaded):
    """The campaign's verdict rows by its own rules (the claims it decides; the registry's default rows for claims
    without a rule, which the campaign has none of, are not resampled)."""
    from ..method import claims
    return STUDIES["kemp"].rows(loaded, claims.load())


def resampled_verdicts(processes, picks, verdicts=None, progress=True):
    """One row per draw, one column per claim: its verdict on the draw's processes, renumbered
    0..k-1 as the processes of one run (its satellites after them)."""
    verdicts = verdicts or own_rows
    by_label = dict(processes)
    rows = []
    it = picks
    if progress:
        from tqdm.auto import tqdm
        it = tqdm(picks, desc="draws", unit="draw")
    for pick in it:
        df = pd.concat([by_label[lab].assign(process=j) for j, lab in enumerate(pick)], ignore_index=True)
        rows.append(verdicts(df).set_index("claim")["verdict"].rename(" ".join(pick)))
    return pd.DataFrame(rows)


def agreement(table, reference):
    """Per claim: the run's own verdict, the share of draws that give it, and the verdicts the
    draws gave (most common first); least stable claims first."""
    out = []
    for claim, col in table.items():
        ref = reference.get(claim)
        counts = col.value_counts()
        out.append(dict(claim=claim, verdict=ref, agree=float((col == ref).mean()),
                        draws=len(col), seen="; ".join(f"{v} {c}" for v, c in counts.items())))
    return pd.DataFrame(out).sort_values(["agree", "claim"], kind="stable").reset_index(drop=True)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m apsp_kernels.study.report.stability", description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="campaign run folders measured under one method; the first is the run under test")
    ap.add_argument("--k", type=int, default=5, help="processes per draw (a reference run has 5)")
    ap.add_argument("--draws", type=int, default=30)
    ap.add_argument("--out", help="write the per-claim table as CSV here (and what it was drawn from beside it, .json)")
    ap.add_argument("--satellite-runs", nargs="*", default=[], help="folders whose satellite processes join the "
                                                                    "satellite pool (the runs' own satellites always do)")
    ap.add_argument("--satellites", type=int, default=0, help="satellite processes per draw (the paper profile runs 20)")
    ap.add_argument("--skip", default="", help="claims left out of the table, comma-separated: those whose measurement "
                                              "differs between the pooled runs (a change of method)")
    a = ap.parse_args(argv)
    kemp = STUDIES["kemp"]
    processes = pool(a.runs)
    picks = draws(processes, a.k, a.draws)
    if a.satellites:
        sats = pool(a.runs + a.satellite_runs, satellites=True)
        picks = with_satellites(picks, [lab for lab, _ in sats], a.satellites)
        processes = processes + sats
    first = Path(a.runs[0])
    reference = own_rows(kemp.load(Batch(first.name, first))).set_index("claim")["verdict"]
    skip = [c for c in a.skip.split(",") if c]
    unknown = sorted(set(skip) - set(reference.index))
    if unknown:
        ap.error(f"--skip: no such claim: {', '.join(unknown)}")
    table = agreement(resampled_verdicts(processes, picks).drop(columns=skip), reference)
    if a.out:
        table.to_csv(a.out, index=False)
        from ...measure import provenance
        side = Path(a.out).with_suffix(".json")
        side.write_text(json.dumps(dict(runs=[Path(r).name for r in a.runs], k=a.k, draws=a.draws, seed=SEED, skipped=skip,
                                        satellites=a.satellites, satellite_runs=[Path(r).name for r in a.satellite_runs],
                                        git_commit=provenance.git_commit()[0],
                                        code_fingerprint=provenance.code_fingerprint()), indent=1) + "\n")
    with pd.option_context("display.width", 200, "display.max_colwidth", 80):
        print(table.to_string(index=False))


if __name__ == "__main__":
    main()
