"""Issue 15 in a real browser at 1400 px: the memory list reads well (the text column wide, no
cell cut), merge / forget / restore from a memory's page, the home page's numbers, a deep link.

Screenshots of the memory list, a change page and the home page are kept in
test-artifacts/issue15/ every run, for people to look at.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from contacts.models import Contact, ContactNote
from memories import latency, services
from memories.models import Memory, MemoryEvent, Namespace, Tombstone
from tests.conftest import ROOT
from toolrules.services import put_rule

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "curate-with-care-42"
SHOTS = ROOT / "test-artifacts" / "issue15"

TEXTS = [
    "User prefers email summaries in the morning, before the first meeting of the day, and never on weekends.",
    "John Smith is the user's manager at Acme Corp; their one-to-one is every other Thursday afternoon.",
    "The user's Linear team ID is TEAM-123.",
    "User is working on the Q4 budget project, due at the end of the month; the draft lives in the shared drive "
    "under Finance/2026/Q4 and the reviewers are Priya and Tom from the controlling team.",
    "User flies to Lisbon on June 22 on flight TP1352.",
    "User's dog is a golden retriever named Biscuit.",
]


@pytest.fixture
def data():
    latency.discard_pending()  # searches of earlier tests in this process
    User = get_user_model()
    admin = User.objects.create_superuser("curator", "curator@example.com", PASSWORD)
    alice = Namespace.objects.create(key="user:alice", kind="user")
    agent = Namespace.objects.create(key="agent:gmail_subagent", kind="agent")

    def add(ns, text, **metadata):
        return services.add_memory(actor=admin, namespace=ns, content=text, metadata=metadata or None, run_async=False)

    memories = [
        add(alice, text, tags=tags, source_provider=source)
        for text, tags, source in zip(
            TEXTS,
            [["email", "preferences"], ["work", "people"], ["work"], ["work", "finance", "deadline"], ["travel"], []],
            ["claude", "claude", "", "openai", "", "claude"],
            strict=True,
        )
    ]
    add(agent, "Gmail searches work better with sender:email syntax.")
    dentist = add(alice, "The user's dentist is Dr. Okonkwo on Main Street.", tags=["health"], capture_mode="inferred")
    dentist2 = add(alice, "The user's dentist is Dr Okonkwo, on Main Street.", tags=["family"], capture_mode="explicit")
    services.update_memory(actor=admin, memory=memories[2], tags=["work", "linear"])
    gone = add(alice, "User used to live in Madrid.")
    services.forget_memory(actor=admin, memory=gone, reason="moved to Porto")
    put_rule(actor=admin, tool_name="send_email", rule="never email Sarah", priority="critical", source="user_explicit")
    latency.record_search(14.0)
    latency.record_search(42.0)
    contact = Contact.objects.create(name="Jane Doe", email="jane@example.com")
    ContactNote.objects.create(contact=contact, kind="memory", body="Prefers texts over calls.", author=admin)
    return {
        "admin": admin,
        "alice": alice,
        "memories": memories,
        "dentist": dentist,
        "dentist2": dentist2,
        "contact": contact,
    }


def login(page, next_url="/admin/"):
    p = page.page
    p.goto(next_url)
    p.fill("#id_username", "curator")
    p.fill("#id_password", PASSWORD)
    p.click("input[type=submit]")
    p.wait_for_load_state()


def keep(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_the_memory_list_reads_well_at_1400_px(page, data):
    p = page.page
    login(page, "/admin/memories/memory/")
    p.wait_for_selector("#result_list")
    keep(page, "memory-list")
    page.snap("memory-list")
    assert p.viewport_size["width"] == 1400
    widths = p.evaluate(
        """() => {
            const table = document.querySelector('#result_list');
            const text = table.querySelector('th.column-text_cell');
            const cut = [];
            for (const cell of table.querySelectorAll('td, th')) {
                if (cell.scrollWidth > cell.clientWidth + 1) cut.push(cell.className + ': ' + cell.innerText);
            }
            for (const t of table.querySelectorAll('time')) {
                const r = t.getBoundingClientRect(), c = t.closest('td').getBoundingClientRect();
                if (r.right > c.right + 1 || r.height > 2 * parseFloat(getComputedStyle(t).lineHeight || 20))
                    cut.push('time ' + t.innerText);
            }
            const results = document.querySelector('.results');
            return {table: table.getBoundingClientRect().width, text: text.getBoundingClientRect().width, cut,
                    scroll: results.scrollWidth - results.clientWidth};
        }"""
    )
    assert widths["text"] >= 0.4 * widths["table"], widths
    assert widths["cut"] == [], widths["cut"]
    assert widths["scroll"] <= 0, "the list scrolls sideways"
    headers = [h.strip().lower() for h in p.locator("#result_list thead th").all_inner_texts() if h.strip()]
    assert headers == ["text", "namespace", "status", "tags", "age"]
    # The whole text is on hover.
    title = p.locator("#result_list .mnemo-text").filter(has_text="Q4 budget").get_attribute("title")
    assert title == TEXTS[3]
    # Forgotten memories are hidden by default and a click away.
    assert "Madrid" not in p.locator("#result_list").inner_text()
    p.click("#changelist-filter a:text-is('forgotten')")
    assert "Madrid" in p.locator("#result_list").inner_text()
    for url in ("/admin/memories/tombstone/", "/admin/toolrules/toolmemoryrule/"):
        p.goto(url)
        cut = p.evaluate(
            """() => [...document.querySelectorAll('#result_list td')]
                   .filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.className)"""
        )
        assert cut == [], (url, cut)
        assert p.locator("#result_list time.mnemo-moment").count() >= 1


def test_merge_forget_and_restore_from_the_change_page(page, data):
    p = page.page
    dentist, dentist2 = data["dentist"], data["dentist2"]
    login(page, f"/admin/memories/memory/{dentist.pk}/change/")
    p.wait_for_selector("#mnemo-neighbours")
    keep(page, "change-page")
    assert "MNEMO_MERGE_MIN_SIMILARITY" in p.locator("#mnemo-neighbours").inner_text()
    history = p.locator("#mnemo-history").inner_text()
    assert "{'" not in history

    # Merge the other dentist memory into this one, through the confirmation page.
    row = p.locator("#mnemo-neighbours .mnemo-neighbour").filter(has_text=f"#{dentist2.pk}")
    row.locator("a.mnemo-merge").click()
    assert p.locator("#mnemo-merged-tags").inner_text() == "family, health"
    p.click("#mnemo-confirm")
    p.wait_for_selector("ul.messagelist")
    assert "was merged into" in p.locator("ul.messagelist").inner_text()
    assert p.input_value("#id_tags") == "family,health"
    kept = Memory.objects.get(pk=dentist.pk)
    assert kept.tags == ["family", "health"] and kept.capture_mode == "explicit"
    assert Tombstone.objects.get(memory_id=dentist2.pk).replaced_by_id == dentist.pk
    assert f"took in #{dentist2.pk}" in p.locator("#mnemo-history").inner_text()
    keep(page, "change-page-after-merge")

    # Forget it with the button, a reason, and a confirmation; its page turns read-only.
    p.click("a.mnemo-forget")
    p.fill("#id_reason", "The user changed dentist.")
    p.click("#mnemo-confirm")
    p.wait_for_selector("#mnemo-forgotten")
    assert p.locator("#id_text").count() == 0 and p.locator("input[name=_save]").count() == 0
    assert Memory.objects.get(pk=dentist.pk).forgotten_at is not None
    keep(page, "change-page-forgotten")

    # Restore it with the button.
    p.click("a.mnemo-restore")
    p.click("#mnemo-confirm")
    p.wait_for_selector("#id_text")
    assert Memory.objects.get(pk=dentist.pk).forgotten_at is None
    events = list(MemoryEvent.objects.filter(memory_id=dentist.pk).values_list("event_type", flat=True))
    assert events[-3:] == ["merge", "forget", "restore"]


def test_the_home_page_numbers_match_the_database(page, data):
    p = page.page
    p.goto("/")
    assert "/admin/login/" in p.url  # a login first
    p.fill("#id_username", "curator")
    p.fill("#id_password", PASSWORD)
    p.click("input[type=submit]")
    p.wait_for_selector("#mnemo-namespaces")
    keep(page, "home")
    figures = {a.get_attribute("data-figure"): int(a.inner_text()) for a in p.locator("a.mnemo-number").all()}
    live = Memory.objects.filter(forgotten_at__isnull=True)
    for ns in Namespace.objects.all():
        count = live.filter(namespace=ns).count()
        if count:
            assert figures[f"namespace:{ns.key}"] == count
    assert figures["queue:queued"] == live.filter(status="queued").count()
    assert figures["queue:failed"] == live.filter(status="failed").count()
    assert figures["queue:ready"] == live.filter(status="ready").count()
    assert figures["activity:added"] == MemoryEvent.objects.filter(event_type="add").count()
    assert figures["activity:forgotten"] == 1
    assert figures["rules:critical"] == 1 and figures["activity:rules captured"] == 1
    assert figures["searches"] == 2
    assert figures["clusters"] == 1  # the two dentist memories
    assert p.locator("svg.mnemo-chart").count() >= 3
    # A number leads to its list, holding as many rows.
    p.click("a[data-figure='namespace:user:alice']")
    p.wait_for_selector("#result_list")
    assert p.locator("#result_list tbody tr").count() == live.filter(namespace=data["alice"]).count()
    # And the admin's "View site" comes back here.
    p.click("#user-tools a:text-is('View site')")
    p.wait_for_selector("#mnemo-namespaces")
    assert re.search(r"/$", p.url)


def test_a_deep_link_opens_the_contact(page, data):
    p = page.page
    contact = data["contact"]
    link = f"/contacts/{contact.pk}"
    login(page, link)
    p.wait_for_selector("#contact_form")
    assert p.url.endswith(f"/admin/contacts/contact/{contact.pk}/change/")
    assert p.input_value("#id_name") == "Jane Doe"
    assert p.locator(".inline_label").first.text_content().startswith("memory note on Jane Doe, updated")
    response = p.goto("/contacts/00000000-0000-0000-0000-000000000000")
    assert response.status == 404
