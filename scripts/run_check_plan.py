"""Run a held-out check's device commands as its plan names them, in order, and nothing else.

    python3 scripts/run_check_plan.py data/results/solver/<date>-<name>-plan.yaml --out $OUT [--only 2] [--dry-run]

A plan (committed before its data: ``*-plan.yaml`` beside the rows it is for) lists its commands under
``commands``, each a ``python3 ...`` line with ``$OUT`` for the output folder; the other lines there are notes.  Each
command runs from the repository root with ``$OUT`` set to ``--out``, its output logged to ``<out>/<plan
stem>-<k>.log``; one that fails does not stop the next, and the exit status says whether any failed.  ``--only K``
runs the K-th command alone (1-based: one device call may not hold them all); ``--dry-run`` prints them.
``--pack``: afterwards every file under ``--out`` moves into one ``<plan stem>-out.tar.gz`` there (the device
machine brings back at most 8 files, two folders down: a plan whose commands write more, or into subfolders of
their own, would lose some; ``tar -xzf`` it here).  A run that wrote more than 8 files is packed without it.
Where pymetis is not installed it refuses before any command (every plan checks auto, whose rules were set with the
elimination ordered by METIS: :func:`apsp_kernels.elimination_choice.unmeasured_ordering`), unless every command
it runs says ``--without-metis``."""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RETURNED = 8          # the files the device machine brings back from $OUT: a run that writes more is packed


def commands(plan_file):
    """The plan's runnable commands (its ``commands`` lines that start with ``python3``), in order."""
    import yaml
    plan = yaml.safe_load(Path(plan_file).read_text()) or {}
    got = [c for c in plan.get("commands") or () if isinstance(c, str) and c.startswith("python3 ")]
    if not got:
        raise SystemExit(f"{plan_file}: no 'python3 ...' line under 'commands'")
    return got


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("plan")
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", type=int, default=None, help="run the K-th command alone (1-based)")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--pack", action="store_true", help="afterwards, every file under --out in one .tar.gz there")
    a = ap.parse_args(argv)
    todo = list(enumerate(commands(a.plan), 1))
    if a.only is not None:
        if not 1 <= a.only <= len(todo):
            ap.error(f"--only {a.only}: the plan has {len(todo)} command(s)")
        todo = [todo[a.only - 1]]
    sys.path.insert(0, str(ROOT))
    from apsp_kernels.elimination_choice import unmeasured_ordering
    # every plan checks auto, whose rules were set with METIS, but one whose commands all say --without-metis
    if not a.dry_run and not all("--without-metis" in line for _, line in todo) and unmeasured_ordering():
        ap.error(unmeasured_ordering())
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, OUT=str(out))
    results = []
    for k, line in todo:
        argv_k = [sys.executable if w == "python3" else w for w in shlex.split(line.replace("$OUT", str(out)))]
        print(f"[{k}] {shlex.join(argv_k)}", flush=True)
        if a.dry_run:
            continue
        t0 = time.monotonic()
        with open(out / f"{Path(a.plan).stem}-{k}.log", "w") as log:
            rc = subprocess.run(argv_k, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
        results.append((k, rc, time.monotonic() - t0))
    for k, rc, s in results:
        print(f"command {k}: exit {rc}, {s:.0f} s")
    written = sum(1 for f in out.rglob("*") if f.is_file())
    if not a.dry_run and (a.pack or written > RETURNED):      # more than come back: packed whatever was asked
        archive = out / f"{Path(a.plan).stem}-out.tar.gz"
        why = "" if a.pack else f" (more than the {RETURNED} files the device brings back)"
        print(f"packed {pack(out, archive)} files into {archive.name}{why}")
    return int(any(rc for _, rc, _ in results))


def pack(folder, archive):
    """Move every file under ``folder`` (but ``archive``) into the gzipped tar ``archive``, paths relative to
    ``folder``; empty folders left are removed.  The number of files packed."""
    import tarfile
    files = sorted(f for f in folder.rglob("*") if f.is_file() and f != archive)
    with tarfile.open(archive, "w:gz") as tar:
        for f in files:
            tar.add(f, arcname=str(f.relative_to(folder)))
    for f in files:
        f.unlink()
    for d in sorted((d for d in folder.rglob("*") if d.is_dir()), key=lambda d: -len(d.parts)):
        if not any(d.iterdir()):
            d.rmdir()
    return len(files)


if __name__ == "__main__":
    raise SystemExit(main())
