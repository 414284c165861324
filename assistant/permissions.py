"""Assistant sessions are their user's alone, on core's permission layer."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AbstractUser

from assistant.models import AssistantSession
from core import permissions as layer

layer.register(layer.OwnerPolicy(AssistantSession, owner_field="user", private=True))


def get_session(user: AbstractUser, session_id: uuid.UUID | str) -> AssistantSession:
    """The caller's session; anyone else's answers like a missing one."""
    return layer.get_for_user(
        AssistantSession, user, "view", pk=layer.parse_uuid(session_id), not_found=f"Session {session_id} not found."
    )
