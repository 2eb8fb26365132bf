"""``method="auto"`` against the fastest verified code, end to end, first call and warm (on the device; a check of
the choice's cost, not a benchmark row).

    python3 scripts/auto_first_call.py [--sizes 4096 16384] [--graphs kemp grid ring ba hub complete ...] [--out DIR]

Every graph of the structure suite's plan (``structure_suite.plan``: the hub and Barabasi-Albert graphs included)
is measured in processes of its own, so that no graph inherits another's state:

* one *warm* process: every in-core GPU code auto may run (the cost model's candidates and its rules' codes;
  the elimination only where auto's separator test passes) is run once (its kernels loaded, its result checked on
  the device against tuned_fw's, the exact FW), then in ``rounds`` rounds, codes and auto in turn, each timed
  twice, synchronised wall clock, float64 to the host: on a new Graph object of the same arrays (``first_ms``: for
  auto, the choice as a first call makes it: the probe where it runs, the lookups; nothing about the graph
  remembered) and again on that object (``warm_ms``).  A code whose checking call took over ``--slow`` times the
  fastest code's is timed once, not in the rounds (it cannot be the fastest: the ring's tuned_sparse, 8 s).
  auto's ``choose`` is wrapped to time it (``choose_first_ms``, ``choose_warm_ms``), and its searches of the hop
  depth are counted (``hub_bfs``: one BFS from the hub; ``probes``: the 4-BFS probe; per first call).
* two *fresh* processes: ``import apsp_kernels``, the graph made (not timed), then the first ``shortest_paths`` of
  the process, with the CUDA context, the kernels' load and the choice in it: once with auto, once with the
  fastest code (by ``warm_ms``) named.  The kernels are in CuPy's disk cache by then (the warm process compiled
  them), as for a user's second script.

Per graph it prints auto's pick and its ratios to the fastest code, and whether each is within the structure
suite's bound (1.25x + 2 ms): first call on a graph against the fastest code's first call on a graph and against
its warm time (the suite's form), warm against warm, fresh process against fresh process.  Writes
``auto_first_call.csv`` (one row per graph and code) and ``auto_first_call_summary.csv``, with the run's provenance
(``auto_first_call.provenance.json``)."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SLOW = 4.0                 # a code slower than this many times the fastest's checking call is timed once


def _sync():
    from apsp_kernels import gpu_device
    if gpu_device.available():                   # no-op without one: the fresh child runs on a CPU for a smoke test
        import cupy as cp
        cp.cuda.Device().synchronize()


def _wall(fn):
    """(synchronised wall ms of ``fn()``, its result)."""
    _sync()
    t0 = time.perf_counter()
    out = fn()
    _sync()
    return (time.perf_counter() - t0) * 1e3, out


def _timed_choose(api, log):
    """Wrap ``api.choose`` (what ``shortest_paths(method="auto")`` calls) to record its host time and its pick."""
    real = api.choose

    def choose(g, **kw):
        t0 = time.perf_counter()
        c = real(g, **kw)
        log.append(dict(ms=(time.perf_counter() - t0) * 1e3, picked=c.algorithm.name, reason=str(c)))
        return c
    api.choose = choose


def _search_counter(log):
    """Count the searches of the hop depth run ("hub_depth": one BFS, "probe": four), not those remembered for a graph
    object."""
    from apsp_kernels.core import structure
    for f in ("hub_depth", "probe"):
        real = getattr(structure, f)
        setattr(structure, f, lambda g, *a, _real=real, _f=f, **k: log.append(_f) or _real(g, *a, **k))


def known_codes():
    """The names of the in-core GPU codes auto may run, as the structure suite times them
    (``structure_suite.auto_codes``: the cost model's candidates and the rules' codes, tuned_deep and
    tuned_elimination)."""
    from apsp_kernels.structure_suite import auto_codes
    return [a.name for a in auto_codes()]


def _codes(g, big_codes):
    """:func:`known_codes` that run on ``g``; above ``structure_suite.SMALL`` vertices only ``big_codes`` (Katz &
    Kider's 3.7 s a solve at 16,384 was never within 3x of the fastest in the recorded suites, and would take a
    quarter of the run).  The elimination only where auto's separator test passes
    (``structure_suite.separators_allow``)."""
    from apsp_kernels.structure_suite import SMALL, auto_codes, separators_allow
    return [a.name for a in auto_codes() if (g.n <= SMALL or a.name in big_codes) and separators_allow(a, g)]


def _load_kernels(api, name, codes):
    """Each code once on a small graph of the class (a road network: Kemp's), so that the checking calls time the
    solve, not the kernels' compile or load (seconds where CuPy's disk cache is empty)."""
    from apsp_kernels.io import suite_graphs as SG
    small = SG.make(name if name in SG.SUITE else "kemp", 512, seed=1)
    for c in codes:
        api.shortest_paths(small, method=c, device=True)


def _check(api, g, codes, log):
    """One device-resident call of each code (kernels loaded), its result against tuned_fw's on the device:
    ({code: verified}, {code: ms of that call})."""
    import cupy as cp
    ok, ms = {}, {}
    ref = api.shortest_paths(g, method="tuned_fw", device=True)
    for c in codes:
        ms[c], d = _wall(lambda: api.shortest_paths(g, method=c, device=True))
        ok[c] = bool(cp.array_equal(d, ref))
        del d
        log(f"  {c:15s} checking call {ms[c]:9.1f} ms  verified={ok[c]}")
    del ref
    return ok, ms


def warm_child(name, n, rounds, big_codes):
    """The warm process of one graph: a JSON line of per-code times."""
    import dataclasses
    import numpy as np
    from apsp_kernels import api
    from apsp_kernels.io import suite_graphs as SG
    g = SG.make(name, n, seed=n or 0)
    log = lambda s: print(s, file=sys.stderr, flush=True)        # noqa: E731
    codes = _codes(g, big_codes)
    _load_kernels(api, name, codes)
    ok, check_ms = _check(api, g, codes + ["auto"], log)     # auto's result checked too
    best = min(check_ms[c] for c in codes if ok[c])
    timed = [c for c in codes if ok[c] and check_ms[c] <= SLOW * best]
    choices, searches = [], []
    _timed_choose(api, choices)
    _search_counter(searches)
    api.shortest_paths(g)                          # auto's own path warmed once, as the codes' were
    times = {c: {"first": [], "warm": []} for c in timed + ["auto"]}
    chooses = {"first": [], "warm": []}
    for r in range(rounds):
        order = timed[r % len(timed):] + timed[:r % len(timed)] + ["auto"]
        for c in order:
            method = dict(method=c) if c != "auto" else {}
            fresh = dataclasses.replace(g)          # a new object: nothing about the graph remembered
            for key, obj in (("first", fresh), ("warm", fresh)):
                k = len(choices)
                ms, d = _wall(lambda: api.shortest_paths(obj, **method))
                del d
                times[c][key].append(ms)
                if c == "auto":
                    chooses[key].append(choices[k]["ms"])
    out = dict(graph=name, n=g.n, m=g.m, picked=choices[-1]["picked"], reason=choices[-1]["reason"],
               # per first call (the warm-up call's searches were remembered for g)
               hub_bfs_per_first_call=searches.count("hub_depth") / max(rounds, 1),
               probes_per_first_call=searches.count("probe") / max(rounds, 1),
               choose_first_ms=float(np.median(chooses["first"])), choose_warm_ms=float(np.median(chooses["warm"])),
               codes={c: dict(verified=ok[c], check_ms=check_ms[c],
                              first_ms=float(np.median(times[c]["first"])) if c in times else None,
                              warm_ms=float(np.median(times[c]["warm"])) if c in times else None)
                      for c in codes + ["auto"]})
    print("RESULT " + json.dumps(out))


def fresh_child(name, n, method):
    """A fresh process's first ``shortest_paths`` (``method`` 'auto' or a code): a JSON line."""
    t0 = time.perf_counter()
    from apsp_kernels import api
    from apsp_kernels.io import suite_graphs as SG
    import_ms = (time.perf_counter() - t0) * 1e3
    g = SG.make(name, n, seed=n or 0)
    choices = []
    _timed_choose(api, choices)
    t0 = time.perf_counter()
    d = api.shortest_paths(g, method=method)
    _sync()
    first = (time.perf_counter() - t0) * 1e3
    del d
    print("RESULT " + json.dumps(dict(graph=name, n=g.n, method=method, import_ms=import_ms, fresh_ms=first,
                                      choose_ms=choices[0]["ms"] if choices else None)))


def _run(args, timeout):
    """A child process of this script: its RESULT line as a dict, or None (its error printed)."""
    try:
        r = subprocess.run([sys.executable, __file__, "--child", *map(str, args)], capture_output=True, text=True,
                           timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        print(f"  {args}: past {timeout} s", flush=True)
        return None
    line = [x for x in r.stdout.splitlines() if x.startswith("RESULT ")]
    if r.returncode or not line:
        print(f"  {args}: failed (rc {r.returncode}):\n{r.stderr[-3000:]}", flush=True)
        return None
    print("\n".join(x for x in r.stderr.splitlines() if x.startswith("  ")), flush=True)   # the checking calls
    return json.loads(line[-1][7:])


def within(ms, fastest):
    """The structure suite's bound (structure_suite.BOUND): 1.25x + 2 ms."""
    from apsp_kernels.structure_suite import within_bound
    return bool(within_bound(ms, fastest))


def graph_summary(w, fresh_auto, fresh_named):
    """One row: auto's pick and its ratios to the fastest verified code, each with its bound."""
    codes = {c: v for c, v in w["codes"].items() if c != "auto" and v["verified"] and v["warm_ms"] is not None}
    fast = min(codes, key=lambda c: codes[c]["warm_ms"])
    fast_first = min(v["first_ms"] for v in codes.values())
    a = w["codes"]["auto"]
    row = dict(graph=w["graph"], n=w["n"], auto=w["picked"], fastest=fast, fastest_warm_ms=round(codes[fast]["warm_ms"], 2),
               auto_warm_ms=round(a["warm_ms"], 2), auto_first_ms=round(a["first_ms"], 2),
               choose_first_ms=round(w["choose_first_ms"], 2), choose_warm_ms=round(w["choose_warm_ms"], 3),
               hub_bfs=w["hub_bfs_per_first_call"], probes=w["probes_per_first_call"],
               warm_ratio=round(a["warm_ms"] / codes[fast]["warm_ms"], 2),
               first_ratio=round(a["first_ms"] / fast_first, 2),
               first_over_warm=round(a["first_ms"] / codes[fast]["warm_ms"], 2),
               warm_ok=within(a["warm_ms"], codes[fast]["warm_ms"]), first_ok=within(a["first_ms"], fast_first),
               first_over_warm_ok=within(a["first_ms"], codes[fast]["warm_ms"]))
    if fresh_auto and fresh_named:
        row.update(fresh_auto_ms=round(fresh_auto["fresh_ms"], 1), fresh_named_ms=round(fresh_named["fresh_ms"], 1),
                   fresh_choose_ms=round(fresh_auto["choose_ms"], 2) if fresh_auto["choose_ms"] else None,
                   fresh_ratio=round(fresh_auto["fresh_ms"] / fresh_named["fresh_ms"], 2),
                   fresh_ok=within(fresh_auto["fresh_ms"], fresh_named["fresh_ms"]))
    return row, fast


def main(argv=None):
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "--child":
        kind, name, n = sys.argv[2], sys.argv[3], None if sys.argv[4] == "None" else int(sys.argv[4])
        if kind == "warm":
            return warm_child(name, n, int(sys.argv[5]), sys.argv[6].split(","))
        return fresh_child(name, n, sys.argv[5])
    from apsp_kernels.io import suite_graphs as SG
    from apsp_kernels.structure_suite import first_call_rounds, plan
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[4096, 16384])
    ap.add_argument("--graphs", nargs="+", default=list(SG.SUITE + SG.ROADS))
    ap.add_argument("--rounds", type=int, default=5, help="rounds up to 4,096 vertices (structure_suite.first_call_rounds)")
    ap.add_argument("--no-fresh", action="store_true", help="warm processes only")
    ap.add_argument("--big-codes", nargs="+", default=["tuned_fw", "tuned_sparse", "tuned_frontier", "tuned_deep",
                                                       "tuned_elimination"],
                    help="the codes measured above n = 4096")
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    unknown = sorted(set(a.big_codes) - set(known_codes()))
    if unknown:
        ap.error(f"--big-codes: {', '.join(unknown)} not among the codes auto may run ({', '.join(known_codes())})")
    from apsp_kernels.elimination_choice import refuse_unmeasured_ordering
    refuse_unmeasured_ordering(ap)
    import pandas as pd
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    from apsp_kernels.measure import provenance
    provenance.write_invocation(out / "auto_first_call.provenance.json", provenance.collect("auto-first-call", vars(a)))
    rows, summary = [], []
    print("plan: " + ", ".join(f"{name} {n or '(its own n)'}" for name, n in plan(a.sizes, a.graphs)), flush=True)
    for name, n in plan(a.sizes, a.graphs):
        print(f"{name} {n or ''}", flush=True)
        w = _run(["warm", name, n, first_call_rounds(n, a.rounds), ",".join(a.big_codes)], 200)
        if w is None:
            continue
        rows += [dict(graph=name, n=w["n"], code=c, **v) for c, v in w["codes"].items()]
        fa = fn = None
        if not a.no_fresh:
            fast = graph_summary(w, None, None)[1]
            fa, fn = _run(["fresh", name, n, "auto"], 120), _run(["fresh", name, n, fast], 120)
        row, _ = graph_summary(w, fa, fn)
        summary.append(row)
        print("  " + "  ".join(f"{k}={v}" for k, v in row.items() if k not in ("graph", "n")), flush=True)
        pd.DataFrame(rows).to_csv(out / "auto_first_call.csv", index=False)
        pd.DataFrame(summary).to_csv(out / "auto_first_call_summary.csv", index=False)
    s = pd.DataFrame(summary)
    with pd.option_context("display.width", 250, "display.max_columns", 40):
        print(s.to_string(index=False))
    oks = [c for c in ("warm_ok", "first_ok", "first_over_warm_ok", "fresh_ok") if c in s]
    print("within 1.25x + 2 ms:", {c: f"{int(s[c].sum())}/{len(s)}" for c in oks})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
