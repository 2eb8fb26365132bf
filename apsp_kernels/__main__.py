"""Command line: ``python -m apsp_kernels {list,solve,bench,sanitize-driver}``."""
from __future__ import annotations

import argparse
import sys


def main(argv=None):
    p = argparse.ArgumentParser(prog="apsp", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="the algorithm registry")
    s = sub.add_parser("solve", help="solve one graph file with one algorithm and verify it")
    s.add_argument("graph")
    s.add_argument("--algorithm", default="fw_blocked_parallel")
    s.add_argument("--variant", default=None)
    s.add_argument("--format", default=None)
    b = sub.add_parser("bench", help="GPU throughput against the hardware limits")
    b.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096, 16384])
    b.add_argument("--repeats", type=int, default=3)
    b.add_argument("--out", default=None)
    d = sub.add_parser("sanitize-driver", help="run every GPU kernel once at small n (under compute-sanitizer)")
    d.add_argument("--sizes", type=int, nargs="+", default=[64, 100])
    a = p.parse_args(argv)

    from . import registry
    if a.cmd == "list":
        for al in registry.ALGORITHMS.values():
            print(f"{al.name:22s} {al.device:3s} {al.representation:5s} Kemp alg {al.kemp_algorithm or '-':6s} "
                  f"{'faithful' if al.faithful else 'tuned   '} {al.paper}")
    elif a.cmd == "solve":
        from .formats import read_graph
        from .verify import assert_equal_distances, fletcher64, reference_apsp
        g = read_graph(a.graph, a.format)
        al = registry.get(a.algorithm)
        v = type(al.default_variant)(a.variant) if a.variant is not None and al.default_variant is not None else None
        d, _ = al.run(g, variant=v)
        assert_equal_distances(d, reference_apsp(g), a.algorithm)
        print(f"{g}: verified, fletcher64 {fletcher64(d):016x}")
    elif a.cmd == "bench":
        from . import bench
        df, lim, path = bench.run(a.sizes, a.repeats, a.out)
        print(df.to_string(index=False))
        print(f"written {path}")
    elif a.cmd == "sanitize-driver":
        from . import generators
        from .verify import assert_equal_distances, reference_apsp
        for n in a.sizes:
            g = generators.kemp(n, 1, 5, 0, 100, seed=n)
            ref = reference_apsp(g)
            for al in registry.by_device("gpu"):
                for v in al.variants:
                    kw = al.forced_params(n, v, 3) if al.forced_params else {}     # 3 block rows per partition
                    d, _ = al.run(g, variant=v, **kw)
                    if v in al.exact_variants:
                        assert_equal_distances(d, ref, f"{al.name}/{v}")
                    print(f"n={n} {al.name}/{v}: ok", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
