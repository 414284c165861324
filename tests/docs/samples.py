"""The fenced code blocks of the README and the documentation site, read as the site reads them.

A block is a fence of three or more backticks or tildes (indented as much as a list item wants),
closed by the same character at least as long. Its kind comes from the first word of its info
string; a block just after a ``<!-- not-run: why -->`` comment (blank lines between are fine) is
listed but not run, and the comment must say why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import ROOT

SHELL = {"bash", "sh", "shell", "console"}
PYTHON = {"python", "py"}
PARSED = {"json", "toml", "yaml", "yml"}
#: Output shown as it is (a prompt, a rendering, a measurement): listed, never run.
SHOWN = {"text"}

_OPEN = re.compile(r"^(?P<indent> {0,8})(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
_NOT_RUN = re.compile(r"^\s*<!--\s*not-run:(?P<why>.*?)-->\s*$")


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its kind (the info string's first word), its code, and the
    reason it is not run (None: it runs)."""

    path: str
    line: int
    kind: str
    code: str
    not_run: str | None

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line} ({self.kind or 'no info string'})"


def pages() -> list[Path]:
    """README.md and every Markdown page of the site, in a fixed order."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def blocks(path: Path) -> list[Block]:
    lines = path.read_text().splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        opening = _OPEN.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence = len(opening["indent"]), opening["fence"]
        kind = opening["info"].strip().split(" ")[0].lower() if opening["info"].strip() else ""
        body: list[str] = []
        j = i + 1
        closing = re.compile(rf"^ {{0,{indent + 3}}}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        while j < len(lines) and not closing.match(lines[j]):
            line = lines[j]
            body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
            j += 1
        if j == len(lines):
            raise AssertionError(f"{_name(path)}:{i + 1}: a fence that is never closed")
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        marker = _NOT_RUN.match(lines[k]) if k >= 0 else None
        found.append(
            Block(
                path=_name(path),
                line=i + 1,
                kind=kind,
                code="\n".join(body) + "\n",
                not_run=marker["why"].strip() if marker else None,
            )
        )
        i = j + 1
    return found


def all_blocks() -> list[Block]:
    return [block for path in pages() for block in blocks(path)]


def console_commands(code: str) -> str:
    """A ``console`` block's commands: its ``$ `` lines (the rest is their output)."""
    return "\n".join(line[2:] for line in code.splitlines() if line.startswith("$ ")) + "\n"


CURL = re.compile(r"(?<![\w-])curl\s")
CURL_FAILS = re.compile(r"(?<![\w-])(-[a-zA-Z]*f[a-zA-Z]*|--fail|--fail-with-body)(?![\w-])")


def curl_calls_without_fail(code: str) -> list[str]:
    """The curl commands of a shell sample that would exit 0 on an HTTP error (no ``-f``,
    ``--fail`` or ``--fail-with-body``): a command spans its continuation lines."""
    commands, current = [], ""
    for line in code.splitlines():
        current += line.rstrip("\\") + " "
        if not line.rstrip().endswith("\\"):
            commands.append(current)
            current = ""
    commands.append(current)
    found = []
    for command in commands:
        for call in re.split(r"[|;&]|\$\(", command):
            if CURL.search(call) and not CURL_FAILS.search(call.split("curl", 1)[1]):
                found.append(call.strip())
    return found
