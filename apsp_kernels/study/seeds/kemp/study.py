"""The campaign of seeds 000 (Kemp 2012) and 003 (the codes he compares), as the study contract has it."""
from __future__ import annotations

from ... import records
from ...contract import Batch, Study
from .spec import KEMP
from ...show import figures
from . import load, profiles, runs, verdicts


def _measure(argv):
    from .measure import main         # here: measuring imports the GPU harness, listing the studies does not
    return main(argv)


def find(roots):
    return [Batch(d.name, d) for d in records.folders("*-campaign", lambda d: any(d.glob("process-*.csv")), roots)]


def _load(batch):
    return runs.load(batch.path)[0]


def _open(notebook, batch="", profile=profiles.DEFAULT, source="measure", seed=0):
    """``notebook``'s records: batch ``batch``'s campaign, a campaign measured now, or the recorded reference run."""
    return load.load(notebook, profiles.profile(profile), source, seed, batch=batch or None)


def _rows(measurements, C):
    return verdicts.frame_verdicts(measurements, C)


STUDY = Study(
    "kemp", "Kemp 2012 and the codes he compares: the campaign", ("000", "003"),
    ("00_environment_and_cpu_baselines", "01_tran_fw", "02_katz_kider", "03_harish_scaling", "04_memory_modes",
     "05_out_of_core", "06_all_algorithms"),
    plan="data/sweeps/kemp.yaml", measure=_measure, find=find, load=_load, rows=_rows,
    open=_open, figures=figures, graph=KEMP)
