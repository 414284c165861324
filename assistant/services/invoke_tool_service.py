"""Running a tool for a caller: registered? arguments valid by its operation's contract (the same
serializer REST uses)? allowed by the caller's critical rules? then its handler."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser

from assistant.services.tool_registry_service import tool_for
from assistant.tool_result_formatter import summarize
from contacts.permissions import check_contact_access
from core.api import check
from core.errors import InvalidInput
from toolrules.enforcement import Recipient, check_call

RECIPIENT_FIELDS = ("to", "email", "phone", "recipient", "recipients", "address", "number")


def _recipient(user: AbstractUser, arguments: dict[str, Any]) -> Recipient:
    """Whom the call reaches: the contact it names, and any address-like argument."""
    names: list[str] = []
    emails: list[str] = []
    phones: list[str] = []
    if "contact_id" in arguments:
        # Raises NOT_FOUND for a contact the caller may not view, as the handler would.
        contact = check_contact_access(user, str(arguments["contact_id"]))
        names.append(contact.name)
        emails.append(contact.email)
        phones.append(contact.phone)
    for field in RECIPIENT_FIELDS:
        values = arguments.get(field)
        for value in values if isinstance(values, list) else [values]:
            if isinstance(value, str):
                (emails if "@" in value else phones).append(value)
                names.append(value)
    return Recipient(names=tuple(names), emails=tuple(emails), phones=tuple(phones))


def invoke_tool(*, user: AbstractUser, name: str, arguments: Any) -> dict[str, Any]:
    """``{"ok": true, "result": …, "summary": "…"}``; domain errors propagate with their codes."""
    tool = tool_for(user, name)
    if not isinstance(arguments, dict):
        raise InvalidInput("arguments must be a JSON object.")
    arguments = check(tool.contract, arguments)  # defaults filled in, types converted
    check_call(user=user, tool_name=tool.name, recipient=_recipient(user, arguments))
    result = tool.handler(user, arguments)
    return {"ok": True, "result": result.data, "summary": summarize(tool, result)}
