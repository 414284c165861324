"""Permission-gated registration: the right tools for each caller, and the workflows with them."""

import pytest

from assistant.services.tool_registry_service import tools_for
from tests.assistant.conftest import client_for

MEMORY_TOOLS = ["remember", "add_memory", "search_memory", "forget", "memory_recall"]
CONTACT_TOOLS = ["get_contact_details", "get_contact_messages", "send_sms", "send_email"]


@pytest.mark.parametrize(
    ("caller", "expected"),
    [
        ("nobody", MEMORY_TOOLS),
        ("notes_only", MEMORY_TOOLS),
        ("viewer", ["get_contact_details", "get_contact_messages", "send_sms", "send_email", *MEMORY_TOOLS]),
        (
            "both",
            [
                "get_contact_details",
                "get_contact_memory",
                "get_contact_messages",
                "send_sms",
                "send_email",
                *MEMORY_TOOLS,
            ],
        ),
    ],
)
def test_registration_matrix(request, caller, expected):
    user = request.getfixturevalue(caller)
    assert [tool.name for tool in tools_for(user)] == expected
    body = client_for(user).get("/api/v1/assistant/tools").json()
    assert [tool["name"] for tool in body["tools"]] == expected


def test_model_permission_to_view_contacts_opens_the_gate_too(db, notes_only):
    from django.contrib.auth.models import Permission

    notes_only.user_permissions.add(Permission.objects.get(codename="view_contact"))
    from django.contrib.auth import get_user_model

    fresh = get_user_model().objects.get(pk=notes_only.pk)  # permission caches are per instance
    assert "get_contact_memory" in [tool.name for tool in tools_for(fresh)]


def test_get_contact_memory_is_described_as_the_seed_says(both):
    tools = {t["name"]: t for t in client_for(both).get("/api/v1/assistant/tools").json()["tools"]}
    tool = tools["get_contact_memory"]
    assert tool["ui_label"] == "Loading contact memory"
    assert tool["direction"] == "read-only"
    assert tool["class"] == "detail"
    assert tool["input_schema"]["required"] == ["contact_id"]
    assert list(tool["input_schema"]["properties"]) == ["contact_id"]
    assert tools["send_sms"]["direction"] == "write" and tools["send_sms"]["class"] == "action"
    assert tools["get_contact_messages"]["class"] == "list"


@pytest.mark.parametrize(
    ("caller", "workflows"), [("nobody", False), ("viewer", False), ("notes_only", False), ("both", True)]
)
def test_workflow_blocks_appear_only_with_the_tool(request, caller, workflows):
    user = request.getfixturevalue(caller)
    body = client_for(user).post("/api/v1/assistant/session", {}, format="json").json()
    prompt = body["system_prompt"]
    assert ("## SMS drafting" in prompt) is workflows
    assert ("## Contact analysis" in prompt) is workflows
    assert [t["name"] for t in body["tools"]] == [t.name for t in tools_for(user)]


def test_session_and_tools_need_authentication(api_client):
    assert api_client.get("/api/v1/assistant/tools").status_code == 401
    assert api_client.post("/api/v1/assistant/session", {}, format="json").status_code == 401
    assert api_client.post("/api/v1/assistant/tools/remember/invoke", {}, format="json").status_code == 401
