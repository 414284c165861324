"""The staff admin, through Django's test client on the real database and the real embedder.

Memories: search, filters, sorting, editing and re-embedding, the actions (re-embed, confirm,
forget with a reason, expiry, export), neighbours and merge on the change page, the duplicates
review, tombstones and restore, and permission filtering per namespace (guardian). Contacts'
memory-note inline, tool rules' filters and prompt preview, and the branding.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from html import unescape
from html.parser import HTMLParser

import numpy as np
import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.utils import timezone
from django.utils.html import escape
from guardian.shortcuts import assign_perm, remove_perm

from contacts.models import Contact, ContactMessage, ContactNote
from memories import selectors, services
from memories.admin import TagFilter, VisibleNamespaceFilter
from memories.embedding import embed_texts
from memories.models import DuplicateDismissal, Memory, MemoryEvent, Namespace, Tombstone
from memories.permissions import visible_memories
from tests.factories import UserFactory
from toolrules.services import PromptRules, put_rule, rules_for_prompt

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/memories/memory/"
DUPLICATES = "/admin/memories/memory/duplicates/"
TOMBSTONES = "/admin/memories/tombstone/"
SECRET = "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"

# Near-duplicates of one another (cosine ≥ 0.96 with the real embedder, same code TEAM-123)...
TEAM_123 = "User's Linear team ID is TEAM-123"
TEAM_123_AGAIN = "The user's Linear team id is TEAM-123."
TEAM_123_THIRD = "The Linear team ID of the user is TEAM-123"
# ...and close in meaning but a different fact (another code).
TEAM_456 = "The user's Linear team id is TEAM-456."


# --- helpers -----------------------------------------------------------------------------------


def change_url(obj) -> str:
    return f"/admin/{obj._meta.app_label}/{obj._meta.model_name}/{obj.pk}/change/"


def merge_url(keep: Memory, drop: Memory) -> str:
    return f"/admin/memories/memory/{keep.pk}/merge/{drop.pk}/"


class _Forms(HTMLParser):
    """Every <form> of a page: what a browser would submit, and every field name it holds."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._textarea: str | None = None
        self._buffer: list[str] = []
        self._select: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {"id": a.get("id"), "data": {}, "names": set()}
            self.forms.append(self._form)
            return
        if self._form is None:
            return
        name = a.get("name")
        data, names = self._form["data"], self._form["names"]
        if tag == "input" and name:
            names.add(name)
            kind = (a.get("type") or "text").lower()
            if kind in {"submit", "button", "image", "file", "reset"}:
                return
            if kind in {"checkbox", "radio"}:
                if "checked" in a:
                    data.setdefault(name, []).append(a.get("value") or "on")
                return
            data.setdefault(name, []).append(a.get("value") or "")
        elif tag == "textarea" and name:
            names.add(name)
            self._textarea, self._buffer = name, []
        elif tag == "select" and name:
            names.add(name)
            self._select = {"name": name, "multiple": "multiple" in a, "first": None, "chosen": []}
        elif tag == "option" and self._select is not None:
            value = a.get("value") or ""
            if self._select["first"] is None:
                self._select["first"] = value
            if "selected" in a:
                self._select["chosen"].append(value)

    def handle_data(self, data):
        if self._textarea is not None:
            self._buffer.append(data)

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "textarea" and self._textarea is not None and self._form is not None:
            text = "".join(self._buffer)
            self._form["data"][self._textarea] = [text[1:] if text.startswith("\n") else text]
            self._textarea = None
        elif tag == "select" and self._select is not None and self._form is not None:
            chosen = self._select["chosen"]
            if not chosen and not self._select["multiple"] and self._select["first"] is not None:
                chosen = [self._select["first"]]
            if chosen:
                self._form["data"][self._select["name"]] = chosen
            self._select = None


def page_form(response, *, form_id: str | None = None, having: str | None = None) -> tuple[dict, set[str]]:
    """The submittable data and the field names of the form with ``form_id`` (or holding a field
    named ``having``) in a rendered page."""
    assert response.status_code == 200, response.status_code
    parser = _Forms()
    parser.feed(response.content.decode())
    for form in parser.forms:
        if (form_id and form["id"] == form_id) or (having and having in form["names"]):
            return {k: list(v) for k, v in form["data"].items()}, form["names"]
    raise AssertionError(f"no form {form_id or having!r} in the page")


def listed(response) -> list[int]:
    """The ids of the memories (or other rows) a changelist shows, in order."""
    assert response.status_code == 200, response.status_code
    return [obj.pk for obj in response.context["cl"].result_list]


def flash(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def statuses(response) -> list[str]:
    return re.findall(r'class="mnemo-status"[^>]*>([^<]+)<', response.content.decode())


def act(client, action: str, memories, url: str = CHANGELIST, **extra):
    data = {"action": action, "_selected_action": [m.pk for m in memories], **extra}
    return client.post(url, data)


def recalled(namespace: Namespace, query: str) -> set[int]:
    return {hit.memory.pk for hit in selectors.search_memories(namespace_ids=[namespace.pk], query=query, limit=20)}


def cosine(a, b) -> float:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture
def root(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def staff(client, root):
    """The test client, logged in as a superuser."""
    client.force_login(root)
    return client


@pytest.fixture
def team(db):
    return Namespace.objects.create(key="team:alpha", kind="other")


@pytest.fixture
def beta(db):
    return Namespace.objects.create(key="team:beta", kind="other")


@pytest.fixture
def add(root):
    def add(namespace: Namespace, text: str, **metadata) -> Memory:
        return services.add_memory(
            actor=root, namespace=namespace, content=text, metadata=metadata or None, run_async=False
        )

    return add


# --- 1. the changelist: search, filters, sorting, status -----------------------------------------


def test_search_is_full_text_with_english_stemming(staff, team, add):
    meetings = add(team, "The user has weekly meetings with the design team.")
    add(team, "The user's favourite colour is green.")

    assert listed(staff.get(CHANGELIST, {"q": "meeting"})) == [meetings.pk]
    # Neither is a substring of the text: only the stemmed full-text query finds them.
    assert listed(staff.get(CHANGELIST, {"q": "meets"})) == [meetings.pk]
    assert listed(staff.get(CHANGELIST, {"q": "weekly design"})) == [meetings.pk]
    assert listed(staff.get(CHANGELIST, {"q": "purple"})) == []


@pytest.fixture
def assorted(team, beta, add):
    """Memories that differ in every filtered column."""
    now = timezone.now()
    work = add(
        team,
        "The user works from the Berlin office on Mondays.",
        tags=["work"],
        capture_mode="explicit",
        source_provider="claude",
    )
    Memory.objects.filter(pk=work.pk).update(expires_at=now + timedelta(days=30))
    home = add(beta, "The user's cat is called Miso.", tags=["home"], capture_mode="inferred", source_provider="openai")
    failed = add(team, "The user prefers window seats on long flights.")
    Memory.objects.filter(pk=failed.pk).update(status=Memory.Status.FAILED, error="model crashed")
    expired = add(team, "The user is travelling to Lisbon this week.", tags=["travel"])
    Memory.objects.filter(pk=expired.pk).update(expires_at=now - timedelta(hours=1))
    return {"work": work.pk, "home": home.pk, "failed": failed.pk, "expired": expired.pk}


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, {"work", "home", "failed", "expired"}),
        ({"namespace": "team"}, {"work", "failed", "expired"}),
        ({"namespace": "beta"}, {"home"}),
        ({"status": "failed"}, {"failed"}),
        ({"status": "ready"}, {"work", "home", "expired"}),
        ({"tag": "work"}, {"work"}),
        ({"tag": "travel"}, {"expired"}),
        ({"capture_mode__exact": "explicit"}, {"work"}),
        ({"capture_mode__exact": "inferred"}, {"home"}),
        ({"source_provider": "claude"}, {"work"}),
        ({"source_provider": "openai"}, {"home"}),
        ({"expired": "yes"}, {"expired"}),
        ({"expired": "no"}, {"work", "home", "failed"}),
        ({"namespace": "team", "expired": "no", "status": "ready"}, {"work"}),
    ],
)
def test_each_filter_narrows_the_list(staff, team, beta, assorted, params, expected):
    namespaces = {"team": team.pk, "beta": beta.pk}
    query = {k: namespaces.get(v, v) if k == "namespace" else v for k, v in params.items()}
    assert sorted(listed(staff.get(CHANGELIST, query))) == sorted(assorted[name] for name in expected)


def test_the_sidebar_offers_every_filter(staff, team, assorted):
    response = staff.get(CHANGELIST)
    content = response.content.decode()
    for link in [
        f"?namespace={team.pk}",
        "?status=failed",
        "?status=forgotten",
        "?status=all",
        "?tag=work",
        "?capture_mode__exact=explicit",
        "?source_provider=claude",
        "?expired=yes",
        "?expired=no",
        "?tombstone_nearby=yes",
        "?tombstone_nearby=no",
    ]:
        assert f'href="{link}"' in content, link
    tag_filter = next(f for f in response.context["cl"].filter_specs if isinstance(f, TagFilter))
    assert [value for value, _ in tag_filter.lookup_choices] == ["home", "travel", "work"]


def test_tombstone_nearby_filter(staff, root, team, beta, add):
    forgotten = add(team, TEAM_123)
    services.forget_memory(actor=root, memory=forgotten, reason="wrong team")
    near = add(team, TEAM_123_AGAIN)
    far = add(team, "The user's favourite colour is green.")
    # The same words in another namespace: that namespace has no tombstone.
    elsewhere = add(beta, TEAM_123_AGAIN)

    # Forgotten memories are hidden unless asked for; the forgotten one's own tombstone is right on it.
    assert listed(staff.get(CHANGELIST, {"tombstone_nearby": "yes"})) == [near.pk]
    assert sorted(listed(staff.get(CHANGELIST, {"tombstone_nearby": "yes", "status": "all"}))) == sorted(
        [forgotten.pk, near.pk]
    )
    assert sorted(listed(staff.get(CHANGELIST, {"tombstone_nearby": "no"}))) == sorted([far.pk, elsewhere.pk])


def test_columns_sort(staff, team, add):
    charlie = add(team, "Charlie likes cycling to work.")
    alpha = add(team, "Alpha is the user's first project.")
    bravo = add(team, "Bravo is the user's second project.")
    Memory.objects.filter(pk=charlie.pk).update(status=Memory.Status.FAILED)
    Memory.objects.filter(pk=bravo.pk).update(status=Memory.Status.QUEUED)

    # Column 0 is the action checkbox; 1 text, 2 namespace, 3 status, 4 tags, 5 age (created at).
    assert listed(staff.get(CHANGELIST, {"o": "1"})) == [alpha.pk, bravo.pk, charlie.pk]
    assert listed(staff.get(CHANGELIST, {"o": "-1"})) == [charlie.pk, bravo.pk, alpha.pk]
    assert listed(staff.get(CHANGELIST, {"o": "3"})) == [charlie.pk, bravo.pk, alpha.pk]  # failed, queued, ready
    assert listed(staff.get(CHANGELIST, {"o": "5"})) == [charlie.pk, alpha.pk, bravo.pk]
    assert listed(staff.get(CHANGELIST, {"o": "-5"})) == [bravo.pk, alpha.pk, charlie.pk]
    # The default: newest first.
    assert listed(staff.get(CHANGELIST)) == [bravo.pk, alpha.pk, charlie.pk]


def test_changelist_shows_each_memorys_status(staff, root, team, add):
    add(team, "The user's favourite colour is green.")
    failed = add(team, "The user prefers window seats on long flights.")
    Memory.objects.filter(pk=failed.pk).update(status=Memory.Status.FAILED)
    gone = add(team, "The user used to live in Madrid.")
    services.forget_memory(actor=root, memory=gone, reason="moved")

    # Forgotten memories are hidden by default, and listed when asked for.
    assert statuses(staff.get(CHANGELIST, {"o": "5"})) == ["ready", "failed"]
    assert statuses(staff.get(CHANGELIST, {"o": "5", "status": "all"})) == ["ready", "failed", "forgotten"]
    assert statuses(staff.get(CHANGELIST, {"status": "forgotten"})) == ["forgotten"]


# --- 2. editing a memory ------------------------------------------------------------------------


def test_editing_the_text_saves_reembeds_and_records_history(
    staff, root, team, add, django_capture_on_commit_callbacks
):
    old_text = "The user's standup is at 9:15 every weekday."
    new_text = "The user's standup moved to half past ten, on Tuesdays only."
    memory = add(team, old_text)
    old_embedding = np.array(memory.embedding)
    url = change_url(memory)

    data, names = page_form(staff.get(url), form_id="memory_form")
    assert {"text", "tags", "expires_at_0", "expires_at_1"} <= names
    assert "namespace" not in names and "status" not in names  # read-only
    data.update(text=[new_text], tags=["Work, Daily Standup"], expires_at_0=["2099-01-02"], expires_at_1=["03:04:05"])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = staff.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]

    memory.refresh_from_db()
    assert memory.text == new_text
    assert memory.tags == ["daily-standup", "work"]
    assert memory.expires_at == datetime(2099, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert memory.status == Memory.Status.QUEUED
    assert callbacks, "the re-embedding is sent after the commit"

    for callback in callbacks:
        callback()
    memory.refresh_from_db()
    assert memory.status == Memory.Status.READY
    assert not np.allclose(np.array(memory.embedding), old_embedding)
    assert cosine(memory.embedding, embed_texts([new_text])[0]) > 0.999

    event = MemoryEvent.objects.get(memory=memory, event_type=MemoryEvent.Type.UPDATE)
    assert (event.old_text, event.new_text, event.actor) == (old_text, new_text, root)
    assert set(event.data["fields"]) == {"text", "tags", "expires_at"}

    page = staff.get(response["Location"])
    messages = [str(m) for m in page.context["messages"]]
    assert any("re-embedded" in m for m in messages), messages
    assert "re-embedded" in page.content.decode()


def test_a_secret_shaped_text_is_refused_with_a_form_error(staff, team, add, django_capture_on_commit_callbacks):
    text = "The user's deploy key lives in the vault."
    memory = add(team, text)
    embedding = np.array(memory.embedding)
    url = change_url(memory)
    data, _ = page_form(staff.get(url), form_id="memory_form")
    data["text"] = [f"Use {SECRET} for the GitHub API."]

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = staff.post(url, data)

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "secret" in " ".join(errors["text"])
    assert callbacks == []
    memory.refresh_from_db()
    assert memory.text == text and memory.status == Memory.Status.READY
    assert np.allclose(np.array(memory.embedding), embedding)
    assert not MemoryEvent.objects.filter(memory=memory, event_type=MemoryEvent.Type.UPDATE).exists()
    assert not Memory.objects.filter(text__contains=SECRET).exists()


def test_a_past_expiry_in_the_change_form_changes_nothing(staff, team, add):
    memory = add(team, "The user is on call this week.")
    url = change_url(memory)
    data, _ = page_form(staff.get(url), form_id="memory_form")
    data.update(text=["The user is on call next week."], expires_at_0=["2001-01-01"], expires_at_1=["00:00:00"])

    response = staff.post(url, data)

    memory.refresh_from_db()
    assert memory.text == "The user is on call this week." and memory.expires_at is None
    # Told why, as a message after the redirect or as a form error on the page.
    assert "in the past" in " ".join(flash(response)) + response.content.decode()
    assert not MemoryEvent.objects.filter(memory=memory, event_type=MemoryEvent.Type.UPDATE).exists()


def test_a_refused_change_is_not_reported_as_a_success(staff, team, add):
    memory = add(team, "The user is on call this week.")
    url = change_url(memory)
    data, _ = page_form(staff.get(url), form_id="memory_form")
    data.update(expires_at_0=["2001-01-01"], expires_at_1=["00:00:00"])

    response = staff.post(url, data)

    assert not any("successfully" in m for m in flash(response)), flash(response)


# --- 3. actions ---------------------------------------------------------------------------------


def test_reembed_action_queues_then_embeds_again(staff, team, add, django_capture_on_commit_callbacks):
    one = add(team, "The user's favourite colour is green.")
    two = add(team, "The user's cat is called Miso.")
    untouched = add(team, "The user lives in Porto.")
    embedded_at = one.embedded_at

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = act(staff, "reembed", [one, two])
    assert response.status_code == 302
    assert any("2 memories queued" in m for m in flash(response))
    assert dict(Memory.objects.filter(pk__in=[one.pk, two.pk, untouched.pk]).values_list("pk", "status")) == {
        one.pk: "queued",
        two.pk: "queued",
        untouched.pk: "ready",
    }

    for callback in callbacks:
        callback()
    for memory in (one, two):
        memory.refresh_from_db()
        assert memory.status == Memory.Status.READY
        assert memory.embedded_at > embedded_at
        assert cosine(memory.embedding, embed_texts([memory.text])[0]) > 0.999


def test_confirm_action_moves_last_confirmed_and_records_it(staff, root, team, add):
    memory = add(team, "The user's favourite colour is green.")
    other = add(team, "The user's cat is called Miso.")
    long_ago = timezone.now() - timedelta(days=90)
    Memory.objects.filter(pk__in=[memory.pk, other.pk]).update(last_confirmed_at=long_ago)

    response = act(staff, "confirm", [memory])

    assert response.status_code == 302
    memory.refresh_from_db()
    other.refresh_from_db()
    assert memory.last_confirmed_at > timezone.now() - timedelta(minutes=1)
    assert other.last_confirmed_at == long_ago
    assert MemoryEvent.objects.filter(memory=memory, event_type="confirm", actor=root).count() == 1
    assert not MemoryEvent.objects.filter(memory=other, event_type="confirm").exists()


def test_forget_action_asks_for_a_reason_then_tombstones(staff, root, team, add):
    one = add(team, "The user's gym is FitLife on Elm Street.")
    two = add(team, "The user's gym membership renews every March.")
    kept = add(team, "The user goes to the gym on Tuesdays and Thursdays.")
    assert {one.pk, two.pk} <= recalled(team, "the user's gym")

    first = act(staff, "forget_with_reason", [one, two])
    assert "admin/memories/memory/action_confirmation.html" in [t.name for t in first.templates]
    data, names = page_form(first, having="apply")
    assert "reason" in names
    assert sorted(int(i) for i in data["_selected_action"]) == sorted([one.pk, two.pk])
    assert Tombstone.objects.count() == 0
    assert not Memory.objects.filter(forgotten_at__isnull=False).exists()

    # No reason: the form asks again and nothing happens.
    data["reason"] = [""]
    again = staff.post(CHANGELIST, data)
    assert again.status_code == 200 and again.context["form"].errors
    assert Tombstone.objects.count() == 0

    data["reason"] = ["Moved to another gym in May."]
    second = staff.post(CHANGELIST, data)
    assert second.status_code == 302
    tombstones = Tombstone.objects.filter(memory__in=[one, two])
    assert sorted(t.memory_id for t in tombstones) == sorted([one.pk, two.pk])
    assert {(t.reason, t.kind, t.created_by_id) for t in tombstones} == {
        ("Moved to another gym in May.", "forgotten", root.pk)
    }
    assert Memory.objects.filter(pk__in=[one.pk, two.pk], forgotten_at__isnull=False).count() == 2
    found = recalled(team, "the user's gym")
    assert one.pk not in found and two.pk not in found and kept.pk in found


def test_change_expiry_action(staff, team, add):
    memory = add(team, "The user is travelling to Lisbon this month.")
    other = add(team, "The user's favourite colour is green.")

    first = act(staff, "change_expiry", [memory])
    _, names = page_form(first, having="apply")
    assert {"extend_days", "expires_at", "clear"} <= names
    memory.refresh_from_db()
    assert memory.expires_at is None

    act(staff, "change_expiry", [memory], apply="yes", extend_days="10")
    memory.refresh_from_db()
    assert abs(memory.expires_at - (timezone.now() + timedelta(days=10))) < timedelta(minutes=1)

    act(staff, "change_expiry", [memory], apply="yes", expires_at="2099-05-06 07:08")
    memory.refresh_from_db()
    assert memory.expires_at == datetime(2099, 5, 6, 7, 8, tzinfo=UTC)

    refused = act(staff, "change_expiry", [memory], apply="yes", expires_at="2001-01-01 00:00")
    assert any("past" in m for m in flash(refused))
    memory.refresh_from_db()
    assert memory.expires_at == datetime(2099, 5, 6, 7, 8, tzinfo=UTC)

    # Two choices at once: the form refuses.
    both = act(staff, "change_expiry", [memory], apply="yes", extend_days="3", clear="on")
    assert both.status_code == 200 and both.context["form"].errors
    memory.refresh_from_db()
    assert memory.expires_at == datetime(2099, 5, 6, 7, 8, tzinfo=UTC)

    act(staff, "change_expiry", [memory], apply="yes", clear="on")
    memory.refresh_from_db()
    assert memory.expires_at is None
    other.refresh_from_db()
    assert other.expires_at is None
    assert MemoryEvent.objects.filter(memory=memory, event_type="update").count() == 3


def test_export_action_writes_json_lines(staff, team, add):
    one = add(team, "The user's café of choice is Ólafur's.", tags=["food", "Coffee"], source_provider="claude")
    two = add(team, "The user's cat is called Miso.")
    add(team, "Not exported.")

    response = act(staff, "export_jsonl", [two, one])

    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    assert "memories.jsonl" in response["Content-Disposition"]
    lines = response.content.decode().splitlines()
    rows = [json.loads(line) for line in lines]
    assert [row["id"] for row in rows] == [one.pk, two.pk]
    assert rows[0]["namespace"] == "team:alpha"
    assert rows[0]["text"] == "The user's café of choice is Ólafur's."
    assert "café" in lines[0]  # not escaped to \u00e9
    assert rows[0]["tags"] == ["coffee", "food"]
    assert rows[0]["source_provider"] == "claude"
    assert rows[0]["status"] == "ready"
    assert rows[0]["event_id"] == str(one.event_id)
    assert {"metadata", "importance", "capture_mode", "expires_at", "created_at", "last_confirmed_at"} <= set(rows[0])


# --- 4. change page: history, neighbours, merge --------------------------------------------------

NEIGHBOUR_TEXTS = [
    "The user's dentist is Dr. Smith on Main Street.",
    "The user sees the dentist twice a year.",
    "The user's doctor is Dr. Jones at the city clinic.",
    "The user had a tooth filled in March.",
    "The user's favourite colour is green.",
    "The user's cat is called Miso.",
]


def test_change_page_shows_history_and_the_five_nearest_neighbours(staff, root, team, beta, add):
    subject = add(team, "The user's dentist is Dr. Smith, on Main Street.")
    others = [add(team, text) for text in NEIGHBOUR_TEXTS]
    add(beta, "The user's dentist is Dr. Smith, on Main Street.")  # another namespace
    gone = add(team, "The user's dentist was Dr. Smith on Main Street.")
    services.forget_memory(actor=root, memory=gone, reason="changed dentist")
    services.confirm_memory(actor=root, memory=subject)

    response = staff.get(change_url(subject))
    content = response.content.decode()

    rows = re.findall(r'<tr class="mnemo-neighbour">(.*?)</tr>', content, re.S)
    assert len(rows) == 5
    expected = sorted(others, key=lambda m: -cosine(m.embedding, subject.embedding))[:5]
    shown = [int(re.search(r"/admin/memories/memory/(\d+)/change/", row).group(1)) for row in rows]
    assert shown == [m.pk for m in expected]
    for row, memory in zip(rows, expected, strict=True):
        similarity = float(re.search(r'class="mnemo-similarity">([\d.]+)<', row).group(1))
        assert similarity == pytest.approx(cosine(memory.embedding, subject.embedding), abs=0.0011)
        # "merge into this" only from MNEMO_MERGE_MIN_SIMILARITY, and the page says why.
        assert (f'href="{merge_url(subject, memory)}"' in row) == (similarity >= 0.8), (similarity, row)
    assert "MNEMO_MERGE_MIN_SIMILARITY" in content

    history = re.findall(r'<tr class="mnemo-event">(.*?)</tr>', content, re.S)
    assert [re.search(r'class="mnemo-type">([^<]*)<', row).group(1) for row in history] == ["add", "confirm"]
    assert all("root" in row for row in history)


def test_merge_into_this_confirms_then_keeps_one(staff, root, team, add):
    keep = add(team, "The user's dentist is Dr. Smith on Main Street.")
    drop = add(team, "The user's dentist is Dr. Smith, on Main Street.")

    confirm = staff.get(merge_url(keep, drop))
    assert confirm.status_code == 200
    assert "admin/memories/memory/merge_confirmation.html" in [t.name for t in confirm.templates]
    assert Tombstone.objects.count() == 0
    assert not MemoryEvent.objects.filter(event_type="merge").exists()
    drop.refresh_from_db()
    assert drop.forgotten_at is None

    response = staff.post(merge_url(keep, drop))
    assert response.status_code == 302 and response["Location"] == change_url(keep)

    keep.refresh_from_db()
    drop.refresh_from_db()
    assert keep.forgotten_at is None and drop.forgotten_at is not None
    tombstone = Tombstone.objects.get(memory=drop)
    assert (tombstone.reason, tombstone.kind, tombstone.replaced_by_id) == ("merged", "merged", keep.pk)
    assert MemoryEvent.objects.filter(memory=keep, event_type="merge", actor=root).count() == 1
    assert MemoryEvent.objects.filter(memory=drop, event_type="merge", actor=root).count() == 1
    assert drop.pk not in recalled(team, "dentist Dr. Smith")
    assert keep.pk in recalled(team, "dentist Dr. Smith")


def test_merge_across_namespaces_is_refused(staff, team, beta, add):
    keep = add(team, "The user's dentist is Dr. Smith on Main Street.")
    drop = add(beta, "The user's dentist is Dr. Smith on Main Street.")

    response = staff.post(merge_url(keep, drop))

    assert any("same namespace" in m for m in flash(response))
    drop.refresh_from_db()
    assert drop.forgotten_at is None and Tombstone.objects.count() == 0


# --- 5. duplicates review -----------------------------------------------------------------------


def clusters_shown(response) -> list[list[int]]:
    assert response.status_code == 200
    values = re.findall(r'<input type="checkbox" name="cluster" value="([\d,]+)"', response.content.decode())
    return [[int(i) for i in value.split(",")] for value in values]


def test_duplicates_review_lists_near_duplicates_with_the_same_codes(staff, team, add):
    first = add(team, TEAM_123)
    second = add(team, TEAM_123_AGAIN)
    different = add(team, TEAM_456)
    add(team, "The user's favourite colour is green.")

    response = staff.get(DUPLICATES)

    assert clusters_shown(response) == [[first.pk, second.pk]]
    content = response.content.decode()
    assert TEAM_456 not in content and f"#{different.pk}<" not in content


def test_bulk_merge_confirms_then_keeps_the_oldest(staff, root, team, add):
    newer_id = add(team, TEAM_123)
    older = add(team, TEAM_123_AGAIN)
    # The second one is the older memory, although its id is larger.
    Memory.objects.filter(pk=older.pk).update(created_at=timezone.now() - timedelta(days=7))
    cluster = clusters_shown(staff.get(DUPLICATES))
    assert cluster == [[older.pk, newer_id.pk]]
    value = ",".join(str(i) for i in cluster[0])

    confirm = staff.post(DUPLICATES, {"cluster": value, "do": "merge"})
    assert confirm.status_code == 200
    assert "admin/memories/memory/duplicates_confirmation.html" in [t.name for t in confirm.templates]
    assert Tombstone.objects.count() == 0

    data, _ = page_form(confirm, having="confirmed")
    done = staff.post(DUPLICATES, data)
    assert done.status_code == 302

    tombstone = Tombstone.objects.get()
    assert (tombstone.memory_id, tombstone.replaced_by_id, tombstone.reason) == (newer_id.pk, older.pk, "merged")
    assert Memory.objects.get(pk=older.pk).forgotten_at is None
    assert MemoryEvent.objects.filter(memory=older, event_type="merge", actor=root).exists()
    assert clusters_shown(staff.get(DUPLICATES)) == []


def test_dismissing_a_cluster_hides_it(staff, root, team, add):
    first = add(team, TEAM_123)
    second = add(team, TEAM_123_AGAIN)

    response = staff.post(DUPLICATES, {"cluster": f"{first.pk},{second.pk}", "do": "dismiss"})

    assert response.status_code == 302
    assert DuplicateDismissal.objects.filter(memory_a=first, memory_b=second, dismissed_by=root).exists()
    assert clusters_shown(staff.get(DUPLICATES)) == []
    assert Memory.objects.filter(forgotten_at__isnull=False).count() == 0


def test_dismissing_a_cluster_of_three_hides_all_of_it(staff, team, add):
    members = [add(team, TEAM_123), add(team, TEAM_123_AGAIN), add(team, TEAM_123_THIRD)]
    [cluster] = clusters_shown(staff.get(DUPLICATES))
    assert sorted(cluster) == sorted(m.pk for m in members)

    staff.post(DUPLICATES, {"cluster": ",".join(map(str, cluster)), "do": "dismiss"})

    assert clusters_shown(staff.get(DUPLICATES)) == []


# --- 6. tombstones ------------------------------------------------------------------------------


def test_tombstones_are_listed_read_only_with_reason_and_replacement(staff, root, team, add):
    keep = add(team, "The user's dentist is Dr. Smith on Main Street.")
    drop = add(team, "The user's dentist is Dr. Smith, on Main Street.")
    merged = services.merge_memories(actor=root, keep=keep, drop=drop)
    gone = add(team, "The user used to live in Madrid.")
    forgotten = services.forget_memory(actor=root, memory=gone, reason="moved to Porto in 2023")

    response = staff.get(TOMBSTONES)
    assert sorted(listed(response)) == sorted([merged.pk, forgotten.pk])
    content = response.content.decode()
    assert "moved to Porto in 2023" in content
    assert f'<a href="{change_url(keep)}">#{keep.pk}</a>' in content
    assert "/admin/memories/tombstone/add/" not in content

    detail = staff.get(change_url(forgotten))
    assert detail.status_code == 200
    _, names = page_form(detail, form_id="tombstone_form")
    assert not names & {"reason", "text", "kind"}
    assert staff.post(change_url(forgotten), {"reason": "edited"}).status_code == 403
    forgotten.refresh_from_db()
    assert forgotten.reason == "moved to Porto in 2023"


def test_restore_action_confirms_then_brings_the_memory_back(staff, root, team, add):
    memory = add(team, "The user's gym is FitLife on Elm Street.")
    tombstone = services.forget_memory(actor=root, memory=memory, reason="cancelled membership")
    assert memory.pk not in recalled(team, "the user's gym")

    first = act(staff, "restore", [tombstone], url=TOMBSTONES)
    assert "admin/memories/memory/action_confirmation.html" in [t.name for t in first.templates]
    assert Tombstone.objects.filter(pk=tombstone.pk).exists()
    memory.refresh_from_db()
    assert memory.forgotten_at is not None

    data, _ = page_form(first, having="apply")
    response = staff.post(TOMBSTONES, data)
    assert response.status_code == 302
    assert any("1 memory restored" in m for m in flash(response))

    memory.refresh_from_db()
    assert memory.forgotten_at is None
    assert not Tombstone.objects.filter(pk=tombstone.pk).exists()
    event = MemoryEvent.objects.get(memory=memory, event_type="restore")
    assert event.actor == root and event.data["reason"] == "cancelled membership"
    assert memory.pk in recalled(team, "the user's gym")


# --- 7. permission filtering --------------------------------------------------------------------


@pytest.fixture
def viewer(client, team):
    """A staff user without model permissions who may view (not write) team:alpha."""
    user = UserFactory(username="viewer", is_staff=True)
    assign_perm("view_namespace", user, team)
    client.force_login(user)
    return user


@pytest.fixture
def two_teams(team, beta, add):
    return {
        "alpha": [add(team, TEAM_123), add(team, TEAM_123_AGAIN)],
        "beta": [
            add(beta, "Beta's deploy window is Friday at 16:00."),
            add(beta, "Beta's deploy window is Friday 16:00"),
        ],
    }


def test_a_namespace_viewer_sees_exactly_that_namespace(client, viewer, team, beta, two_teams):
    alpha_ids = sorted(m.pk for m in two_teams["alpha"])
    hidden = two_teams["beta"][0]

    assert sorted(listed(client.get(CHANGELIST))) == alpha_ids
    assert listed(client.get(CHANGELIST, {"namespace": beta.pk})) == []
    assert listed(client.get(CHANGELIST, {"q": "deploy"})) == []

    response = client.get(change_url(hidden))
    assert response.status_code == 302
    assert hidden.text not in client.get(response["Location"]).content.decode()
    assert client.get(merge_url(two_teams["alpha"][0], hidden)).status_code == 404

    exported = act(client, "export_jsonl", [hidden, *two_teams["alpha"]])
    assert sorted(json.loads(line)["id"] for line in exported.content.decode().splitlines()) == alpha_ids

    namespace_filter = next(
        f for f in client.get(CHANGELIST).context["cl"].filter_specs if isinstance(f, VisibleNamespaceFilter)
    )
    assert sorted(key for _, key in namespace_filter.lookup_choices) == ["team:alpha", "user:viewer"]

    # Duplicates review: beta's near-duplicates stay hidden, and cannot be merged by naming them.
    assert clusters_shown(client.get(DUPLICATES)) == [alpha_ids]
    beta_ids = ",".join(str(m.pk) for m in two_teams["beta"])
    client.post(DUPLICATES, {"cluster": beta_ids, "do": "merge", "confirmed": "yes"})
    assert not Memory.objects.filter(forgotten_at__isnull=False).exists()


def test_a_namespace_viewer_cannot_change_its_memories(client, viewer, root, team, two_teams):
    memory = two_teams["alpha"][0]
    url = change_url(memory)

    page = client.get(url)
    assert page.status_code == 200
    assert escape(memory.text) in page.content.decode()
    _, names = page_form(page, form_id="memory_form")
    assert "text" not in names and "tags" not in names
    assert "mnemo-merge" not in page.content.decode()

    refused = client.post(url, {"text": "Changed by a viewer.", "tags": ""})
    assert refused.status_code == 403
    assert client.post(merge_url(memory, two_teams["alpha"][1])).status_code == 403

    long_ago = timezone.now() - timedelta(days=90)
    Memory.objects.filter(pk=memory.pk).update(last_confirmed_at=long_ago)
    act(client, "forget_with_reason", [memory], apply="yes", reason="viewer says so")
    act(client, "confirm", [memory])
    act(client, "reembed", [memory])
    act(client, "change_expiry", [memory], apply="yes", extend_days="5")
    memory.refresh_from_db()
    assert memory.text == TEAM_123 and memory.forgotten_at is None and memory.expires_at is None
    assert memory.status == Memory.Status.READY and memory.last_confirmed_at == long_ago
    assert set(MemoryEvent.objects.filter(memory=memory).values_list("event_type", flat=True)) == {"add"}

    # A tombstone in the namespace is listed but cannot be restored.
    tombstone = services.forget_memory(actor=root, memory=two_teams["alpha"][1], reason="dup")
    assert listed(client.get(TOMBSTONES)) == [tombstone.pk]
    act(client, "restore", [tombstone], url=TOMBSTONES, apply="yes")
    assert Tombstone.objects.filter(pk=tombstone.pk).exists()

    # With write_namespace the same edit goes through.
    assign_perm("write_namespace", viewer, team)
    data, _ = page_form(client.get(url), form_id="memory_form")
    data["text"] = ["The user's Linear team is TEAM-123, confirmed."]
    assert client.post(url, data).status_code == 302
    memory.refresh_from_db()
    assert memory.text == "The user's Linear team is TEAM-123, confirmed."


def test_a_staff_user_without_permissions_does_not_see_memories(client, two_teams):
    nobody = UserFactory(username="nobody", is_staff=True)
    # Every user is given view and write on their own namespace: take them away.
    own = Namespace.objects.get(key="user:nobody")
    remove_perm("view_namespace", nobody, own)
    remove_perm("write_namespace", nobody, own)
    client.force_login(nobody)

    index = client.get("/admin/")
    assert index.status_code == 200
    assert "memories" not in [app["app_label"] for app in index.context["app_list"]]
    assert 'href="/admin/memories/' not in index.content.decode()
    assert client.get(CHANGELIST).status_code == 403
    assert client.get(DUPLICATES).status_code == 403
    assert client.get(TOMBSTONES).status_code == 403
    assert client.get(change_url(two_teams["alpha"][0])).status_code in (302, 403)


def test_a_staff_user_sees_their_own_namespace_only(client, two_teams):
    """What every staff user gets by default: their own namespace, nothing else."""
    user = UserFactory(username="plain", is_staff=True)
    client.force_login(user)
    index = client.get("/admin/")
    assert "memories" in [app["app_label"] for app in index.context["app_list"]]
    assert listed(client.get(CHANGELIST)) == []


def test_a_superuser_sees_every_namespace(staff, team, beta, two_teams):
    every = sorted(m.pk for group in two_teams.values() for m in group)
    assert sorted(listed(staff.get(CHANGELIST))) == every
    namespace_filter = next(
        f for f in staff.get(CHANGELIST).context["cl"].filter_specs if isinstance(f, VisibleNamespaceFilter)
    )
    assert {"team:alpha", "team:beta", "user:root"} <= {key for _, key in namespace_filter.lookup_choices}


# --- 8. guardian's object-permission page for namespaces -----------------------------------------


def test_granting_view_namespace_on_the_permissions_page(staff, team, add):
    memory = add(team, "The team's retro is every other Friday.")
    bob = UserFactory(username="bob")
    assert not visible_memories(bob).filter(pk=memory.pk).exists()

    url = f"/admin/memories/namespace/{team.pk}/permissions/"
    page = staff.get(url)
    _, names = page_form(page, having="submit_manage_user")
    assert "user" in names

    chosen = staff.post(url, {"user": "bob", "submit_manage_user": "Manage user"})
    assert chosen.status_code == 302
    manage_url = f"/admin/memories/namespace/{team.pk}/permissions/user-manage/{bob.pk}/"
    assert chosen["Location"] == manage_url

    form = staff.get(manage_url)
    _, names = page_form(form, having="permissions")
    assert "view_namespace" in form.content.decode()
    saved = staff.post(manage_url, {"permissions": ["view_namespace"]})
    assert saved.status_code == 302

    bob = get_user_model().objects.get(pk=bob.pk)
    assert list(visible_memories(bob).values_list("pk", flat=True)) == [memory.pk]
    assert bob.has_perm("memories.view_namespace", team)
    assert not bob.has_perm("memories.write_namespace", team)
    assert "bob" in staff.get(url).content.decode()


# --- 9. contacts --------------------------------------------------------------------------------


def test_contact_memory_note_inline_and_read_only_messages(staff, root):
    contact = Contact.objects.create(name="Sarah Connor", email="sarah@example.com")
    ContactNote.objects.create(contact=contact, kind=ContactNote.Kind.NOTE, body="An ordinary note.")
    ContactMessage.objects.create(
        contact=contact, direction="out", channel="email", subject="Lunch?", body="Shall we meet on Friday?"
    )
    url = change_url(contact)

    page = staff.get(url)
    content = page.content.decode()
    assert 'id="notes-heading"' in content and "Memory note" in content
    data, names = page_form(page, form_id="contact_form")
    assert "notes-0-body" in names
    assert "An ordinary note." not in content  # the inline holds the memory note only
    # Messages are shown, read-only.
    assert "Shall we meet on Friday?" in content and "Lunch?" in content
    assert not {n for n in names if n.startswith("messages-0-") and n.split("-")[-1] in {"body", "subject"}}

    data["notes-0-body"] = ["Prefers email to calls; never before 9am."]
    response = staff.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]

    note = ContactNote.objects.get(contact=contact, kind=ContactNote.Kind.MEMORY)
    assert note.body == "Prefers email to calls; never before 9am."
    assert note.author == root
    assert ContactNote.objects.filter(contact=contact).count() == 2
    assert ContactMessage.objects.get(contact=contact).body == "Shall we meet on Friday?"

    # Editing it again changes that one note.
    data, _ = page_form(staff.get(url), form_id="contact_form")
    assert data["notes-0-body"] == ["Prefers email to calls; never before 9am."]
    data["notes-0-body"] = ["Prefers email to calls."]
    assert staff.post(url, data).status_code == 302
    assert list(ContactNote.objects.filter(contact=contact, kind="memory").values_list("body", flat=True)) == [
        "Prefers email to calls."
    ]


# --- 10. tool rules ------------------------------------------------------------------------------


@pytest.fixture
def rules(root):
    alice = UserFactory(username="alice")
    bob = UserFactory(username="bob")
    made = {
        "alice_critical": put_rule(
            actor=alice,
            tool_name="send_email",
            rule="Never email Sarah at sarah@example.com",
            priority="critical",
            source="user_explicit",
        )[0],
        "alice_normal": put_rule(
            actor=alice, tool_name="send_email", rule="Sign off with 'Best'", priority="normal", source="post_turn"
        )[0],
        "everyone_high": put_rule(
            actor=root,
            tool_name="global",
            rule='Don\'t paste <secrets> & keys into "any" chat',
            priority="high",
            source="programmatic",
            binds_everyone=True,
        )[0],
        "bob_critical": put_rule(
            actor=bob,
            tool_name="send_sms",
            rule="Bob's own rule: no texts",
            priority="critical",
            source="user_explicit",
        )[0],
    }
    return alice, bob, made


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"priority__exact": "critical"}, {"alice_critical", "bob_critical"}),
        ({"priority__exact": "normal"}, {"alice_normal"}),
        ({"source__exact": "user_explicit"}, {"alice_critical", "bob_critical"}),
        ({"source__exact": "programmatic"}, {"everyone_high"}),
        ({"priority__exact": "critical", "source__exact": "post_turn"}, set()),
    ],
)
def test_tool_rules_filter_by_priority_and_source(staff, rules, params, expected):
    _, _, made = rules
    response = staff.get("/admin/toolrules/toolmemoryrule/", params)
    assert set(listed(response)) == {made[name].pk for name in expected}


def test_tool_rules_sidebar_offers_priority_and_source(staff, rules):
    content = staff.get("/admin/toolrules/toolmemoryrule/").content.decode()
    for value in ("critical", "high", "normal"):
        assert f'href="?priority__exact={value}"' in content
    for value in ("user_explicit", "post_turn", "programmatic"):
        assert f'href="?source__exact={value}"' in content


PREVIEW_BUG = (
    "templates/admin/toolrules/toolmemoryrule/preview.html names the view's PromptRules 'block', but "
    "inside {% block content %} Django binds 'block' to the BlockNode being rendered: {% if block %} is "
    "always true and block.markdown is empty, so the page always says 'nothing is pinned' and never "
    "shows the markdown (ToolMemoryRuleAdmin.preview_view should pass it under another name)"
)


def test_prompt_preview_view_computes_the_pinned_block(staff, rules):
    alice, _, _ = rules
    response = staff.get("/admin/toolrules/toolmemoryrule/prompt-preview/", {"user": alice.pk})
    assert response.status_code == 200
    assert response.context["form"].cleaned_data["user"] == alice
    computed = [v for c in response.context for d in c.dicts for v in d.values() if isinstance(v, PromptRules)]
    assert computed and all(v.markdown == rules_for_prompt(user=alice).markdown for v in computed)


def test_prompt_preview_shows_exactly_the_pinned_block(staff, rules):
    alice, _, _ = rules
    expected = rules_for_prompt(user=alice).markdown
    assert "Never email Sarah" in expected and "<secrets>" in expected
    assert "Bob's own rule" not in expected and "Sign off" not in expected

    response = staff.get("/admin/toolrules/toolmemoryrule/prompt-preview/", {"user": alice.pk})

    assert response.status_code == 200
    shown = re.search(r'<pre id="mnemo-prompt-preview"[^>]*>(.*?)</pre>', response.content.decode(), re.S)
    assert shown is not None, "no <pre id=mnemo-prompt-preview> in the page"
    assert shown.group(1) == escape(expected)
    assert unescape(shown.group(1)) == expected


def test_prompt_preview_without_a_user_shows_only_the_form(staff, rules):
    response = staff.get("/admin/toolrules/toolmemoryrule/prompt-preview/")
    assert response.status_code == 200
    assert 'name="user"' in response.content.decode()
    assert 'id="mnemo-prompt-preview"' not in response.content.decode()


# --- 11. branding -------------------------------------------------------------------------------


def test_the_login_page_is_branded_mnemo(client):
    response = client.get("/admin/login/")
    assert response.status_code == 200
    title = re.search(r"<title>(.*?)</title>", response.content.decode(), re.S).group(1)
    assert "Mnemo" in title
