"""Every .cu compiles for sm_90 with nvcc (a syntax check for machines with nvcc and no GPU)."""
import shutil
import subprocess
from pathlib import Path

import pytest

from apsp_kernels.algorithms.gpu.dense import TRAN_DEFINES
from apsp_kernels.algorithms.gpu.runtime import CUDA_DIR, compile_options
from apsp_kernels.core.graph import INF

CU = sorted(Path(CUDA_DIR).glob("*.cu"))


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not found: .cu syntax check skipped")
@pytest.mark.parametrize("path", CU, ids=lambda p: p.name)
def test_compiles_for_sm90(path, tmp_path):
    r = subprocess.run(["nvcc", "-arch=sm_90", *compile_options(TRAN_DEFINES), "-c", str(path),
                        "-o", str(tmp_path / "x.o")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_every_kernel_file_has_a_header():
    for p in CU:
        head = p.read_text().splitlines()[:4]
        assert head and all(line.startswith("//") for line in head[:2]), p.name


def test_shared_constants_are_written_once_in_python():
    """INF and Tran's tile size come from Python as defines: no kernel file spells their values,
    and the options carry them."""
    for p in sorted(Path(CUDA_DIR).glob("*.cu*")):
        text = p.read_text()
        assert str(int(INF)) not in text and "#define TRAN_B" not in text and "#define APSP_INF" not in text, p.name
    opts = compile_options(TRAN_DEFINES)
    assert f"-DAPSP_INF={int(INF)}" in opts and "-DTRAN_B=16" in opts


def test_blocked_kernels_share_one_tile_loop():
    kk, ooc = ((Path(CUDA_DIR) / f).read_text() for f in ("katz_kider.cu", "kemp_out_of_core.cu"))
    assert all('#include "tiles.cuh"' in t and "void relax_tile" not in t for t in (kk, ooc))
