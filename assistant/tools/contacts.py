"""Contact tools (seed 000): details, memory, messages, and SMS / email with preview-then-confirm."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser

from assistant.tools.base import Tool, ToolResult
from contacts import permissions, selectors, services
from contacts.api.serializers import (
    ContactMemoryInput,
    ContactMessagesInput,
    ContactOutput,
    ContactRefInput,
    MessageOutput,
    SendEmailInput,
    SendSmsInput,
)


def _contact(user: AbstractUser, arguments: dict[str, Any]):
    # check_contact_access: a contact the caller may not view answers exactly like a missing one.
    return permissions.check_contact_access(user, str(arguments["contact_id"]))


def can_view_contacts(user: AbstractUser) -> bool:
    return permissions.can_view_contacts(user)


def can_load_contact_memory(user: AbstractUser) -> bool:
    return permissions.can_view_contacts(user) and permissions.can_list_contact_notes(user)


def get_contact_details(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    contact = _contact(user, arguments)
    data = dict(ContactOutput(contact).data)
    data["deep_link"] = f"/contacts/{contact.id}"
    return ToolResult(data=data, label=contact.label)


def get_contact_memory(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    contact = _contact(user, arguments)
    data = selectors.contact_memory(contact=contact)
    state = f"has memory, updated {data['updated_at']}" if data["has_memory"] else "no memory"
    return ToolResult(data=data, label=contact.label, state=state)


def get_contact_messages(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    contact = _contact(user, arguments)
    messages = list(selectors.contact_messages(contact=contact, limit=arguments.get("limit", 20)))
    data = {"contact_id": str(contact.id), "messages": MessageOutput(messages, many=True).data}
    return ToolResult(data=data, label=contact.label, count=len(messages))


def _outbound_data(outbound: services.Outbound) -> dict[str, Any]:
    data: dict[str, Any] = {
        "contact_id": str(outbound.contact.id),
        "channel": outbound.channel,
        "to": outbound.to,
        "body": outbound.body,
        "confirmed": outbound.confirmed,
        "sent": outbound.message is not None and outbound.message.status == "sent",
    }
    if outbound.channel == "email":
        data["subject"] = outbound.subject
    if outbound.message is not None:
        data["message_id"] = str(outbound.message.id)
        data["status"] = outbound.message.status
    return data


def send_sms(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    contact = _contact(user, arguments)
    outbound = services.send_sms(
        actor=user, contact=contact, body=arguments["body"], confirmed=arguments.get("confirmed", False)
    )
    data = _outbound_data(outbound)
    if not outbound.confirmed:
        did = f"prepared an SMS preview for {contact.label} ({len(outbound.body)} characters); nothing was sent"
    elif data["sent"]:
        did = f"sent an SMS to {contact.label}"
    else:
        did = f"could not send the SMS to {contact.label} ({outbound.message.error if outbound.message else ''})"
    return ToolResult(data=data, label=contact.label, did=did)


def send_email(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    contact = _contact(user, arguments)
    outbound = services.send_email(
        actor=user,
        contact=contact,
        subject=arguments.get("subject", ""),
        body=arguments["body"],
        confirmed=arguments.get("confirmed", False),
    )
    data = _outbound_data(outbound)
    if not outbound.confirmed:
        did = f"prepared an email preview for {contact.label}; nothing was sent"
    elif data["sent"]:
        did = f"sent an email to {contact.label}"
    else:
        did = f"could not send the email to {contact.label}"
    return ToolResult(data=data, label=contact.label, did=did)


TOOLS = [
    Tool(
        name="get_contact_details",
        description="Load a contact's details: name, phone, email, company and the CRM's other fields.",
        contract=ContactRefInput,
        ui_label="Loading contact details",
        direction="read-only",
        tool_class="detail",
        noun="contact details",
        is_available=can_view_contacts,
        handler=get_contact_details,
    ),
    Tool(
        name="get_contact_memory",
        description=(
            "Load a contact's saved memory note: preferences, history and context accumulated over time. "
            "Load it before drafting messages to or analyzing a contact."
        ),
        contract=ContactMemoryInput,
        ui_label="Loading contact memory",
        direction="read-only",
        tool_class="detail",
        noun="contact memory",
        is_available=can_load_contact_memory,
        handler=get_contact_memory,
    ),
    Tool(
        name="get_contact_messages",
        description="Load the recent conversation with a contact (SMS, email, calls), newest first.",
        contract=ContactMessagesInput,
        ui_label="Loading contact messages",
        direction="read-only",
        tool_class="list",
        noun="messages",
        is_available=can_view_contacts,
        handler=get_contact_messages,
    ),
    Tool(
        name="send_sms",
        description=(
            "Send an SMS to a contact. Call it with confirmed=false first to preview; only confirmed=true sends."
        ),
        contract=SendSmsInput,
        ui_label="Sending SMS",
        direction="write",
        tool_class="action",
        is_available=can_view_contacts,
        handler=send_sms,
    ),
    Tool(
        name="send_email",
        description=(
            "Send an email to a contact. Call it with confirmed=false first to preview; only confirmed=true sends."
        ),
        contract=SendEmailInput,
        ui_label="Sending email",
        direction="write",
        tool_class="action",
        is_available=can_view_contacts,
        handler=send_email,
    ),
]
