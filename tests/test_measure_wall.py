"""measure.wall.median_ms, the one synchronised wall clock of the structure suite and the benchmark scripts:
its call count, its median, and the previous result released before the next call only where asked."""
import gc
import weakref

import pytest

from apsp_kernels.measure import wall


class Result:
    pass


def _calls(drop, warm, repeats):
    seen, alive = [], []

    def fn():
        gc.collect()
        alive.append(bool(seen) and seen[-1]() is not None)        # was the previous result still held?
        r = Result()
        seen.append(weakref.ref(r))
        return r
    ms, out = wall.median_ms(fn, repeats, warm=warm, drop=drop, gpu=False)
    return ms, out, seen, alive


@pytest.mark.parametrize("warm", [False, True])
@pytest.mark.parametrize("repeats", [0, 1, 3])
def test_calls_once_a_repeat_plus_the_warm_up_and_returns_the_last(warm, repeats):
    ms, out, seen, _ = _calls(False, warm, repeats)
    assert len(seen) == max(repeats, 1) + warm and out is seen[-1]() and ms >= 0


def test_the_previous_result_is_released_before_the_next_call_only_when_asked():
    *_, kept = _calls(False, False, 3)
    *_, dropped = _calls(True, False, 3)
    assert kept == [False, True, True] and dropped == [False, False, False]


def test_the_time_is_the_median_of_the_timed_calls(monkeypatch):
    clock = iter([0.0, 0.001, 1.0, 1.005, 2.0, 2.003])            # 1, 5 and 3 ms
    monkeypatch.setattr(wall.time, "perf_counter", lambda: next(clock))
    ms, _ = wall.median_ms(lambda: None, 3, gpu=False)
    assert ms == pytest.approx(3.0)
