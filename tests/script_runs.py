"""Running a script of scripts/ as a user would: a fresh interpreter, from the repository root."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_script(script, *args, timeout=600):
    """``script`` (a path) with ``args``: the finished process, its output as text."""
    return subprocess.run([sys.executable, str(script), *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def dry_run(script, out):
    """``script --dry-run --out out``, which must succeed: the finished process and the provenance it wrote."""
    r = run_script(script, "--dry-run", "--out", out)
    assert r.returncode == 0, r.stderr[-3000:]
    return r, json.loads((Path(out) / "provenance.json").read_text())
