"""Where things live, computed once.  ``APSP_REPORTS_DIR``, ``APSP_RESULTS_DIR`` and
``APSP_FIGURES_DIR`` move a run's outputs elsewhere (the tests use them: they never write
into the checkout's reports/, data/results/ or figures/)."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
RESULTS = Path(os.environ.get("APSP_RESULTS_DIR") or DATA / "results")
RECORDED = DATA / "results"                    # the committed reference runs, read-only for renders
FIGURES = Path(os.environ.get("APSP_FIGURES_DIR") or ROOT / "figures")
REPORTS = Path(os.environ.get("APSP_REPORTS_DIR") or ROOT / "reports")
CACHE = Path(os.environ.get("APSP_CACHE_DIR") or DATA / "cache")
SEEDS = Path(os.environ.get("APSP_SEEDS_DIR") or ROOT.parent / "shared" / "seeds")
