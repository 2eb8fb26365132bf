"""One entry point for every study:

    python -m apsp_kernels.study list                       # the registered studies
    python -m apsp_kernels.study measure <study> [args...]  # measure it (its own arguments; --help)

Each study's ``measure(argv)`` (its ``seeds/<name>/study.py``) measures it with its own arguments."""
from __future__ import annotations

import sys

from .registry import STUDIES


def measure(name, argv):
    """Run study ``name``'s measurement with ``argv`` (its own arguments); returns its exit status."""
    if name not in STUDIES:
        raise SystemExit(f"no study {name!r}; the studies: {', '.join(STUDIES)}")
    rc = STUDIES[name].measure(list(argv))
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
