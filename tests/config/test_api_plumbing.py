"""API plumbing: authentication, the error envelope, JSON 404s, the schema and its docs."""

import pytest
from django.core.management import CommandError, call_command

from core import errors as exceptions
from core.models import ApiToken
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_unauthenticated_calls_get_401_in_the_error_envelope(api_client):
    response = api_client.get("/api/v1/whoami")
    assert response.status_code == 401
    assert response.json() == {
        "ok": False,
        "error": {"code": "UNAUTHENTICATED", "message": "Authentication credentials were not provided."},
    }
    assert response["WWW-Authenticate"] == "Token"


def test_a_bad_token_is_401(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = api_client.get("/api/v1/whoami")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "UNAUTHENTICATED"


def test_a_token_authenticates(token_client, user):
    response = token_client.get("/api/v1/whoami")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "username": user.username}


@pytest.mark.parametrize("path", ["/api/v1/no-such-thing", "/api/v2/whoami", "/nowhere"])
def test_unknown_routes_are_json_404(api_client, path):
    response = api_client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == "NOT_FOUND"


def test_openapi_schema_and_docs_are_served(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    doc = schema.json()
    assert doc["openapi"].startswith("3.")
    assert "/api/v1/whoami" in doc["paths"]
    docs = api_client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content
    # The UI's assets are served locally (sidecar), not from a CDN.
    assert b"cdn.jsdelivr" not in docs.content


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (exceptions.InvalidInput, 400, "INVALID_INPUT"),
        (exceptions.SecretRejected, 400, "SECRET_REJECTED"),
        (exceptions.EmbeddingError, 503, "EMBEDDING_ERROR"),
        (exceptions.DatabaseUnavailable, 503, "DATABASE_ERROR"),
        (exceptions.NotFound, 404, "NOT_FOUND"),
    ],
)
def test_domain_errors_map_to_seed_codes(error, status, code):
    response = exceptions.exception_handler(error("what went wrong"), {})
    assert response.status_code == status
    assert response.data == {"ok": False, "error": {"code": code, "message": "what went wrong"}}


def test_database_errors_map_to_database_error():
    from django.db import OperationalError

    response = exceptions.exception_handler(OperationalError("connection refused"), {})
    assert response.status_code == 503
    assert response.data["error"]["code"] == "DATABASE_ERROR"


def test_create_agent_token_creates_rotates_and_revokes(capsys, api_client):
    def whoami(key: str) -> int:
        api_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return api_client.get("/api/v1/whoami").status_code

    call_command("create_agent_token", "gmail-agent")
    first = capsys.readouterr().out.strip()
    token = ApiToken.objects.get(user__username="gmail-agent")
    assert token.name == "default" and first.startswith(token.prefix) and first not in token.digest
    call_command("create_agent_token", "gmail-agent", "--name", "drafts", "--rate-limit", "60")
    second = capsys.readouterr().out.strip()
    assert second != first and whoami(first) == 200 and whoami(second) == 200  # two live tokens
    call_command("create_agent_token", "gmail-agent", "--rotate")
    rotated = capsys.readouterr().out.strip()
    assert whoami(first) == 401 and whoami(rotated) == 200 and whoami(second) == 200
    call_command("create_agent_token", "gmail-agent", "--revoke")
    assert whoami(rotated) == 401 and whoami(second) == 401
    assert not ApiToken.objects.filter(user__username="gmail-agent", revoked_at__isnull=True).exists()
    with pytest.raises(CommandError, match="no live token"):
        call_command("create_agent_token", "gmail-agent", "--revoke")


def test_ensure_admin_creates_once_with_the_given_password(capsys, monkeypatch):
    monkeypatch.setenv("MNEMO_ADMIN_PASSWORD", "correct horse battery staple")
    call_command("ensure_admin")
    out = capsys.readouterr().out
    assert "correct horse" not in out
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser and admin.check_password("correct horse battery staple")
    call_command("ensure_admin")
    assert "exists" in capsys.readouterr().out


def test_ensure_admin_prints_a_random_password_once(capsys, monkeypatch):
    monkeypatch.delenv("MNEMO_ADMIN_PASSWORD", raising=False)
    call_command("ensure_admin", "--username", "root2")
    out = capsys.readouterr().out
    password = out.split("password: ")[1].split()[0]
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.get(username="root2").check_password(password)


def test_user_factory_makes_distinct_users():
    assert UserFactory().username != UserFactory().username


def test_load_demo_is_idempotent_and_gives_the_demo_agent_its_namespaces(capsys):
    from memories.models import Memory

    call_command("load_demo")
    count = Memory.objects.count()
    assert count >= 10
    call_command("load_demo")
    assert Memory.objects.count() == count
    assert "0 new memories" in capsys.readouterr().out
    from django.contrib.auth import get_user_model

    demo = get_user_model().objects.get(username="demo")
    from memories.permissions import visible_namespaces

    assert set(visible_namespaces(demo).values_list("key", flat=True)) == {"user:demo", "agent:gmail_subagent"}


def test_the_admin_is_branded_mnemo(client):
    response = client.get("/admin/login/")
    assert response.status_code == 200
    assert b"Mnemo" in response.content
