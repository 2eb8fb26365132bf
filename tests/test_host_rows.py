"""The shared host result of a multi-GPU solve (``multi.host_rows``), with rank processes but no GPU: each rank
writes its own rows, the coordinator reads them all, and the shared block is gone after ``close``."""
from __future__ import annotations

import numpy as np
import pytest

from apsp_kernels.algorithms.gpu.multi import launch
from apsp_kernels.algorithms.gpu.multi.host_rows import Attached, SharedResult


def _write_rows(ctx, handle, per):
    at = Attached(handle)
    a, b = ctx.rank * per, min((ctx.rank + 1) * per, handle.shape[0])
    at.rows(a, b)[:] = np.arange(a, b)[:, None] * 10 + np.arange(handle.shape[1])
    at.close()
    return ctx.rank


@pytest.mark.parametrize("ranks, isolate", [(1, False), (1, True), (3, True)])
def test_every_rank_writes_its_rows_into_one_block(ranks, isolate, capfd):
    """One rank runs inside the coordinator unless isolated: it must leave the block's registration alone (else
    its unlink would end in the resource tracker's KeyError)."""
    n = 7
    with SharedResult((n, 5), np.int32) as res:
        out = launch.spawn(ranks, _write_rows, (res.handle, -(-n // ranks)), gpus=False, isolate=isolate,
                           timeout_s=120)
        assert out == list(range(ranks))
        want = np.arange(n)[:, None] * 10 + np.arange(5)
        np.testing.assert_array_equal(res.array, want)
        got = res.detach()
    np.testing.assert_array_equal(got, want)
    with pytest.raises(FileNotFoundError):
        Attached(res.handle)
    assert "KeyError" not in capfd.readouterr().err
