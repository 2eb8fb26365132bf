"""What every report shows first (where the numbers come from, what failed, where the
independent runs disagree), and the collection of every notebook's verdicts for notebook 07."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ..method import claims as claims_mod
from ... import paths
from ..method import timings as M
from .. import records
from ..registry import STUDIES
from . import stability
from ..method.text import interval
from ..show import tables


def show_runs(meas):
    """Provenance, failed runs, and (in red) groups whose independent processes disagree."""
    from IPython.display import HTML, Markdown, display
    records.record_source(meas.notebook, meas.run_dir, meas.prov, measured_now=meas.measured_now)
    display(Markdown(meas.note))
    s = M.summary(meas.df)
    own = M.summary(meas.own if meas.own is not None else meas.df)
    bad = own.loc[~s["ok"], [c for c in ("algorithm", "variant", "graph", "n", "runs", "failed", "error") if c in own]]
    if bad.empty:
        display(Markdown("Every full run was **verified** against the CPU reference (Fletcher-64 of the exact "
                         "distances); sampled CPU estimates are marked *sampled* wherever they are used."))
    else:
        display(Markdown("**Runs that FAILED verification or raised** (never plotted as times):"))
        display(tables.show(bad))
    d = meas.own if meas.own is not None else meas.df
    spread = M.process_spread(d)
    if len(spread):
        display(Markdown("How far the independent processes' medians of one timed group lie apart "
                         "(slowest / fastest process), per device:"))
        display(tables.show(spread))
    dis = M.process_disagreements(d)
    if len(dis):
        display(HTML('<p style="color:#cf222e;font-weight:bold">Independent processes disagree for '
                     f'{len(dis)} timed groups: each process timed the group at least twice, their ranges do not '
                     'overlap and their medians differ by more than 10% (the 10 largest below). Repeats inside one '
                     'process understate the uncertainty on this machine; the intervals in the tables pool every '
                     'process.</p>'))
        display(tables.show(dis.nlargest(10, "max_over_min")))
    return s


def notebooks_with_claims():
    """Every registered study's notebooks that hold claims (data/claims.yaml's, each naming its study and notebook)."""
    C = claims_mod.load()
    return sorted({c["notebook"] for s in STUDIES.values() for c in s.claims(C).values()})


SUPERSEDED = "SUPERSEDED.md"     # in a recorded run's folder: why its method is no longer the study's


def recorded_runs(profile):
    """The recorded campaigns of ``profile`` that hold a verdicts.csv, oldest first, split into
    (current, superseded): a superseded run keeps its records and verdicts for comparison, and
    its folder says in SUPERSEDED.md what changed in the method since."""
    runs = records.folders(f"*-{profile}-campaign", lambda d: (d / "verdicts.csv").exists(), (paths.RECORDED,))
    return [r for r in runs if not (r / SUPERSEDED).exists()], [r for r in runs if (r / SUPERSEDED).exists()]


def run_start(run_dir):
    """When the first process of a recorded run began (its provenance timestamps, UTC ISO), or None."""
    stamps = [json.loads(p.read_text()).get("timestamp") or "" for p in Path(run_dir).glob("provenance-*.json")]
    stamps = [t for t in stamps if t]
    return min(stamps) if stamps else None


def measured_after_method(run_dir, since=None):
    """Whether every process of a run began after the method was last changed (rules.METHOD_LAST_CHANGED,
    read from data/analysis-changes.csv), or after ``since``: only such runs can confirm that the verdicts
    are stable; a run measured before a change was judged by rules chosen with data in view."""
    from ..method import rules
    start = run_start(run_dir)
    return start is not None and start >= (since or rules.METHOD_LAST_CHANGED)


def stability_groups(current, superseded=(), study="kemp"):
    """The recorded runs notebook 07 sets side by side, as (label, runs), the labels computed from
    data/analysis-changes.csv: the runs measured after the method was last changed where there are two;
    else the newest runs measured under one method, with the analysis changes that came after them; then
    the earlier (development) runs and the superseded ones.  Only the changes of ``study`` (or of every
    study) count."""
    from ..method import changes
    rows = [r for r in changes.load() if r["study"] in (study, "all")]
    starts = {r: run_start(r) for r in current}
    last = changes.last_change(rows)
    latest = [r for r in current if starts[r] and starts[r] >= last["date"]]
    before = changes.last_before(max(t for t in starts.values() if t), rows) if any(starts.values()) else None
    if len(latest) >= 2 or before is None:
        head = (f"Confirming runs (measured after the method was last changed, {changes.when(last)}, {last['commit']})", latest)
    else:
        same = [r for r in current if starts[r] and starts[r] >= before["date"]]
        since = [c for c in changes.after(before["date"], rows) if c["kind"] in changes.METHOD_KINDS]
        head = (f"Runs measured under one method (after {before['commit']}, {changes.when(before)}), changed "
                f"{len(since)} times after they had been measured ({', '.join(c['commit'] for c in since)}; "
                "data/analysis-changes.csv), so they do not confirm the method as it is", same)
    return [head,
            ("Development runs (measured before that; they shaped the method and cannot confirm it)",
             [r for r in current if r not in head[1]]),
            ("Superseded runs (measured under an older method, kept for comparison)", list(superseded))]


def verdict_table(runs):
    """Every campaign claim's verdict in each run side by side, and whether they all agree.  Only the
    claims of the campaign's notebooks (the kemp study's): a study with its own measurement (08, 09, 10)
    is rendered beside a campaign from its own run, the same in every campaign's table, and counting
    it would make two campaigns look more alike than their measurements are."""
    NOTEBOOKS = STUDIES["kemp"].notebooks
    owner = {cid: c["notebook"] for cid, c in claims_mod.load().items()}
    def campaign_claims(r):
        v = pd.read_csv(r / "verdicts.csv").set_index("claim")["verdict"]
        return v[[owner.get(cid) in NOTEBOOKS for cid in v.index]]
    wide = pd.concat({r.name[:15]: campaign_claims(r) for r in runs}, axis=1)
    wide["same"] = wide.nunique(axis=1, dropna=False) == 1
    return wide


def collect_verdicts(run_dir=None):
    """Every notebook's verdict table: this batch's (reports/verdicts/) where the notebook ran,
    else the one recorded beside the campaign it rendered (``run_dir``).  A claim that data/claims.yaml
    now gives to another notebook (seed 001's, moved from 06 to 10) is taken from that notebook only, so
    that an older recorded table cannot list it twice or under the notebook that no longer tests it."""
    frames = []
    owner = {cid: c["notebook"] for cid, c in claims_mod.load().items()}
    for nb in notebooks_with_claims():
        f = paths.REPORTS / "verdicts" / f"{nb}.csv"
        if not f.exists() and run_dir is not None:
            f = run_dir / f"verdicts-{nb}.csv"
        if not f.exists():
            continue
        t = pd.read_csv(f)
        t = t[t["claim"].map(lambda cid: owner.get(cid, nb) == nb)].copy()
        t["notebook"] = nb
        frames.append(t)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def predicted_agreement(run_dir):
    """The run's stability table (``stability.csv`` of ``python -m apsp_kernels.study.report.stability``, if
    it was made): (a sentence from its numbers, the claims that some draws judged otherwise) or None."""
    f = Path(run_dir) / stability.TABLE if run_dir is not None else None
    if f is None or not f.exists():
        return None
    t = pd.read_csv(f)
    side = json.loads(f.with_suffix(".json").read_text()) if f.with_suffix(".json").exists() else {}
    shaky = t[t["agree"] < 1].sort_values("agree", kind="stable")
    draws = int(t["draws"].max())
    text = (f"Pseudo-runs of {side.get('k', '?')} processes drawn {draws} times from "
            f"{', '.join(side.get('runs', [])) or 'the recorded runs'}: {int((t['agree'] == 1).sum())} of {len(t)} "
            f"claims give this run's verdict in every draw")
    if len(shaky):
        worst = shaky.iloc[0]
        text += (f"; {len(shaky)} do not, the least stable `{worst['claim']}` ({worst['verdict']}) in "
                 f"{round(worst['agree'] * draws)} of {draws}")
    if side.get("skipped"):
        text += f" (left out, their measurement differs between the pooled runs: {', '.join(side['skipped'])})"
    shaky = shaky.assign(draws_giving_it=[f"{round(a * draws)} of {draws}" for a in shaky["agree"]])
    return text + ".", shaky[["claim", "verdict", "draws_giving_it", "seen"]].reset_index(drop=True)


# What bounds each kernel whose claim Kemp measured on his GTX 470 (an assumption: notebook 07 says so)
IMPLIED_GAIN_BOUND = {"tran_fw_vs_fw": "bandwidth", "tran_minplus_vs_fw": "int32", "kk_vs_fw": "int32", "kk_vs_blocked": "int32"}


def implied_cpu_gain(claims, verdicts, bound=None):
    """The hardware hypothesis of notebook 07: if only the GPU had changed, Kemp's speed-up times
    the H100/GTX 470 ratio of what bounds the kernel would be ours; what is left over is the gain of
    the CPU baseline.  Returns (table, sentence).  The implied gain carries both ranges: Kemp's
    claimed range and our 95% interval, lo_K * r / hi_ours .. hi_K * r / lo_ours.  The sentence says
    whether one CPU factor lies in every claim's range (their intersection), computed, not judged."""
    from ...measure import hardware
    rows, ranges = [], []
    for cid, bnd in (bound or IMPLIED_GAIN_BOUND).items():
        c, r = claims.get(cid, {}), verdicts[verdicts["claim"] == cid]
        if not c.get("kemp") or r.empty:
            continue
        ratio = hardware.ratio("GeForce GTX 470", bnd)
        lo, hi = c["kemp"][0] * ratio, c["kemp"][1] * ratio
        ours, o_lo, o_hi = (float(r[k].iloc[0]) for k in ("ours", "ci_lo", "ci_hi"))
        ok = all(x == x and x > 0 for x in (ours, o_lo, o_hi))
        if ok:
            ranges.append((cid, lo / o_hi, hi / o_lo))
        rows.append({"claim": cid, "Kemp on the GTX 470 (x)": f"{c['kemp'][0]:g}-{c['kemp'][1]:g}", "bound by (assumed)": bnd,
                     "H100 / GTX 470, vendor peaks (x)": f"{ratio:.0f}", "predicted if the CPU were unchanged (x)": f"{lo:.0f}-{hi:.0f}",
                     "ours, geometric mean [95% CI] (x)": interval(ours, o_lo, o_hi, ""),
                     "implied single-thread CPU gain (x)": f"{lo / o_hi:.2g}-{hi / o_lo:.2g}" if ok else "-"})
    if not ranges:
        return pd.DataFrame(rows), ""
    common_lo, common_hi = max(a for _, a, _ in ranges), min(b for _, _, b in ranges)
    if common_lo <= common_hi:
        text = (f"One CPU factor between {common_lo:.2g}x and {common_hi:.2g}x lies in the implied range of every one "
                f"of these {len(ranges)} claims: the hypothesis that only the GPU and the CPU's speed changed fits them.")
    else:
        low = min(ranges, key=lambda x: x[2])
        high = max(ranges, key=lambda x: x[1])
        said = lambda cid: "\u201c" + ((claims.get(cid) or {}).get("in_words") or cid).rstrip(".") + "\u201d"
        text = (f"No single CPU factor lies in every claim's implied range: {said(low[0])} needs at most "
                f"{low[2]:.2g}x, {said(high[0])} at least {high[1]:.2g}x, so the hypothesis that only the GPU and the "
                f"CPU's speed changed does not fit these claims.")
    return pd.DataFrame(rows), text


MOVED = paths.RECORDED / "moved-verdicts-20261127.csv"


def moved_verdicts(path=MOVED):
    """The verdicts of recorded batches that the one estimator (method/estimate.py, 2026-11-27) moved, each with
    why, and one sentence counting them by study and direction; (None, sentence) where none is recorded."""
    if not Path(path).exists():
        return None, "No table of moved verdicts is recorded."
    t = pd.read_csv(path)
    by = t.groupby("study").size()
    ref = t[t["batch"].isin(REFERENCE_BATCHES) | t["batch"].str.contains(" runs", regex=False)]
    shown = "; ".join(f"**{b}**: " + ", ".join(f"{r.claim} ({r.before} -> {r.after})" for r in g.itertuples())
                      for b, g in ref.groupby("batch", sort=False)) or "none"
    say = (f"Re-judged under the one estimator on 2026-11-27, {len(t)} verdicts of recorded batches moved ("
           + ", ".join(f"{k} {v}" for k, v in by.items()) + "). In the batches the reports show: " + shown
           + ". Most of the others are single runs on one lease, which now give no interval.")
    return t, say


# the batches the reports show as the study's findings: Kemp's run L and K, each study's newest batch (and the pooled
# batches of NTHU's runs, named '<days>-nthu-... (k runs...)')
REFERENCE_BATCHES = ("20261124-235000-paper-campaign", "20261124-205000-paper-campaign", "20261125-153000-hochberg",
                     "20261123-080000-hochberg", "20261125-153000-iitkgp", "20261123-050000-iitkgp")
