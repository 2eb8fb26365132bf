"""One source of truth for every algorithm: the package names no algorithm outside
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
    """A grep finds no algorithm name, as a string literal (or name/...), in the
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


def _names_in_notebook(nb):
    """The registry names a notebook's code cells write as a string literal (or name/...), as the package's grep."""
    import json
    names = sorted({a.name for p in registry.PROBLEMS for a in registry.by_problem(p)})
    src = "\n".join("".join(c["source"]) for c in json.loads(Path(nb).read_text(encoding="utf-8"))["cells"]
                    if c["cell_type"] == "code")
    return {n for n in names if re.search(r"['\"]%s(/[^'\"]*)?['\"]" % re.escape(n), src)}


def test_notebooks_name_no_algorithm():
    """The same grep over every notebook's code cells finds no algorithm name: a notebook takes
    its codes by role from data/codes.yaml (notebooks 00-06: section kemp) or from its study, so that a
    renamed algorithm is renamed in one place."""
    nbs = sorted((paths.ROOT / "notebooks").glob("*.ipynb"))
    assert len(nbs) >= 12
    found = [f"{nb.name}: {sorted(named)}" for nb in nbs if (named := _names_in_notebook(nb))]
    assert not found, "algorithm names in notebooks (take them from data/codes.yaml or the study): " + "; ".join(found)


def test_the_notebook_grep_finds_a_name_in_a_code_cell_and_not_in_markdown(tmp_path):
    """The grep above can fail: a code cell that writes a registry name (alone or name/variant, in either
    quotes) is caught; prose in a markdown cell, and a name that only contains a registry name, are not."""
    import nbformat
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell('Katz & Kider ("katz_kider") against "fw_sequential"'),
        nbformat.v4.new_code_cell('sp = study.speedups(df, "katz_kider", \'fw_sequential\')\nx = "harish/atomic"\n'
                                  'y = "katz_kider_like"')])
    p = tmp_path / "nb.ipynb"
    nbformat.write(nb, p)
    assert _names_in_notebook(p) == {"katz_kider", "fw_sequential", "harish"}


def test_the_kemp_section_names_every_code_notebooks_00_06_take_by_role():
    """data/codes.yaml's kemp section: the roles notebooks 00-06 read, each a code of the registry."""
    import json
    k = codes.load("kemp")
    used = set()
    for nb in sorted((paths.ROOT / "notebooks").glob("0[0-6]_*.ipynb")):
        src = "\n".join("".join(c["source"]) for c in json.loads(nb.read_text(encoding="utf-8"))["cells"])
        used |= set(re.findall(r"codes\[['\"](\w+)['\"]\]", src))
    assert used and used <= set(k), sorted(used - set(k))
    assert set(k) - used == set(), f"roles no notebook reads: {sorted(set(k) - used)}"
