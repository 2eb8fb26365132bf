"""Interleaved rounds (``scripts/e2e_scatter_probe.py``'s rows and the structure suite's ``--rounds`` calls, those of
the held-out checks and of the rules: graph, n, code, mode, round, ms): timed one way (:func:`interleaved`), and each
code's median per graph and mode read one way by the scripts and tests that set and hold auto's rules."""
from __future__ import annotations

from pathlib import Path

COLUMNS = ("graph", "n", "code", "mode", "ms")


def order(names, r, how="fixed"):
    """The names in the order round ``r`` times them: as given (``fixed``) or rotated by ``r`` (``rotate``: over a
    multiple of ``len(names)`` rounds each name is timed as often in each place of a round)."""
    if how == "fixed" or not names:
        return list(names)
    k = r % len(names)
    return list(names[k:]) + list(names[:k])


def interleaved(names, rounds, call_ms, modes, how="fixed"):
    """``rounds`` rounds of calls: each round every name of ``names`` (in :func:`order` ``how``) in every mode of
    ``modes`` ((column, keyword arguments) pairs) once, ``call_ms(name, kwargs) -> ms`` timing one call.  One dict a
    call: code, mode (its column), round, position (its place in the round, 0 first), ms."""
    out = []
    for r in range(rounds):
        position = 0
        for name in order(names, r, how):
            for col, kw in modes:
                out.append(dict(code=name, mode=col, round=r, position=position, ms=call_ms(name, kw)))
                position += 1
    return out


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
