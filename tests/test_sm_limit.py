"""The SM-restriction plumbing without a GPU: the error check of cuda-python results, the probe's
answer where there is no GPU, and the MPS daemon's start and quit (a fake control binary)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from apsp_kernels import gpu_device
from apsp_kernels.algorithms.gpu import sm_limit

ROOT = Path(__file__).resolve().parent.parent


class Err(int):
    """Stands for a cuda.bindings CUresult (an enum with .value)."""

    @property
    def value(self):
        return int(self)


def test_check_unpacks_and_raises():
    assert sm_limit._check((Err(0), "x"), "f") == "x"
    assert sm_limit._check((Err(0), "a", 2, "c"), "f") == ["a", 2, "c"]
    assert sm_limit._check((Err(0),), "f") == []
    with pytest.raises(sm_limit.SMLimitError, match="cuGreenCtxCreate failed"):
        sm_limit._check((Err(801),), "cuGreenCtxCreate")


@pytest.mark.skipif(gpu_device.available(), reason="checks the answer where there is no GPU")
def test_probe_says_why_not_without_a_gpu():
    ok, why = sm_limit.green_probe(16)
    assert not ok and why
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "sm_restriction_probe.py")], capture_output=True, text=True)
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert lines[0].startswith("green contexts: DOES NOT WORK (") and lines[1].startswith("MPS: DOES NOT WORK (")


FAKE_CTL = """#!/usr/bin/env bash
echo "$CUDA_MPS_PIPE_DIRECTORY $* $(cat)" >> {log}
"""


def test_mps_daemon_starts_in_its_own_folder_and_always_quits(tmp_path, monkeypatch):
    log = tmp_path / "calls.log"
    ctl = tmp_path / "nvidia-cuda-mps-control"
    ctl.write_text(FAKE_CTL.format(log=log))
    ctl.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    with pytest.raises(RuntimeError, match="boom"):
        with sm_limit.mps_daemon() as env:
            assert Path(env["CUDA_MPS_PIPE_DIRECTORY"]).is_dir()
            raise RuntimeError("boom")
    calls = log.read_text().splitlines()
    assert len(calls) == 2 and "-d" in calls[0].split() and calls[1].split()[-1] == "quit"
    assert calls[0].split()[0] == calls[1].split()[0] != "/tmp/nvidia-mps"      # its own pipe folder


def test_mps_needs_its_control_binary(monkeypatch):
    monkeypatch.setattr(sm_limit.shutil, "which", lambda name: None)
    with pytest.raises(sm_limit.SMLimitError, match="not on the PATH"):
        with sm_limit.mps_daemon():
            pass
