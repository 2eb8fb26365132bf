"""Every study, registered the way an algorithm is (issue 31): one :class:`Study` entry holds what the
runner, the summary, the index, the stability check and the tests need to know of it.  Its claims are
those of data/claims.yaml that name it (``study:``); its measuring code is data/studies.yaml's (the
code fingerprint); its parts live in ``seeds/<name>/`` (spec, runs, load, verdicts, figures)."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .. import paths
from ..measure.provenance import study_code
from . import records
from .method import claims as claims_mod


@dataclass(frozen=True)
class Batch:
    """One independent recorded batch of a study: a run folder, or files measured together."""
    name: str
    path: Path
    files: tuple = ()


@dataclass(frozen=True)
class Study:
    name: str
    title: str
    seeds: tuple                # the seeds whose claims it tests
    notebooks: tuple            # the notebooks that render it
    measure: str                # what measures it (python -m apsp_kernels.study measure NAME): "module [args]" whose
                                # main(argv) does, or a script of scripts/ (hochberg, iitkgp, nthu: not yet moved in)
    figures: str                # the module of its figures
    find: Callable              # roots -> its batches, oldest first
    load: Callable              # batch -> what verdict_rows reads
    rows: Callable              # (loaded, claims) -> its verdict rows

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
        """The verdict rows of one loaded batch (a list of dicts, or a table for the tuned line's targets)."""
        return self.rows(loaded, C or claims_mod.load())

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


# ------------------------------------------------------------------ IIT Kharagpur (seed 001)
def _iitkgp_rows(rep, C):
    return _seed("iitkgp", "verdicts").evaluate_all(rep, C)


# ------------------------------------------------------------------ NTHU (seed 004): each folder one batch
def _nthu_find(roots):
    holds = {kind: (lambda d, k=kind: (d / f"nthu-{k}.csv").exists()) for kind in ("single", "multi")}
    both = [Batch(d.name, d) for kind in ("single", "multi") for d in records.folders(f"*-nthu-{kind}", holds[kind], roots)]
    return sorted(both, key=lambda b: b.name)


def _nthu_load(b):
    R = _seed("nthu", "load")
    single = b.name.endswith("-single")
    return R.load([b.path] if single else [], "single"), R.load([] if single else [b.path], "multi")


def _nthu_rows(loaded, C):
    return _seed("nthu", "verdicts").rows(C, *loaded)


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
          _folders("*-campaign", lambda d: any(d.glob("process-*.csv"))), _kemp_load, _kemp_rows),
    Study("hochberg", "Hochberg's naive FW and its explorations", ("002",), ("08_hochberg",), f"{_S}.hochberg.measure",
          f"{_S}.hochberg.figures", _folders("*-hochberg", lambda d: bool(_seed("hochberg", "load").processes_of(d))),
          _hochberg_load, _hochberg_rows),
    Study("nthu", "NTHU's blocked FW on one and several GPUs", ("004",), ("09_nthu",), "scripts/nthu_measure.py",
          f"{_S}.nthu.figures", _nthu_find, _nthu_load, _nthu_rows),
    Study("iitkgp", "IIT Kharagpur's BFS, SSSP and APSP on large sparse graphs", ("001",), ("10_iitkgp",),
          f"{_S}.iitkgp.measure", f"{_S}.iitkgp.figures",
          _folders("*-iitkgp", lambda d: any(d.glob("*/results.csv"))), lambda b: _seed("iitkgp", "load").load(b.path),
          _iitkgp_rows),
    Study("tuned", "The tuned line's targets (issue 14; no paper's claims)", (), ("11_tuned",), "apsp_kernels.__main__ bench",
          f"{_S}.tuned.figures", _tuned_find, lambda b: _seed("tuned", "load").load(list(b.files)), _tuned_rows),
)}


def of_notebook(notebook):
    """The study that a notebook renders (None for the summary)."""
    return next((s for s in STUDIES.values() if notebook in s.notebooks), None)
