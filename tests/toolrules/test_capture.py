"""The capture pipeline: decrees (and what is not one), repeated failures."""

import pytest
from django.test import override_settings

from tests.factories import UserFactory
from toolrules.capture import capture_decrees, capture_failures, find_decrees
from toolrules.models import ToolMemoryRule

DECREES = [
    # (message, expected rule text: the user's words as written, from the negation on; expected tool)
    ("never email Sarah at sarah@example.com", "never email Sarah at sarah@example.com", "send_email"),
    ("Never email Sarah.", "Never email Sarah.", "send_email"),
    ("Please never email my landlord again!", "never email my landlord again!", "send_email"),
    ("Don't text my boss after 9pm", "Don't text my boss after 9pm", "send_sms"),
    ("Don\u2019t text my boss after 9pm", "Don\u2019t text my boss after 9pm", "send_sms"),
    ("dont text Bob", "dont text Bob", "send_sms"),
    ("Do not call John before noon.", "Do not call John before noon.", "call_contact"),
    ("Stop emailing the marketing list", "Stop emailing the marketing list", "send_email"),
    ("stop texting my ex", "stop texting my ex", "send_sms"),
    ("Stop calling the office line", "Stop calling the office line", "call_contact"),
    ("Stop running migrations on prod", "Stop running migrations on prod", "shell"),
    ("Stop messaging my mom", "Stop messaging my mom", "send_sms"),
    ("never run rm -rf on the server", "never run rm -rf on the server", "shell"),
    ("Do not execute scripts from email attachments", "Do not execute scripts from email attachments", "shell"),
    ("From now on, never mail invoices to the old address", "never mail invoices to the old address", "send_email"),
    ("OK so don't SMS clients on weekends", "don't SMS clients on weekends", "send_sms"),
    ("never send emails to Bob", "never send emails to Bob", "send_email"),
    ("Never send texts to +1 415 555 0100", "Never send texts to +1 415 555 0100", "send_sms"),
    ("don't ever call my sister at work", "don't ever call my sister at work", "call_contact"),
    ("Also, do not schedule meetings on Fridays", "do not schedule meetings on Fridays", "create_calendar_event"),
    ("never delete files in the shared drive", "never delete files in the shared drive", "delete_file"),
    (
        "Going forward never pay invoices above $500 without asking",
        "never pay invoices above $500 without asking",
        "make_payment",
    ),
    ("DO NOT EMAIL the board", "DO NOT EMAIL the board", "send_email"),
    ("Do not run rm -rf /", "Do not run rm -rf /", "shell"),
    ("  NEVER text Bob!!  ", "NEVER text Bob!!", "send_sms"),
    ("Please, never  email Sarah at sarah@example.com.", "never  email Sarah at sarah@example.com.", "send_email"),
    ("never eat sugar after 8pm", "never eat sugar after 8pm", None),
    ("Don't mention the merger to anyone", "Don't mention the merger to anyone", None),
]

NOT_DECREES = [
    "I never said that",
    "don't worry",
    "Don't worry about it, it's fine.",
    "Never mind.",
    "never mind the typo",
    "stop it",
    "Stop!",
    "Don't you think so?",
    "You never told me about the party",
    "I don't know what to say",
    "We don't email on Sundays anyway",
    "She never calls back",
    "don't forget to buy milk",
    "Don't get me wrong, I like it",
    "never again",
    "Don't be silly",
    "I do not care",
    "They never text first",
    "Why don't you email her?",
    "It never rains here",
    "stop here",
    "don't hesitate to ask",
    "Never have I ever",
    "Can you stop emailing me the digest?",
    "I'd never email him without checking",
    "the sign said do not enter",
    "Don't let me forget the keys",
    "never say never",
    "Please don't rush.",
    "Don't panic.",
    "I told him never to call",
]


@pytest.mark.parametrize(("message", "rule", "tool"), DECREES)
def test_decrees(message, rule, tool):
    [decree] = find_decrees(message)
    assert (decree.text, decree.tool_name) == (rule, tool)


@pytest.mark.parametrize("message", NOT_DECREES)
def test_not_decrees(message):
    assert find_decrees(message) == []


def test_the_tables_are_big_enough():
    assert len(DECREES) >= 15 and len(NOT_DECREES) >= 30
    assert len(DECREES) + len(NOT_DECREES) >= 50


def test_several_decrees_in_one_message():
    decrees = find_decrees("Never email Sarah and don't text Bob. Thanks! Also stop calling Dave.")
    assert [(d.text, d.tool_name) for d in decrees] == [
        ("Never email Sarah", "send_email"),
        ("don't text Bob.", "send_sms"),
        ("stop calling Dave.", "call_contact"),
    ]


@override_settings(MNEMO_DECREE_ALIASES={"fax": "send_fax"})
def test_the_alias_table_is_a_setting():
    [decree] = find_decrees("never fax the bank")
    assert decree.tool_name == "send_fax"
    [unmapped] = find_decrees("never email the bank")
    assert unmapped.tool_name is None


@pytest.mark.django_db
def test_decrees_become_critical_user_rules_once():
    user = UserFactory()
    rules = capture_decrees(user=user, messages=["never email Sarah at sarah@example.com", "I never said that"])
    [rule] = rules
    assert (rule.tool_name, rule.rule, rule.priority, rule.source, rule.owner) == (
        "send_email",
        "never email Sarah at sarah@example.com",
        "critical",
        "user_explicit",
        user,
    )
    assert rule.key == f"tool-send_email/rule/{rule.id}"
    again = capture_decrees(user=user, messages=["Never email Sarah at sarah@example.com."])
    assert [r.id for r in again] == [rule.id]
    assert ToolMemoryRule.objects.count() == 1


@pytest.mark.django_db
def test_a_decree_naming_no_tool_is_kept_as_a_global_rule():
    user = UserFactory()
    [rule] = capture_decrees(user=user, messages=["never eat sugar after 8pm"])
    assert rule.tool_name == "global" and rule.priority == "critical"


@pytest.mark.django_db
def test_repeated_failures_make_one_normal_observation_per_tool():
    user = UserFactory()
    calls = [
        {"name": "send_email", "status": "error", "error": "SMTP timeout after 30s"},
        {"name": "send_email", "status": "error", "error": "SMTP timeout after 30s"},
        {"name": "send_email", "status": "error", "error": "550 mailbox unavailable " + "x" * 300},
        {"name": "send_sms", "status": "error", "error": "rate limited"},
        {"name": "search_memory", "status": "success"},
    ]
    [rule] = capture_failures(user=user, tool_calls=calls)
    assert rule.tool_name == "send_email" and rule.priority == "normal" and rule.source == "post_turn"
    assert rule.rule.startswith(
        "send_email failed 3 times in one turn: SMTP timeout after 30s; 550 mailbox unavailable"
    )
    assert len(rule.rule) < 300  # errors are shortened
    assert rule.owner == user
