"""The decide profile: paper's plan per process in 3 main processes, one per machine lease, and its time predicted
from the recorded paper runs before it starts (checked on those recorded runs), with a line when a run went past."""
import pytest

from apsp_kernels.study.report import compare
from apsp_kernels.study.seeds.kemp import profiles, spec, timing


def test_decide_runs_papers_plan_in_three_leases():
    P, Q = profiles.profile("decide"), profiles.profile("paper")
    assert timing.plan_of("decide") == "paper" and timing.plan_of("paper") == "paper"
    assert spec.campaign_jobs(P) == spec.campaign_jobs(Q) and spec.satellite_jobs(P) == spec.satellite_jobs(Q)
    assert P["processes"] == profiles.DECIDE_LEASES == compare.LEASES
    leases = [profiles.lease_processes(P, k, 3) for k in range(3)]
    assert [ls[0] for ls in leases] == [0, 1, 2]
    assert sorted(i for ls in leases for i in ls) == list(profiles.all_processes(P))


def test_recorded_durations_are_each_process_start_to_the_next_on_its_lease():
    run = compare.reference_table().parent
    got = timing.durations(run)
    main = [s for _, sat, s in got if not sat]
    assert len(main) == 5 and all(6 * 60 < s < 12 * 60 for s in main)       # 23:46:43 -> 23:55:32 is 529 s
    assert dict((i, s) for i, _, s in got)[0] == 529.0
    assert all(10 < s < 60 for _, sat, s in got if sat)


def test_the_estimate_is_computed_from_the_recorded_runs():
    secs, how = timing.estimate("decide", runs=[compare.reference_table().parent])
    got = timing.durations(compare.reference_table().parent)
    import statistics
    m = statistics.median(s for _, sat, s in got if not sat)
    s = statistics.median(s for _, sat, s in got if sat)
    assert secs == pytest.approx(3 * m + 12 * s)
    assert 20 * 60 < secs < 45 * 60 and "3 processes" in how and "12 satellites" in how
    one, _ = timing.estimate("decide", only=profiles.lease_processes(profiles.profile("decide"), 0, 3),
                             runs=[compare.reference_table().parent])
    assert one == pytest.approx(m + 4 * s)
    assert timing.estimate("smoke")[0] is None


def test_a_run_past_its_estimate_says_so():
    secs, _ = timing.estimate("decide")
    assert timing.before("decide").startswith(f"estimate: about {secs / 60:.0f} min")
    assert timing.after(secs * 1.3, "decide").startswith("PAST THE ESTIMATE") and "30% over" in timing.after(secs * 1.3, "decide")
    assert "within the predicted" in timing.after(secs * 0.9, "decide")


def test_lease_k_runs_its_main_process_and_its_share_of_the_satellites():
    assert profiles.processes_of_lease("decide", 1) == [0, 3, 4, 5, 6]
    assert profiles.processes_of_lease("paper", 5) == [4, 21, 22, 23, 24]      # the recorded runs' layout
    with pytest.raises(ValueError, match="leases 1..3"):
        profiles.processes_of_lease("decide", 4)


def test_each_process_done_says_how_far_and_how_long_is_left():
    runs = [compare.reference_table().parent]
    lease = profiles.processes_of_lease("decide", 1)
    left, _ = timing.estimate("decide", lease[1:], runs)
    line = timing.progress("decide", lease, 0, 60, runs)
    assert line == f"1 of 5 processes done (20%), about {left / 60:.0f} min left by the estimate"
    assert "behind it" in timing.progress("decide", lease, 0, 3600, runs)
    assert timing.progress("smoke", [0, 1], 0, 5) == "1 of 2 processes done (50%)"
