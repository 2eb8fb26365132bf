"""The structure suite, end to end: on graphs whose shape, not only n and m, decides
a code's work (io/suite_graphs: Kemp random, 2-D and 3-D grids, ring, power law, a hub joined to all, complete,
a road-like k-nearest-neighbour stand-in, a one-way path, a lollipop, small worlds, many small components, a DAG
with negative weights, a dense graph, the Helsinki road networks), every in-core GPU code auto may pick (the cost
model's candidates and the codes its rules hand graphs to, :data:`RULE_ROLES`), timed two ways, beside the CPU codes
and libraries a user would pick instead, and auto's own pick.  A benchmark: it reports; the tests on its recorded
rows hold auto's pick to 1.25x (+ 2 ms end to end).

    python3 -m apsp_kernels.structure_suite [--sizes 4096 16384] [--out DIR] [--libraries scipy networkit igraph] [--append]
    python3 -m apsp_kernels.structure_suite --list      # the graphs it would measure, no GPU needed
    python3 -m apsp_kernels.structure_suite --graphs knn path lollipop --extra tuned_fw
    python3 -m apsp_kernels.structure_suite --graphs ring --codes-only tuned_deep --append   # one code's rows again
    python3 -m apsp_kernels.structure_suite --sizes 32768 --graphs ring --rounds 3   # medians of interleaved rounds

Per graph: the hop-depth probe (core/structure) and, per code, one row with
* ``kernel_ms``  -- CUDA events of the code's launcher (median of ``repeats`` after a warm-up), every repeat's
  result checked against the graph's reference (Fletcher-64; ``verified``);
* ``e2e_ms``     -- ``shortest_paths(graph, method=code)`` as a user calls it, warm (after one call), synchronised
  wall clock, float64 result on the host; ``e2e_int32_ms`` the same with ``dtype=np.int32``; ``e2e_device_ms``
  with ``device=True`` (the result left on the GPU); each result checked against the reference too.  The codes go
  fastest kernel first, and a code whose kernel alone is past ``BOUND`` of every mode's fastest end-to-end time
  so far is not timed end to end (it can be neither the fastest nor within the bound; its row says so); with
  ``--skip-past-s S --earlier FILE...`` (sizes past the suite's) a code whose kernel in FILE at a smaller n of the
  class, times the square of the sizes' ratio (a lower bound), is past S seconds is not run (its row says so);
* the CPU rows (``dijkstra_cpu_parallel``: this package's all-core Dijkstra; ``int64_johnson`` where a weight is
  negative) and the libraries' (scipy's Dijkstra, Johnson where a weight is negative, one thread; networkit's
  APSP, all threads, not run on negative weights; igraph's distances, one thread) are wall clock only (``kernel_ms`` =
  ``e2e_ms``), their results checked against the same reference; a library that is not installed, or that would
  take longer than ``--cpu-budget-s`` by the probe of a few sources, is a row saying so, never a time;
* ``auto``: what ``choose`` picks (its line), ``shortest_paths(graph)``'s warm wall clock, and ``e2e_first_ms``:
  its first call on the graph (a new Graph object of the same arrays, so nothing about it is remembered: the
  choice, any search of the depth, the solve), float64 to the host, timed right after a float64 call on the graph
  as each code's ``e2e_ms`` is after its own warm call, so that it measures what a first call adds, not the state
  the CPU rows' seconds of work leave the GPU and the host in; the summary holds both to ``BOUND`` of the fastest
  code;
* with ``--rounds R`` (graphs of more than ``SMALL`` vertices): every code timed end to end and auto timed again
  in R interleaved rounds after all the single calls, each row's end-to-end times the medians (``e2e_rounds``: R;
  the single calls kept as ``single_<column>``), every call in ``<file>-calls.csv`` (the rows of
  ``scripts/e2e_scatter_probe.py``'s form); the rounds' results are not checked again (each code's were, in every
  mode, before them).  At 32,768 vertices and more single calls ran 0.82-1.82x such medians (in one lease and
  across leases).
  ``scripts/auto_first_call.py`` times the first call of a fresh process too.
Rows are written after every graph (a run cut short keeps what it measured) to ``<device>-<date>-structure.csv``
with its provenance beside it."""
from __future__ import annotations

import argparse
import dataclasses
import datetime as _dt
import os
from pathlib import Path

import numpy as np
import pandas as pd

from . import api, gpu_device
from .algorithms import registry
from .algorithms.reference import BLOCK_WORDS, reference_checksum
from .core.verify import fletcher64_by_rows
from .core import structure
from .elimination_choice import separators_small, unmeasured_ordering
from .io import suite_graphs as SG
from .measure import harness, provenance, wall
from .measure.rounds import interleaved

LIBRARIES = ("scipy", "networkit", "igraph")
BOUND = (1.25, 2.0)           # auto's end-to-end time within 1.25x the fastest verified code's, plus 2 ms
# The codes auto's rules hand a graph to (deep_choice, elimination_choice), past the cost model's ranking: timed on
# every graph, so that each pick has a row of its own.
RULE_ROLES = ("auto_deep_graphs", "auto_small_separators")
SMALL = 4096                  # at most this many vertices a solve takes milliseconds: repeats; above, seconds on some
                              # codes: one timed call (the suite) or FIRST_CALL_ROUNDS_ABOVE rounds (auto_first_call)
FIRST_CALL_ROUNDS_ABOVE = 3
SIZES = (4096, 16384)         # the suite's sizes (its runs past them are read apart: study.seeds.tuned.suite.load_size)


def first_call_rounds(n, rounds):
    """The rounds ``scripts/auto_first_call.py`` times a graph of ``n`` vertices in (``rounds`` asked for): all of
    them up to ``SMALL`` vertices (None: a bundled network, small), ``FIRST_CALL_ROUNDS_ABOVE`` above."""
    return rounds if (n or 0) <= SMALL else FIRST_CALL_ROUNDS_ABOVE


def _checksum(d, block_words=BLOCK_WORDS):
    """Fletcher-64 of a result (float64 or int, on the host or the device) as the reference's int32 form (INF for no
    path), made from blocks of at most ``block_words`` entries of rows (:func:`~.core.verify.fletcher64_by_rows`):
    memory for one block beside the result (a float64 result of 65,536 vertices is 34 GB; converting it whole took
    3 times that, and a minute)."""
    def rows_of(r0, r1):                     # a float block is read as from_scipy's int32, not made so
        b = d[r0:r1]
        b = b.get() if hasattr(b, "get") else np.asarray(b)
        return b if b.dtype.kind == "f" else np.ascontiguousarray(b.astype(np.int32, copy=False))
    return fletcher64_by_rows(d.shape[0], d.shape[-1], rows_of, block_words)


MODES = (("e2e_ms", {}), ("e2e_int32_ms", dict(dtype=np.int32)), ("e2e_device_ms", dict(device=True)))


def matches(d, ref):
    """Whether a result of ``shortest_paths`` in any of :data:`MODES` (host or device array) has checksum ``ref``."""
    return _checksum(d) == ref


def _end_to_end(g, ref, repeats, **method):
    """``shortest_paths(g, **method)`` timed three ways (:data:`MODES`: float64 and int32 on the host, left on the
    device), each after a warm call of its own in that mode: ({column: ms}, every result equal to ``ref``)."""
    times, ok = {}, True
    for col, kw in MODES:
        api.shortest_paths(g, **method, **kw)            # kernels loaded, buffers of this size made, host threads
        ms, d = wall.median_ms(lambda: api.shortest_paths(g, **method, **kw), repeats)
        times[col] = ms
        ok = ok and matches(d, ref)
        del d
    return times, ok


def _library(name, g):
    """A callable solving ``g`` with library ``name`` (float64 distances, inf for no path), or the reason it cannot."""
    a = g.to_scipy()
    if name == "scipy":
        from scipy.sparse import csgraph
        return lambda: csgraph.shortest_path(a, method="J" if g.has_negative else "D", directed=True)
    if name == "networkit":
        if g.has_negative:
            return "not run: negative weights (networkit's APSP runs Dijkstra)"
        try:
            import networkit as nk
        except ImportError as e:
            return f"not installed ({e})"
        nk.setNumberOfThreads(os.cpu_count() or 1)
        G = nk.Graph(g.n, weighted=True, directed=True)
        src, dst, w = g.edges()
        try:                                       # networkit >= 10: scipy's coo triple
            G.addEdges((w.astype(np.float64), (src.astype(np.uint64), dst.astype(np.uint64))))
        except (AttributeError, TypeError):
            for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):
                G.addEdge(u, v, float(x))

        def run():
            apsp = nk.distance.APSP(G)
            apsp.run()
            try:
                d = np.asarray(apsp.getDistances(asarray=True), np.float64)
            except TypeError:
                d = np.asarray(apsp.getDistances(), np.float64)
            d[d >= np.finfo(np.float64).max / 2] = np.inf            # networkit's 'unreachable' is DBL_MAX
            return d
        return run
    if name == "igraph":
        try:
            import igraph as ig
        except ImportError as e:
            return f"not installed ({e})"
        src, dst, w = g.edges()
        G = ig.Graph(n=g.n, edges=np.column_stack([src, dst]).tolist(), directed=True)
        G.es["weight"] = w.astype(np.float64).tolist()
        return lambda: np.asarray(G.distances(weights="weight", mode="out"), np.float64)
    return f"unknown library {name!r}"


def call_ms(g, name, kw):
    """One synchronised wall-clock call of ``shortest_paths(g, method=name, **kw)`` (ms), its result released."""
    ms, d = wall.median_ms(lambda: api.shortest_paths(g, method=name, **kw), 1)
    del d
    return ms


def in_rounds(rows, calls):
    """``rows`` (a graph's, with end-to-end times of single calls) given each timed code's and auto's median over
    ``calls`` (:func:`~.measure.rounds.interleaved`) in every mode: the single calls kept as ``single_<column>``,
    ``e2e_rounds`` the rounds.  A code spared its end-to-end calls by its kernel (:func:`end_to_end_rows`: past the bound of the single
    calls) whose kernel is within the bound of the medians' fastest in some mode has its row say so."""
    t = pd.DataFrame(calls)
    med = t.groupby(["code", "mode"]).ms.median().unstack("mode")
    k = int(t["round"].nunique())
    for r in rows:
        if r["algorithm"] in med.index and all(c in r for c, _ in MODES):
            r.update({f"single_{c}": r[c] for c, _ in MODES})
            r.update({c: float(med.at[r["algorithm"], c]) for c, _ in MODES}, e2e_rounds=k)
    named = med.drop(index="auto", errors="ignore")
    for r in rows:
        if str(r.get("error", "")).startswith("end to end not timed") and len(named) and any(
                within_bound(r["kernel_ms"], named[c].min()) for c, _ in MODES):
            r["error"] += f"; within the bound of the fastest of the {k} rounds' medians in some mode: not known"
    return rows


def end_to_end_rows(timed, run):
    """The rows ``timed`` (verified kernel times), fastest kernel first, each with its end-to-end times from
    ``run(name) -> ({column: ms}, verified)``, except where its kernel alone is past :data:`BOUND` of every mode's
    fastest verified end-to-end time so far: that code can be neither the fastest nor within the bound of it
    (a call's wall clock holds its kernels), so it is not run, and its row says why."""
    fastest = {}
    for r in sorted(timed, key=lambda r: r["kernel_ms"]):
        if fastest and all(not within_bound(r["kernel_ms"], ms) for ms in fastest.values()):
            r["error"] = (f"end to end not timed: its kernel alone ({r['kernel_ms']:.1f} ms) is past "
                          f"{BOUND[0]:g}x + {BOUND[1]:g} ms of the fastest end to end in every mode")
        else:
            times, same = run(r["algorithm"])
            r.update(times, verified=same)
            if same:
                fastest = {c: min(fastest.get(c, np.inf), ms) for c, ms in times.items()}
        yield r


_WARM = set()


def _warm_cpu(scipy_name):
    """This package's CPU code for scipy's ``scipy_name`` run once on a small graph of the same kind, once a process:
    its numba kernels compiled or loaded before its first timed call (on a fresh machine that was ~1.6 s of the
    first graph's CPU row)."""
    if scipy_name not in _WARM:
        api.shortest_paths(SG.make("dag" if scipy_name == "J" else "kemp", 64, seed=1), method=scipy_name)
        _WARM.add(scipy_name)


def auto_codes():
    """Every in-core GPU code auto may run: the cost model's candidates, then the codes its rules hand graphs to
    (:data:`RULE_ROLES`), each once."""
    codes = [a for a in registry.auto_candidates() if a.device == "gpu" and a.forced_params is None]
    codes += [registry.by_role(role) for role in RULE_ROLES]
    return list({a.name: a for a in codes}.values())


def separators_allow(a, g):
    """False for the elimination on a graph whose separators are not small (auto's separator test): its top
    supernodes are thousands wide there, their closure on one CTA each, and it cannot be the fastest."""
    return not (a is registry.by_role("auto_small_separators") and not separators_small(g)[0])


PAST_BUDGET = "not run: at least"      # the start of a row's error where --skip-past-s left its code out


def lower_bound_ms(earlier, gname, code, n):
    """(a lower bound on ``code``'s kernel time on the class ``gname`` at ``n`` vertices, the smaller n it comes
    from, its kernel ms there) from the rows ``earlier`` (a suite file's frame), or None: its verified kernel time at
    the largest smaller n of the class, times (n / that n)^2 (every code writes n^2 distances; its work grows at
    least as fast)."""
    if earlier is None or not len(earlier):
        return None
    t = earlier[(earlier.graph == gname) & (earlier.algorithm == code) & (earlier.n < n)
                & (earlier.verified.astype(str) == "True")].dropna(subset=["kernel_ms"])
    if not len(t):
        return None
    r = t.loc[t.n.idxmax()]
    return float(r.kernel_ms) * (n / r.n) ** 2, int(r.n), float(r.kernel_ms)


def graph_rows(gname, g, repeats, libraries, cpu_budget_s, extra=(), log=print, auto_only=False, codes_only=(),
               skip_past_s=None, earlier=None, keep=None, rounds=1, calls=None):
    """Every row of one graph of the suite; with ``auto_only`` auto's row alone, with ``codes_only`` (names) those
    GPU codes' rows alone.  With ``skip_past_s`` and ``earlier`` (rows of a suite run at smaller sizes), a GPU code
    whose :func:`lower_bound_ms` there is past that many seconds is not run: its row says why (at that bound it
    cannot be the fastest, nor within the bound of it, where some code runs in a fraction of it).  ``keep(rows)``
    is called with the rows so far each time one is complete (a call cut mid-graph at 65,536 lost ten minutes).
    With ``rounds`` > 1, on a graph of more than ``SMALL`` vertices (one timed call a mode otherwise), each code timed
    end to end and auto are timed again in that many interleaved rounds, rotated, after every single call
    (:func:`~.measure.rounds.interleaved`), their rows' end-to-end times those rounds' medians (:func:`in_rounds`);
    each call of the rounds is appended to ``calls`` (a list) where given."""
    probe = structure.probe(g)
    ref = reference_checksum(g)
    base = dict(graph=gname, n=g.n, m=g.m, hop_depth=probe.hop_depth)
    rows = []

    def add(r):
        rows.append(r)
        if keep:
            keep(rows)

    choice = api.choose(g, structure=probe, result="host")      # what its float64 end-to-end call runs
    on_device = api.choose(g, structure=probe, result="device")   # ... and its call with device=True
    in_int32 = api.choose(g, structure=probe, result="int32")      # ... and with dtype=np.int32
    codes = auto_codes() + [registry.get(x) for x in extra if x in registry.ALGORITHMS]
    codes = [registry.get(x) for x in codes_only] if codes_only else list({a.name: a for a in codes}.values())
    codes = [a for a in codes if not (g.has_negative and not a.negative_weights)] if not auto_only else []
    big = g.n > SMALL                 # seconds a solve there: one timed repeat (after its warm call)
    free = gpu_device.free_bytes()[0]
    timed = []
    for a in codes:                   # every code's kernel first: the end-to-end calls go fastest kernel first
        if a.footprint(g.n, g.m) > 0.8 * free:
            add(dict(base, algorithm=a.name, verified=False, error="does not fit on the device"))
            continue
        bound = lower_bound_ms(earlier, gname, a.name, g.n) if skip_past_s else None
        if bound and bound[0] > 1e3 * skip_past_s:
            why = (f"{PAST_BUDGET} {bound[0] / 1e3:.0f} s (its kernel {bound[2] / 1e3:.2f} s at n = {bound[1]:,} "
                   f"times (n / {bound[1]:,})^2), past --skip-past-s {skip_past_s:g}")
            add(dict(base, algorithm=a.name, kind="gpu", verified=False, error=why))
            log(f"  {a.name:14s} {why}")
            continue
        if not separators_allow(a, g):
            add(dict(base, algorithm=a.name, kind="gpu", verified=False,
                             error="not run: the separators are not small (auto's separator test)"))
            log(f"  {a.name:14s} not run: the separators are not small")
            continue
        recs = harness.measure(a, g, repeats=1 if big else repeats, warmup=1, reference=ref)
        ok = bool(recs) and all(r.get("verified") is True for r in recs)
        r = dict(base, algorithm=a.name, kind="gpu", verified=ok,
                 kernel_ms=float(np.median([x["kernel_ms"] for x in recs])) if ok else np.nan,
                 error="" if ok else (recs[0].get("error") if recs else "no record"))
        if ok:
            timed.append(r)
        else:
            add(r)
            log(f"  {a.name:14s} failed: {r['error']}")
    for r in end_to_end_rows(timed, lambda name: _end_to_end(g, ref, 1 if big else repeats, method=name)):
        add(r)
        log(f"  {r['algorithm']:14s} kernel {r['kernel_ms']:9.2f} ms  end to end {r.get('e2e_ms', np.nan):9.2f} ms"
            f" (int32 {r.get('e2e_int32_ms', np.nan):8.2f}, on device {r.get('e2e_device_ms', np.nan):8.2f})  verified={r['verified']}")
    if codes_only:
        return rows
    # scipy's 'D' as this package runs it: the all-core Dijkstra; 'J' (Johnson: Bellman-Ford, then that Dijkstra)
    # where a weight is negative; made (its warm-up solve, the libraries' graphs) only where the CPU rows are timed
    scipy_name = "J" if g.has_negative else "D"
    others = []
    if not auto_only:
        _warm_cpu(scipy_name)
        cpu = api._method(g, scipy_name, None)[0]          # the code that name runs, as shortest_paths resolves it
        others = [(cpu.name, lambda: api.shortest_paths(g, method=scipy_name))]
        others += [(lib, _library(lib, g)) for lib in libraries]
    for name, fn in others:
        if isinstance(fn, str):
            add(dict(base, algorithm=name, kind="cpu", verified=False, error=fn))
            continue
        if name in ("scipy", "igraph") and (g.n > 4096 or g.n * g.m > cpu_budget_s * 1e9):   # one thread: ~1e9 relaxations/s
            add(dict(base, algorithm=name, kind="cpu", verified=False,
                             error=f"skipped: one thread, n m = {g.n * g.m:.3g} (run up to n = 4096 and {cpu_budget_s:g} s)"))
            continue
        ms, d = wall.median_ms(fn, 1)
        ok = matches(d, ref)
        add(dict(base, algorithm=name, kind="cpu", verified=ok, kernel_ms=ms, e2e_ms=ms, threads=(
            1 if name in ("scipy", "igraph") else os.cpu_count())))
        log(f"  {name:14s} wall {ms:9.1f} ms verified={ok}")
        del d
    times, warm_same = _end_to_end(g, ref, 1 if big else repeats)
    api.shortest_paths(g)                 # float64 once more: the state each code's e2e_ms met after its warm call
    fresh = dataclasses.replace(g)        # a new object: nothing about it remembered, its first call
    first, d = wall.median_ms(lambda: api.shortest_paths(fresh))
    same = matches(d, ref)
    del d
    r = dict(base, algorithm="auto", kind="auto", picked=choice.algorithm.name,
             picked_device=on_device.algorithm.name, picked_int32=in_int32.algorithm.name, choice=str(choice),
             probe_ms=probe.ms,
             verified=same and warm_same, e2e_first_ms=first, **times)
    add(r)
    log(f"  auto -> {choice.algorithm.name}: first call {first:.1f} ms, {r['e2e_ms']:.1f} ms end to end (int32 {r['e2e_int32_ms']:.1f}, on device "
        f"{r['e2e_device_ms']:.1f}; {probe})")
    if big and rounds > 1:            # single calls at these sizes ran up to 1.8x the medians of interleaved rounds
        got = timed_in_rounds(gname, g, rows, r, rounds, log)
        if calls is not None:
            calls.extend(got)
        if keep:
            keep(rows)
    return rows


def timed_in_rounds(gname, g, rows, auto, rounds, log=print):
    """Every verified GPU code of ``rows`` timed end to end and auto (``auto``: its row) timed again in ``rounds``
    interleaved rounds, rotated (:func:`~.measure.rounds.interleaved`); ``rows`` given the medians
    (:func:`in_rounds`).  Returns the calls, each with the graph and, for auto's, the code it picked in that mode."""
    names = [x["algorithm"] for x in rows if x.get("kind") == "gpu" and x.get("verified") is True
             and "e2e_ms" in x] + ["auto"]
    got = [dict(graph=gname, n=g.n, m=g.m, **c)
           for c in interleaved(names, rounds, lambda x, kw: call_ms(g, x, kw), MODES, "rotate")]
    picks = {"e2e_ms": auto["picked"], "e2e_int32_ms": auto["picked_int32"], "e2e_device_ms": auto["picked_device"]}
    for c in got:
        c["picked"] = picks[c["mode"]] if c["code"] == "auto" else ""
    in_rounds(rows, got)
    for x in rows:
        if x.get("e2e_rounds"):
            log(f"  {x['algorithm']:14s} median of {rounds} rounds: {x['e2e_ms']:9.2f} ms end to end (int32 "
                f"{x['e2e_int32_ms']:8.2f}, on device {x['e2e_device_ms']:8.2f})")
    return got


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--graphs", nargs="+", default=list(SG.CLASSES + SG.ROADS))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--libraries", nargs="*", default=list(LIBRARIES))
    ap.add_argument("--cpu-budget-s", type=float, default=5.0, help="one-thread libraries: skip past this many s")
    ap.add_argument("--extra", nargs="*", default=[], help="GPU codes beside auto's candidates and its rules' codes")
    ap.add_argument("--out", default=None)
    ap.add_argument("--auto-only", action="store_true", help="auto's rows only (its pick, end to end three ways); "
                    "with --append, the graph's other rows are kept")
    ap.add_argument("--codes-only", nargs="+", default=[], metavar="CODE",
                    help="these GPU codes' rows alone (no CPU rows, no auto row); with --append, the graph's rows of "
                         "those codes are replaced and its other rows kept")
    ap.add_argument("--skip-past-s", type=float, default=None, metavar="S",
                    help="with --earlier: a GPU code whose kernel there, at a smaller n of the class, times the "
                         "square of the sizes' ratio is past S seconds is not run (its row says so)")
    ap.add_argument("--earlier", nargs="+", default=None, metavar="CSV",
                    help="suite files of smaller sizes (--skip-past-s; a code's bound from its largest n in any)")
    ap.add_argument("--without-metis", action="store_true",
                    help="measure where pymetis is not installed (the elimination ordered by BFS levels, never auto's)")
    ap.add_argument("--rounds", type=int, default=1, metavar="R",
                    help=f"on graphs of more than {SMALL} vertices, every code timed end to end and auto timed "
                         "again in R interleaved rounds, each row's end-to-end times their medians (every call in "
                         "<file>-calls.csv); default 1: one timed call a mode")
    ap.add_argument("--tag", default="structure")
    ap.add_argument("--append", action="store_true",
                    help="add the rows to that file if it exists (one suite measured in several device commands: "
                         "its provenance lists each invocation); a graph measured again replaces its rows")
    ap.add_argument("--list", action="store_true", help="print the (graph, n) it would measure and stop")
    a = ap.parse_args(argv)
    unknown = [g for g in a.graphs if not SG.known(g)]
    if unknown:
        ap.error(f"unknown graph {', '.join(map(repr, unknown))}; {SG.KNOWN}")
    odd = [c for c in a.codes_only if c not in registry.ALGORITHMS or registry.get(c).device != "gpu"]
    if odd:
        ap.error(f"--codes-only: not a GPU code of the registry: {', '.join(map(repr, odd))}")
    if (a.skip_past_s is None) != (a.earlier is None):
        ap.error("--skip-past-s and --earlier go together")
    if a.rounds < 1:
        ap.error(f"--rounds {a.rounds}: at least 1")
    if a.rounds > 1 and (a.auto_only or a.codes_only):
        ap.error("--rounds times every code and auto in the same rounds: not with --auto-only or --codes-only")
    missing = [f for f in a.earlier or () if not Path(f).is_file()]
    if missing:
        ap.error(f"--earlier: no such file: {', '.join(missing)}")
    if not a.list and not a.without_metis and unmeasured_ordering():
        ap.error(f"{unmeasured_ordering()}; --without-metis measures so anyway")
    if a.list:
        for name, size in plan(a.sizes, a.graphs):
            print(f"{name} {size if size is not None else '(its own n)'}")
        return 0
    gpu_device.require_gpu()
    dev = provenance.gpu_info()["gpu"]
    out = Path(a.out or Path(__file__).resolve().parents[1] / "data" / "results" / "benchmarks")
    out.mkdir(parents=True, exist_ok=True)
    stem = f"{dev.replace(' ', '_')}-{_dt.date.today().isoformat()}-{a.tag}"
    append = a.append and (out / f"{stem}.csv").exists()
    rows = pd.read_csv(out / f"{stem}.csv").to_dict("records") if append else []
    earlier = pd.concat([pd.read_csv(f) for f in a.earlier], ignore_index=True) if a.earlier else None
    rounds_file = out / f"{stem}-calls.csv"       # every call of the rounds (--rounds), written beside the rows
    calls = pd.read_csv(rounds_file).to_dict("records") if append and rounds_file.exists() else []
    partial = out / f"{stem}.partial"     # the graph being measured: its rows so far (CSV), gone once it is done
    provenance.write_invocation(out / f"{stem}.provenance.json", provenance.collect("structure-suite", vars(a)), append)
    for name, size in plan(a.sizes, a.graphs):
        g = SG.make(name, size, seed=size or 0)
        print(f"{name} n={g.n} m={g.m}", flush=True)
        again = lambda r: r["graph"] == name and r["n"] == g.n and (
            r.get("algorithm") in a.codes_only if a.codes_only else r.get("kind") == "auto" or not a.auto_only)
        rows = [r for r in rows if not again(r)]          # measured again: replaced (with --auto-only, auto's row)
        if a.rounds > 1:
            calls = [c for c in calls if not (c["graph"] == name and c["n"] == g.n)]
        rows += graph_rows(name, g, a.repeats, a.libraries, a.cpu_budget_s, a.extra, auto_only=a.auto_only,
                           codes_only=a.codes_only, skip_past_s=a.skip_past_s, earlier=earlier,
                           keep=lambda so_far: pd.DataFrame(so_far).to_csv(partial, index=False),
                           rounds=a.rounds, calls=calls)
        pd.DataFrame(rows).to_csv(out / f"{stem}.csv", index=False)
        if calls:
            pd.DataFrame(calls).to_csv(rounds_file, index=False)
        partial.unlink(missing_ok=True)
    df = pd.DataFrame(rows)
    print(summary(df).to_string(index=False))
    return 0


def plan(sizes, graphs):
    """The (graph, n) pairs a run measures, in order: every class at every size, the complete and the dense graph
    once at their ``SG.CAPPED`` n (n^2 edges; in a run with a size up to 4096), a road network once at its own n
    (None)."""
    out = []
    for n in sizes:
        for name in graphs:
            if name in SG.CAPPED and n > 4096:
                continue
            size = None if name in SG.REAL else SG.CAPPED.get(name, n)
            if (name, size) not in out:
                out.append((name, size))
    return out


def within_bound(ms, fastest_ms):
    """Whether ``ms`` is within :data:`BOUND` of ``fastest_ms``."""
    return ms <= BOUND[0] * fastest_ms + BOUND[1]


def summary(df):
    """Per graph: auto's pick, the fastest verified GPU code by kernel time and by end to end, auto's end-to-end time
    over the fastest code's, and the CPU codes' times."""
    out = []
    for (gname, n), t in df.groupby(["graph", "n"], sort=False):
        gpu = t[(t.kind == "gpu") & (t.verified == True)]              # noqa: E712 (a column of bools)
        auto = t[t.kind == "auto"].iloc[0] if (t.kind == "auto").any() else None
        cpu = {r.algorithm: r.e2e_ms for r in t[(t.kind == "cpu") & (t.verified == True)].itertuples()}  # noqa: E712
        row = dict(graph=gname, n=n, hop_depth=int(t.hop_depth.iloc[0]), auto=auto.picked if auto is not None else "-")
        if len(gpu):
            fk, fe = gpu.loc[gpu.kernel_ms.idxmin()], gpu.loc[gpu.e2e_ms.idxmin()]
            row.update(fastest_kernel=f"{fk.algorithm} {fk.kernel_ms:.1f} ms", fastest_e2e=f"{fe.algorithm} {fe.e2e_ms:.1f} ms")
            if auto is not None:
                row["auto_over_fastest_e2e"] = round(float(auto.e2e_ms / fe.e2e_ms), 2)
                first = auto.get("e2e_first_ms", np.nan)
                row["auto_first_over_fastest_e2e"] = round(float(first / fe.e2e_ms), 2)
                row["within_bound"] = bool(within_bound(auto.e2e_ms, fe.e2e_ms)                 # first: if timed
                                           and (first != first or within_bound(first, fe.e2e_ms)))
        row.update({f"{k} ms": round(float(v), 1) for k, v in cpu.items()})
        out.append(row)
    return pd.DataFrame(out)


if __name__ == "__main__":
    raise SystemExit(main())
