"""Every study, registered the way an algorithm is (issue 31): one :class:`Study` entry holds what the
runner, the summary, the index, the stability check and the tests need to know of it.  Its claims are
those of data/claims.yaml that name it (``study:``); its measuring code is data/studies.yaml's (the
code fingerprint); its parts live in ``seeds/<name>/`` (spec, runs, load, verdicts, figures).  A claim that the
study's own rules do not decide is a *not testable* row saying so (:meth:`Study.verdict_rows`): a claim is
never dropped, and never decided by a measurement nobody wrote for it."""
from __future__ import annotations

import importlib
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pandas as pd

from .. import paths
from ..measure.provenance import study_code
from . import records
from .method import claims as claims_mod
from .seeds.kemp.spec import KEMP


@dataclass(frozen=True)
class Batch:
    """One independent recorded batch of a study: a run folder, or files measured together."""
    name: str
    path: Path
    files: tuple = ()


@dataclass(frozen=True)
class Confirming:
    """How a study's confirming batches (measured again, each independent) are compared claim
    by claim: report/batches.py -> data/results/confirming-batches.csv."""
    label: str                  # the study as that table names it
    batches: Callable           # roots -> [Batch], oldest first (``files``: the run folders a batch pools)
    holds: Callable = None      # claim id -> whether the comparison holds it (None: every claim of the study)
    measured: Callable = None   # loaded -> its (stage, graph) pairs, for what a verdict rests on (None: not asked)


@dataclass(frozen=True)
class Study:
    name: str
    title: str
    seeds: tuple                # the seeds whose claims it tests
    notebooks: tuple            # the notebooks that render it
    measure: str                # what measures it (python -m apsp_kernels.study measure NAME): "module [args]" whose
                                # main(argv) does, or a script of scripts/ (none now: scripts/*_measure.py are shims)
    figures: str                # the module of its figures
    find: Callable              # roots -> its batches, oldest first
    load: Callable              # batch -> what verdict_rows reads
    rows: Callable              # (loaded, claims) -> its verdict rows, from the claims it has rules for
    frame: Callable = None      # loaded -> its runs as a campaign-shaped table (method/timings' columns), or None
                                # where the batch has none
    graph: str = None           # the graph its claims are read on where they name none (claims.yaml ``graph``)
    confirming: tuple = ()          # its confirming comparisons (Confirming), where it has them: one per family of
                                    # batches (NTHU: its one-GPU runs, its two-GPU runs)

    @property
    def code(self):
        """The files whose content decides its measurements (data/studies.yaml): part of the code fingerprint."""
        return study_code()[self.name]

    def claims(self, C=None):
        """Its claims (data/claims.yaml's, or ``C``), by id."""
        return {cid: c for cid, c in (C or claims_mod.load()).items() if c.get("study") == self.name}

    def runs(self, roots=None):
        """Its recorded batches (``roots``: the recorded runs by default), oldest first, each an independent batch."""
        return self.find((paths.RECORDED,) if roots is None else roots)

    def verdict_rows(self, loaded, C=None):
        """The verdict rows of one loaded batch (a list of dicts, or a table; the tuned line's: its targets): its own
        rules' rows, then a *not testable* row for every other claim of the study, saying that no rule of the study
        decides it (a claim is never dropped, and never decided by a measurement nobody wrote for it)."""
        C = C or claims_mod.load()
        rows = self.rows(loaded, C)
        table = isinstance(rows, pd.DataFrame)
        done = set(rows["claim"]) if table and "claim" in rows else set() if table else {r["claim"] for r in rows}
        extra = [self.no_rule_row(c) for cid, c in self.claims(C).items() if cid not in done]
        if not extra:
            return rows
        if table and "claim" not in rows:
            raise ValueError(f"study {self.name} has targets, not claims: claim {extra[0]['claim']} cannot be decided here")
        if table:
            from .method import verdicts as V
            return pd.concat([rows, V.table(extra, claims=C)], ignore_index=True)
        return rows + extra

    def no_rule_row(self, c):
        """The row of a claim that no rule of the study decides: *not testable*, saying so."""
        from .method import verdicts as V        # here: listing the studies needs none of the verdict machinery
        return V.evaluate({**c, "testable_here": False, "not_testable_reason":
                           f"no rule of study {self.name} decides this claim yet (its verdicts module names none)"}, None)

    def module(self, part):
        """One room of its package: ``spec``, ``runs``, ``load``, ``verdicts``, ``figures``."""
        return _seed(self.name, part)


def _folders(pattern, holds):
    return lambda roots: [Batch(d.name, d) for d in records.folders(pattern, holds, roots)]


def _seed(name, part):
    return importlib.import_module(f"{__package__}.seeds.{name}.{part}")


# ------------------------------------------------------------------ the campaign (seeds 000, 003)
def _kemp_load(b):
    return _seed("kemp", "runs").load(b.path)[0]


def _kemp_rows(df, C):
    return _seed("kemp", "verdicts").frame_verdicts(df, C)


# ------------------------------------------------------------------ Hochberg (seed 002)
def _hochberg_load(b):
    return _seed("hochberg", "analysis").load(str(b.path), recorded_only=True)


def _hochberg_rows(st, C):
    return _seed("hochberg", "verdicts").verdict_rows(st, C)


_hochberg_find = _folders("*-hochberg", lambda d: bool(_seed("hochberg", "load").processes_of(d)))


def _processes(batches):        # its batches of independent processes (p<K>/ each), not the first one-process run
    return lambda roots: [b for b in batches(roots) if any(b.path.glob("p*/results.csv"))]


# ------------------------------------------------------------------ IIT Kharagpur (seed 001)
_iitkgp_find = _folders("*-iitkgp", lambda d: any(d.glob("*/results.csv")))


def _iitkgp_rows(rep, C):
    return _seed("iitkgp", "verdicts").evaluate_all(rep, C)


# ------------------------------------------------------------------ NTHU (seed 004): each folder one batch
def _nthu_find(roots):
    holds = {kind: (lambda d, k=kind: (d / f"nthu-{k}.csv").exists()) for kind in ("single", "multi")}
    both = [Batch(d.name, d) for kind in ("single", "multi") for d in records.folders(f"*-nthu-{kind}", holds[kind], roots)]
    return sorted(both, key=lambda b: b.name)


def _nthu_load(b):
    """(single-GPU records, multi-GPU records) of its folder, or of the run folders it pools (``files``)."""
    R, dirs = _seed("nthu", "load"), list(b.files) or [b.path]
    return tuple(R.load([d for d in dirs if (d / f"nthu-{k}.csv").exists()], k) for k in ("single", "multi"))


def _nthu_rows(loaded, C):
    return _seed("nthu", "verdicts").rows(C, *loaded)


def _nthu_days(roots):
    """The one-GPU runs of one day, one confirming batch (one run a lease; those of 23 and 25 Nov: two batches)."""
    runs = [b for b in _nthu_find(roots) if b.name.endswith("-single")]
    return [Batch(f"{day}-nthu-single ({len(g)} runs)", g[0].path.parent, tuple(b.path for b in g))
            for day, g in ((day, list(g)) for day, g in itertools.groupby(runs, key=lambda b: b.name[:8]))]


def _nthu_campaigns(roots):
    """The two-GPU runs of one campaign, one confirming batch: runs on one model of card, each within 2 days of the
    one before it (a campaign is measured over as many leases as it takes to give its settings 3 processes: 2 x H200
    on 23 and 24 Nov, three leases, on which the verdicts first rested, 3 processes at every setting up to n = 32768,
    one at 65536 and at the weak points 11584 and 23168; 2 x H100 on 25 Nov, issue 33's confirming batch, three
    leases, 3 processes at every setting up to 32768, no run above).  A later run on a model already used, more than
    2 days on, starts a new campaign.  Each run measures its one-GPU baseline on the same machine, so no speed-up of a
    batch mixes models; the batch is named with its cards and dates.  A run without provenance is its own model
    ("? x unknown GPU")."""
    import datetime as dt
    runs = [b for b in _nthu_find(roots) if b.name.endswith("-multi")]
    day = lambda b: dt.datetime.strptime(b.name[:8], "%Y%m%d")
    last, groups = {}, []
    for b in runs:                                   # oldest first
        cards = _seed("nthu", "load").cards(b.path)
        g = last.get(cards)
        if g is None or (day(b) - day(g[1][-1])).days > 2:
            g = last[cards] = (cards, [])
            groups.append(g)
        g[1].append(b)
    out = [Batch(f"{' + '.join(sorted({b.name[:8] for b in g}))}-nthu-multi ({len(g)} runs, on {cards})", g[0].path.parent,
                 tuple(b.path for b in g)) for cards, g in groups]
    return sorted(out, key=lambda b: b.files[0].name)


# ------------------------------------------------------------------ the tuned line (issue 14): each date one batch
def _tuned_find(roots):
    R = _seed("tuned", "load")
    out = []
    for where in (Path(r) / "benchmarks" for r in roots if (Path(r) / "benchmarks").is_dir()):
        out += [Batch(f"{date}-tuned", where, tuple(R.find_tuned(where, date))) for date in R.tuned_dates(where)]
    return out


def _tuned_rows(bench, C):
    return _seed("tuned", "verdicts").evaluate(bench.df)


_S = f"{__package__}.seeds"
STUDIES = {s.name: s for s in (
    Study("kemp", "Kemp 2012 and the codes he compares: the campaign", ("000", "003"),
          ("00_environment_and_cpu_baselines", "01_tran_fw", "02_katz_kider", "03_harish_scaling", "04_memory_modes",
           "05_out_of_core", "06_all_algorithms"), f"{__package__}.report.runner --stage measure",
          f"{__package__}.show.figures",
          _folders("*-campaign", lambda d: any(d.glob("process-*.csv"))), _kemp_load, _kemp_rows,
          frame=lambda df: df, graph=KEMP),
    Study("hochberg", "Hochberg's naive FW and its explorations", ("002",), ("08_hochberg",), f"{_S}.hochberg.measure",
          f"{_S}.hochberg.figures", _hochberg_find, _hochberg_load, _hochberg_rows,
          frame=lambda st: _seed("hochberg", "load").frame(st), graph="cycle_undirected",     # his graph: load.HIS_GRAPH
          confirming=(Confirming("Hochberg (seed 002)", _processes(_hochberg_find)),)),
    Study("nthu", "NTHU's blocked FW on one and several GPUs", ("004",), ("09_nthu",), f"{_S}.nthu.measure",
          f"{_S}.nthu.figures", _nthu_find, _nthu_load, _nthu_rows,
          frame=lambda loaded: loaded[0] if len(loaded[0]) else None, graph=KEMP,           # the one-GPU runs
          confirming=(Confirming("NTHU, one GPU (seed 004)", _nthu_days,
                                 holds=lambda cid: cid not in _seed("nthu", "load").TWO_GPU),
                      Confirming("NTHU, two GPUs (seed 004)", _nthu_campaigns,
                                 holds=lambda cid: cid in _seed("nthu", "load").TWO_GPU))),
    Study("iitkgp", "IIT Kharagpur's BFS, SSSP and APSP on large sparse graphs", ("001",), ("10_iitkgp",),
          f"{_S}.iitkgp.measure", f"{_S}.iitkgp.figures",
          _iitkgp_find, lambda b: _seed("iitkgp", "load").load(b.path), _iitkgp_rows,
          frame=lambda rep: _seed("iitkgp", "load").frame(rep),             # no default graph: each claim names its own
          confirming=(Confirming("IIT Kharagpur (seed 001)", _iitkgp_find,
                                 measured=lambda rep: set(map(tuple, rep.df[["stage", "graph"]].drop_duplicates().to_numpy()))),)),
    Study("tuned", "The tuned line's targets (issue 14; no paper's claims)", (), ("11_tuned",), "apsp_kernels.__main__ bench",
          f"{_S}.tuned.figures", _tuned_find, lambda b: _seed("tuned", "load").load(list(b.files)), _tuned_rows),
)}


def of_notebook(notebook):
    """The study that a notebook renders (None for the summary)."""
    return next((s for s in STUDIES.values() if notebook in s.notebooks), None)
