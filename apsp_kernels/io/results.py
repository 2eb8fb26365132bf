"""Writing a solve's distances so that every output says which vertex each row and column is.

* ``.npz``: ``distances`` (float64, inf = no path), ``ids`` (the graph's vertex ids: DIMACS's and
  MatrixMarket's 1..n, SNAP's own integers, Hochberg's names) and, if asked, ``predecessors``
  (positions 0..n-1 into ``ids``, -9999 = none).
* ``.csv``: a header row and a first column of the ids, then the distances (``inf`` = no path).
* ``.npy``: the bare matrix; where the ids are not 0..n-1 they are written beside it, one a line,
  in ``NAME.ids.txt`` (a bare matrix alone would be read with the wrong vertex numbers).

Every check (suffix, predecessors, a writable place) is made by :func:`check_output` before the
solve, so a run is never lost to a typo in ``-o``."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..core.graph import GraphError

SUFFIXES = (".npy", ".npz", ".csv")


class OutputError(GraphError):
    """An output path the solve cannot write; found before solving."""


def ids_file(path) -> Path:
    p = Path(path)
    return p.with_name(p.name[: -len(p.suffix)] + ".ids.txt")


def check_output(path, predecessors=False, ids_are_positions=True):
    """Refuse (one line) an output that would fail or lose something, before any work is done."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in SUFFIXES:
        raise OutputError(f"{path}: unknown output suffix {suffix or '(none)'!r} (use .npy, .npz or .csv)")
    if predecessors and suffix != ".npz":
        raise OutputError(f"{path}: a {suffix} file holds one matrix; --predecessors needs .npz "
                          "(distances, predecessors and ids)")
    targets = [p] + ([ids_file(p)] if suffix == ".npy" and not ids_are_positions else [])
    for t in targets:
        if t.is_dir():
            raise OutputError(f"{t}: is a directory")
        parent = t.parent if str(t.parent) else Path(".")
        if not parent.is_dir():
            raise OutputError(f"{t}: the folder {parent} does not exist")
        if not os.access(parent, os.W_OK | os.X_OK) or (t.exists() and not os.access(t, os.W_OK)):
            raise OutputError(f"{t}: not writable")
        _probe(t)


def _probe(t):
    """Open ``t`` for writing as the solve's end will (root passes os.access where the file system still says
    no, /proc say), leaving an existing file as it was and removing one the probe made."""
    existed = t.exists()
    if existed and not t.is_file():                  # a FIFO or device: opening it could block; os.access said yes
        return
    try:
        with open(t, "ab"):
            pass
    except OSError as e:
        raise OutputError(f"{t}: not writable ({e.strerror or e})") from None
    if not existed:
        t.unlink(missing_ok=True)


def write_result(path, dist, g, pred=None) -> list[str]:
    """Write ``dist`` (float64, inf = no path) of graph ``g`` by suffix at exactly ``path`` (numpy would add
    ``.npz`` to ``OUT.NPZ``); the paths written.  An I/O error names the file."""
    p = Path(path)
    try:
        return _write(p, dist, g, pred)
    except OSError as e:
        raise OutputError(f"{e.filename or p}: could not write: {e.strerror or e}") from None


def _write(p, dist, g, pred):
    suffix = p.suffix.lower()
    ids = g.ids
    if suffix == ".npz":
        extra = {} if pred is None else {"predecessors": pred}
        with open(p, "wb") as f:
            np.savez_compressed(f, distances=dist, ids=ids, **extra)
        return [str(p)]
    if suffix == ".csv":
        import pandas as pd
        pd.DataFrame(dist, index=ids, columns=ids).to_csv(p, float_format="%.17g")
        return [str(p)]
    with open(p, "wb") as f:
        np.save(f, dist)
    if g.ids_are_positions:
        # NAME.npy is overwritten; so is what an earlier run wrote beside it, which would pair
        # other ids with this matrix
        ids_file(p).unlink(missing_ok=True)
        return [str(p)]
    with open(ids_file(p), "w", encoding="utf-8") as f:
        f.writelines(f"{x}\n" for x in ids.tolist())
    return [str(p), str(ids_file(p))]


def read_result(path):
    """(distances, ids) from a file :func:`write_result` wrote (ids as strings for .csv)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".npz":
        with np.load(p, allow_pickle=False) as z:
            return z["distances"], z["ids"]
    if suffix == ".csv":
        import pandas as pd
        df = pd.read_csv(p, index_col=0, dtype=str, keep_default_na=False)
        return df.to_numpy(dtype=np.float64), np.array(df.columns)
    d = np.load(p, allow_pickle=False)
    f = ids_file(p)
    ids = np.array(f.read_text(encoding="utf-8").splitlines()) if f.exists() else np.arange(d.shape[0])
    return d, ids
