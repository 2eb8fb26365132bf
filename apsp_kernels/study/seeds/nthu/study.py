"""Seed 004 (NTHU's blocked FW on one and several GPUs), as the study contract has it.  Each run folder is one
batch; its confirming comparisons group them by day (one GPU) and by campaign (two GPUs)."""
from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass

import pandas as pd

from ... import records
from ...contract import Batch, Confirming, Study
from ..kemp.spec import KEMP
from . import figures, four_gpus, load, verdicts

REFERENCE_CARDS = "NVIDIA H200"     # the two-GPU campaign notebook 09 judges; the 2 x H100 one confirms it


def _two_gpu_machines(runs):
    """The runs that may judge the seed's two-GPU claims: not those of a machine with more GPUs, which notebook 09
    shows beside them (four_gpus) without pooling them into a verdict or a confirming batch."""
    return [d for d in runs if not four_gpus.beyond_two(d)]


def reference_multi_runs(roots=None):
    """The two-GPU runs notebook 09 judges by default: the campaign on :data:`REFERENCE_CARDS`, two-GPU machines only."""
    return _two_gpu_machines(load.find_runs("multi", "all", roots=roots, cards=REFERENCE_CARDS))


@dataclass
class Opened:
    """What notebook 09 renders: the one- and two-GPU run folders, their records, and where they come from."""
    single_runs: list
    multi_runs: list
    single: pd.DataFrame
    multi: pd.DataFrame
    meas: records.Measurements

    @property
    def loaded(self):
        return self.single, self.multi


def _measure(argv):
    from .measure import main         # here: measuring imports the GPU harness, listing the studies does not
    return main(argv)


def find(roots):
    holds = {kind: (lambda d, k=kind: (d / f"nthu-{k}.csv").exists()) for kind in ("single", "multi")}
    both = [Batch(d.name, d) for kind in ("single", "multi") for d in records.folders(f"*-nthu-{kind}", holds[kind], roots)]
    return sorted(both, key=lambda b: b.name)


def _load(batch):
    """(one-GPU records, two-GPU records) of its folder, or of the run folders it pools (``files``)."""
    dirs = list(batch.files) or [batch.path]
    return tuple(load.load([d for d in dirs if (d / f"nthu-{k}.csv").exists()], k) for k in ("single", "multi"))


def _rows(loaded, C):
    return verdicts.rows(C, *loaded)


def _open(notebook, batch="", profile=None, source="measure"):
    """The run folders ``batch`` names (runs, a day's, a campaign's); a kind of run it names none of is the
    reference's: every one-GPU run, and the two-GPU campaign on :data:`REFERENCE_CARDS`."""
    chosen = [d for b in STUDY.choose(batch) for d in (b.files or (b.path,))]
    single_runs = [d for d in chosen if (d / "nthu-single.csv").exists()] or load.find_runs("single", "all")
    multi_runs = [d for d in chosen if (d / "nthu-multi.csv").exists()] or \
        reference_multi_runs()
    single, multi = load.load(single_runs, "single"), load.load(multi_runs, "multi")
    return Opened(single_runs, multi_runs, single, multi, load.measurements(single_runs, multi_runs, single, multi))


def _days(roots):
    """The one-GPU runs of one day, one confirming batch (one run a lease)."""
    runs = [b for b in find(roots) if b.name.endswith("-single")]
    return [Batch(f"{day}-nthu-single ({len(g)} runs)", g[0].path.parent, tuple(b.path for b in g))
            for day, g in ((day, list(g)) for day, g in itertools.groupby(runs, key=lambda b: b.name[:8]))]


def _campaigns(roots):
    """The two-GPU runs of one campaign, one confirming batch: runs on one model of card, each within 2 days of the
    one before it (a campaign is measured over as many leases as it takes to give its settings 3 processes).  A later
    run on a model already used, more than 2 days on, starts a new campaign.  Each run measures its one-GPU baseline on
    the same machine, so no speed-up of a batch mixes models; the batch is named with its cards and dates.  A run
    without provenance is its own model ("? x unknown GPU").  Runs on a machine with more than two GPUs form no
    campaign: the claims are two-GPU claims (notebook 09 shows those runs apart)."""
    runs = [b for b in find(roots) if b.name.endswith("-multi") and _two_gpu_machines([b.path])]
    day = lambda b: dt.datetime.strptime(b.name[:8], "%Y%m%d")
    last, groups = {}, []
    for b in runs:                                   # oldest first
        cards = load.cards(b.path)
        g = last.get(cards)
        if g is None or (day(b) - day(g[1][-1])).days > 2:
            g = last[cards] = (cards, [])
            groups.append(g)
        g[1].append(b)
    out = [Batch(f"{' + '.join(sorted({b.name[:8] for b in g}))}-nthu-multi ({len(g)} runs, on {cards})", g[0].path.parent,
                 tuple(b.path for b in g)) for cards, g in groups]
    return sorted(out, key=lambda b: b.files[0].name)


STUDY = Study(
    "nthu", "NTHU's blocked FW on one and several GPUs", ("004",), ("09_nthu",),
    plan="scripts/device_nthu_multi.sh", measure=_measure, find=find, load=_load, rows=_rows, open=_open,
    figures=figures, graph=KEMP,
    confirming=(Confirming("NTHU, one GPU (seed 004)", _days, holds=lambda cid: cid not in load.TWO_GPU),
                Confirming("NTHU, two GPUs (seed 004)", _campaigns, holds=lambda cid: cid in load.TWO_GPU)))
