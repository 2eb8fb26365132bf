"""Measured costs for ``shortest_paths(method="auto")`` (the tuned line's target 5): each code's throughput as the newest
benchmark rows measured it (``data/results/benchmarks/*.csv``, this machine's ``$APSP_RESULTS_DIR/benchmarks``
first; verified rows only), so that the automatic choice ranks the codes that can run here by their predicted
time on the graph rather than by a fixed preference.

A prediction takes the time a code's fastest exact variant reached at the benchmark size nearest the graph's n
(on a log scale), interpolated between the measured densities around the graph's mean degree where rows at
several exist, and scales it to the graph by the registry's work (``updates(g)``: n^3 for the dense codes, n m
for the sparse ones; ``predict`` says how).  It is a model built from another machine's measurements (the
recorded reference runs are an H100's), trusted for the ranking rather than the milliseconds, and every
prediction says which rows it came from.  This module names no algorithm: it reads rows by the registry's names."""
from __future__ import annotations

import functools
import math
import os
import statistics
from dataclasses import dataclass
from pathlib import Path

from . import cost_rows, paths

FILE = cost_rows.FILE


@dataclass(frozen=True)
class Prediction:
    algorithm: str
    variant: object              # the registry's variant (the fastest measured at that n), or None
    ms: float                    # predicted time of one solve of the graph
    rate: float                  # updates/s the prediction scales
    n: int                       # the benchmark size it was measured at
    source: str                  # device and date of those rows
    degrees: tuple = ()          # the measured mean degree(s) it came from: two where it interpolated
    floor: bool = False          # a bound from below: the hop depth its sweeps grow with was not probed

    def __str__(self):
        v = f"/{self.variant}" if self.variant is not None else ""
        rate = f"{self.rate / 1e12:.3g} T" if self.rate >= 1e12 else f"{self.rate / 1e9:.3g} G"
        ms = f"~{self.ms:.3g} ms" if self.ms >= 0.01 else "under 0.01 ms"
        ms = f"at least {ms[1:] if ms[0] == '~' else ms}" if self.floor else ms
        deg = " and ".join(f"{d:.3g}" for d in self.degrees)
        how = f", degree {deg}" + (" interpolated" if len(self.degrees) > 1 else "") if deg else ""
        return f"{self.algorithm}{v} {ms} ({rate} updates/s at n = {self.n}{how}; {self.source})"


def benchmark_folders():
    """Where benchmark CSVs are read from: this machine's results, then the recorded ones."""
    return (paths.RESULTS / "benchmarks", paths.RECORDED / "benchmarks")


def table(folders=None):
    """Every verified benchmark row with a time, each code's newest date only, as one frame
    (:data:`.cost_rows.COLUMNS` of the benchmark files, plus ``date``, ``source``, ``suite`` and ``file``, its file's
    name; the structure suite's rows only for codes without benchmark rows).  ``folders``: a tuple of folders
    (default: this machine's results, then the recorded ones; a file name found in both is read from the first)."""
    return cost_rows.frame(_folders(folders))


def _folders(folders):
    """``folders`` (default: :func:`benchmark_folders`) as a tuple of strings: the key of the row caches, which a
    warm choice looks up several times a call (a Path hashes its string again each time: 0.2-0.3 ms of a warm
    call of auto on one H200 went there)."""
    if folders:
        return tuple(str(f) for f in folders)
    now = (benchmark_folders, paths.RESULTS, paths.RECORDED)       # made again if any of them is replaced
    held = _DEFAULT
    if not held or any(a is not b for a, b in zip(held[0], now)):
        held[:] = [now, tuple(str(f) for f in benchmark_folders())]
    return held[1]


_DEFAULT = []


table.cache_clear = cost_rows._clear


def threads_here():
    """The threads a multithreaded CPU code gets on this machine: NUMBA_NUM_THREADS where set, else the CPUs this
    process may run on."""
    env = os.environ.get("NUMBA_NUM_THREADS")
    if env and env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                                        # not Linux
        return os.cpu_count() or 1


def _variant(algo, v):
    """The registry's variant a results file wrote as text or as a float ("32", "32.0"), or None."""
    if v is None or (isinstance(v, float) and math.isnan(v)) or str(v) in ("", "None", "nan"):
        return None
    for x in algo.variants:
        try:
            if str(x) == str(v) or float(x) == float(v):
                return x
        except (TypeError, ValueError):
            continue
    return None


def _at(algo, rows):
    """(variant, median ms, median updates/s) of the fastest exact variant among ``rows`` (records of one n, one m);
    plain Python over a few rows, since pandas' per-call cost was most of auto's first call."""
    inexact = {str(v) for v in algo.inexact_variants}       # never a variant that may be wrong
    groups = {}
    for r in rows:
        key = str(_variant(algo, r["variant"]))
        if key not in inexact:
            groups.setdefault(key, []).append(r)
    if not groups:
        return None
    med = {k: statistics.median(r["kernel_ms"] for r in g) for k, g in groups.items()}
    key = min(sorted(med), key=med.get)
    best = groups[key]
    rates = [r["updates_per_s"] for r in best if r["updates_per_s"] == r["updates_per_s"]]
    rate = statistics.median(rates) if rates else float("nan")
    if not rate == rate:                            # a row of the structure suite: its time over the registry's work
        rate = algo.updates(Shape(int(best[0]["n"]), float(best[0]["m"]))) / (med[key] / 1e3)
    return _variant(algo, best[0]["variant"]), med[key], rate


def predict(algo, g, folders=None, structure=None):
    """The predicted time of ``algo`` on graph ``g`` from its newest benchmark rows, or None where it has none.
    ``folders``: where the benchmark CSVs are (a tuple of folders; default: ``table``'s).

    At the measured n nearest g's (log scale): where rows at several densities bracket g's mean degree, the time
    interpolated between the two nearest (log time linear in log degree: a sparse code's sweeps do not scale
    with m alone, measured 2026-11-25: 4.6 ms at degree 4 and 13.7 at 64 for n = 4096, not 16x) and scaled by
    the work (``updates``) of g over that of a graph of the measured n at g's degree; else the row nearest in
    degree, scaled by the work of g over that row's."""
    folders = tuple(map(Path, folders)) if folders else None
    sizes = _sizes(algo.name, folders)
    if not sizes:
        return None
    n0 = min(sizes, key=lambda x: (abs(math.log(x / max(g.n, 1))), x))
    points, src, depth, threads = _points(algo, n0, folders)
    if not points:
        return None
    deg = max(g.m / max(g.n, 1), 1e-9)
    x = math.log(deg)
    lo = [p for p in points if p[0] <= x]
    hi = [p for p in points if p[0] >= x]
    if lo and hi and lo[-1][0] != hi[0][0]:     # bracketed: interpolated at g's degree, scaled in n only
        (x0, v0, t0, r0), (x1, v1, t1, r1) = lo[-1], hi[0]
        f = (x - x0) / (x1 - x0)
        ms0 = math.exp((1 - f) * math.log(t0) + f * math.log(t1))
        variant, rate = (v0, r0) if f < 0.5 else (v1, r1)
        shape, used = Shape(n0, deg * n0), (math.exp(x0), math.exp(x1))
    else:                                         # the nearest density, scaled by the whole work ratio
        x0, variant, ms0, rate = min(points, key=lambda p: abs(p[0] - x))
        shape, used = Shape(n0, math.exp(x0) * n0), (math.exp(x0),)
    ms = ms0 * algo.updates(g) / algo.updates(shape)
    ms, note = _hop_scaled(algo, n0, depth, ms, structure)
    ms, cores = _thread_scaled(algo, threads, ms)
    ms, hub = _hub_bound(algo, g, variant, structure, ms)
    return Prediction(algo.name, variant, ms, rate, n0, src + note + cores + hub, used,
                      floor=structure is None and "sweeps" in algo.complexity)


def max_out_degree(g):
    """The largest out-degree of ``g`` (microseconds: one pass over its CSR offsets), or None for a shape without
    edges' offsets."""
    if isinstance(g, Shape):
        return g.max_out_degree
    indptr = getattr(g, "indptr", None)
    if indptr is None or len(indptr) < 2:
        return None
    return int((indptr[1:] - indptr[:-1]).max())


def _hub_bound(algo, g, variant, structure, ms):
    """The larger of ``ms`` and the time the code takes on the vertex of most out-edges (the registry's ``hub_ms``
    at its unit of data/auto.yaml): a rate measured on graphs of even degree does not see a hub, whose out-edges one
    warp walks in series (tuned_sparse; a vertex joined to all: 15x tuned_fw's kernel at n = 4096, one H100) or one
    block of threads shares (tuned_frontier) while the others wait."""
    unit = model()["hub_unit"].get(algo.name) if algo.hub_ms is not None else None
    d = max_out_degree(g) if unit else None
    if not d:
        return ms, ""
    bound = algo.hub_ms(g.n, d, structure.hop_depth if structure else None, variant, unit)
    if bound <= ms:
        return ms, ""
    who = "one warp walks" if "sweeps" in algo.complexity else "one block shares"
    return bound, f"; at least {bound:.3g} ms for out-degree {d} ({who} its edges)"


MODEL = paths.DATA / "auto.yaml"


@functools.lru_cache(maxsize=1)
def model():
    """data/auto.yaml, read once a process: the model's inputs besides the benchmark rows (the benchmark graphs'
    hop depths, the hub bounds' units), each beside the recorded rows it rests on."""
    import yaml
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    got = yaml.load(MODEL.read_text(), Loader=loader) or {}
    return {"bench_hop_depth": {int(k): int(v) for k, v in (got.get("bench_hop_depth") or {}).items()},
            "hub_unit": {str(k): float(v) for k, v in (got.get("hub_unit") or {}).items()}}


def _sizes(name, folders):
    """The sizes ``name`` was measured at (its newest rows), ascending."""
    return tuple(sorted({int(r["n"]) for r in _records(folders).get(name, ())}))


def _records(folders):
    """{algorithm: its rows of ``table`` as dicts}, made once per table: what every prediction reads."""
    # keyed by the rows object itself, held here: new rows (cache_clear) are new records.  An id() of rows
    # since freed can be reused by the next ones, and would hand them the old rows' records.  Plain dicts, never
    # the pandas frame: auto's choice imports no pandas.
    t = cost_rows.read(_folders(folders))
    got = _RECORDS.get(folders)
    if got is None or got[0] is not t:
        by = {}
        for r in t:
            by.setdefault(r["algorithm"], []).append(r)
        _RECORDS.clear()
        _RECORDS[folders] = got = (t, by)
    return got[1]


_RECORDS = {}


def _points(algo, n0, folders):
    """(points, source, hop depth or None, threads or None) of ``algo``'s rows at ``n0``: one point (log degree,
    variant, ms, rate) per measured density, sorted; computed once per process (a solve's ``choose`` reads it
    again)."""
    t, key = cost_rows.read(_folders(folders)), (algo.name, n0, folders)     # the rows held beside, as _records does
    got = _POINTS.get(key)
    if got is None or got[0] is not t:
        _POINTS[key] = got = (t, _points_of(algo, n0, folders))
    return got[1]


_POINTS = {}


def _median_of(rows, col):
    vals = [r[col] for r in rows if col in r and r[col] == r[col]]
    return float(statistics.median(vals)) if vals else None


def _points_of(algo, n0, folders):
    at = [r for r in _records(folders).get(algo.name, ()) if int(r["n"]) == n0]
    by_m = {}
    for r in at:
        by_m.setdefault(r["m"], []).append(r)
    points = []
    for m0 in sorted(by_m):
        best = _at(algo, by_m[m0])
        if best is not None:
            points.append((math.log(max(m0 / n0, 1e-9)), *best))
    return tuple(sorted(points)), (at[0]["source"] if at else ""), _median_of(at, "hop_depth"), \
        _median_of(at, "threads")


def _thread_scaled(algo, measured, ms):
    """A multithreaded CPU code's time scaled by the threads its rows ran on over those it gets here, where here has
    fewer (perfect scaling: the prediction errs toward the CPU code; a 2-core machine was told the 16-core
    reference machine's times before, 8x too optimistic).  GPU codes and one-thread codes are unchanged."""
    if algo.device != "cpu" or not algo.multithreaded or not measured:
        return ms, ""
    here = threads_here()
    if here >= measured:
        return ms, ""
    f = measured / here
    return ms * f, f"; x{f:.3g} for {here} CPU threads here against {measured:.3g} measured"


def _hop_scaled(algo, n0, measured, ms, structure):
    """A frontier-sweep code's time scaled by the graph's hop depth over that of the graph its rows were measured
    on (its sweeps grow with the hop diameter: 653 ms on a ring of 4096 against 9.6 ms on a Kemp graph of the same
    n), where the probe (:mod:`.core.structure`) is given; otherwise unchanged."""
    if structure is None or "sweeps" not in algo.complexity:
        return ms, ""
    depth = measured if measured is not None else _bench_graph_depth(int(n0))
    if depth <= 0:
        return ms, ""
    # never scaled down: a shallower graph's fewer sweeps carry wider frontiers (Barabasi-Albert, hop depth 5-6
    # against Kemp's 10-12, ran tuned_sparse 3.1x slower at n = 4096 and 16384: the structure suite, 2026-11-25)
    f = max(max(structure.hop_depth, 1) / depth, 1.0)
    return ms * f, f"; x{f:.3g} for hop depth {structure.hop_depth} against {depth:.3g} measured"


@functools.lru_cache(maxsize=16)
def _bench_graph_depth(n):
    """The hop depth of the graph the benchmark times at ``n`` where its rows did not record it (rows before
    2026-11-25 evening): data/auto.yaml's ``bench_hop_depth``, else the probe of that graph made here
    (``measure.bench`` generates Kemp's graph ``kemp(n, seed=n)``, deterministic; tens of ms, so the sizes the
    benchmark runs are written down).  Rows at other degrees (``--degrees``) are denser, of no greater depth: the
    scaled time errs toward the code with no sweeps."""
    known = model()["bench_hop_depth"].get(int(n))
    if known is not None:
        return float(known)
    from .core import generators, structure
    return float(structure.probe(generators.kemp(n, seed=n)).hop_depth)


@dataclass(frozen=True)
class Shape:
    """A graph by the statistics auto reads, for :func:`predict` and ``api.choose`` without the graph itself: n, m, the
    largest out-degree (None: unknown, no hub bound), the hop depth (None: not probed, a sweep code's time is then a
    bound from below) and whether a weight is negative."""
    n: int
    m: float
    max_out_degree: int | None = None
    hop_depth: int | None = None
    has_negative: bool = False
