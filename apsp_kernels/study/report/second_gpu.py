"""The reference on a second GPU model: a recorded batch measured with a deciding profile on another GPU than the
reference's, set beside the reference claim by claim (compare.py decides each outcome).  Which verdicts depend on
the GPU generation is a finding of its own, shown with its numbers on the index and in the findings paper.

A batch counts where its folder holds its own ``verdicts.csv`` (the summary notebook's table of a render of that
batch) and its processes' provenance names a GPU other than the reference's.  Reads only; writes nothing."""
from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from ... import paths
from . import compare
from .your_run import provenance, rows_html


def batches(root=None):
    """The recorded batches measured on another GPU model than the reference's, oldest first: [(folder, provenance)]."""
    root = Path(root or paths.RECORDED)
    ref_gpu = provenance(compare.reference_table(root).parent).get("gpu")
    out = []
    for d in sorted(p.parent for p in root.glob("*/verdicts.csv")):
        if d.name == compare.REFERENCE_BATCH:
            continue
        prov = provenance(d)
        if prov.get("gpu") and prov.get("gpu") != ref_gpu:
            out.append((d, prov))
    return out


def leases(run_dir, satellites=False):
    """The machine leases (boots) a batch's main processes ran on; ``satellites``: those its satellite processes
    (a few codes and sizes only) ran on beside them, leases of their own included."""
    import json
    provs = [json.loads(p.read_text()) for p in Path(run_dir).glob("provenance-*.json")]
    boots = {p.get("boot_id") for p in provs if bool((p.get("parameters") or {}).get("satellite")) == satellites}
    return len(boots - {None})


def satellites(run_dir):
    import json
    return sum(bool((json.loads(p.read_text()).get("parameters") or {}).get("satellite"))
               for p in Path(run_dir).glob("provenance-*.json"))


def comparison(run_dir, ref, claims=None):
    """The batch's verdicts beside the reference's: one row per claim it measured (compare.compare)."""
    if ref is None:
        return pd.DataFrame()
    mine = pd.read_csv(Path(run_dir) / "verdicts.csv")
    return compare.compare(mine, ref, claims=claims)


def sentence(table, prov, n_leases, ref_gpu, sats=(0, 0)):
    """'On an NVIDIA H200 (profile decide, 3 leases, 2026-11-28), of the 44 claims it measured: 30 same verdict, ...';
    ``sats``: (satellite processes, the leases they ran on)."""
    n = table["outcome"].value_counts() if len(table) else pd.Series(dtype=int)
    parts = ", ".join(f"{int(n[k])} {k}" for k in compare.OUTCOMES if n.get(k))
    s = (f"; {sats[0]} satellite process{'es' if sats[0] != 1 else ''} on {sats[1]} lease{'s' if sats[1] != 1 else ''}"
         if sats[0] else "")
    return (f"The reference's claims measured again on an {prov.get('gpu')} (profile {prov.get('profile') or '-'}, "
            f"main processes on {n_leases} machine lease{'s' if n_leases != 1 else ''}{s}, "
            f"{str(prov.get('timestamp') or '')[:10]}, "
            f"commit {str(prov.get('git_commit') or '-')[:7]}) against the reference's {ref_gpu}: of the {len(table)} "
            f"claims it measured, {parts or 'none decided'}.")


def section_html(ref, root=None, claims=None):
    """The index's and the findings paper's section: per second-GPU batch, its sentence, the claims whose verdict
    differs (the finding), then every claim it measured behind a disclosure; '' where no such batch is recorded."""
    from ..method import claims as claims_mod
    claims = claims or claims_mod.load()
    root = Path(root or paths.RECORDED)
    ref_gpu = provenance(compare.reference_table(root).parent).get("gpu") or "the reference's GPU"
    parts = []
    for d, prov in batches(root):
        t = comparison(d, ref, claims)
        if not len(t):
            continue
        head = ('<tr><th>the paper claims</th><th>paper</th><th>reference [95% CI]<br><small>verdict</small></th>'
                f'<th>{html.escape(str(prov.get("gpu")))} [95% CI]<br><small>verdict</small></th>'
                '<th>outcome<br><small>why</small></th></tr>')
        diff = t[t["outcome"] == compare.DIFFERENT]
        parts.append(
            f'<h3>{html.escape(str(prov.get("gpu")))}: <code>{html.escape(d.name)}</code></h3>'
            f'<p>{html.escape(sentence(t, prov, leases(d), ref_gpu, (satellites(d), leases(d, satellites=True))))}</p>'
            + (f'<p>Where the verdict differs (a finding about the GPU generation):</p><table class="second-gpu">{head}'
               f'{rows_html(diff, claims, mark=False)}</table>' if len(diff) else "<p>No verdict differs.</p>")
            + f'<details><summary>Every claim it measured ({len(t)})</summary><table class="second-gpu">{head}'
              f'{rows_html(t, claims, mark=False)}</table></details>')
    if not parts:
        return ""
    return ('<h2 id="second-gpu">The reference on a second GPU model</h2>'
            "<p>The findings stay the reference's. The same campaign measured on another GPU model, with the deciding "
            "profile on separate machine leases, shows which verdicts depend on the hardware.</p>" + "".join(parts))
