"""API tokens: hashed at rest, several named ones per user with expiry, last use and an optional
rate limit; made and revoked over the API and in the admin; DRF's tokens converted by the
migration; and the access version that makes a revocation apply at once in every process."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIClient

from core import authentication
from core.authentication import authenticate_key
from core.errors import RateLimited
from core.models import AccessVersion, ApiToken
from core.tokens import MAX_LIVE_TOKENS, PREFIX_LENGTH, issue_token, revoke_token, token_digest
from memories import services as memory_services
from memories.permissions import ensure_user_namespace
from tests.conftest import ROOT, worker_env
from tests.factories import GroupFactory, UserFactory, grant, token_for

pytestmark = pytest.mark.django_db

CACHED = override_settings(MNEMO_TOKEN_CACHE_SECONDS=300)


@pytest.fixture(autouse=True)
def _no_cached_tokens():
    authentication.forget_cached_tokens()
    yield
    authentication.forget_cached_tokens()


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def version() -> int:
    row = AccessVersion.objects.filter(pk=1).first()
    return row.version if row else 0


# --- at rest ---------------------------------------------------------------------------------------


def test_only_a_hash_and_a_short_prefix_are_stored(user):
    answer = client_with(token_for(user)).post("/api/v1/tokens", {"name": "gmail agent"}, format="json")
    assert answer.status_code == 201, answer.content
    key = answer.json()["key"]
    assert key.startswith("mnemo_") and len(key) == 49
    token = ApiToken.objects.get(pk=answer.json()["id"])
    assert token.digest == hashlib.sha256(key.encode()).hexdigest() and token.prefix == key[:PREFIX_LENGTH]
    with connection.cursor() as cursor:
        cursor.execute("SELECT row_to_json(t)::text FROM core_apitoken t WHERE id = %s", [token.pk])
        stored = cursor.fetchone()[0]
    assert key not in stored and key[PREFIX_LENGTH:] not in stored  # nothing beyond the prefix
    assert client_with(key).get("/api/v1/whoami").json()["username"] == user.username


def test_a_key_is_compared_in_full_not_by_its_prefix(user):
    key = token_for(user)
    for wrong in (key[:PREFIX_LENGTH], key[:-1], key + "x", key[:-1] + ("A" if key[-1] != "A" else "B"), ""):
        with pytest.raises(AuthenticationFailed):
            authenticate_key(wrong)
    with pytest.raises(AuthenticationFailed):
        authenticate_key("x" * 10_000)  # refused before it is hashed


# --- the API ---------------------------------------------------------------------------------------


def test_several_named_tokens_listed_without_keys_and_revoked_one_by_one(user):
    agent = client_with(token_for(user))
    made = [agent.post("/api/v1/tokens", {"name": name}, format="json").json() for name in ("gmail", "calendar")]
    listed = agent.get("/api/v1/tokens").json()
    assert {t["name"] for t in listed} == {"test", "gmail", "calendar"}
    assert all("key" not in t and set(t) >= {"prefix", "created_at", "expires_at", "last_used_at"} for t in listed)
    assert [t["prefix"] for t in listed if t["name"] == "gmail"] == [made[0]["key"][:PREFIX_LENGTH]]

    assert agent.delete(f"/api/v1/tokens/{made[0]['id']}").status_code == 204
    assert client_with(made[0]["key"]).get("/api/v1/whoami").status_code == 401  # at once
    assert client_with(made[1]["key"]).get("/api/v1/whoami").status_code == 200  # the other one lives on
    assert {t["name"] for t in agent.get("/api/v1/tokens").json()} == {"test", "calendar"}
    again = agent.delete(f"/api/v1/tokens/{made[0]['id']}")
    assert again.status_code == 404 and again.json()["error"]["code"] == "NOT_FOUND"
    assert ApiToken.objects.get(pk=made[0]["id"]).revoked_at is not None  # kept on record for staff


def test_a_token_may_revoke_itself(user):
    key = token_for(user)
    own = ApiToken.objects.get(digest=token_digest(key))
    assert client_with(key).delete(f"/api/v1/tokens/{own.pk}").status_code == 204
    assert client_with(key).get("/api/v1/tokens").status_code == 401


def test_another_users_token_is_not_found(user):
    other = UserFactory()
    theirs = issue_token(user=other, name="theirs").token
    mine = client_with(token_for(user))
    assert theirs.pk not in {t["id"] for t in mine.get("/api/v1/tokens").json()}
    for token_id in (theirs.pk, 999_999_999, 2**70):
        answer = mine.delete(f"/api/v1/tokens/{token_id}")
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "NOT_FOUND", token_id
    assert ApiToken.objects.get(pk=theirs.pk).revoked_at is None


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "INVALID_INPUT"),
        ({"name": ""}, "INVALID_INPUT"),
        ({"name": "   "}, "INVALID_INPUT"),
        ({"name": "x" * 101}, "INVALID_INPUT"),
        ({"name": "a\x00b"}, "INVALID_INPUT"),
        ({"name": 42}, "INVALID_INPUT"),
        ({"name": "agent", "scope": "all"}, "INVALID_INPUT"),
        ({"name": "agent", "expires_at": "2001-01-01T00:00:00Z"}, "INVALID_INPUT"),
        ({"name": "agent", "expires_at": "soon"}, "INVALID_INPUT"),
        ({"name": "agent", "rate_limit_per_minute": 0}, "INVALID_INPUT"),
        ({"name": "agent", "rate_limit_per_minute": 10**9}, "INVALID_INPUT"),
        ({"name": "agent", "rate_limit_per_minute": True}, "INVALID_INPUT"),
        ({"name": "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"}, "SECRET_REJECTED"),
    ],
)
def test_the_input_contract(user, body, code):
    answer = client_with(token_for(user)).post("/api/v1/tokens", body, format="json")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == code, answer.content
    assert ApiToken.objects.filter(user=user).count() == 1


def test_expiry_and_a_bounded_number_of_live_tokens(user):
    agent = client_with(token_for(user))
    soon = (timezone.now() + timedelta(days=1)).isoformat()
    made = agent.post("/api/v1/tokens", {"name": "nightly", "expires_at": soon}, format="json").json()
    assert client_with(made["key"]).get("/api/v1/whoami").status_code == 200
    ApiToken.objects.filter(pk=made["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    answer = client_with(made["key"]).get("/api/v1/whoami")
    assert answer.status_code == 401 and answer.json()["error"]["message"] == "Token expired."
    for i in range(MAX_LIVE_TOKENS - 2):
        issue_token(user=user, name=f"t{i}")
    full = agent.post("/api/v1/tokens", {"name": "one too many"}, format="json")
    assert full.status_code == 400 and "at most" in full.json()["error"]["message"]


def test_a_token_made_with_a_token_reaches_no_further(user):
    parent_key = token_for(
        user, name="limited", expires_at=timezone.now() + timedelta(days=2), rate_limit_per_minute=50
    )
    parent = ApiToken.objects.get(digest=token_digest(parent_key))
    agent = client_with(parent_key)
    child = agent.post("/api/v1/tokens", {"name": "child"}, format="json").json()
    assert child["rate_limit_per_minute"] == 50 and child["expires_at"] == parent.expires_at.isoformat().replace(
        "+00:00", "Z"
    )
    later = (parent.expires_at + timedelta(days=1)).isoformat()
    for body in ({"name": "c", "expires_at": later}, {"name": "c", "rate_limit_per_minute": 51}):
        answer = agent.post("/api/v1/tokens", body, format="json")
        assert answer.status_code == 400 and "token this request came with" in answer.json()["error"]["message"]


def test_the_schema_documents_the_token_routes_and_429(user):
    schema = client_with(token_for(user)).get("/api/schema/?format=json").json()
    create = schema["paths"]["/api/v1/tokens"]["post"]
    assert create["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/TokenInputRequest")
    assert schema["components"]["schemas"]["TokenInputRequest"]["additionalProperties"] is False
    assert "key" in schema["components"]["schemas"]["TokenCreatedOutput"]["properties"]
    assert "key" not in schema["components"]["schemas"]["TokenOutput"]["properties"]
    assert "204" in schema["paths"]["/api/v1/tokens/{token_id}"]["delete"]["responses"]
    assert "Retry-After" in schema["paths"]["/api/v1/memories/search"]["post"]["responses"]["429"]["headers"]


# --- last use and rate limits ------------------------------------------------------------------------


@CACHED
def test_last_used_is_written_at_most_once_a_minute(user):
    key = token_for(user)
    client = client_with(key)
    with CaptureQueriesContext(connection) as queries:
        for _ in range(20):
            assert client.get("/api/v1/whoami").status_code == 200
    writes = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE core_apitoken")]
    assert len(writes) == 1
    token = ApiToken.objects.get(digest=token_digest(key))
    assert token.last_used_at is not None and timezone.now() - token.last_used_at < timedelta(seconds=30)
    # Another process (its own cache) a minute later writes it once more; before then, not at all.
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now() - timedelta(seconds=61))
    authentication.forget_cached_tokens()
    client.get("/api/v1/whoami")
    assert timezone.now() - ApiToken.objects.get(pk=token.pk).last_used_at < timedelta(seconds=30)


def _clear_of_a_minute_boundary() -> None:
    """Counts start again with each minute of the database's clock: start well inside one."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT extract(second FROM now())")
        second = float(cursor.fetchone()[0])
    if second > 55:
        time.sleep(61 - second)


@CACHED
def test_a_rate_limited_token_gets_429_with_retry_after_across_processes(user):
    key = token_for(user, name="limited", rate_limit_per_minute=3)
    client = client_with(key)
    _clear_of_a_minute_boundary()
    answers = []
    for i in range(5):
        if i == 2:
            authentication.forget_cached_tokens()  # as another process would: the count is in the row
        answers.append(client.get("/api/v1/whoami"))
    assert [r.status_code for r in answers] == [200, 200, 200, 429, 429]
    body = answers[3].json()
    assert body["error"]["code"] == "RATE_LIMITED" and "3 requests per minute" in body["error"]["message"]
    assert 1 <= int(answers[3]["Retry-After"]) <= 60
    assert client_with(token_for(user)).get("/api/v1/whoami").status_code == 200  # per token, not per user


def test_the_rate_limit_holds_at_every_entrance(user):
    key = token_for(user, name="limited", rate_limit_per_minute=1)
    _clear_of_a_minute_boundary()
    with connection.cursor() as cursor:  # this minute's one request is made
        cursor.execute(
            "UPDATE core_apitoken SET rate_count = 1, rate_window = floor(extract(epoch FROM now()) / 60) "
            "WHERE digest = %s",
            [token_digest(key)],
        )
    from assistant.mcp.entrance import user_from_authorization

    with pytest.raises(RateLimited):
        user_from_authorization(f"Bearer {key}")
    answer = Client().post(
        "/rpc",
        '{"jsonrpc": "2.0", "id": 1, "method": "memory.tool_rules_json", "params": {}}',
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {key}",
    )
    assert answer.status_code == 429 and int(answer["Retry-After"]) >= 1
    assert answer.json()["error"]["data"]["error"]["code"] == "RATE_LIMITED"
    rest = client_with(key).get("/api/v1/whoami")
    assert rest.status_code == 429 and rest.json()["error"]["code"] == "RATE_LIMITED"


# --- the access version -------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_every_change_of_who_may_do_what_moves_the_access_version_once_committed():
    user, group = UserFactory(), GroupFactory()
    namespace = ensure_user_namespace(UserFactory())
    perm = Permission.objects.get(codename="view_namespace")
    token = issue_token(user=user, name="t").token
    changes = [
        lambda: grant(user, "view_namespace", obj=namespace),
        lambda: grant(group, "view_namespace", obj=namespace),
        lambda: user.user_permissions.add(perm),
        lambda: user.user_permissions.remove(perm),
        lambda: group.permissions.add(perm),
        lambda: user.groups.add(group),
        lambda: user.groups.clear(),
        lambda: setattr(user, "is_active", False) or user.save(),
        lambda: revoke_token(token=token),
        lambda: group.delete(),
    ]
    for change in changes:
        before = version()
        change()
        assert version() == before + 1
    before = version()
    user.save(update_fields=["last_login"])  # a login is no change of rights
    issue_token(user=user, name="new")  # a new token is in nobody's cache
    assert version() == before


@pytest.mark.django_db(transaction=True)
def test_one_transaction_moves_it_once_and_only_after_commit():
    from django.db import transaction

    user = UserFactory()
    perms = list(Permission.objects.filter(codename__in=["view_namespace", "write_namespace", "view_contact"]))
    before = version()
    with transaction.atomic():
        for perm in perms:
            user.user_permissions.add(perm)
        assert version() == before  # not before commit: another process would reload the old state
    assert version() == before + 1
    with pytest.raises(RuntimeError), transaction.atomic():
        user.user_permissions.clear()
        raise RuntimeError
    assert version() == before + 1  # rolled back: nothing changed


def test_the_version_read_fails_like_any_query():
    """It runs on libpq directly: a failure is still Django's DatabaseError (503 DATABASE_ERROR)."""
    import psycopg
    from django.db import DatabaseError, transaction

    with transaction.atomic():  # a savepoint, rolled back below
        with pytest.raises(psycopg.errors.DivisionByZero):
            connection.connection.execute("SELECT 1 / 0")  # the transaction is now in error
        with pytest.raises(DatabaseError, match="transaction is aborted"):
            authentication._read_version()
        transaction.set_rollback(True)


def _in_another_process(code: str) -> None:
    """Run ``code`` in a separate Django process against this test database (its own connection
    and its own caches): what another web worker or an admin's request would do."""
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=worker_env("memory://"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.django_db(transaction=True)
@CACHED
def test_a_change_in_another_process_applies_to_the_next_request_here():
    owner, reader = UserFactory(), UserFactory()
    memory = memory_services.add_memory(
        actor=owner, namespace=ensure_user_namespace(owner), content="The boat is moored in Cascais.", run_async=False
    )
    group = GroupFactory()
    group.permissions.add(Permission.objects.get(codename="view_namespace"))
    reader.groups.add(group)
    key = token_for(reader)
    client = client_with(key)
    path = f"/api/v1/memories/{memory.id}"
    for _ in range(3):  # this process now remembers the reader, with its group's permissions
        assert client.get(path).status_code == 200
    with CaptureQueriesContext(connection) as cached:
        assert client.get(path).status_code == 200
    assert not any("auth_group" in q["sql"] or "core_apitoken" in q["sql"] for q in cached.captured_queries)

    who = f"from django.contrib.auth import get_user_model; u = get_user_model().objects.get(pk={reader.pk}); "
    _in_another_process(who + "u.groups.clear()")
    assert client.get(path).status_code == 404  # at once: no waiting for a cache to expire
    _in_another_process(who + f"u.groups.add({group.pk})")
    assert client.get(path).status_code == 200
    _in_another_process(who + "u.is_active = False; u.save()")
    assert client.get(path).status_code == 401
    _in_another_process(who + "u.is_active = True; u.save()")
    assert client.get(path).status_code == 200
    subprocess.run(
        [sys.executable, "manage.py", "create_agent_token", reader.username, "--revoke"],
        cwd=ROOT,
        env=worker_env("memory://"),
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert client.get(path).status_code == 401


# --- the admin ----------------------------------------------------------------------------------------


def test_staff_make_a_token_in_the_admin_and_see_its_key_once():
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    agent = UserFactory(username="agent")
    admin = Client()
    admin.force_login(root)
    created = admin.post(
        "/admin/core/apitoken/add/", {"user": agent.pk, "name": "crm agent", "rate_limit_per_minute": "30"}
    )
    assert created.status_code == 200 and "no-store" in created["Cache-Control"]
    page = created.content.decode()
    token = ApiToken.objects.get(user=agent)
    key = page.split('id="mnemo-token-key"', 1)[1].split(">", 1)[1].split("<", 1)[0]
    assert key.startswith(token.prefix) and token.digest == token_digest(key) and token.rate_limit_per_minute == 30
    assert client_with(key).get("/api/v1/whoami").json()["username"] == "agent"

    listed = admin.get("/admin/core/apitoken/").content.decode()
    assert token.prefix in listed and "crm agent" in listed and key not in listed
    change = admin.get(f"/admin/core/apitoken/{token.pk}/change/").content.decode()
    assert token.prefix in change and key not in change and token.digest not in change

    secret = "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"
    refused = admin.post("/admin/core/apitoken/add/", {"user": agent.pk, "name": secret})
    assert refused.status_code == 200 and "looks like a secret" in refused.content.decode()
    past = admin.post(
        "/admin/core/apitoken/add/",
        {"user": agent.pk, "name": "x", "expires_at_0": "2001-01-01", "expires_at_1": "00:00:00"},
    )
    assert "must be in the future" in past.content.decode()
    assert ApiToken.objects.filter(user=agent).count() == 1

    action = {"action": "revoke_selected", "_selected_action": [token.pk]}
    assert admin.post("/admin/core/apitoken/", action).status_code == 302
    assert client_with(key).get("/api/v1/whoami").status_code == 401
    for query in ("?q=%00", "?revoked_at__isempty=abc", "?revoked_at__isempty=1"):
        # A NUL is refused before any page (core.admin.StorableQueryMiddleware); the rest filter.
        assert admin.get(f"/admin/core/apitoken/{query}").status_code in (200, 302, 400), query


@pytest.mark.django_db
def test_a_tokens_limit_and_name_are_bounded_alike_at_every_entrance():
    """The API's bounds (a limit of 1 to 1,000,000 a minute, a name of at most 100 characters)
    hold in the admin, on a new token and on one re-limited, and in create_agent_token, which
    crashed on both with a DataError and admitted the column's 2,147,483,647 before."""
    from io import StringIO

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.core.management.base import CommandError

    from core.tokens import MAX_RATE_LIMIT

    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    agent = UserFactory(username="agent")
    admin = Client()
    admin.force_login(root)
    too_many = str(MAX_RATE_LIMIT + 1)
    refused = admin.post(
        "/admin/core/apitoken/add/", {"user": agent.pk, "name": "x", "rate_limit_per_minute": too_many}
    )
    assert refused.status_code == 200 and "must be from 1 to 1,000,000" in refused.content.decode()
    token = ApiToken.objects.create(user=agent, name="kept", digest="0" * 64, prefix="mnemo_000000")
    change = admin.post(
        f"/admin/core/apitoken/{token.pk}/change/",
        {"user": agent.pk, "name": "kept", "rate_limit_per_minute": too_many},
    )
    assert change.status_code == 200 and "must be from 1 to 1,000,000" in change.content.decode()
    assert ApiToken.objects.get(pk=token.pk).rate_limit_per_minute is None
    assert ApiToken.objects.filter(user=agent).count() == 1

    for args, message in (
        (("--rate-limit", "99999999999999999999999"), "must be from 1 to 1,000,000"),
        (("--rate-limit", "0"), "must be from 1 to 1,000,000"),
        (("--name", "x" * 101), "at most 100 characters"),
    ):
        err = StringIO()
        with pytest.raises(CommandError, match=message):
            call_command("create_agent_token", "newcomer", *args, stdout=StringIO(), stderr=err)
        assert "Created user" not in err.getvalue()
        assert not get_user_model().objects.filter(username="newcomer").exists()  # rolled back with it


# --- DRF's tokens, converted ------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_drf_tokens_keep_working_after_the_migration_and_leave_no_clear_text():
    user = UserFactory()
    legacy = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"  # DRF's shape: 40 hex digits
    executor = MigrationExecutor(connection)
    executor.migrate([("core", "0001_tokens")])  # before the conversion
    # What an older Mnemo left: DRF's table, its migration records, content types and a grant.
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamptz NOT NULL, "
            "user_id integer NOT NULL UNIQUE REFERENCES auth_user (id) DEFERRABLE INITIALLY DEFERRED)"
        )
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, '2024-03-01T10:00:00Z', %s)", [legacy, user.pk])
        cursor.execute("INSERT INTO django_migrations (app, name, applied) VALUES ('authtoken', '0001_initial', now())")
    proxy = ContentType.objects.create(app_label="authtoken", model="tokenproxy")
    permission = Permission.objects.create(content_type=proxy, codename="view_tokenproxy", name="Can view token")
    user.user_permissions.add(permission)

    MigrationExecutor(connection).migrate([("core", "0002_tokens_from_authtoken")])

    token = ApiToken.objects.get(user=user)
    assert (token.name, token.prefix, token.digest) == ("default", legacy[:PREFIX_LENGTH], token_digest(legacy))
    assert token.created_at.isoformat() == "2024-03-01T10:00:00+00:00"
    assert client_with(legacy).get("/api/v1/whoami").json()["username"] == user.username
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass('authtoken_token')")
        assert cursor.fetchone()[0] is None
        cursor.execute("SELECT count(*) FROM django_migrations WHERE app = 'authtoken'")
        assert cursor.fetchone()[0] == 0
    assert not ContentType.objects.filter(app_label="authtoken").exists()
    assert not user.user_permissions.exists()


def test_load_demo_prints_a_new_token_once_and_then_says_where_it_is(capsys):
    import re

    from django.core.management import call_command

    call_command("load_demo", "--contacts", "0", "--memories", "0")
    first = capsys.readouterr().out
    match = re.search(r"Demo agent token \(user 'demo'\): (mnemo_[A-Za-z0-9_-]+)", first)  # as tests/serving reads it
    assert match, first
    assert client_with(match.group(1)).get("/api/v1/whoami").json()["username"] == "demo"
    call_command("load_demo", "--contacts", "0", "--memories", "0")
    again = capsys.readouterr().out
    assert "made by an earlier run (" + match.group(1)[:PREFIX_LENGTH] in again and match.group(1) not in again
    assert ApiToken.objects.filter(user__username="demo", revoked_at__isnull=True).count() == 1
