"""Seed 001 (IIT Kharagpur's BFS, SSSP and APSP on large sparse graphs), as the study contract has it."""
from __future__ import annotations

from ... import records
from ...contract import Batch, Confirming, Study
from . import figures, load, verdicts


def _measure(argv):
    from .measure import main         # here: measuring imports the GPU harness, listing the studies does not
    return main(argv)


def find(roots):
    return [Batch(d.name, d) for d in records.folders(f"*{load.SUFFIX}", lambda d: any(d.glob("*/results.csv")), roots)]


def _load(batch):
    return load.load(batch.path)


def _open(notebook, batch="", profile=None, source="measure"):
    """Batch ``batch``'s rows, else the newest complete batch (the measurement is never run from a notebook)."""
    chosen = STUDY.choose(batch)
    return load.load(chosen[-1].path if chosen else None)


def _measured(rep):
    return set(map(tuple, rep.df[["stage", "graph"]].drop_duplicates().to_numpy()))


def _rows(measurements, C):
    return verdicts.evaluate_all(measurements, C)


STUDY = Study(
    "iitkgp", "IIT Kharagpur's BFS, SSSP and APSP on large sparse graphs", ("001",), ("10_iitkgp",),
    plan="data/sweeps/iitkgp.yaml", measure=_measure, find=find, load=_load, rows=_rows,
    open=_open, figures=figures,                        # no default graph: each claim names its own
    confirming=(Confirming("IIT Kharagpur (seed 001)", find, measured=_measured),))
