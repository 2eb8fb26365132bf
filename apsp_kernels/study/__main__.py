"""One entry point for every study (issue 31):

    python -m apsp_kernels.study list                       # the registered studies
    python -m apsp_kernels.study measure <study> [args...]  # measure it (its own arguments; --help)

Each study's ``measure`` (study/registry.py) names what measures it: a module's ``main(argv)``, or a
script of scripts/ run as if from its command line (child processes it starts re-run that script)."""
from __future__ import annotations

import importlib
import runpy
import sys

from .registry import STUDIES


def measure(name, argv):
    """Run study ``name``'s measurement with ``argv`` (its own arguments); returns its exit status."""
    if name not in STUDIES:
        raise SystemExit(f"no study {name!r}; the studies: {', '.join(STUDIES)}")
    what, *prefix = STUDIES[name].measure.split()
    if what.endswith(".py"):
        from .. import paths
        script = paths.ROOT / what
        sys.argv = [str(script), *prefix, *argv]
        try:
            runpy.run_path(str(script), run_name="__main__")
        except SystemExit as e:
            return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        return 0
    rc = importlib.import_module(what).main([*prefix, *argv])
    return rc if isinstance(rc, int) else 0


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if argv[0] == "list":
        for s in STUDIES.values():
            print(f"{s.name:10} seeds {', '.join(s.seeds) or '-':10} notebooks {', '.join(s.notebooks)}: {s.title}")
        return 0
    if argv[0] == "measure" and len(argv) >= 2:
        return measure(argv[1], argv[2:])
    raise SystemExit(f"usage: python -m apsp_kernels.study list | measure <study> [args...] (got {' '.join(argv)!r})")


if __name__ == "__main__":
    sys.exit(main())
