"""Run by tests/serving/test_replica.py in a process of its own, with DATABASE_URL (the primary) and
DATABASE_REPLICA_URL (a streaming standby) set: makes calls through the real API and prints, as
JSON, which database each call's queries went to and what it answered."""

from __future__ import annotations

import json
import os
import sys
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

import django  # noqa: E402

django.setup()

from django.db import connections  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from config import health  # noqa: E402
from core.tokens import token_digest  # noqa: E402
from tests.factories import UserFactory, token_for  # noqa: E402

ALIASES = ("default", "replica")


def call(client: APIClient, method: str, path: str, body: dict | None = None) -> dict:
    """One API call: its status, its JSON, and how many queries ran on each database."""
    counts = dict.fromkeys(ALIASES, 0)

    def counter(alias):
        def wrapper(execute, sql, params, many, context):
            if "pg_last_wal_replay_lsn" not in sql:  # the replica's health check is not a read
                counts[alias] += 1
            return execute(sql, params, many, context)

        return wrapper

    with ExitStack() as stack:
        for alias in ALIASES:  # counts queries without connecting now (the replica may be down)
            stack.enter_context(connections[alias].execute_wrapper(counter(alias)))
        send = getattr(client, method)
        response = send(path, body, format="json") if body is not None else send(path)
    return {
        "status": response.status_code,
        "body": response.json(),
        "queries": counts,
    }


def replica_has(sql: str, params: list) -> bool:
    try:
        with connections["replica"].cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchone() is not None
    finally:
        connections["replica"].close()


def wait_replica(sql: str, params: list, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if replica_has(sql, params):
            return
        time.sleep(0.1)
    raise SystemExit("the replica did not catch up")


def client_for_new_user() -> APIClient:
    user = UserFactory()
    key = token_for(user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    wait_replica("SELECT 1 FROM core_apitoken WHERE digest = %s", [token_digest(key)])
    return client


def healthy() -> dict:
    client = client_for_new_user()
    out = {}
    out["remember"] = call(client, "post", "/api/v1/memories/remember", {"text": "Priya's flight lands at 6pm."})
    wait_replica("SELECT 1 FROM memories_memory WHERE id = %s", [out["remember"]["body"]["memory_id"]])
    out["search"] = call(client, "post", "/api/v1/memories/search", {"query": "when does Priya land"})
    out["list"] = call(client, "get", "/api/v1/memories")
    out["namespaces"] = call(client, "get", "/api/v1/namespaces")
    out["add"] = call(client, "post", "/api/v1/memories", {"content": "Priya likes aisle seats."})
    out["event"] = call(client, "get", f"/api/v1/memories/events/{out['add']['body']['event_id']}")
    out["session"] = call(client, "post", "/api/v1/assistant/session", {"message": "When does Priya's flight land?"})
    out["doctor_replica"] = health.check_replica()
    return out


def lagging() -> dict:
    client = client_for_new_user()
    super_dsn = os.environ["REPLICA_SUPER_DSN"]
    import psycopg

    with psycopg.connect(super_dsn, autocommit=True) as standby:
        standby.execute("SELECT pg_wal_replay_pause()")
        out = {"remember": call(client, "post", "/api/v1/memories/remember", {"text": "Omar's locker is 4411."})}
        time.sleep(float(os.environ["MNEMO_REPLICA_MAX_LAG_SECONDS"]) + 1.5)
        out["search_while_lagging"] = call(client, "post", "/api/v1/memories/search", {"query": "Omar locker 4411"})
        try:
            health.check_replica()
            out["doctor_replica"] = "ok"
        except RuntimeError as exc:
            out["doctor_replica"] = str(exc)
        standby.execute("SELECT pg_wal_replay_resume()")
    wait_replica("SELECT 1 FROM memories_memory WHERE id = %s", [out["remember"]["body"]["memory_id"]])
    # Caught up means caught up with the primary's latest write (the primary goes on writing: the
    # search-latency buffer, the sweeper), so wait until the router's own check says so.
    from core.replica import replica_healthy

    # On a loaded machine the replica can fall more than MNEMO_REPLICA_MAX_LAG_SECONDS behind again
    # between that check and the search's own (the primary keeps writing): then the search is
    # rightly sent to the primary. What must hold is that reads come back to the replica once it has
    # caught up, so the search is asked again, each time after the router's check says caught up.
    deadline = time.monotonic() + 60
    while True:
        while not replica_healthy(force=True) and time.monotonic() < deadline:
            time.sleep(0.2)
        after = call(client, "post", "/api/v1/memories/search", {"query": "Omar locker 4411"})
        out["search_after_catching_up"] = after
        if after["queries"]["replica"] > 0 or time.monotonic() >= deadline:
            return out
        time.sleep(0.2)


def down() -> dict:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username=f"down-{time.time_ns()}")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    out = {"remember": call(client, "post", "/api/v1/memories/remember", {"text": "The spare key is under the mat."})}
    out["search"] = call(client, "post", "/api/v1/memories/search", {"query": "spare key"})
    out["list"] = call(client, "get", "/api/v1/memories")
    return out


def dies() -> dict:
    """The replica is healthy when checked, then dies: reads in flight move to the primary."""
    client = client_for_new_user()
    out = {"remember": call(client, "post", "/api/v1/memories/remember", {"text": "Lena's flat is number 7720."})}
    wait_replica("SELECT 1 FROM memories_memory WHERE id = %s", [out["remember"]["body"]["memory_id"]])
    out["search_before"] = call(client, "post", "/api/v1/memories/search", {"query": "Lena flat 7720"})
    out["list_before"] = call(client, "get", "/api/v1/memories")
    from tests.serving.pg_cluster import Cluster

    Cluster(root=Path(os.environ["REPLICA_ROOT"]), port=int(os.environ["REPLICA_PORT"])).stop("immediate")
    out["search_after"] = call(client, "post", "/api/v1/memories/search", {"query": "Lena flat 7720"})
    out["list_after"] = call(client, "get", "/api/v1/memories")
    return out


if __name__ == "__main__":
    print(json.dumps(globals()[sys.argv[1]](), default=str))
