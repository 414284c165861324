"""Permissions on every contact endpoint: allowed, not allowed, view-only, lists, notes, memory.

A contact the caller may not view answers NOT_FOUND exactly like a missing id or a non-UUID one,
and changes nothing; a contact it may view but not change answers PERMISSION_DENIED to writes;
notes and the memory note need the model permission ``contacts.view_contactnote`` besides.
"""

import re
import uuid
from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.contrib.auth.models import Permission
from django.db import IntegrityError, transaction
from guardian.shortcuts import assign_perm
from rest_framework.test import APIClient

from contacts import services
from contacts.models import Contact, ContactMessage, ContactNote
from tests.factories import UserFactory, token_for

pytestmark = pytest.mark.django_db

TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d UTC$")
MEMORY_KEYS = ["contact_id", "deep_link", "has_memory", "note_id", "memory_note", "updated_at"]
CONTACT_KEYS = [
    "id",
    "name",
    "email",
    "phone",
    "company",
    "title",
    "address",
    "timezone",
    "tags",
    "custom_fields",
    "created_at",
    "updated_at",
]


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def grant(user, *codenames: str) -> None:
    """Model permissions (for every contact / note), by codename."""
    for codename in codenames:
        user.user_permissions.add(Permission.objects.get(content_type__app_label="contacts", codename=codename))


def snapshot() -> tuple[list, list, list]:
    """Every contact, note and message row, to prove a refused call changed nothing."""
    return (
        list(Contact.objects.order_by("id").values()),
        list(ContactNote.objects.order_by("id").values()),
        list(ContactMessage.objects.order_by("id").values()),
    )


def call(client: APIClient, method: str, path: str, body=None):
    if body is None:
        return getattr(client, method)(path)
    return getattr(client, method)(path, body, format="json")


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture
def alice():
    """Creates the contacts: holds view/change/delete on them, and may list notes."""
    user = UserFactory(username="alice")
    grant(user, "view_contactnote")
    return user


@pytest.fixture
def contact_a(alice):
    contact = services.create_contact(
        actor=alice,
        name="Ann Able",
        email="ann@example.com",
        phone="+1 555 0100",
        company="Able Inc.",
        tags=["vip"],
        custom_fields={"birthday": "04-02"},
    )
    services.add_note(actor=alice, contact=contact, body="Met at the conference.")
    services.set_memory_note(actor=alice, contact=contact, body="Prefers email; son Colby lives in LA.")
    ContactMessage.objects.create(
        contact=contact, direction="out", channel="email", subject="Hello", body="Hi Ann", to_address="ann@x.com"
    )
    return contact


@pytest.fixture
def contact_b(alice):
    contact = services.create_contact(actor=alice, name="Ben Baker", phone="+1 555 0200")
    services.add_note(actor=alice, contact=contact, body="Ben's private note.")
    services.set_memory_note(actor=alice, contact=contact, body="Ben's private memory.")
    ContactMessage.objects.create(contact=contact, direction="in", channel="sms", body="Ben's private text")
    return contact


@pytest.fixture
def viewer(contact_a):
    """May view contact A (and list notes), but change or delete nothing."""
    user = UserFactory(username="viewer")
    assign_perm("view_contact", user, contact_a)
    grant(user, "view_contactnote")
    return user


@pytest.fixture
def auditor():
    """The model permission to view every contact and list notes; no change."""
    user = UserFactory(username="auditor")
    grant(user, "view_contact", "view_contactnote")
    return user


def _stranger_plain():
    return UserFactory(username="stranger")


def _stranger_with_other_powers():
    """Holds everything but view on the target: note listing, add, model change/delete, and full
    object permissions on a contact of their own."""
    user = UserFactory(username="stranger")
    grant(user, "view_contactnote", "add_contact", "change_contact", "delete_contact", "add_contactnote")
    services.create_contact(actor=user, name="Stranger's own")
    return user


def _stranger_with_change_but_no_view_on_target(contact):
    """Object change and delete on the target, but not view: still not allowed to see it."""
    user = UserFactory(username="stranger")
    grant(user, "view_contactnote")
    assign_perm("change_contact", user, contact)
    assign_perm("delete_contact", user, contact)
    return user


STRANGERS = ["plain", "other_powers", "change_without_view"]


@pytest.fixture(params=STRANGERS)
def stranger(request, contact_a, contact_b):
    if request.param == "plain":
        return _stranger_plain()
    if request.param == "other_powers":
        return _stranger_with_other_powers()
    return _stranger_with_change_but_no_view_on_target(contact_a)


# --- the endpoints -----------------------------------------------------------------------------

DETAIL = "/api/v1/contacts/{id}"
NOTES = "/api/v1/contacts/{id}/notes"
MESSAGES = "/api/v1/contacts/{id}/messages"
MEMORY = "/api/v1/contacts/{id}/memory"

CONTACT_ENDPOINTS = [
    ("get", DETAIL, None),
    ("patch", DETAIL, {"name": "Changed by someone"}),
    ("delete", DETAIL, None),
    ("get", NOTES, None),
    ("post", NOTES, {"body": "sneaky note"}),
    ("get", MESSAGES, None),
    ("get", MEMORY, None),
    ("put", MEMORY, {"memory_note": "sneaky memory"}),
]
WRITES = [e for e in CONTACT_ENDPOINTS if e[0] != "get"]
READS = [e for e in CONTACT_ENDPOINTS if e[0] == "get"]


def _ids(endpoints):
    return [f"{m.upper()} {p}" for m, p, _ in endpoints]


# --- not allowed: 404, the same as a missing or malformed id, and nothing changes --------------


@pytest.mark.parametrize(("method", "path", "body"), CONTACT_ENDPOINTS, ids=_ids(CONTACT_ENDPOINTS))
def test_a_contact_the_caller_may_not_view_is_not_found_like_a_missing_one(stranger, contact_a, method, path, body):
    client = client_for(stranger)
    before = snapshot()
    answers = {}
    for given in (str(contact_a.id), str(uuid.uuid4()), "not-a-uuid"):
        response = call(client, method, path.format(id=given), body)
        assert response.status_code == 404, (given, response.content)
        assert response.json() == {
            "ok": False,
            "error": {"code": "NOT_FOUND", "message": f"Contact {given} not found."},
        }
        # The same body but for the id echoed back: nothing tells the three apart.
        answers[given] = response.content.decode().replace(given, "<id>")
        assert response["Content-Type"] == "application/json"
    assert len(set(answers.values())) == 1, answers
    assert snapshot() == before


def test_a_contact_the_caller_may_not_view_gives_nothing_away_in_its_answers(stranger, contact_a):
    client = client_for(stranger)
    for method, path, body in CONTACT_ENDPOINTS:
        content = call(client, method, path.format(id=contact_a.id), body).content.decode()
        for secret in ("Ann Able", "Colby", "Met at the conference", "Hi Ann", "ann@example.com"):
            assert secret not in content, (method, path, secret)


def test_the_id_is_matched_as_a_uuid_not_as_text(alice, contact_a):
    """Other spellings of the same UUID reach the same contact; an empty-looking one does not."""
    client = client_for(alice)
    assert client.get(DETAIL.format(id=str(contact_a.id).upper())).json()["id"] == str(contact_a.id)
    assert client.get(DETAIL.format(id=contact_a.id.hex)).json()["id"] == str(contact_a.id)
    nil = client.get(DETAIL.format(id="00000000-0000-0000-0000-000000000000"))
    assert nil.status_code == 404 and nil.json()["error"]["code"] == "NOT_FOUND"


# --- allowed: the right status and the right body ----------------------------------------------


def test_get_contact(alice, contact_a):
    response = client_for(alice).get(DETAIL.format(id=contact_a.id))
    assert response.status_code == 200
    body = response.json()
    assert list(body) == CONTACT_KEYS
    assert body | {"created_at": None, "updated_at": None} == {
        "id": str(contact_a.id),
        "name": "Ann Able",
        "email": "ann@example.com",
        "phone": "+1 555 0100",
        "company": "Able Inc.",
        "title": "",
        "address": "",
        "timezone": "",
        "tags": ["vip"],
        "custom_fields": {"birthday": "04-02"},
        "created_at": None,
        "updated_at": None,
    }


def test_patch_contact(alice, contact_a):
    response = client_for(alice).patch(
        DETAIL.format(id=contact_a.id), {"name": "Ann Able-Smith", "tags": ["vip", "golf"]}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["id"] == str(contact_a.id)
    assert body["name"] == "Ann Able-Smith" and body["tags"] == ["vip", "golf"]
    assert body["email"] == "ann@example.com"  # untouched fields stay
    contact_a.refresh_from_db()
    assert contact_a.name == "Ann Able-Smith" and contact_a.tags == ["vip", "golf"]
    assert contact_a.email == "ann@example.com"


def test_delete_contact_deletes_it_with_its_notes_and_messages(alice, contact_a, contact_b):
    response = client_for(alice).delete(DETAIL.format(id=contact_a.id))
    assert response.status_code == 204
    assert response.content == b""
    assert not Contact.objects.filter(pk=contact_a.pk).exists()
    assert not ContactNote.objects.filter(contact_id=contact_a.pk).exists()
    assert not ContactMessage.objects.filter(contact_id=contact_a.pk).exists()
    assert Contact.objects.filter(pk=contact_b.pk).exists()
    assert client_for(alice).get(DETAIL.format(id=contact_a.id)).status_code == 404


def test_delete_needs_delete_not_change(contact_a):
    """delete_contact alone (with view) deletes; change_contact alone (with view) does not."""
    changer = UserFactory(username="changer")
    assign_perm("view_contact", changer, contact_a)
    assign_perm("change_contact", changer, contact_a)
    response = client_for(changer).delete(DETAIL.format(id=contact_a.id))
    assert response.status_code == 403
    assert response.json()["error"] == {
        "code": "PERMISSION_DENIED",
        "message": f"You may view contact {contact_a.id} but not delete it.",
    }
    assert Contact.objects.filter(pk=contact_a.pk).exists()

    deleter = UserFactory(username="deleter")
    assign_perm("view_contact", deleter, contact_a)
    assign_perm("delete_contact", deleter, contact_a)
    assert client_for(deleter).patch(DETAIL.format(id=contact_a.id), {"name": "x"}, format="json").status_code == 403
    assert client_for(deleter).delete(DETAIL.format(id=contact_a.id)).status_code == 204
    assert not Contact.objects.filter(pk=contact_a.pk).exists()


def test_list_notes(alice, contact_a, contact_b):
    response = client_for(alice).get(NOTES.format(id=contact_a.id))
    assert response.status_code == 200
    notes = response.json()
    assert sorted((n["kind"], n["body"]) for n in notes) == [
        ("memory", "Prefers email; son Colby lives in LA."),
        ("note", "Met at the conference."),
    ]
    for note in notes:
        assert list(note) == ["id", "contact", "kind", "body", "author", "created_at", "updated_at"]
        assert note["contact"] == str(contact_a.id) and note["author"] == "alice"


def test_add_note(alice, contact_a):
    response = client_for(alice).post(NOTES.format(id=contact_a.id), {"body": "Called back."}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    note = ContactNote.objects.get(pk=body["id"])
    assert (note.contact_id, note.kind, note.body, note.author) == (contact_a.id, "note", "Called back.", alice)
    assert (body["contact"], body["kind"], body["body"], body["author"]) == (
        str(contact_a.id),
        "note",
        "Called back.",
        "alice",
    )


@pytest.mark.parametrize("body", [{}, {"body": ""}, {"body": "   "}, {"body": "x", "kind": "memory"}])
def test_add_note_rejects_bad_input(alice, contact_a, body):
    before = snapshot()
    response = client_for(alice).post(NOTES.format(id=contact_a.id), body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_INPUT"
    assert snapshot() == before


def test_list_messages(alice, contact_a, contact_b):
    later = ContactMessage.objects.create(contact=contact_a, direction="in", channel="sms", body="Thanks!")
    ContactMessage.objects.filter(pk=later.pk).update(created_at=later.created_at + timedelta(minutes=5))
    response = client_for(alice).get(MESSAGES.format(id=contact_a.id))
    assert response.status_code == 200
    messages = response.json()
    assert [m["body"] for m in messages] == ["Thanks!", "Hi Ann"]  # newest first, never B's
    assert list(messages[1]) == [
        "id",
        "contact",
        "direction",
        "channel",
        "subject",
        "body",
        "to_address",
        "sent_at",
        "status",
        "created_at",
    ]
    assert messages[1] | {"id": None, "created_at": None} == {
        "id": None,
        "contact": str(contact_a.id),
        "direction": "out",
        "channel": "email",
        "subject": "Hello",
        "body": "Hi Ann",
        "to_address": "ann@x.com",
        "sent_at": None,
        "status": "queued",
        "created_at": None,
    }


def test_messages_need_only_view_not_note_listing(contact_a):
    user = UserFactory(username="viewer_no_notes")
    assign_perm("view_contact", user, contact_a)
    response = client_for(user).get(MESSAGES.format(id=contact_a.id))
    assert response.status_code == 200
    assert [m["body"] for m in response.json()] == ["Hi Ann"]


@pytest.mark.parametrize(("method", "path", "body"), READS, ids=_ids(READS))
def test_the_model_permission_reads_every_contact(auditor, contact_a, contact_b, method, path, body):
    for contact in (contact_a, contact_b):
        response = call(client_for(auditor), method, path.format(id=contact.id), body)
        assert response.status_code == 200, response.json()


def test_a_superuser_may_use_every_endpoint(contact_a):
    root = UserFactory(username="root", is_superuser=True)
    client = client_for(root)
    assert [c["name"] for c in client.get("/api/v1/contacts").json()["results"]] == ["Ann Able"]
    for method, path, body in CONTACT_ENDPOINTS:
        if method == "delete":
            continue
        response = call(client, method, path.format(id=contact_a.id), body)
        assert response.status_code in (200, 201), (method, path, response.json())
    assert client.delete(DETAIL.format(id=contact_a.id)).status_code == 204


# --- view-only: reads succeed, writes are 403 and change nothing -------------------------------


@pytest.fixture(params=["object_view", "model_view"])
def read_only(request, viewer, auditor):
    return viewer if request.param == "object_view" else auditor


@pytest.mark.parametrize(("method", "path", "body"), WRITES, ids=_ids(WRITES))
def test_view_only_may_not_write(read_only, contact_a, contact_b, method, path, body):
    before = snapshot()
    response = call(client_for(read_only), method, path.format(id=contact_a.id), body)
    assert response.status_code == 403, response.json()
    verb = "delete" if method == "delete" else "change"
    assert response.json() == {
        "ok": False,
        "error": {"code": "PERMISSION_DENIED", "message": f"You may view contact {contact_a.id} but not {verb} it."},
    }
    assert snapshot() == before


@pytest.mark.parametrize(("method", "path", "body"), READS, ids=_ids(READS))
def test_view_only_may_read(read_only, contact_a, method, path, body):
    response = call(client_for(read_only), method, path.format(id=contact_a.id), body)
    assert response.status_code == 200, response.json()


WRITES_WITH_BODY = [e for e in WRITES if e[2] is not None]


@pytest.mark.parametrize(("method", "path", "body"), WRITES_WITH_BODY, ids=_ids(WRITES_WITH_BODY))
def test_a_view_only_contact_refuses_writes_before_reading_the_input(viewer, contact_a, method, path, body):
    """Even a malformed body answers 403 (not 400): the permission is checked first."""
    before = snapshot()
    response = call(client_for(viewer), method, path.format(id=contact_a.id), {"nonsense": True})
    assert response.status_code == 403
    assert snapshot() == before


def test_view_on_one_contact_is_not_view_on_another(viewer, contact_a, contact_b):
    before = snapshot()
    client = client_for(viewer)
    for method, path, body in CONTACT_ENDPOINTS:
        response = call(client, method, path.format(id=contact_b.id), body)
        assert response.status_code == 404, (method, path)
        assert response.json()["error"] == {"code": "NOT_FOUND", "message": f"Contact {contact_b.id} not found."}
    assert snapshot() == before


# --- lists show only what the caller may view --------------------------------------------------


def _names(client: APIClient) -> list[str]:
    response = client.get("/api/v1/contacts")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == len(body["results"])
    for contact in body["results"]:
        assert list(contact) == CONTACT_KEYS
    return [c["name"] for c in body["results"]]


def test_object_view_lists_only_that_contact(viewer, contact_a, contact_b):
    assert _names(client_for(viewer)) == ["Ann Able"]


def test_view_on_b_lists_only_b(contact_a, contact_b):
    user = UserFactory(username="bview")
    assign_perm("view_contact", user, contact_b)
    assert _names(client_for(user)) == ["Ben Baker"]


def test_change_without_view_lists_nothing(contact_a, contact_b):
    user = _stranger_with_change_but_no_view_on_target(contact_a)
    assert _names(client_for(user)) == []


def test_no_permission_lists_nothing(contact_a, contact_b):
    assert _names(client_for(_stranger_plain())) == []


def test_the_model_permission_lists_every_contact(auditor, contact_a, contact_b):
    someone = UserFactory(username="someone")
    services.create_contact(actor=someone, name="Cat Cole")
    assert _names(client_for(auditor)) == ["Ann Able", "Ben Baker", "Cat Cole"]


def test_the_creator_lists_only_their_own(alice, contact_a, contact_b):
    bob = UserFactory(username="bob")
    services.create_contact(actor=bob, name="Bob's contact")
    assert _names(client_for(alice)) == ["Ann Able", "Ben Baker"]
    assert _names(client_for(bob)) == ["Bob's contact"]


# --- notes and the memory note need contacts.view_contactnote ----------------------------------


@pytest.mark.parametrize("path", [NOTES, MEMORY])
def test_listing_notes_and_reading_memory_need_view_contactnote(contact_a, path):
    user = UserFactory(username="viewer_no_notes")
    assign_perm("view_contact", user, contact_a)
    assign_perm("change_contact", user, contact_a)
    response = client_for(user).get(path.format(id=contact_a.id))
    assert response.status_code == 403
    assert response.json() == {
        "ok": False,
        "error": {
            "code": "PERMISSION_DENIED",
            "message": "You may not list contact notes (contacts.view_contactnote).",
        },
    }
    assert "Colby" not in response.content.decode()
    # The rest of the contact is readable all the same.
    assert client_for(user).get(DETAIL.format(id=contact_a.id)).status_code == 200


@pytest.mark.parametrize("path", [NOTES, MEMORY])
def test_the_creator_without_view_contactnote_may_not_list_notes(contact_a, path):
    creator = UserFactory(username="creator")
    contact = services.create_contact(actor=creator, name="Dan Dee")
    assert client_for(creator).get(path.format(id=contact.id)).status_code == 403
    grant(creator, "view_contactnote")
    assert client_for(creator).get(path.format(id=contact.id)).status_code == 200


@pytest.mark.parametrize("path", [NOTES, MEMORY])
def test_view_contactnote_alone_does_not_reach_a_contact(contact_a, path):
    user = UserFactory(username="notes_only")
    grant(user, "view_contactnote")
    response = client_for(user).get(path.format(id=contact_a.id))
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"


# --- the memory note ---------------------------------------------------------------------------


def test_memory_without_a_note(alice):
    contact = services.create_contact(actor=alice, name="Eve Empty")
    response = client_for(alice).get(MEMORY.format(id=contact.id))
    assert response.status_code == 200
    body = response.json()
    assert body == {
        "contact_id": str(contact.id),
        "deep_link": f"/contacts/{contact.id}",
        "has_memory": False,
        "note_id": None,
        "memory_note": None,
        "updated_at": None,
    }
    assert list(body) == MEMORY_KEYS


def test_memory_with_a_note(alice, contact_a):
    note = ContactNote.objects.get(contact=contact_a, kind="memory")
    response = client_for(alice).get(MEMORY.format(id=contact_a.id))
    assert response.status_code == 200
    body = response.json()
    assert list(body) == MEMORY_KEYS
    assert body["contact_id"] == str(contact_a.id)
    assert body["deep_link"] == f"/contacts/{contact_a.id}"
    assert body["has_memory"] is True
    assert body["note_id"] == str(note.id)
    assert body["memory_note"] == "Prefers email; son Colby lives in LA."
    assert TIMESTAMP.match(body["updated_at"]), body["updated_at"]
    assert body["updated_at"] == note.updated_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


@pytest.mark.parametrize(
    "stamp",
    [
        datetime(2026, 4, 2, 9, 0, 59, tzinfo=UTC),
        datetime(2026, 4, 2, 11, 0, tzinfo=timezone(timedelta(hours=2))),
        datetime(2026, 4, 1, 23, 0, tzinfo=timezone(timedelta(hours=-10))),
    ],
)
def test_memory_updated_at_is_utc_to_the_minute(alice, contact_a, stamp):
    ContactNote.objects.filter(contact=contact_a, kind="memory").update(updated_at=stamp)
    body = client_for(alice).get(MEMORY.format(id=contact_a.id)).json()
    assert body["updated_at"] == "2026-04-02 09:00 UTC"


def test_put_memory_creates_then_replaces_the_one_memory_note(alice):
    contact = services.create_contact(actor=alice, name="Fay Fresh")
    client = client_for(alice)
    first = client.put(MEMORY.format(id=contact.id), {"memory_note": "Likes tea."}, format="json")
    assert first.status_code == 200, first.json()
    first_body = first.json()
    assert list(first_body) == MEMORY_KEYS
    assert first_body["has_memory"] is True and first_body["memory_note"] == "Likes tea."
    assert TIMESTAMP.match(first_body["updated_at"])

    second = client.put(MEMORY.format(id=contact.id), {"memory_note": "Likes coffee now."}, format="json")
    assert second.status_code == 200
    second_body = second.json()
    assert second_body["memory_note"] == "Likes coffee now."
    assert second_body["note_id"] == first_body["note_id"]  # replaced in place

    memory_notes = ContactNote.objects.filter(contact=contact, kind="memory")
    assert memory_notes.count() == 1
    assert (str(memory_notes[0].id), memory_notes[0].body) == (first_body["note_id"], "Likes coffee now.")
    assert client.get(MEMORY.format(id=contact.id)).json() == second_body


def test_put_memory_by_another_user_replaces_the_note_and_its_author(alice, contact_a):
    editor = UserFactory(username="editor")
    assign_perm("view_contact", editor, contact_a)
    assign_perm("change_contact", editor, contact_a)
    # Change alone is not enough: the answer shows the note, so managing notes needs listing them.
    refused = client_for(editor).put(MEMORY.format(id=contact_a.id), {"memory_note": "Moved to SF."}, format="json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "PERMISSION_DENIED"
    grant(editor, "view_contactnote")
    editor = type(editor).objects.get(pk=editor.pk)  # permission caches are per instance
    response = client_for(editor).put(MEMORY.format(id=contact_a.id), {"memory_note": "Moved to SF."}, format="json")
    assert response.status_code == 200
    note = ContactNote.objects.get(contact=contact_a, kind="memory")
    assert (note.body, note.author) == ("Moved to SF.", editor)


@pytest.mark.parametrize("body", [{}, {"memory_note": ""}, {"memory_note": "  "}, {"memory_note": "x", "note_id": "y"}])
def test_put_memory_rejects_bad_input(alice, contact_a, body):
    before = snapshot()
    response = client_for(alice).put(MEMORY.format(id=contact_a.id), body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_INPUT"
    assert snapshot() == before


def test_ordinary_notes_can_be_many_alongside_the_one_memory_note(alice, contact_a):
    client = client_for(alice)
    for i in range(3):
        assert client.post(NOTES.format(id=contact_a.id), {"body": f"note {i}"}, format="json").status_code == 201
    services.add_note(actor=alice, contact=contact_a, body="note 3")
    client.put(MEMORY.format(id=contact_a.id), {"memory_note": "Replaced."}, format="json")
    assert ContactNote.objects.filter(contact=contact_a, kind="note").count() == 5
    assert ContactNote.objects.filter(contact=contact_a, kind="memory").count() == 1
    kinds = [n["kind"] for n in client.get(NOTES.format(id=contact_a.id)).json()]
    assert sorted(kinds) == ["memory"] + ["note"] * 5


def test_the_database_allows_one_memory_note_per_contact(alice, contact_a, contact_b):
    with pytest.raises(IntegrityError), transaction.atomic():
        ContactNote.objects.create(contact=contact_a, kind="memory", body="a second memory note")
    assert ContactNote.objects.filter(contact=contact_a, kind="memory").count() == 1
    # Per contact: a fresh contact takes its own memory note, and ordinary notes are unconstrained.
    contact = services.create_contact(actor=alice, name="Gil Green")
    ContactNote.objects.create(contact=contact, kind="memory", body="its own memory note")
    for i in range(2):
        ContactNote.objects.create(contact=contact, kind="note", body=f"ordinary {i}")
    assert ContactNote.objects.filter(contact=contact).count() == 3


# --- creating contacts -------------------------------------------------------------------------


def test_creating_a_contact_needs_add_contact(contact_a):
    user = UserFactory(username="nobody")
    assign_perm("view_contact", user, contact_a)
    assign_perm("change_contact", user, contact_a)
    grant(user, "view_contact", "change_contact")
    before = snapshot()
    response = client_for(user).post("/api/v1/contacts", {"name": "Hal Hidden"}, format="json")
    assert response.status_code == 403
    assert response.json() == {
        "ok": False,
        "error": {"code": "PERMISSION_DENIED", "message": "You may not create contacts."},
    }
    assert snapshot() == before


def test_creating_a_contact(contact_b):
    creator = UserFactory(username="creator")
    grant(creator, "add_contact")
    client = client_for(creator)
    response = client.post(
        "/api/v1/contacts",
        {"name": "Ivy Ink", "email": "ivy@example.com", "phone": "+44 (20) 7946-0000", "tags": ["new"]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert list(body) == CONTACT_KEYS
    assert (body["name"], body["email"], body["phone"], body["tags"]) == (
        "Ivy Ink",
        "ivy@example.com",
        "+44 (20) 7946-0000",
        ["new"],
    )
    contact = Contact.objects.get(pk=body["id"])
    assert contact.owner == creator
    for perm in ("view_contact", "change_contact", "delete_contact"):
        assert creator.has_perm(f"contacts.{perm}", contact)
    # The creator sees it, and only it.
    got = client.get(DETAIL.format(id=body["id"]))
    assert got.status_code == 200 and got.json()["name"] == "Ivy Ink"
    assert _names(client) == ["Ivy Ink"]
    assert client.get(DETAIL.format(id=contact_b.id)).status_code == 404
    # Nobody else does.
    other = UserFactory(username="other")
    assert client_for(other).get(DETAIL.format(id=body["id"])).status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({}, id="empty"),
        pytest.param({"email": "a@example.com"}, id="missing-name"),
        pytest.param({"name": ""}, id="blank-name"),
        pytest.param({"name": "x" * 201}, id="long-name"),
        pytest.param({"name": "Jo", "email": "not-an-email"}, id="bad-email"),
        pytest.param({"name": "Jo", "phone": "call me"}, id="bad-phone"),
        pytest.param({"name": "Jo", "owner": 1}, id="unknown-field-owner"),
        pytest.param({"name": "Jo", "id": str(uuid.uuid4())}, id="unknown-field-id"),
        pytest.param({"name": "Jo", "tags": "vip"}, id="tags-not-a-list"),
        pytest.param({"name": "Jo", "custom_fields": ["x"]}, id="custom-fields-not-a-dict"),
        pytest.param([{"name": "Jo"}], id="a-list"),
    ],
)
def test_creating_a_contact_rejects_bad_input(body):
    creator = UserFactory(username="creator")
    grant(creator, "add_contact")
    before = snapshot()
    response = client_for(creator).post("/api/v1/contacts", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["ok"] is False
    assert response.json()["error"]["code"] == "INVALID_INPUT"
    assert snapshot() == before


LONG_EMAIL = "a" * 250 + "@example.com"  # valid to EmailValidator (<= 320), longer than the column's 254


def test_creating_a_contact_with_an_over_long_email_is_invalid_input():
    creator = UserFactory(username="creator")
    grant(creator, "add_contact")
    response = client_for(creator).post("/api/v1/contacts", {"name": "Jo", "email": LONG_EMAIL}, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["error"]["code"] == "INVALID_INPUT"


def test_patching_an_over_long_email_is_invalid_input(alice, contact_a):
    response = client_for(alice).patch(DETAIL.format(id=contact_a.id), {"email": LONG_EMAIL}, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["error"]["code"] == "INVALID_INPUT"


@pytest.mark.parametrize("custom_fields", [{"k": "a\u0000b"}, {"a\u0000": 1}], ids=["nul-in-value", "nul-in-key"])
def test_creating_a_contact_with_a_nul_in_custom_fields_is_invalid_input(custom_fields):
    creator = UserFactory(username="creator")
    grant(creator, "add_contact")
    response = client_for(creator).post(
        "/api/v1/contacts", {"name": "Jo", "custom_fields": custom_fields}, format="json"
    )
    assert response.status_code == 400, response.json()
    assert response.json()["error"]["code"] == "INVALID_INPUT"


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/v1/contacts", {"name": 42}),
        ("patch", DETAIL, {"name": 42}),
        ("post", NOTES, {"body": 42}),
        ("put", MEMORY, {"memory_note": 42}),
    ],
    ids=["create-name", "patch-name", "note-body", "memory-note"],
)
def test_a_number_where_a_string_is_expected_is_invalid_input(alice, contact_a, method, path, body):
    grant(alice, "add_contact")
    before = snapshot()
    response = call(client_for(alice), method, path.format(id=contact_a.id), body)
    assert response.status_code == 400, response.json()
    assert response.json()["error"]["code"] == "INVALID_INPUT"
    assert snapshot() == before


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"name": ""}, id="blank-name"),
        pytest.param({"email": "nope"}, id="bad-email"),
        pytest.param({"owner": 1}, id="unknown-field"),
        pytest.param({"created_at": "2020-01-01T00:00:00Z"}, id="read-only-field"),
    ],
)
def test_patching_a_contact_rejects_bad_input(alice, contact_a, body):
    before = snapshot()
    response = client_for(alice).patch(DETAIL.format(id=contact_a.id), body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["error"]["code"] == "INVALID_INPUT"
    assert snapshot() == before


# --- unauthenticated ---------------------------------------------------------------------------


@pytest.mark.parametrize("credentials", [None, "Token not-a-real-token"], ids=["no-token", "bad-token"])
def test_unauthenticated_calls_are_refused_everywhere(api_client, contact_a, credentials):
    if credentials:
        api_client.credentials(HTTP_AUTHORIZATION=credentials)
    before = snapshot()
    calls = [("get", "/api/v1/contacts", None), ("post", "/api/v1/contacts", {"name": "Anon"})]
    for given in (str(contact_a.id), str(uuid.uuid4()), "not-a-uuid"):
        calls += [(m, p.format(id=given), b) for m, p, b in CONTACT_ENDPOINTS]
    for method, path, body in calls:
        response = call(api_client, method, path, body)
        assert response.status_code == 401, (method, path)
        assert response.json()["ok"] is False
        assert response.json()["error"]["code"] == "UNAUTHENTICATED", (method, path)
    assert snapshot() == before


def test_an_inactive_user_is_refused(contact_a, alice):
    alice.is_active = False
    alice.save()
    assert client_for(alice).get(DETAIL.format(id=contact_a.id)).status_code == 401
