"""The tuned line: no paper's claims, its own targets against the hardware's limits, as the study contract has it."""
from __future__ import annotations

from pathlib import Path

from ...contract import Batch, Study
from . import figures, load, verdicts


def _measure(argv):
    from .... import __main__ as cli   # the package's `bench` command measures it
    return cli.main(["bench", *argv])


def find(roots):
    """Each date's benchmark files, one batch."""
    out = []
    for where in (Path(r) / "benchmarks" for r in roots if (Path(r) / "benchmarks").is_dir()):
        out += [Batch(f"{date}-tuned", where, tuple(load.find_tuned(where, date))) for date in load.tuned_dates(where)]
    return out


def _load(batch):
    return load.load(list(batch.files))


def _rows(bench, C):
    return verdicts.evaluate(bench.df)


def _open(notebook, batch="", profile=None, source="measure"):
    """(the tuned run, the faithful kernels' run beside it) of ``batch``: a folder, one ``*-tuned.csv``, or
    ``<date>-tuned``; else the newest date's."""
    chosen = STUDY.choose(batch)
    if not chosen:
        return load.load_tuned(), load.load_reference()
    b = chosen[-1]
    where = b.path if b.path.is_dir() else None
    return (load.load(list(b.files)) if b.files else load.load_tuned(b.path)), load.load_reference(where)


STUDY = Study(
    "tuned", "The tuned line's targets (no paper's claims)", (), ("11_tuned",),
    plan="scripts/tuned_bench.sh", measure=_measure, find=find, load=_load, rows=_rows, open=_open, figures=figures)
