"""One source of truth for every algorithm (issue 11): the package names no algorithm outside
algorithms/ (the study's choices of codes are data: data/codes.yaml, data/sweeps/kemp.yaml; facts about
an algorithm are registry fields), the codes files load, and a file naming an unknown code is refused."""
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from apsp_kernels import gpu_device, paths
from apsp_kernels.algorithms import registry
from apsp_kernels.study.method import codes
from apsp_kernels.study.seeds.hochberg import spec as hochberg_spec, load as HD

PACKAGE = Path(registry.__file__).resolve().parents[1]


def test_no_algorithm_name_outside_the_algorithms_package():
    """Issue 11's criterion: a grep finds no algorithm name, as a string literal (or name/...), in the
    package outside algorithms/."""
    names = sorted({a.name for p in registry.PROBLEMS for a in registry.by_problem(p)})
    found = []
    for p in sorted(PACKAGE.rglob("*.py")):
        rel = p.relative_to(PACKAGE).as_posix()
        if rel.startswith("algorithms/"):
            continue
        text = p.read_text(encoding="utf-8")
        for n in names:
            k = len(re.findall(r"['\"]%s(/[^'\"]*)?['\"]" % re.escape(n), text))
            if k:
                found.append(f"{rel}: {n} x{k}")
    assert not found, "algorithm names outside algorithms/ (put the choice in data/ or the registry): " + "; ".join(found)


@pytest.mark.parametrize("path", [codes.CODES_FILE, codes.KEMP_SWEEP], ids=lambda p: p.name)
def test_every_section_of_the_codes_files_loads(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for section in data:
        got = codes.load(section, path)
        assert got
        for v in got.values():
            for c in (v.values() if isinstance(v, dict) else v if isinstance(v, list) else [v]):
                assert isinstance(c, codes.Code) and c.algorithm in registry.ALGORITHMS


def test_parse():
    assert codes.parse("katz_kider/16") == codes.Code("katz_kider", "16")
    assert codes.parse("fw_sequential") == ("fw_sequential", None)


def _write(tmp_path, text):
    p = tmp_path / "codes.yaml"
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("text, key, what", [
    ("study:\n  gpu: no_such_code/16\n", "study.gpu", "unknown algorithm 'no_such_code'"),
    ("study:\n  cpu: [fw_sequential, nope]\n", "study.cpu[1]", "unknown algorithm 'nope'"),
    ("study:\n  legend: {a label: fw_sequential, other: nope}\n", "study.legend.other", "unknown algorithm 'nope'"),
    ("study:\n  kk: katz_kider/17\n", "study.kk", "katz_kider has no variant '17'"),
])
def test_an_unknown_code_is_refused_in_one_line_naming_file_and_key(tmp_path, text, key, what):
    with pytest.raises(ValueError) as e:
        codes.load("study", _write(tmp_path, text))
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"codes.yaml: {key}: ") and what in msg


def test_a_missing_section_is_named(tmp_path):
    with pytest.raises(KeyError, match="codes.yaml: no section 'other'"):
        codes.load("other", _write(tmp_path, "study:\n  gpu: tran_fw\n"))


def test_the_hochberg_report_names_only_runs_of_its_sweep():
    """data/codes.yaml's hochberg section gives parts to runs that data/sweeps/hochberg.yaml measures."""
    spec = hochberg_spec.load()
    runs = {tuple(map(str, r)) for r in [spec["cycles"]["gpu"], spec["cycles"]["cpu"], *spec["explorations"]["runs"],
                                          *spec["race"]["runs"]]}
    for run in (HD.GPU, HD.CPU, HD.TEXT, HD.NOSYNC, HD.COLUMNS, HD.UNPADDED, HD.PITCH, HD.NEXT_HOP, *HD.RUNS):
        assert run in runs, run
    assert (HD.GPU, HD.CPU) == tuple(tuple(map(str, spec["cycles"][k])) for k in ("gpu", "cpu"))


def test_codes_files_live_beside_the_other_data():
    assert codes.CODES_FILE.parent == paths.DATA and codes.KEMP_SWEEP.parent == paths.DATA / "sweeps"


# ------------------------------------------------------------------ the registry's roles
def test_each_role_is_played_by_exactly_one_algorithm():
    roles = {r for a in registry.ALGORITHMS.values() for r in a.roles}
    assert "out_of_core" in roles
    for r in roles:
        a = registry.by_role(r)
        assert r in a.roles
    ooc = registry.by_role("out_of_core")
    assert ooc.device == "gpu" and ooc.forced_params is not None     # it can be forced out of core


def test_an_unknown_role_is_refused():
    with pytest.raises(LookupError, match="role 'no_such_role' is played by 0 algorithms"):
        registry.by_role("no_such_role")


def test_a_graph_that_does_not_fit_points_to_the_out_of_core_role_and_list_names_it(monkeypatch):
    monkeypatch.setattr(gpu_device, "free_bytes", lambda: (2**20, 2**30))
    with pytest.raises(gpu_device.GPUMemoryError) as e:
        gpu_device.check_fits("some_code", 2**30)
    assert "try a smaller graph or an out-of-core algorithm (role out_of_core in `python -m apsp_kernels list`)" in str(e.value)
    listed = subprocess.run([sys.executable, "-m", "apsp_kernels", "list"], capture_output=True, text=True, check=True).stdout
    line, = [ln for ln in listed.splitlines() if "role out_of_core" in ln]
    assert line.split()[0] == registry.by_role("out_of_core").name
    with pytest.raises(gpu_device.GPUMemoryError, match="or a smaller budget$"):
        gpu_device.check_fits("some_code", 2**30, hint="a smaller budget")


# The campaign's notebooks (00-06) still name the codes they plot: issue 31 item 3 moves those choices into
# data/codes.yaml or the kemp study's spec; until then each may name no more than it does today (a ratchet).
NOTEBOOK_NAMES_LEFT = {
    "00_environment_and_cpu_baselines": {"dijkstra_cpu_parallel", "fw_blocked", "fw_blocked_parallel", "fw_blocked_vec",
                                         "fw_sequential", "scipy_fw"},
    "01_tran_fw": {"fw_sequential", "hochberg_naive", "minplus_cpu", "thrust_fw", "tran_fw", "tran_minplus"},
    "02_katz_kider": {"dijkstra_cpu_parallel", "fw_blocked", "fw_blocked_parallel", "fw_sequential", "harish", "katz_kider"},
    "03_harish_scaling": {"dijkstra_cpu", "dijkstra_cpu_parallel", "fw_sequential", "harish"},
    "04_memory_modes": {"fw_sequential", "hochberg_naive", "katz_kider", "thrust_fw", "tran_fw"},
    "05_out_of_core": {"fw_blocked", "fw_sequential", "katz_kider", "kemp_ooc"},
    "06_all_algorithms": {"fw_sequential", "harish", "hochberg_naive", "katz_kider", "kemp_ooc", "thrust_fw", "tran_fw",
                          "tran_minplus"},
}


def test_notebooks_name_no_algorithm():
    """The same grep over the notebooks' code cells: notebooks 07-11 name no algorithm (their codes come from
    data/codes.yaml or their study), and 00-06 no more than NOTEBOOK_NAMES_LEFT."""
    import json
    names = sorted({a.name for p in registry.PROBLEMS for a in registry.by_problem(p)})
    extra = []
    for nb in sorted((paths.ROOT / "notebooks").glob("*.ipynb")):
        src = "\n".join("".join(c["source"]) for c in json.loads(nb.read_text(encoding="utf-8"))["cells"]
                        if c["cell_type"] == "code")
        named = {n for n in names if re.search(r"['\"]%s(/[^'\"]*)?['\"]" % re.escape(n), src)}
        if named - NOTEBOOK_NAMES_LEFT.get(nb.stem, set()):
            extra.append(f"{nb.name}: {sorted(named - NOTEBOOK_NAMES_LEFT.get(nb.stem, set()))}")
    assert not extra, "algorithm names in notebooks (take them from data/codes.yaml or the study): " + "; ".join(extra)
