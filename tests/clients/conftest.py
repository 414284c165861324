"""A live Mnemo for the Python client's tests, started once per module, and its callers.

The server is gunicorn on a free port against the test database (``tests.support.live_mnemo_server``).
The module's data is committed as it is written (the server must see it) and flushed once when the
module is done; each test makes its own users, so tests do not see each other's data.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.core.management import call_command
from django.db import connection

from tests.factories import UserFactory, token_for
from tests.support import live_mnemo_server


@pytest.fixture(scope="module")
def committed(django_db_setup, django_db_blocker) -> Iterator[None]:
    """Database access for the whole module, in autocommit; everything is flushed at its end.

    pytest-django makes the test database only when a selected test asks for it: each live
    module has one ``@pytest.mark.django_db`` test for that (as tests/mcp does)."""
    if not connection.settings_dict["NAME"].startswith("test_"):
        pytest.fail("no selected test asked for the test database: select the module's @pytest.mark.django_db test too")
    with django_db_blocker.unblock():
        yield
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(scope="module")
def mnemo_url(committed, tmp_path_factory) -> Iterator[str]:
    with live_mnemo_server(tmp_path_factory.mktemp("client-server")) as server:
        yield server.base


@dataclass
class Caller:
    user: object
    token: str


@pytest.fixture
def caller(committed) -> Caller:
    """A fresh superuser (every operation reachable: contacts, shared rules) and its token."""
    user = UserFactory(is_staff=True, is_superuser=True)
    return Caller(user=user, token=token_for(user, name="client"))


@pytest.fixture
def plain_caller(committed) -> Caller:
    """A fresh user without any model permission."""
    user = UserFactory()
    return Caller(user=user, token=token_for(user, name="client"))
