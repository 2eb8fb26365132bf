"""Command line: ``python -m apsp_kernels {list,solve,bench,sanitize-driver}``."""
from __future__ import annotations

import argparse
import sys

import numpy as np

from .core.graph import INF


def main(argv=None):
    p = argparse.ArgumentParser(prog="apsp", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="the algorithm registry")
    s = sub.add_parser("solve", help="solve one graph file, verify it against scipy, write the distances",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    s.add_argument("graph", help="graph file (hochberg, dimacs .gr, SNAP .txt, MatrixMarket .mtx, .npz; .gz too)")
    s.add_argument("--algorithm", default="auto",
                   help="a name from `list`, scipy's D, FW, BF or J (as shortest_paths runs them), or auto (the "
                        "fastest verified code here)")
    s.add_argument("--variant", default=None, help="the algorithm's variant (block size, Harish version)")
    s.add_argument("--gpus", type=int, default=1, metavar="K",
                   help="solve on K GPUs of this host (shortest_paths(devices=K)): --algorithm auto or a multi-GPU "
                        "code; the result is gathered in host memory")
    s.add_argument("--format", default=None, help="file format if the suffix does not say it")
    s.add_argument("-o", "--output", default=None,
                   help="write distances (float64, inf = no path) with the vertex ids: .npz (distances, ids, "
                        "predecessors), .csv (ids as header row and first column) or .npy (ids in NAME.ids.txt "
                        "beside it unless they are 0..n-1)")
    s.add_argument("--predecessors", action="store_true",
                   help="also compute predecessors (-9999 = none; scipy's convention); -o must be .npz")
    s.add_argument("--undirected", action="store_true", help="SNAP: add both directions of every edge")
    s.add_argument("--weight-column", type=int, default=None,
                   help="SNAP: 0-based column (2 or more) holding edge weights; a SNAP line with more than two "
                        "fields is refused unless this or --unweighted is given")
    s.add_argument("--unweighted", action="store_true", help="SNAP: ignore columns after the two ids (weight 1)")
    s.add_argument("--max-hours", type=float, default=24.0,
                   help="refuse a solve whose predicted time (from the benchmark rows) exceeds this")
    s.add_argument("--no-verify", action="store_true", help="skip the check against scipy (large graphs)")
    s.add_argument("--print-max", type=int, default=16, help="print the matrix to stdout up to this many vertices")
    s.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show the traceback of an error")
    b = sub.add_parser("bench", help="GPU throughput against the hardware limits")
    b.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096, 16384])
    b.add_argument("--repeats", type=int, default=3)
    b.add_argument("--degrees", type=int, nargs="+", default=None,
                   help="graphs of these mean out-degrees (Kemp's generator, d - 2 .. d + 2) at every size; default 2 .. 6")
    b.add_argument("--large-repeats", type=int, default=1,
                   help="repeats above n = 4096 (default 1, no warm-up; more: after one warm-up solve)")
    b.add_argument("--out", default=None)
    b.add_argument("--algorithms", nargs="+", default=None,
                   help="GPU codes to run: NAME or NAME/VARIANT (default: every one but the explorations)")
    b.add_argument("--cpu", nargs="+", default=[], help="CPU codes as rows beside them (wall time, no limit)")
    b.add_argument("--tag", default=None, help="file <device>-<date>-<tag>.csv")
    b.add_argument("--append", action="store_true", help="add the rows to that file if it exists")
    b.add_argument("--ooc-max-n", type=int, default=4096, help="largest n of the out-of-core codes (default 4096)")
    b.add_argument("--ooc-budget-fraction", type=float, default=None,
                   help="out-of-core codes: budget_bytes = this x the n x n int32 matrix (0.25: a matrix 4x the budget)")
    d = sub.add_parser("sanitize-driver", help="run every GPU kernel once at small n (under compute-sanitizer): "
                       "the APSP codes, then the BFS and SSSP codes from three sources")
    d.add_argument("--sizes", type=int, nargs="+", default=[64, 100])
    d.add_argument("--only", nargs="+", default=None, help="run just these: NAME or NAME/VARIANT")
    d.add_argument("--skip", nargs="+", default=[], help="leave out these: NAME or NAME/VARIANT")
    p.add_argument("--debug", action="store_true", help="show the traceback of an error")
    a = p.parse_args(argv)
    try:
        return _run(a)
    except BrokenPipeError:
        # the reader went away (`list | head -1`): what it read was what it wanted; say nothing more
        # (stdout is pointed at /dev/null so that the interpreter's final flush cannot fail either)
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as e:
        if a.debug or not _is_user_error(e):
            raise
        print(f"error: {_one_line(e, a)}", file=sys.stderr)
        return 1


def _is_user_error(e):
    """What a user's input or machine causes (bad file, bad option, negative cycle, no GPU):
    one line, no traceback.  Anything else is a bug and keeps its traceback."""
    from .core.distances import NegativeCycleError
    from .gpu_device import GPUMemoryError, GPUUnavailable
    from .core.graph import GraphError
    from .core.verify import VerificationError
    return isinstance(e, (GraphError, NegativeCycleError, GPUUnavailable, GPUMemoryError, VerificationError, OSError,
                          ValueError, KeyError))


def _one_line(e, a):
    from .core.distances import NegativeCycleError
    from .core.memory import HostMemoryError
    msg = str(e.args[0]) if isinstance(e, KeyError) and e.args else str(e)
    if isinstance(e, NegativeCycleError) and getattr(a, "_graph", None) is not None:     # found by the solve
        msg = f"{a.graph}: {_cycle_text(e, a)}"
    elif isinstance(e, (MemoryError, HostMemoryError)) and getattr(a, "graph", None):
        msg = f"{a.graph}: {msg}"                      # which input did not fit
    return " ".join(msg.split())


def _cycle_text(e, a):
    """The negative cycle named by the file's own vertex id (1-based for DIMACS/MatrixMarket)."""
    v, g = e.vertex, getattr(a, "_graph", None)
    if v is None or g is None:
        return str(e)
    name = g.ids[v].item()                     # the file's own id: DIMACS 1..n, SNAP's integers, a name
    return f"negative cycle through vertex {name}: shortest paths are undefined"


def _run(a):

    from .algorithms import registry
    if a.cmd == "list":
        for al in registry.ALGORITHMS.values():
            print(f"{al.name:22s} {al.device:3s} {al.problem:4s} {al.representation:5s} Kemp alg {al.kemp_algorithm or '-':6s} "
                  f"{'faithful' if al.faithful else 'explores' if al.exploration else 'tuned   '} {al.paper}"
                  + (f" (role {', '.join(al.roles)})" if al.roles else ""))
    elif a.cmd == "solve":
        return _solve(a)
    elif a.cmd == "bench":
        from .measure import bench
        df, lim, path = bench.run(a.sizes, a.repeats, a.out, algorithms=a.algorithms, cpu=a.cpu, tag=a.tag,
                                  append=a.append, ooc_max_n=a.ooc_max_n, ooc_budget_fraction=a.ooc_budget_fraction,
                                  large_repeats=a.large_repeats, degrees=a.degrees)
        print(df.to_string(index=False))
        print(f"written {path}")
    elif a.cmd == "sanitize-driver":
        from .core import generators
        from .core.distances import NegativeCycleError
        from .core.verify import assert_equal_distances, reference_apsp
        for n in a.sizes:
            g = generators.kemp(n, 1, 5, 0, 100, seed=n)
            ref = reference_apsp(g)
            for al in registry.by_device("gpu"):
                for v in al.variants:
                    if not _picked(al.name, v, a.only, a.skip):
                        continue
                    kw = al.forced_params(n, v, 3) if al.forced_params else {}     # 3 block rows per partition
                    try:
                        d, _ = al.run(g, variant=v, **kw)
                    except NegativeCycleError as e:      # a racy variant's garbage can look like one
                        if v in al.exact_variants:
                            raise
                        print(f"n={n} {al.name}/{v}: ok (inexact variant; its result was wrong: {e})", flush=True)
                        continue
                    if v in al.exact_variants:
                        assert_equal_distances(d, ref, f"{al.name}/{v}")
                    print(f"n={n} {al.name}/{v}: ok", flush=True)
        _sanitize_single_source(a.sizes, a.only, a.skip)
    return 0


def _picked(name, variant, only, skip):
    """Whether NAME/VARIANT is run: named (alone or with that variant) in ``only`` if given, not in ``skip``."""
    keys = {name, f"{name}/{variant}"}
    return (only is None or bool(keys & set(only))) and not keys & set(skip)


def _sanitize_single_source(sizes, only=None, skip=()):
    """The BFS and SSSP kernels (seed 001) on small undirected power-law graphs, three sources
    from the largest component, checked against scipy (the racy variant only run)."""
    from .algorithms import registry
    from .core import random_graphs
    from .core.sources import in_largest_component
    from .core.verify import assert_equal_distances, reference_vectors
    for n in sizes:
        g = random_graphs.power_law(n, 4 * n, seed=n)
        src = in_largest_component(g, 3, seed=n)
        for problem in ("bfs", "sssp"):
            ref = reference_vectors(g, src, problem)
            for al in registry.by_problem(problem, "gpu"):
                for v in al.variants:
                    if not _picked(al.name, v, only, skip):
                        continue
                    d, _ = al.run(g, variant=v, sources=src)
                    if v in al.exact_variants:
                        assert_equal_distances(d, ref, f"{al.name}/{v}")
                    print(f"n={n} {al.name}/{v}: ok", flush=True)


def _solve(a):
    import warnings
    from .algorithms import registry
    from .api import check_resources, shortest_paths
    from .core.graph import GraphError
    from .io.formats import GraphFormatWarning, read_graph
    from .io.results import check_output, write_result
    from .core.verify import assert_equal_distances, fletcher64, reference_apsp
    if a.output:                                          # a typo in -o must not cost the solve
        check_output(a.output, a.predecessors)
    snap = {k: v for k, v in (("undirected", a.undirected), ("weight_column", a.weight_column),
                              ("unweighted", a.unweighted)) if v is not None and v is not False}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", GraphFormatWarning)
        g = read_graph(a.graph, a.format, **snap)
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    a._graph = g                                          # for an error message that names its vertices
    if a.output:
        check_output(a.output, a.predecessors, g.ids_are_positions)
    method, variant, devices = a.algorithm, a.variant, a.gpus
    if devices < 1:
        raise ValueError(f"--gpus must be 1 or more, not {devices}")
    choice = None
    if method == "auto":                                  # say which code runs, and why, before it runs
        from .api import choose, choose_devices
        choice = choose(g) if devices == 1 else choose_devices(g, devices)
        method, variant = choice.algorithm.name, variant if variant is not None else choice.variant
    al = _code(method)
    if devices != 1:
        from .api import multi_code
        al = multi_code(g, method, devices)
    if al.problem != "apsp":
        raise GraphError(f"{a.graph}: --algorithm {al.name} solves {al.problem} from given sources, not all pairs; "
                         "solve takes an APSP code (python -m apsp_kernels list)")
    if g.has_negative and not al.negative_weights:
        from .core.negative_cycle import refuse_negative_cycle
        refuse_negative_cycle(g)
        raise GraphError(f"{a.graph}: --algorithm {al.name} needs non-negative edge weights (min weight "
                         f"{int(g.weights.min())}); use --algorithm auto or one that takes negative weights")
    n2 = g.n * g.n                                        # verification (scipy float64 + int32) and the float64 copy
    extra = (0 if a.no_verify else 12 * n2) + 8 * n2
    if getattr(al, "multi_gpu", False):                  # a CPU method beyond int32 is no registry entry
        from .api import check_devices
        check_devices(g, al, devices, a.predecessors, np.int32, extra_host=extra)
    else:
        check_resources(g, al, a.predecessors, np.int32, extra_host=extra)
    _check_time(a, g, al)
    if choice is not None:
        print(f"auto: {choice}", flush=True)
    if variant is not None:
        variant = next((v for v in getattr(al, "variants", ()) if str(v) == variant), variant)
    out = shortest_paths(g, method=method, variant=variant, return_predecessors=a.predecessors,
                         dtype=np.int32, return_method=True, devices=devices)
    d, pred, used = (out[0], out[1], out[2]) if a.predecessors else (out[0], None, out[1])
    if not a.no_verify:
        assert_equal_distances(d, reference_apsp(g), used)
    print(f"{g}: {used}, {'verified against scipy' if not a.no_verify else 'not verified'}, "
          f"fletcher64 {fletcher64(d):016x}")
    dist = d.astype(np.float64)
    dist[d == INF] = np.inf
    if a.output:
        print(f"written {', '.join(write_result(a.output, dist, g, pred))}")
    if g.n <= a.print_max:
        if not g.ids_are_positions:
            print("vertex ids:", " ".join(str(x) for x in g.ids.tolist()))
        print(np.array2string(dist, max_line_width=200))
        if pred is not None:
            print(np.array2string(pred, max_line_width=200))
    return 0


def _code(method):
    """The code ``--algorithm`` names: a registry name, or one of scipy's (D, FW, BF, J), run as
    ``shortest_paths`` runs them on the file's int32 graph."""
    from .algorithms import registry
    from .api import SCIPY_METHODS
    if method in SCIPY_METHODS:
        code = SCIPY_METHODS[method]
        return registry.get(code) if isinstance(code, str) else code
    if method not in registry.ALGORITHMS:
        raise ValueError(f"unknown algorithm {method!r}: auto, scipy's {', '.join(SCIPY_METHODS)}, or a name from "
                         f"`list` ({', '.join(a.name for a in registry.by_problem('apsp'))})")
    return registry.get(method)


def _check_time(a, g, al):
    """Refuse a solve predicted (from the benchmark rows) to run longer than --max-hours."""
    from . import costs
    from .core.graph import GraphError
    p = costs.predict(al, g)
    if p is not None and p.ms > a.max_hours * 3.6e6:
        raise GraphError(f"{a.graph}: {al.name} is predicted to take {p.ms / 3.6e6:.3g} hours ({p}), more than "
                         f"--max-hours {a.max_hours:g}; raise --max-hours to run it anyway")


if __name__ == "__main__":
    sys.exit(main())
