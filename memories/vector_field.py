"""The ``embedding`` columns' model field: pgvector's ``VectorField`` with a cheaper text form.

Django's psycopg backend binds values client-side, so every stored vector goes to PostgreSQL
as pgvector's text literal. pgvector-python writes a list of floats with ``str(float(v))`` per
number: up to 17 digits each (a 384-number vector is about 8 KB of text), one Python step per
number. A stored vector is a ``real[]`` (float32), for which 9 significant digits always round
trip (FLT_DECIMAL_DIG), so this field writes the values as float32 with one ``%.9g`` format for
the whole vector: the same float32 values in the column, bit for bit (PostgreSQL reads the
17-digit text of a double into the float32 nearest that double, which is numpy's cast), in 64%
of the text and about two fifths of the client's CPU (77 against 186 µs a vector on a quiet
machine; bench/NOTES.md, 2026-12-01).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from pgvector.django import VectorField


@functools.cache
def _format(size: int) -> str:
    return ",".join(["%.9g"] * size)


def vector_text(value: Any) -> str:
    """pgvector's text literal of ``value`` (a sequence of numbers) as float32 values, each in
    9 significant digits: parsed by PostgreSQL, exactly the float32 values pgvector-python's own
    17-digit text gives. Raises ``ValueError`` / ``TypeError`` for what is not finite numbers
    (a value too large for a float32 becomes infinity, and is refused too)."""
    with np.errstate(over="ignore"):  # a value past float32's range: infinity, refused below
        array = np.asarray(value, dtype=np.float32)
    if array.ndim != 1:
        raise ValueError("expected a one-dimensional vector")
    # numpy reads None as NaN (and pgvector refuses NaN and infinity): refused here, in Python,
    # as pgvector-python's float() refused None, not by the database after a round trip.
    if not np.isfinite(array).all():
        raise ValueError("a vector's values must be finite numbers")
    return "[" + _format(array.shape[0]) % tuple(array.tolist()) + "]"


def exact_floats(value: Any) -> list[float]:
    """``value``'s float32 values as numbers for a text format (JSON): each the 9-significant-digit
    decimal of :func:`vector_text`, which reads back as the same float32 (an export with
    embeddings, imported again, stores the vectors it was made from)."""
    text = vector_text(value)
    return [float(number) for number in text[1:-1].split(",")] if len(text) > 2 else []


class StoredVectorField(VectorField):
    """A ``vector(n)`` column whose Python lists and numpy arrays are written by
    :func:`vector_text`; anything else (``None``, pgvector's ``Vector``, a literal) goes
    pgvector-python's own way."""

    def get_prep_value(self, value: Any) -> str | None:
        if isinstance(value, list | tuple | np.ndarray):
            return vector_text(value)
        return super().get_prep_value(value)
