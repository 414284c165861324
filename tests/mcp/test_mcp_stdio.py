"""The MCP entrance over stdio: ``manage.py mcp_stdio`` started by the official MCP client, as a
desktop client would, against the test database."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from assistant.services.tool_registry_service import tools_for
from contacts import services as contact_services
from contacts.models import ContactNote
from tests.conftest import ROOT
from tests.factories import token_for
from tests.mcp.conftest import run_async, server_env


def stdio_params(*args: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["manage.py", "mcp_stdio", *args], env=server_env(), cwd=str(ROOT)
    )


def test_a_desktop_client_session_over_stdio(people, tmp_path):
    both, jane = people.both, people.jane
    note = contact_services.set_memory_note(
        actor=people.owner, contact=jane, body="Prefers texts over calls. Last discussed pricing on March 15."
    )
    ContactNote.objects.filter(pk=note.pk).update(updated_at=datetime(2026, 4, 2, 9, 0, 27, tzinfo=UTC))

    params = stdio_params("--token", token_for(both))

    async def scenario():
        with (tmp_path / "stderr.log").open("w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                info = await session.initialize()
                tools = await session.list_tools()
                memory = await session.call_tool("get_contact_memory", {"contact_id": str(jane.id)})
                before = await session.get_prompt("mnemo_system_prompt")
                turn = await session.call_tool(
                    "report_turn",
                    {"turn_index": 0, "messages": [{"role": "user", "content": "never text Jane at +1 415 555 0100"}]},
                )
                after = await session.get_prompt("mnemo_system_prompt", {"message": "What does Jane prefer?"})
                stored = await session.call_tool("remember", {"text": "Jane's birthday is on May 3."})
                found = await session.call_tool("search_memory", {"query": "When is Jane's birthday?"})
                refused = await session.call_tool("send_sms", {"contact_id": str(jane.id), "body": "Hi"})
                return info, tools, memory, before, turn, after, stored, found, refused

    info, tools, memory, before, turn, after, stored, found, refused = run_async(scenario())
    assert info.server_info.name == "mnemo"
    assert [t.name for t in tools.tools] == [t.name for t in tools_for(both)] + ["report_turn"]
    assert memory.content[0].text == (
        "Tool get_contact_memory loaded contact memory for Jane Doe: has memory, updated 2026-04-02 09:00 UTC."
    )
    assert memory.content[1].text == (
        f'{{"contact_id":"{jane.id}","deep_link":"/contacts/{jane.id}","has_memory":true,'
        f'"note_id":"{note.id}","memory_note":"Prefers texts over calls. Last discussed pricing on March 15.",'
        '"updated_at":"2026-04-02 09:00 UTC"}'
    )
    # One stdio process is one session: the decree is not in its prompt (frozen), the turn was
    # recorded in that session, and the rule is enforced at once.
    assert not turn.is_error and turn.structured_content["rules"][0]["tool_name"] == "send_sms"
    assert turn.structured_content["session_id"] == before.meta["mnemo/session_id"] == after.meta["mnemo/session_id"]
    assert "Tool-scoped rules" not in before.messages[0].content.text
    # Everything before seed 002's block (which comes last and follows the message) is frozen.
    frozen = before.messages[0].content.text.rsplit("\n\nYou are an AI assistant", 1)[0]
    assert after.messages[0].content.text.startswith(frozen + "\n\nYou are an AI assistant")
    assert "Tool-scoped rules" not in after.messages[0].content.text
    memory_id = stored.structured_content["memory_id"]
    assert found.structured_content["results"][0]["id"] == memory_id
    assert refused.is_error and refused.structured_content["error"]["code"] == "RULE_VIOLATION"


def test_mcp_stdio_needs_a_valid_caller(people):
    bad = subprocess.run(
        [sys.executable, "manage.py", "mcp_stdio", "--token", "not-a-token"],
        cwd=ROOT,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert bad.returncode != 0 and "Invalid token" in bad.stderr
    assert bad.stdout == ""  # stdout belongs to the protocol: nothing else is ever written there

    params = stdio_params("--user", people.nobody.username)

    async def by_username():
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await session.call_tool("remember", {"text": "I prefer tea."})

    result = run_async(by_username())
    assert not result.is_error and result.content[0].text.startswith("Tool remember stored memory ")


@pytest.mark.django_db  # (also what makes pytest-django create the test database for this module)
def test_stdio_server_is_built_for_one_caller(people):
    from assistant.mcp.server import StdioCaller, build_server

    server = build_server(stdio=StdioCaller(user_id=people.nobody.pk))
    assert server.name == "mnemo"


@pytest.mark.django_db
def test_mcp_stdio_names_no_user_for_a_name_with_a_nul():
    """Only call_command can pass one (an argv cannot hold a NUL): "No active user", not the
    database's DataError."""
    from django.core.management import call_command
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="No active user named"):
        call_command("mcp_stdio", "--user", "bad\x00name")
