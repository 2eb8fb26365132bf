"""The plans of the solver's checks (``data/results/solver/*-plan.yaml``, each committed before its data), read
in one place for the held-out checks and the suite's findings."""
from __future__ import annotations

from pathlib import Path

import yaml

from .... import paths


def plans(where=None):
    """(plan file, its contents) of every ``*-plan.yaml`` in ``where`` (default: the recorded results' solver
    folder), in file-name order."""
    d = paths.RECORDED / "solver" if where is None else Path(where)
    return [(f, yaml.safe_load(f.read_text()) or {}) for f in sorted(d.glob("*-plan.yaml"))]
