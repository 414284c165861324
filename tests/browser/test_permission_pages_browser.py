"""Finding 1 in a real browser: a staff user with change on one contact cannot grant anything on
another, while on their own contact the page offers exactly what they may hand out."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from guardian.shortcuts import assign_perm, get_perms

from tests.factories import ContactFactory, grant

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "grant-with-care-42"


@pytest.fixture
def data():
    User = get_user_model()
    eve = User.objects.create_user("eve", "eve@example.com", PASSWORD, is_staff=True)
    frank = User.objects.create_user("frank", "frank@example.com", PASSWORD)
    mine, theirs = ContactFactory(name="Mine Contact"), ContactFactory(name="Theirs Contact")
    assign_perm("view_contact", eve, mine)
    assign_perm("change_contact", eve, mine)
    grant(eve, "guardian.change_userobjectpermission")
    return {"eve": eve, "frank": frank, "mine": mine, "theirs": theirs}


def login(page, username):
    page.page.goto("/admin/login/")
    page.page.fill("#id_username", username)
    page.page.fill("#id_password", PASSWORD)
    page.page.click("input[type=submit]")
    page.page.wait_for_url(re.compile(r"/admin/$"))


def test_change_on_one_contact_cannot_grant_anything_on_another(page, data):
    p = page.page
    login(page, "eve")
    mine_url = f"/admin/contacts/contact/{data['mine'].pk}/permissions/"
    theirs_url = f"/admin/contacts/contact/{data['theirs'].pk}/permissions/"

    # Another contact's permission pages do not exist for her, by link or by typed URL.
    assert p.goto(theirs_url).status == 404
    page.snap("theirs-overview")
    assert p.goto(f"{theirs_url}user-manage/{data['eve'].pk}/").status == 404
    assert p.goto(f"{theirs_url}user-manage/{data['frank'].pk}/").status == 404
    assert "frank" not in p.content()

    # Her own contact's page: only the permissions that mean something, people found by name.
    p.goto(mine_url)
    page.snap("mine-overview")
    headers = [h.strip().lower() for h in p.locator("#user-permissions thead th").all_inner_texts()]
    assert headers == ["user", "can view contact", "can change contact", "can delete contact", "action"]
    assert "USERNAME_FIELD" not in p.content()

    # A forged POST from her session to the other contact's grant page changes nothing.
    token = p.locator("input[name=csrfmiddlewaretoken]").first.get_attribute("value")
    status = p.evaluate(
        """async ([url, token]) => {
            const body = new URLSearchParams();
            body.append('csrfmiddlewaretoken', token);
            for (const perm of ['view_contact', 'change_contact', 'delete_contact']) body.append('permissions', perm);
            const response = await fetch(url, {method: 'POST', body, credentials: 'same-origin'});
            return response.status;
        }""",
        [f"{theirs_url}user-manage/{data['eve'].pk}/", token],
    )
    assert status == 404
    assert get_perms(data["eve"], data["theirs"]) == []

    # On her own contact she grants frank what she holds herself, and nothing more is offered.
    p.fill("input[name=user]", "Frank")
    p.click("input[name=submit_manage_user]")
    p.wait_for_url(re.compile(rf"/user-manage/{data['frank'].pk}/$"))
    page.snap("manage-frank")
    offered = p.locator("input[name=permissions]")
    assert sorted(offered.evaluate_all("els => els.map(e => e.value)")) == ["change_contact", "view_contact"]
    p.check("input[name=permissions][value=view_contact]")
    p.click("#submit")
    p.wait_for_url(re.compile(rf"/user-manage/{data['frank'].pk}/$"))
    page.snap("saved")
    assert "Permissions saved." in p.locator("ul.messagelist").inner_text()
    assert get_perms(data["frank"], data["mine"]) == ["view_contact"]
    assert get_perms(data["frank"], data["theirs"]) == []
