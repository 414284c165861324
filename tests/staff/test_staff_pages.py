"""Issue 15, staff and newcomers: labels, the list's columns and filters, history, change-page
buttons, merge semantics, the contact page, the home page and its latency record, the deep link.

All against the real database and the real embedder, through Django's test client.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import override_settings
from django.utils import timezone
from guardian.shortcuts import assign_perm

from contacts.models import Contact, ContactMessage, ContactNote
from memories import latency, selectors, services
from memories.models import LATENCY_BOUNDS_MS, Memory, MemoryEvent, Namespace, SearchLatency, Tombstone
from tests.factories import UserFactory
from toolrules.models import ToolMemoryRule
from toolrules.services import put_rule

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/memories/memory/"
DENTIST = "The user's dentist is Dr. Okonkwo on Main Street."
DENTIST_AGAIN = "The user's dentist is Dr Okonkwo, on Main Street."
GARDEN = "User grows tomatoes in a small backyard garden."


@pytest.fixture(autouse=True)
def no_buffered_timings():
    latency.discard_pending()  # searches of earlier tests in this process
    yield
    latency.discard_pending()


@pytest.fixture
def root(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def staff(client, root):
    client.force_login(root)
    return client


@pytest.fixture
def team(db):
    return Namespace.objects.create(key="team:alpha", kind="other")


@pytest.fixture
def add(root):
    def add(namespace, text, **metadata):
        return services.add_memory(
            actor=root, namespace=namespace, content=text, metadata=metadata or None, run_async=False
        )

    return add


def flash(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def text_of(response) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))


# --- labels and plurals ---------------------------------------------------------------------------


def test_names_and_plurals_read_as_english(staff, root, team, add):
    index = staff.get("/admin/").content.decode()
    assert "Memorys" not in index and "memorys" not in index
    captions = [unescape(c).strip() for c in re.findall(r'class="section"[^>]*>([^<]+)</a>', index)]
    assert "Memories" in captions and "Tool rules" in captions and "Toolrules" not in captions, captions
    apps = {app["app_label"]: app["name"] for app in staff.get("/admin/").context["app_list"]}
    assert apps["toolrules"] == "Tool rules"
    assert Memory._meta.verbose_name_plural == "memories"

    one = add(team, GARDEN)
    response = staff.post(
        CHANGELIST,
        {"action": "forget_with_reason", "_selected_action": [one.pk], "apply": "yes", "reason": "moved"},
    )
    assert "1 memory forgotten; it is listed under tombstones." in flash(response)

    first, second = add(team, "User's Linear team ID is TEAM-123"), add(team, "The user's Linear team id is TEAM-123.")
    response = staff.post(
        "/admin/memories/memory/duplicates/",
        {"cluster": f"{first.pk},{second.pk}", "do": "merge", "confirmed": "yes"},
    )
    assert any(m.startswith("1 cluster merged") for m in flash(response)), flash(response)


# --- the list: columns, filters ------------------------------------------------------------------


def test_the_list_shows_text_namespace_status_tags_and_age_and_the_rest_on_the_change_page(staff, team, add):
    long_text = "The user keeps a detailed diary of every trip. " * 8
    memory = add(team, long_text.strip(), tags=["travel", "diary"])
    response = staff.get(CHANGELIST)
    headers = re.findall(r'<th scope="col" class="([^"]*)"', response.content.decode())
    columns = [re.search(r"column-(\w+)", h).group(1) for h in headers if "column-" in h]
    assert columns == ["text_cell", "namespace", "status_badge", "tag_list", "age"]
    cell = re.search(r'<span class="mnemo-text" title="([^"]*)">([^<]*)</span>', response.content.decode())
    assert unescape(cell.group(1)) == memory.text  # the whole text on hover
    assert len(unescape(cell.group(2))) <= 160 and unescape(cell.group(2)).endswith("…")
    page = staff.get(f"/admin/memories/memory/{memory.pk}/change/").content.decode()
    for field in ("source_provider", "capture_mode", "importance", "event_id", "last_confirmed_at", "created_by"):
        assert f"field-{field}" in page, field


def test_the_source_filter_lists_the_sources_and_narrows_the_list(staff, team, add):
    claude = add(team, "The user likes jazz.", source_provider="claude")
    add(team, "The user likes tea.", source_provider="openai")
    unknown = add(team, "The user likes rain.")
    response = staff.get(CHANGELIST)
    content = response.content.decode()
    for link in ('href="?source_provider=claude"', 'href="?source_provider=openai"', 'href="?source_provider=-"'):
        assert link in content, link
    assert [m.pk for m in staff.get(CHANGELIST, {"source_provider": "claude"}).context["cl"].result_list] == [claude.pk]
    assert [m.pk for m in staff.get(CHANGELIST, {"source_provider": "-"}).context["cl"].result_list] == [unknown.pk]


def test_lists_show_moments_short_and_whole(staff, root, team, add):
    memory = add(team, GARDEN)
    services.forget_memory(actor=root, memory=memory, reason="moved to a flat")
    put_rule(actor=root, tool_name="send_email", rule="never email Bob", priority="critical")
    for url in ("/admin/memories/tombstone/", "/admin/toolrules/toolmemoryrule/", "/admin/memories/memoryevent/"):
        content = staff.get(url).content.decode()
        moments = re.findall(r'<time class="mnemo-moment" datetime="[^"]+" title="([^"]+)">([^<]+)</time>', content)
        assert moments, url
        for whole, short in moments:
            assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", whole) and re.fullmatch(
                r"\d{4}-\d\d-\d\d \d\d:\d\d", short
            ), (url, whole, short)


# --- history ------------------------------------------------------------------------------------


def test_history_shows_old_and_new_values_not_a_dict(staff, root, team, add):
    memory = add(team, GARDEN, tags=["home"])
    services.update_memory(actor=root, memory=memory, tags=["home", "Garden"], importance=0.9)
    services.update_memory(actor=root, memory=memory, text="User grows tomatoes and basil in a backyard garden.")
    content = staff.get(f"/admin/memories/memory/{memory.pk}/change/").content.decode()
    history = unescape(re.search(r'id="mnemo-history">(.*?)</fieldset>', content, re.S).group(1))
    assert "{'" not in history and "'fields'" not in history
    plain = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", history))
    assert "tags : home → garden, home" in plain.replace(" :", " :") or "tags: home → garden, home" in plain
    assert "importance" in plain and "0.5 → 0.9" in plain
    assert f"{GARDEN} → User grows tomatoes and basil in a backyard garden." in plain
    event = MemoryEvent.objects.filter(memory=memory, event_type="update").first()
    assert event.data["changes"]["tags"] == {"old": ["home"], "new": ["garden", "home"]}


# --- change-page buttons --------------------------------------------------------------------------


def test_forget_and_restore_are_buttons_on_the_change_page_and_ask_first(staff, root, team, add):
    memory = add(team, GARDEN)
    change = f"/admin/memories/memory/{memory.pk}/change/"
    page = staff.get(change).content.decode()
    assert f'href="/admin/memories/memory/{memory.pk}/forget/"' in page and "/restore/" not in page

    confirm = staff.get(f"/admin/memories/memory/{memory.pk}/forget/")
    assert confirm.status_code == 200 and "Forget memory" in confirm.content.decode()
    memory.refresh_from_db()
    assert memory.forgotten_at is None  # asking changed nothing
    refused = staff.post(f"/admin/memories/memory/{memory.pk}/forget/", {"reason": ""})
    assert refused.status_code == 200 and Memory.objects.get(pk=memory.pk).forgotten_at is None

    done = staff.post(f"/admin/memories/memory/{memory.pk}/forget/", {"reason": "moved to a flat"})
    assert done.status_code == 302 and done["Location"] == change
    tombstone = Tombstone.objects.get(memory=memory)
    assert tombstone.reason == "moved to a flat"

    # Forgotten: read-only, no Save, the Restore button instead of Forget.
    page = staff.get(change).content.decode()
    assert 'name="text"' not in page and 'name="_save"' not in page and 'name="_continue"' not in page
    assert 'id="mnemo-forgotten"' in page and "moved to a flat" in page
    assert f'href="/admin/memories/memory/{memory.pk}/restore/"' in page and "/forget/" not in page
    # A hand-made post changes nothing either.
    staff.post(change, {"text": "Something else entirely.", "tags": "", "expires_at": ""})
    assert Memory.objects.get(pk=memory.pk).text == GARDEN

    assert staff.get(f"/admin/memories/memory/{memory.pk}/restore/").status_code == 200
    assert Memory.objects.get(pk=memory.pk).forgotten_at is not None
    restored = staff.post(f"/admin/memories/memory/{memory.pk}/restore/")
    assert restored.status_code == 302 and "Memory" in " ".join(flash(restored))
    memory.refresh_from_db()
    assert memory.forgotten_at is None and not Tombstone.objects.filter(memory=memory).exists()
    assert list(MemoryEvent.objects.filter(memory=memory).values_list("event_type", flat=True)) == [
        "add",
        "forget",
        "restore",
    ]


def test_a_viewer_without_write_gets_no_buttons_and_no_forget(client, team, add):
    reader = UserFactory(username="reader", is_staff=True)
    assign_perm("view_namespace", reader, team)
    memory = add(team, GARDEN)
    client.force_login(reader)
    page = client.get(f"/admin/memories/memory/{memory.pk}/change/").content.decode()
    assert "/forget/" not in page and "mnemo-merge" not in page
    assert client.post(f"/admin/memories/memory/{memory.pk}/forget/", {"reason": "x"}).status_code == 403
    assert Memory.objects.get(pk=memory.pk).forgotten_at is None


# --- merge --------------------------------------------------------------------------------------


def test_merge_keeps_the_union_of_tags_the_stronger_mode_and_the_higher_importance(root, team, add):
    keep = add(team, DENTIST, tags=["health"], capture_mode="inferred")
    drop = add(team, DENTIST_AGAIN, tags=["family", "Health"], capture_mode="explicit")
    Memory.objects.filter(pk=drop.pk).update(importance=0.9)
    Memory.objects.filter(pk=keep.pk).update(importance=0.3)
    keep.refresh_from_db()
    drop.refresh_from_db()

    services.merge_memories(actor=root, keep=keep, drop=drop)
    keep.refresh_from_db()
    assert keep.tags == ["family", "health"]
    assert keep.capture_mode == "explicit" and keep.importance == 0.9
    assert keep.text == DENTIST and keep.forgotten_at is None
    assert Memory.objects.get(pk=drop.pk).forgotten_at is not None
    event = MemoryEvent.objects.get(memory=keep, event_type="merge")
    assert event.data["merged"] == drop.pk
    assert event.data["changes"] == {
        "tags": {"old": ["health"], "new": ["family", "health"]},
        "capture_mode": {"old": "inferred", "new": "explicit"},
        "importance": {"old": 0.3, "new": 0.9},
    }
    assert MemoryEvent.objects.get(memory=drop, event_type="merge").data["replaced_by"] == keep.pk


@pytest.mark.parametrize(
    ("keep_mode", "drop_mode", "expected"),
    [("", "inferred", "inferred"), ("explicit", "inferred", "explicit"), ("", "", ""), ("inferred", "", "inferred")],
)
def test_merge_never_weakens_the_capture_mode(root, team, add, keep_mode, drop_mode, expected):
    keep = add(team, DENTIST, **({"capture_mode": keep_mode} if keep_mode else {}))
    drop = add(team, DENTIST_AGAIN, **({"capture_mode": drop_mode} if drop_mode else {}))
    services.merge_memories(actor=root, keep=keep, drop=drop)
    keep.refresh_from_db()
    assert keep.capture_mode == expected


def test_merge_from_the_change_page_shows_what_the_kept_memory_gains(staff, team, add):
    keep = add(team, DENTIST, tags=["health"])
    drop = add(team, DENTIST_AGAIN, tags=["family"])
    confirm = staff.get(f"/admin/memories/memory/{keep.pk}/merge/{drop.pk}/")
    assert re.search(r'id="mnemo-merged-tags">family, health<', confirm.content.decode())
    staff.post(f"/admin/memories/memory/{keep.pk}/merge/{drop.pk}/")
    keep.refresh_from_db()
    assert keep.tags == ["family", "health"]
    history = text_of(staff.get(f"/admin/memories/memory/{keep.pk}/change/"))
    assert f"took in #{drop.pk}" in history and "health → family, health" in re.sub(r"\s+", " ", history)


@override_settings(MNEMO_MERGE_MIN_SIMILARITY=0.8)
def test_merge_is_offered_and_done_only_above_the_threshold(staff, team, add):
    keep = add(team, DENTIST)
    close = add(team, DENTIST_AGAIN)
    far = add(team, "The user's cat is called Miso.")
    similarities = dict(
        (m.pk, s) for m, s in selectors.nearest_neighbours(memory=Memory.objects.get(pk=keep.pk), limit=5)
    )
    assert similarities[close.pk] >= 0.8 > similarities[far.pk]
    page = staff.get(f"/admin/memories/memory/{keep.pk}/change/").content.decode()
    assert f"/merge/{close.pk}/" in page and f"/merge/{far.pk}/" not in page
    assert "too different to merge" in page and "0.8" in page and "MNEMO_MERGE_MIN_SIMILARITY" in page

    refused = staff.post(f"/admin/memories/memory/{keep.pk}/merge/{far.pk}/")
    assert refused.status_code == 302 and "not close enough" in " ".join(flash(refused))
    assert Memory.objects.get(pk=far.pk).forgotten_at is None


# --- contacts in the admin ------------------------------------------------------------------------


def test_contact_page_reads_well(staff, root):
    contact = Contact.objects.create(name="Sarah Johnson", phone="+1 415 555 0100")
    body = "Prefers texts over calls. Last discussed pricing on March 15, and the renewal is due in May."
    ContactNote.objects.create(contact=contact, kind="memory", body=body, author=root)
    ContactMessage.objects.create(contact=contact, direction="in", channel="sms", body="Hi!", status="sent")
    ContactMessage.objects.create(contact=contact, direction="out", channel="sms", body="Hello", status="delivered")
    page = text_of(staff.get(f"/admin/contacts/contact/{contact.pk}/change/"))
    plain = re.sub(r"\s+", " ", page)
    assert str(contact.pk) not in plain.replace(f"/{contact.pk}/", "")
    assert "memory note on Sarah Johnson, updated" in plain
    assert "SMS from Sarah Johnson" in plain and "SMS to Sarah Johnson" in plain
    assert "out sms" not in plain and "in sms" not in plain
    rows = re.findall(
        r'<tr class="form-row[^"]*has_original[^"]*".*?</tr>',
        staff.get(f"/admin/contacts/contact/{contact.pk}/change/").content.decode(),
        re.S,
    )
    inbound = next(r for r in rows if "SMS from" in r)
    assert "received" in inbound and ">sent<" not in inbound


# --- the home page --------------------------------------------------------------------------------


def test_home_needs_a_staff_login_and_view_site_goes_there(client, root):
    response = client.get("/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/?next=/")
    client.force_login(root)
    assert client.get("/").status_code == 200
    assert 'href="/"' in client.get("/admin/").content.decode()  # "View site"


def figures(response) -> dict[str, tuple[int, str]]:
    found = re.findall(
        r'<a class="mnemo-number" data-figure="([^"]+)" href="([^"]+)">(\d+)</a>', response.content.decode()
    )
    return {name: (int(value), unescape(url)) for name, url, value in found}


def test_home_numbers_match_the_database_and_link_to_lists_that_count_the_same(staff, root, team, add):
    other = Namespace.objects.create(key="user:zoe", kind="user")
    first = add(team, DENTIST)
    second = add(team, DENTIST_AGAIN)  # a near-duplicate cluster with the first
    add(team, GARDEN)
    add(other, "Zoe likes jazz.")
    queued = services.add_memory(actor=root, namespace=other, content="Zoe plays chess.", run_async=True)
    Memory.objects.filter(pk=queued.pk).update(status="queued", updated_at=timezone.now() - timedelta(minutes=7))
    failed = add(other, "Zoe reads comics.")
    Memory.objects.filter(pk=failed.pk).update(status="failed")
    gone = add(team, "The user lived in Madrid.")
    services.forget_memory(actor=root, memory=gone, reason="moved")
    put_rule(actor=root, tool_name="send_email", rule="never email Bob", priority="critical", source="user_explicit")
    put_rule(actor=root, tool_name="send_sms", rule="keep texts short", priority="high")
    latency.record_search(12.0)
    latency.record_search(80.0)

    response = staff.get("/")
    shown = figures(response)
    live = Memory.objects.filter(forgotten_at__isnull=True)
    assert shown["namespace:team:alpha"][0] == live.filter(namespace=team).count() == 3
    assert shown["namespace:user:zoe"][0] == live.filter(namespace=other).count()
    assert shown["queue:queued"][0] == live.filter(status="queued").count() == 1
    assert shown["queue:failed"][0] == live.filter(status="failed").count() == 1
    assert "7 min" in response.content.decode()
    assert shown["activity:added"][0] == MemoryEvent.objects.filter(event_type="add").count()
    assert shown["activity:forgotten"][0] == 1
    assert shown["activity:merged"][0] == 0
    assert shown["activity:rules captured"][0] == ToolMemoryRule.objects.filter(source="user_explicit").count() == 1
    assert shown["clusters"][0] == 1
    assert (shown["rules:critical"][0], shown["rules:high"][0], shown["rules:normal"][0]) == (1, 1, 0)
    assert shown["searches"][0] == 2
    assert "<svg" in response.content.decode() and "cdn" not in response.content.decode().lower()
    assert first.pk and second.pk

    # Every figure links to an admin list that holds exactly that many rows.
    for name, (value, url) in shown.items():
        if name == "clusters":
            assert len(staff.get(url).context["clusters"]) == value
            continue
        listing = staff.get(url)
        assert listing.status_code == 200, (name, url)
        if name == "searches":
            assert sum(row.count for row in listing.context["cl"].queryset) == value, (name, url)
        else:
            assert listing.context["cl"].result_count == value, (name, url)


def test_each_search_is_recorded_once_in_its_minute(token_client, user):
    namespace = Namespace.objects.get(key=f"user:{user.username}")
    services.add_memory(actor=user, namespace=namespace, content="The user likes jazz.", run_async=False)
    for query in ("jazz", "music", "what does the user like"):
        assert token_client.post("/api/v1/memories/search", {"query": query}, format="json").status_code == 200
    latency.flush()  # the buffer is written at most once a second: now, for the test
    rows = list(SearchLatency.objects.all())
    assert len(rows) == 1 and rows[0].count == 3 and sum(rows[0].buckets) == 3
    assert rows[0].total_ms > 0 and rows[0].max_ms <= rows[0].total_ms


def test_latency_buckets_and_percentiles():
    now = timezone.now()
    for ms in (1, 7, 7, 40, 3000):
        latency.record_search(ms, at=now)
    latency.flush()
    latency.record_search(7, at=now)
    latency.flush()  # a second write adds to the minute's row
    row = SearchLatency.objects.get()
    assert row.count == 6 and row.max_ms == 3000 and row.total_ms == 3062
    assert row.buckets == [1, 3, 0, 1, 0, 0, 0, 0, 0, 1] and len(row.buckets) == len(LATENCY_BOUNDS_MS) + 1
    assert latency.percentile(row.buckets, 0.5) == 10 and latency.percentile(row.buckets, 0.95) == 2500
    # A new minute prunes what is older than a day.
    latency.record_search(5, at=now - timedelta(days=2))
    latency.flush()
    latency.record_search(5, at=now + timedelta(minutes=1))
    latency.flush()
    assert SearchLatency.objects.count() == 2


# --- the deep link ------------------------------------------------------------------------------


def test_deep_link_opens_the_contact_for_who_may_view_it_and_404s_otherwise(client, root):
    contact = Contact.objects.create(name="Jane Doe", email="jane@example.com")
    link = f"/contacts/{contact.pk}"
    anonymous = client.get(link)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/admin/login/?next=")

    client.force_login(root)
    staff_answer = client.get(link)
    assert staff_answer.status_code == 302
    assert staff_answer["Location"] == f"/admin/contacts/contact/{contact.pk}/change/"

    User = get_user_model()
    agent = User.objects.create_user("agent-user", password="pw-123456789")
    client.force_login(agent)
    hidden, missing = client.get(link), client.get("/contacts/00000000-0000-0000-0000-000000000000")
    assert hidden.status_code == missing.status_code == 404
    assert hidden.content == missing.content.replace(b"00000000-0000-0000-0000-000000000000", str(contact.pk).encode())
    assert client.get("/contacts/not-a-uuid").status_code == 404

    assign_perm("contacts.view_contact", agent, contact)
    page = client.get(link)
    assert page.status_code == 200 and "Jane Doe" in page.content.decode()
