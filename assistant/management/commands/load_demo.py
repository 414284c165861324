"""load_demo: a realistic demo that a fresh `make run` can show; running it again adds nothing."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import CommandError, CommandParser
from django.db import transaction
from guardian.shortcuts import assign_perm
from rest_framework.authtoken.models import Token

from contacts.models import Contact, ContactMessage, ContactNote
from core.commands import MnemoCommand
from memories import services
from memories.models import Memory, Namespace
from memories.permissions import ensure_user_namespace
from toolrules.models import ToolMemoryRule
from toolrules.services import put_rule

DEMO_MEMORIES = [
    "User prefers email summaries in the morning.",
    "John Smith is the user's manager at Acme Corp.",
    "The user's Linear team ID is TEAM-123.",
    "User is working on the Q4 budget project, due end of month.",
    "User has a standing meeting with Sarah every Monday at 10am.",
    "My son Colby lives in Los Angeles.",
    "User prefers Slack over email for urgent notifications.",
    "User consistently prefers afternoon meetings over morning ones.",
    "User is allergic to peanuts.",
    "User's dog is a golden retriever named Biscuit.",
    "User's GitHub username is @johndoe.",
    "User flies to Lisbon on June 22 on flight TP1352.",
]
SKILLS = [
    "Gmail searches work better with sender:email syntax.",
    "For meeting scheduling, always check the calendar first.",
    "Use bulk operations for more than five todo updates.",
]
FIRST = ["Sarah", "Miguel", "Priya", "Tom", "Aisha", "Kenji", "Lena", "Omar", "Grace", "Jonas", "Nadia", "Victor"]
LAST = [
    "Johnson",
    "Alvarez",
    "Raman",
    "Becker",
    "Okafor",
    "Watanabe",
    "Novak",
    "Haddad",
    "Kim",
    "Berg",
    "Petrov",
    "Moreau",
]
COMPANIES = ["TechCorp", "Globex", "Initech", "Umbrella Health", "Stark Logistics", "Wayne Foods"]
NOTES = [
    "Prefers texts over calls. Last discussed pricing on March 15.",
    "Decision maker for renewals; likes short emails with a clear ask.",
    "Out of office most Fridays. Responds fastest on Slack.",
    "Asked for a discount in Q3; follow up before the end of the quarter.",
]
EXTRA_FACTS = [
    "User reads {n} pages of a novel every night.",
    "User's gym session {n} is on the weekly plan.",
    "User booked table {n} at the usual restaurant.",
    "User's expense report #{n} is waiting for approval.",
]


class Command(MnemoCommand):
    help = (
        "Load a realistic demo: the agent user 'demo' (with a token it prints) who may see contacts and their "
        "memory notes, the user 'viewer' who may see contacts but not their notes, contacts with memory notes "
        "and messages, user and agent namespaces with memories, and a few tool rules. Idempotent: running it "
        "again adds nothing. Example: manage.py load_demo --contacts 20 --memories 50"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--contacts", type=int, default=8, help="contacts to have (default 8)")
        parser.add_argument(
            "--memories",
            type=int,
            default=len(DEMO_MEMORIES),
            help=f"memories in user:demo (default {len(DEMO_MEMORIES)})",
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        if options["contacts"] < 0 or options["memories"] < 0:
            raise CommandError("--contacts and --memories must be 0 or more.")
        rng = random.Random(7)  # the same demo every time
        User = get_user_model()
        demo, _ = User.objects.get_or_create(username="demo", defaults={"email": "demo@example.com"})
        viewer, _ = User.objects.get_or_create(username="viewer", defaults={"email": "viewer@example.com"})
        for user in (demo, viewer):
            if not user.has_usable_password():
                user.set_unusable_password()
        demo.user_permissions.add(*Permission.objects.filter(codename__in=["view_contactnote", "add_contact"]))
        token, _ = Token.objects.get_or_create(user=demo)
        Token.objects.get_or_create(user=viewer)

        created_memories: list[int] = []
        namespace = ensure_user_namespace(demo)
        texts = DEMO_MEMORIES[: options["memories"]]
        texts += [EXTRA_FACTS[i % len(EXTRA_FACTS)].format(n=i + 1) for i in range(options["memories"] - len(texts))]
        for text in texts:
            memory, new = Memory.objects.get_or_create(namespace=namespace, text=text, defaults={"created_by": demo})
            if new:
                created_memories.append(memory.id)
        # A shared agent namespace is created by staff and granted (here: to demo); subagents of
        # users without the grant keep their skills in their own agent:<name>/<username>.
        skills, _ = Namespace.objects.get_or_create(
            key="agent:gmail_subagent", defaults={"kind": "agent", "owner": demo}
        )
        assign_perm("view_namespace", demo, skills)
        assign_perm("write_namespace", demo, skills)
        for text in SKILLS:
            memory, new = Memory.objects.get_or_create(
                namespace=skills, text=text, defaults={"metadata": {"type": "skill"}}
            )
            if new:
                created_memories.append(memory.id)
        services.enqueue_embedding(ids=created_memories)

        contacts_created = 0
        for index in range(options["contacts"]):
            name = f"{FIRST[index % len(FIRST)]} {LAST[(index * 5) % len(LAST)]}"
            company = COMPANIES[index % len(COMPANIES)]
            contact, new = Contact.objects.get_or_create(
                name=name,
                defaults={
                    "email": f"{name.split()[0].lower()}@{company.split()[0].lower()}.example",
                    "phone": f"+1 415 555 {index:04d}",
                    "company": company,
                    "owner": demo,
                },
            )
            for perm in ("view_contact", "change_contact"):
                assign_perm(perm, demo, contact)
            assign_perm("view_contact", viewer, contact)
            if not new:
                continue
            contacts_created += 1
            ContactNote.objects.create(contact=contact, kind="memory", body=NOTES[index % len(NOTES)], author=demo)
            for day in range(rng.randint(1, 3)):
                ContactMessage.objects.create(
                    contact=contact,
                    direction=rng.choice(["in", "out"]),
                    channel="sms",
                    body=rng.choice(
                        ["Thanks, talk soon!", "Can we move our call?", "Sent the proposal.", "Running 5 minutes late."]
                    ),
                    status="received" if day % 2 else "sent",
                )
        put_rule(
            actor=demo,
            tool_name="send_email",
            rule="never email Sarah at sarah@techcorp.example",
            priority=ToolMemoryRule.Priority.CRITICAL,
            source=ToolMemoryRule.Source.USER_EXPLICIT,
        )
        put_rule(
            actor=demo,
            tool_name="send_sms",
            rule="keep texts under 300 characters",
            priority=ToolMemoryRule.Priority.HIGH,
            source=ToolMemoryRule.Source.PROGRAMMATIC,
        )
        put_rule(
            actor=demo,
            tool_name="send_email",
            rule="the SMTP relay is slow on Monday mornings",
            priority=ToolMemoryRule.Priority.NORMAL,
            source=ToolMemoryRule.Source.POST_TURN,
        )
        self.say(
            f"Demo data: {len(created_memories)} new memories, {contacts_created} new contacts. "
            f"Demo agent token (user 'demo'): {token.key}",
            options,
        )
