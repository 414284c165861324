"""Tag normalization (seed 003): lowercase canonical forms.

A tag is trimmed and lowercased; runs of inner whitespace and underscores become one ``-``;
leading and trailing dashes go; empty tags are dropped; the list is de-duplicated and sorted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MAX_TAG_LENGTH = 64
MAX_TAGS = 50
_SEPARATORS = re.compile(r"[\s_]+")
_DASHES = re.compile(r"-{2,}")


def normalize_tag(tag: str) -> str:
    tag = _SEPARATORS.sub("-", tag.strip().lower())
    return _DASHES.sub("-", tag).strip("-")


def normalize_tags(tags: Iterable[str]) -> list[str]:
    """Canonical, unique, sorted tags. Raises ValueError for a tag that is too long or too many."""
    result = {normalize_tag(t) for t in tags}
    result.discard("")
    too_long = [t for t in result if len(t) > MAX_TAG_LENGTH]
    if too_long:
        raise ValueError(f"tag longer than {MAX_TAG_LENGTH} characters: {too_long[0][:80]!r}")
    if len(result) > MAX_TAGS:
        raise ValueError(f"at most {MAX_TAGS} tags")
    return sorted(result)
