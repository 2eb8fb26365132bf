"""Every study, registered the way an algorithm is: ``STUDIES`` holds each seed's one :class:`~.contract.Study`
(``seeds/<name>/study.py``), imported plainly.  The runner, every notebook, the summary, the stability check and
the tests reach a study through it."""
from __future__ import annotations

from .contract import Batch, Confirming, Study  # noqa: F401  (the contract's types, beside the table of studies)
from .seeds.hochberg.study import STUDY as _hochberg
from .seeds.iitkgp.study import STUDY as _iitkgp
from .seeds.kemp.study import STUDY as _kemp
from .seeds.nthu.study import STUDY as _nthu
from .seeds.tuned.study import STUDY as _tuned

STUDIES = {s.name: s for s in (_kemp, _hochberg, _nthu, _iitkgp, _tuned)}


def of_notebook(notebook):
    """The study that a notebook renders (None for the summary)."""
    return next((s for s in STUDIES.values() if notebook in s.notebooks), None)


def open_study(notebook, batch="", profile=None, source="measure", **params):
    """A notebook's one way in: its study and what it renders (``batch``: a folder, a batch's name, or the batch id
    of ``run_all.sh``; "" the study's newest)."""
    study = of_notebook(notebook)
    if study is None:
        raise KeyError(f"notebook {notebook!r} belongs to no registered study ({', '.join(STUDIES)})")
    kw = dict(batch=batch or "", source=source, **params)
    if profile is not None:
        kw["profile"] = profile
    return study, study.open(notebook, **kw)
