"""remember's write in fewer round trips (issue 25): one candidate statement (memories and
tombstones), one statement for the row, its window vectors and its ``add`` event. It stores what
``Memory.objects.create`` stored, and a failure anywhere in it stores nothing."""

from datetime import timedelta

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from memories import services
from memories.embedding import embed_with_windows
from memories.models import Memory, MemoryChunk, MemoryEvent, Tombstone
from memories.permissions import ensure_user_namespace

pytestmark = pytest.mark.django_db
URL = "/api/v1/memories/remember"
COMPARED = [
    f.attname
    for f in Memory._meta.concrete_fields
    if f.attname not in {"id", "event_id", "created_at", "updated_at", "embedded_at", "last_confirmed_at"}
]


def _row(memory_id: int) -> dict:
    return Memory.objects.filter(pk=memory_id).values(*COMPARED).get()


def test_the_row_is_the_one_create_writes(user):
    """Every column (the generated search vector included) as ``_insert_ready`` (the ORM's
    create) writes it from the same inputs; the timestamps are set and ordered."""
    namespace = ensure_user_namespace(user)
    text = "Kenji at Globex booked a table at Nostrana for June 22 (party of 4)."
    [(vector, windows)] = embed_with_windows([text])
    fields = {
        "tags": ["food", "globex"],
        "source_provider": "claude",
        "importance": 0.7,
        "capture_mode": "explicit",
        "session_id": "s-1",
        "expires_at": timezone.now() + timedelta(days=3),
        "last_confirmed_at": timezone.now(),
        "metadata": {"where": "Portland", "n": [1, 2]},
        "created_by": user,
        "valid_from": timezone.now() - timedelta(days=1),
        "valid_until": timezone.now() + timedelta(days=2),
    }
    orm = services._insert_ready(namespace=namespace, text=text, vector=vector, windows=windows, model="m", **fields)
    fast = services._insert_remembered(
        event=None, namespace=namespace, text=text, vector=vector, windows=windows, model="m", **fields
    )
    assert fast.pk and fast.pk != orm.pk and not fast._state.adding
    assert _row(fast.pk) == _row(orm.pk)
    stored = Memory.objects.get(pk=fast.pk)
    assert stored.event_id == fast.event_id and stored.event_id != orm.event_id
    assert stored.created_at == fast.created_at and stored.updated_at == fast.updated_at
    assert stored.embedded_at == fast.embedded_at and stored.search_vector
    assert not MemoryEvent.objects.filter(memory_id=fast.pk).exists()  # event=None: the caller writes it


def test_a_long_text_keeps_its_window_vectors(token_client):
    text = " ".join(f"Item {i}: the user bought a {('red', 'blue', 'green')[i % 3]} mug." for i in range(120))
    [(_, windows)] = embed_with_windows([text])
    assert len(windows) >= 2
    body = token_client.post(URL, {"text": text, "dedup_policy": "insert"}, format="json").json()
    chunks = list(MemoryChunk.objects.filter(memory_id=body["memory_id"]).order_by("position"))
    assert [c.position for c in chunks] == list(range(len(windows)))
    memory = Memory.objects.get(pk=body["memory_id"])
    assert all(c.namespace_id == memory.namespace_id for c in chunks)
    for chunk, window in zip(chunks, windows, strict=True):
        assert np.array_equal(np.asarray(chunk.embedding, dtype=np.float32), np.asarray(window, dtype=np.float32))


def test_the_add_event_is_written_with_the_row(token_client, user):
    token_client.post(URL, {"text": "User's office is in Berlin."}, format="json")
    body = token_client.post(URL, {"text": "User's office is in Munich."}, format="json").json()
    [event] = MemoryEvent.objects.filter(memory_id=body["memory_id"])
    old = Memory.objects.exclude(pk=body["memory_id"]).get()
    assert event.event_type == "add" and event.actor_id == user.pk
    assert event.old_text == "" and event.new_text == "User's office is in Munich."
    assert event.data == {"via": "remember", "supersedes": [], "contradicts": [old.pk]}
    assert event.created_at >= Memory.objects.get(pk=body["memory_id"]).created_at


def test_three_statements_in_the_transaction(token_client, user):
    """The namespace's lock, the candidates (memories and tombstones) and the write: five round
    trips with BEGIN and COMMIT, where there were seven."""
    namespace = ensure_user_namespace(user)
    Tombstone.objects.create(namespace=namespace, text="User likes tea.", embedding=embed_with_windows(["x"])[0][0])
    token_client.post(URL, {"text": "User likes coffee."}, format="json")  # warm: token, namespace
    with CaptureQueriesContext(connection) as queries:
        response = token_client.post(URL, {"text": "User likes green tea."}, format="json")
    assert response.status_code == 201
    # In a test the transaction is a savepoint of the test's: its statements are not remember's.
    sql = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    start = next(i for i, s in enumerate(sql) if "FOR NO KEY UPDATE" in s)
    inside = sql[start:]
    assert len(inside) == 3, inside
    assert "memories_memory" in inside[1] and "memories_tombstone" in inside[1]
    assert "memories_memoryevent" in inside[2]


@pytest.mark.django_db(transaction=True)
def test_a_failed_history_write_stores_nothing(token_client):
    """The event's insert fails inside the one statement (a real database error, raised by a
    trigger): 503 DATABASE_ERROR, and neither the row nor its window vectors are there."""
    with connection.cursor() as cursor:
        cursor.execute(
            """CREATE FUNCTION test_refuse_event() RETURNS trigger LANGUAGE plpgsql AS
               $$ BEGIN RAISE EXCEPTION 'refused'; END $$;
               CREATE TRIGGER test_refuse_event BEFORE INSERT ON memories_memoryevent
               FOR EACH ROW EXECUTE FUNCTION test_refuse_event();"""
        )
    try:
        text = " ".join(f"Step {i}: the user moved the {('chair', 'desk')[i % 2]} again." for i in range(120))
        response = token_client.post(URL, {"text": text}, format="json")
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TRIGGER test_refuse_event ON memories_memoryevent; DROP FUNCTION test_refuse_event();")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "DATABASE_ERROR"
    assert Memory.objects.count() == 0 and MemoryChunk.objects.count() == 0 and MemoryEvent.objects.count() == 0


def test_near_duplicates_are_presented_as_the_serializer_did(token_client):
    """remember_body's plain near_duplicates: the same JSON, keys and value types as
    NearDuplicateOutput(many=True).data, the documented output."""
    import json

    from memories.api.serializers import NearDuplicateOutput, remember_body
    from memories.services import Near, RememberResult

    token_client.post(URL, {"text": "User's Linear team ID is TEAM-123."}, format="json")
    body = token_client.post(URL, {"text": "The user's Linear team ID is TEAM-123."}, format="json").json()
    assert body["near_duplicates"] and set(body["near_duplicates"][0]) == {"memory_id", "text", "similarity"}
    near = [Near(id=7, text="a ü text", similarity=0.9731, extra={}), Near(id=8, text="b", similarity=1.0, extra={})]
    for items in (near, []):
        result = RememberResult(1, "Ok", items, [], [])
        plain = remember_body(result)["near_duplicates"]
        drf = NearDuplicateOutput(items, many=True).data
        assert json.dumps(plain) == json.dumps(drf)
        assert [[type(v) for v in d.values()] for d in plain] == [[type(v) for v in d.values()] for d in drf]


def test_supersedes_and_corrections_are_presented_as_the_serializers_did():
    """remember_body's plain supersedes and previously_corrected: the same JSON, keys, order and
    value types as SupersedesOutput / PreviouslyCorrectedOutput(many=True).data, None included."""
    import json
    from datetime import UTC, datetime

    from memories.api.serializers import PreviouslyCorrectedOutput, SupersedesOutput, remember_body
    from memories.services import Near, RememberResult

    at = datetime(2026, 3, 4, 5, 6, 7, 891011, tzinfo=UTC)
    supersedes = [
        Near(
            7,
            "Alice lives in Paris",
            0.8123,
            {"old_values": ["Paris"], "new_values": ["Berlin", "Köln"], "closed": False, "valid_until": None},
        ),
        Near(8, "b", 1.0, {"old_values": [], "new_values": ["X"], "closed": True, "valid_until": at}),
    ]
    corrected = [
        Near(
            3,
            "old ü",
            0.95,
            {"reason": "wrong", "kind": "corrected", "replaced_by": 12, "memory_id": 4, "forgotten_at": at},
        ),
        Near(
            5,
            "gone",
            0.9,
            {"reason": "", "kind": "forgotten", "replaced_by": None, "memory_id": None, "forgotten_at": at},
        ),
    ]
    body = remember_body(RememberResult(1, "Ok", None, corrected, supersedes))
    for plain, drf in (
        (body["supersedes"], SupersedesOutput(supersedes, many=True).data),
        (body["previously_corrected"], PreviouslyCorrectedOutput(corrected, many=True).data),
    ):
        assert json.dumps(plain) == json.dumps(drf)
        assert [[type(v) for v in d.values()] for d in plain] == [[type(v) for v in d.values()] for d in drf]
    assert "supersedes" not in remember_body(RememberResult(1, "Ok", None, [], []))


def test_vector_literal_is_the_per_number_format():
    """_vector_literal's one %-format gives the string the f-string per number gave, for the
    embedder's floats and for ints, numpy floats, tiny and huge magnitudes, and other lengths."""
    from memories.selectors import _vector_literal

    rng = np.random.default_rng(5)
    vectors = [
        (rng.standard_normal(384).astype(np.float32) / 20).tolist(),
        [0.0, -0.0, 1, -3, 1e-30, 3.4e38, 123456789.0, 0.5, -1.25e-7],
        list(rng.standard_normal(7).astype(np.float32)),
        [],
    ]
    for vector in vectors:
        assert _vector_literal(vector) == "[" + ",".join(f"{x:.7g}" for x in vector) + "]"
