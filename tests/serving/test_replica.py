"""Read replicas: a real streaming standby (pg_basebackup + hot standby from the pgserver binaries).
Searches, lists and the session prompt's recall read from it; writes and read-your-own-write
paths use the primary; a lagging or dead replica sends reads back to the primary."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.serving.conftest import own_tmp
from tests.serving.pg_cluster import SUPERUSER_PASSWORD, start_primary, start_replica
from tests.serving.support import user_env

pytestmark = [pytest.mark.timeout(900), pytest.mark.external_pg]


@pytest.fixture(scope="module")
def clusters():
    primary = start_primary()
    replica = start_replica(primary)
    env = _env(primary, replica, own_tmp())
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert migrate.returncode == 0, migrate.stderr
    yield primary, replica, env
    replica.destroy()
    primary.destroy()


def _env(primary, replica, tmp) -> dict:
    return user_env(
        tmp,
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL=primary.url(),
        DATABASE_REPLICA_URL=replica.url(),
        CELERY_BROKER_URL="memory://",
        DJANGO_ALLOWED_HOSTS="testserver",
        MNEMO_REPLICA_MAX_LAG_SECONDS="1",
        MNEMO_REPLICA_CHECK_SECONDS="0",
        REPLICA_SUPER_DSN=(
            f"host=127.0.0.1 port={replica.port} user=postgres password={SUPERUSER_PASSWORD} dbname=postgres"
        ),
        REPLICA_ROOT=str(replica.root),
        REPLICA_PORT=str(replica.port),
    )


def probe(env: dict, phase: str, **extra: str) -> dict:
    result = subprocess.run(
        [sys.executable, "tests/serving/replica_probe.py", phase],
        cwd=ROOT,
        env={**env, **extra},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-5000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_reads_go_to_the_replica_and_writes_and_own_writes_to_the_primary(clusters):
    _, _, env = clusters
    out = probe(env, "healthy")
    # Writes, and remember's near-duplicate check (it reads what was just written): primary only.
    assert out["remember"]["status"] == 201 and out["remember"]["queries"]["replica"] == 0
    assert out["add"]["status"] == 202 and out["add"]["queries"]["replica"] == 0
    # The status of an event right after its add: the primary (the replica may not have it yet).
    assert out["event"]["status"] == 200 and out["event"]["queries"]["replica"] == 0
    # Searches and lists: the replica.
    assert out["search"]["status"] == 200 and "Priya" in out["search"]["body"]["results"][0]["text"]
    assert out["search"]["queries"]["replica"] > 0
    assert out["list"]["status"] == 200 and out["list"]["queries"]["replica"] > 0
    assert out["namespaces"]["status"] == 200 and out["namespaces"]["queries"]["replica"] > 0
    # The session: its prompt's recall reads the replica, its snapshot is written to the primary.
    assert out["session"]["status"] == 200 and "6pm" in out["session"]["body"]["system_prompt"]
    assert out["session"]["queries"]["replica"] > 0 and out["session"]["queries"]["default"] > 0
    assert out["doctor_replica"].startswith("streaming")


def test_a_lagging_replica_is_skipped_until_it_catches_up(clusters):
    _, _, env = clusters
    out = probe(env, "lagging")
    lagging = out["search_while_lagging"]
    assert lagging["status"] == 200 and lagging["queries"]["replica"] == 0
    assert "4411" in lagging["body"]["results"][0]["text"]  # the primary has what the replica lacks
    assert "behind" in out["doctor_replica"]
    after = out["search_after_catching_up"]
    assert after["status"] == 200 and after["queries"]["replica"] > 0


def test_a_replica_that_dies_or_is_down_sends_reads_to_the_primary(clusters):
    primary, replica, env = clusters
    # Checked healthy once and then trusted for a minute: the failure itself must move the reads.
    out = probe(env, "dies", MNEMO_REPLICA_CHECK_SECONDS="60")
    assert out["search_before"]["queries"]["replica"] > 0
    assert out["search_after"]["status"] == 200 and "7720" in out["search_after"]["body"]["results"][0]["text"]
    assert out["list_after"]["status"] == 200 and out["list_after"]["body"]["count"] >= 1
    # Down from the start (still stopped): everything answers from the primary.
    out = probe(env, "down")
    assert out["remember"]["status"] == 201
    assert out["search"]["status"] == 200 and "spare key" in out["search"]["body"]["results"][0]["text"]
    assert out["search"]["queries"]["replica"] == 0 and out["list"]["status"] == 200
    doctor = subprocess.run(
        [sys.executable, "manage.py", "mnemo_doctor"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert doctor.returncode == 1 and "replica" in doctor.stdout
    replica.start()  # for any test after this one
