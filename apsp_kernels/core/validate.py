"""The one validation step every input passes (files, arrays, scipy, networkx), as
``scipy.sparse.csgraph``'s ``validate_graph`` is for csgraph.

Readers hand over the numbers as they found them (numpy arrays of any dtype, or Python ints and
``Decimal`` s parsed exactly from text); nothing is cast to a machine integer before it has been
checked here for finiteness, integrality and range, so no value can wrap (2**63 -> 0, 1e20 -> 0,
the uint64 maximum -> -1) or be truncated (1.7 -> 1) on the way in.  A refusal is an
:class:`InputError` that says which entry (``index``), so that a file reader can name its line.
"""
from __future__ import annotations

from decimal import Decimal

import numpy as np

from .limits import INF, MAX_PATH_WEIGHT, GraphError

MAX_VERTICES = 2**31 - 1          # vertex positions are int32 in every kernel


class InputError(GraphError):
    """One refused entry: ``index`` is its position in the array handed over (None: the array as a whole)."""

    def __init__(self, what, index=None):
        super().__init__(what)
        self.what, self.index = what, index


MAX_PATH_WEIGHT64 = 2**60         # the int64 codes' bound: INF64 = 2**62 - 1, and Johnson's reweighted
                                  # edges (|w| + 2 x bound) stay below it


def wider_dtype_hint(bound: int) -> str:
    """Which distance dtype a graph whose paths may weigh ``bound`` needs, and which code here has it."""
    if bound <= MAX_PATH_WEIGHT64:
        return ("it needs int64 distances: the GPU kernels (and the command line) are int32; "
                "apsp_kernels.shortest_paths takes it on the CPU with exact int64 distances (Dijkstra, Johnson where "
                "weights are negative; dtype=np.int64 keeps them exact beyond 2**53), as "
                "scipy.sparse.csgraph.shortest_path does in float64 (exact up to 2**53)")
    return (f"it needs more than int64 distances can hold exactly here (the int64 codes' bound is 2**60 = "
            f"{MAX_PATH_WEIGHT64}): no exact code here takes it; as float64 weights (w.astype(float)) "
            "apsp_kernels.shortest_paths takes it, giving scipy's float64 answer (rounded past 2**53)")


def check_vertex_count(n) -> int:
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise InputError(f"the number of vertices must be an integer, got {n!r}")
    n = int(n)
    if not 0 <= n <= MAX_VERTICES:
        raise InputError(f"the number of vertices must be in 0..{MAX_VERTICES} (int32 positions), got {n}")
    return n


def _exact(v):
    """A Python int, Decimal or numpy scalar as an exact Decimal (a float exactly, not rounded); None
    for anything that is not a real number."""
    if isinstance(v, (bool, np.bool_, int, np.integer)):
        return Decimal(int(v))
    if isinstance(v, (float, np.floating)):
        return Decimal(float(v))
    return v if isinstance(v, Decimal) else None


def _check_each(values, what, lo, hi):
    """Exact, entry by entry (object arrays, Python lists with Decimals or ints beyond int64)."""
    out = np.empty(len(values), np.int64)
    for i, v in enumerate(values):
        d = _exact(v)
        if d is None:
            raise InputError(f"{what} {v!r} is not a number", i)
        if not d.is_finite():
            raise InputError(f"{what} {v} is not finite", i)
        if not lo <= d <= hi:
            raise InputError(_range_text(what, v, lo, hi), i)
        if d != d.to_integral_value():
            raise InputError(f"{what} {v} is not an integer", i)
        out[i] = int(d)
    return out


def _range_text(what, v, lo, hi):
    shown = str(v) if len(str(v)) <= 40 else f"{str(v)[:20]}...({len(str(v))} characters)"
    if what == "edge weight" and hi == MAX_PATH_WEIGHT64:
        return f"edge weight {shown} is beyond +-MAX_PATH_WEIGHT64 = 2**60: {wider_dtype_hint(abs(_exact(v)))}"
    if what == "edge weight":
        return (f"edge weight {shown} is beyond +-MAX_PATH_WEIGHT = {MAX_PATH_WEIGHT} (INF // 2, INF = 2**30 - 1 "
                f"marks 'no path'): {wider_dtype_hint(abs(_exact(v)))}")
    return f"{what} {shown} is out of range {lo}..{hi}"


def check_integers(values, what, lo, hi) -> np.ndarray:
    """``values`` as int64 after checking, before any cast, that each is a finite integer in lo..hi."""
    if isinstance(values, (list, tuple)):
        if all(type(v) is int for v in values):
            # Python ints: exact; numpy refuses (OverflowError) what int64 cannot hold
            try:
                values = np.array(values, dtype=np.int64)
            except OverflowError:
                return _check_each(values, what, lo, hi)
        else:
            return _check_each(values, what, lo, hi)
    a = np.asarray(values)
    if a.ndim != 1:
        raise InputError(f"{what}s must be a 1-D array, got shape {a.shape}")
    kind = a.dtype.kind
    if kind == "O":
        return _check_each(a.tolist(), what, lo, hi)
    if kind not in "biuf":
        raise InputError(f"{what}s must be integers, got dtype {a.dtype}")
    if a.size == 0:
        return np.zeros(0, np.int64)
    if kind == "f":
        bad = ~np.isfinite(a)
        if bad.any():
            i = int(np.argmax(bad))
            raise InputError(f"{what} {a[i].item()!r} is not finite", i)
    # range first, in the array's own dtype (no cast yet): numpy compares uint64 and float with
    # Python ints exactly enough here (lo, hi are far inside float64's exact integers)
    bad = (a < lo) | (a > hi)
    if bad.any():
        i = int(np.argmax(bad))
        raise InputError(_range_text(what, a[i].item(), lo, hi), i)
    if kind == "f":
        bad = a != np.floor(a)
        if bad.any():
            i = int(np.argmax(bad))
            raise InputError(f"{what} {a[i].item()!r} is not an integer", i)
    return a.astype(np.int64)


def check_weights(w) -> np.ndarray:
    """Edge weights: finite integers with |w| <= MAX_PATH_WEIGHT (a single edge is a path)."""
    return check_integers(w, "edge weight", -MAX_PATH_WEIGHT, MAX_PATH_WEIGHT)


def check_endpoints(v, n, what) -> np.ndarray:
    """Vertex positions 0..n-1."""
    if n == 0:
        if len(v):
            raise InputError(f"{what} {list(v)[0]!r} is out of range: the graph has no vertices", 0)
        return np.zeros(0, np.int64)
    return check_integers(v, what, 0, n - 1)


def check_wide_weights(w):
    """Edge weights for the codes beyond int32 (``Graph.from_edges(..., dtype="auto")``): ``("int", int64 array)``
    where every weight is a finite integer with |w| <= MAX_PATH_WEIGHT64 (integer-valued floats too: exact), else
    ``("float", float64 array)`` where the input holds floats (finite: NaN and inf are refused here; the dense and
    sparse readers drop them first, as scipy does).  Integers beyond the bound are refused, never made floats."""
    try:
        return "int", check_integers(w, "edge weight", -MAX_PATH_WEIGHT64, MAX_PATH_WEIGHT64)
    except InputError as e:
        a = np.asarray(w) if not isinstance(w, (list, tuple)) else None
        if not holds_floats(w) or "not finite" in e.what or "not a number" in e.what or "must be" in e.what:
            raise
    values = [_exact(v) for v in w] if a is None or a.dtype.kind == "O" else a
    if a is None or a.dtype.kind == "O":
        for i, v in enumerate(values):
            if v is None or not v.is_finite():
                raise InputError(f"edge weight {w[i]!r} is not a finite number", i)
        values = [float(v) for v in values]
    return "float", np.asarray(values, dtype=np.float64)


def holds_floats(w) -> bool:
    """Whether the caller's weights are floats (a float array, or floats or Decimals among the values): such a
    graph beyond the int64 codes' bound is scipy's float64 problem, not a refusal."""
    a = np.asarray(w) if not isinstance(w, (list, tuple)) else None
    if a is not None and a.dtype.kind != "O":
        return a.dtype.kind == "f"
    return any(isinstance(v, (float, np.floating, Decimal)) for v in (w if a is None else a.tolist()))


def check_path_bound(n, src, w, limit=MAX_PATH_WEIGHT):
    """Refuse a graph on which some simple path could leave +-MAX_PATH_WEIGHT.

    A simple path uses at most one out-edge of each of at most n - 1 distinct vertices, so its
    |weight| is at most the sum of the n - 1 largest per-vertex maxima of |out-weight| (cheap:
    one pass and one sort).  This is never looser than (n - 1) x max|w|, which refused a
    1000-vertex graph whose only edge weighs 10**6."""
    if not w.size:
        return
    heaviest = np.zeros(n, np.int64)
    aw = np.abs(w)
    if src.size < 2 or (src[1:] >= src[:-1]).all():       # sorted (from_edges): one pass, not ufunc.at's
        starts = np.flatnonzero(np.r_[True, src[1:] != src[:-1]])
        heaviest[src[starts]] = np.maximum.reduceat(aw, starts)
    else:
        np.maximum.at(heaviest, src, aw)
    top = np.sort(heaviest[heaviest > 0])[::-1][:max(n - 1, 0)]
    # exact: int64 where it cannot overflow, Python ints where the int64 codes' weights could
    bound = int(top.sum(dtype=np.int64)) if not top.size or int(top[0]) <= 2**62 // top.size else sum(map(int, top))
    if bound > limit and limit != MAX_PATH_WEIGHT:
        raise InputError(f"a simple path could weigh up to {bound}: {wider_dtype_hint(bound)}")
    if bound > limit:
        raise InputError(
            f"a simple path could weigh up to {bound} (the {top.size} largest of the vertices' heaviest "
            f"|out-edge| added up), beyond MAX_PATH_WEIGHT = {MAX_PATH_WEIGHT} (INF // 2, INF = {int(INF)} "
            f"marks 'no path'): {wider_dtype_hint(bound)}")
