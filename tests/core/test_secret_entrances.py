"""One scanner at every entrance: a secret in any stored or pinned field is refused (or redacted,
for observations Mnemo writes itself), whichever way it comes in (REST, gateway tools, JSON-RPC,
import, the post-turn hook, the admin), and nothing is half-written.

Every credential below is made up.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command
from django.test import Client
from guardian.shortcuts import assign_perm
from rest_framework.test import APIClient

from contacts import services as contact_services
from contacts.models import Contact, ContactNote
from memories import services as memory_services
from memories.models import Memory, MemoryEvent, Namespace, Tombstone
from memories.permissions import ensure_user_namespace
from tests.factories import UserFactory, token_for
from toolrules.models import ToolMemoryRule, ToolStatistic

pytestmark = pytest.mark.django_db

AWS_ID = "AKIAVQJXXVBOTHD0WTFL"
GITHUB = "ghp_BY6rfNcAKEIOUttYpATIk27f4t3tGolUByxR"
CARD = "4787 7893 2879 2170"
# One of each new shape, and the hidden forms, as memory text.
NEW_SHAPES = [
    "my password is hunter2",
    "password: Tr0ub4dor&3",
    "export MYSERVICE_API_KEY=Zx81kQp0Lm3NvB7cX2tY",
    "api_key=9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    "Authorization: Bearer abcDEF123ghiJKL456mnoPQR",
    "the second column was fqRTk8j1d+bWWbjkloG1QX647kdNl9cDo+/GbVMs",
    f"My Visa is {CARD}.",
    "Wire it to DE89 3704 0044 0532 0130 00.",
    "Her social security number is 536-22-8145.",
    "ghp_BY6rfNcAKEIO\u200bUttYpATIk27f4t3tGolUByxR",
    "key ＡＫＩＡＶＱＪＸＸＶＢＯＴＨＤ０ＷＴＦＬ",
    "AKIAVQJX XVBOTHD0WTFL",
    # issue 24: one of each shape of core/secret_shapes.py
    "my DeepSeek key is sk-9c1f7e3a5b2d4c6e8f0a1b3c5d7e9f2a",
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none",
    "SECRET_KEY = 'k#8z!@p9^x$w2&m*q(-_=+)v7n3b5c1d0e4f6g8h0j2l4r6t8y'",
    "curl -u admin:Hunter2x https://api.example.com/v1/status",
    "My Visa: 4111.1111.1111.1111",
    "config blob: cGFzc3dvcmQ9aHVudGVyMng5",
    'token = "ghp_BY6rfNcAKE" + "IOUttYpATIk27" + "f4t3tGolUByxR"',
    "RxyBUloGt3t4f72kITApYttUOIEKAcNfr6YB_phg",
    "Mein Passwort ist Sonnenschein.",
]


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def refused(response) -> bool:
    return response.status_code == 400 and response.json()["error"]["code"] == "SECRET_REJECTED"


@pytest.fixture
def carol(db):
    user = UserFactory(username="carol")
    for codename in ("add_contact", "view_contactnote"):
        user.user_permissions.add(Permission.objects.get(content_type__app_label="contacts", codename=codename))
    return user


@pytest.fixture
def api(carol) -> APIClient:
    return client_for(carol)


@pytest.fixture
def memory(carol):
    return memory_services.add_memory(
        actor=carol, namespace=ensure_user_namespace(carol), content="Carol's dentist is Dr. Okafor.", run_async=False
    )


def nothing_mentions(secret: str) -> None:
    """No stored row anywhere carries the secret."""
    assert not Memory.objects.filter(text__contains=secret).exists()
    assert not [m for m in Memory.objects.all() if secret in json.dumps(m.metadata) + str(m.tags) + m.source_provider]
    assert not MemoryEvent.objects.filter(new_text__contains=secret).exists()
    assert not Tombstone.objects.filter(text__contains=secret).exists()
    assert not Tombstone.objects.filter(reason__contains=secret).exists()
    assert not ToolMemoryRule.objects.filter(rule__contains=secret).exists()
    assert not ContactNote.objects.filter(body__contains=secret).exists()


# --- REST: memories -------------------------------------------------------------------------------


@pytest.mark.parametrize("text", NEW_SHAPES)
def test_remember_refuses_each_new_shape(api, text):
    response = api.post("/api/v1/memories/remember", {"text": text}, format="json")
    assert refused(response), response.json()
    assert Memory.objects.count() == 0


@pytest.mark.parametrize(
    "extra",
    [
        {"metadata": {"source": "chat", "deploy": {"keys": [{"github": GITHUB}]}}},  # a value, deep
        {"metadata": {GITHUB: "x"}},  # a key
        {"metadata": {"a": {"b": {"c": {"d": {"e": [[[f"pwd={GITHUB}"]]]}}}}}},
        {"metadata": {"db": {"password": "Winter2024!"}}},  # a label and its value, split in key and value
        {"tags": ["work", GITHUB]},
        {"source_provider": f"claude {AWS_ID}"},
        {"session_id": GITHUB},
    ],
    ids=["metadata-value", "metadata-key", "metadata-deep", "metadata-pair", "tags", "source_provider", "session_id"],
)
def test_remember_scans_every_field(api, extra):
    response = api.post("/api/v1/memories/remember", {"text": "Carol likes oolong tea.", **extra}, format="json")
    assert refused(response), response.json()
    assert GITHUB not in response.content.decode() and AWS_ID not in response.content.decode()
    assert Memory.objects.count() == 0 and MemoryEvent.objects.count() == 0


def test_the_refusal_names_the_field_not_the_secret(api):
    body = api.post(
        "/api/v1/memories/remember", {"text": "Tea.", "metadata": {"deploy": {"token": GITHUB}}}, format="json"
    ).json()
    assert "metadata.deploy.token" in body["error"]["message"]
    assert GITHUB not in json.dumps(body)


@pytest.mark.parametrize(
    "metadata",
    [{"note": f"card {CARD}"}, {"tags": ["ok", GITHUB]}, {"source_provider": AWS_ID}, {GITHUB: 1}],
    ids=["value", "tags", "source_provider", "key"],
)
def test_add_memory_scans_its_metadata(api, metadata):
    response = api.post("/api/v1/memories", {"content": "Carol likes oolong tea.", "metadata": metadata}, format="json")
    assert refused(response), response.json()
    assert Memory.objects.count() == 0


@pytest.mark.parametrize(
    "change",
    [{"tags": [GITHUB]}, {"metadata": {"k": [GITHUB]}}, {"source_provider": GITHUB}, {"session_id": GITHUB}],
    ids=["tags", "metadata", "source_provider", "session_id"],
)
def test_patch_scans_every_field(api, memory, change):
    before = Memory.objects.values().get(pk=memory.pk)
    response = api.patch(f"/api/v1/memories/{memory.pk}", change, format="json")
    assert refused(response), response.json()
    assert Memory.objects.values().get(pk=memory.pk) == before
    nothing_mentions(GITHUB)


def test_correct_and_forget_scan_the_reason(api, memory):
    correct = api.post(
        f"/api/v1/memories/{memory.pk}/correct",
        {"text": "Carol's dentist is Dr. Adeyemi.", "reason": f"old key {GITHUB}"},
        format="json",
    )
    assert refused(correct), correct.json()
    forget = api.post(f"/api/v1/memories/{memory.pk}/forget", {"reason": f"pwd={GITHUB}"}, format="json")
    assert refused(forget), forget.json()
    memory.refresh_from_db()
    assert memory.forgotten_at is None and Memory.objects.count() == 1
    nothing_mentions(GITHUB)


# --- REST and RPC: rules ----------------------------------------------------------------------------


def test_rest_rules_are_scanned_on_create_and_update(api):
    response = api.post("/api/v1/tool-rules", {"tool_name": "send_email", "rule": f"sign with {GITHUB}"}, format="json")
    assert refused(response), response.json()
    tagged = api.post(
        "/api/v1/tool-rules", {"tool_name": "send_email", "rule": "be brief", "tags": [GITHUB]}, format="json"
    )
    assert refused(tagged), tagged.json()
    created = api.post("/api/v1/tool-rules", {"tool_name": "send_email", "rule": "be brief"}, format="json")
    assert created.status_code == 201
    update = api.put(f"/api/v1/tool-rules/{created.json()['id']}", {"rule": f"password: {CARD}"}, format="json")
    assert refused(update), update.json()
    assert list(ToolMemoryRule.objects.values_list("rule", flat=True)) == ["be brief"]


def test_rpc_tool_rule_put_refuses_a_secret(carol):
    token = token_for(carol)
    payload = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "memory.tool_rule_put",
        "params": {"tool_name": "send_sms", "rule": f"never text anyone my AWS key {AWS_ID}", "priority": "critical"},
    }
    response = Client().post(
        "/rpc", json.dumps(payload), content_type="application/json", HTTP_AUTHORIZATION=f"Token {token}"
    )
    body = response.json()
    assert "result" not in body and body["error"]["data"]["code"] == "SECRET_REJECTED", body
    assert AWS_ID not in json.dumps(body)
    assert not ToolMemoryRule.objects.exists()


# --- gateway tools ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "arguments",
    [
        {"text": "my password is hunter2"},
        {"text": "Tea.", "session_id": GITHUB},
        {"text": "Tea.", "tags": [GITHUB]},
        {"text": "Tea.", "source_provider": GITHUB},
    ],
    ids=["text", "session_id", "tags", "source_provider"],
)
def test_the_remember_tool_scans_every_field(api, arguments):
    response = api.post("/api/v1/assistant/tools/remember/invoke", {"arguments": arguments}, format="json")
    assert refused(response), response.json()
    assert Memory.objects.count() == 0


def test_the_add_memory_tool_scans_metadata(api):
    response = api.post(
        "/api/v1/assistant/tools/add_memory/invoke",
        {"arguments": {"content": "Tea.", "metadata": {"source_provider": GITHUB}}},
        format="json",
    )
    assert refused(response), response.json()
    assert Memory.objects.count() == 0


# --- contacts -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"custom_fields": {"bank": {"accounts": [{"iban": "DE89 3704 0044 0532 0130 00"}]}}},
        {"custom_fields": {GITHUB: "x"}},
        {"address": f"1 Main St, door code is 4821, wifi password: {GITHUB}"},
        {"tags": ["vip", GITHUB]},
        {"company": f"Acme {AWS_ID}"},
    ],
    ids=["custom_fields-deep", "custom_fields-key", "address", "tags", "company"],
)
def test_contacts_are_scanned_on_create_and_patch(api, carol, fields):
    created = api.post("/api/v1/contacts", {"name": "Dana", **fields}, format="json")
    assert refused(created), created.json()
    assert not Contact.objects.exists()
    dana = contact_services.create_contact(actor=carol, name="Dana")
    patched = api.patch(f"/api/v1/contacts/{dana.pk}", fields, format="json")
    assert refused(patched), patched.json()
    dana.refresh_from_db()
    assert (dana.custom_fields, dana.tags, dana.address, dana.company) == ({}, [], "", "")


def test_contact_notes_and_the_memory_note_are_scanned(api, carol):
    dana = contact_services.create_contact(actor=carol, name="Dana")
    note = api.post(f"/api/v1/contacts/{dana.pk}/notes", {"body": f"her SSN is 536-22-8145 {GITHUB}"}, format="json")
    assert refused(note), note.json()
    memory_note = api.put(
        f"/api/v1/contacts/{dana.pk}/memory", {"memory_note": "Prefers texts. Card 4787789328792170."}, format="json"
    )
    assert refused(memory_note), memory_note.json()
    assert not ContactNote.objects.exists()


# --- import -------------------------------------------------------------------------------------------


def test_import_refuses_each_line_carrying_a_secret_and_keeps_the_rest(tmp_path):
    lines = [
        {"type": "memory", "namespace": "user:imp", "text": "Imported fact one."},
        {"type": "memory", "namespace": "user:imp", "text": "Fact two.", "metadata": {"k": {"v": [GITHUB]}}},
        {"type": "memory", "namespace": "user:imp", "text": "Fact three.", "tags": [GITHUB]},
        {"type": "memory", "namespace": "user:imp", "text": "Fact four.", "source_provider": GITHUB},
        {"type": "memory", "namespace": "user:imp", "text": "my password is hunter2"},
        {"type": "memory", "namespace": f"user:{GITHUB}", "text": "Fact five."},
        {"type": "tombstone", "namespace": "user:imp", "text": f"old key {GITHUB}", "reason": "rotated"},
        {"type": "tombstone", "namespace": "user:imp", "text": "Lived in Porto.", "reason": f"pwd={GITHUB}"},
        {"type": "tombstone", "namespace": "user:imp", "text": "Lived in Lisbon.", "reason": "moved"},
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError, match="7 lines rejected"):  # the others are imported
        call_command("import_memories", str(path), stdout=out, stderr=err)
    assert list(Memory.objects.values_list("text", flat=True)) == ["Imported fact one."]
    assert list(Tombstone.objects.values_list("text", flat=True)) == ["Lived in Lisbon."]
    report = out.getvalue() + err.getvalue()
    assert report.count("SECRET_REJECTED") == 7, report
    nothing_mentions(GITHUB)
    assert GITHUB not in report and not Namespace.objects.filter(key__contains=GITHUB).exists()


# --- the post-turn hook ---------------------------------------------------------------------------------


def test_a_decree_carrying_a_secret_is_not_pinned(carol, django_capture_on_commit_callbacks):
    turn = {
        "session_id": "s-1",
        "turn_index": 1,
        "messages": [
            {"role": "user", "content": f"Never email anyone my AWS key {AWS_ID}"},
            {"role": "user", "content": "Never text Bob after 9pm."},
        ],
        "tool_calls": [],
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(carol).post("/api/v1/assistant/turns", turn, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert [r["rule"] for r in body["rules"]] == ["Never text Bob after 9pm."]  # the user's words (issue 16)
    assert [s["message_index"] for s in body["memories"]["skipped"]] == [0]
    nothing_mentions(AWS_ID)
    prompt = client_for(carol).get("/api/v1/tool-rules/prompt").json()["markdown"]
    assert AWS_ID not in prompt and "Never text Bob after 9pm." in prompt


def test_a_secret_in_a_failing_tools_error_is_redacted_in_the_observation(carol):
    error = f"401 Unauthorized: token {GITHUB} was revoked (Authorization: Bearer abcDEF123ghiJKL456mnoPQR)"
    turn = {
        "session_id": "s-2",
        "turn_index": 1,
        "messages": [{"role": "user", "content": "Sync my repos."}],
        "tool_calls": [{"name": "github_sync", "arguments": {}, "status": "error", "error": error}] * 2,
    }
    response = client_for(carol).post("/api/v1/assistant/turns", turn, format="json")
    assert response.status_code == 201, response.json()
    [observation] = response.json()["observations"]
    assert "[REDACTED]" in observation["rule"] and "401 Unauthorized" in observation["rule"]
    rule = ToolMemoryRule.objects.get(tool_name="github_sync")
    assert GITHUB not in rule.rule and "abcDEF123ghiJKL456mnoPQR" not in rule.rule
    stat = ToolStatistic.objects.get(owner=carol, tool_name="github_sync")
    assert stat.failures == 2 and GITHUB not in stat.last_error and "[REDACTED]" in stat.last_error


# A session's agent name (pinned into every prompt of the session), a turn's tool-call names (kept
# in statistics) and its session id (kept with the turn and its memories) were stored unscanned.
TURN_FIELDS = [
    pytest.param({"session_id": f"s-{GITHUB}"}, id="session_id"),
    pytest.param({"agent_name": f"research subagent {AWS_ID}"}, id="agent_name"),
    pytest.param(
        {"tool_calls": [{"name": "send_email", "status": "success"}, {"name": GITHUB, "status": "success"}]},
        id="tool_call_name",
    ),
    pytest.param({"tool_calls": [{"name": GITHUB, "status": "error", "error": "boom"}] * 2}, id="failing_tool_name"),
]


def _turn(**fields) -> dict:
    return {"session_id": "s-9", "messages": [{"role": "user", "content": "I like oolong tea."}], **fields}


def _nothing_of_the_turn_is_kept() -> None:
    from assistant.models import ProcessedTurn

    assert not ProcessedTurn.objects.exists() and not ToolStatistic.objects.exists()
    assert not Memory.objects.exists() and not ToolMemoryRule.objects.exists()


@pytest.mark.parametrize("fields", TURN_FIELDS)
def test_the_turns_names_and_session_id_are_scanned_over_rest(carol, fields):
    response = client_for(carol).post("/api/v1/assistant/turns", _turn(**fields), format="json")
    assert refused(response), response.json()
    assert GITHUB not in response.content.decode() and AWS_ID not in response.content.decode()
    _nothing_of_the_turn_is_kept()


@pytest.mark.parametrize("fields", TURN_FIELDS)
def test_the_turns_names_and_session_id_are_scanned_over_mcp(carol, fields):
    from assistant.mcp.entrance import call_tool_as

    result = call_tool_as(carol, "report_turn", _turn(**fields))
    assert result.is_error and result.structured_content["error"]["code"] == "SECRET_REJECTED"
    _nothing_of_the_turn_is_kept()


def test_a_sessions_agent_name_is_scanned_over_rest_and_mcp(carol):
    from assistant.mcp import entrance
    from assistant.mcp.server import _protocol_error
    from assistant.models import AssistantSession
    from core.errors import SecretRejected

    name = f"deploy agent {GITHUB}"
    response = client_for(carol).post("/api/v1/assistant/session", {"agent_name": name}, format="json")
    assert refused(response), response.json()
    with pytest.raises(SecretRejected) as refusal:
        entrance.get_prompt_as(carol, arguments={"agent_name": name})
    assert GITHUB not in refusal.value.message
    error = _protocol_error(refusal.value)  # what the MCP server answers: invalid params, not an internal error
    assert error.error.code == -32602 and error.error.message.startswith("SECRET_REJECTED: agent_name")
    assert not AssistantSession.objects.exists()


# --- the admin ------------------------------------------------------------------------------------------


@pytest.fixture
def staff(client, db):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    return client


def form_errors(response) -> str:
    assert response.status_code == 200, response.status_code  # the form again, not a 500 or a redirect
    form = response.context["adminform"].form
    inline_errors = [
        str(error) for formset in response.context.get("inline_admin_formsets", []) for error in formset.formset.errors
    ]
    return " ".join(str(e) for e in form.errors.values()) + " ".join(inline_errors)


def test_the_rule_admin_refuses_a_secret_as_a_form_error(staff):
    response = staff.post(
        "/admin/toolrules/toolmemoryrule/add/",
        {"tool_name": "send_email", "rule": f"Never email anyone my AWS key {AWS_ID}", "priority": "critical",
         "source": "user_explicit", "tags": ""},
    )  # fmt: skip
    assert "looks like a secret" in form_errors(response)
    assert not ToolMemoryRule.objects.exists()


def test_the_contact_admin_refuses_secrets_in_fields_and_the_memory_note(staff):
    dana = Contact.objects.create(name="Dana")
    url = f"/admin/contacts/contact/{dana.pk}/change/"
    base = {
        "name": "Dana", "email": "", "phone": "", "company": "", "title": "", "address": "", "timezone": "",
        "tags": "", "custom_fields": "{}",
        "notes-TOTAL_FORMS": "1", "notes-INITIAL_FORMS": "0", "notes-MIN_NUM_FORMS": "0", "notes-MAX_NUM_FORMS": "1",
        "notes-0-body": "", "notes-0-id": "", "notes-0-contact": str(dana.pk),
        "messages-TOTAL_FORMS": "0", "messages-INITIAL_FORMS": "0", "messages-MIN_NUM_FORMS": "0",
        "messages-MAX_NUM_FORMS": "0",
    }  # fmt: skip
    fields = staff.post(url, {**base, "custom_fields": json.dumps({"bank": {"card": CARD}})})
    assert "looks like a secret" in form_errors(fields)
    note = staff.post(url, {**base, "notes-0-body": f"Her token is {GITHUB}"})
    assert "looks like a secret" in form_errors(note)
    dana.refresh_from_db()
    assert dana.custom_fields == {} and not ContactNote.objects.exists()


def test_the_contact_note_admin_refuses_a_secret(staff):
    dana = Contact.objects.create(name="Dana")
    response = staff.post(
        "/admin/contacts/contactnote/add/", {"contact": str(dana.pk), "kind": "note", "body": "pwd=Winter2024!"}
    )
    assert "looks like a secret" in form_errors(response)
    assert not ContactNote.objects.exists()


def test_the_memory_admin_refuses_secret_tags_and_a_secret_forget_reason(staff, carol):
    namespace = Namespace.objects.create(key="team:secrets", kind="other")
    memory = memory_services.add_memory(
        actor=carol, namespace=namespace, content="Team lunch is Friday.", run_async=False
    )
    url = f"/admin/memories/memory/{memory.pk}/change/"
    response = staff.post(url, {"text": memory.text, "tags": f"lunch,{GITHUB}", "expires_at_0": "", "expires_at_1": ""})
    assert "looks like a secret" in form_errors(response)
    forget = staff.post(
        "/admin/memories/memory/",
        {"action": "forget_with_reason", "_selected_action": [memory.pk], "apply": "1", "reason": f"key {GITHUB}"},
    )
    assert forget.status_code == 200  # the reason form again, with its error
    assert "looks like a secret" in forget.content.decode()
    memory.refresh_from_db()
    assert memory.tags == [] and memory.forgotten_at is None
    nothing_mentions(GITHUB)


def test_a_staff_member_with_object_permissions_gets_the_same_form_error(client, db):
    staff_user = UserFactory(username="editor", is_staff=True)
    dana = Contact.objects.create(name="Dana")
    for perm in ("view_contact", "change_contact"):
        assign_perm(perm, staff_user, dana)
    client.force_login(staff_user)
    response = client.post(
        f"/admin/contacts/contact/{dana.pk}/change/",
        {"name": "Dana", "email": "", "phone": "", "company": "", "title": "", "address": "SSN 536-22-8145",
         "timezone": "", "tags": "", "custom_fields": "{}", "messages-TOTAL_FORMS": "0",
         "messages-INITIAL_FORMS": "0", "messages-MIN_NUM_FORMS": "0", "messages-MAX_NUM_FORMS": "0"},
    )  # fmt: skip
    assert response.status_code == 200 and "looks like a secret" in response.content.decode()
    dana.refresh_from_db()
    assert dana.address == ""
