"""Command line of the multi-GPU blocked FW (the solver: ``algorithms/gpu/multi``; the measurement
jobs that ``run`` hands each rank: ``study/seeds/nthu/runs``).

    python -m apsp_kernels.multi_gpu plan --n 32768 --gpus 1 2 4 8        # no GPU needed
    python -m apsp_kernels.multi_gpu simulate --n 200 --gpus 1 2 3 4 8    # numpy, no GPU
    mpirun -np 2 python -m apsp_kernels.multi_gpu run --n 16384 --sync row --verify
    python -m apsp_kernels.multi_gpu run --gpus 2 --n 16384 --sync row    # spawn, one host

``run`` takes its rank count from MPI where it runs under mpirun (``--gpus`` must then agree or be
left out), else spawns ``--gpus`` processes on this host.  NCCL_NVLS_ENABLE=0 is set for you."""
from __future__ import annotations

import argparse
import sys

from .algorithms.gpu.multi import schedule


def _plan(a):
    import pandas as pd
    df = pd.DataFrame(schedule.dry_run(a.n, a.block, a.gpus, a.syncs))
    size = df["size"].iloc[0]
    print(f"n = {a.n}, bs = {a.block}: N_ext = {size}, K = {size // a.block} rounds; every rank holds the whole "
          f"matrix: {schedule.device_bytes('row', a.block, size) / 1e9:.1f} GB per GPU (rowcol: "
          f"{schedule.device_bytes('rowcol', a.block, size) / 1e9:.1f} GB)")
    cols = ["sync", "ranks", "rank", "first_block_row", "block_rows", "phase3_blocks", "payload_bytes_per_round",
            "received_bytes_per_round", "received_bytes"]
    print(df[cols].to_string(index=False))
    for P in a.gpus:
        parts = schedule.partition(size // a.block, P)
        for s in a.syncs:
            for r in range(min(a.rounds, size // a.block)):
                for line in schedule.describe_round(r, parts, s, a.block, size):
                    print(f"P={P} {s}: {line}")
    return 0


def _simulate(a):
    import numpy as np
    from .algorithms.gpu.multi.simulate import simulate
    from .core.generators import kemp
    from .core.verify import reference_apsp
    g = kemp(a.n, 0, 4, 0, 100, seed=a.seed)
    ref = reference_apsp(g)
    bad = 0
    for P in a.gpus:
        for s in a.syncs:
            d, same = simulate(g, a.block, P, s)
            ok = same and np.array_equal(d, ref)
            bad += not ok
            print(f"P={P} sync={s}: {'exact' if ok else 'WRONG'}")
    return 1 if bad else 0


def _run(a):
    from .algorithms.gpu.multi import launch
    from .core.generators import kemp
    from .study.seeds.nthu import runs as jobs
    size = a.gpus[0] if a.gpus else None
    todo = [jobs.job(a.n, s, a.kernel, a.seed, a.repeats) for s in a.syncs]
    say = lambda rank, kind, text: print(text, flush=True) if kind == "note" and rank == 0 else None
    try:
        per_rank = launch.run(size, jobs.run_jobs, (todo,), timeout_s=a.timeout_s, on_message=say)
    except launch.RankError as e:
        print(f"error: {e}", file=sys.stderr, flush=True)
        return 1
    if per_rank is None:                 # an MPI rank other than 0
        return 0
    ref = None
    if a.verify:                         # the all-core CPU Dijkstra (exact), cached on disk per graph
        from .algorithms.reference import reference_checksum
        ref = f"{reference_checksum(kemp(a.n, seed=todo[0]['seed'])):016x}"
    print(f"NCCL {launch.nccl_version()}, {len(per_rank)} rank(s)")
    for rec in jobs.summarise(per_rank):
        ok = "" if ref is None else ("verified" if rec["checksum"] == ref else "WRONG (differs from the CPU reference)")
        print(f"n={rec['n']} P={rec['n_gpus']} sync={rec['sync']}: {rec['kernel_ms_max']:.1f} ms "
              f"(compute {rec['compute_ms']:.1f}, comm {rec['comm_ms']:.1f} on rank 0), "
              f"{rec['received_bytes'] / 1e6:.1f} MB received by rank 0, checksum {rec['checksum']} {ok}")
        if ok.startswith("WRONG"):
            return 1
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m apsp_kernels.multi_gpu", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("plan", "simulate", "run"):
        s = sub.add_parser(name)
        s.add_argument("--n", type=int, default={"plan": 32768, "simulate": 200, "run": 16384}[name])
        if name != "run":
            s.add_argument("--block", type=int, default=32 if name == "plan" else 8)
        s.add_argument("--gpus", type=int, nargs="+", default=[1, 2, 4, 8] if name != "run" else [])
        s.add_argument("--syncs", "--sync", nargs="+", default=list(schedule.SYNC_DESIGNS),
                       choices=schedule.SYNC_DESIGNS)
        s.add_argument("--seed", type=int, default=None if name == "run" else 1)
    sub.choices["plan"].add_argument("--rounds", type=int, default=2, help="print the transfers of this many rounds")
    r = sub.choices["run"]
    r.add_argument("--kernel", default="b32-dim3-branch", help="NTHU variant b<bs>-<dim3|int>-<branch|select>")
    r.add_argument("--repeats", type=int, default=1)
    r.add_argument("--verify", action="store_true", help="compare with the CPU reference's Fletcher-64 (cached)")
    r.add_argument("--timeout-s", type=float, default=None,
                   help="spawned ranks: end with one line naming a rank not finished by then (default 540)")
    a = p.parse_args(argv)
    return {"plan": _plan, "simulate": _simulate, "run": _run}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
