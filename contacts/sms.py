"""SMS backends, chosen by ``MNEMO_SMS_BACKEND`` the way Django chooses its email backend.

A backend has ``send_messages(messages) -> int``. Mnemo ships a console backend (the default:
writes each SMS to the log, sends nothing anywhere) and a local-memory backend (keeps them in
``contacts.sms.outbox``, for tests and demos). A deployment adds its provider's backend (Twilio,
Vonage, ...) with the same method and names it in the setting.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.utils.module_loading import import_string

logger = logging.getLogger("mnemo.sms")

#: What the local-memory backend has "sent", oldest first.
outbox: list[SmsMessage] = []


@dataclass(frozen=True)
class SmsMessage:
    to: str
    body: str
    message_id: str


class ConsoleSmsBackend:
    """Writes each SMS to the ``mnemo.sms`` log instead of sending it."""

    def send_messages(self, messages: list[SmsMessage]) -> int:
        for message in messages:
            logger.info("SMS to %s (%s): %s", message.to, message.message_id, message.body)
        return len(messages)


class LocMemSmsBackend:
    """Keeps messages in ``contacts.sms.outbox``."""

    def send_messages(self, messages: list[SmsMessage]) -> int:
        outbox.extend(messages)
        return len(messages)


def get_sms_backend() -> ConsoleSmsBackend | LocMemSmsBackend:
    return import_string(settings.MNEMO_SMS_BACKEND)()
