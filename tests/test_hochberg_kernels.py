"""Hochberg's explorations beside his faithful kernel, checked without a GPU: the exploration kernel is
his kernel token for token, the no-sync build lacks exactly the barrier, the launchers refuse two
explorations at once, the registry names them, and scripts/sanitize.sh expects the no-sync hazards."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from apsp_kernels import INF
from apsp_kernels.algorithms import registry
from apsp_kernels.__main__ import _picked
from apsp_kernels.algorithms.gpu import fw_hochberg as H
from apsp_kernels.algorithms.gpu.runtime import CUDA_DIR, compile_options

ROOT = Path(__file__).resolve().parent.parent
NVCC = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not found: PTX check skipped")


def _body(file, name, drop=()):
    text = (Path(CUDA_DIR) / file).read_text()
    body = text[text.index(f"void {name}("):]
    body = body[body.index("{"):]
    depth = 0
    for i, c in enumerate(body):
        depth += c == "{"
        depth -= c == "}"
        if depth == 0:
            body = body[:i + 1]
            break
    lines = [ln for ln in body.splitlines() if ln.strip() not in drop]
    return re.findall(r"\w+|[^\w\s]", re.sub(r"//[^\n]*", "", "\n".join(lines)))


def test_exploration_kernel_is_his_kernel():
    faithful = _body("hochberg_naive.cu", "hochberg_fw_step")
    ours = _body("hochberg_explore.cu", "hochberg_rows_step", drop=("#ifndef HOCHBERG_NO_SYNC", "#endif"))
    assert ours == faithful


def _ptx(tmp_path, defines=()):
    out = tmp_path / "k.ptx"
    r = subprocess.run(["nvcc", "-arch=sm_90", "-ptx", *compile_options(defines), str(Path(CUDA_DIR) / "hochberg_explore.cu"),
                        "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    start = text.index(".entry hochberg_rows_step(")
    return text[start:text.index("\n}", start)]


@NVCC
def test_no_sync_build_drops_exactly_the_barrier(tmp_path):
    sync, nosync = _ptx(tmp_path), _ptx(tmp_path, (("HOCHBERG_NO_SYNC", 1),))
    assert sync.count("bar.sync") == 1 and "bar.sync" not in nosync
    assert "ld.shared" in nosync                     # the other threads still read the shared trkc


def test_one_exploration_at_a_time():
    g = None                                         # refused before the graph or the GPU is touched
    with pytest.raises(ValueError, match="one exploration"):
        H.hochberg_fw(g, blocks="columns", next_hop=True)
    with pytest.raises(ValueError, match="one exploration"):
        H.hochberg_fw(g, sync=False, next_hop=True)
    with pytest.raises(ValueError, match="unknown variant"):
        H.hochberg_explore(g, variant="diagonal")


def test_next_hop_start():
    d0 = np.array([[0, 3, INF], [INF, 0, 1], [2, INF, 0]], np.int32)
    np.testing.assert_array_equal(H._next_hop_start(d0), [[0, 1, -1], [-1, 1, 2], [0, -1, 2]])


def test_registry_names_the_explorations():
    align, explore = registry.get("hochberg_align"), registry.get("hochberg_explore")
    assert align.faithful and align.variants == (H.ALIGN_CODE, H.ALIGN_TEXT) and align.exploration
    assert not explore.faithful and set(explore.variants) == set(H.EXPLORATIONS) and explore.exploration
    assert explore.inexact_variants == ("nosync",)
    assert not registry.get("hochberg_naive").exploration          # the campaign's entry is unchanged
    assert explore.footprint(1000, 0) >= 2 * 1000 * 1024 * 4        # next_hop: two pitched matrices


def test_sanitize_driver_selection():
    assert _picked("a", "x", None, [])
    assert _picked("a", "x", ["a"], []) and _picked("a", "x", ["a/x"], [])
    assert not _picked("a", "y", ["a/x"], []) and not _picked("b", "x", ["a"], [])
    assert not _picked("a", "x", None, ["a/x"]) and _picked("a", "y", None, ["a/x"])


FAKE_SANITIZER = """#!/usr/bin/env bash
# fake compute-sanitizer: racecheck on --only hochberg_explore/nosync reports {hazards} hazards
tool=$2
if [ "$tool" = racecheck ] && [[ " $* " == *" --only hochberg_explore/nosync "* ]]; then
  echo "n=64 hochberg_explore/nosync: ok"; echo "n=100 hochberg_explore/nosync: ok"
  echo "========= RACECHECK SUMMARY: {hazards} hazards displayed ({hazards} errors, 0 warnings)"
  [ {hazards} -gt 0 ] && exit 99; exit 0
fi
echo "========= ERROR SUMMARY: 0 errors"
"""


@pytest.mark.parametrize("hazards, rc", [(3, 0), (0, 1)])
def test_sanitize_script_expects_the_no_sync_hazards(tmp_path, hazards, rc):
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    fake = bin_ / "compute-sanitizer"
    fake.write_text(FAKE_SANITIZER.format(hazards=hazards))
    fake.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_}:{os.environ['PATH']}", OUT=str(tmp_path), PY="true")
    r = subprocess.run(["bash", str(ROOT / "scripts" / "sanitize.sh")], capture_output=True, text=True, env=env)
    assert r.returncode == rc, r.stdout + r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith(("memcheck:", "racecheck:", "racecheck-nosync:"))]
    assert len(lines) == 3
    assert ("expected hazards" in lines[2]) == (hazards > 0)
