"""A pre-registered confirmatory batch (study/preregistration.py) beside the reference, claim by claim.

The batch lands over several sessions in several results folders (the campaign's, Hochberg's, IIT Kharagpur's and
NTHU's one- and two-GPU runs, whose folders are named by the time they ran, not by the batch), so its runs are found
by the plan's sha256 that their provenance records, never by folder name.  Each found folder is then placed in the
setting of the plan's design whose records it holds, and each setting says how many of its leases are measured.

The plan's stopping rule forbids any look at a verdict of a partial batch: :func:`state` computes the confirmatory
verdicts (:func:`batch_verdicts`) only once every setting has its leases, and then compares them with the reference
verdict table as a user's run is compared (compare.compare).  Reads only; writes nothing."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import yaml

from ... import paths
from .. import preregistration as prereg
from . import compare

PLANS = paths.ROOT / prereg.PLANS
RESULTS_PREFIX = "data/results/"         # the plan names its folders from the repository root
NOT_MEASURED, PARTIAL, COMPLETE = "not yet measured", "partial", "complete"
# the confirmatory side of a comparison row, in the words compare.outcome uses for the other run
SIDE = ("confirmatory", "the confirmatory number")


@dataclass
class Lease:
    """One measured lease of a setting: its key (the lease number the folder names, or the machine's boot), its
    folders, and the GPU its provenance names."""
    key: str
    folders: list
    gpu: str | None = None


@dataclass
class Setting:
    name: str
    study: str
    device: str
    planned: int
    leases: list = field(default_factory=list)          # [Lease] on the plan's model of GPU
    elsewhere: list = field(default_factory=list)       # [Lease] on another model: failed leases, not counted
    root: Path | None = None                            # where its folders were found

    @property
    def status(self):
        n = len(self.leases)
        return COMPLETE if n >= self.planned else PARTIAL if n else NOT_MEASURED

    @property
    def folders(self):
        return sorted({f for lease in self.leases for f in lease.folders})

    @property
    def shown_folders(self):
        """Its folders below the results root, as a reader finds them."""
        return [f.relative_to(self.root).as_posix() if self.root else f.name for f in self.folders]


@dataclass
class State:
    """A plan and how far its batch has come; ``table`` (the comparison with the reference) only when complete."""
    path: Path
    sha256: str
    plan: dict
    settings: list
    table: pd.DataFrame | None = None

    @property
    def batch(self):
        return self.plan["design"]["batch"]

    @property
    def complete(self):
        return bool(self.settings) and all(s.status == COMPLETE for s in self.settings)

    @property
    def measured(self):
        return any(s.leases or s.elsewhere for s in self.settings)


REPLACED = "replaced.csv"      # beside the plans: plan, replaced_by, date, why (a plan file is never edited)


def replaced(where=None):
    """{plan file name: row} of the plans replaced, before any of their data, by a later plan (``replaced.csv``)."""
    f = Path(where or PLANS) / REPLACED
    if not f.is_file():
        return {}
    import csv
    with open(f, newline="", encoding="utf-8") as fh:
        return {r["plan"]: r for r in csv.DictReader(fh)}


def plans(where=None, include_replaced=False):
    """Every committed plan in force: [(path, sha256)], oldest first (a plan is named by its batch id, a UTC time);
    ``include_replaced`` adds the plans a later one replaced."""
    gone = set() if include_replaced else set(replaced(where))
    return [(p, prereg.sha256_of(p)) for p in sorted(Path(where or PLANS).glob("*.yaml")) if p.name not in gone]


def _records(prov_file):
    """The provenance records of one file: one, or one per invocation of the measurement that wrote it."""
    d = json.loads(prov_file.read_text())
    return d.get("invocations") or [d]


def named_folders(sha256, root=None):
    """{folder: [its provenance records that name plan ``sha256``]} of every results folder under ``root``, at any
    depth (a folder holding its own provenance file: a campaign's, a Hochberg process's, an NTHU run's)."""
    out = {}
    for f in sorted(Path(root or paths.RECORDED).rglob("*provenance*.json")):
        text = f.read_text()
        if sha256 not in text:          # most provenance files name no plan: spare parsing them
            continue
        named = [r for r in _records(f) if (r.get("preregistration") or {}).get("sha256") == sha256]
        if named:
            out.setdefault(f.parent, []).extend({**r, "_file": f.name} for r in named)
    return out


def _has_records(folder):
    """Whether a folder holds measurements (a results table), not only a provenance."""
    return any(p.is_file() and not p.name.startswith("verdicts") for p in folder.glob("*.csv*"))


def _on_model(device, gpu):
    """Whether a provenance's GPU (``NVIDIA H100 80GB HBM3``) is the plan's model (``nvidia-h100``, ``-x2``: two)."""
    model = device.split("-")[1] if "-" in device else device
    return bool(gpu) and re.search(rf"(?<![A-Za-z0-9]){re.escape(model)}(?![0-9])", str(gpu), re.I) is not None


def _pattern(results):
    """A setting's ``results`` (``data/results/B-iitkgp/apsp-lease<lease>/``, ``data/results/<time>-nthu-multi/ (...)``)
    as a regular expression over a folder's path below the results root."""
    folder = results.split(" ")[0].removeprefix(RESULTS_PREFIX).rstrip("/")
    rx = re.escape(folder).replace(re.escape("<lease>"), r"(?P<lease>\d+)").replace(re.escape("<time>"), r"\d{8}-\d{6}")
    return re.compile(rx + "$")


def _arg(command, flag):
    """The values after ``flag`` in a command line, up to the next flag ([] where it has none)."""
    words = command.split()
    if flag not in words:
        return []
    rest = words[words.index(flag) + 1:]
    return rest[:next((i for i, w in enumerate(rest) if w.startswith("--")), len(rest))]


def _same_invocation(s, prov):
    """Whether a run folder whose path fits several settings (NTHU's runs) was measured by this setting's command:
    its recorded mode and sizes are the command's.  Settings that differ in neither are not told apart here."""
    cmd = s["commands"][0]["command"]
    params = prov.get("parameters") or {}
    words = cmd.split()
    mode = words[words.index(s["study"]) + 1] if s["study"] in words[:-1] else None     # "nthu single"
    if mode in ("single", "multi") and params.get("mode") not in (None, mode):
        return False
    sizes = [int(x) for x in _arg(cmd, "--sizes")]
    return not sizes or [int(x) for x in params.get("sizes") or []] == sizes


def _lease_processes(s):
    """{lease: the processes its commands run} of a setting whose leases share one folder (the campaign's)."""
    out = {}
    for c in s["commands"]:
        for part in _arg(c["command"], "--processes"):
            out.setdefault(c["lease"], set()).update(int(x) for x in part.split(",") if x)
    return out


def _fixed_folder_leases(s, folder, provs):
    """The leases of a setting measured into one folder: lease K counts where every process of its commands has
    its records and a provenance naming the plan."""
    by_process = {}
    for p in provs:
        m = re.fullmatch(r"provenance-(\d+)\.json", p["_file"])
        if m:
            by_process[int(m.group(1))] = p
    out = []
    for lease, procs in sorted(_lease_processes(s).items()):
        if procs and all(n in by_process and (folder / f"process-{n}.csv").exists() for n in procs):
            first = by_process[min(procs)]
            out.append(Lease(str(lease), [folder], first.get("gpu")))
    return out


def progress(plan, sha256, root=None):
    """[Setting] of the plan's design, each with the leases its found folders measured."""
    root = Path(root or paths.RECORDED)
    found = named_folders(sha256, root)
    out = []
    for s in plan["design"]["settings"]:
        st = Setting(s["name"], s["study"], s["device"], int(s["leases"]), root=root)
        rx = _pattern(s["results"])
        leases = {}
        for d, provs in found.items():
            m = rx.match(d.relative_to(root).as_posix())
            if not m:
                continue
            if "lease" not in rx.groupindex and "<time>" not in s["results"]:
                for lease in _fixed_folder_leases(s, d, provs):
                    leases[lease.key] = lease
                continue
            if not _has_records(d) or not _same_invocation(s, provs[0]):
                continue
            # a folder a lease: the lease number its path names, else its machine's boot (two runs of one setting
            # on one boot are one lease, as the stopping rule has it)
            key = m.group("lease") if "lease" in rx.groupindex else str(provs[0].get("boot_id") or d.name)
            lease = leases.setdefault(key, Lease(key, [], provs[0].get("gpu")))
            lease.folders.append(d)
        for lease in leases.values():
            (st.leases if _on_model(s["device"], lease.gpu) else st.elsewhere).append(lease)
        out.append(st)
    return out


def progress_line(settings):
    """'kemp-campaign: 0 of 5 leases; hochberg: 0 of 3; ...': the design with its progress, in one line."""
    return "; ".join(f"{s.name}: {len(s.leases)} of {s.planned}" + (" leases" if i == 0 else "")
                     for i, s in enumerate(settings))


def _study_batches(settings, root):
    """{study: Batch} of a complete batch: the folder its settings share (campaign, Hochberg, IIT Kharagpur), or
    the run folders it pools (NTHU's, one a lease and setting)."""
    from ..contract import Batch
    out = {}
    for study in dict.fromkeys(s.study for s in settings):
        folders = sorted({f for s in settings if s.study == study for f in s.folders})
        tops = {root / f.relative_to(root).parts[0] for f in folders}
        if len(tops) == 1:
            top = tops.pop()
            out[study] = Batch(top.name, top)
        else:
            out[study] = Batch(f"{len(folders)} runs", folders[0].parent, tuple(folders))
    return out


def study_rows(study, batch, C):
    """One study's verdict rows of one batch, through the study contract (its load, then its rules)."""
    from ..registry import STUDIES
    s = STUDIES[study]
    rows = s.verdict_rows(s.load(batch), C)
    return rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(rows)


def _first_prov(batch):
    folders = list(batch.files) or [batch.path]
    for f in folders:
        for p in sorted(Path(f).rglob("*provenance*.json")):
            return _records(p)[0]
    return {}


def batch_verdicts(state, root=None, claims=None):
    """The confirmatory verdict rows of a complete batch, every study's, each naming its folders, card and profile
    (what compare.compare reads).  Refuses a partial batch: the plan forbids any look at its verdicts."""
    if not state.complete:
        raise RuntimeError(f"batch {state.batch} is not complete ({progress_line(state.settings)}): "
                           "the plan computes no verdict before it is")
    from ..method import claims as claims_mod
    C = claims or claims_mod.load()
    root = Path(root or paths.RECORDED)
    frames = []
    for study, batch in _study_batches(state.settings, root).items():
        prov = _first_prov(batch)
        named = ", ".join(RESULTS_PREFIX + Path(f).relative_to(root).as_posix() for f in (batch.files or (batch.path,)))
        frames.append(study_rows(study, batch, C).assign(results=named, device=prov.get("gpu"),
                                                          profile=prov.get("profile")))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def comparison(state, ref, rows, claims=None):
    """Every claim of the plan: the reference's verdict and number beside the batch's, and same / different (which
    way); a claim the batch's rows lack is said, never dropped (the plan reports every claim)."""
    t = compare.compare(rows, ref, claims=claims, side=SIDE)
    planned = [c["id"] for c in state.plan.get("claims") or []]
    missing = [c for c in planned if c not in set(t["claim"])]
    if missing:
        by = ref.set_index("claim") if ref is not None else pd.DataFrame()
        extra = [dict(claim=c, claimed=by.loc[c, "claimed"] if c in by.index else "-", yours="-", yours_verdict="no row",
                      reference=compare._interval(dict(by.loc[c])) if c in by.index else "-",
                      reference_verdict=str(by.loc[c, "verdict"]) if c in by.index else "no row",
                      outcome=compare.UNDECIDABLE, why="the batch's verdict rows hold no row for this claim")
                 for c in missing]
        t = pd.concat([t, pd.DataFrame(extra)], ignore_index=True)
    order = {c: i for i, c in enumerate(planned)}
    return t.sort_values("claim", key=lambda s: s.map(order)).reset_index(drop=True)


def load_plan(path):
    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def state(path, sha256=None, root=None, ref=None, claims=None):
    """The plan at ``path`` and its batch: progress always; the comparison with the reference only once complete."""
    plan = load_plan(path)
    sha = sha256 or prereg.sha256_of(path)
    st = State(Path(path), sha, plan, progress(plan, sha, root))
    if st.complete and ref is not None:
        st.table = comparison(st, ref, batch_verdicts(st, root, claims), claims)
    return st


def states(ref=None, root=None, where=None, claims=None):
    """Every committed plan's :class:`State`, oldest first."""
    return [state(p, sha, root, ref, claims) for p, sha in plans(where)]
