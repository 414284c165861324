"""The OpenAPI spec is the truth: schemathesis, every check, against a live Mnemo.

The test starts gunicorn on a free port against the test database (the embedded PostgreSQL the
suite uses, shared through the environment as the worker tests do), with a superuser's token so
that every operation is reachable, and runs ``st run`` with a fixed seed: 0 server errors, 0
response-schema violations, 0 undocumented statuses, 0 failures of any other check.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from core.models import ApiToken
from tests.conftest import ROOT
from tests.factories import UserFactory, token_for
from tests.support import live_mnemo_server

CONFIG = Path(__file__).with_name("schemathesis.toml")
#: The run's seed: fixed, so that CI reads the same cases each time; another one (and more examples)
#: for a longer hunt: MNEMO_SCHEMATHESIS_SEED=... MNEMO_SCHEMATHESIS_EXAMPLES=200.
SEED = int(os.environ.get("MNEMO_SCHEMATHESIS_SEED", "20261122"))
#: The JUnit report of the last run, for whoever has to read a failure.
REPORT_DIR = ROOT / "test-artifacts" / "schemathesis"
MAX_EXAMPLES = int(os.environ.get("MNEMO_SCHEMATHESIS_EXAMPLES", "12"))


@pytest.fixture
def live_mnemo(transactional_db, tmp_path):
    """Mnemo served as ``make run`` serves it (gunicorn with the uvicorn worker) on 127.0.0.1:<free
    port>, on this test's (committed) database: its base URL and its log. Production's server, not
    the WSGI one: what refuses a request before Mnemo reads it differs (gunicorn's WSGI workers
    answer a request line over 4,094 bytes with an HTML 414; uvicorn passes it to Mnemo, whose
    contract answers), and the spec is checked against what clients meet."""
    with live_mnemo_server(tmp_path, asgi=True) as server:
        yield server.base, server.log


@pytest.mark.timeout(900)
def test_the_openapi_spec_holds_against_a_live_mnemo(live_mnemo, tmp_path):
    base, log = live_mnemo
    admin = UserFactory(username="schemathesis", is_staff=True, is_superuser=True)
    key = token_for(admin, name="schemathesis")
    # DELETE /api/v1/tokens/{id} is fuzzed too: the run's own token gets an id no generated example
    # is likely to name (small ids, 0 and the int64 bounds are), so the run does not revoke itself.
    ApiToken.objects.filter(user=admin).update(id=7_340_551_187)
    # The schema is fetched once, with a generous timeout (generating it takes seconds on a busy
    # machine), and given to schemathesis as a file; requests go to the live server.
    schema = tmp_path / "openapi.json"
    request = urllib.request.Request(f"{base}/api/schema/?format=json", headers={"Authorization": f"Token {key}"})
    with urllib.request.urlopen(request, timeout=120) as response:  # noqa: S310 (our own loopback server)
        schema.write_bytes(response.read())
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or "st"
    command = [
        st,
        "--config-file",
        str(CONFIG),
        "--no-color",
        "run",
        str(schema),
        "--url",
        base,
        "--checks",
        "all",
        "--seed",
        str(SEED),
        "--max-examples",
        str(MAX_EXAMPLES),
        "--workers",
        "1",
        "--phases",
        "examples,coverage,fuzzing",
        "--header",
        f"Authorization: Token {key}",
        "--request-timeout",
        "60",
        "--generation-database",
        "none",
        "--report",
        "junit",
        "--report-dir",
        str(REPORT_DIR),
        "--output-truncate",
        "true",
    ]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=840, check=False)
    # Long generated values (thousands of zeros) are cut: the failures must stay readable.
    output = "\n".join(line[:400] for line in (result.stdout + result.stderr).splitlines())
    server_log = log.read_text(errors="replace")
    assert result.returncode == 0, (
        f"schemathesis found failures:\n{output[-20000:]}\n--- server log ---\n{server_log[-5000:]}"
    )
    # The run did exercise every operation of the schema (a schema listing nothing would pass
    # vacuously) and every generated case passed.
    operations = sum(
        method in {"get", "post", "put", "patch", "delete"}
        for item in json.loads(schema.read_text())["paths"].values()
        for method in item
    )
    assert operations >= 30
    assert f"Tested: {operations}" in output, output[-5000:]
    counts = re.search(r"(\d+) generated, (\d+) passed", output)
    assert counts and counts.group(1) == counts.group(2) and int(counts.group(1)) >= operations * 10, output[-5000:]
