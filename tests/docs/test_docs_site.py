"""The documentation site builds with ``mkdocs build --strict``, and the README's links hold.

mkdocs.yml turns on MkDocs' validation (links to missing pages or anchors, pages missing from the
navigation, the navigation naming a missing page, absolute links), each a warning, and
``--strict`` makes any warning fail the build: so a broken link fails this test. The README is
not part of the site (it is the repository's front page), so its relative links are checked
here: each must name a file of the repository, and a link into docs/ with an anchor must land on
a heading the built page has.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
#: Material's banner about its end of life, printed on every build, is left out of the logs.
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def mkdocs() -> list[str]:
    found = shutil.which("mkdocs", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "mkdocs"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [*mkdocs(), "build", "--strict", "--clean", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=ENV,
    )
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout[-5000:]}\n{result.stderr[-10000:]}"
    return out


def test_the_site_builds_strictly_with_every_page(site: Path):
    for page in sorted((ROOT / "docs").rglob("*.md")):
        name = page.relative_to(ROOT / "docs").with_suffix("")
        built = site / ("index.html" if name == Path("index") else name / "index.html")
        assert built.is_file(), f"{page} was not built"


def test_a_broken_link_fails_the_build(tmp_path: Path):
    # The same configuration on a copy of docs/ with one bad anchor must fail: otherwise the
    # test above would pass whatever the links said.
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    page = tmp_path / "docs" / "getting-started.md"
    page.write_text(page.read_text() + "\nSee [nowhere](serving.md#no-such-heading).\n")
    result = subprocess.run(
        [*mkdocs(), "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=ENV,
    )
    assert result.returncode != 0
    assert "no-such-heading" in result.stderr


def _anchors(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def test_the_readme_links_land(site: Path):
    readme = (ROOT / "README.md").read_text()
    links = [m for m in LINK.findall(readme) if not re.match(r"[a-z]+:", m)]
    assert links, "the README links to nothing"
    broken = []
    for link in links:
        target, _, anchor = link.partition("#")
        path = (ROOT / target) if target else ROOT / "README.md"
        if not path.exists():
            broken.append(f"{link}: no such file")
            continue
        if anchor and path.suffix == ".md" and path.is_relative_to(ROOT / "docs"):
            name = path.relative_to(ROOT / "docs").with_suffix("")
            html = site / ("index.html" if name == Path("index") else name / "index.html")
            if anchor not in _anchors(html.read_text()):
                broken.append(f"{link}: no heading with that anchor")
    assert not broken, broken


def test_the_readme_is_a_front_page():
    assert len((ROOT / "README.md").read_bytes()) < 15_000
