"""The README is a front door: short, its two commands present, and every relative link in it and in
docs/ leads somewhere (a file or folder of the checkout, and a heading where the link names one)."""
import re

import pytest

from apsp_kernels.paths import ROOT

README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").rglob("*.md"))
LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")          # [text](target); images excluded
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _links(md):
    text = FENCE.sub("", md.read_text())                       # code blocks hold no links
    text = re.sub(r"`[^`\n]*`", "", text)                      # nor do code spans
    return [t for t in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]   # http:, mailto: ...


def _slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation but hyphens and underscores dropped, spaces to
    hyphens (the heading as rendered: code ticks and emphasis stars are not in it)."""
    h = re.sub(r"[`*]", "", heading.strip().lower())
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", h))


def test_the_anchor_rule_is_githubs():
    assert _slug("`tuned_deep`: deep, thin graphs") == "tuned_deep-deep-thin-graphs"
    assert _slug("**Findings** (one H100)") == "findings-one-h100"


def _anchors(md):
    return {_slug(line.lstrip("#")) for line in FENCE.sub("", md.read_text()).splitlines() if line.startswith("#")}


def test_readme_is_short():
    n = len(README.read_text().splitlines())
    assert n <= 150, f"README.md has {n} lines; at most 150 (the rest belongs in docs/)"


def test_readme_has_the_two_commands():
    text = README.read_text()
    for cmd in ("./run_all.sh", "./run_tests.sh"):
        assert re.search(rf"^{re.escape(cmd)}(\s|$)", text, re.M), f"README.md lacks the command line `{cmd}`"
        assert (ROOT / cmd).exists()


def test_readme_does_not_claim_tolerances_declared_before_measuring():
    # they were fixed after the first sweeps had been seen (docs/method.md says when)
    assert not re.search(r"declared\s+before\s+measuring", README.read_text(), re.I)


@pytest.mark.parametrize("md", [README] + DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(md):
    assert DOCS, "docs/ has no pages"
    broken = []
    for target in _links(md):
        path, _, anchor = target.partition("#")
        dest = (md.parent / path).resolve() if path else md
        if not dest.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target} (no heading #{anchor} in {dest.name})")
    assert not broken, f"{md.relative_to(ROOT)}: broken links: {broken}"
