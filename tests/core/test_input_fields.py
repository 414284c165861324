"""Input serializers copy prototype fields built once per class (core.api._fresh_copy) instead of
rebuilding every declared field per request: the copies must behave exactly as DRF's own."""

from __future__ import annotations

import threading

import pytest
from rest_framework import serializers

from core.api import StrictSerializer, check, json_schema
from core.errors import InvalidInput
from core.fields import TagListField
from memories.api.serializers import SearchInput
from tests.contracts import strict_serializers as _strict_serializers


class Probe(StrictSerializer):
    items = serializers.ListField(child=serializers.CharField(max_length=3), default=[])
    tags = TagListField(required=False, default=list)
    limit = serializers.IntegerField(max_value=10)


def test_each_instance_has_its_own_bound_fields():
    first, second = Probe(data={}), Probe(data={})
    for name in ("items", "tags", "limit"):
        assert first.fields[name] is not second.fields[name]
        assert first.fields[name].parent is first and second.fields[name].parent is second
        assert first.fields[name].field_name == name
    assert first.fields["items"].child is not second.fields["items"].child
    assert first.fields["items"].child.parent is first.fields["items"]


def test_a_mutable_default_is_not_shared_between_requests():
    first = check(Probe, {"limit": 1})
    first["items"].append("leak")
    assert check(Probe, {"limit": 1})["items"] == []


def test_errors_and_values_are_the_ones_of_each_input():
    with pytest.raises(InvalidInput) as error:
        check(Probe, {"limit": 11, "items": ["abcd"]})
    assert set(error.value.details) == {"limit", "items"}
    assert check(Probe, {"limit": 3, "items": ["ab"], "tags": ["x"]}) == {"limit": 3, "items": ["ab"], "tags": ["x"]}


def test_a_field_declared_later_is_used_at_once(monkeypatch):
    check(Probe, {"limit": 1})  # prototypes built
    monkeypatch.setitem(Probe._declared_fields, "extra", serializers.BooleanField())
    with pytest.raises(InvalidInput) as error:
        check(Probe, {"limit": 1})
    assert "extra" in error.value.details


def test_threads_validating_at_once_each_get_their_own_result():
    results: dict[int, object] = {}

    def run(n: int) -> None:
        out = []
        for i in range(200):
            limit = (n + i) % 100 + 1
            body = {"query": f"q{n}-{i}", "namespace": f"agent:n{n}", "limit": limit, "tags": [f"t{n}"]}
            out.append(check(SearchInput, body) | {"expect": (f"q{n}-{i}", limit, [f"t{n}"])})
        results[n] = out

    threads = [threading.Thread(target=run, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for out in results.values():
        for row in out:
            assert (row["query"], row["limit"], row["tags"]) == row["expect"]
    assert len(results) == 8


@pytest.mark.parametrize("contract", _strict_serializers(), ids=lambda c: c.__qualname__)
def test_every_contract_validates_like_drf_and_shows_the_same_schema(contract, monkeypatch):
    wrong = {name: [[1]] for name in contract().fields}
    bodies = ({}, wrong, {"unknown": 1})

    def outcome() -> list[object]:
        runs = [contract(data=body) for body in bodies]
        return [(s.is_valid(), s.errors) for s in runs] + [json_schema(contract)]

    ours = outcome()
    # DRF's own way: every declared field rebuilt for each instance.
    monkeypatch.setattr(StrictSerializer, "get_fields", serializers.Serializer.get_fields)
    assert ours == outcome()


# --- maximum lengths are on the text as sent (issue 24) --------------------------------------------


def _bounded_text_fields() -> list:
    from core.fields import TextField
    from tests.contracts import data_at, text_fields

    return [
        pytest.param(contract, path, field, data_at, id=f"{contract.__name__}.{path}")
        for contract in _strict_serializers()
        for path, field in text_fields(contract())
        if isinstance(field, TextField) and field.max_length is not None
    ]


@pytest.mark.parametrize(("contract", "path", "field", "data_at"), _bounded_text_fields())
def test_every_text_field_measures_its_limit_before_trimming(contract, path, field, data_at):
    """Whitespace around a value counts: one character over the limit is refused, trimmed or not."""
    limit = field.max_length
    for value in ("x" * limit + " ", " " * (limit + 1), "\n" + "y" * (limit - 1) + "\t\t"):
        with pytest.raises(InvalidInput) as error:
            check(contract, data_at(path, value))
        assert path.split("[]")[0].split(".")[0] in error.value.details, error.value.details
        message = str(error.value.details)
        assert str(limit) in message or "MAX_TEXT_CHARS" in message, message


def test_a_value_of_the_limit_with_whitespace_inside_it_is_accepted():
    from toolrules.api.serializers import RuleInput

    data = check(RuleInput, {"tool_name": " " + "t" * 98 + " ", "rule": "be brief"})
    assert data["tool_name"] == "t" * 98  # trimmed after the check, as before
