"""One crossing file from an earlier one and a newer lease's rows: the form
:func:`apsp_kernels.elimination_choice.crossing` reads (``graph``, ``n``, ``m``, ``<code>_e2e_<mode>_ms``,
``e2e_verified``), as ``scripts/e2e_scatter_probe.py --crossing`` writes it.

    python3 scripts/merge_crossing.py data/results/elimination/<earlier>.csv <lease>/crossing.csv \\
        --out data/results/elimination/<device>-<date>-<tag>.csv [--note TEXT]

The newer rows replace the earlier file's of the same graph and size; the others are kept, the earlier file's first.
The provenance beside ``--out`` lists the earlier file's invocations, then the newer rows' (``<stem>.provenance.json``
beside them, or a probe's ``e2e_scatter.provenance.json``), and a note naming both files (and ``--note``).  A column
one file has and the other lacks is left empty where it is missing; rows of different codes' columns are refused."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

def merged(earlier, newer):
    """The rows of ``earlier`` not of a (graph, n) in ``newer``, then ``newer``'s (pandas frames)."""
    import pandas as pd
    times = lambda t: {c for c in t.columns if c.endswith("_ms")}
    if times(earlier) != times(newer):
        raise ValueError(f"the files time different columns: {sorted(times(earlier) ^ times(newer))}")
    again = set(zip(newer.graph, newer.n))
    kept = earlier[[(g, n) not in again for g, n in zip(earlier.graph, earlier.n)]]
    return pd.concat([kept, newer], ignore_index=True)[list(dict.fromkeys([*earlier.columns, *newer.columns]))]


def provenance_of(rows_file):
    """The invocations recorded for ``rows_file``: its own provenance, or the probe's beside it."""
    from apsp_kernels.measure import provenance
    return provenance.invocations(rows_file) or provenance.invocations(Path(rows_file).with_name("e2e_scatter.csv"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("earlier")
    ap.add_argument("newer")
    ap.add_argument("--out", required=True)
    ap.add_argument("--note", default="")
    a = ap.parse_args(argv)
    import pandas as pd
    for f in (a.earlier, a.newer):
        if not Path(f).is_file():
            ap.error(f"no such file: {f}")
    earlier, newer = pd.read_csv(a.earlier), pd.read_csv(a.newer)
    try:
        rows = merged(earlier, newer)
    except ValueError as e:
        ap.error(str(e))
    out = Path(a.out)
    rows.to_csv(out, index=False)
    note = (f"{Path(a.earlier).name} ({len(earlier)} rows) with {len(newer)} rows of {a.newer} beside them, those of a "
            f"graph and size in both from the latter (scripts/merge_crossing.py). {a.note}").strip()
    prov = {"invocations": provenance_of(a.earlier) + provenance_of(a.newer), "note": note}
    out.with_suffix(".provenance.json").write_text(json.dumps(prov, indent=1, default=str))
    print(f"{out}: {len(rows)} rows ({len(rows) - len(newer)} of {Path(a.earlier).name}, {len(newer)} new)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
