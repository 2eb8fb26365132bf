"""Every study, registered the way an algorithm is (issue 31): one :class:`Study` entry holds what
the runner, the summary, the index, the stability check and the tests need to know of it."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .. import paths


@dataclass(frozen=True)
class Batch:
    """One independent recorded batch of a study: a run folder, or a set of files measured together."""
    name: str
    path: Path
    files: tuple = ()


@dataclass(frozen=True)
class Study:
    name: str
    seeds: tuple                       # the seeds whose claims it tests ("000", ...)
    notebooks: tuple                   # the notebooks that render it
    find: Callable                     # roots -> its batches, oldest first
    load: Callable                     # batch -> what verdict_rows reads
    verdict_rows: Callable             # loaded -> the verdict rows (a list of dicts or a DataFrame)

    def runs(self, roots=(paths.RECORDED,)):
        """Its recorded batches, oldest first, each an independent batch."""
        return self.find(roots)


def _folders(suffix, holds):
    def find(roots):
        found = {d.name: d for r in roots for d in sorted(Path(r).glob(f"*{suffix}")) if holds(d)}
        return [Batch(k, found[k]) for k in sorted(found)]
    return find


# ------------------------------------------------------------------ the campaign (seeds 000, 003)
def _kemp_load(b):
    from .seeds.kemp import runs as campaign
    return campaign.load(b.path)[0]


def _kemp_rows(df):
    from .seeds.kemp import verdicts as campaign_verdicts
    return campaign_verdicts.frame_verdicts(df)


# ------------------------------------------------------------------ Hochberg (seed 002)
def _hochberg_holds(d):
    from .seeds.hochberg import load as D
    return bool(D.processes_of(d))


def _hochberg_load(b):
    from .seeds.hochberg import analysis as H
    return H.load(str(b.path), recorded_only=True)


def _hochberg_rows(st):
    from .method import claims
    from .seeds.hochberg import verdicts as HV
    return HV.verdict_rows(st, claims.load())


# ------------------------------------------------------------------ IIT Kharagpur (seed 001)
def _iitkgp_load(b):
    from .seeds.iitkgp import load as iitkgp_report
    return iitkgp_report.load(b.path)


def _iitkgp_rows(rep):
    from .seeds.iitkgp import verdicts as iitkgp_verdicts
    return iitkgp_verdicts.evaluate_all(rep)


# ------------------------------------------------------------------ NTHU (seed 004)
def _nthu_find(roots):
    both = _folders("-nthu-single", lambda d: (d / "nthu-single.csv").exists())(roots) + \
        _folders("-nthu-multi", lambda d: (d / "nthu-multi.csv").exists())(roots)
    return sorted(both, key=lambda b: b.name)


def _nthu_load(b):
    from .seeds.nthu import load as R
    single = b.name.endswith("-single")
    return (R.load([b.path] if single else [], "single"), R.load([] if single else [b.path], "multi"))


def _nthu_rows(loaded):
    from .method import claims
    from .seeds.nthu import verdicts as nthu_verdicts
    return nthu_verdicts.rows(claims.load(), *loaded)


# ------------------------------------------------------------------ the tuned line (issue 14)
def _tuned_find(roots):
    from .seeds.tuned import load as R
    out = []
    for r in roots:
        where = Path(r) / "benchmarks"
        tuned = [(R.NAME.match(k), f) for k, f in (R.benchmark_files(where).items() if where.is_dir() else [])]
        tuned = [(m, f) for m, f in tuned if (m.group("tag") or "").startswith(R.TAG)]
        for date in sorted({m.group("date") for m, _ in tuned}):
            # as tuned_report.find_tuned: that date's files of its first device by name (an H100 before others)
            devices = sorted({m.group("device") for m, _ in tuned if m.group("date") == date},
                             key=lambda d: ("H100" not in d, d))
            picked = sorted(f for m, f in tuned if m.group("date") == date and m.group("device") == devices[0])
            out.append(Batch(f"{date}-tuned", where, tuple(picked)))
    return out


def _tuned_load(b):
    from .seeds.tuned import load as R
    return R.load(list(b.files))


def _tuned_rows(bench):
    from .seeds.tuned import verdicts as tuned_targets
    return tuned_targets.evaluate(bench.df)


STUDIES = {s.name: s for s in (
    Study("kemp", ("000", "003"), ("00", "01", "02", "03", "04", "05", "06"),
          _folders("-campaign", lambda d: any(d.glob("process-*.csv"))), _kemp_load, _kemp_rows),
    Study("hochberg", ("002",), ("08",), _folders("-hochberg", _hochberg_holds), _hochberg_load, _hochberg_rows),
    Study("iitkgp", ("001",), ("10",), _folders("-iitkgp", lambda d: any(d.glob("*/results.csv"))),
          _iitkgp_load, _iitkgp_rows),
    Study("nthu", ("004",), ("09",), _nthu_find, _nthu_load, _nthu_rows),
    Study("tuned", (), ("11",), _tuned_find, _tuned_load, _tuned_rows),
)}
