"""Synthetic IIT-KGP results for the report's tests: rows in the shape scripts/iitkgp_measure.py writes,
with chosen median times (ms) per (stage, graph, algorithm, variant), a few processes and sources, a little
noise.  Never committed as data: the tests write them into a temporary folder."""
import json

import numpy as np
import pandas as pd

from apsp_kernels.io import catalogue
from apsp_kernels.study.seeds.iitkgp.spec import density

BFS_GRAPHS = ["random-2700", "gene-human", "slashdot", "as-skitter", "geometric"]
APSP_GRAPHS = ["random-2700", "ego-facebook", "gene-4412", "bitcoin-otc", "random-7500"]
SPEEDUP = dict(zip(BFS_GRAPHS, (4.0, 8.0, 20.0, 60.0, 94.0)))      # Dijkstra over the corrected SSSP


def scenario():
    """{(stage, graph, algorithm, variant, device, estimate): ms} of a run in which most claims hold."""
    t = {}
    for g in BFS_GRAPHS:
        dense = g in ("random-2700", "gene-human")
        t[("bfs", g, "bfs_cpu", "None", "cpu", "measured")] = 100.0
        t[("bfs", g, "parallel_bfs", "None", "gpu", "measured")] = 5.0
        t[("bfs", g, "queue_bfs", "None", "gpu", "measured")] = 10.0 if dense else 150.0
        t[("bfs", g, "scan_bfs", "None", "gpu", "measured")] = 20.0 if dense else 12.0
        t[("sssp", g, "dijkstra_sssp_cpu", "None", "cpu", "measured")] = 400.0
        t[("sssp", g, "harish_sssp", "corrected", "gpu", "measured")] = 400.0 / SPEEDUP[g]
        t[("sssp", g, "harish_sssp", "original", "gpu", "measured")] = 380.0 / SPEEDUP[g]
        for cf in (1, 2, 4, 8, 16):
            t[("coarsen", g, "harish_sssp_coarsened", str(cf), "gpu", "measured")] = 400.0 / SPEEDUP[g] * cf ** 0.9 * (6 if dense and cf == 16 else 1)
    for g in APSP_GRAPHS:
        first_two = g in ("random-2700", "ego-facebook")
        t[("apsp", g, "fw_sequential", "None", "cpu", "sampled")] = 1e5 if first_two else 4e5
        t[("apsp", g, "dijkstra_cpu", "None", "cpu", "sampled")] = 2e5 if first_two else 1e5
        t[("apsp", g, "dijkstra_cpu_parallel", "None", "cpu", "sampled")] = 1e4
        t[("apsp", g, "fw_blocked_parallel", "64", "cpu", "sampled")] = 2e4
        t[("apsp", g, "katz_kider", "16", "gpu", "measured")] = 100.0                 # 1000x over the best sequential
        t[("apsp", g, "iitkgp_naive_fw", "None", "gpu", "measured")] = 2000.0 if first_two else 3000.0   # 50x / 33x
        t[("apsp", g, "harish", "corrected", "gpu", "measured")] = 4000.0 if first_two else 6000.0   # FW faster everywhere
    return t


def rows(times, processes=3, sources=2, noise=0.03, seed=0, stages=None, origin="stand-in"):
    rng = np.random.default_rng(seed)
    out = []
    for (stage, g, a, v, device, est), ms in times.items():
        if stages and stage not in stages:
            continue
        e = catalogue.entry(g)
        base = dict(stage=stage, graph=g, graph_origin="generated as in the seed" if e.generated_by_seed else origin,
                    n=e.n, edges=e.m, density=density(e.n, e.m), algorithm=a, variant=v, device=device, estimate=est)
        for p in range(processes):
            level = ms * np.exp(rng.normal(0, noise))                        # this process's speed
            for s in range(sources if stage != "apsp" else 1):
                for rep in range(2):
                    wall = level * np.exp(rng.normal(0, noise / 3))
                    row = dict(base, process=p, source=s if stage != "apsp" else np.nan, repeat=rep, status="ok",
                               verified=None if est == "sampled" else True, wall_ms=wall)
                    if device == "gpu":
                        row["kernel_ms"] = 0.8 * wall
                    if v == "original" and s == 0 and rep == 0:
                        row.update(status="failed_verification", verified=False, wall_ms=None, kernel_ms=None,
                                   wrong_entries=7, undershoots=0)
                    out.append(row)
    return pd.DataFrame(out)


def write_batch(root, frames, name="20990101-000000-iitkgp", commit="abc123", gpu="NVIDIA H100 80GB HBM3", leases="each"):
    """``frames`` {invocation: DataFrame} -> <root>/<name>/<invocation>/results.csv + provenance.json; ``leases``:
    "each" (every process on a lease of its own, as the confirmatory design runs them) or "shared" (an
    invocation's processes on one lease, as the recorded batches ran)."""
    d = root / name
    for inv, df in frames.items():
        (d / inv).mkdir(parents=True, exist_ok=True)
        df.to_csv(d / inv / "results.csv", index=False)
        (d / inv / "provenance.json").write_text(json.dumps(dict(
            gpu=gpu, cpu="test CPU", timestamp="2099-01-01T00:00:00+00:00", git_commit=commit, code_fingerprint="f" * 40,
            profile="iitkgp", boot_id=f"boot-{inv}",
            processes_run=[dict(index=i, boot_id=f"boot-{inv}-{i}" if leases == "each" else f"boot-{inv}")
                           for i in range(3)])))
    return d
