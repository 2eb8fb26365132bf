"""The rendered reports as a reader sees them: headless Chromium (Debian's, driven by Playwright)
opens the index served over HTTP, follows every link, and finds in each report its figure and
its verdict table and no error cell."""
import functools
import http.server
import os
import shutil
import threading

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _need_browser():
    why = None
    try:
        import playwright.sync_api
    except ImportError:
        why = "playwright is not installed (pip install playwright)"
    else:
        del playwright                  # imported only to see that it can be
    if why is None and not CHROMIUM:
        why = "no chromium on PATH (Debian: apt-get install chromium)"
    if why:
        if os.environ.get("APSP_REQUIRE_BROWSER"):
            pytest.fail(f"browser test required here but {why}")
        pytest.skip(why)


@pytest.fixture
def served(smoke_reports):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(smoke_reports))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.mark.slow
def test_reports_open_in_chromium(served, smoke_reports, tmp_path):
    _need_browser()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)  # Playwright gives it a fresh profile
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        outside = []                               # the network beyond this server is blocked, and counted

        def block(route):
            outside.append(route.request.url)
            route.abort()
        page.route(lambda url: not url.startswith(served), block)
        resp = page.goto(f"{served}/index.html")
        assert resp and resp.ok
        # one row per claim: each row's own verdict cell holds exactly the reference verdict of its claim (the findings
        # are the reference's whatever was rendered; a smoke render is a comparison beside them)
        import pandas as pd
        from apsp_kernels.study.method import claims
        from apsp_kernels.study.report import compare
        from apsp_kernels.study.show import signed       # 'differs in magnitude' is shown with its direction
        table = pd.read_csv(compare.reference_table())
        recorded = dict(zip(table["claim"], signed.shown(table)))
        rows = page.locator("table#claims tr.claim-row")
        seen = {}
        for i in range(rows.count()):
            row = rows.nth(i)
            claim = row.get_attribute("data-claim")
            verdict = row.locator("td.verdict").inner_text().strip().splitlines()[0].strip()
            assert verdict in signed.ORDER and verdict == recorded[claim], (claim, verdict)
            seen[claim] = verdict
        assert seen == recorded
        # the collapsed part: one row per claim of each report, and the reports without a claim of their own
        without = page.eval_on_selector_all("table#reports tr.claim-row", """els => els
            .filter(e => e.querySelector('td.claim').textContent.trim() === '-').map(e => e.dataset.notebook)""")
        assert "07_summary" in without and not set(without) & {c["notebook"] for c in claims.load().values()}
        hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
        assert any(h.startswith("07_summary") for h in hrefs)
        for href in hrefs:
            r = page.request.get(f"{served}/{href}")
            assert r.ok, f"broken link {href}: HTTP {r.status}"
        for href in [h for h in hrefs if h.endswith(".html")]:
            page.goto(f"{served}/{href}")
            assert page.locator("img").count() >= 1 or href == "07_summary.html", f"{href}: no figure"
            assert page.locator("table").count() >= 1, f"{href}: no table"
            assert "Traceback" not in page.inner_text("body"), f"{href}: contains an error cell"
            # a reader meets claims and findings, never a tracker's numbers
            import re
            said = re.findall(r"\b(?:[Ii]ssues? \d+|[Tt]argets? \d)", page.text_content("body"))
            assert not said, f"{href}: {said[:3]}"
            if href.startswith("07_"):
                assert page.locator("td", has_text="reproduced").count() >= 1
            assert page.locator("a[href='index.html']").count() >= 1, f"{href}: no link back to the index"
            # a wide table scrolls inside its output; the page itself never runs off to the side
            assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"), href
            # no table shown wider than the page at 1400 px: long cells wrap, a table too wide even then is in
            # a closed details row (opened, it scrolls inside its output)
            wide = page.evaluate("""() => [...document.querySelectorAll('table')].filter(t => t.checkVisibility()
                && t.getBoundingClientRect().right > document.documentElement.clientWidth + 1).length""")
            assert wide == 0, f"{href}: {wide} tables run past the page's edge"
            assert page.locator("img:not([alt])").count() == 0, f"{href}: an image without alt text"
            if href[:2] in {c["notebook"][:2] for c in claims.load().values()}:
                assert page.locator("h2", has_text="Findings").first.bounding_box()["y"] < 900, href   # findings first
                diag = page.locator("details.diagnostics")
                assert diag.count() <= 1 and (diag.count() == 0 or not diag.first.evaluate("d => d.open")), href
        browser.close()
        assert not outside, f"the reports load from the network: {sorted(set(outside))[:5]}"


@pytest.mark.slow
def test_index_first_screen_shows_the_findings_and_every_row_fits(served, smoke_reports, tmp_path):
    """At 1400 x 900 the index's first screen holds the findings sentences and the forest plot (with alt
    text), and every claim row shows the paper's number and ours without scrolling sideways.  The first
    screen is saved (APSP_FIRST_SCREEN=docs/first-screen.png keeps a copy there)."""
    _need_browser()
    import pandas as pd
    from playwright.sync_api import sync_playwright
    from apsp_kernels.study.report import compare
    rows = pd.read_csv(compare.reference_table())     # the index shows the reference verdicts, whatever was rendered
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"{served}/index.html")
        page.wait_for_load_state("load")
        said = page.locator("ul#findings li")
        assert said.count() >= 5
        for i in range(said.count()):
            box = said.nth(i).bounding_box()
            assert box and box["y"] + box["height"] <= 900 and box["x"] + box["width"] <= 1400, said.nth(i).inner_text()
        img = page.locator("img#forest")
        box = img.bounding_box()
        assert box and box["y"] < 900 * 0.25 and box["x"] + box["width"] <= 1400
        assert page.evaluate("() => document.getElementById('forest').naturalWidth") > 300
        assert len(img.get_attribute("alt")) > 80
        assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")
        assert page.evaluate("() => !document.getElementById('runs').open")      # which runs: collapsed
        cells = page.eval_on_selector_all("table#claims tr.claim-row", """els => els.map(e => {
            const box = c => e.querySelector(c).getBoundingClientRect();
            return [e.dataset.claim, e.querySelector('td.paper').innerText, e.querySelector('td.ours').innerText,
                    Math.max(box('td.paper').right, box('td.ours').right, box('td.why').right)]})""")
        assert len(cells) == len(rows)
        want = rows.set_index("claim")
        for claim, paper, ours, right in cells:
            assert right <= 1400, (claim, right)
            assert paper.splitlines()[0].strip() == (str(want.loc[claim, "claimed"]) if want.loc[claim, "claimed"] == want.loc[claim, "claimed"] else "-"), claim
            text = want.loc[claim, "ours_text"]
            assert ours.splitlines()[0].strip() == (str(text).strip() if text == text and str(text).strip() else "-"), claim
        shot = tmp_path / "first-screen.png"
        page.screenshot(path=str(shot))
        browser.close()
    assert shot.stat().st_size > 10_000
    keep = os.environ.get("APSP_FIRST_SCREEN")
    if keep:
        from PIL import Image
        Image.open(shot).convert("RGB").quantize(colors=256).save(keep, optimize=True)   # < 300 kB, verdict colours kept


def test_reports_name_nothing_to_load_from_the_network(smoke_reports):
    """Offline reports: no script, stylesheet or module from outside (an air-gapped reader opens
    them from disk), and each page carries its notebook's title."""
    import re
    pages = sorted(smoke_reports.glob("*.html"))
    assert len(pages) >= 9
    for page in pages:
        text = page.read_text(encoding="utf-8")
        loads = re.findall(r'<(?:script|img|iframe|source)\b[^>]*\bsrc="(https?://[^"]+)"', text)
        loads += re.findall(r'<link\b[^>]*\bhref="(https?://[^"]+)"', text)
        loads += re.findall(r'\b(?:from|import)\s*\(?\s*["\'](https?://[^"\']+)', text)
        assert not loads, f"{page.name}: {loads[:3]}"
        if page.name != "index.html":
            assert "<title>Notebook</title>" not in text, page.name
