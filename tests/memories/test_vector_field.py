"""The embedding columns' text form (memories.vector_field): 9 significant digits of each value
as float32 store, bit for bit, what pgvector-python's 17-digit text stored, for every path that
writes a vector (the ORM, remember's one statement, the embedding task's UPDATE)."""

import numpy as np
import pytest
from django.db import connection
from pgvector import Vector

from memories import services
from memories.embedding import embed_with_windows
from memories.models import Memory, MemoryChunk
from memories.permissions import ensure_user_namespace
from memories.vector_field import StoredVectorField, vector_text

pytestmark = pytest.mark.django_db


def _vectors() -> list[list[float]]:
    rng = np.random.default_rng(11)
    tiny = np.float32(1e-45)  # the smallest subnormal float32
    return [
        (rng.standard_normal(384).astype(np.float32) / 20).tolist(),  # an embedder's floats
        rng.standard_normal(384).tolist(),  # float64 values no float32 holds exactly
        [0.0, -0.0, 1, -3, float(tiny), 1e-40, 3.4028235e38, -3.4028235e38, 123456789.0, 0.1, 1 / 3],
        (rng.uniform(-1, 1, 64) * 10.0 ** rng.integers(-38, 38, 64)).tolist(),  # magnitudes far apart
    ]


def _as_postgres_reads(literal: str) -> list[str]:
    """Each value as PostgreSQL stored it (float4's shortest exact text: -0 and 0 differ)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT (%s::vector)::real[]::text", [literal])
        return cursor.fetchone()[0].strip("{}").split(",")


def test_postgres_stores_the_same_float32_values_as_pgvector_text():
    """The old text (pgvector-python's, 17 digits) and the new one are read by PostgreSQL into
    the same float32 values, sign of zero included, and the new one is shorter."""
    for vector in _vectors():
        new, old = vector_text(vector), Vector._to_db(vector)
        assert _as_postgres_reads(new) == _as_postgres_reads(old)
        assert len(new) < len(old)
        # and what numpy's cast to float32 gives, compared by bits
        stored = np.array([float(v) for v in new[1:-1].split(",")], dtype=np.float32)
        assert stored.tobytes() == np.asarray(vector, dtype=np.float32).tobytes()


def test_the_field_writes_lists_arrays_and_tuples_by_vector_text_and_the_rest_as_before():
    field = StoredVectorField(dimensions=3)
    values = [0.1, -0.2, 1 / 3]
    assert field.get_prep_value(values) == vector_text(values) == "[0.100000001,-0.200000003,0.333333343]"
    assert field.get_prep_value(tuple(values)) == vector_text(values)
    assert field.get_prep_value(np.array(values)) == vector_text(values)
    assert field.get_prep_value(None) is None
    assert field.get_prep_value(Vector(values)) == Vector._to_db(Vector(values))
    with pytest.raises(ValueError):
        field.get_prep_value([[0.1, 0.2]])
    with pytest.raises(ValueError):
        field.get_prep_value(["a number"])
    for not_finite in ([0.1, None], [float("nan")], [float("inf")], [1e39]):
        with pytest.raises(ValueError, match="finite"):
            field.get_prep_value(not_finite)


def test_every_write_path_stores_the_embedders_float32_values(user):
    """remember's statement, the ORM's create (window vectors included) and the embedding task's
    UPDATE store exactly the float32 values the embedder gave. The task wrote 7 significant
    digits before, which does not round-trip every float32: this failed then."""
    namespace = ensure_user_namespace(user)
    text = "Priya keeps the spare key to the Lisbon flat in the blue ceramic jar by the door."
    [(vector, _)] = embed_with_windows([text])
    expected = np.asarray(vector, dtype=np.float32)

    remembered = services.remember(actor=user, namespace=namespace, text=text, dedup_policy="insert")
    created = Memory.objects.create(namespace=namespace, text=text, embedding=vector, status="ready")
    MemoryChunk.objects.create(memory=created, namespace=namespace, position=0, embedding=vector)
    queued = Memory.objects.create(namespace=namespace, text=text, status="queued")
    services.write_embeddings([queued], [(vector, [])], model_name="test")

    for memory_id in (remembered.memory_id, created.id, queued.id):
        stored = np.asarray(Memory.objects.get(pk=memory_id).embedding, dtype=np.float32)
        assert stored.tobytes() == expected.tobytes(), memory_id
    chunk = np.asarray(MemoryChunk.objects.get(memory=created).embedding, dtype=np.float32)
    assert chunk.tobytes() == expected.tobytes()
