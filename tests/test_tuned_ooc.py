"""tuned_fw_ooc without a GPU: the plan (super-blocks within the budget, the refusal of a budget too
small), the schedule (no two steps touching one element unordered; a removed wait is caught), the same
steps run by a numpy model in random orders the streams and waits allow (exact against the reference on
awkward sizes and kinds, many super-blocks, unequal last ones, one tile buffer or several), and the
kernels themselves (tfo_product, tfo_transpose, the closure) on the CPU emulation, alone and running a
whole schedule.  tests/test_tuned_ooc_launcher.py runs the launcher itself on those emulated kernels,
tests/test_tuned_ooc_gpu.py on the device."""
import ctypes
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import emulation

from apsp_kernels import Graph, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G
from apsp_kernels.algorithms.gpu.tuned import ooc, ooc_plan as op, ooc_steps as steps_mod
from apsp_kernels.core.distances import NegativeCycleError, finish
from apsp_kernels.gpu_device import GPUMemoryError
from apsp_kernels.algorithms.gpu.runtime import CUDA_DIR, compile_options

import ooc_model
from tuned_graphs import kinds

GiB, MiB = 1 << 30, 1 << 20


def solve(g, S=None, budget=None, seed=None, ops=None, **kw):
    """The launcher's path with the model in place of the device: plan, schedule, execute, finish."""
    p = op.plan(g.n, budget if budget is not None else op.budget_for(g.n, S or 128, kw.get("buffers", op.BUFFERS)),
                max_super_block=S, **kw)
    D = g.to_dense(pad_to=p.N)
    ooc_model.execute(p, steps_mod.schedule(p), D, seed=seed, ops=ops)
    return finish(np.ascontiguousarray(D[:g.n, :g.n])), p


# ------------------------------------------------------------------------------------------ the plan
@pytest.mark.parametrize("n, budget", [(1, 1 * MiB), (300, 1 * MiB), (1000, 3 * MiB), (4096, 16 * MiB),
                                       (16384, 256 * MiB), (65536, 4 * GiB), (50000, 3 * GiB)])
def test_plan_fits_the_budget_with_the_largest_even_super_blocks(n, budget):
    p = op.plan(n, budget)
    assert p.device_bytes <= budget and p.N % 128 == 0 and p.N - 128 < max(n, 1) <= p.N
    e = p.edges
    assert e[0] == 0 and e[-1] == p.N and all(b > a and (b - a) % 128 == 0 for a, b in zip(e, e[1:]))
    assert all(p.width(i) == p.S for i in range(p.blocks - 1))        # only the last may be narrower
    if p.blocks > 1:
        biggest = max(S for S in range(128, p.N, 128) if op.device_bytes(n, S) <= budget)
        assert p.blocks == -(-p.N // biggest)                         # as few super-blocks as fit
        assert set(p.sizes) == ({"RP", "P0", "P1", "colT"} | {f"C{i}" for i in range(op.COLUMN_SLOTS)}
                                | {f"T{i}" for i in range(op.BUFFERS)})
    else:
        assert op.device_bytes(n, p.N) <= budget and set(p.sizes) == {"RP", "colT"}


def test_the_target_case_streams_a_matrix_four_times_the_budget_in_wide_super_blocks():
    """n = 65536 (16 GiB of int32) in 4 GiB: super-blocks of 8192 with the three default tile buffers (7296
    with four), where the 8 bytes a tile cell moves over PCIe per S updates (54 GB/s each way) take less
    time than the S updates (~13 T/s) -- S > ~900."""
    p = op.plan(65536, 4 * GiB)
    assert 4 * 65536 ** 2 == 4 * (4 * GiB) and p.device_bytes <= 4 * GiB
    assert p.blocks == 8 and p.S == 8192
    assert op.plan(65536, 4 * GiB, buffers=4).blocks == 9


def test_refuses_a_budget_below_the_pivot_bands_in_one_line():
    least = op.min_budget(1000)
    assert op.plan(1000, least).S == 128
    with pytest.raises(GPUMemoryError, match=r"tuned_fw_ooc: a budget of .* cannot hold the pivot bands of n = 1000"
                                             r".* raise budget_bytes") as e:
        op.plan(1000, least - 1)
    assert "\n" not in str(e.value)
    assert registry.get("tuned_fw_ooc").footprint(1000, 0) == least


def test_forced_params_stream_the_matrix_in_that_many_block_rows():
    a = registry.get("tuned_fw_ooc")
    for n, rows, blocks in ((1000, 2, 4), (1000, 3, 3), (300, 1, 3), (300, 2, 2), (100, 1, 1), (1500, 4, 3)):
        kw = a.forced_params(n, 128, rows)
        p = op.plan(n, kw["budget_bytes"], max_super_block=kw["super_block"])
        assert p.blocks == blocks and p.S <= rows * 128, (n, rows, p.edges)


def test_busy_time_is_a_union_of_intervals():
    from apsp_kernels.algorithms.gpu.tuned.ooc import _union_ms
    assert _union_ms([(0, 2), (1, 3), (5, 6), (5.5, 5.7)]) == 4 and _union_ms([]) == 0


# -------------------------------------------------------------------------------------- the schedule
PLANS = [(300, 128, 4, 2), (300, 256, 4, 2), (700, 256, 1, 1), (700, 128, 2, 3), (1000, 384, 3, 2), (129, 128, 4, 2)]


@pytest.mark.parametrize("n, S, buffers, streams", PLANS)
def test_no_two_steps_touch_one_element_unordered(n, S, buffers, streams):
    p = op.plan(n, op.budget_for(n, S, buffers), buffers, streams, max_super_block=S)
    steps = steps_mod.schedule(p)
    assert steps_mod.races(steps) == []
    for i, s in enumerate(steps):
        assert s.stream in p.streams and all(w < i and steps[w].stream != s.stream for w in s.waits)
    used = {s.stream for s in steps}
    assert used == set(p.streams) or p.blocks == 1


def test_a_removed_wait_is_a_race():
    """The check has teeth: drop the wait of each tile's write-back on its product, one at a time."""
    p = op.plan(700, op.budget_for(700, 256), max_super_block=256)
    steps = steps_mod.schedule(p)
    backs = [i for i, s in enumerate(steps) if s.kind == "copy" and s.stream == "d2h" and s.waits]
    assert len(backs) > 10
    for i in backs[::7]:
        broken = steps[:i] + [replace(steps[i], waits=())] + steps[i + 1:]
        assert steps_mod.races(broken), i


def test_overlap_is_possible():
    """While a product runs, the next tile's load and the last one's write-back are not ordered after it:
    the schedule lets them overlap (a stream waits only for what it needs)."""
    p = op.plan(2000, op.budget_for(2000, 256), max_super_block=256)
    steps = steps_mod.schedule(p)
    hb = steps_mod.happens_before(steps)
    prods = [i for i, s in enumerate(steps) if s.kind == "product"]
    i = prods[len(prods) // 2]                  # a phase-3 product in the middle of the solve
    later_loads = [j for j in range(i + 1, len(steps)) if steps[j].stream == "h2d"]
    assert later_loads and hb[later_loads[0]].get(steps[i].stream, -1) < i


# ---------------------------------------------------------------------------- the model: exact FW
@pytest.mark.parametrize("n", (1, 2, 31, 127, 129, 257, 383, 385))
@pytest.mark.parametrize("S", (128, 256))
def test_schedule_computes_exact_fw(n, S):
    for negative in (False, True):
        for label, g in kinds(n, seed=300 + n, negative=negative):
            d, p = solve(g, S=S, seed=n + S)
            np.testing.assert_array_equal(d, reference_apsp(g), err_msg=f"{label} n={n} S={S} edges={p.edges}")


@pytest.mark.parametrize("buffers, streams", [(1, 1), (2, 1), (3, 3), (6, 2)])
def test_any_buffer_and_stream_count_is_exact_in_any_order(buffers, streams):
    g = G.with_potential(G.kemp(900, 0, 5, 0, 60, seed=4), scale=30, seed=4)
    ref = reference_apsp(g)
    for seed in range(3):
        d, p = solve(g, S=128, seed=seed, buffers=buffers, compute_streams=streams)
        assert p.blocks == 8
        np.testing.assert_array_equal(d, ref)


def test_a_budget_four_times_below_the_matrix():
    """The target's shape at a size the CPU affords: n = 1500 in a quarter of its matrix's bytes."""
    g = G.kemp(1500, seed=6)
    budget = 4 * 1536 ** 2 // 4
    d, p = solve(g, budget=budget, seed=1)
    assert p.blocks > 1 and p.device_bytes <= budget
    np.testing.assert_array_equal(d, reference_apsp(g))


def test_a_negative_cycle_is_reported():
    g = Graph.from_edges(400, [0, 1, 2, 300], [1, 2, 0, 301], [1, 1, -3, 5])
    with pytest.raises(NegativeCycleError):
        solve(g, S=128, seed=2)
    g = Graph.from_edges(400, [10, 200, 390], [200, 390, 10], [2, -7, 1])     # across three super-blocks
    with pytest.raises(NegativeCycleError):
        solve(g, S=128, seed=3)


# ------------------------------------------------------------------------------- split k (k_parts)
@pytest.mark.parametrize("blocks, K, sms, parts", [
    (64, 1024, 132, 2),       # n = 8192 in a quarter budget, three buffers: S = 1024, 64 blocks a tile
    (49, 896, 132, 2),        # S = 896: 56 slabs, 2 parts of 448
    (9, 384, 132, 3),         # S = 384: at least 128 deep a part
    (16, 512, 132, 4),
    (225, 1920, 132, 1),      # S = 1920: one part already fills the SMs
    (1, 128, 132, 1),
    (64, 1024, 64, 1),        # no room for a second part
])
def test_k_parts(blocks, K, sms, parts):
    got = ooc.k_parts(blocks, K, sms)
    assert got == parts
    assert (K // 16) % got == 0 and (got == 1 or (K // got >= 128 and got * blocks <= sms))


# -------------------------------------------------------------------- the kernels, emulated on the CPU
INT = ctypes.POINTER(ctypes.c_int)


@pytest.fixture(scope="module", params=emulation.MODES)
def emu(request, tmp_path_factory):
    """tuned_ooc_harness.cpp built as tests/test_tuned_emulated.py builds its harness (cp.async copies
    performed at their wait, or at their issue)."""
    return emulation.build("tuned_ooc_harness.cpp", request.param, tmp_path_factory.mktemp("emu"), "tuned_fw_ooc's kernels")


def emulated_ops(lib, sms=4):
    """The model's ops on the emulated kernels, launched as the executor launches them; ``sms``: the SMs
    that ``ooc.k_parts`` splits k for (4: the tests' small products split too)."""
    def ptr(mem, r):
        a = mem[r.buf]
        ooc_model.view(mem, r)                    # bounds
        p = a.ctypes.data + 4 * r.offset
        assert p % 16 == 0
        return ctypes.cast(p, INT)

    def product(mem, dst, cin, a, b, parts=None):
        gx, gy = dst.cols // 128, dst.rows // 128
        if parts is None:
            parts = ooc.k_parts(gx * gy, a.rows, sms) if dst == cin else 1
        lib.emu_tfo_product(gx, gy, parts, ptr(mem, dst), dst.ld, ptr(mem, cin), cin.ld,
                            ptr(mem, a), a.ld, ptr(mem, b), b.ld, a.rows)

    def transpose(mem, src, dst):
        lib.emu_tfo_transpose(src.cols // 32, src.rows // 32, ptr(mem, dst), dst.ld, ptr(mem, src), src.ld)

    def closure(mem, m, scratch):
        assert m.ld == m.cols == m.rows and scratch.ld == m.rows
        assert lib.emu_tfo_closure(ptr(mem, m), ptr(mem, scratch), m.rows) == (m.rows // 128) * (3 if m.rows > 128 else 1)

    return {"product": product, "transpose": transpose, "closure": closure}


def test_product_and_transpose_kernels(emu, rng):
    """Operands at offsets inside wider matrices (their own row strides), in place and out of place, in
    place with k split in 2 and 3 parts (merged by atomicMin)."""
    ops, big, R = emulated_ops(emu), ooc_model.aligned, steps_mod.Region
    for K, rows, cols, inplace, parts in ((128, 128, 256, True, 1), (256, 256, 128, False, 1), (16 * 9, 128, 128, False, 1),
                                          (256, 128, 256, True, 2), (16 * 24, 128, 128, True, 3)):
        lda, ldb, ldc = rows + 256, cols + 128, cols + 384
        mem = {"A": big(K * lda), "B": big(K * ldb), "C": big(rows * ldc), "O": big(rows * ldc)}
        for k in ("A", "B", "C"):
            mem[k][...] = rng.integers(-50, 1000, mem[k].size, dtype=np.int32)
        a, b = R("A", 0, 128, K, rows, lda, ()), R("B", 0, 128, K, cols, ldb, ())
        cin = R("C", 0, 256, rows, cols, ldc, ())
        dst = cin if inplace else R("O", 0, 384 - 128, rows, cols, ldc, ())
        want = np.minimum(ooc_model.view(mem, cin),
                          (ooc_model.view(mem, a)[:, :, None] + ooc_model.view(mem, b)[:, None, :]).min(axis=0))
        before = mem[dst.buf].copy()
        ops["product"](mem, dst, cin, a, b, parts=parts)
        np.testing.assert_array_equal(ooc_model.view(mem, dst), want)
        ooc_model.view({dst.buf: before}, dst)[...] = want
        np.testing.assert_array_equal(mem[dst.buf], before)              # nothing outside the block written
    src = R("A", 128, 32, 96, 160, 512, ())
    mem = {"A": big(512 * 512), "B": big(256 * 300)}
    mem["A"][...] = rng.integers(0, 10 ** 6, mem["A"].size, dtype=np.int32)
    dst = R("B", 32, 64, 160, 96, 300, ())
    ops["transpose"](mem, src, dst)
    np.testing.assert_array_equal(ooc_model.view(mem, dst), ooc_model.view(mem, src).T)


@pytest.mark.parametrize("n, S", [(300, 128), (300, 256), (129, 128)])
def test_whole_schedule_on_the_emulated_kernels(emu, n, S):
    """The real kernels through every step kind: three super-blocks of 128, or 256 + 128 (unequal)."""
    for label, g in kinds(n, seed=800 + n, negative=True):
        if label not in ("awkward", "disconnected"):
            continue
        d, p = solve(g, S=S, seed=S, ops=emulated_ops(emu))
        assert p.blocks == -(-p.N // S)
        np.testing.assert_array_equal(d, reference_apsp(g), err_msg=f"{label} n={n} S={S}")


# ------------------------------------------------------------------------ what the compiler made of it
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not found: tuned_fw_ooc.cu's resource checks are skipped")
def test_product_compiles_like_phase3(tmp_path):
    """tfo_product is tfw_phase3's loop with its own strides and a K loop: the same resources (no spills,
    two blocks an SM) and, where cuobjdump is found, the same fused add-min (tests/test_tuned_sass.py)."""
    from test_tuned_sass import opcodes, resources, sass_of
    cubin = tmp_path / "ooc.cubin"
    r = subprocess.run([shutil.which("nvcc"), "-arch=sm_90", "-cubin", *compile_options(), "-Xptxas", "-v",
                        str(Path(CUDA_DIR) / "tuned_fw_ooc.cu"), "-o", str(cubin)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    res = resources(r.stderr + r.stdout)
    for k in ("tfo_product", "tfo_transpose"):
        assert res[k]["stack"] == res[k]["spill_stores"] == res[k]["spill_loads"] == 0, res[k]
    assert res["tfo_product"]["registers"] <= 128 and res["tfo_product"]["smem"] == 2 * 2 * 16 * 128 * 4
    ops = opcodes(sass_of(cubin, "tfo_product"))
    assert ops.count("VIADDMNMX") == 16 * 64 and not any(o.startswith(("IMNMX", "VIMNMX")) for o in ops)


def test_the_probe_splits_compute_idle_time_into_round_heads_and_rests():
    """scripts/tuned_ooc_probe.py's idle split on made-up timings of a real schedule: kernels back to back
    leave no idle time; one gap before a round's first product of the rest counts to the heads, one after it
    to the rests."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("probe", Path(__file__).parent.parent / "scripts" / "tuned_ooc_probe.py")
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    p = op.plan(1000, op.budget_for(1000, 256), max_super_block=256)
    steps = steps_mod.schedule(p)
    clock, trace = 0.0, []
    for s in steps:                      # every kernel 1 ms, one after another; copies take no time
        d = 0.0 if s.kind == "copy" else 1.0
        trace.append((s.kind, s.stream, clock, clock + d))
        clock += d
    assert probe.idle_split(trace, steps) == (0.0, 0.0)
    rest = next(i for i, s in enumerate(steps) if s.kind == "product" and s.regions[3].buf == "RP"
                and s.regions[2].buf.startswith("C"))
    gapped = [(k, st, b + (5 if i >= rest else 0) + (7 if i >= rest + 3 else 0), e + (5 if i >= rest else 0)
               + (7 if i >= rest + 3 else 0)) for i, (k, st, b, e) in enumerate(trace)]
    assert probe.idle_split(gapped, steps) == pytest.approx((5.0, 7.0))
