"""Interleaved rounds (``scripts/e2e_scatter_probe.py``'s rows, those of the held-out checks and of the rules: graph,
n, code, mode, round, ms): each code's median per graph and mode, read one way by the scripts and tests that set and
hold auto's rules."""
from __future__ import annotations

from pathlib import Path

COLUMNS = ("graph", "n", "code", "mode", "ms")


def are_rounds(df) -> bool:
    """Whether ``df`` holds interleaved rounds (its columns include :data:`COLUMNS`)."""
    return set(COLUMNS) <= set(df.columns)


def read(files, where=None):
    """The rows of ``files`` (paths; under ``where`` where given) as one frame, in the files' order."""
    import pandas as pd
    return pd.concat([pd.read_csv(Path(where) / f if where is not None else f) for f in files], ignore_index=True)


def medians(rows, mode=None, by=("graph", "n")):
    """Each code's median ms of ``rows``: indexed by ``by`` and the mode, a column a code (NaN where a code has no
    rows there); with ``mode``, that mode's rows alone, indexed by ``by``."""
    if mode is not None:
        rows = rows[rows["mode"] == mode]
    keys = list(by) + ([] if mode is not None else ["mode"])
    return rows.groupby(keys + ["code"]).ms.median().unstack("code")
