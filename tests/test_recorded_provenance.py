"""Every committed results file names the commit it was measured at: the sha resolves in this
checkout's history, and where a code fingerprint was recorded beside it, that commit's code has it.
A device command gets its commit by hand (APSP_GIT_COMMIT), so a mistyped sha is possible; this is
where it is caught.  Needs the git history (a clean clone has it); skipped without."""
import json
import subprocess

import pytest

from apsp_kernels import paths
from apsp_kernels.measure import provenance
from apsp_kernels.measure.provenance import same_source


def _git(*args):
    return subprocess.run(["git", *args], cwd=provenance.ROOT, capture_output=True, text=True, timeout=30)


def _recorded():
    """{(commit, fingerprint): [files]} over every committed provenance record under data/results: the runs'
    ``provenance*.json`` and the benchmarks' ``*.provenance.json`` (one record, or one per invocation)."""
    out = {}
    for f in sorted(paths.RECORDED.rglob("*provenance*.json")):
        d = json.loads(f.read_text())
        for p in d.get("invocations") or [d]:
            full = str(p.get("git_commit") or "")
            c = full.removesuffix("-dirty")
            if c and c != "unknown":
                # a dirty copy's fingerprint is of a tree no commit has: the commit is checked, the fingerprint not
                fp = None if full.endswith("-dirty") else p.get("code_fingerprint")
                out.setdefault((c, fp), []).append(str(f.relative_to(provenance.ROOT)))
    return out


@pytest.fixture(scope="module")
def recorded():
    if _git("rev-parse", "HEAD").returncode:
        pytest.skip("no git history here")
    rec = _recorded()
    assert rec, f"no provenance records under {paths.RECORDED}"
    return rec


def test_every_recorded_commit_is_in_the_history(recorded):
    missing = {c: fs[:2] for (c, _), fs in recorded.items() if _git("cat-file", "-e", f"{c}^{{commit}}").returncode}
    assert not missing, f"recorded commits that name no commit here: {missing}"


def test_every_recorded_fingerprint_is_its_commits(recorded):
    wrong = {}
    for (c, fp), fs in recorded.items():
        if fp:
            have = provenance.fingerprint_of_commit(c)
            if have is not None and have != fp:
                wrong[c[:12]] = (fp[:12], have[:12], fs[0])
    assert not wrong, f"commit: (recorded fingerprint, the commit's fingerprint, a file): {wrong}"


def test_same_source_tells_identical_from_changed_paths():
    if _git("cat-file", "-e", "86dfff7^{commit}").returncode or _git("cat-file", "-e", "f84bdf8^{commit}").returncode:
        pytest.skip("no git history here to compare the commits")
    assert same_source(["86dfff7", "f84bdf8"], "apsp_kernels/algorithms/gpu/cuda") is True     # no kernel changed
    assert same_source(["86dfff7", "f84bdf8"], ["apsp_kernels/algorithms/gpu/cuda",
                                                "apsp_kernels/algorithms/cpu"]) is False       # the round loop merged
    assert same_source(["86dfff7", "0" * 40], "apsp_kernels") is None                          # cannot tell
    assert same_source(["86dfff7"], "apsp_kernels") is True                                     # one commit


def test_the_invocations_of_a_results_file(tmp_path):
    """One record, several (one per invocation that wrote the file), none, and an unreadable one."""
    one, many, none, bad = (tmp_path / f"{s}.csv" for s in ("one", "many", "none", "bad"))
    provenance.beside(one).write_text(json.dumps({"git_commit": "a"}))
    provenance.beside(many).write_text(json.dumps({"invocations": [{"git_commit": "a"}, {"git_commit": "b"}]}))
    provenance.beside(bad).write_text("{")
    assert provenance.beside(one).name == "one.provenance.json"
    assert [i["git_commit"] for i in provenance.invocations(one)] == ["a"]
    assert [i["git_commit"] for i in provenance.invocations(many)] == ["a", "b"]
    assert provenance.invocations(none) == [] and provenance.invocations(bad) == []
