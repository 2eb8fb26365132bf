"""What machine and software produced a result: recorded beside every results file."""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path

_PKGS = ("numpy", "scipy", "numba", "pandas", "cupy-cuda13x", "cupy-cuda12x", "cupy", "papermill", "seaborn",
         "pymetis", "networkit")        # the last two change what is measured: the elimination's ordering, a library


ROOT = Path(__file__).resolve().parents[2]
# The files whose content decides a measurement: the solvers, kernels, harness and the campaign's
# plan.  The analysis (study's statistics, rules, verdicts, figures), the notebooks and the claims
# only read measurements, so a recorded run can be re-rendered by later code.
# Some globs match only files that older commits hold (the kernels once in apsp_kernels/cuda/, the studies'
# modules once directly in apsp_kernels/study/): with them fingerprint_of_commit gives each recorded run's
# commit the fingerprint the run recorded (tests/test_plan_frozen.py and tests/test_recorded_provenance.py check
# every one).  So none is dropped, and a glob added for new code must match nothing in those commits.
CODE_GLOBS = ("apsp_kernels/*.py", "apsp_kernels/cuda/*.cu", "apsp_kernels/cuda/*.cuh",      # cuda/: older commits
              "apsp_kernels/algorithms/*.py", "apsp_kernels/algorithms/cpu/*.py", "apsp_kernels/algorithms/gpu/*.py",
              "apsp_kernels/algorithms/gpu/cuda/*.cu", "apsp_kernels/algorithms/gpu/cuda/*.cuh",
              "apsp_kernels/algorithms/gpu/multi/*.py",     # the multi-GPU solver
              "apsp_kernels/algorithms/gpu/tuned/*.py",     # the tuned line
              "apsp_kernels/algorithms/cpu/elimination/*.py",   # the supernodal elimination
              # older commits: the campaign's plan and profiles, and the loader of the plan's codes
              "apsp_kernels/study/campaign.py", "apsp_kernels/study/plan.py", "apsp_kernels/study/profiles.py",
              "apsp_kernels/study/codes.py",
              # older commits' Hochberg runner, and the studies' sweeps
              "apsp_kernels/study/hochberg_*.py", "data/sweeps/*.yaml",
              # older commits: the IIT Kharagpur study's runs and spec, and the multi-GPU measurement jobs
              "apsp_kernels/study/iitkgp_runs.py", "apsp_kernels/study/iitkgp_spec.py",
              "apsp_kernels/study/nthu_runs.py",
              # graph formats, data sets and seed 001's catalogue
              "apsp_kernels/io/*.py",
              # the graph type, distances, generators and verification
              "apsp_kernels/core/*.py",
              # the measurement harness, bench and hardware probes
              "apsp_kernels/measure/*.py")
STUDIES_FILE = ROOT / "data" / "studies.yaml"


def study_code(path=STUDIES_FILE):
    """{study: its measuring code (paths)}, as data/studies.yaml declares it (study/registry.py gives it to each Study)."""
    import yaml
    return {k: tuple(v.get("code") or ()) for k, v in yaml.safe_load(Path(path).read_text())["studies"].items()}


# The files whose content decides a measurement: the globs above and each study's measuring code, the files of
# its package under study/seeds/ that data/studies.yaml declares by name.
CODE_GLOBS = CODE_GLOBS + tuple(p for code in study_code().values() for p in code if p not in CODE_GLOBS)

# The files that turn measurements into verdicts: the method (statistics, rules, the verdict rows), the study
# contract and records it reads through, the verdict words, each seed's analysis (its loading, verdicts,
# analysis and scaling modules; not its measurement, figures or study.py) and the claims themselves.  A
# pre-registered batch fixes them (apsp_kernels/study/preregistration.py): changing one afterwards changes
# this fingerprint, and a batch measured under a plan refuses to start.
METHOD_GLOBS = ("apsp_kernels/study/method/*.py", "apsp_kernels/study/contract.py", "apsp_kernels/study/records.py",
                "apsp_kernels/study/words.py",
                "apsp_kernels/study/seeds/*/verdicts.py", "apsp_kernels/study/seeds/*/analysis.py",
                "apsp_kernels/study/seeds/*/load.py", "apsp_kernels/study/seeds/*/scaling.py",
                "data/claims.yaml")


class ProvenanceError(RuntimeError):
    pass


def _blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()      # git's blob id


def code_fingerprint(root=ROOT, globs=None) -> str:
    """sha1 over (path, git blob id) of the files matching ``globs`` (default :data:`CODE_GLOBS`, the code
    files): equal to :func:`fingerprint_of_commit` of the commit the tree was checked out from, with or
    without a .git beside it (the device machine gets a copy of the working tree whose .git may be stale)."""
    root = Path(root)
    globs = CODE_GLOBS if globs is None else globs
    files = sorted({p for g in globs for p in root.glob(g) if p.is_file() and "__pycache__" not in p.parts})
    h = hashlib.sha1()
    for p in files:
        h.update(f"{p.relative_to(root).as_posix()} {_blob_sha1(p.read_bytes())}\n".encode())
    return h.hexdigest()


def method_fingerprint(root=ROOT) -> str:
    """The fingerprint of the method's files (:data:`METHOD_GLOBS`) in the tree at ``root``."""
    return code_fingerprint(root, METHOD_GLOBS)


def fingerprint_of_commit(commit, root=ROOT, globs=None):
    """The same fingerprint computed from git's objects for ``commit`` (None without git); ``globs`` as
    :func:`code_fingerprint`'s."""
    import fnmatch
    globs = CODE_GLOBS if globs is None else globs
    try:
        out = subprocess.run(["git", "ls-tree", "-r", commit], cwd=root, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    rows = []
    for line in out.stdout.splitlines():
        meta, path = line.split("\t", 1)
        _, kind, sha = meta.split()
        if kind == "blob" and any(fnmatch.fnmatch(path, pt) and path.count("/") == pt.count("/") for pt in globs):
            rows.append((path, sha))
    h = hashlib.sha1()
    for path, sha in sorted(rows):
        h.update(f"{path} {sha}\n".encode())
    return h.hexdigest()


def git_commit():
    """HEAD (with '-dirty' where tracked files differ from it), or $APSP_GIT_COMMIT where the
    tree is a copy without a usable .git (then the fingerprint ties it to that commit)."""
    if os.environ.get("APSP_GIT_COMMIT"):
        return os.environ["APSP_GIT_COMMIT"], "APSP_GIT_COMMIT"
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=5)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=5).stdout.strip()
        return (out.stdout.strip() + ("-dirty" if dirty else "") if out.returncode == 0 else None), "git"
    except (OSError, subprocess.SubprocessError):
        return None, "none"


def same_source(commits, paths, root=None):
    """True where ``paths`` (a file or folder, or a list of them) are byte-identical at every one of
    ``commits`` (``git diff --quiet``, in the checkout; a recorded '-dirty' mark is dropped), False where
    they differ, None where git cannot tell (no .git, an unknown commit).  The recorded ``code_fingerprint`` cannot say it: it hashes every
    code file, so a batch measured at two commits that share their kernels looks as mixed as one that does not."""
    commits = list(dict.fromkeys(c.removesuffix("-dirty") for c in commits if c))
    if len(commits) < 2:
        return True if commits else None
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    try:
        rcs = [subprocess.run(["git", "diff", "--quiet", a, b, "--", *map(str, paths)], cwd=root or ROOT,
                              capture_output=True, timeout=20).returncode for a, b in zip(commits, commits[1:])]
    except (OSError, subprocess.SubprocessError):
        return None
    return None if any(rc > 1 for rc in rcs) else not any(rcs)


def check_batch(run_dir, prov, strict=False, pattern="provenance-*.json"):
    """A batch records one commit: refuse a provenance file of ``run_dir`` (``pattern``) measured at
    other code than ``prov`` (a process about to join the batch, or the batch's first when it is
    loaded); and a reference run (``strict``) refuses to record from a dirty tree."""
    commit = prov.get("git_commit") or ""
    if strict and (not commit or commit.endswith("-dirty")):
        raise ProvenanceError(f"refusing to record a reference run from a dirty or unknown tree ({commit or 'no commit'}): "
                              "commit first, or set APSP_GIT_COMMIT to the commit this copy was made from")
    code = prov.get("code_fingerprint")
    for other in sorted(Path(run_dir).glob(pattern)):
        o = json.loads(other.read_text())
        if o.get("code_fingerprint") != code or (o.get("git_commit") or "") != commit:
            raise ProvenanceError(f"{other} was measured at {o.get('git_commit')} (code {str(o.get('code_fingerprint'))[:12]}), "
                                  f"different code from {commit or None} (code {str(code)[:12]}): one batch, one commit")


PLAN_ENV = "APSP_PREREGISTRATION"


def preregistration(root=ROOT, code=None):
    """The plan a batch is measured under ($APSP_PREREGISTRATION, a plan of study/preregistration.py) as
    ``{path, sha256}`` for the provenance, or None where none is named.  Refuses (ProvenanceError) where this
    tree's method or code fingerprint is not the plan's: the plan fixed both before any of its data existed, so
    a measurement under other code or another method belongs to no plan.  Both are computed from the files, as
    :func:`code_fingerprint` is, since the device machine's copy may carry a stale .git.  Whether the hash is a
    committed plan's is checked where the results are committed (tests/test_preregistration.py)."""
    import yaml
    named = os.environ.get(PLAN_ENV)
    if not named:
        return None
    f = Path(named).resolve()
    if not f.is_file():
        raise ProvenanceError(f"{PLAN_ENV}={named}: no plan file there")
    data = f.read_bytes()
    plan = yaml.safe_load(data) or {}
    have = {"method_fingerprint": method_fingerprint(root), "code_fingerprint": code or code_fingerprint(root)}
    for key, value in have.items():
        if plan.get(key) != value:
            raise ProvenanceError(f"refusing to measure under plan {named}: this tree's {key} {value[:12]} is not the "
                                  f"plan's {str(plan.get(key))[:12]} (a changed method or code is a new plan and a new batch)")
    try:
        path = f.relative_to(Path(root).resolve()).as_posix()      # the committed plan's place in the repository
    except ValueError:
        path = str(f)
    return {"path": path, "sha256": hashlib.sha256(data).hexdigest()}


def _cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _cpu_state():
    """What decides single-thread speed and can be read: governor, current and max frequency,
    and the CPU this process may run on (the CPU baselines pin no core: numba's threads and
    the OS place them; recorded so a reader can see what was available)."""
    out = {}
    base = Path("/sys/devices/system/cpu/cpu0/cpufreq")
    for key, f in (("cpu_governor", "scaling_governor"), ("cpu_mhz_now", "scaling_cur_freq"),
                   ("cpu_mhz_max", "cpuinfo_max_freq")):
        try:
            v = (base / f).read_text().strip()
            out[key] = v if key == "cpu_governor" else round(int(v) / 1000)
        except (OSError, ValueError):
            out[key] = None
    try:
        out["cpu_affinity"] = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        out["cpu_affinity"] = None
    try:   # which boot of which machine: processes of one campaign on different leases differ here
        out["boot_id"] = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        out["boot_id"] = None
    return out


def gpu_info():
    """GPU name, driver, CUDA runtime and CuPy version, or None without a usable GPU."""
    try:
        import cupy as cp
        if cp.cuda.runtime.getDeviceCount() < 1:
            return None
        props = cp.cuda.runtime.getDeviceProperties(0)
        return {
            "gpu": props["name"].decode() if isinstance(props["name"], bytes) else props["name"],
            "sm_count": props["multiProcessorCount"],
            "compute_capability": f"{props['major']}.{props['minor']}",
            "gpu_memory_bytes": int(props["totalGlobalMem"]),
            "driver_version": cp.cuda.runtime.driverGetVersion(),
            "cuda_runtime_version": cp.cuda.runtime.runtimeGetVersion(),
            "cupy": cp.__version__,
        }
    except Exception:
        return None


def beside(results_file):
    """The provenance file of a results file: ``<stem>.provenance.json`` beside it."""
    f = Path(results_file)
    return f.with_suffix(".provenance.json")


def invocations(results_file):
    """The provenance records of a results file (:func:`beside` it): one per invocation of the measurement that wrote
    it, in order (one where it ran once); [] where there is none or it cannot be read."""
    try:
        d = json.loads(beside(results_file).read_text())
    except (OSError, ValueError):
        return []
    return [i for i in (d.get("invocations") or [d]) if isinstance(i, dict)]


def write_invocation(path, prov, append=False):
    """Write ``prov`` to ``path``; with ``append`` and a record already there, as one more of its invocations
    (``{"invocations": [...]}``: one results file measured by several commands)."""
    path = Path(path)
    if append and path.exists():
        old = json.loads(path.read_text())
        prov = {"invocations": (old.get("invocations") or [old]) + [prov]}
    path.write_text(json.dumps(prov, indent=2, default=str))


def collect(profile=None, parameters=None) -> dict:
    pkgs = {}
    for p in _PKGS:
        try:
            pkgs[p] = metadata.version(p)
        except metadata.PackageNotFoundError:
            pass
    try:
        import numba
        threads = numba.config.NUMBA_NUM_THREADS
    except ImportError:
        threads = None
    commit, commit_from = git_commit()
    code = code_fingerprint()
    plan = preregistration(code=code)          # refuses before anything is measured under a plan it breaks
    info = {
        "timestamp": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "git_commit": commit,
        "git_commit_from": commit_from,
        "code_fingerprint": code,
        "hostname": platform.node(),
        "cpu": _cpu_model(),
        "cpu_cores": os.cpu_count(),
        "cpu_threads_used": threads,
        "python": platform.python_version(),
        "packages": pkgs,
        "profile": profile,
        "parameters": parameters or {},
    }
    if plan is not None:
        info["preregistration"] = plan
    info.update(_cpu_state())
    from .host_speed import metis_ms
    info["host_metis_ms"] = metis_ms()        # the host CPU's speed at the elimination's ordering, per lease
    gi = gpu_info()
    info.update(gi or {"gpu": None})
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=10)
        if out.returncode == 0:
            info["nvidia_driver"] = out.stdout.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError):
        pass
    return info
