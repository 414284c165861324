"""Migration 0002: rules with a typographic apostrophe get the new fingerprint, unless another rule
of the same owner and tool already holds it (then both stay as they were)."""

import hashlib
import importlib
import re

import pytest
from django.apps import apps

from tests.factories import UserFactory
from toolrules.models import ToolMemoryRule, rule_fingerprint

migration = importlib.import_module("toolrules.migrations.0002_fingerprint_typographic_apostrophes")
pytestmark = pytest.mark.django_db


def old_fingerprint(rule: str) -> str:
    normal = re.sub(r"\s+", " ", rule.strip().lower()).rstrip(".!;")
    return hashlib.sha256(normal.encode()).hexdigest()[:32]


def stored_before(**fields) -> ToolMemoryRule:
    """A row as the old code stored it (bulk_create skips save(), which would fingerprint anew)."""
    [rule] = ToolMemoryRule.objects.bulk_create([ToolMemoryRule(fingerprint=old_fingerprint(fields["rule"]), **fields)])
    return rule


def test_refingerprint():
    user = UserFactory()
    curly = stored_before(owner=user, tool_name="send_sms", rule="Don\u2019t text Bob")
    plain = stored_before(owner=user, tool_name="send_email", rule="Don't email Bob")
    twin = stored_before(owner=user, tool_name="send_email", rule="Don\u2019t email Bob")
    migration.refingerprint(apps, None)

    fingerprints = dict(ToolMemoryRule.objects.values_list("pk", "fingerprint"))
    assert fingerprints[curly.pk] == rule_fingerprint("Don't text Bob")
    assert fingerprints[plain.pk] == rule_fingerprint("Don't email Bob")
    assert fingerprints[twin.pk] == old_fingerprint("Don\u2019t email Bob")  # would collide: left alone
    assert migration._fingerprint("Don\u2019t  text BOB.") == rule_fingerprint("Don\u2019t  text BOB.")
