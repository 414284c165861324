"""A real browser: Debian's chromium, driven by Playwright's Python package (no browser download).

Screenshots of every page a test visited are kept under test-artifacts/<test name>/ when the test
fails.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, require

# Playwright's sync API runs an event loop in this thread; Django's ORM calls in the test body
# are still synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


# Package scope, not session: Playwright's sync API keeps its event loop running in this thread
# while it is open, so every later test's asyncio.run() failed ("cannot be called from a running
# event loop") when the browser tests ran first in the whole suite.
@pytest.fixture(scope="package")
def browser():
    require(Path(CHROMIUM).exists(), "chromium is not installed (make system-deps installs Debian's chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - a test dependency
        require(False, "the playwright package is not installed")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


class ScreenshotPage:
    """A page that remembers a screenshot of each step, to save if the test fails."""

    def __init__(self, page):
        self.page = page
        self.shots: list[tuple[str, bytes]] = []

    def snap(self, name: str) -> None:
        self.shots.append((name, self.page.screenshot(full_page=True)))


@pytest.fixture
def page(browser, request, live_server):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(20_000)
    wrapper = ScreenshotPage(page)
    yield wrapper
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    if failed:
        folder = ROOT / "test-artifacts" / re.sub(r"[^\w.-]+", "_", request.node.name)
        folder.mkdir(parents=True, exist_ok=True)
        for index, (name, data) in enumerate(wrapper.shots):
            (folder / f"{index:02d}-{name}.png").write_bytes(data)
        with contextlib.suppress(Exception):  # the page may be gone; the earlier shots are kept
            page.screenshot(path=str(folder / "zz-at-failure.png"), full_page=True)
    context.close()
