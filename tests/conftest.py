import os
import tempfile

# Tests never write into the checkout's reports/, data/results/ or figures/: every output of a
# test run goes to one temporary folder (set before apsp_kernels computes its paths).
_OUT = tempfile.mkdtemp(prefix="apsp-tests-")
for _k, _d in (("APSP_REPORTS_DIR", "reports"), ("APSP_RESULTS_DIR", "results"), ("APSP_FIGURES_DIR", "figures"),
               ("APSP_CACHE_DIR", "cache")):
    os.environ[_k] = os.path.join(_OUT, _d)

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from apsp_kernels import gpu_device  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA GPU (skipped, with the reason, without one)")
    config.addinivalue_line("markers", "slow: takes more than a few seconds (left out by ./run_tests.sh --quick)")


# The quick subset (`./run_tests.sh --quick`, the same as `-m "not slow"`) leaves out every test marked
# slow: those that use the smoke batch of every notebook (the fixture smoke_reports, about 200 s on 2
# cores) and these, each of which took 3 s or more (summed over its parameters) on the 2-core machine when
# every test file was timed on its own with --durations (2026-11-25).  Node-id prefixes; a test that grows
# slow belongs here or gets @pytest.mark.slow.
SLOW = (
    "tests/test_api.py::test_distances_and_predecessors_match_scipy[auto]",
    "tests/test_auto_choice.py::test_out_of_core_only_where_no_in_core_dense_code_fits",
    "tests/test_auto_choice.py::test_notebook_11s_table_of_choices_reads_the_runs_own_rows",
    "tests/test_campaign.py::test_campaign_process_and_batch_provenance",
    "tests/test_campaign.py::test_pinning_leaves_the_thread_pool_on_every_core",
    "tests/test_campaign_verdicts.py::test_a_recorded_run_gives_the_notebooks_verdicts",
    "tests/test_campaign_verdicts.py::test_no_time_column_is_left_blank_without_saying_why",
    "tests/test_campaign_verdicts.py::test_averages_and_single_size_speedups_carry_both_times",
    "tests/test_cuda_compile.py::test_compiles_for_sm90",
    "tests/test_hochberg_processes.py::test_notebook_08_renders_a_batch_of_processes",
    "tests/test_hochberg_processes.py::test_the_recorded_run_split_into_three_processes_gets_verdicts",
    "tests/test_hochberg_processes.py::test_the_script_refuses_to_join_a_batch_of_other_code",
    "tests/test_hochberg_processes.py::test_two_invocations_make_one_batch_that_the_report_reads",
    "tests/test_iitkgp_measure.py::test_dry_run_writes_results_and_provenance",
    "tests/test_iitkgp_measure.py::test_unknown_stage_or_graph_is_refused",
    "tests/test_iitkgp_report.py::test_verdicts_from_a_synthetic_run",
    "tests/test_iitkgp_report.py::test_tables_and_figures_of_a_synthetic_run",
    "tests/test_iitkgp_report.py::test_publish_reaches_the_summary_and_the_index",
    "tests/test_launch.py::test_values_in_rank_order_and_messages_as_they_come",
    "tests/test_launch.py::test_a_hung_rank_ends_the_call_at_its_deadline_with_one_line",
    "tests/test_launch.py::test_a_rank_that_raises_is_named_with_its_error",
    "tests/test_launch.py::test_a_rank_that_dies_is_named_with_its_exit_code",
    "tests/test_alt_text.py::test_a_figure_shown_in_a_kernel_carries_its_description",
    "tests/test_notebooks.py::test_summary_runs_after_every_notebook_whose_verdicts_it_collects",
    "tests/test_notebooks.py::test_rendering_the_same_notebook_twice_gives_the_same_bytes",
    "tests/test_nthu_report.py::test_notebook_09_judges_synthetic_two_gpu_runs",
    "tests/test_report_hochberg.py::test_every_hochberg_claim_gets_a_verdict_that_says_what_its_interval",
    "tests/test_tuned_emulated.py::test_tuned_sparse_emulated",
    "tests/test_tuned_emulated.py::test_tuned_fw_emulated",
    "tests/test_tuned_ooc.py::test_any_buffer_and_stream_count_is_exact_in_any_order",
    "tests/test_tuned_ooc.py::test_product_and_transpose_kernels",
    "tests/test_tuned_ooc.py::test_a_budget_four_times_below_the_matrix",
    "tests/test_tuned_ooc_launcher.py::test_launcher_on_the_emulated_kernels",
    "tests/test_tuned_report.py::test_notebook_11_renders_a_synthetic_run_and_no_run",
    # A quick subset under 3 minutes on 2 cores: the quick run had grown past 400 s; these took
    # most of it (`--quick --durations=60`, 2026-11-25, on the 2-core machine while shared: 15-170 s each there).
    # The campaign's plans beyond the smoke profile (the smoke plan stays quick; every profile's plan is still
    # checked in the full suite), the verdicts of every recorded campaign run, the satellite processes and the
    # larger recorded batches; then, at 185 s without them, the next four (5-11 s each on an idle machine).
    "tests/test_campaign.py::test_plans_are_those_of_the_all_pairs_codes[full]",
    "tests/test_campaign.py::test_plans_are_those_of_the_all_pairs_codes[paper]",
    "tests/test_campaign.py::test_plans_are_those_of_the_all_pairs_codes[quick]",
    "tests/test_plan_frozen.py::test_campaign_plan_is_unchanged[full]",
    "tests/test_plan_frozen.py::test_campaign_plan_is_unchanged[paper]",
    "tests/test_plan_frozen.py::test_campaign_plan_is_unchanged[quick]",
    "tests/test_campaign.py::test_schedule_puts_each_size_in_one_group_and_rotates_the_rounds",
    "tests/test_claims.py::test_the_out_of_core_partitions_are_declared_with_the_claims_they_set",
    "tests/test_campaign.py::test_satellite_jobs_are_the_campaigns_own_jobs_of_their_codes_and_sizes",
    "tests/test_campaign.py::test_plan_interleaves_and_deduplicates",
    "tests/test_campaign.py::test_a_satellite_process_runs_only_its_jobs_and_says_so",
    "tests/test_campaign.py::test_a_satellite_without_a_gpu_leaves_no_process_behind",
    "tests/test_campaign.py::test_dense_gpu_runs_of_under_a_second_are_timed_in_rounds",
    "tests/test_campaign_verdicts.py::test_every_verdict_row_says_what_it_rests_on",
    "tests/test_caveats.py::test_the_numbers_come_from_run_L",
    "tests/test_verdict_golden.py::test_the_verdict_table_is_the_stored_one[hochberg",
    "tests/test_verdict_golden.py::test_the_verdict_table_is_the_stored_one[iitkgp",
    "tests/test_stability.py::test_the_command_writes_the_table_and_what_it_was_drawn_from",
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid.startswith(SLOW) or "smoke_reports" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
    ok, why = gpu_device.gpu_status()
    if ok:
        return
    skip = pytest.mark.skip(reason=f"GPU test skipped: {why}")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


@pytest.fixture(scope="session")
def smoke_reports():
    """One ``smoke`` batch of every notebook (shared by the report and browser tests)."""
    from apsp_kernels.study.report import runner
    rc = runner.run("smoke", progress=False)
    assert rc == 0, "the smoke batch failed; see reports/index.html"
    return runner.REPORTS


def pytest_sessionfinish(session, exitstatus):
    import shutil
    shutil.rmtree(_OUT, ignore_errors=True)
