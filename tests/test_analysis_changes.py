"""data/analysis-changes.csv, the dated record of every analysis change made after some batch had been
measured: its rows are well formed and name real claims, batches and commits (each dated as git dates it),
docs/method.md shows it as it is, the method's date is read from it, and no page a reader opens first says
the method unchanged since a date earlier than its newest change."""
import json
import re
import subprocess

import pytest

from apsp_kernels.paths import ROOT
from apsp_kernels.study.method import changes, claims, rules

ROWS = changes.load()
PAGES = {"README.md": ROOT / "README.md", "docs/method.md": ROOT / "docs" / "method.md",
         "notebooks/07_summary.ipynb": ROOT / "notebooks" / "07_summary.ipynb"}


def _git(*args):
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)


def test_every_row_is_well_formed_and_names_real_claims_and_batches():
    with open(changes.path()) as f:
        assert tuple(f.readline().strip().split(",")) == changes.COLUMNS
    C = claims.load()
    for r in ROWS:
        assert re.fullmatch(r"2026-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", r["date"]), r["commit"]
        assert re.fullmatch(r"[0-9a-f]{7}", r["commit"]) and r["kind"] in changes.KINDS, r["commit"]
        assert r["change"] and r["moved"] and r["disclosed"], r["commit"]
        assert set(r["claims"]) <= set(C), (r["commit"], set(r["claims"]) - set(C))
        assert all((ROOT / "data" / "results" / b).is_dir() for b in r["batches_before"]), r["commit"]
    assert [r["date"] for r in ROWS] == sorted(r["date"] for r in ROWS)


def test_every_commit_named_exists_in_git_log_with_the_date_recorded():
    if _git("rev-parse", "--git-dir").returncode != 0:
        pytest.skip("not a git checkout: the commits cannot be looked up")
    if _git("rev-parse", "--is-shallow-repository").stdout.strip() == "true":
        pytest.skip("a shallow clone: the history before its depth is absent")
    for r in ROWS:
        got = _git("show", "-s", "--format=%aI", f"{r['commit']}^{{commit}}")
        assert got.returncode == 0, f"{r['commit']} is not a commit of this repository"
        assert got.stdout.strip() == r["date"], (r["commit"], got.stdout.strip(), r["date"])


def test_the_method_s_date_is_read_from_the_record():
    newest = max(r["date"] for r in ROWS if r["kind"] in changes.METHOD_KINDS)
    assert rules.METHOD_LAST_CHANGED == newest == changes.last_change()["date"]
    assert not hasattr(rules, "METHOD_FIXED")
    assert changes.last_before("2026-11-24T20:47:46+00:00")["commit"] == "f36cf3d"     # run K's first process


def test_docs_method_shows_the_record_as_it_is():
    text = PAGES["docs/method.md"].read_text()
    assert changes.rendered(text) == changes.markdown_table(), \
        "docs/method.md's table differs from data/analysis-changes.csv: python -m apsp_kernels.study.method.changes"


def test_the_table_renders_each_row_once():
    rows = [dict(date="2026-11-25T15:57:11+00:00", commit="abc1234", kind="rule", change="a | b", moved="none",
                 disclosed="here", batches_before=["20261124-205000-paper-campaign", "20261125-153000-hochberg"])]
    table = changes.markdown_table(rows).splitlines()
    assert len(table) == 3 and table[2] == ("| 2026-11-25 15:57 | `abc1234` | rule | a / b | paper-campaign 1124-205000; "
                                            "hochberg 1125-153000 | none | here |")
    text = "x\n" + changes.BEGIN + "\nold\n" + changes.END + "\ny"
    assert changes.rendered(changes.render_into(text, rows)) == changes.markdown_table(rows)


# A sentence that says the method (or its rules) was fixed, or is unchanged, since a date; and words that say
# it without a date.
SINCE = re.compile(r"\b(?:rules?|method)\b[^.;|]{0,80}?\b(?:fixed|frozen|last changed|not changed|unchanged)\b"
                   r"[^.;|]{0,60}?(\d{4}-\d\d-\d\d(?:(?: at|,)? \d\d:\d\d)?|\d{1,2} Nov)", re.I)
UNDATED = ("METHOD_FIXED", "under the fixed method", "method as fixed", "after the method was fixed",
           "method was fixed", "rules were fixed", "not changed since")


def _stamp(text):
    """'2026-11-24 at 20:47', '2026-11-24', '22 Nov' -> '2026-11-24 20:47' (a day alone: its last minute)."""
    m = re.match(r"(\d{4}-\d\d-\d\d)(?:(?: at|,)? (\d\d:\d\d))?", text)
    day, minute = (m.group(1), m.group(2)) if m else (f"2026-11-{int(text.split()[0]):02d}", None)
    return f"{day} {minute or '23:59'}"


def stale_statements(text, newest):
    """The statements of ``text`` that say the method fixed or unchanged since before ``newest``."""
    out = [m.group(0) for m in SINCE.finditer(text) if _stamp(m.group(1)) < newest[:16].replace("T", " ")]
    return out + [w for w in UNDATED if w.lower() in text.lower()]


def _page_text(path):
    if path.suffix == ".ipynb":
        return "\n".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"])
    return path.read_text()


def test_the_checker_finds_sentences_that_date_the_method_before_its_newest_change():
    newest = "2026-11-25T20:14:47+00:00"
    assert stale_statements("The rules were last changed on 2026-11-24 at 20:47 (`rules.METHOD_FIXED`).", newest)
    assert stale_statements("the method fixed at 20:47 on 2026-11-24", newest)
    assert stale_statements("in a second batch on fresh leases under the fixed method.", newest)
    assert stale_statements("the rules were fixed at 2026-11-24 20:47, before runs K and L", newest)
    assert not stale_statements("the method was last changed on 2026-11-25 20:14 (4ac9328).", newest)
    assert not stale_statements("the tolerances on 22 Nov after the first sweeps (no value changed after 21:21)", newest)


@pytest.mark.parametrize("name", PAGES)
def test_no_page_says_the_method_unchanged_since_before_its_newest_change(name):
    newest = changes.last_change()["date"]
    found = stale_statements(_page_text(PAGES[name]), newest)
    assert not found, f"{name} says the method fixed or unchanged before {newest} (data/analysis-changes.csv): {found}"


@pytest.mark.parametrize("name", PAGES)
def test_every_page_points_to_the_record(name):
    assert "analysis-changes" in _page_text(PAGES[name]), name


def test_notebook_07_labels_its_runs_from_the_record(tmp_path):
    from apsp_kernels.study.report import summary as S
    rows = [r for r in ROWS if r["study"] in ("kemp", "all")]
    last = changes.last_change(rows)["date"]
    runs = []
    for name, stamp in (("a", "2026-11-24T19:00:00+00:00"), ("b", "2026-11-24T20:50:00+00:00"),
                        ("c", "2026-11-24T23:50:00+00:00"), ("d", "2099-01-01T00:00:00+00:00"),
                        ("e", "2099-01-02T00:00:00+00:00")):
        d = tmp_path / name
        d.mkdir()
        (d / "provenance-0.json").write_text(json.dumps(dict(timestamp=stamp)))
        runs.append(d)
    label, got = S.stability_groups(runs[:3])[0]                 # like K and L: measured before later changes
    assert got == runs[1:3] and label.startswith("Runs measured under one method (after f36cf3d")
    assert "do not confirm the method as it is" in label
    label, got = S.stability_groups(runs)[0]                     # two runs after the last change
    assert got == runs[3:] and label.startswith("Confirming runs (measured after the method was last changed")
    assert changes.when(changes.last_change(rows)) in label and last < "2099"
