"""A notebook's verdict table as the reports show and publish it: written where the index and
notebook 07 find it, shown with units in its headers and verdict words in their colours, and the
passages of the seed that bear on its claims beside it.  Above both the tables (show/) and the
records, which the verdict rules (method/) know nothing of."""
from __future__ import annotations

import pandas as pd

from . import records
from .method import claims as claims_mod
from .method.verdicts import SHOWN, table
from .show import tables


def style(t):
    """A verdict table as the reports show it (tables.show: units in the headers, verdicts coloured)."""
    return tables.show(t)


def publish(notebook, rows, meas, reports_dir=None):
    """Write the notebook's verdict table where the index and notebook 07 find it
    (``<reports>/verdicts/<notebook>.csv``) and, for a run measured now, beside its records;
    returns the styled table to display (verdict words coloured)."""
    t = records.publish(notebook, table(rows), device=records.device_of(meas.prov), results=str(records.rel(meas.run_dir)),
                        profile=meas.prov.get("profile", ""), run_dir=meas.run_dir if meas.measured_now else None,
                        reports_dir=reports_dir)
    return style(t[SHOWN])


def readings_table(notebook, claims=None):
    """The passages of the seed that bear on each of the notebook's claims where there are several
    (claims.readings: quoted with their place) and the reading its verdict tests; None if no claim has them."""
    C = claims or claims_mod.load()
    rows = [r for c in C.values() if c.get("notebook") == notebook for r in claims_mod.readings(c)]
    return tables.show(pd.DataFrame(rows)) if rows else None
