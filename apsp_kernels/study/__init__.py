"""What the claim notebooks share, in small modules: profiles (what a run measures), plan (the
jobs of each notebook), campaign (independent processes that measure them), measurements
(loading and per-size statistics), stats, rules (verdict rules), verdicts and quantities
(claims against measurements), campaign_verdicts (the verdict rows of notebooks 00-06, also of a
recorded run folder without rendering), figures (one style, one colour per algorithm), tables (every table and
number a report shows), text (sentences from data), summary (notebook 07); report_hochberg* (notebook 08: the Hochberg study's
recorded results, its verdicts and figures; imported by the notebook, not here); nthu_runs (the multi-GPU
measurement jobs, run on every rank; imported by seeds/nthu/measure.py and multi_gpu, not here)."""
from __future__ import annotations

from .show import figures, tables
from .seeds.kemp import load as measurements, spec as plan, profiles
from .method import quantities, rules, stats, text, verdicts
from .show.figures import plot_speedups, plot_times, save_figure
from .seeds.kemp.load import batch_id, load, speedups, speedups_of, summary, times
from .seeds.kemp.profiles import kemp_graph, profile, repeats_for
from .report.summary import collect_verdicts, show_runs

__all__ = ["figures", "measurements", "plan", "profiles", "quantities", "rules", "stats", "tables", "text", "verdicts",
           "plot_speedups", "plot_times", "save_figure", "batch_id", "load", "speedups", "speedups_of", "summary", "times",
           "kemp_graph", "profile", "repeats_for", "collect_verdicts", "show_runs"]
