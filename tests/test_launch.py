"""The rank processes of the multi-GPU code without GPUs (``launch.spawn(..., gpus=False)``): this
process only coordinates, values come back in rank order however large, and a rank that hangs,
raises or dies ends the call within its deadline with one line naming it -- never a silent wait.
The rank functions live here, at module level, so that spawned processes can import them."""
import os
import time

import numpy as np
import pytest

from apsp_kernels.algorithms.gpu.multi import launch
from apsp_kernels.study.seeds.nthu import runs as jobs


def _echo(ctx, x):
    ctx.send("note", f"rank {ctx.rank} says {x}")
    ctx.send("record", {"rank": ctx.rank, "x": x})
    return (ctx.rank, ctx.size, x * 2, os.getpid())


def _big(ctx, n):
    return np.full(n, ctx.rank, dtype=np.int32)          # 4n bytes through the pipe


def _hang(ctx):
    ctx.send("record", {"job": 0, "repeat": 0})
    ctx.send("note", "first job done")
    if ctx.rank == 1:
        time.sleep(600)
    return ctx.rank


def _raise(ctx):
    if ctx.rank == 1:
        raise ValueError("no such graph\nsecond line of the message")
    time.sleep(600)


def _die(ctx):
    if ctx.rank == 0:
        os._exit(3)
    time.sleep(600)


def test_values_in_rank_order_and_messages_as_they_come():
    seen = []
    out = launch.spawn(3, _echo, (21,), gpus=False, timeout_s=120, on_message=lambda r, k, p: seen.append((r, k, p)))
    assert [v[:3] for v in out] == [(0, 3, 42), (1, 3, 42), (2, 3, 42)]
    assert len({v[3] for v in out} | {os.getpid()}) == 4              # three processes, none of them this one
    assert {(r, k) for r, k, _ in seen} >= {(r, k) for r in range(3) for k in ("state", "note", "record")}
    assert (1, "note", "rank 1 says 21") in seen


def test_a_large_result_does_not_block_the_exit():
    """The coordinator reads every result before it waits for any exit (a rank's last message is
    its value, 40 MB here, sent through a pipe that holds 64 KB)."""
    out = launch.spawn(2, _big, (10_000_000,), gpus=False, timeout_s=120)
    assert [int(a[0]) for a in out] == [0, 1] and all(a.size == 10_000_000 for a in out)


def test_one_rank_in_process_or_isolated():
    assert launch.spawn(1, _echo, (1,), gpus=False)[0][3] == os.getpid()
    assert launch.spawn(1, _echo, (1,), gpus=False, isolate=True, timeout_s=120)[0][3] != os.getpid()


def test_a_hung_rank_ends_the_call_at_its_deadline_with_one_line():
    t0 = time.monotonic()
    with pytest.raises(launch.RankError) as e:
        launch.spawn(2, _hang, (), gpus=False, timeout_s=6)
    took = time.monotonic() - t0
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("rank 1 of 2 did not finish within 6 s") and "first job done" in msg
    assert 6 <= took < 60
    # what every rank sent before the end stays: the records of the finished jobs
    assert jobs.records_of(e.value.messages) == [[{"job": 0, "repeat": 0}]] * 2


def test_a_rank_that_raises_is_named_with_its_error():
    with pytest.raises(launch.RankError) as e:
        launch.spawn(2, _raise, (), gpus=False, timeout_s=120)
    assert str(e.value) == "rank 1 of 2 failed: ValueError: no such graph"
    assert "Traceback" in e.value.details and "second line" in e.value.details


def test_a_rank_that_dies_is_named_with_its_exit_code():
    t0 = time.monotonic()
    with pytest.raises(launch.RankError) as e:
        launch.spawn(2, _die, (), gpus=False, timeout_s=120)
    assert str(e.value).startswith("rank 0 of 2 exited with code 3 before finishing")
    assert time.monotonic() - t0 < 60                   # not the deadline: the closed pipe says it


def test_records_of_keeps_the_solves_every_rank_finished():
    msgs = {0: [("state", "joined"), ("record", "a0"), ("note", "x"), ("record", "b0")], 1: [("record", "a1")]}
    assert jobs.records_of(msgs) == [["a0"], ["a1"]]
    assert jobs.records_of({}) == []


def test_a_script_without_the_main_guard_is_told_so(tmp_path):
    """Every spawned rank re-imports the script that started it: without ``if __name__ == '__main__'`` the ranks
    die before running anything, and the one-line error says what to do."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    script = tmp_path / "noguard.py"
    script.write_text("from apsp_kernels.algorithms.gpu.multi import launch\n"
                      "def w(ctx):\n    return 1\n"
                      "launch.spawn(2, w, (), gpus=False, isolate=True, timeout_s=60)\n")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    assert r.returncode != 0
    assert "RankError" in r.stderr and "if __name__ == '__main__'" in r.stderr.splitlines()[-1]


def test_a_rank_error_names_the_place_in_the_package_where_it_was_raised():
    from apsp_kernels.algorithms import registry
    try:
        registry.get("no such code")
    except Exception as e:
        line = launch._one_line(e)
    assert "\n" not in line and line.startswith(("KeyError", "ValueError", "LookupError"))
    assert line.endswith(")") and "(at registry.py:" in line, line
