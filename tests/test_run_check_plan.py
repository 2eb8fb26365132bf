"""scripts/run_check_plan.py: a held-out check's commands run as its plan lists them, and nothing else."""
import yaml

from script_runs import ROOT, run_script

SCRIPT = ROOT / "scripts" / "run_check_plan.py"


def test_the_recorded_plans_commands_are_what_it_would_run(tmp_path):
    plan = ROOT / "data" / "results" / "solver" / "NVIDIA_H200-2026-11-29-rules-check-plan.yaml"
    r = run_script(SCRIPT, plan, "--out", tmp_path, "--dry-run")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and "structure_suite" in lines[0] and "e2e_scatter_probe.py" in lines[1]
    assert all(f"--out {tmp_path}" in x and "$OUT" not in x for x in lines)
    assert not list(tmp_path.glob("*.log"))


def test_every_command_runs_in_order_each_logged_and_a_failure_is_the_exit_status(tmp_path):
    plan = tmp_path / "x-plan.yaml"
    plan.write_text(yaml.safe_dump({"commands": [
        "python3 -c \"import os, pathlib; pathlib.Path(os.environ['OUT'], 'one').write_text('$OUT')\"",
        "a note, not a command",
        "python3 -c \"raise SystemExit('two failed')\"",
        "python3 -c \"print('three ran')\""]}))
    out = tmp_path / "out"
    r = run_script(SCRIPT, plan, "--out", out)
    assert r.returncode == 1
    assert (out / "one").read_text() == str(out)
    assert "two failed" in (out / "x-plan-2.log").read_text() and "three ran" in (out / "x-plan-3.log").read_text()
    assert "command 2: exit 1" in r.stdout and "command 3: exit 0" in r.stdout
    r = run_script(SCRIPT, plan, "--out", out, "--only", 3)
    assert r.returncode == 0 and r.stdout.count("command ") == 1


def test_a_plan_without_commands_or_an_index_past_them_is_one_line(tmp_path):
    plan = tmp_path / "empty-plan.yaml"
    plan.write_text("what: nothing\n")
    r = run_script(SCRIPT, plan, "--out", tmp_path)
    assert r.returncode != 0 and "no 'python3 ...' line under 'commands'" in r.stderr
    plan.write_text(yaml.safe_dump({"commands": ["python3 -c pass"]}))
    r = run_script(SCRIPT, plan, "--out", tmp_path, "--only", 2)
    assert r.returncode == 2 and "the plan has 1 command(s)" in r.stderr


def test_pack_moves_every_output_into_one_archive(tmp_path):
    """The device brings back at most 8 files: --pack leaves one archive holding all of them, subfolders too; a run
    that wrote more is packed without --pack."""
    import tarfile
    plan = tmp_path / "p-plan.yaml"
    plan.write_text(yaml.safe_dump({"commands": [
        "python3 -c \"import os, pathlib; o = pathlib.Path(os.environ['OUT']); (o / 'c').mkdir(); "
        "[(o / 'c' / f'f{i}.csv').write_text(str(i)) for i in range(9)]\""]}))
    out = tmp_path / "out"
    r = run_script(SCRIPT, plan, "--out", out, "--pack")
    assert r.returncode == 0, r.stderr
    assert [p.name for p in out.iterdir()] == ["p-plan-out.tar.gz"] and "packed 10 files" in r.stdout
    again = tmp_path / "again"                              # 10 files, no --pack: more than come back, packed
    r = run_script(SCRIPT, plan, "--out", again)
    assert [p.name for p in again.iterdir()] == ["p-plan-out.tar.gz"] and "more than the 8 files" in r.stdout
    with tarfile.open(out / "p-plan-out.tar.gz") as tar:
        names = set(tar.getnames())
        assert names == {"p-plan-1.log"} | {f"c/f{i}.csv" for i in range(9)}
        assert tar.extractfile("c/f8.csv").read() == b"8"
