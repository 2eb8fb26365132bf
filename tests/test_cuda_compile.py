"""Every .cu compiles for sm_90 with nvcc (a syntax check for machines with nvcc and no GPU)."""
import shutil
import subprocess
from pathlib import Path

import pytest

from apsp_kernels.gpu import CUDA_DIR

CU = sorted(Path(CUDA_DIR).glob("*.cu"))


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not found: .cu syntax check skipped")
@pytest.mark.parametrize("path", CU, ids=lambda p: p.name)
def test_compiles_for_sm90(path, tmp_path):
    r = subprocess.run(["nvcc", "-arch=sm_90", "-std=c++17", f"-I{CUDA_DIR}", "-c", str(path),
                        "-o", str(tmp_path / "x.o")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_every_kernel_file_has_a_header():
    for p in CU:
        head = p.read_text().splitlines()[:4]
        assert head and all(line.startswith("//") for line in head[:2]), p.name
