"""Serve Mnemo's MCP server over stdio for one caller, for desktop clients that start it.

    python manage.py mcp_stdio --token <API token>
    python manage.py mcp_stdio --user <username>

stdout carries the protocol only; logs go to stderr. The process is one MCP session: its
session prompt is frozen from the start until the client closes it.
"""

from __future__ import annotations

import os
import sys

import anyio
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from assistant.mcp.entrance import open_session, user_for_token
from assistant.mcp.server import StdioCaller, build_server
from core.errors import RateLimited
from core.fields import text_problem


class Command(BaseCommand):
    help = "Serve Mnemo's MCP tools, prompt and resources over stdio for one user (--token or --user)."

    def add_arguments(self, parser: CommandParser) -> None:
        who = parser.add_mutually_exclusive_group()
        who.add_argument("--token", help="the caller's API token (default: $MNEMO_TOKEN)")
        who.add_argument("--user", help="the caller's username (for a local operator; no token needed)")

    def handle(self, *args, **options) -> None:
        token = options["token"] or (None if options["user"] else os.environ.get("MNEMO_TOKEN"))
        if token:
            try:
                user = user_for_token(token)
            except RateLimited as exc:
                raise CommandError(exc.message) from exc
            if user is None:
                raise CommandError("Invalid token (or its user is inactive).")
        elif options["user"]:
            name = options["user"]
            # A name with a NUL names no user (and PostgreSQL refuses to compare one).
            users = get_user_model().objects.filter(username=name, is_active=True)
            user = None if text_problem(name) else users.first()
            if user is None:
                raise CommandError(f"No active user named {options['user']!r}.")
        else:
            raise CommandError("Say who calls: --token <token> (or MNEMO_TOKEN) or --user <username>.")
        # With a token, every request checks it again: revoked or expired, the next call fails.
        caller = StdioCaller(user_id=user.pk, session_id=open_session(user), token=token or None)
        print(f"Mnemo MCP (stdio) for {user.get_username()}, session {caller.session_id}", file=sys.stderr)
        anyio.run(self._serve, caller)

    async def _serve(self, caller: StdioCaller) -> None:
        from mcp.server.stdio import stdio_server

        server = build_server(stdio=caller)
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
