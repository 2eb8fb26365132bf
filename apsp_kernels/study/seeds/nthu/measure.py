"""NTHU (seed 004) measurements on the device machine; results and provenance into $APSP_RESULTS_DIR.

single  one GPU: every NTHU variant (bs 8/16/32/64 x dim3/int launches x branch/select update) at
        n = 6000 and 12000, per-phase times, each run verified against the CPU reference
        (about 2-3 minutes on an H100):
            python3 scripts/nthu_measure.py single
multi   P GPUs of one host (NCCL; NCCL_NVLS_ENABLE=0): the three synchronisation designs at each n
        with P = 1 and 2 (strong scaling), and the 'row' design at n0 * sqrt(P) with P = 1 and 2
        (weak scaling: n^2 per GPU fixed), per-round compute and communication.  Every P-GPU solve
        is verified block row by block row (the ranks' Fletcher-64 checksums) against the one-GPU
        result of the same graph (this run's or an earlier one's, kept in the cache), and the
        one-GPU result against the CPU reference up to --cpu-ref-cap; the ranks compute no reference.
        Each P is one start of P rank processes (this process only coordinates); a line per
        finished solve as it finishes:
            python3 scripts/nthu_measure.py multi --sizes 16384 32768 --gpus 1 2 --weak
            python3 scripts/nthu_measure.py multi --sizes 65536 --syncs row --gpus 1 2
        Under mpirun (mpirun -np 2 python3 scripts/nthu_measure.py multi ...) only the jobs with
        P = the MPI world size run (run -np 1 first, for the one-GPU result).
Each invocation stops starting new work after --budget-s seconds (default 480: the device tool
allows 10 minutes a command), lists what it skipped, and kills ranks still running at --deadline-s
(default 570) with one line naming them.  Prints short tables at the end."""
# The docstring above is the --help text, unchanged since this code was scripts/nthu_measure.py: that script is
# now a shim calling main() here, so its command lines (mpirun included: every MPI rank runs the shim, hence
# this same main) still work; `python -m apsp_kernels.study measure nthu ...` imports this module instead.
# The printed tables live in measure_tables.py.
from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import json
import math
import os
import sys
import time
from pathlib import Path

import pandas as pd

from .... import paths
from ....algorithms import registry
from ....algorithms.gpu.fw_nthu import VARIANTS, parse_variant
from ....algorithms.gpu.multi import SYNC_DESIGNS, launch
from ....algorithms.reference import graph_key as _graph_key, reference_checksum
from ....core import generators
from ....measure import harness, provenance
from ...method import codes
from . import runs as jobs
from .measure_tables import multi_tables, single_tables, solve_line

PROG = "python -m apsp_kernels.study measure nthu"
T0 = time.perf_counter()        # reset by main(): the budget counts from the invocation, not from the import
CODES = codes.load("nthu")      # data/codes.yaml: seed 004's two codes (no algorithm name outside algorithms/)


def _elapsed():
    return time.perf_counter() - T0


def _out_dir(mode):
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    d = Path(paths.RESULTS) / f"{stamp}-nthu-{mode}"
    d.mkdir(parents=True, exist_ok=True)
    return d


def _provenance(mode, args):
    prov = provenance.collect(f"nthu-{mode}", {k: v for k, v in vars(args).items() if k != "func"})
    import cupy as cp
    prov["gpu_count"] = cp.cuda.runtime.getDeviceCount()
    prov["nccl_version"] = launch.nccl_version()
    prov["nccl_nvls_enable"] = os.environ.get("NCCL_NVLS_ENABLE")
    prov["launched_by"] = "mpi" if launch.under_mpi() else "spawn"
    # The key keeps its name, but it hashes this measuring module's source now (apsp_kernels/study/seeds/nthu/
    # measure.py), no longer scripts/nthu_measure.py, which became a shim: runs before the move hashed the script.
    prov["script_sha1"] = hashlib.sha1(Path(__file__).read_bytes()).hexdigest()
    return prov


def _write(out, name, df, prov):
    df.to_csv(out / f"{name}.csv", index=False)
    (out / "provenance.json").write_text(json.dumps(prov, indent=2, default=str))
    print(f"written {out / (name + '.csv')}")


# ------------------------------------------------------------------------- one GPU
def single(args):
    algo = registry.get(CODES["single"].algorithm)
    prov = _provenance("single", args)
    out = _out_dir("single")
    records, skipped = [], []
    for i, n in enumerate(args.sizes):
        g = generators.kemp(n, seed=n)
        ref = reference_checksum(g)                      # all-core CPU Dijkstra, cached per graph
        for v in args.variants:
            if _elapsed() > args.budget_s:
                skipped.append(f"{v} n={n}")
                continue
            recs = harness.measure(algo, g, variant=v, repeats=args.repeats, warmup=1 if i == 0 else 0,
                                   reference=ref, extra=dict(n_gpus=1, graph="kemp 2-6"))
            records += recs
            ok = all(r.get("verified") for r in recs)
            r = recs[-1]
            print(f"n={n} {v:16s} kernel {r.get('kernel_ms', float('nan')):9.1f} ms  phases "
                  f"{r.get('phase1_ms', 0):7.1f} {r.get('phase2_ms', 0):8.1f} {r.get('phase3_ms', 0):9.1f}  "
                  f"{'verified' if ok else 'NOT VERIFIED: ' + str(r.get('error'))}", flush=True)
    df = pd.DataFrame(records)
    _write(out, "nthu-single", df, prov)
    single_tables(df)
    if skipped:
        print(f"skipped after {args.budget_s} s: {', '.join(skipped)}")
    return 0 if df["verified"].astype(bool).all() else 1


# ------------------------------------------------------------------------ P GPUs
def _jobs_by_gpus(args):
    """{P: [job]} for strong scaling at each size and kernel (one GPU: the design does not matter,
    nothing moves) and weak scaling from the smallest size with the first kernel (n = n0 sqrt(P),
    a multiple of bs, on P GPUs and on one)."""
    todo = {P: [] for P in args.gpus}
    for k in args.kernels:
        for n in args.sizes:
            for P in args.gpus:
                for s in (["row"] if P == 1 else args.syncs):
                    todo[P].append(jobs.job(n, s, k, repeats=args.repeats, label="strong"))
    if args.weak:                 # n0 sqrt(P) with P GPUs, and on one GPU too (its reference, and T(1, n))
        k = args.kernels[0]
        bs = parse_variant(k)[0]
        for n0 in args.weak_from or [min(args.sizes)]:
            if 1 in todo and (n0, k) not in {(j["n"], j["kernel"]) for j in todo[1]}:
                todo[1].append(jobs.job(n0, "row", k, repeats=args.repeats, label="weak", n0=n0))   # T(1, n0)
            for P in args.gpus:
                if P > 1:
                    n = int(round(n0 * math.sqrt(P) / bs)) * bs
                    todo[P] += [jobs.job(n, s, k, repeats=args.repeats, label="weak", n0=n0) for s in args.weak_syncs]
                    if 1 in todo and (n, k) not in {(j["n"], j["kernel"]) for j in todo[1]}:
                        todo[1].append(jobs.job(n, "row", k, repeats=args.repeats, label="weak", n0=n0))
    return todo


def multi(args):
    launch.nccl_environment()
    mpi_world = None
    if launch.under_mpi():
        from mpi4py import MPI
        mpi_world = MPI.COMM_WORLD.Get_size()
    lead = mpi_world is None or _mpi_rank() == 0
    prov = _provenance("multi", args) if lead else None
    out = _out_dir("multi") if lead else None
    rows, rounds, skipped, errors = [], [], [], []
    soft = time.time() + args.budget_s - _elapsed()          # no solve starts after this (wall clock)
    for P, todo in sorted(_jobs_by_gpus(args).items()):
        if mpi_world is not None and P != mpi_world:
            continue
        if mpi_world is None and _elapsed() > args.budget_s:
            skipped += [f"P={P} n={j['n']} {j['sync']}" for j in todo]
            continue
        if lead:
            print(f"P={P}: {len(todo)} job(s), {_elapsed():.0f} s into the run", flush=True)
        say = lambda rank, kind, text: print(f"  {text}", flush=True) if kind == "note" and rank == 0 else None
        try:
            per_rank = launch.run(P if mpi_world is None else None, jobs.run_jobs, (todo, True, soft),
                                  timeout_s=max(10.0, args.deadline_s - _elapsed()), on_message=say, isolate=True)
        except launch.RankError as e:               # one line; keep what every rank finished
            errors.append(f"P={P}: {e}")
            print(f"error: P={P}: {e}", flush=True)
            per_rank = jobs.records_of(e.messages)
        if per_rank is None:
            continue
        done = {(r["job"], r["repeat"]) for r in (per_rank[0] if per_rank else [])}
        skipped += [f"P={P} n={j['n']} {j['sync']}" for i, j in enumerate(todo) if (i, 0) not in done]
        for rec in jobs.summarise(per_rank):
            _verify(rec, args.cpu_ref_cap)
            for r in rec.pop("per_round"):
                rounds.append(pd.DataFrame(dict(job=len(rows), **r, round=range(len(r["comm_ms"])))))
            rows.append(dict(algorithm=CODES["multi"].algorithm, variant=rec["sync"], device="gpu", graph="kemp 2-6",
                             status=rec["status"], **{
                k: v for k, v in rec.items() if k not in ("block_checksums", "status")}))
            print(solve_line(rows[-1]), flush=True)
    if not lead:
        return 0
    prov["errors"] = errors
    prov["skipped"] = skipped
    df = pd.DataFrame(rows)
    _write(out, "nthu-multi", df, prov)
    if rounds:
        pd.concat(rounds).to_csv(out / "nthu-multi-rounds.csv.gz", index=False)
    multi_tables(df)
    if skipped:
        print(f"skipped (budget {args.budget_s:g} s or a failed rank): {', '.join(skipped)}")
    ok = len(df) and df["verified"].map(lambda v: v is not False).all()
    return 0 if ok and not errors else 1


def _mpi_rank():
    from mpi4py import MPI
    return MPI.COMM_WORLD.Get_rank()


ONE_GPU = "nthu_one_gpu_checksums.json"     # in the cache: the one-GPU result of each (graph, kernel)


def _one_gpu_store(key, value=None):
    """The one-GPU run's block-row checksums, kept on disk (paths.CACHE) so that a later
    invocation (mpirun -np 2 after -np 1, another device command) verifies against them."""
    f = paths.CACHE / ONE_GPU
    known = json.loads(f.read_text()) if f.exists() else {}
    if value is None:
        got = known.get(key)
        return None if got is None else {int(b): tuple(v) for b, v in got.items()}
    known[key] = {str(b): list(v) for b, v in value.items()}
    paths.CACHE.mkdir(parents=True, exist_ok=True)
    tmp = f.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(known))
    tmp.replace(f)
    return value


def _verify(rec, cap):
    """A P-GPU result against the one-GPU result of the same graph and kernel, block row by block
    row (the one-GPU run of this invocation or of an earlier one, kept in the cache); the one-GPU
    result against the CPU reference (Fletcher-64 of the all-core Dijkstra's exact distances,
    computed here once per graph and cached on disk) where n <= ``cap``.  The ranks never compute a
    reference."""
    n, blocks = rec["n"], rec["block_checksums"]
    key = f"{_graph_key(generators.kemp(n, seed=rec['seed']))}|{rec['kernel']}"
    base = _one_gpu_store(key) if rec["n_gpus"] > 1 else None
    ref = None
    if n <= cap and (rec["n_gpus"] == 1 or base is None):
        ref = f"{reference_checksum(generators.kemp(n, seed=rec['seed'])):016x}"
    if rec["n_gpus"] == 1 and (ref is None or rec["checksum"] == ref):
        _one_gpu_store(key, blocks)
    rec["reference_checksum"] = ref
    rec["same_as_1gpu"] = None if base is None else blocks == base
    checks = [c for c in (None if ref is None else rec["checksum"] == ref, rec["same_as_1gpu"]) if c is not None]
    rec["verified_by"] = " and ".join(w for w, c in (("cpu reference", ref), ("one-GPU result", base)) if c is not None) or "none"
    rec["verified"] = (all(checks) and rec["min_diagonal"] >= 0) if checks else None
    rec["status"] = "failed_verification" if rec["verified"] is False else "ok"
    rec["bandwidth_GBps"] = rec["received_bytes"] / max(rec["comm_ms"], 1e-9) / 1e6 if rec["received_bytes"] else None


def main(argv=None):
    """The command line: ``argv`` (default: sys.argv[1:], as scripts/nthu_measure.py calls it, whose usage lines
    then name that script); returns the exit status."""
    global T0
    T0 = time.perf_counter()
    ap = argparse.ArgumentParser(prog=None if argv is None else PROG, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("single")
    s.add_argument("--sizes", type=int, nargs="+", default=[6000, 12000])
    s.add_argument("--variants", nargs="+", default=list(VARIANTS))
    s.add_argument("--repeats", type=int, default=2)
    s.set_defaults(func=single)
    m = sub.add_parser("multi")
    m.add_argument("--sizes", type=int, nargs="+", default=[16384, 32768])
    m.add_argument("--gpus", type=int, nargs="+", default=[1, 2])
    m.add_argument("--syncs", nargs="+", default=list(SYNC_DESIGNS), choices=SYNC_DESIGNS)
    m.add_argument("--weak", action="store_true", help="also n0 * sqrt(P) for P > 1, n0 the smallest size")
    m.add_argument("--weak-from", type=int, nargs="+", default=None, metavar="N0",
                   help="the weak scaling's n0 values (default: the smallest of --sizes); implies nothing without --weak")
    m.add_argument("--weak-syncs", nargs="+", default=["row"], choices=SYNC_DESIGNS)
    m.add_argument("--kernels", "--kernel", nargs="+", default=["b32-dim3-branch"],
                   help="the NTHU variants the ranks run, each at every size (weak scaling: the first)")
    m.add_argument("--repeats", type=int, default=1)
    m.add_argument("--cpu-ref-cap", type=int, default=16384,
                   help="largest n whose one-GPU result is checked against the CPU reference (16384: about 6 s on "
                        "16 cores, once per graph, cached); larger P = 1 results are the reference of the P > 1 runs")
    m.add_argument("--deadline-s", type=float, default=570.0,
                   help="hard limit of the whole run: ranks not finished by then are killed, one line says which")
    m.set_defaults(func=multi)
    for p in (s, m):
        p.add_argument("--budget-s", type=float, default=480.0)
    args = ap.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
