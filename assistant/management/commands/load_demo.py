"""load_demo: a realistic demo that a fresh `make run` can show; running it again adds nothing.

The demo's own rows carry a marker, never recognised by their text: memories a fixed event id
(uuid5 of DEMO_NAMESPACE and their place in the list) and ``metadata["demo"] = true``, contacts a
fixed UUID and ``custom_fields["demo"] = true``, rules a fixed id. Whatever users stored (the
docs' own example is a demo sentence), a rerun finds exactly its own rows.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import CommandError, CommandParser
from django.db import transaction
from guardian.shortcuts import assign_perm

from contacts.models import Contact, ContactMessage, ContactNote
from core.commands import MnemoCommand, in_range
from core.models import ApiToken
from core.tokens import issue_token
from memories import services
from memories.models import Memory, MemoryEvent, Namespace
from memories.permissions import ensure_user_namespace
from toolrules.models import ToolMemoryRule, rule_fingerprint
from toolrules.services import put_rule

#: The uuid5 namespace of every id the demo fixes (memories' event ids, contacts, rules).
DEMO_NAMESPACE = uuid.UUID("6d6e656d-6f2d-4465-8d6f-000000000000")
MARKER = {"demo": True}


def demo_id(kind: str, index: int | str) -> uuid.UUID:
    """The fixed id of the demo's ``index``-th row of ``kind``: the same on every run and machine."""
    return uuid.uuid5(DEMO_NAMESPACE, f"{kind}:{index}")


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
        "and messages, user and agent namespaces with memories, and a few tool rules. Idempotent whatever "
        "else is stored: the demo's rows carry a marker (fixed ids, metadata demo=true) and a rerun adds only "
        "what is missing. Example: manage.py load_demo --contacts 20 --memories 50"
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

    def handle(self, *args: Any, **options: Any) -> None:
        # Bounded: a demo is made in one transaction, and 10**20 memories would run until memory ran out.
        in_range(options, "--contacts", minimum=0, maximum=10_000, unit="contacts")
        in_range(options, "--memories", minimum=0, maximum=100_000, unit="memories")
        try:
            self._load(options)
        except CommandError:
            raise
        except Exception as exc:  # noqa: BLE001 - make run must show one line and a way out, not a traceback
            first = (str(exc).strip().splitlines() or [""])[0]
            raise CommandError(
                f"the demo could not be loaded ({exc.__class__.__name__}: {first}); nothing of this run was kept. "
                "Mnemo works without it: start the server with `manage.py runserver`, or rerun "
                "`manage.py load_demo --verbosity 2` to see the details."
            ) from exc

    @transaction.atomic
    def _load(self, options: dict[str, Any]) -> None:
        rng = random.Random(7)  # the same demo every time
        User = get_user_model()
        demo, _ = User.objects.get_or_create(username="demo", defaults={"email": "demo@example.com"})
        viewer, _ = User.objects.get_or_create(username="viewer", defaults={"email": "viewer@example.com"})
        for user in (demo, viewer):
            if not user.has_usable_password():
                user.set_unusable_password()
        demo.user_permissions.add(*Permission.objects.filter(codename__in=["view_contactnote", "add_contact"]))
        token_line = self._demo_token(demo)

        created_memories: list[int] = []
        namespace = ensure_user_namespace(demo)
        texts = DEMO_MEMORIES[: options["memories"]]
        texts += [EXTRA_FACTS[i % len(EXTRA_FACTS)].format(n=i + 1) for i in range(options["memories"] - len(texts))]
        for index, text in enumerate(texts):
            created_memories += self._memory(namespace, text, demo_id("memory", index), demo, {})
        # A shared agent namespace is created by staff and granted (here: to demo); subagents of
        # users without the grant keep their skills in their own agent:<name>/<username>.
        skills, _ = Namespace.objects.get_or_create(
            key="agent:gmail_subagent", defaults={"kind": "agent", "owner": demo}
        )
        assign_perm("view_namespace", demo, skills)
        assign_perm("write_namespace", demo, skills)
        for index, text in enumerate(SKILLS):
            created_memories += self._memory(skills, text, demo_id("skill", index), None, {"type": "skill"})
        services.enqueue_embedding(ids=created_memories)

        contacts_created = 0
        for index in range(options["contacts"]):
            name = f"{FIRST[index % len(FIRST)]} {LAST[(index * 5) % len(LAST)]}"
            company = COMPANIES[index % len(COMPANIES)]
            contact, new = self._contact(index, name, company, demo)
            for perm in ("view_contact", "change_contact"):
                assign_perm(perm, demo, contact)
            assign_perm("view_contact", viewer, contact)
            if not new:
                continue
            contacts_created += 1
            ContactNote.objects.create(contact=contact, kind="memory", body=NOTES[index % len(NOTES)], author=demo)
            for _ in range(rng.randint(1, 3)):
                direction = rng.choice(["in", "out"])
                ContactMessage.objects.create(
                    contact=contact,
                    direction=direction,
                    channel="sms",
                    body=rng.choice(
                        ["Thanks, talk soon!", "Can we move our call?", "Sent the proposal.", "Running 5 minutes late."]
                    ),
                    # An inbound message was received; only an outbound one is sent (or delivered).
                    status="received" if direction == "in" else rng.choice(["sent", "delivered"]),
                    to_address="" if direction == "in" else contact.phone,
                    sent_by=None if direction == "in" else demo,
                )
        rules = [
            ("send_email", "never email Sarah at sarah@techcorp.example", "critical", "user_explicit"),
            ("send_sms", "keep texts under 300 characters", "high", "programmatic"),
            ("send_email", "the SMTP relay is slow on Monday mornings", "normal", "post_turn"),
        ]
        for index, (tool, rule, priority, source) in enumerate(rules):
            rule_id = demo_id("rule", index)
            mine = ToolMemoryRule.objects.filter(owner=demo, tool_name=tool, fingerprint=rule_fingerprint(rule))
            if ToolMemoryRule.objects.filter(pk=rule_id).exists() or mine.exists():
                continue  # the demo's rule, or the user said the same already: either way, nothing to add
            put_rule(actor=demo, tool_name=tool, rule=rule, priority=priority, source=source, rule_id=rule_id)
        self.say(
            f"Demo data: {len(created_memories)} new memories, {contacts_created} new contacts. {token_line}",
            options,
        )

    @staticmethod
    def _demo_token(demo: Any) -> str:
        """The line about the demo's API token (named "demo"). Only its hash is stored, so its key
        can be printed only when it is made: on the first run, or after it was revoked."""
        live = ApiToken.objects.filter(user=demo, name="demo", revoked_at__isnull=True).first()
        if live is None:
            return f"Demo agent token (user 'demo'): {issue_token(user=demo, name='demo').key}"
        return (
            f"Demo agent token (user 'demo'): made by an earlier run ({live.prefix}…); "
            "`manage.py create_agent_token demo --name demo --rotate` replaces it."
        )

    def _contact(self, index: int, name: str, company: str, owner: Any) -> tuple[Contact, bool]:
        """The demo's ``index``-th contact (marker ``custom_fields["demo_index"]``), and whether it is new.

        A contact an older load_demo made (the demo's name, owned by ``demo``, no marker) is
        adopted and marked rather than doubled.
        """
        found = (
            Contact.objects.filter(pk=demo_id("contact", index)).first()
            or Contact.objects.filter(custom_fields__demo_index=index).order_by("created_at").first()
        )
        if found is not None:
            return found, False
        legacy = (
            Contact.objects.filter(name=name, owner=owner).exclude(custom_fields__has_key="demo").order_by("created_at")
        ).first()
        if legacy is not None:
            legacy.custom_fields = {**legacy.custom_fields, **MARKER, "demo_index": index}
            legacy.save(update_fields=["custom_fields", "updated_at"])
            return legacy, False
        contact = Contact.objects.create(
            pk=demo_id("contact", index),
            name=name,
            email=f"{name.split()[0].lower()}@{company.split()[0].lower()}.example",
            phone=f"+1 415 555 {index:04d}",
            company=company,
            owner=owner,
            custom_fields={**MARKER, "demo_index": index},
        )
        return contact, True

    def _memory(self, namespace: Namespace, text: str, event_id: uuid.UUID, actor: Any, metadata: dict) -> list[int]:
        """The demo memory with this event id: [its id] if it had to be made, [] if it is there.

        A demo memory that staff forgot or merged stays so: its row (and event id) still exists.
        A row an older load_demo made (same text, no marker, no history at all: every other way
        in writes an add event) is adopted instead of doubled.
        """
        if Memory.objects.filter(event_id=event_id).exists():
            return []
        legacy = (
            Memory.objects.filter(namespace=namespace, text=text)
            .exclude(metadata__has_key="demo")
            .exclude(id__in=MemoryEvent.objects.values("memory_id"))
            .order_by("id")
            .first()
        )
        if legacy is not None:
            Memory.objects.filter(pk=legacy.pk).update(event_id=event_id, metadata={**legacy.metadata, **MARKER})
            MemoryEvent.objects.create(
                memory=legacy, event_type=MemoryEvent.Type.ADD, new_text=text, data={"via": "load_demo"}
            )
            return []
        memory = Memory.objects.create(
            namespace=namespace,
            text=text,
            event_id=event_id,
            created_by=actor,
            metadata={**metadata, **MARKER},
        )
        MemoryEvent.objects.create(
            memory=memory, event_type=MemoryEvent.Type.ADD, actor=actor, new_text=text, data={"via": "load_demo"}
        )
        return [memory.id]
