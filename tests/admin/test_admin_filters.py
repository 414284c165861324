"""Every changelist filter of every admin class, fed bad values: the answer is the page, Django's
"invalid lookup" redirect (``?e=1``) or a 400, never a server error (issue 24: ``?namespace=abc``
and ``?tag=%00`` were 500s)."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client, RequestFactory
from django.urls import reverse

from memories import services
from memories.models import Memory, Namespace
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BAD_VALUES = [
    "a\x00b",  # PostgreSQL refuses NUL in text
    "abc",  # not an integer
    "-1",
    "9" * 30,  # beyond bigint
    "x" * 3000,  # very long (the request line allows about 4 KB)
    "zz-not-a-choice ü",
]


def _parameters(model_admin, request) -> list[str]:
    """The query parameters a changelist reads: each filter's, the search, ordering and paging."""
    changelist = model_admin.get_changelist_instance(request)
    names = {name for spec in changelist.filter_specs for name in spec.expected_parameters()}
    if model_admin.get_search_fields(request):
        names.add("q")
    return sorted(names | {"o", "p"})


def _changelists(root) -> list[tuple[str, list[str]]]:
    request = RequestFactory().get("/")
    request.user = root
    found = []
    for model, model_admin in admin.site._registry.items():
        if not model_admin.has_view_permission(request):
            continue
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        found.append((url, _parameters(model_admin, request)))
    return found


def test_every_filter_of_every_admin_class_answers_bad_values_without_a_server_error():
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    team = Namespace.objects.create(key="team:alpha", kind="other")
    memory = services.add_memory(actor=root, namespace=team, content="Tea at four.", run_async=False)
    # A filter with nothing to offer is not shown (nor read): give each one something.
    Memory.objects.filter(pk=memory.pk).update(tags=["tea"], source_provider="claude")
    client = Client(raise_request_exception=False)
    client.force_login(root)
    changelists = _changelists(root)
    # The ones the issue named, and one filter of each kind, are among them.
    memory_params = dict(changelists)["/admin/memories/memory/"]
    assert {"namespace", "tag", "status", "source_provider", "capture_mode__exact"} <= set(memory_params)
    assert len(changelists) >= 10
    failures = []
    for url, params in changelists:
        for param in params:
            for value in BAD_VALUES:
                response = client.get(url, {param: value})
                fine = response.status_code in (200, 400) or (
                    response.status_code == 302 and response["Location"].endswith("?e=1")
                )
                if not fine:
                    failures.append((url, param, value[:20], response.status_code))
    assert not failures, failures


@pytest.mark.parametrize(
    ("query", "status"),
    [("namespace=abc", 302), ("namespace=1e5", 302), ("tag=%00", 400), ("namespace=%00", 400), ("q=%00", 400)],
)
def test_the_reported_filters(query, status):
    root = UserFactory(is_staff=True, is_superuser=True)
    client = Client(raise_request_exception=False)
    client.force_login(root)
    response = client.get(f"/admin/memories/memory/?{query}")
    assert response.status_code == status
    if status == 302:
        assert response["Location"] == "/admin/memories/memory/?e=1"


def test_a_valid_namespace_filter_still_narrows_the_list():
    root = UserFactory(is_staff=True, is_superuser=True)
    team = Namespace.objects.create(key="team:alpha", kind="other")
    beta = Namespace.objects.create(key="team:beta", kind="other")
    kept = services.add_memory(actor=root, namespace=team, content="Tea at four.", run_async=False)
    services.add_memory(actor=root, namespace=beta, content="Coffee at nine.", run_async=False)
    client = Client()
    client.force_login(root)
    response = client.get("/admin/memories/memory/", {"namespace": str(team.pk)})
    assert [m.pk for m in response.context["cl"].result_list] == [kept.pk]
