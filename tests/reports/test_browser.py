"""The report of a small run, opened in a real browser: Debian's headless chromium, driven by
playwright (never `playwright install`: `make test` installs the Debian package when absent).

At a desktop and a phone width the page must not scroll sideways, every image must load, the
console must stay clean, the headline must be the first text after the title, and the text
must hold no raw Markdown and no float with more than four significant digits. A screenshot of
each width is written next to the report (the test's tmp dir) for a reviewer to look at.
"""

import os
import re
import shutil

import pytest

from reports import make_report
from reports.synthetic import write_run

SIZES = [(1280, 800), (390, 844)]
FLOAT = re.compile(r"(?<![\w.])\d+\.\d+(?:e[-+]?\d+)?(?![\w.])")


def chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    if os.geteuid() != 0 and not os.environ.get("CI"):
        # `make test` installs chromium only where it can (as root); elsewhere the test is
        # reported as not run, in one line of the summary (-ra), never as passed
        pytest.skip(
            "NOT RUN: chromium is not installed and this user cannot install it (not root); "
            "CI, as root, always runs the browser test"
        )
    pytest.fail(
        "chromium not found on PATH: the browser test needs Debian's chromium "
        "(`make test` installs it: apt-get install -y chromium)",
        pytrace=False,
    )


def significant_digits(number: str) -> int:
    mantissa = number.lower().split("e")[0].replace(".", "").lstrip("0")
    return len(mantissa)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A sweep of four variants with a rigged role and capped games: flags, tables, plots."""
    root = tmp_path_factory.mktemp("browser")
    run = write_run(
        root / "run", games=1500, values=(10, 11, 12, 13), rig={2: "trusted"}, caps={1: 5}
    )
    return make_report([run], root / "report")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_report_reads_well_in_a_browser(report, width, height):
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto((report / "report.html").as_uri(), wait_until="load")
            scroll_width = page.evaluate("document.documentElement.scrollWidth")
            viewport = page.evaluate("window.innerWidth")
            images = page.evaluate(
                "Array.from(document.images).map(i => [i.alt, i.complete && i.naturalWidth > 0])"
            )
            first = page.evaluate(
                "document.querySelector('h1').nextElementSibling.innerText.trim()"
            )
            text = page.inner_text("body")
            page.screenshot(path=str(report / f"screenshot-{width}x{height}.png"))
            page.screenshot(
                path=str(report / f"screenshot-{width}x{height}-full.png"), full_page=True
            )
        finally:
            browser.close()

    assert scroll_width == viewport == width, f"the page scrolls sideways: {scroll_width} px"
    assert len(images) >= 8 and all(ok for _, ok in images), images
    assert not errors, errors
    headline = (report / "summary.md").read_text().split("\n\n")[1].strip()
    assert first == headline
    assert first.count(". ") + 1 >= 3  # three to six sentences
    for raw in ("## ", "- variant", "| --- |", "**"):
        assert raw not in text, raw
    for name in ("p_holm_significant", "seat0_adv_low", "turn_cap_share", "ci_low"):
        assert name not in text, name
    long = [x for x in FLOAT.findall(text) if significant_digits(x) > 4]
    assert not long, long[:10]
