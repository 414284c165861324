"""The API's JSON parser, and JSON reading for the entrances that parse bodies themselves."""

from __future__ import annotations

import json
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class MnemoJSONParser(JSONParser):
    """DRF's JSON parser, with JSON too deeply nested for Python's parser answering 400
    INVALID_INPUT instead of a RecursionError (a 500)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError("JSON parse error - nested too deeply.") from exc


def loads(raw: str | bytes) -> Any:
    """``json.loads`` for the entrances that parse JSON themselves (RPC, import lines): ValueError
    (never RecursionError) for what cannot be read."""
    try:
        return json.loads(raw)
    except RecursionError as exc:
        raise ValueError("nested too deeply") from exc
