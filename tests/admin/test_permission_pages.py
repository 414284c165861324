"""guardian's object-permission pages and the contact-note admin, through the permission layer.

Finding 1: a staff user with change on ONE contact could grant anything on any other. Finding 6:
the note admin listed every contact and wrote notes onto contacts the staff user could not see.
Issue 15 point 6: the pages show only the permissions that mean something, and find people by
name.
"""

from __future__ import annotations

import pytest
from django.test import Client
from guardian.shortcuts import assign_perm, get_perms

from contacts.models import ContactNote
from memories.models import Namespace
from tests.factories import ContactFactory, ContactNoteFactory, NamespaceFactory, UserFactory, grant

pytestmark = pytest.mark.django_db


def staff_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def perms_url(obj, *rest: object) -> str:
    opts = obj._meta
    url = f"/admin/{opts.app_label}/{opts.model_name}/{obj.pk}/permissions/"
    return url + "".join(f"{part}/" for part in rest)


@pytest.fixture
def setup():
    """eve: staff, may change contact ``mine`` and manage user permissions; ``theirs`` is not hers;
    she may view ``peek`` but not change it."""
    eve = UserFactory(username="eve", is_staff=True)
    frank = UserFactory(username="frank", email="Frank.Ocean@example.com")
    mine, theirs, peek = ContactFactory(name="Mine"), ContactFactory(name="Theirs"), ContactFactory(name="Peek")
    assign_perm("view_contact", eve, mine)
    assign_perm("change_contact", eve, mine)
    assign_perm("view_contact", eve, peek)
    grant(eve, "guardian.change_userobjectpermission")
    return {"eve": eve, "frank": frank, "mine": mine, "theirs": theirs, "peek": peek}


# --- finding 1 ------------------------------------------------------------------------------------


def test_change_on_one_contact_grants_nothing_on_another(setup):
    eve, theirs = setup["eve"], setup["theirs"]
    client = staff_client(eve)
    everything = {"permissions": ["view_contact", "change_contact", "delete_contact"]}
    for who in (eve, setup["frank"]):
        url = perms_url(theirs, "user-manage", who.pk)
        assert client.get(url).status_code == 404
        assert client.post(url, everything).status_code == 404
        assert get_perms(who, theirs) == []
    assert client.get(perms_url(theirs)).status_code == 404
    assert client.post(perms_url(theirs), {"user": "eve", "submit_manage_user": "1"}).status_code == 404


def test_viewing_a_contact_is_not_managing_it(setup):
    client = staff_client(setup["eve"])
    assert client.get(perms_url(setup["peek"])).status_code == 403
    url = perms_url(setup["peek"], "user-manage", setup["eve"].pk)
    assert client.post(url, {"permissions": ["change_contact"]}).status_code == 403
    assert get_perms(setup["eve"], setup["peek"]) == ["view_contact"]


def test_changing_a_contact_without_the_right_to_manage_permissions_is_not_enough(setup):
    eve = setup["eve"]
    eve.user_permissions.clear()
    client = staff_client(eve)
    assert client.get(perms_url(setup["mine"])).status_code == 403
    page = client.get(perms_url(setup["mine"], "user-manage", setup["frank"].pk))
    assert page.status_code == 403 and b"frank" not in page.content


def test_a_manager_grants_only_what_they_hold_on_that_contact(setup):
    eve, frank, mine = setup["eve"], setup["frank"], setup["mine"]
    client = staff_client(eve)
    chosen = client.post(perms_url(mine), {"user": "FRANK", "submit_manage_user": "Manage user"})
    assert chosen.status_code == 302 and chosen["Location"] == perms_url(mine, "user-manage", frank.pk)
    form = client.get(chosen["Location"])
    offered = [value for value, _ in form.context["form"].fields["permissions"].choices]
    assert offered == ["view_contact", "change_contact"]  # eve holds no delete_contact on it
    refused = client.post(chosen["Location"], {"permissions": ["view_contact", "delete_contact"]})
    assert refused.status_code == 200 and get_perms(frank, mine) == []
    saved = client.post(chosen["Location"], {"permissions": ["view_contact"]})
    assert saved.status_code == 302 and get_perms(frank, mine) == ["view_contact"]


def test_a_superuser_manages_any_object():
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    contact, frank = ContactFactory(), UserFactory(username="frank")
    client = staff_client(root)
    url = perms_url(contact, "user-manage", frank.pk)
    assert client.post(url, {"permissions": ["view_contact", "delete_contact"]}).status_code == 302
    assert sorted(get_perms(frank, contact)) == ["delete_contact", "view_contact"]


def test_namespace_pages_need_write_on_that_namespace():
    eve, frank = UserFactory(username="eve", is_staff=True), UserFactory(username="frank")
    alpha, beta, hidden = (NamespaceFactory(key=k) for k in ("team:alpha", "team:beta", "team:hidden"))
    for perm in ("view_namespace", "write_namespace"):
        assign_perm(perm, eve, alpha)
    assign_perm("view_namespace", eve, beta)
    grant(eve, "guardian.change_userobjectpermission")
    client = staff_client(eve)
    assert client.get(perms_url(hidden)).status_code == 404
    assert client.get(perms_url(beta)).status_code == 403
    assert (
        client.post(perms_url(alpha, "user-manage", frank.pk), {"permissions": ["view_namespace"]}).status_code == 302
    )
    assert get_perms(frank, alpha) == ["view_namespace"]
    assert get_perms(frank, beta) == get_perms(frank, hidden) == []


def test_group_pages_need_the_group_right_too(setup):
    from tests.factories import GroupFactory

    group = GroupFactory(name="sales")
    client = staff_client(setup["eve"])
    url = perms_url(setup["mine"], "group-manage", group.pk)
    assert client.post(url, {"permissions": ["view_contact"]}).status_code == 403
    grant(setup["eve"], "guardian.change_groupobjectpermission")
    assert client.post(url, {"permissions": ["view_contact"]}).status_code == 302
    assert get_perms(group, setup["mine"]) == ["view_contact"]


# --- issue 15 point 6: pages that read well -------------------------------------------------------


def test_the_pages_show_only_meaningful_permissions_and_find_people_by_name():
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    frank = UserFactory(username="frank", email="frank@example.com")
    team = NamespaceFactory(key="team:alpha")
    assign_perm("view_namespace", frank, team)
    client = staff_client(root)
    page = client.get(perms_url(team))
    content = page.content.decode()
    assert [p.codename for p in page.context["model_perms"]] == ["view_namespace", "write_namespace"]
    assert "Can add namespace" not in content and "Can delete namespace" not in content
    assert "USERNAME_FIELD" not in content and "Username" in content
    assert "frank" in content  # who holds what on it
    for typed in ("frank", "Frank", "frank@example.com"):
        found = client.post(perms_url(team), {"user": typed, "submit_manage_user": "1"})
        assert found.status_code == 302 and found["Location"].endswith(f"/user-manage/{frank.pk}/"), typed
    unknown = client.post(perms_url(team), {"user": "nobody-here", "submit_manage_user": "1"})
    assert "There is no user with this username or email address." in unknown.content.decode()
    form = client.get(perms_url(team, "user-manage", frank.pk))
    assert [v for v, _ in form.context["form"].fields["permissions"].choices] == ["view_namespace", "write_namespace"]
    contact = ContactFactory()
    contact_page = client.get(perms_url(contact))
    assert [p.codename for p in contact_page.context["model_perms"]] == [
        "view_contact",
        "change_contact",
        "delete_contact",
    ]


def test_unknown_user_ids_are_not_found(setup):
    client = staff_client(setup["eve"])
    assert client.get(perms_url(setup["mine"], "user-manage", 987654)).status_code == 404
    assert client.get(perms_url(setup["mine"], "user-manage", "x")).status_code == 404


# --- finding 6: the contact-note admin ------------------------------------------------------------


@pytest.fixture
def note_staff(setup):
    eve = setup["eve"]
    grant(eve, "contacts.view_contactnote", "contacts.add_contactnote", "contacts.change_contactnote")
    return eve


def test_the_note_list_shows_only_notes_of_contacts_the_staff_user_may_see(setup, note_staff):
    visible = ContactNoteFactory(contact=setup["mine"], body="On mine.")
    ContactNoteFactory(contact=setup["theirs"], body="On theirs.")
    client = staff_client(note_staff)
    page = client.get("/admin/contacts/contactnote/")
    assert [n.pk for n in page.context["cl"].result_list] == [visible.pk]
    hidden = ContactNote.objects.get(body="On theirs.")
    assert client.get(f"/admin/contacts/contactnote/{hidden.pk}/change/").status_code == 302


def test_a_note_can_be_written_only_onto_a_contact_the_staff_user_may_change(setup, note_staff):
    client = staff_client(note_staff)
    form = client.get("/admin/contacts/contactnote/add/")
    choices = {str(value) for value, _ in form.context["adminform"].form.fields["contact"].choices if value}
    assert choices == {str(setup["mine"].pk)}
    for target in (setup["theirs"], setup["peek"]):
        refused = client.post("/admin/contacts/contactnote/add/", {"contact": str(target.pk), "body": "Injected."})
        assert refused.status_code == 200 and "Select a valid choice" in refused.content.decode()
    assert not ContactNote.objects.filter(body="Injected.").exists()
    added = client.post(
        "/admin/contacts/contactnote/add/", {"contact": str(setup["mine"].pk), "body": "Calls back.", "kind": "memory"}
    )
    assert added.status_code == 302
    note = ContactNote.objects.get(body="Calls back.")
    assert note.kind == ContactNote.Kind.NOTE and note.author == note_staff


def test_adding_a_note_never_tells_whether_a_memory_note_exists(setup, note_staff):
    ContactNoteFactory(contact=setup["mine"], kind=ContactNote.Kind.MEMORY, body="The memory note.")
    client = staff_client(note_staff)
    response = client.post(
        "/admin/contacts/contactnote/add/", {"contact": str(setup["mine"].pk), "body": "Another.", "kind": "memory"}
    )
    assert response.status_code == 302
    assert "already exists" not in response.content.decode() and "constraint" not in response.content.decode()
    assert ContactNote.objects.filter(contact=setup["mine"], kind="memory").count() == 1


def test_a_notes_contact_cannot_be_moved(setup, note_staff):
    note = ContactNoteFactory(contact=setup["mine"], body="Stays.")
    client = staff_client(note_staff)
    client.post(f"/admin/contacts/contactnote/{note.pk}/change/", {"contact": str(setup["theirs"].pk), "body": "Moved"})
    note.refresh_from_db()
    assert note.contact == setup["mine"]


def test_namespace_choice_fields_offer_only_writable_namespaces():
    """Any admin foreign key to a guarded model offers only objects the staff user may change."""
    from django.contrib import admin as django_admin
    from django.test import RequestFactory

    from memories.models import Tombstone

    eve = UserFactory(username="eve", is_staff=True)
    writable, readable = NamespaceFactory(key="team:w"), NamespaceFactory(key="team:r")
    assign_perm("view_namespace", eve, readable)
    for perm in ("view_namespace", "write_namespace"):
        assign_perm(perm, eve, writable)
    request = RequestFactory().get("/admin/")
    request.user = eve
    model_admin = django_admin.site._registry[Tombstone]
    field = model_admin.formfield_for_foreignkey(Tombstone._meta.get_field("namespace"), request)
    # The tombstone admin shows the field read-only; were it editable, it would offer only these.
    assert set(field.queryset) == {writable, Namespace.objects.get(key="user:eve")}
