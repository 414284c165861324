"""Every code sample of the README and of the documentation site runs, against a live Mnemo.

The module starts Mnemo as production serves it (gunicorn with a uvicorn worker on
``config.asgi:application``, so ``/mcp`` answers too) on a free port, on the test database, and
makes a user with what ``make run``'s ``demo`` holds (``contacts.add_contact``,
``contacts.view_contactnote``) and an API token. Then, per page (README.md, docs/**/*.md):

- ``bash``/``sh``/``shell`` blocks run with ``bash -euo pipefail``, ``console`` blocks their
  ``$ `` lines the same way; ``python`` blocks run in a Python subprocess. All of them with the
  working directory at the repository's top, ``MNEMO_URL`` (the server), ``MNEMO_TOKEN`` and
  ``TOKEN`` (the user's key) in the environment, the virtualenv's ``python`` first on the PATH
  (``python manage.py ...`` runs against the test database), and two minutes each. A non-zero
  exit fails the page. Every curl call must use ``-f``, ``--fail`` or ``--fail-with-body``, so an
  HTTP error fails its sample (checked before anything runs).
- ``json`` blocks are parsed as JSON, ``toml`` with tomllib, ``yaml`` with PyYAML.
- ``text`` blocks are output shown as it is, and a block right after a ``<!-- not-run: why -->``
  comment is one that cannot run here (it starts the service, or names your own addresses):
  both are listed (``-rA`` or a failure prints the list), never run. A block with no info string,
  or one this test does not know, fails: every block is run or marked.

Order and state: a page's samples run **last to first**, each in a process of its own, so no
shell variable or Python name carries over from one sample to the next, and a sample that leaned
on something an earlier one made (a memory, a rule, a file) would fail here: every sample is
self-contained. The pages share the one server and database, which is flushed when the module
ends. A ``python`` sample that imports ``mnemo_client`` skips (with that reason) while the
client package is not importable, outside CI only.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from django.contrib.auth.models import Permission

from tests.conftest import CLIENT_ROOT, IN_CI, ROOT, free_port, require
from tests.docs.samples import (
    PARSED,
    PYTHON,
    SHELL,
    SHOWN,
    Block,
    all_blocks,
    blocks,
    console_commands,
    curl_calls_without_fail,
    pages,
)
from tests.factories import UserFactory, token_for
from tests.support import live_mnemo_server, server_env

SAMPLE_TIMEOUT = 120
RUN = SHELL | PYTHON | PARSED


def _runnable(path: Path) -> list[Block]:
    return [b for b in blocks(path) if b.not_run is None and b.kind in RUN]


#: The pages with something to run (a page of prose alone has no test).
PAGES = [pytest.param(path, id=str(path.relative_to(ROOT))) for path in pages() if _runnable(path)]


@dataclass
class Live:
    url: str
    token: str
    env: dict[str, str]
    log: Path


@pytest.fixture(scope="module")
def live(committed, tmp_path_factory) -> Iterator[Live]:
    for tool in ("bash", "curl", "jq"):
        require(shutil.which(tool) is not None, f"the shell samples need {tool} (scripts/system-deps.sh installs it)")
    user = UserFactory(username="doc-reader")
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_contact", "view_contactnote"]))
    key = token_for(user, name="docs")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = server_env(
        # This tree's client first, whatever copy is installed (as tests/conftest.py does in process).
        PYTHONPATH=os.pathsep.join([str(ROOT), str(CLIENT_ROOT)]),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        MNEMO_URL=url,
        MNEMO_TOKEN=key,
        TOKEN=key,
    )
    # Production's shape: gunicorn with a uvicorn worker on config.asgi:application.
    with live_mnemo_server(tmp_path_factory.mktemp("docs-server"), asgi=True, env=env, port=port) as server:
        yield Live(url=url, token=key, env=env, log=server.log)


def _client_importable(env: dict[str, str]) -> bool:
    check = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('mnemo_client') else 1)"
    return subprocess.run([sys.executable, "-c", check], env=env, cwd=ROOT, check=False).returncode == 0


def _run(block: Block, live: Live) -> subprocess.CompletedProcess[str]:
    if block.kind in PYTHON:
        command = [sys.executable, "-c", block.code]
    else:
        code = console_commands(block.code) if block.kind == "console" else block.code
        command = ["bash", "-euo", "pipefail", "-c", code]
    return subprocess.run(
        command, cwd=ROOT, env=live.env, capture_output=True, text=True, timeout=SAMPLE_TIMEOUT, check=False
    )


def _parse(block: Block) -> None:
    if block.kind == "json":
        json.loads(block.code)
    elif block.kind == "toml":
        tomllib.loads(block.code)
    else:
        yaml.safe_load(block.code)


def test_every_block_is_run_or_marked():
    """A block with no info string, an unknown one, or a not-run comment without a reason fails
    before anything starts; the ones not run are listed with why."""
    unmarked = [b.where for b in all_blocks() if b.not_run is None and b.kind not in SHELL | PYTHON | PARSED | SHOWN]
    assert not unmarked, f"blocks neither run nor marked (an info string, or <!-- not-run: why -->): {unmarked}"
    assert all(b.not_run for b in all_blocks() if b.not_run is not None), "a not-run comment must say why"
    shown = [f"{b.where}: output" for b in all_blocks() if b.kind in SHOWN and b.not_run is None]
    not_run = [f"{b.where}: {b.not_run}" for b in all_blocks() if b.not_run is not None]
    runnable = [b for b in all_blocks() if b.not_run is None and b.kind not in SHOWN]
    print(f"{len(runnable)} samples run, {len(shown) + len(not_run)} not run:", *not_run, *shown, sep="\n  ")
    assert runnable, "no sample found: the extractor is broken"


def test_every_curl_call_fails_on_an_http_error():
    loose = [
        f"{b.where}: {call}"
        for b in all_blocks()
        if b.not_run is None and b.kind in SHELL
        for call in curl_calls_without_fail(b.code)
    ]
    assert not loose, f"curl calls without -f/--fail/--fail-with-body (an HTTP error would pass): {loose}"


# The marker makes pytest-django create the test database (it does only for tests that ask for
# one); the samples write through the server, in their own transactions.
@pytest.mark.django_db
@pytest.mark.timeout(900)
@pytest.mark.parametrize("path", PAGES)
def test_the_samples_of_a_page_run(path: Path, live: Live):
    runnable = _runnable(path)
    failures, skipped = [], []
    client = None
    for block in reversed(runnable):
        if block.kind in PARSED:
            try:
                _parse(block)
            except (ValueError, yaml.YAMLError) as exc:
                failures.append(f"{block.where} does not parse: {exc}")
            continue
        if block.kind in PYTHON and re.search(r"^\s*(from|import) mnemo_client\b", block.code, re.M):
            client = _client_importable(live.env) if client is None else client
            if not client:
                if IN_CI:
                    failures.append(f"{block.where}: mnemo_client is not importable (required in CI)")
                else:
                    skipped.append(block.where)
                continue
        result = _run(block, live)
        if result.returncode != 0:
            failures.append(
                f"{block.where} exited {result.returncode}:\n{block.code}--- stdout ---\n{result.stdout[-3000:]}"
                f"\n--- stderr ---\n{result.stderr[-3000:]}"
            )
    if failures:
        server = live.log.read_text(errors="replace")[-3000:]
        pytest.fail("\n\n".join(failures) + f"\n--- server log ---\n{server}")
    if skipped:
        pytest.skip(f"mnemo_client is not importable here (CI installs it), so these did not run: {skipped}")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "code",
    [
        'curl -fsS -H "Authorization: Token $MNEMO_TOKEN" "$MNEMO_URL/api/v1/memories/999999999"',
        'curl -fsS -H "Authorization: Token $MNEMO_TOKEN" -H "Content-Type: application/json" "$MNEMO_URL/rpc" '
        """-d '{"jsonrpc": "2.0", "id": 1, "method": "memory.no_such_method"}' | jq -e .result""",
        "import os, urllib.request\nurllib.request.urlopen(os.environ['MNEMO_URL'] + '/api/v1/whoami')",
    ],
    ids=["curl-404", "rpc-error-in-a-200", "python-401"],
)
def test_a_sample_that_meets_an_error_fails(code: str, live: Live):
    # The way samples are run must turn an HTTP error into a failure, or a stale sample passes.
    block = Block(path="-", line=1, kind="python" if code.startswith("import") else "bash", code=code, not_run=None)
    assert _run(block, live).returncode != 0


def test_the_extractor_sees_indented_blocks_markers_and_unmarked_fences(tmp_path):
    # A list item's indented fence, a not-run comment with blank lines before its block, and a
    # bare fence: the checks above prove nothing if the extractor misses any of them.
    page = tmp_path / "page.md"
    page.write_text(
        '1. item\n\n   ```json\n   {"a": 1}\n   ```\n\n<!-- not-run: starts a server -->\n\n'
        "```bash\nmake run\n```\n\n```\nbare\n```\n"
    )
    import tests.docs.samples as samples

    found = samples.blocks(page)
    assert [(b.kind, b.code, b.not_run) for b in found] == [
        ("json", '{"a": 1}\n', None),
        ("bash", "make run\n", "starts a server"),
        ("", "bare\n", None),
    ]
    assert curl_calls_without_fail('curl -s "$MNEMO_URL/x" | jq .\ncurl -fsS \\\n  "$MNEMO_URL/y"\n') == [
        'curl -s "$MNEMO_URL/x"'
    ]
    assert importlib.util.find_spec("yaml") is not None
