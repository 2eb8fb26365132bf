"""The NTHU measurement's multi mode (apsp_kernels/study/seeds/nthu/measure.py) without GPUs: the jobs it
asks for, how it verifies a P-GPU result (block rows against the one-GPU result, kept in the cache across invocations; the one-GPU
result against the CPU reference up to a cap; never a reference in a rank), and what it records
when the ranks finish or when one does not (one line, and the solves every rank finished).  The
ranks' records are fabricated from the exact distances, as ``jobs.run_jobs`` would send them.  And
scripts/nthu_measure.py, the old command line, is a shim that runs the module's main."""
import json
import runpy
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from apsp_kernels import paths, reference_apsp
from apsp_kernels.core import generators
from apsp_kernels.algorithms.gpu.multi import launch, schedule
from apsp_kernels.core.verify import fletcher64
from apsp_kernels.study.seeds.nthu import measure

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "nthu_measure.py"


@pytest.fixture
def nm():
    return measure


def test_the_old_script_runs_the_modules_main():
    """Every rank of ``mpirun -np P python3 scripts/nthu_measure.py multi ...`` runs the shim: it must be this main."""
    assert runpy.run_path(str(SCRIPT))["main"] is measure.main
    got = subprocess.run([sys.executable, str(SCRIPT), "multi", "--help"], capture_output=True, text=True, cwd="/")
    assert got.returncode == 0, got.stderr
    assert got.stdout.startswith("usage: nthu_measure.py multi [-h]") and "--cpu-ref-cap" in got.stdout


def _records(job, n, sync, P, bs=32, corrupt=False, seed=None):
    """Each rank's record of one solve of Kemp's graph n, as a rank sends it."""
    seed = n if seed is None else seed
    d = reference_apsp(generators.kemp(n, seed=seed))
    N = n + (bs - n % bs)
    parts = schedule.partition(N // bs, P)
    out = []
    for p in parts:
        sums = []
        for b in range(p.first, p.stop):
            a, e = b * bs, min((b + 1) * bs, n)
            if a >= n:
                break
            block = d[a:e].copy()
            if corrupt and b == parts[-1].first:
                block[0, 0] += 1
            sums.append((b, fletcher64(block), int(block.size)))
        K = N // bs
        out.append(dict(rank=p.rank, n_gpus=P, nccl=P > 1, sync=sync, kernel=f"b{bs}-dim3-branch", block=bs, n=n,
                        n_ext=N, rounds=K, first_block_row=p.first, block_rows=p.count, build_ms=1.0,
                        kernel_ms=100.0 / P + 5 * (P > 1), comm_ms=5.0 * (P > 1), compute_ms=100.0 / P,
                        phase1_ms=1.0, phase2_ms=2.0, phase3_ms=97.0 / P, received_bytes=1000 * (P > 1),
                        payload_bytes_per_round=schedule.payload_bytes(sync, bs, N) if P > 1 else 0,
                        per_round=dict(comm_ms=[0.1] * K, phase1_ms=[0.1] * K, phase2_ms=[0.1] * K,
                                       phase3_ms=[0.1] * K, received_bytes=[10] * K),
                        job=job, repeat=0, seed=seed, label="strong", m=1, checksums=sums, min_diagonal=0))
    return out


def _ranks(records):
    """One solve's records (one per rank) as summarise takes them: each rank's list of solves."""
    return [[r] for r in records]


def test_jobs_weak_scaling_runs_on_one_gpu_too(nm):
    args = nm.main.__globals__["argparse"].Namespace(sizes=[2048, 4096], gpus=[1, 2], syncs=["row", "whole"],
                                                     weak=True, weak_syncs=["row"], kernels=["b32-dim3-branch"], repeats=1,
                                                     weak_from=None)
    todo = nm._jobs_by_gpus(args)
    assert [(j["n"], j["sync"], j["label"]) for j in todo[1]] == [(2048, "row", "strong"), (4096, "row", "strong"),
                                                                   (2912, "row", "weak")]
    assert [(j["n"], j["sync"]) for j in todo[2]] == [(2048, "row"), (2048, "whole"), (4096, "row"), (4096, "whole"),
                                                      (2912, "row")]
    args.weak_from = [4096, 3000]          # n0 = 4096 (a strong size) and 3000 (not one: its T(1, n0) is added)
    todo = nm._jobs_by_gpus(args)
    assert [(j["n"], j["label"], j["n0"]) for j in todo[1]][2:] == [(5792, "weak", 4096), (3000, "weak", 3000),
                                                                     (4256, "weak", 3000)]
    assert [(j["n"], j["n0"]) for j in todo[2]][4:] == [(5792, 4096), (4256, 3000)]
    args.weak_from = None
    args.kernels, args.weak = ["b8-dim3-branch", "b64-dim3-branch"], False
    todo = nm._jobs_by_gpus(args)
    assert [(j["n"], j["kernel"]) for j in todo[1]] == [(2048, "b8-dim3-branch"), (4096, "b8-dim3-branch"),
                                                        (2048, "b64-dim3-branch"), (4096, "b64-dim3-branch")]


def test_a_p_gpu_result_is_checked_against_the_one_gpu_result(nm, monkeypatch):
    from apsp_kernels.study.seeds.nthu import runs as jobs
    calls = []
    real = nm.reference_checksum
    monkeypatch.setattr(nm, "reference_checksum", lambda g: calls.append(g.n) or real(g))
    (paths.CACHE / nm.ONE_GPU).unlink(missing_ok=True)
    one = jobs.summarise(_ranks(_records(0, 150, "row", 1)))[0]
    nm._verify(one, cap=200)
    assert one["verified"] is True and one["verified_by"] == "cpu reference" and calls == [150]
    two = jobs.summarise(_ranks(_records(0, 150, "row", 2)))[0]
    nm._verify(two, cap=200)                     # against the stored one-GPU blocks: no second CPU reference
    assert two["verified"] is True and two["verified_by"] == "one-GPU result" and calls == [150]
    bad = jobs.summarise(_ranks(_records(0, 150, "whole", 2, corrupt=True)))[0]
    nm._verify(bad, cap=200)
    assert bad["verified"] is False and bad["status"] == "failed_verification"
    stored = json.loads((paths.CACHE / nm.ONE_GPU).read_text())
    assert len(stored) == 1 and len(next(iter(stored.values()))) == 5          # 150 vertices: 5 block rows of 32


def test_above_the_cap_the_one_gpu_result_is_the_reference(nm, monkeypatch):
    from apsp_kernels.study.seeds.nthu import runs as jobs
    monkeypatch.setattr(nm, "reference_checksum", lambda g: pytest.fail("no CPU reference above the cap"))
    one = jobs.summarise(_ranks(_records(0, 130, "row", 1)))[0]
    nm._verify(one, cap=100)
    assert one["verified"] is None and one["verified_by"] == "none" and one["status"] == "ok"
    two = jobs.summarise(_ranks(_records(0, 130, "row", 2)))[0]
    nm._verify(two, cap=100)
    assert two["verified"] is True and two["verified_by"] == "one-GPU result"


def _fake_run(nm, monkeypatch, fail_at_p=None):
    """launch.run as the ranks would answer it: every job's records, or (``fail_at_p``) a RankError
    after the first job, with the records sent until then."""
    def run(size, fn, args, use_nccl=None, timeout_s=None, on_message=None, isolate=False):
        todo = args[0]
        per_rank = [[] for _ in range(size)]
        for i, j in enumerate(todo):
            for r, rec in enumerate(_records(i, j["n"], j["sync"], size)):
                rec["label"] = j["label"]
                per_rank[r].append(rec)
            if on_message:
                on_message(0, "note", f"job {i} done")
            if size == fail_at_p:
                msgs = {r: [("record", per_rank[r][0])] for r in range(size)}
                raise launch.RankError(f"rank 1 of {size} did not finish within {timeout_s:g} s (last state: x)",
                                       messages=msgs)
        return per_rank
    monkeypatch.setattr(nm.launch, "run", run)
    monkeypatch.setattr(nm, "_provenance", lambda mode, args: {"profile": f"nthu-{mode}"})


def test_multi_records_every_solve_and_prints_a_line_per_job(nm, monkeypatch, capsys):
    _fake_run(nm, monkeypatch)
    (paths.CACHE / nm.ONE_GPU).unlink(missing_ok=True)
    assert nm.main(["multi", "--sizes", "96", "160", "--gpus", "1", "2", "--weak", "--cpu-ref-cap", "200"]) == 0
    out = capsys.readouterr().out
    assert out.count("  job ") == 3 + 7 and "strong scaling" in out and "weak scaling" in out
    d = sorted(Path(paths.RESULTS).glob("*-nthu-multi"))[-1]
    df = pd.read_csv(d / "nthu-multi.csv")
    assert len(df) == 10 and set(df["status"]) == {"ok"} and df["verified"].all()
    assert set(df.loc[df["n_gpus"] == 2, "verified_by"]) == {"one-GPU result"}
    assert json.loads((d / "provenance.json").read_text())["errors"] == []


def test_multi_keeps_what_finished_when_a_rank_does_not(nm, monkeypatch, capsys):
    _fake_run(nm, monkeypatch, fail_at_p=2)
    assert nm.main(["multi", "--sizes", "96", "--gpus", "1", "2", "--syncs", "row", "whole", "--cpu-ref-cap", "200"]) == 1
    out = capsys.readouterr().out
    assert "error: P=2: rank 1 of 2 did not finish within" in out
    assert "skipped (budget 480 s or a failed rank): P=2 n=96 whole" in out
    d = sorted(Path(paths.RESULTS).glob("*-nthu-multi"))[-1]
    df = pd.read_csv(d / "nthu-multi.csv")
    assert sorted(zip(df["n_gpus"], df["variant"])) == [(1, "row"), (2, "row")]
    assert "did not finish" in json.loads((d / "provenance.json").read_text())["errors"][0]
