"""The study: claims as data, measurements, verdicts, figures and reports.  Floors, lowest first: ``words`` (the
verdict words), ``method/`` (estimates, rules, verdicts: generic), ``show/`` (tables and figures), ``records``
(run folders, provenance), ``contract`` (what a study is), ``seeds/<name>/`` (each study: ``study.py`` holds its
``STUDY``), ``registry`` (``STUDIES``, ``open_study``), ``report/`` (the runner, the summary, the index).
docs/layout.md has the map."""
