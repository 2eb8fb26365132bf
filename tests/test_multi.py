"""The multi-GPU blocked FW (seed 004): the partition and per-round schedule for P = 1, 2, 4, 8 (a
dry run), the seed's bytes per round, and the schedule executed by P virtual ranks in numpy against
the CPU reference; on GPUs (marked ``gpu``), 1 GPU always and 2 where two are visible, exact."""
import numpy as np
import pytest

from apsp_kernels import reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G
from apsp_kernels.algorithms.gpu.fw_nthu import padded_size
from apsp_kernels.algorithms.gpu.multi import schedule as S
from apsp_kernels.algorithms.gpu.multi.simulate import simulate

RANKS = (1, 2, 4, 8)


def test_registry_entry():
    m = registry.get("nthu_multi")
    assert m.variants == S.SYNC_DESIGNS == ("row", "rowcol", "whole") and m.variant_param == "sync"
    assert m._kwargs("whole", {"n_gpus": 2}) == {"sync": "whole", "n_gpus": 2}


@pytest.mark.parametrize("P", RANKS + (3,))
@pytest.mark.parametrize("K", (1, 5, 8, 94, 1025))
def test_partition_is_contiguous_complete_and_balanced(K, P):
    parts = S.partition(K, P)
    assert [p.rank for p in parts] == list(range(P))
    assert parts[0].first == 0 and parts[-1].stop == K
    assert all(a.stop == b.first for a, b in zip(parts, parts[1:]))
    assert max(p.count for p in parts) - min(p.count for p in parts) <= 1
    assert all(S.owner(b, parts) == next(p.rank for p in parts if p.first <= b < p.stop) for b in range(K))


def test_seeds_bytes_per_round():
    """The seed's stage table at 6000 vertices and bs 64 (N_ext = 6016): 144.77 MB, 3.0802 MB, 1.5401 MB."""
    N = padded_size(6000, 64)
    assert N == 6016
    assert S.payload_bytes("whole", 64, N) == 144_769_024
    assert S.payload_bytes("rowcol", 64, N) == 3_080_192
    assert S.payload_bytes("row", 64, N) == 1_540_096


@pytest.mark.parametrize("P", RANKS)
def test_dry_run_of_the_schedule(P):
    """Who sends what each round, and the bytes every rank receives, for each design."""
    n, bs = 32768, 32
    N = padded_size(n, bs)
    K = N // bs
    parts = S.partition(K, P)
    for r in (0, K // 2, K - 1):
        row = S.round_transfers(r, parts, "row")
        assert row == [S.Transfer(S.owner(r, parts), "rows", r, 1)]
        rowcol = S.round_transfers(r, parts, "rowcol")
        assert rowcol[0] == row[0] and [t.root for t in rowcol[1:]] == [p.rank for p in parts if p.count]
        assert sum(t.count for t in rowcol[1:]) == K and all(t.column == r for t in rowcol[1:])
        whole = S.round_transfers(r, parts, "whole")
        assert sum(t.nbytes(bs, N) for t in whole) == S.payload_bytes("whole", bs, N)
    for sync in S.SYNC_DESIGNS:
        rows = S.plan(n, bs, P, sync)
        assert [r["block_rows"] for r in rows] == [p.count for p in parts]
        assert sum(r["phase3_blocks"] for r in rows) == K ** 3            # every block, every round, once
        total = sum(r["received_bytes"] for r in rows)
        if P == 1:
            assert total == 0
        elif sync == "row":          # every rank but the owner receives each pivot row
            assert total == K * (P - 1) * bs * N * 4
        elif sync == "whole":        # every rank receives all rows but its own
            assert total == K * (P - 1) * N * N * 4
        assert sum(r["sent_bytes"] for r in rows) * (P - 1) == total


def test_dry_run_covers_every_rank_count_and_design():
    rows = S.dry_run(16384, 32)
    assert {(r["ranks"], r["sync"]) for r in rows} == {(P, s) for P in RANKS for s in S.SYNC_DESIGNS}
    assert len(rows) == sum(RANKS) * len(S.SYNC_DESIGNS)


@pytest.mark.parametrize("sync", S.SYNC_DESIGNS)
@pytest.mark.parametrize("P", (1, 2, 3, 4, 8))
@pytest.mark.parametrize("n, bs, negative", [(50, 8, False), (64, 8, True), (33, 16, True), (1, 8, False)])
def test_simulated_ranks_match_the_cpu_reference(n, bs, negative, P, sync):
    """P = 8 at n = 50, bs 8 gives 7 block rows: a rank with none still takes part."""
    g = G.kemp(n, 0, 4, 0, 100, seed=n)
    if negative and g.m:
        g = G.with_potential(g, scale=40, seed=n)
    d, same = simulate(g, bs, P, sync)
    assert same
    np.testing.assert_array_equal(d, reference_apsp(g))


def test_a_broken_schedule_fails_the_simulation():
    """The simulation has teeth: without broadcasts, or without the pivot row, ranks go wrong."""
    g = G.kemp(64, seed=1)
    ref = reference_apsp(g)
    d, _ = simulate(g, 8, 2, "row", transfers=lambda r, parts, sync: [])
    assert not np.array_equal(d, ref)
    no_row = lambda r, parts, sync: [t for t in S.round_transfers(r, parts, "rowcol") if t.kind != "rows"]
    d, _ = simulate(g, 8, 2, "rowcol", transfers=no_row)
    assert not np.array_equal(d, ref)


def test_the_pivot_column_is_stale_without_its_broadcast():
    """Why the 3rd design works: a rank's phase 2 updates the pivot column from stale blocks of
    rows it does not own; phase 3 reads only its own rows' part.  Show the staleness exists."""
    from apsp_kernels.algorithms.gpu.multi import simulate as sim
    g = G.kemp(64, seed=2)
    bs, P = 8, 2
    N = padded_size(g.n, bs)
    parts = S.partition(N // bs, P)
    stale = []
    mats = [g.to_dense(pad_to=N) for _ in range(P)]
    for r in range(N // bs):
        sim.apply_transfers(mats, S.round_transfers(r, parts, "row"), bs)
        for p in parts:
            sim.phase1(mats[p.rank], r, bs)
            sim.phase2(mats[p.rank], r, bs)
            sim.phase3(mats[p.rank], r, bs, p.first, p.count)
        c = slice(r * bs, (r + 1) * bs)
        stale.append(not np.array_equal(mats[0][:, c], mats[1][:, c]))
    assert any(stale)


def test_plan_command_is_a_dry_run_for_4_and_8_gpus(capsys):
    """The dry run on the CPU: ``python -m apsp_kernels.multi_gpu plan``."""
    from apsp_kernels.multi_gpu import main
    assert main(["plan", "--n", "65536", "--gpus", "4", "8", "--syncs", "row", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "N_ext = 65568, K = 2049 rounds" in out and "17.2 GB per GPU" in out
    assert "P=4 row: round 0: rank 0 -> all: block rows 0..0, 8392704 bytes" in out
    assert "P=8 row: round 0" in out and out.count("\n") > 12


def test_simulate_command_runs_the_schedule_for_4_and_8_ranks(capsys):
    from apsp_kernels.multi_gpu import main
    assert main(["simulate", "--n", "70", "--gpus", "4", "8"]) == 0
    out = capsys.readouterr().out
    assert out.count("exact") == 6 and "WRONG" not in out


def test_device_bytes():
    assert S.device_bytes("row", 32, padded_size(131072, 32)) == 131104 ** 2 * 4      # 68.8 GB: fits an H200
    assert S.device_bytes("rowcol", 32, 64) == 64 * 64 * 4 + 64 * 32 * 4


# ------------------------------------------------------------------------------------ GPU
def _gpus():
    try:
        import cupy as cp
        return cp.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


def _nccl():
    try:
        from cupy.cuda import nccl
        return bool(getattr(nccl, "available", True))
    except Exception:
        return False


two_gpus = pytest.mark.skipif(_gpus() < 2, reason="needs 2 GPUs (NCCL: one rank per GPU)")
needs_nccl = pytest.mark.skipif(not _nccl(), reason="CuPy has no NCCL (cupy.cuda.nccl)")


@pytest.mark.gpu
@pytest.mark.parametrize("sync", S.SYNC_DESIGNS)
@pytest.mark.parametrize("n", (1, 33, 100, 700))
def test_one_gpu_equals_the_single_gpu_blocked_fw(sync, n):
    g = G.kemp(n, 0, 4, 0, 100, seed=n)
    d, t = registry.get("nthu_multi").run(g, variant=sync)
    single, _ = registry.get("nthu_blocked").run(g)
    np.testing.assert_array_equal(d, single)
    np.testing.assert_array_equal(d, reference_apsp(g))
    assert t["n_gpus"] == 1 and t["nccl"] is False and t["received_bytes"] == 0


@pytest.mark.gpu
@needs_nccl
@pytest.mark.parametrize("sync", S.SYNC_DESIGNS)
def test_one_gpu_through_nccl(sync):
    """Every broadcast of the schedule through a one-rank communicator: the NCCL calls (group,
    bcast, streams, the column packing) run on a one-GPU machine."""
    g = G.with_potential(G.kemp(300, seed=4), scale=40, seed=4)
    d, t = registry.get("nthu_multi").run(g, variant=sync, use_nccl=True, kernel="b16-int-select")
    np.testing.assert_array_equal(d, reference_apsp(g))
    assert t["nccl"] is True


TWO_GPU_TIMEOUT_S = 180      # each 2-GPU test starts its ranks once (seconds); a stall fails here, with the rank


@pytest.mark.gpu
@two_gpus
@needs_nccl
def test_two_gpus_equal_one():
    """18 small solves on one start of two ranks: n = 1 leaves rank 1 without block rows (K = 1),
    n = 40 gives each rank one (K = 2 at bs 32 and 64), n = 300 several; every design, two kernels;
    negative weights where n is even."""
    from apsp_kernels.algorithms.gpu.multi import launch, rank
    cases = []
    for n in (1, 40, 300):
        g = G.kemp(n, 0, 4, 0, 100, seed=n)
        if n % 2 == 0 and g.m:
            g = G.with_potential(g, scale=40, seed=n)
        cases += [(g, kernel, sync) for kernel in ("b32-dim3-branch", "b64-int-select") for sync in S.SYNC_DESIGNS]
    ranks = launch.spawn(2, rank.solve_each, (cases,), timeout_s=TWO_GPU_TIMEOUT_S)
    for (g, kernel, sync), info, other in zip(cases, ranks[0], ranks[1]):
        single, _ = registry.get("nthu_blocked").run(g, variant=kernel)
        np.testing.assert_array_equal(info["distances"], single, err_msg=f"n={g.n} {kernel} {sync}")
        np.testing.assert_array_equal(info["distances"], reference_apsp(g))
        assert info["n_gpus"] == 2 and info["nccl"] is True and "distances" not in other


@pytest.mark.gpu
@two_gpus
@needs_nccl
def test_registry_launcher_on_two_gpus():
    """The launcher the registry runs: two rank processes, this one coordinating."""
    g = G.with_potential(G.kemp(200, seed=7), scale=40, seed=7)
    d, t = registry.get("nthu_multi").run(g, variant="row", n_gpus=2, timeout_s=TWO_GPU_TIMEOUT_S)
    np.testing.assert_array_equal(d, reference_apsp(g))
    assert t["n_gpus"] == 2 and t["received_bytes"] > 0


@pytest.mark.gpu
@two_gpus
@needs_nccl
def test_two_gpu_jobs_checksum_by_block_rows():
    """The measurement path: ranks checksum their own block rows; combined they give the reference's
    Fletcher-64, and block by block they equal the one-GPU run's."""
    from apsp_kernels.algorithms.gpu.multi import launch
    from apsp_kernels.study.seeds.nthu import runs as jobs
    from apsp_kernels.core.verify import fletcher64
    todo = [jobs.job(700, s, "b32-dim3-branch") for s in S.SYNC_DESIGNS]
    one = jobs.summarise(launch.spawn(1, jobs.run_jobs, ([jobs.job(700, "row")],)))[0]
    two = jobs.summarise(launch.spawn(2, jobs.run_jobs, (todo,), timeout_s=TWO_GPU_TIMEOUT_S))
    ref = f"{fletcher64(reference_apsp(G.kemp(700, seed=700))):016x}"
    assert one["checksum"] == ref
    for rec in two:
        assert rec["checksum"] == ref and rec["block_checksums"] == one["block_checksums"]
        assert rec["comm_ms"] > 0 and rec["received_bytes"] > 0 and len(rec["per_round"]) == 2
