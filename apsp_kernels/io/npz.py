"""The ``.npz`` graph cache: ``n``, CSR ``indptr``/``indices``/``weights`` and, where the graph has
them, its vertex ``ids`` (integers, or text names).  Loading checks every array through the one
validation step before anything is cast, so a float index 1.7 or a weight 1e20 is refused (naming
the file and the array), never truncated or wrapped."""
from __future__ import annotations

import io
import zipfile

import numpy as np

from ..core.distances import NegativeCycleError
from ..core.graph import Graph, GraphError
from ..core.validate import InputError, check_integers
from .source import GraphFileNegativeCycle, GraphFormatError, existing_file

KEYS = ("n", "indptr", "indices", "weights")


def save_npz(g, path):
    extra = {} if g.names is None else {"ids": g.ids}
    np.savez_compressed(path, n=np.int64(g.n), indptr=g.indptr, indices=g.indices, weights=g.weights, **extra)


def _arrays(path):
    p = existing_file(path)
    try:
        with open(p, "rb") as f:            # one read: a FIFO works too
            z = np.load(io.BytesIO(f.read()), allow_pickle=False)
        if not isinstance(z, np.lib.npyio.NpzFile):
            raise GraphFormatError(path, None, f"holds a single {type(z).__name__} (a .npy file?), not an .npz graph")
        with z:
            missing = [k for k in KEYS if k not in z.files]
            if missing:
                raise GraphFormatError(path, None, f"not an apsp_kernels .npz graph: it holds {sorted(z.files)}, "
                                                   "a graph holds n, indptr, indices, weights (and ids)")
            return {k: z[k] for k in z.files if k in KEYS + ("ids",)}
    except GraphFormatError:
        raise
    except ValueError as e:
        what = "holds Python objects, which are never loaded" if "pickle" in str(e) else str(e)
        raise GraphFormatError(path, None, f"not an apsp_kernels .npz graph: {what}") from None
    except (OSError, EOFError, zipfile.BadZipFile, KeyError) as e:
        raise GraphFormatError(path, None, f"not a readable .npz file ({type(e).__name__}: {e})") from None


def load_npz(path):
    a = _arrays(path)
    try:
        n = a["n"]
        if n.shape != () or n.dtype.kind not in "iu":
            raise InputError(f"n must be one integer, got a {n.dtype} array of shape {n.shape}")
        n = int(n)
        if not 0 <= n < 2**31:
            raise InputError(f"n = {n} is outside 0..2**31-1")
        for k in ("indptr", "indices", "weights"):
            if a[k].ndim != 1:
                raise InputError(f"{k} must be 1-D, got shape {a[k].shape}")
        if a["indptr"].size != n + 1:
            raise InputError(f"indptr has {a['indptr'].size} entries, n + 1 = {n + 1} expected")
        m = a["indices"].size
        if a["weights"].size != m:
            raise InputError(f"weights has {a['weights'].size} entries, indices {m}")
        indptr = _named(check_integers, "indptr", a["indptr"], "indptr entry", 0, m)
        if indptr[0] != 0 or indptr[-1] != m or (np.diff(indptr) < 0).any():
            raise InputError(f"indptr must rise from 0 to len(indices) = {m}")
        indices = _named(check_integers, "indices", a["indices"], "index", 0, max(n - 1, 0))
        ids = a.get("ids")
        if ids is not None and (ids.ndim != 1 or ids.size != n or ids.dtype.kind not in "iuU"):
            raise InputError(f"ids must be {n} integers or texts, got a {ids.dtype} array of shape {ids.shape}")
        if ids is not None and ids.dtype.kind == "U":
            ids = tuple(ids.tolist())
    except InputError as e:
        raise GraphFormatError(path, None, e.what) from None
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    try:
        return Graph.from_edges(n, src, indices, a["weights"], names=ids, meta=dict(source=str(path), format="npz"))
    except NegativeCycleError as e:  # a negative self-loop, named by the file's vertex id
        v = ids[e.vertex] if ids is not None else e.vertex
        raise GraphFileNegativeCycle(path, None, f"weights[{e.index}]: negative cycle: a self-loop of weight "
                                                 f"{a['weights'][e.index]} at vertex {v}", e.vertex) from None
    except InputError as e:        # weights are the only entries not checked above
        raise GraphFormatError(path, None, f"weights[{e.index}]: {e.what}" if e.index is not None else e.what) from None
    except GraphError as e:
        raise GraphFormatError(path, None, str(e)) from None


def _named(check, key, arr, *args):
    """``check`` with the refused entry named as ``key[i]``."""
    try:
        return check(arr, *args)
    except InputError as e:
        where = f"{key}[{e.index}]: " if e.index is not None else f"{key}: "
        raise InputError(where + e.what) from None
    except GraphError as e:
        raise InputError(f"{key}: {e}") from None
