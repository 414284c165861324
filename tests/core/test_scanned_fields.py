"""Every stored or pinned string is scanned for secrets in its operation's input contract, so
every entrance that validates with the contract (REST, gateway tools, JSON-RPC, MCP, import
lines, the post-turn hook) refuses it alike; and the documentation's list of what is scanned
(docs/secrets.md) is the code's (issue 24: a session's agent name, a turn's tool-call names and
its session id were not).

Every text, JSON or list-of-text field of every contract must be one of ``core.fields``' scanned
field types, scanned, or say why not (``unscanned=``, one of ``Unscanned``'s reasons); each
scanned one must refuse a secret with SECRET_REJECTED.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rest_framework import serializers

from core.api import StrictSerializer, check
from core.errors import InvalidInput, SecretRejected
from core.fields import Scanned, Unscanned
from tests.conftest import ROOT
from tests.contracts import data_at, strict_serializers, text_fields

GITHUB = "ghp_BY6rfNcAKEIOUttYpATIk27f4t3tGolUByxR"
CARD = "4787 7893 2879 2170"
# One of these fits each field's own rules (length, shape) and is a secret.
SECRETS = [GITHUB, CARD, f"{GITHUB}@example.com", f"password: {GITHUB}"]

SECRETS_PAGE = Path(ROOT) / "docs" / "secrets.md"
BEGIN, END = "<!-- scanned fields: begin -->", "<!-- scanned fields: end -->"


def scanned_fields() -> dict[str, list[str]]:
    """Per contract, the paths of its scanned fields (contracts with none are left out)."""
    found = {}
    for contract in strict_serializers():
        paths = [path for path, field in text_fields(contract()) if getattr(field, "unscanned", "") is None]
        if paths:
            found[contract.__name__] = paths
    return found


CONTRACT_FIELDS = [
    pytest.param(contract, path, field, id=f"{contract.__name__}.{path}")
    for contract in strict_serializers()
    for path, field in text_fields(contract())
]


@pytest.mark.parametrize(("contract", "path", "field"), CONTRACT_FIELDS)
def test_every_text_field_is_scanned_or_says_why_not(contract, path, field):
    assert isinstance(field, Scanned), f"{contract.__name__}.{path} is {type(field).__name__}: use core.fields' types"
    assert field.unscanned is None or field.unscanned in Unscanned.ALL


SCANNED = [param for param in CONTRACT_FIELDS if not param.values[2].unscanned]


@pytest.mark.parametrize(("contract", "path", "field"), SCANNED)
def test_each_scanned_field_refuses_a_secret(contract, path, field):
    """Through ``check``, which every non-REST entrance calls and REST's ``validated`` wraps."""
    outcomes = []
    for secret in SECRETS:
        value: Any = secret
        if isinstance(field, serializers.ListField):
            value = [secret]
        elif isinstance(field, serializers.DictField | serializers.JSONField):
            value = {"note": secret}
        try:
            check(contract, data_at(path, value))
        except SecretRejected as exc:
            assert exc.message.startswith(path.replace("[]", "").split(".")[0])
            assert GITHUB not in exc.message and CARD not in exc.message
            return
        except InvalidInput as exc:
            outcomes.append(exc.message)
    pytest.fail(f"no secret was refused at {contract.__name__}.{path}: {outcomes}")


def test_a_secret_in_an_unscanned_query_passes_the_contract():
    from memories.api.serializers import SearchInput

    assert check(SearchInput, {"query": f"what was {GITHUB} for?"})["query"].endswith("for?")


def _documented_list() -> dict[str, list[str]]:
    text = SECRETS_PAGE.read_text()
    assert BEGIN in text and END in text, f"docs/secrets.md's 'What is scanned' must hold the list: {BEGIN} … {END}"
    block = text[text.index(BEGIN) + len(BEGIN) : text.index(END)]
    listed: dict[str, list[str]] = {}
    for line in block.strip().splitlines():
        match = re.match(r"^- `(\w+)`[^:]*: (.+)$", line.strip())
        assert match, f"docs/secrets.md list line not understood: {line!r}"
        listed[match[1]] = re.findall(r"`([\w.\[\]]+)`", match[2])
    return listed


def expected_block() -> str:
    return "\n".join(f"- `{name}`: " + ", ".join(f"`{p}`" for p in paths) for name, paths in scanned_fields().items())


def test_the_docs_list_exactly_what_is_scanned():
    assert _documented_list() == scanned_fields(), (
        "docs/secrets.md's list is out of date; it should read:\n" + expected_block()
    )


def test_the_docs_list_sits_in_the_what_is_scanned_section():
    text = SECRETS_PAGE.read_text()
    section = text.index("\n## What is scanned\n")
    following = text.find("\n## ", section + 1)
    assert section < text.index(BEGIN) < text.index(END) < following


def test_a_contract_enumeration_that_finds_nothing_would_fail():
    # The walk itself must see nested contracts and list children, or the test above proves nothing.
    found = scanned_fields()
    assert "tool_calls[].name" in found["TurnInput"] and "agent_name" in found["SessionInput"]
    assert issubclass(strict_serializers()[0], StrictSerializer) and len(found) >= 10
