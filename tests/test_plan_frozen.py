"""What new algorithms and studies may not change: the campaign plan of every profile (the jobs that
the recorded reference runs measured) and the code fingerprints of those recorded runs."""
import dataclasses
import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from apsp_kernels.measure import provenance
from apsp_kernels.study.seeds.kemp import spec as plan, profiles

# sha256 over the jobs of plan.campaign_jobs(profile), one JSON line per job.  A change here is a change
# of the campaign: new studies measure their own jobs (scripts/hochberg_measure.py), never by adding to
# these.  Changed once since commit 6ec0e68 (the runs 20261123-013000 and -041000), by a change of the method
# (1577681, data/analysis-changes.csv): the dense GPU codes' jobs at n <= rounds_n are timed in interleaved rounds
# (Job.rounds, profile keys rounds / rounds_n; plan.schedule).  At 6ec0e68 the digests were smoke 52b2e4c4,
# quick f699d2f0, paper df266871, full be31518b (same job counts).  Then, before any run under that method, the paper
# profile's ooc_extra (Kemp's n = 6144 and 10240 for the out-of-core slow-down pair: 4 more jobs; paper was
# 301 jobs, 53acefb5).  Then (6fba6da, 2026-11-24 15:23) corrected_cap: Harish's corrected variant, Katz &
# Kider's divisor, also at n = 3072, 4096, 8192 (paper was 305 jobs, 1e7b1325).
FROZEN = {
    "smoke": (128, "09469dc1772121046e2e9cea7fbc0f3b8c462b0310df29955c575109ac495a55"),
    "quick": (171, "27f94960341653280c6a826cf6540dd4c44083bb896e03be145d4e7c7d94d1ae"),
    "paper": (308, "7706572ef445402c9bfcf50ae91fe780e0328b92ded759427b29a6782e18645e"),
    "full": (574, "b5300e93e14eccfa65f6da8f6f02792fea72dab18abb87c239971d1701f23eda"),
}


def _digest(jobs):
    text = "\n".join(json.dumps(dataclasses.asdict(j), sort_keys=True) for j in jobs)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("name", sorted(FROZEN))
def test_campaign_plan_is_unchanged(name):
    jobs = plan.campaign_jobs(profiles.profile(name))
    assert (len(jobs), _digest(jobs)) == FROZEN[name]


def _recorded():
    for p in sorted(Path(provenance.ROOT, "data", "results").glob("*/provenance*.json")):
        d = json.loads(p.read_text())
        if d.get("code_fingerprint") and d.get("git_commit") and not d["git_commit"].endswith("-dirty"):
            yield p, d["git_commit"], d["code_fingerprint"]


def test_recorded_runs_keep_their_code_fingerprint():
    """Each recorded run's fingerprint is recomputed from its commit with today's CODE_GLOBS: a glob
    added for new code must match nothing in those commits, or the recorded runs stop validating."""
    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=provenance.ROOT, capture_output=True).returncode:
        pytest.skip("no git here")
    checked = 0
    for path, commit, fp in _recorded():
        got = provenance.fingerprint_of_commit(commit)
        if got is None:
            continue                      # a shallow clone without that commit
        assert got == fp, f"{path}: recorded {fp[:12]}, commit {commit[:8]} now gives {got[:12]}"
        checked += 1
    if not checked:
        pytest.skip("none of the recorded commits is in this clone")
