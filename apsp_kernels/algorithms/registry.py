"""The one registry of algorithms.  Notebooks, the CLI, the benchmark and the tests all
iterate over :data:`ALGORITHMS`; adding an algorithm is one :func:`_add` call here.  Every
launcher, CPU or GPU, returns ``(distances, timings)`` and takes its variant as one keyword.

``problem`` says what a launcher solves: ``"apsp"`` (an n x n matrix; every code of the APSP study)
or the single-source problems of seed 001, ``"bfs"`` and ``"sssp"``, whose launchers take
``sources=`` and return one row per source, shape (len(sources), n).  The APSP study's consumers
(plan, bench, CLI, auto choice, tests) ask :func:`by_device`, which lists APSP codes unless told
otherwise, so a single-source code never enters an APSP comparison."""
from __future__ import annotations

import functools

from ..core.distances import minplus_steps
from ..core.graph import round_up
from ..gpu_device import MEMORY_MODES as MODES      # the host memory modes the GPU buffers implement
from . import cpu
from .algorithm import Algorithm
from . import gpu as gpu_codes   # imports no CuPy: each launcher does, when called
from .gpu.fw_nthu import VARIANTS as NTHU_VARIANTS
from .gpu import multi as multi_codes
from .gpu.multi import SYNC_DESIGNS
from .gpu.multi import sources as multi_sources
from .gpu import tuned
from .gpu.tuned import fw as tuned_fw_mod, sparse as tuned_sparse_mod, stream as tuned_stream_mod
from .gpu.tuned import deep as tuned_deep_mod
from .gpu.tuned import frontier as tuned_frontier_mod
from .gpu.tuned import elimination as tuned_elimination_mod
from .gpu.tuned import ooc as tuned_ooc_mod, ooc_plan as tuned_ooc_plan


ALGORITHMS: dict[str, Algorithm] = {}


def _add(**kw):
    a = Algorithm(**kw)
    ALGORITHMS[a.name] = a
    return a


def _dense_bytes(count, multiple=1):
    return lambda n, m: count * round_up(max(n, 1), multiple) ** 2 * 4


def _cpu(solver, **fixed):
    """A CPU solver as a launcher: ``(distances, timings)`` like the GPU launchers.  A CPU solve
    has no kernel time of its own: the harness's wall clock is all of it, so timings is empty."""
    @functools.wraps(solver)
    def launch(graph, **kw):
        return solver(graph, **fixed, **kw), {}
    return launch


def ooc_budget(n, block, rows_per_part):
    """Device bytes that give Kemp's out-of-core KK partitions of ``rows_per_part`` block rows:
    two strips for the pivot row and column, and the partition (its launcher's budget rule)."""
    size = round_up(max(n, 1), block)
    return int((2 + rows_per_part) * block * size * 4)


def rows_for_partitions(n, block, partitions):
    """Block rows per partition that split an n-vertex graph into ``partitions`` parts."""
    nb = -(-max(n, 1) // block)
    return -(-nb // partitions)

# ------------------------------------------------------------------ CPU baselines
_add(name="fw_sequential", label="Sequential FW (CPU, 1 thread)", paper="Floyd 1962; Kemp Alg. 4",
     kemp_algorithm="4", device="cpu", representation="dense", footprint=_dense_bytes(1),
     launcher=_cpu(cpu.fw_sequential), notes="the baseline of the papers' speed-ups",
     sampler=cpu.sample_fw_sequential, sample_unit="pivot k (one n^2 pass)")
_add(name="fw_blocked", label="Blocked FW, Alg. 8 as written (CPU, 1 thread)",
     paper="Venkataraman et al. 2003; Kemp Alg. 8", kemp_algorithm="8", device="cpu", representation="dense",
     footprint=_dense_bytes(1), launcher=_cpu(cpu.fw_blocked), variants=(64, 32, 128),
     sampler=cpu.sample_fw_blocked, sample_unit="round (n^2 B relaxations)",
     notes="scalar, as Kemp's build: the divisor of the 'over blocked FW' claims")
_add(name="fw_blocked_vec", label="Blocked FW, vectorised (CPU, 1 thread)",
     paper="Venkataraman et al. 2003, pivot row buffered (this study)", kemp_algorithm=None, device="cpu",
     representation="dense", footprint=_dense_bytes(1), launcher=_cpu(cpu.fw_blocked_vec), variants=(64, 32, 128),
     faithful=False, sampler=cpu.sample_fw_blocked_vec, sample_unit="round (n^2 B relaxations)",
     notes="the best single-thread CPU code here")
_add(name="fw_blocked_parallel", label="Blocked FW (CPU, all cores)", paper="this study (best CPU code)",
     kemp_algorithm=None, device="cpu", representation="dense", footprint=_dense_bytes(1),
     launcher=_cpu(cpu.fw_blocked_parallel), variants=(64, 32, 128), faithful=False, multithreaded=True,
     sampler=cpu.sample_fw_blocked_parallel, sample_unit="round (n^2 B relaxations)", auto_rank=7, best_cpu=True)
_add(name="minplus_cpu", label="Min-plus squaring (CPU, 1 thread)", paper="Tran 2010's O(n^3 log n) baseline",
     kemp_algorithm=None, device="cpu", representation="dense", footprint=_dense_bytes(2),
     launcher=_cpu(cpu.minplus_squaring), complexity="n^3 log n",
     sampler=cpu.sample_minplus_squaring, sample_unit="row of one squaring (n^2 work)")
_add(name="dijkstra_cpu", label="Dijkstra APSP (CPU, 1 thread)", paper="Dijkstra 1959; Kemp Alg. 5",
     kemp_algorithm="5", device="cpu", representation="csr", footprint=lambda n, m: 8 * n * n + 24 * m,
     launcher=_cpu(cpu.dijkstra_apsp), negative_weights=False, complexity="n m log n",
     sampler=cpu.sample_dijkstra_apsp, sample_unit="source")
_add(name="dijkstra_cpu_parallel", label="Dijkstra APSP (CPU, all cores)", paper="this study",
     kemp_algorithm=None, device="cpu", representation="csr", footprint=lambda n, m: 8 * n * n + 24 * m,
     launcher=_cpu(cpu.dijkstra_apsp, parallel=True), negative_weights=False, faithful=False,
     complexity="n m log n", sampler=functools.partial(cpu.sample_dijkstra_apsp, parallel=True),
     sample_unit="source", multithreaded=True, auto_rank=6, best_cpu=True)
_add(name="scipy_fw", label="scipy floyd_warshall", paper="library reference", kemp_algorithm=None,
     device="cpu", representation="dense", footprint=lambda n, m: 8 * n * n, launcher=_cpu(cpu.scipy_floyd_warshall))
_add(name="scipy_dijkstra", label="scipy dijkstra", paper="library reference", kemp_algorithm=None,
     device="cpu", representation="csr", footprint=lambda n, m: 8 * n * n, launcher=_cpu(cpu.scipy_dijkstra),
     negative_weights=False, complexity="n m log n")
# Graphs with small separators (grids, roads, geometric graphs): not a candidate for "auto" or "best CPU" until it
# has been benchmarked beside them; reachable by name.  The variant is the largest dissected region kept as one
# dense supernode (supernodes are then amalgamated up to 128).  Host bytes: the int32 result, and the factor, whose dense blocks hold each ordered pair of
# vertices at most once (so at most n^2 entries).
_add(name="elimination_cpu", label="Supernodal min-plus elimination, nested dissection (CPU, all cores)",
     paper="Sao et al. 2020 (SuperFW, PPoPP'20): supernodal APSP, our dissection and row sweeps",
     kemp_algorithm=None, device="cpu", representation="csr", footprint=lambda n, m: 8 * n * n + 40 * m,
     launcher=_cpu(cpu.elimination_apsp), variants=(32, 64, 128), variant_param="leaf", faithful=False,
     multithreaded=True, complexity="sum of supernode blocks (n^2 |separator| on grids)",
     notes="nested dissection (METIS bisections with pymetis, else BFS level structures), min-plus elimination "
           "of each supernode's dense blocks, then every row by an upward and a downward sweep of the tree")

# ------------------------------------------------------------- faithful CUDA kernels
_add(name="hochberg_naive", label="Naive CUDA FW (Hochberg)", paper="Hochberg 2012 (seed 002)",
     kemp_algorithm=None, device="gpu", representation="dense", footprint=_dense_bytes(1, 32),
     launcher=gpu_codes.hochberg_naive, memory_modes=MODES, limit_kind="bandwidth")
_add(name="tran_fw", label="Tran CUDA FW", paper="Tran 2010", kemp_algorithm="12, 13", device="gpu",
     representation="dense", footprint=_dense_bytes(2, 16), launcher=gpu_codes.tran_fw, memory_modes=MODES,
     limit_kind="bandwidth")
_add(name="tran_minplus", label="Tran CUDA min-plus APSP", paper="Tran 2010", kemp_algorithm="14, 15",
     device="gpu", representation="dense", footprint=_dense_bytes(2, 16), launcher=gpu_codes.tran_minplus,
     memory_modes=MODES, complexity="n^3 log n", limit_kind="minplus",
     work=lambda g: float(g.n) ** 3 * minplus_steps(g))
_add(name="katz_kider", label="Katz & Kider blocked FW", paper="Katz & Kider 2008", kemp_algorithm="16-18",
     device="gpu", representation="dense", footprint=_dense_bytes(1, 32), launcher=gpu_codes.katz_kider,
     variants=(16, 32), memory_modes=MODES, limit_kind="minplus", auto_rank=3)
_add(name="kemp_ooc", label="Kemp out-of-core KK", paper="Kemp 2012", kemp_algorithm="19", device="gpu",
     representation="dense", footprint=lambda n, m: 3 * 32 * round_up(max(n, 1), 32) * 4,
     launcher=gpu_codes.kemp_ooc, variants=(16, 32), limit_kind="minplus",
     forced_params=lambda n, v, rows: {"budget_bytes": ooc_budget(n, int(v), rows)},
     notes="host matrix in pinned memory; device use set by budget_bytes", auto_rank=5, roles=("out_of_core",))
_add(name="harish", label="Harish & Narayanan SSSP-APSP", paper="Harish & Narayanan 2007",
     kemp_algorithm="10, 11", device="gpu", representation="csr",
     footprint=lambda n, m: 4 * (n + 1 + 2 * m) + 9 * n, launcher=gpu_codes.harish,
     variants=("atomic", "corrected", "original"), negative_weights=False, complexity="n m (sweeps)",
     variant_param="variant", inexact_variants=("original",), limit_kind="bandwidth", work=lambda g: float(g.n) * g.m,
     notes="'original' keeps seed 001's race on U_a: it may return wrong distances")
_add(name="hochberg_align", label="Naive CUDA FW (Hochberg) as fw.c runs it: N x Na, Na % alignment",
     paper="Hochberg 2012 (seed 002), fw.c and fwHelpers.h", kemp_algorithm=None, device="gpu", representation="dense",
     footprint=lambda n, m: n * round_up(max(n, 1), 64) * 4, launcher=gpu_codes.hochberg_align, variants=(64, 32),
     variant_param="alignment", limit_kind="bandwidth", exploration=True,
     notes="the kernel of hochberg_naive.cu; Na a multiple of 64 (fwHelpers.h, his printout) or 32 (his text)")
_add(name="hochberg_explore", label="Hochberg's explorations (Sec. 2.4), one change each",
     paper="Hochberg 2012 (seed 002), Sec. 2.4", kemp_algorithm=None, device="gpu", representation="dense",
     footprint=lambda n, m: 2 * n * round_up(max(n, 1), 256) * 4, launcher=gpu_codes.hochberg_explore,
     variants=("unpadded", "pitch", "columns", "nosync", "next_hop"), variant_param="variant",
     inexact_variants=("nosync",), faithful=False, limit_kind="bandwidth", exploration=True,
     notes="from hochberg_align/32: Na = N; cudaMallocPitch; column blocks; no __syncthreads() (may be "
           "wrong: a read of shared memory before it is written); the next-vertex matrix too")
_add(name="thrust_fw", label="Thrust-style FW", paper="Sing et al. (seed 003)", kemp_algorithm=None,
     device="gpu", representation="dense", footprint=_dense_bytes(2), launcher=gpu_codes.thrust_fw,
     memory_modes=MODES, limit_kind="bandwidth")

# seed 004 (NTHU): a variant is b<bs>-<dim3|int>-<branch|select> (text, so that a results CSV keeps all three)
_add(name="nthu_blocked", label="NTHU blocked FW", paper="NTHU HW4, Blocked APSP (seed 004)", kemp_algorithm=None,
     device="gpu", representation="dense", footprint=lambda n, m: 4 * (max(n, 1) + 64) ** 2,
     launcher=gpu_codes.nthu_blocked, variants=NTHU_VARIANTS, variant_param="variant", limit_kind="minplus",
     notes="N_ext = N + (bs - N mod bs), as the seed pads; per-phase times (phase1_ms .. phase3_ms)")
_add(name="nthu_multi", label="NTHU multi-GPU blocked FW (NCCL)", paper="NTHU HW4, Multi-GPU (seed 004)",
     kemp_algorithm=None, device="gpu", representation="dense", footprint=lambda n, m: 4 * (max(n, 1) + 64) ** 2,
     launcher=gpu_codes.nthu_multi, variants=SYNC_DESIGNS, variant_param="sync", limit_kind="minplus",
     notes="variants are the seed's synchronisation designs (3rd, 2nd, 1st); n_gpus=P > 1 spawns P processes "
           "(this one coordinates, with a deadline), the whole matrix on every GPU; kernel=<NTHU variant>")
# ----------------------------------------- seed 001 (IIT Kharagpur): BFS, SSSP, its naive FW
# The single-source codes (problem "bfs"/"sssp") take sources=... and return one row per source;
# by_device() leaves them out, so the APSP study never meets them.  Its APSP by repeated SSSP
# (Alg. 13) is "harish" above (variants "corrected" and "original": the same kernels).
SEED001 = "IIT Kharagpur (seed 001)"
_csr_bytes = lambda n, m, weighted: 4 * (n + 1 + m * (2 if weighted else 1))
_add(name="iitkgp_naive_fw", label="Naive CUDA FW, Alg. 14 (IIT Kharagpur)", paper=f"{SEED001}, Alg. 14",
     kemp_algorithm=None, device="gpu", representation="dense", footprint=_dense_bytes(1),
     launcher=gpu_codes.iitkgp_naive_fw, memory_modes=MODES, limit_kind="bandwidth",
     notes="in place, one thread per (u, v), no shared memory; not Hochberg's naive kernel")
_add(name="bfs_cpu", label="Sequential queue BFS (CPU, 1 thread)", paper=f"{SEED001}, §3 baseline",
     kemp_algorithm=None, device="cpu", representation="csr", problem="bfs",
     footprint=lambda n, m: _csr_bytes(n, m, False) + 8 * n, launcher=_cpu(cpu.bfs_levels),
     complexity="n + m per source", work=lambda g: float(g.m), notes="the seed's was C++ (STL)")
_add(name="parallel_bfs", label="parallelBFS, Algs. 1-2 (GPU)", paper=f"{SEED001}, Algs. 1-2",
     kemp_algorithm=None, device="gpu", representation="csr", problem="bfs",
     footprint=lambda n, m: _csr_bytes(n, m, False) + 8 * n + 8, launcher=gpu_codes.parallel_bfs,
     complexity="n x levels + m per source", limit_kind="bandwidth", work=lambda g: float(g.m))
_add(name="queue_bfs", label="queueBFS, Algs. 3-4 (GPU)", paper=f"{SEED001}, Algs. 3-4",
     kemp_algorithm=None, device="gpu", representation="csr", problem="bfs",
     footprint=lambda n, m: _csr_bytes(n, m, False) + 16 * n + 4, launcher=gpu_codes.queue_bfs,
     complexity="n + m per source", limit_kind="bandwidth", work=lambda g: float(g.m))
_add(name="scan_bfs", label="scanBFS, §3.3 Algs. 5-9 (GPU)", paper=f"{SEED001}, §3.3, Algs. 5-9",
     kemp_algorithm=None, device="gpu", representation="csr", problem="bfs",
     footprint=lambda n, m: _csr_bytes(n, m, False) + 24 * n, launcher=gpu_codes.scan_bfs,
     complexity="n + m per source", limit_kind="bandwidth", work=lambda g: float(g.m),
     notes="the prefix scan is CuPy's cumsum, not the seed's Alg. 8")
_add(name="dijkstra_sssp_cpu", label="Dijkstra SSSP, binary heap (CPU, 1 thread)",
     paper=f"Dijkstra 1959; {SEED001}, §4 baseline", kemp_algorithm=None, device="cpu", representation="csr",
     problem="sssp", footprint=lambda n, m: _csr_bytes(n, m, True) + 16 * n + 12 * (m + 1),
     launcher=_cpu(cpu.dijkstra_sssp), negative_weights=False, complexity="m log n per source",
     work=lambda g: float(g.m), notes="the APSP Dijkstra's compiled code from the given sources; "
     "the seed's was C++ (STL priority queue)")
_add(name="harish_sssp", label="Harish SSSP, Algs. 10-12 (GPU)", paper=f"Harish & Narayanan 2007; {SEED001}, Algs. 10-12",
     kemp_algorithm="10, 11", device="gpu", representation="csr", problem="sssp",
     footprint=lambda n, m: _csr_bytes(n, m, True) + 9 * n + 4, launcher=gpu_codes.harish_sssp,
     variants=("corrected", "original"), variant_param="variant", inexact_variants=("original",),
     negative_weights=False, complexity="m per sweep", limit_kind="bandwidth", work=lambda g: float(g.m),
     notes="'original' keeps the race on U_a (§4.2): it may return wrong distances")
_add(name="harish_sssp_coarsened", label="Harish SSSP, thread coarsening (GPU)", paper=f"{SEED001}, §4.3",
     kemp_algorithm=None, device="gpu", representation="csr", problem="sssp",
     footprint=lambda n, m: _csr_bytes(n, m, True) + 9 * n + 4, launcher=gpu_codes.harish_sssp_coarsened,
     variants=(1, 2, 4, 8, 16), variant_param="coarsen", negative_weights=False, complexity="m per sweep",
     limit_kind="bandwidth", work=lambda g: float(g.m),
     notes="the corrected kernels, each thread doing the work of 'coarsen' consecutive threads")

# ------------------------------------------- the 2026 line: tuned, not faithful
# Each beside the faithful codes, never replacing one.  Their auto_rank (the fallback order where no
# benchmark rows exist; shortest_paths(method="auto") ranks by the times costs.py predicts from the rows)
# since the H100 benchmarks of 2026-11-24 and -25 verified and timed them; tuned_fw_stream never (a ceiling,
# not a solver anyone should pick).  They enter no campaign plan (data/sweeps/kemp.yaml names its codes).
TUNED = "this study (the tuned line: written for the H100 today; not a paper kernel)"
_add(name="tuned_fw", label="Tuned blocked FW (register-tiled min-plus, B = 128)", paper=TUNED,
     kemp_algorithm=None, device="gpu", representation="dense", footprint=tuned_fw_mod.footprint,
     launcher=tuned.tuned_fw, resident=tuned_fw_mod.tuned_fw_resident, faithful=False, limit_kind="minplus", auto_rank=1,
     float32=True, roles=("auto_deep_denser",),
     notes="phase 3 a 128 x 128 register-tiled min-plus product (8 x 8 cells a thread, cp.async double "
           "buffers, VIADDMNMX); phase 2 as products with the pivot's closure; n padded to 128; "
           "phases=True adds per-phase times; dtype float32 for float weights (fminf: no DPX for floats)")
_add(name="tuned_fw_ooc", label="Tuned out-of-core blocked FW (super-blocks streamed, copies overlapped)",
     paper=TUNED, kemp_algorithm=None, device="gpu", representation="dense", footprint=tuned_ooc_mod.footprint,
     launcher=tuned.tuned_fw_ooc, variants=(tuned_ooc_plan.BLOCK,), faithful=False, limit_kind="minplus", auto_rank=4,
     forced_params=lambda n, v, rows: {"budget_bytes": tuned_ooc_plan.budget_for(n, rows * int(v)),
                                       "super_block": rows * int(v)},
     notes="host matrix in pinned memory; super-blocks of S (the largest budget_bytes allows) through the "
           "device: pivot super-row closed by tuned_fw's kernels, products with the closure, every other "
           "super-block a min-plus product K = S deep, copies on their own streams behind the products; "
           "footprint = the smallest budget (S = 128); the one variant is tuned_fw's B = 128, the unit of "
           "forced_params' block rows")
_add(name="tuned_fw_stream", label="One-k-per-launch FW: int4 kernel, or the three CuPy lines", paper=TUNED,
     kemp_algorithm=None, device="gpu", representation="dense", footprint=tuned_stream_mod.footprint,
     launcher=tuned.tuned_fw_stream, variants=tuned_stream_mod.VARIANTS, variant_param="variant",
     faithful=False, limit_kind="bandwidth",
     notes="int4: 16-byte loads and stores, 4 cells a thread, one launch per k; cupy: "
           + tuned_stream_mod.CUPY_FW + " (what a user writes; the benchmark's comparison row)")
_add(name="tuned_sparse", label="Tuned sparse APSP (batched multi-target Bellman-Ford)", paper=TUNED,
     kemp_algorithm=None, device="gpu", representation="csr", footprint=tuned_sparse_mod.footprint,
     launcher=tuned.tuned_sparse, resident=tuned_sparse_mod.tuned_sparse_resident, variants=tuned_sparse_mod.BATCHES,
     variant_param="batch", roles=("auto_sweeps",),
     negative_weights=False, faithful=False, complexity="n m (frontier sweeps)", limit_kind="bandwidth", auto_rank=2,
     work=lambda g: float(g.n) * g.m, hub_ms=tuned_sparse_mod.hub_ms,
     notes="S targets a batch (the variant), a warp per vertex pulling its out-neighbours' S-column segments "
           "(int4), vertex frontier, in place; work counted as n m like Harish's")
_add(name="tuned_frontier", label="Tuned sparse APSP (a block per source, frontier bitmap, rounds inside the block)",
     paper=TUNED, kemp_algorithm=None, device="gpu", representation="csr", footprint=tuned_frontier_mod.footprint,
     launcher=tuned.tuned_frontier, resident=tuned_frontier_mod.tuned_frontier_resident, negative_weights=False,
     faithful=False, complexity="n m (frontier rounds)", auto_rank=8, float32=True, roles=("auto_frontier",),
     limit_kind="bandwidth", work=lambda g: float(g.n) * g.m, hub_ms=tuned_frontier_mod.hub_ms,
     notes="one block of 128 threads per source, the output row its distances (atomicMin), the frontier two "
           "bitmaps in shared memory, every round inside the block (no launch per round: depth costs rounds of "
           "a block, not launches); sources= for some rows; dtype float32 for float weights; work n m like Harish's")
# For deep, thin graphs (paths, rings, long tails), where tuned_frontier's rounds are block barriers: not ranked by
# the cost model; auto runs it in tuned_frontier's place on deep graphs, and in any in-core GPU code's place where a
# source reaches few vertices (deep_choice.py, role auto_deep_graphs).
_add(name="tuned_deep", label="Tuned sparse APSP for deep graphs (a warp per source, frontier queue, rounds in the warp)",
     paper=TUNED, kemp_algorithm=None, device="gpu", representation="csr", footprint=tuned_deep_mod.footprint,
     launcher=tuned.tuned_deep, resident=tuned_deep_mod.tuned_deep_resident, negative_weights=False,
     roles=("auto_deep_graphs",),
     faithful=False, complexity="n m (frontier rounds)", float32=True,
     limit_kind="bandwidth", work=lambda g: float(g.n) * g.m,
     notes="one warp per source (up to 8 a block), the output row its distances (atomicMin), the frontier a queue "
           "of 64 vertices in shared memory with a bitmap behind it for wider rounds, every round inside the warp "
           "(__syncwarp only, no block barrier); sources= for some rows; dtype float32 for float weights; work n m "
           "like Harish's")

# The GPU port of elimination_cpu (docs/elimination.md): not ranked by the cost model (its time is its host ordering's
# and the result's, not a rate of n m); auto hands it a graph in tuned_frontier's place (or tuned_deep's, on deep
# graphs) where the recorded crossing and the graph's separators say so (elimination_choice.py, role
# auto_small_separators).  Device bytes: the vertex-major result beside the factor
# (every ordered pair at most once: n^2 int32 at most), then, the factor freed, beside the permuted result.
_add(name="tuned_elimination", label="Tuned supernodal min-plus elimination (nested dissection, grouped products)",
     paper="Sao et al. 2020 (SuperFW, PPoPP'20): supernodal APSP, our dissection and row sweeps, on the GPU",
     kemp_algorithm=None, device="gpu", representation="csr", footprint=tuned_elimination_mod.footprint,
     launcher=tuned.tuned_elimination, resident=tuned_elimination_mod.tuned_elimination_resident,
     variants=tuned_elimination_mod.LEAVES, variant_param="leaf", faithful=False, roles=("auto_small_separators",),
     complexity="sum of supernode blocks (n^2 |separator| on grids)", limit_kind="minplus",
     notes="host: nested dissection and symbolic phase of elimination_cpu on the reversed graph; device: closure, "
           "panels and Schur (atomicMin into the ancestors) one launch per tree level, then the upward and "
           "downward sweeps as grouped min-plus products on tuned_fw's register tiling (128 x 128, 64 x 256 or "
           "32 x 512 tiles by the supernode's size), B rows gathered by cp.async; int32; sources= for some rows; "
           "the resident form permutes the result into vertex order on the device (shortest_paths: device=True "
           "leaves it there, the host result is one copy through pinned staging)")

# ------------------------------------------- the tuned line over the GPUs of one host
# One process per GPU, the result in one shared host block (gpu/multi/host_rows.py); footprint_per_gpu(n, m, k) is
# what each of k GPUs holds, footprint that of one GPU.  Not in by_device() (the one-GPU sweeps: benchmark, tests,
# reports), nor auto candidates: shortest_paths(devices=k) runs them, its 'auto' by roles multi_gpu_dense and
# multi_gpu_sparse (scipy's density rule; no benchmark rows yet).
_add(name="tuned_fw_multi", label="Tuned blocked FW over the GPUs of one host (block rows split, pivot row over NCCL)",
     paper=TUNED, kemp_algorithm=None, device="gpu", representation="dense",
     footprint=lambda n, m: multi_codes.tuned_fw_footprint(n, m, 1), footprint_per_gpu=multi_codes.tuned_fw_footprint,
     launcher=multi_codes.tuned_fw_multi, faithful=False, limit_kind="minplus", roles=("multi_gpu_dense",),
     notes="tuned_fw's kernels; n padded to 128, the block rows split across n_gpus ranks (None: every GPU of the "
           "host), each round's pivot block row broadcast from its owner over NCCL; every rank writes its finished "
           "rows into one shared host result")
_add(name="tuned_frontier_multi", label="Tuned frontier sparse APSP, the sources split over the GPUs of one host",
     paper=TUNED, kemp_algorithm=None, device="gpu", representation="csr",
     footprint=lambda n, m: multi_sources.footprint("tuned_frontier", n, m, 1),
     footprint_per_gpu=functools.partial(multi_sources.footprint, "tuned_frontier"),
     launcher=multi_sources.tuned_frontier_multi, negative_weights=False, faithful=False,
     complexity="n m (frontier rounds)", limit_kind="bandwidth", work=lambda g: float(g.n) * g.m,
     roles=("multi_gpu_sparse",),
     notes="tuned_frontier on each GPU over a contiguous chunk of the sources (sources= for some rows), its rows "
           "streamed into one shared host result; no NCCL (no rank needs another's rows)")
_add(name="tuned_sparse_multi", label="Tuned sparse APSP (batched Bellman-Ford), the sources split over the GPUs of one host",
     paper=TUNED, kemp_algorithm=None, device="gpu", representation="csr",
     footprint=lambda n, m: multi_sources.footprint("tuned_sparse", n, m, 1),
     footprint_per_gpu=functools.partial(multi_sources.footprint, "tuned_sparse"),
     launcher=multi_sources.tuned_sparse_multi, negative_weights=False, faithful=False,
     complexity="n m (frontier sweeps)", limit_kind="bandwidth", work=lambda g: float(g.n) * g.m,
     notes="tuned_sparse's sweeps on the reversed graph over the target batches that hold a GPU's chunk of the "
           "sources (a column there is a row here), the whole n x N matrix on every GPU; rows into one shared "
           "host result; no NCCL")

PROBLEMS = ("apsp", "bfs", "sssp")
# The CPU code each single-source problem's GPU results are checked against (tests, sanitizer)
REFERENCES = {"bfs": "bfs_cpu", "sssp": "dijkstra_sssp_cpu"}


def get(name) -> Algorithm:
    if name not in ALGORITHMS:
        raise KeyError(f"unknown algorithm {name!r}; known: {', '.join(ALGORITHMS)}")
    return ALGORITHMS[name]


def by_role(role) -> Algorithm:
    """The one algorithm that plays ``role`` (:attr:`Algorithm.roles`)."""
    found = [a for a in ALGORITHMS.values() if role in a.roles]
    if len(found) != 1:
        raise LookupError(f"role {role!r} is played by {len(found)} algorithms "
                          f"({', '.join(a.name for a in found) or 'none'}); exactly one must")
    return found[0]


def auto_candidates():
    """The codes shortest_paths(method="auto") may choose, in their fallback order (``api.choose`` ranks
    them by the time predicted from benchmark rows first): the tuned dense and sparse codes, Katz & Kider,
    the out-of-core codes, then on the CPU the all-core Dijkstra and the all-core blocked FW (negative
    edges)."""
    return sorted((a for a in ALGORITHMS.values() if a.auto_rank is not None), key=lambda a: a.auto_rank)


def best_cpu_candidates():
    """The all-core CPU codes among which the fastest at each n is 'the best CPU code we have'."""
    return tuple(a.name for a in ALGORITHMS.values() if a.best_cpu)


def by_device(device, problem="apsp"):
    """The codes of one device that solve ``problem`` (all-pairs unless asked otherwise), each on one device: the
    multi-GPU codes (:func:`multi_gpu`) are left out."""
    return [a for a in ALGORITHMS.values() if a.device == device and a.problem == problem and not a.multi_gpu]


def multi_gpu():
    """The codes that split one solve over the GPUs of a host (``footprint_per_gpu``): what
    ``shortest_paths(devices=k)`` runs."""
    return [a for a in ALGORITHMS.values() if a.multi_gpu]


def by_problem(problem, device=None):
    """The codes that solve ``problem`` ("apsp", "bfs" or "sssp"), of one device or both."""
    if problem not in PROBLEMS:
        raise ValueError(f"unknown problem {problem!r}; one of {PROBLEMS}")
    return [a for a in ALGORITHMS.values() if a.problem == problem and device in (None, a.device)]
