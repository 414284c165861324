"""Small SVG charts rendered on the server: no script, no CDN, readable offline and in print."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

COLOUR = "#417690"  # the admin's own blue


def _n(value: float) -> str:
    """A coordinate, to a tenth of a pixel (format_html escapes its arguments first, so no format codes)."""
    return f"{value:.1f}"


def bars(
    items: list[tuple[str, float]], *, width: int = 360, height: int = 120, unit: str = "", labels_every: int = 1
) -> SafeString:
    """Vertical bars, one per (label, value), with the value on hover and every n-th label below."""
    if not items:
        return format_html('<p class="mnemo-empty">{}</p>', "nothing yet")
    top = max(value for _, value in items) or 1
    slot = width / len(items)
    plot = height - 16
    rects = format_html_join(
        "",
        '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}: {}{}</title></rect>',
        (
            (
                _n(i * slot + slot * 0.1),
                _n(plot - plot * value / top),
                _n(slot * 0.8),
                _n(plot * value / top),
                COLOUR,
                label,
                value,
                unit,
            )
            for i, (label, value) in enumerate(items)
        ),
    )
    ticks = format_html_join(
        "",
        '<text x="{}" y="{}" font-size="10" text-anchor="{}" fill="currentColor">{}</text>',
        (
            # The first label starts at the edge rather than being centred past it.
            (_n(i * slot + slot / 2) if i else 0, height - 3, "middle" if i else "start", label)
            for i, (label, _) in enumerate(items)
            if i % labels_every == 0
        ),
    )
    return format_html(
        '<svg class="mnemo-chart" role="img" viewBox="0 0 {} {}" width="{}" height="{}" '
        'aria-label="bar chart, highest {}{}">{}{}</svg>',
        width,
        height,
        width,
        height,
        top,
        unit,
        rects,
        ticks,
    )


def hbars(items: list[tuple[str, float]], *, width: int = 360, row: int = 18) -> SafeString:
    """Horizontal bars with their label and value: for a few named quantities."""
    if not items:
        return format_html('<p class="mnemo-empty">{}</p>', "nothing yet")
    top = max(value for _, value in items) or 1
    label_width, value_width = 130, 40
    room = width - label_width - value_width
    rows = format_html_join(
        "",
        '<text x="0" y="{}" font-size="11" fill="currentColor">{}</text>'
        '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}: {}</title></rect>'
        '<text x="{}" y="{}" font-size="11" fill="currentColor">{}</text>',
        (
            (
                i * row + 13,
                label if len(label) <= 20 else label[:19] + "…",
                label_width,
                i * row + 3,
                _n(room * value / top),
                row - 6,
                COLOUR,
                label,
                value,
                _n(label_width + room * value / top + 4),
                i * row + 13,
                value,
            )
            for i, (label, value) in enumerate(items)
        ),
    )
    height = row * len(items)
    return format_html(
        '<svg class="mnemo-chart" role="img" viewBox="0 0 {} {}" width="{}" height="{}">{}</svg>',
        width,
        height,
        width,
        height,
        rows,
    )
