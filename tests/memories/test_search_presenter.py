"""Search's results are built as plain dicts (``memories.api.serializers.search_results``, issue 25)
and must stay exactly what ``SearchResultOutput`` (the documented output) makes of the same hits:
every field, type, null and date format, in any active time zone, for real hits of every mode."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from memories import selectors
from memories.api.serializers import SearchResultOutput, search_results
from memories.models import Memory, Namespace
from memories.services import embed_queued_memories

pytestmark = pytest.mark.django_db


def _hits(mode: str) -> list[selectors.SearchHit]:
    namespace = Namespace.objects.create(key="agent:presenter", kind="agent")
    now = timezone.now()
    rows = [
        Memory(namespace=namespace, text="Ana keeps her boat moored in Cascais.", status=Memory.Status.QUEUED),
        Memory(
            namespace=namespace,
            text="The boat's engine was serviced in Porto — “twice”.",
            status=Memory.Status.QUEUED,
            tags=["boat", "engine"],
            metadata={"n": 3, "where": {"city": "Porto"}, "ok": True, "none": None, "x": 1.5},
            valid_from=now - timedelta(days=3, microseconds=17),
            valid_until=now + timedelta(days=30),
        ),
        Memory(
            namespace=namespace,
            text="Boats need a mooring permit.",
            status=Memory.Status.QUEUED,
            metadata={"tags": ["a", "b"]},
        ),
    ]
    Memory.objects.bulk_create(rows)
    embed_queued_memories(ids=[r.id for r in rows])
    Memory.objects.filter(id=rows[2].id).update(last_confirmed_at=now - timedelta(hours=5))
    return selectors.search_memories(namespace_ids=[namespace.id], query="boat moored", limit=10, mode=mode)


@pytest.mark.parametrize("mode", ["hybrid", "vector", "keyword"])
@pytest.mark.parametrize("zone", [None, "Europe/Lisbon", "America/St_Johns"])
def test_the_plain_results_are_the_serializers_output(mode, zone):
    hits = _hits(mode)
    assert len(hits) >= 2
    with timezone.override(zone) if zone else timezone.override(timezone.get_default_timezone()):
        expected = SearchResultOutput(hits, many=True).data
        got = search_results(hits)
    assert json.dumps(got) == json.dumps(expected)  # the same keys in the same order, the same values
    assert [type(v) for r in got for v in r.values()] == [type(v) for r in expected for v in r.values()]
    assert search_results([]) == []
