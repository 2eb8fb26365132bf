"""NTHU's blocked FW (seed 004): variants as text, the seed's padding, the kernel's shape; on a GPU,
per-phase times and every variant against the CPU reference (test_gpu.py runs every variant too)."""
import shutil
import subprocess

import numpy as np
import pytest

from apsp_kernels import reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G
from apsp_kernels.algorithms.gpu import fw_nthu as F
from apsp_kernels.algorithms.gpu.runtime import CUDA_DIR, compile_options


def test_variants_are_every_combination_as_text():
    assert len(F.VARIANTS) == len(set(F.VARIANTS)) == 4 * 2 * 2
    assert F.VARIANTS[0] == F.DEFAULT_VARIANT == "b32-dim3-branch"
    assert {F.parse_variant(v) for v in F.VARIANTS} == {(b, lo, u) for b in F.BLOCKS for lo in F.LAUNCHES
                                                         for u in F.UPDATES}
    assert all(F.variant_name(*F.parse_variant(v)) == v for v in F.VARIANTS)
    assert F.parse_variant(16) == F.parse_variant("16") == (16, "dim3", "branch")
    for bad in ("b128-dim3-branch", "b32-grid-branch", "b32-dim3-max", "32x", "b32"):
        with pytest.raises(ValueError, match="NTHU variant"):
            F.parse_variant(bad)


def test_registry_entries():
    a = registry.get("nthu_blocked")
    assert a.variants == F.VARIANTS and a.variant_param == "variant" and a.device == "gpu"
    kw = a._kwargs("b64-int-select", {})
    assert kw == {"variant": "b64-int-select"}


@pytest.mark.parametrize("n, bs, want", [(6000, 64, 6016), (6000, 32, 6016), (6000, 8, 6008), (6000, 16, 6016),
                                         (64, 64, 128), (64, 8, 72), (1, 8, 8), (100, 32, 128)])
def test_padding_is_the_seeds(n, bs, want):
    """N_ext = N + (bs - N mod bs): a whole extra block where bs divides N (6000 = 750 x 8 -> 6008)."""
    assert F.padded_size(n, bs) == want and want % bs == 0 and want > n


def test_threads_per_block_follow_the_1024_limit():
    assert [F.threads_per_side(b) for b in F.BLOCKS] == [8, 16, 32, 32]


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not found: PTX check skipped")
def test_select_and_branch_compile_to_different_code(tmp_path):
    """Not a claim, a fact worth knowing beside the measurement: in phase 3 the branch form keeps a
    predicated shared-memory store per k, the select form becomes min() on a register."""
    ptx = tmp_path / "nthu.ptx"
    r = subprocess.run(["nvcc", "-arch=sm_90", *compile_options(), "-ptx", str(CUDA_DIR / "nthu_blocked.cu"),
                        "-o", str(ptx)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = ptx.read_text()

    def body(name):
        start = text.index(f".entry {name}(")
        return text[start:text.index("\n}", start)]
    branch, select = body("_Z11nthu_phase3ILi32ELi0ELi0EEvPiiiii"), body("_Z11nthu_phase3ILi32ELi0ELi1EEvPiiiii")
    assert select.count("min.s32") >= 32 and branch.count("min.s32") == 0
    assert branch.count("st.shared") > select.count("st.shared")


# ------------------------------------------------------------------------------------ GPU
@pytest.mark.gpu
@pytest.mark.parametrize("variant", F.VARIANTS)
def test_phase_times_and_padding(variant):
    g = G.kemp(300, seed=3)
    d, t = registry.get("nthu_blocked").run(g, variant=variant)
    np.testing.assert_array_equal(d, reference_apsp(g))
    bs = F.parse_variant(variant)[0]
    assert t["n_ext"] == F.padded_size(300, bs) and t["rounds"] == t["n_ext"] // bs
    phases = t["phase1_ms"] + t["phase2_ms"] + t["phase3_ms"]
    assert 0 < phases <= t["kernel_ms"] + 0.002 * 3 * t["rounds"]    # events resolve ~0.5 us each


@pytest.mark.gpu
@pytest.mark.parametrize("n", (64, 128, 192))
def test_multiples_of_the_block_get_a_whole_extra_block(n):
    for v in ("b64-dim3-branch", "b32-int-select"):
        d, t = registry.get("nthu_blocked").run(G.kemp(n, seed=n), variant=v)
        assert t["n_ext"] == n + F.parse_variant(v)[0]
        np.testing.assert_array_equal(d, reference_apsp(G.kemp(n, seed=n)))


@pytest.mark.gpu
def test_without_phase_events_the_result_is_the_same():
    g = G.kemp(200, seed=5)
    d, t = F.nthu_blocked(g, "b16-int-branch", phases=False)
    np.testing.assert_array_equal(d, reference_apsp(g))
    assert "phase1_ms" not in t and t["kernel_ms"] > 0
