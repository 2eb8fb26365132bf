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
    config.addinivalue_line("markers", "slow: takes more than a few seconds")


def pytest_collection_modifyitems(config, items):
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
    from apsp_kernels import runner
    rc = runner.run("smoke", progress=False)
    assert rc == 0, "the smoke batch failed; see reports/index.html"
    return runner.REPORTS


def pytest_sessionfinish(session, exitstatus):
    import shutil
    shutil.rmtree(_OUT, ignore_errors=True)
