"""Seed 002 (Hochberg's naive FW and its explorations), as the study contract has it."""
from __future__ import annotations

from ... import records
from ...contract import Batch, Confirming, Study
from . import figures, load, verdicts


def _measure(argv):
    from .measure import main         # here: measuring imports the GPU harness, listing the studies does not
    return main(argv)


def find(roots):
    return [Batch(d.name, d) for d in records.folders("*-hochberg", lambda d: bool(load.processes_of(d)), roots)]


def _load(batch):
    return load.read(str(batch.path), recorded_only=True)


def _open(notebook, batch="", profile=None, source="measure"):
    """Batch ``batch``'s results, else the newest (this machine's and the recorded ones; ``recorded``: recorded only)."""
    chosen = STUDY.choose(batch)
    return load.load(str(chosen[-1].path) if chosen else "", recorded_only=(source == "recorded"))


def _processes(roots):
    """Its batches of independent processes (``p<K>/`` each), not the first one-process run."""
    return [b for b in find(roots) if any(b.path.glob("p*/results.csv"))]


def _rows(batch, C):
    """The verdict rows of a batch as loaded (its records) or as notebook 08 opened it (its points)."""
    return verdicts.verdict_rows(batch if isinstance(batch, load.Study) else load.study_of(batch), C)


STUDY = Study(
    "hochberg", "Hochberg's naive FW and its explorations", ("002",), ("08_hochberg",),
    plan="data/sweeps/hochberg.yaml", measure=_measure, find=find, load=_load, rows=_rows,
    open=_open, figures=figures, graph=load.HIS_GRAPH,
    confirming=(Confirming("Hochberg (seed 002)", _processes),))
