"""What the compiler made of the tuned kernels, for sm_90, without a GPU: the resource report (no
spills, no stack frame, registers that let two phase-3 blocks share an SM) and, where a disassembler is
found (cuobjdump on PATH, beside nvcc, or from the nvidia-cuda-cuobjdump wheel), the SASS: the add-min
fused into Hopper's DPX instruction VIADDMNMX, the phase-3 inner loop nearly nothing else, and the
16-byte accesses the kernels' headers promise."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from apsp_kernels.algorithms.gpu.runtime import CUDA_DIR, compile_options

NVCC = shutil.which("nvcc")
TUNED = ("tuned_fw.cu", "tuned_fw_stream.cu", "tuned_sparse.cu", "tuned_elimination.cu")
pytestmark = pytest.mark.skipif(NVCC is None, reason="nvcc not found: the tuned kernels' SASS checks are skipped")


def _cuobjdump():
    found = shutil.which("cuobjdump")
    if found:
        return found
    beside = Path(NVCC).resolve().parent / "cuobjdump" if NVCC else None
    if beside and beside.exists():
        return str(beside)
    try:
        import nvidia                                        # the nvidia-cuda-cuobjdump wheel
        for root in getattr(nvidia, "__path__", []):
            for p in sorted(Path(root).glob("cu*/bin/cuobjdump")):
                return str(p)
    except ImportError:
        pass
    return None


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """{file: (cubin path, ptxas report)} for sm_90."""
    out = {}
    d = tmp_path_factory.mktemp("sass")
    for f in TUNED:
        cubin = d / f.replace(".cu", ".cubin")
        r = subprocess.run([NVCC, "-arch=sm_90", "-cubin", *compile_options(), "-Xptxas", "-v", str(Path(CUDA_DIR) / f),
                            "-o", str(cubin)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-3000:]
        out[f] = (cubin, r.stderr + r.stdout)
    return out


def resources(report):
    """{kernel: dict(registers, stack, spill_stores, spill_loads, smem)} from ptxas -v."""
    res = {}
    for block in report.split("Compiling entry function")[1:]:
        name = re.search(r"'([^']+)'", block).group(1)
        stack, st, ld = map(int, re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                                           block).groups())
        regs = int(re.search(r"Used (\d+) registers", block).group(1))
        smem = re.search(r"(\d+) bytes smem", block)
        res[name] = dict(registers=regs, stack=stack, spill_stores=st, spill_loads=ld, smem=int(smem.group(1)) if smem else 0)
    return res


@pytest.mark.parametrize("f", TUNED)
def test_no_spills_no_stack(built, f):
    res = resources(built[f][1])
    assert res, built[f][1]
    for k, r in res.items():
        assert r["stack"] == r["spill_stores"] == r["spill_loads"] == 0, (k, r)


def test_phase3_fits_two_blocks_an_sm(built):
    """256 threads x registers and the static shared memory of two blocks within one SM (64K registers,
    228 KB shared memory), so that one block's loads overlap the other's arithmetic."""
    r = resources(built["tuned_fw.cu"][1])["tfw_phase3"]
    assert r["registers"] <= 128 and 2 * r["smem"] <= 228 * 1024, r
    assert r["smem"] == 2 * 2 * 16 * 128 * 4            # two stages of two 16 x 128 int32 slabs


def sass_of(cubin, kernel):
    tool = _cuobjdump()
    if tool is None:
        pytest.skip("cuobjdump not found (PATH, beside nvcc, or pip install nvidia-cuda-cuobjdump): SASS not checked")
    text = subprocess.run([tool, "-sass", str(cubin)], capture_output=True, text=True, check=True).stdout
    sections = re.split(r"\n\s*Function : ", text)[1:]
    # the exact name first: tfw_phase1 is also a part of tfw_phase1_f32's (a mangled name only contains it)
    for s in sorted(sections, key=lambda s: s.split()[0] != kernel):
        if s.split()[0] == kernel or kernel in s.split()[0]:
            return [ln.split(";")[0].strip() for ln in s.splitlines() if re.match(r"\s+/\*[0-9a-f]{4}\*/", ln)]
    raise AssertionError(f"{kernel} not in the SASS of {cubin.name}")


def opcodes(lines):
    """Opcode of each instruction (predicate and the address comment dropped, modifiers kept)."""
    ops = []
    for ln in lines:
        parts = ln.split("*/", 1)[1].split() if "*/" in ln else ln.split()
        if parts and parts[0].startswith("@"):
            parts = parts[1:]
        if parts:
            ops.append(parts[0])
    return ops


def test_phase3_add_min_is_one_dpx_instruction(built):
    """Every update of the product is one VIADDMNMX (16 k x 64 cells per slab, unrolled), and between
    the slab's two barriers there is little else: 4 LDS.128 per k and a handful of others."""
    ops = opcodes(sass_of(built["tuned_fw.cu"][0], "tfw_phase3"))
    assert ops.count("VIADDMNMX") == 16 * 64
    assert not any(o.startswith(("IMNMX", "VIMNMX")) for o in ops), "an add-min left unfused"
    bars = [i for i, o in enumerate(ops) if o.startswith("BAR.SYNC")]
    body = ops[bars[0] + 1:bars[1]]
    assert body.count("VIADDMNMX") == 1024 and body.count("LDS.128") == 64
    assert body.count("VIADDMNMX") / len(body) > 0.9, f"{len(body)} instructions between the barriers"
    assert all(o == "LDS.128" for o in body if o.startswith("LDS"))


def test_phase1_and_phase2_fused_too(built):
    cubin = built["tuned_fw.cu"][0]
    assert opcodes(sass_of(cubin, "tfw_phase1")).count("VIADDMNMX") >= 64
    assert opcodes(sass_of(cubin, "tfw_phase2")).count("VIADDMNMX") == 16 * 64


def test_the_block_row_kernels_are_the_same_product(built):
    """tuned_fw_multi's entry points compile to the same fused product as tuned_fw's."""
    cubin = built["tuned_fw.cu"][0]
    assert opcodes(sass_of(cubin, "tfwm_phase3")).count("VIADDMNMX") == 16 * 64
    assert opcodes(sass_of(cubin, "tfwm_phase2_col")).count("VIADDMNMX") == 16 * 64
    assert opcodes(sass_of(cubin, "tfwm_phase1")).count("VIADDMNMX") >= 64


def test_stream_step_is_16_byte_and_fused(built):
    ops = opcodes(sass_of(built["tuned_fw_stream.cu"][0], "tfs_step"))
    assert ops.count("VIADDMNMX") == 4
    assert ops.count("LDG.E.128") == 2 and ops.count("STG.E.128") == 1   # the cell's int4 and row k's


def test_sparse_sweep_reads_int4_segments(built):
    ops = opcodes(sass_of(built["tuned_sparse.cu"][0], "tsp_sweepILi2E"))
    assert ops.count("VIADDMNMX") >= 8 and "LDG.E.128" in ops and "STG.E.128" in ops


def test_elimination_products_are_fused(built):
    """tuned_elimination's products: the add-min fused into VIADDMNMX, 64 cells a thread a k in each tile shape
    (k slabs of 8, 16, 16: 40 x 64 in all), the slabs read 16 bytes at a time, the sweeps' B slabs by cp.async
    (LDGSTS) and their C rows 16 bytes at a time.  (Its kernels pass 64 KB of code: every address read.)"""
    tool = _cuobjdump()
    if tool is None:
        pytest.skip("cuobjdump not found (PATH, beside nvcc, or pip install nvidia-cuda-cuobjdump): SASS not checked")
    text = subprocess.run([tool, "-sass", str(built["tuned_elimination.cu"][0])], capture_output=True, text=True,
                          check=True).stdout
    funcs = {sec.split()[0]: sec for sec in re.split(r"\n\s*Function : ", text)[1:]}
    for kernel in ("tel_product_rows", "tel_product", "tel_schur"):
        ops = opcodes([ln.split(";")[0].strip() for ln in funcs[kernel].splitlines()
                       if re.match(r"\s+/\*[0-9a-f]{4,}\*/", ln)])
        assert ops.count("VIADDMNMX") == 40 * 64 and "LDS.128" in ops, kernel
        assert not any(o.startswith(("IMNMX", "VIMNMX")) for o in ops), f"{kernel}: an add-min left unfused"
    ops = opcodes([ln for ln in funcs["tel_product_rows"].splitlines() if re.match(r"\s+/\*[0-9a-f]{4,}\*/", ln)])
    assert any(o.startswith("LDGSTS") for o in ops) and "LDG.E.128" in ops and "STG.E.128" in ops
    bars = [i for i, o in enumerate(ops) if o.startswith("BAR.SYNC")]
    slabs = [ops[a + 1:b] for a, b in zip(bars, bars[1:]) if "VIADDMNMX" in ops[a + 1:b]]
    assert sorted(body.count("VIADDMNMX") for body in slabs) == [8 * 64, 16 * 64, 16 * 64]   # one slab a shape
    for body in slabs:                  # between a slab's barriers little but the add-min and its 4 LDS.128 a k
        assert body.count("VIADDMNMX") / len(body) > 0.9 and body.count("LDS.128") == body.count("VIADDMNMX") // 16
