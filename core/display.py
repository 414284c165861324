"""How the admin and the staff pages show moments: short enough never to be cut, exact on hover."""

from __future__ import annotations

from datetime import UTC, datetime

from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString


def age(value: datetime | None, *, now: datetime | None = None) -> str:
    """How long ago, in one short unit: "just now", "12 min", "5 h", "3 d", "7 mo", "2 y"."""
    if value is None:
        return "—"
    seconds = max(0, int(((now or timezone.now()) - value).total_seconds()))
    for unit, size in (("y", 365 * 86400), ("mo", 30 * 86400), ("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds // size} {unit}"
    return "just now"


def moment(value: datetime | None) -> SafeString | str:
    """A compact UTC timestamp ("2026-11-22 15:20") with the exact moment as a tooltip."""
    if value is None:
        return "—"
    value = value.astimezone(UTC) if timezone.is_aware(value) else value
    return format_html(
        '<time class="mnemo-moment" datetime="{}" title="{}">{}</time>',
        value.isoformat(),
        value.strftime("%Y-%m-%d %H:%M:%S UTC"),
        value.strftime("%Y-%m-%d %H:%M"),
    )


def age_html(value: datetime | None) -> SafeString | str:
    """:func:`age`, with the exact moment as a tooltip."""
    if value is None:
        return "—"
    utc = value.astimezone(UTC)
    return format_html(
        '<time class="mnemo-moment" datetime="{}" title="{}">{}</time>',
        utc.isoformat(),
        utc.strftime("%Y-%m-%d %H:%M:%S UTC"),
        age(value),
    )
