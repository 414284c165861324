"""Staff curation in a real browser: log in, search, edit and see it re-embedded, merge two
duplicates, forget with a reason and find the tombstone, grant a second user a namespace."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from memories import services
from memories.models import Memory, Namespace, Tombstone
from memories.permissions import visible_memories

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "curate-with-care-42"


@pytest.fixture
def data():
    User = get_user_model()
    admin = User.objects.create_superuser("curator", "curator@example.com", PASSWORD)
    reader = User.objects.create_user("reader", "reader@example.com", PASSWORD, is_staff=True)
    alice_ns = Namespace.objects.create(key="user:alice", kind="user")
    bob_ns = Namespace.objects.create(key="user:bob", kind="user")

    def add(ns, text):
        return services.add_memory(actor=admin, namespace=ns, content=text, run_async=False)

    memories = {
        "jazz": add(alice_ns, "User likes jazz on Sunday mornings."),
        "dentist": add(alice_ns, "User's dentist is Dr. Okonkwo on Main Street."),
        "dentist2": add(alice_ns, "The user's dentist is Dr Okonkwo, on Main Street."),
        "garden": add(alice_ns, "User grows tomatoes in a small backyard garden."),
        "bob1": add(bob_ns, "Bob's team ships releases every second Tuesday."),
        "bob2": add(bob_ns, "Bob prefers tea over coffee."),
    }
    return {"admin": admin, "reader": reader, "alice": alice_ns, "bob": bob_ns, **memories}


def login(page, username):
    page.page.goto("/admin/login/")
    page.page.fill("#id_username", username)
    page.page.fill("#id_password", PASSWORD)
    page.page.click("input[type=submit]")
    page.page.wait_for_url(re.compile(r"/admin/$"))
    page.snap(f"logged-in-{username}")


def test_staff_curate_memories_in_the_browser(page, data):
    p = page.page
    login(page, "curator")
    assert "Mnemo" in p.title()

    # Search a memory by full text.
    p.goto("/admin/memories/memory/?q=jazz")
    page.snap("search")
    rows = p.locator("#result_list tbody tr")
    assert rows.count() == 1 and "User likes jazz" in rows.first.inner_text()

    # Edit its text: saved, re-embedded through the task after commit, the page says so.
    p.click(f"#result_list a[href*='/memories/memory/{data['jazz'].pk}/change/']")
    old_embedding = list(Memory.objects.get(pk=data["jazz"].pk).embedding)
    p.fill("#id_text", "User loves bebop jazz records and vinyl shops.")
    p.click("input[name=_continue]")
    page.snap("edited")
    assert "re-embedded" in p.locator("ul.messagelist").inner_text()
    p.reload()
    assert p.locator(".field-status_badge .mnemo-status").inner_text() == "ready"
    assert p.locator("#mnemo-neighbours .mnemo-neighbour").count() >= 3
    memory = Memory.objects.get(pk=data["jazz"].pk)
    assert memory.text == "User loves bebop jazz records and vinyl shops." and memory.status == "ready"
    assert list(memory.embedding) != old_embedding

    # Merge two duplicates from the change page: keep the first, the second goes.
    p.goto(f"/admin/memories/memory/{data['dentist'].pk}/change/")
    neighbour = p.locator("#mnemo-neighbours .mnemo-neighbour").first
    assert f"#{data['dentist2'].pk}" in neighbour.inner_text()
    similarity = float(neighbour.locator(".mnemo-similarity").inner_text())
    assert similarity > 0.9
    neighbour.locator("a.mnemo-merge").click()
    page.snap("merge-confirmation")
    assert "Merge these memories?" in p.content()
    p.click("#mnemo-confirm")
    page.snap("merged")
    assert "was merged into" in p.locator("ul.messagelist").inner_text()
    tombstone = Tombstone.objects.get(memory_id=data["dentist2"].pk)
    assert (tombstone.reason, tombstone.replaced_by_id) == ("merged", data["dentist"].pk)

    # Forget one with a reason; find it under tombstones.
    p.goto("/admin/memories/memory/?q=tomatoes")
    p.check(f"input[name=_selected_action][value='{data['garden'].pk}']")
    p.select_option("select[name=action]", "forget_with_reason")
    p.click("button[name=index]")
    page.snap("forget-confirmation")
    p.fill("#id_reason", "The user moved to a flat without a garden.")
    p.click("#mnemo-confirm")
    page.snap("forgotten")
    p.goto("/admin/memories/tombstone/")
    page.snap("tombstones")
    listing = p.locator("#result_list").inner_text()
    assert "User grows tomatoes" in listing and "The user moved to a flat without a garden." in listing

    # Grant the reader view permission on user:bob with guardian's object-permission page.
    p.goto(f"/admin/memories/namespace/{data['bob'].pk}/permissions/")
    p.fill("input[name=user]", "reader")
    p.click("input[name=submit_manage_user]")
    page.snap("user-permissions")
    p.check("input[name=permissions][value=view_namespace]")
    p.locator("form input[type=submit]").last.click()
    page.snap("granted")
    reader = get_user_model().objects.get(username="reader")
    assert reader.has_perm("memories.view_namespace", data["bob"])

    # The reader now sees exactly bob's memories.
    p.context.clear_cookies()  # log out
    login(page, "reader")
    p.goto("/admin/memories/memory/")
    page.snap("reader-changelist")
    texts = sorted(t.strip() for t in p.locator("#result_list tbody .field-text_cell").all_inner_texts())
    assert texts == sorted([data["bob1"].text, data["bob2"].text])
    assert set(visible_memories(reader).values_list("namespace__key", flat=True)) == {"user:bob"}
