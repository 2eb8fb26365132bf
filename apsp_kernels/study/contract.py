"""One study contract: the rooms every seed fills, with the same meaning in every seed.

A study is registered the way an algorithm is: one :class:`Study` (``seeds/<name>/study.py``: ``STUDY``) holds
what the runner, the notebooks, the summary, the stability check and the tests need to know of it.

- ``plan``: where what it measures is stated (its sweep as data, or the command lines that measure it);
- ``measure(argv)``: measure it (``python -m apsp_kernels.study measure <name> [args]``);
- ``find(roots)``: its recorded batches, oldest first, each an independent :class:`Batch`;
- ``load(batch)``: the batch's measurements (what ``rows`` reads);
- ``rows(measurements, claims)``: its verdict rows, from the claims its rules name;
- ``open(notebook, batch, profile, source)``: what a notebook renders (the notebooks' one way in);
- ``figures``: the module of its figures; ``notebooks``: the notebooks that render it.

A claim of the study that no rule decides is a *not testable* row saying so (:meth:`Study.verdict_rows`): a claim
is never dropped, and never decided by a measurement nobody wrote for it."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable

import pandas as pd

from .. import paths
from ..measure.provenance import study_code
from .method import claims as claims_mod
from .method import verdicts as V


@dataclass(frozen=True)
class Batch:
    """One independent recorded batch of a study: a run folder, or the run folders measured together (``files``)."""
    name: str
    path: Path
    files: tuple = ()


@dataclass(frozen=True)
class Confirming:
    """How a study's confirming batches (measured again, each independent) are compared claim by claim
    (report/batches.py -> data/results/confirming-batches.csv)."""
    label: str                  # the study as that table names it
    batches: Callable           # roots -> [Batch], oldest first
    holds: Callable = None      # claim id -> whether the comparison holds it (None: every claim of the study)
    measured: Callable = None   # measurements -> their (stage, graph) pairs, for what a verdict rests on (None: not asked)


@dataclass(frozen=True)
class Study:
    name: str
    title: str
    seeds: tuple                # the seeds whose claims it tests
    notebooks: tuple            # the notebooks that render it
    plan: str                   # where what it measures is stated
    measure: Callable           # argv -> exit status
    find: Callable              # roots -> its batches, oldest first
    load: Callable              # Batch -> its measurements
    rows: Callable              # (measurements, claims) -> its verdict rows
    open: Callable              # (notebook, batch, profile, source) -> what the notebook renders
    figures: ModuleType         # its figures
    graph: str = None           # the graph its claims are read on where they name none (claims.yaml ``graph``)
    confirming: tuple = ()      # its confirming comparisons, one per family of batches

    @property
    def code(self):
        """The files whose content decides its measurements (data/studies.yaml): part of the code fingerprint."""
        return study_code()[self.name]

    def claims(self, C=None):
        """Its claims (data/claims.yaml's, or ``C``), by id."""
        return {cid: c for cid, c in (C or claims_mod.load()).items() if c.get("study") == self.name}

    def runs(self, roots=None):
        """Its recorded batches (``roots``: the recorded runs by default), oldest first."""
        return self.find((paths.RECORDED,) if roots is None else roots)

    def choose(self, batch="", roots=None):
        """The batches a notebook's ``batch`` parameter names, comma-separated: each a folder (a path), the name of
        one of its batches, or a batch id of ``run_all.sh`` (its batches named ``<id>-...``); [] for "" or ids none
        of them carries."""
        out, found = [], None
        for part in (p.strip() for p in str(batch or "").split(",") if p.strip()):
            p = Path(part) if Path(part).is_absolute() else paths.ROOT / part
            if p.exists():
                out.append(Batch(p.name, p))
                continue
            if found is None:           # its batches, looked up once for every name the parameter gives
                found = self.find((paths.RESULTS, paths.RECORDED) if roots is None else roots)
            out += [b for b in found if b.name == part or b.name.startswith(f"{part}-")]
        return out

    def verdict_rows(self, measurements, C=None):
        """The verdict rows of one loaded batch (a list of dicts, or a table; the tuned line's: its targets): its own
        rules' rows, then a *not testable* row for every other claim of the study."""
        C = C or claims_mod.load()
        rows = self.rows(measurements, C)
        table = isinstance(rows, pd.DataFrame)
        done = set(rows["claim"]) if table and "claim" in rows else set() if table else {r["claim"] for r in rows}
        extra = [self.no_rule_row(c) for cid, c in self.claims(C).items() if cid not in done]
        if not extra:
            return rows
        if table and "claim" not in rows:
            raise ValueError(f"study {self.name} has targets, not claims: claim {extra[0]['claim']} cannot be decided here")
        return pd.concat([rows, V.table(extra, claims=C)], ignore_index=True) if table else rows + extra

    def no_rule_row(self, c):
        """The row of a claim that no rule of the study decides: *not testable*, saying so."""
        return V.evaluate({**c, "testable_here": False, "not_testable_reason":
                           f"no rule of study {self.name} decides this claim yet (its verdicts module names none)"}, None)
