"""Where a first ``shortest_paths`` call on a graph spends its time: the graph solved twice (warm), then a new Graph
object of the same arrays (nothing about it remembered) solved under cProfile, float64 to the host, beside the
wall clock of the same call on the warm object and of its parts alone (``choose``, tuned_frontier's renumbering).
A diagnostic, not a benchmark row.

    python3 scripts/first_call_profile.py --graphs grid:16384 knn:16384 [--method auto] [--top 25] --out DIR

Writes ``first_call_profile.txt`` (the profiles) beside its provenance."""
from __future__ import annotations

import argparse
import cProfile
import dataclasses
import io
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", required=True)
    ap.add_argument("--method", default="auto")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--settle", type=float, default=0.0,
                    help="seconds to wait between a part done before and the timed call")
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    from apsp_kernels import api, choice, gpu_device
    from apsp_kernels.algorithms.gpu.tuned import frontier
    from apsp_kernels.io import suite_graphs as SG
    from apsp_kernels.measure import provenance, wall
    gpu_device.require_gpu()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    provenance.write_invocation(out / "first_call_profile.provenance.json",
                                provenance.collect("first-call-profile", vars(a)))
    text = io.StringIO()
    for spec in a.graphs:
        name, n = SG.spec(spec)
        g = SG.make(name, n, seed=n)
        for _ in range(2):
            api.shortest_paths(g, a.method)
        warm, _ = wall.median_ms(lambda: api.shortest_paths(g, a.method))
        parts = {"choose": wall.median_ms(lambda: choice.choose(dataclasses.replace(g), result="host"))[0],
                 "renumbering": wall.median_ms(lambda: frontier.renumbering(dataclasses.replace(g)))[0]}
        fresh = dataclasses.replace(g)
        prof = cProfile.Profile()
        t0 = time.perf_counter()
        prof.runcall(lambda: api.shortest_paths(fresh, a.method))
        first = (time.perf_counter() - t0) * 1e3
        again, _ = wall.median_ms(lambda: api.shortest_paths(dataclasses.replace(g), a.method))
        split = {}
        for label, before in (("renumbering done before", lambda h: frontier.renumbering(h)),
                              ("choice done before", lambda h: choice.choose(h, result="host")),
                              ("both done before",
                               lambda h: (frontier.renumbering(h), choice.choose(h, result="host"))),
                              ("nothing before", lambda h: None)):
            ms = []
            for _ in range(3):
                h = dataclasses.replace(g)
                before(h)
                time.sleep(a.settle)
                ms.append(wall.median_ms(lambda: api.shortest_paths(h, a.method))[0])
            split[label] = sorted(ms)[1]
        work = frontier.RENUMBER_WORK
        frontier.RENUMBER_WORK = float("inf")
        try:
            api.shortest_paths(g, a.method)
            split["not renumbered, warm"] = wall.median_ms(lambda: api.shortest_paths(g, a.method))[0]
            split["not renumbered, first"] = wall.median_ms(lambda: api.shortest_paths(dataclasses.replace(g), a.method))[0]
        finally:
            frontier.RENUMBER_WORK = work
        line = (f"{spec}: warm {warm:.1f} ms, first (profiled) {first:.1f}, first again (not profiled) {again:.1f}; "
                + ", ".join(f"{k} alone {v:.1f}" for k, v in parts.items()) + "; first calls (medians of 3): "
                + ", ".join(f"{k} {v:.1f}" for k, v in split.items()))
        print(line, flush=True)
        s = io.StringIO()
        pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(a.top)
        text.write(line + "\n" + s.getvalue() + "\n")
        (out / "first_call_profile.txt").write_text(text.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
