"""Invoking gateway tools: schema validation, registration, instance-level access, results, summaries."""

import re
from datetime import UTC, datetime

import pytest
from django.core import mail

from contacts import services as contact_services
from contacts import sms
from contacts.models import ContactMessage, ContactNote
from tests.assistant.conftest import client_for


def invoke(client, name, **arguments):
    return client.post(f"/api/v1/assistant/tools/{name}/invoke", {"arguments": arguments}, format="json")


def test_get_contact_memory_output_is_byte_exact_with_a_memory(both, jane, owner):
    note = contact_services.set_memory_note(
        actor=owner, contact=jane, body="Prefers texts over calls. Last discussed pricing on March 15."
    )
    ContactNote.objects.filter(pk=note.pk).update(updated_at=datetime(2026, 4, 2, 9, 0, 27, tzinfo=UTC))
    response = invoke(client_for(both), "get_contact_memory", contact_id=str(jane.id))
    assert response.status_code == 200
    expected = (
        f'{{"ok":true,"result":{{"contact_id":"{jane.id}","deep_link":"/contacts/{jane.id}","has_memory":true,'
        f'"note_id":"{note.id}","memory_note":"Prefers texts over calls. Last discussed pricing on March 15.",'
        '"updated_at":"2026-04-02 09:00 UTC"},'
        '"summary":"Tool get_contact_memory loaded contact memory for Jane Doe: has memory, '
        'updated 2026-04-02 09:00 UTC."}'
    )
    assert response.content.decode() == expected


def test_get_contact_memory_output_without_a_memory(both, jane):
    response = invoke(client_for(both), "get_contact_memory", contact_id=str(jane.id))
    assert response.json() == {
        "ok": True,
        "result": {
            "contact_id": str(jane.id),
            "deep_link": f"/contacts/{jane.id}",
            "has_memory": False,
            "note_id": None,
            "memory_note": None,
            "updated_at": None,
        },
        "summary": "Tool get_contact_memory loaded contact memory for Jane Doe: no memory.",
    }


def test_the_summary_never_carries_the_note_body(both, jane, owner):
    contact_services.set_memory_note(actor=owner, contact=jane, body="Secretly prefers pigeons over email.")
    summary = invoke(client_for(both), "get_contact_memory", contact_id=str(jane.id)).json()["summary"]
    assert "pigeons" not in summary
    assert re.fullmatch(
        r"Tool get_contact_memory loaded contact memory for Jane Doe: has memory, updated "
        r"\d{4}-\d\d-\d\d \d\d:\d\d UTC\.",
        summary,
    )


def test_a_contact_without_permission_answers_like_a_missing_one(both, other_contact):
    client = client_for(both)
    forbidden = invoke(client, "get_contact_memory", contact_id=str(other_contact.id))
    missing_id = "6f1c1a52-1111-4e4e-9a9a-123456789abc"
    missing = invoke(client, "get_contact_memory", contact_id=missing_id)
    assert forbidden.status_code == missing.status_code == 404
    assert forbidden.json()["error"]["code"] == missing.json()["error"]["code"] == "NOT_FOUND"
    assert forbidden.json()["error"]["message"].replace(str(other_contact.id), "X") == missing.json()["error"][
        "message"
    ].replace(missing_id, "X")
    for name in ("get_contact_details", "get_contact_messages"):
        assert invoke(client, name, contact_id=str(other_contact.id)).status_code == 404


def test_a_tool_not_registered_for_the_caller_is_refused(viewer, jane):
    response = invoke(client_for(viewer), "get_contact_memory", contact_id=str(jane.id))
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "PERMISSION_DENIED"


def test_an_unknown_tool_is_not_found(viewer):
    assert invoke(client_for(viewer), "launch_rockets").status_code == 404


@pytest.mark.parametrize(
    "arguments",
    [
        {},
        {"contact_id": 5},
        {"contact_id": "not-a-uuid"},
        {"contact_id": "6f1c1a52-1111-4e4e-9a9a-123456789abc", "extra": 1},
    ],
)
def test_arguments_are_validated_against_the_schema(both, arguments):
    response = client_for(both).post(
        "/api/v1/assistant/tools/get_contact_memory/invoke", {"arguments": arguments}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_INPUT"


def test_get_contact_details_and_messages(viewer, jane):
    ContactMessage.objects.create(contact=jane, direction="in", channel="sms", body="Hi!", status="received")
    client = client_for(viewer)
    details = invoke(client, "get_contact_details", contact_id=str(jane.id)).json()
    assert details["result"]["phone"] == "+1 415 555 0100"
    assert details["summary"] == "Tool get_contact_details loaded contact details for Jane Doe."
    messages = invoke(client, "get_contact_messages", contact_id=str(jane.id)).json()
    assert [m["body"] for m in messages["result"]["messages"]] == ["Hi!"]
    assert messages["summary"] == "Tool get_contact_messages loaded 1 message for Jane Doe."


def test_send_sms_preview_sends_nothing_and_confirmed_sends_once(viewer, jane):
    sms.outbox.clear()
    client = client_for(viewer)
    preview = invoke(client, "send_sms", contact_id=str(jane.id), body="Running 5 min late")
    assert preview.status_code == 200
    assert preview.json()["result"]["confirmed"] is False and preview.json()["result"]["sent"] is False
    assert "nothing was sent" in preview.json()["summary"]
    assert ContactMessage.objects.count() == 0 and sms.outbox == []

    sent = invoke(client, "send_sms", contact_id=str(jane.id), body="Running 5 min late", confirmed=True)
    assert sent.json()["result"]["sent"] is True
    assert sent.json()["summary"] == "Tool send_sms sent an SMS to Jane Doe."
    message = ContactMessage.objects.get()
    assert (message.direction, message.channel, message.status, message.to_address) == (
        "out",
        "sms",
        "sent",
        "+1 415 555 0100",
    )
    assert [(m.to, m.body) for m in sms.outbox] == [("+1 415 555 0100", "Running 5 min late")]


def test_send_email_preview_sends_nothing_and_confirmed_sends_once(viewer, jane):
    client = client_for(viewer)
    preview = invoke(client, "send_email", contact_id=str(jane.id), subject="Pricing", body="Here it is.")
    assert preview.json()["result"]["sent"] is False
    assert len(mail.outbox) == 0 and ContactMessage.objects.count() == 0
    invoke(client, "send_email", contact_id=str(jane.id), subject="Pricing", body="Here it is.", confirmed=True)
    assert [(m.to, m.subject, m.body) for m in mail.outbox] == [(["jane@example.com"], "Pricing", "Here it is.")]
    assert ContactMessage.objects.get().channel == "email"


def test_memory_tools_through_the_gateway(nobody):
    client = client_for(nobody)
    stored = invoke(client, "remember", text="User's favourite city is Ljubljana", tags=["Travel"]).json()
    assert stored["result"]["message"] == "Ok"
    assert stored["summary"] == f"Tool remember stored memory {stored['result']['memory_id']}."
    found = invoke(client, "search_memory", query="Ljubljana").json()
    assert found["result"]["results"][0]["id"] == stored["result"]["memory_id"]
    assert found["result"]["text"].startswith("Found the following memories:")
    assert found["summary"] == "Tool search_memory loaded 1 memory for user:nobody."
    queued = invoke(client, "add_memory", content="User prefers tea").json()
    assert queued["result"]["status"] == "queued"
    gone = invoke(client, "forget", memory_id=stored["result"]["memory_id"], reason="moved").json()
    assert gone["summary"] == f"Tool forget forgot memory {stored['result']['memory_id']}."
    secret = invoke(client, "remember", text="key AKIAIOSFODNN7EXAMPLE")
    assert secret.status_code == 400 and secret.json()["error"]["code"] == "SECRET_REJECTED"


def test_a_provider_failure_is_recorded_and_reported(viewer, jane, settings):
    settings.MNEMO_SMS_BACKEND = "tests.support.UnreachableSmsBackend"
    body = invoke(client_for(viewer), "send_sms", contact_id=str(jane.id), body="Hi", confirmed=True).json()
    assert body["result"]["sent"] is False and body["result"]["status"] == "failed"
    assert body["summary"].startswith("Tool send_sms could not send the SMS to Jane Doe")
    message = ContactMessage.objects.get()
    assert message.status == "failed" and "unreachable" in message.error
