"""An HTML report printed to PDF by headless Chromium, driven by Playwright: the same browser and driver the report
tests use (Debian's chromium on PATH; Playwright from the test extra), so no browser build is downloaded.  The page
is opened from its file with every request beyond that file's folder refused: a report that stands alone prints
the same offline."""
from __future__ import annotations

import shutil
from pathlib import Path

FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def chromium():
    """Debian's Chromium on PATH, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def missing():
    """Why a PDF cannot be printed here (None where it can)."""
    try:
        import playwright.sync_api  # noqa: F401  (imported only to see that it can be)
    except ImportError:
        return "playwright is not installed (pip install playwright)"
    if not chromium():
        return "no chromium on PATH (Debian: apt-get install chromium)"
    return None


def print_pdf(html_file, pdf_file):
    """``html_file`` printed to ``pdf_file`` (A4, backgrounds kept); returns ``pdf_file``.  Raises RuntimeError
    where Playwright or Chromium is missing."""
    why = missing()
    if why:
        raise RuntimeError(f"cannot print {html_file} to PDF: {why}")
    from playwright.sync_api import sync_playwright
    html_file, pdf_file = Path(html_file).resolve(), Path(pdf_file)
    here = html_file.parent.as_uri()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            page = browser.new_page()
            page.route(lambda url: not url.startswith(here), lambda route: route.abort())
            page.goto(html_file.as_uri(), wait_until="load")
            page.pdf(path=str(pdf_file), format="A4", print_background=True,
                     margin={"top": "15mm", "bottom": "15mm", "left": "12mm", "right": "12mm"})
        finally:
            browser.close()
    return pdf_file
