"""What new algorithms and studies may not change: the campaign plan of every profile (the jobs that
the recorded reference runs measured) and the code fingerprints of those recorded runs."""
import dataclasses
import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from apsp_kernels import provenance
from apsp_kernels.study import plan, profiles

# sha256 over the jobs of plan.campaign_jobs(profile), one JSON line per job, as of commit 6ec0e68
# (before the Hochberg study).  A change here is a change of the campaign: new studies measure
# their own jobs (scripts/hochberg_measure.py), never by adding to these.
FROZEN = {
    "smoke": (128, "52b2e4c4038fc1b3ad6c49879fafa64bf8170c56159dfda0bb48a032e67a794f"),
    "quick": (171, "f699d2f0a8f96639847e9baa616a77413db8b5b9a5bbd32b15d0b18db2edd76d"),
    "paper": (301, "df2668719bb015c37410022bb116368d62021fe3a7258ef9888f12048e3c1726"),
    "full": (574, "be31518b0a08bb9ee10a7a8949dea26b0a264eef34a483fe84e61bebaa07a32d"),
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
