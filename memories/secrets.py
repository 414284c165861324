"""Secret detection: texts shaped like credentials are never stored as memories.

Two sources of patterns: detect-secrets' regex-based plugins (AWS, GitHub, GitLab, Slack, Stripe,
JWTs, PEM private keys, basic-auth URLs, npm, PyPI, SendGrid, Twilio, …) and a few shapes it does
not know (Anthropic, Google, Hugging Face, newer OpenAI keys, GitHub fine-grained tokens, Slack app
tokens, bare npm tokens, unquoted AWS secret keys, password-only URLs). detect-secrets' entropy and
keyword plugins are left out on purpose: they flag ordinary words, order numbers and hex colours,
and a memory service must accept "my order number is 7F3A9C21".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

# detect-secrets plugins that match a credential's shape (by regex, with their own validation).
_DETECT_SECRETS_PLUGINS = [
    # ArtifactoryDetector is left out: its "encrypted password" regex (AP, a hex digit, 8+ letters or
    # digits) flags ordinary upper-case ticket, invoice and serial numbers such as "APAC00123456".
    # Both of its shapes are in _EXTRA_PATTERNS instead, the password one made precise.
    "detect_secrets.plugins.aws.AWSKeyDetector",
    "detect_secrets.plugins.azure_storage_key.AzureStorageKeyDetector",
    "detect_secrets.plugins.basic_auth.BasicAuthDetector",
    "detect_secrets.plugins.cloudant.CloudantDetector",
    "detect_secrets.plugins.discord.DiscordBotTokenDetector",
    "detect_secrets.plugins.github_token.GitHubTokenDetector",
    "detect_secrets.plugins.gitlab_token.GitLabTokenDetector",
    "detect_secrets.plugins.ibm_cloud_iam.IbmCloudIamDetector",
    "detect_secrets.plugins.ibm_cos_hmac.IbmCosHmacDetector",
    "detect_secrets.plugins.jwt.JwtTokenDetector",
    "detect_secrets.plugins.mailchimp.MailchimpDetector",
    "detect_secrets.plugins.npm.NpmDetector",
    "detect_secrets.plugins.openai.OpenAIDetector",
    "detect_secrets.plugins.private_key.PrivateKeyDetector",
    "detect_secrets.plugins.pypi_token.PypiTokenDetector",
    "detect_secrets.plugins.sendgrid.SendGridDetector",
    "detect_secrets.plugins.slack.SlackDetector",
    "detect_secrets.plugins.softlayer.SoftlayerDetector",
    "detect_secrets.plugins.square_oauth.SquareOAuthDetector",
    "detect_secrets.plugins.stripe.StripeDetector",
    "detect_secrets.plugins.telegram_token.TelegramBotTokenDetector",
    "detect_secrets.plugins.twilio.TwilioKeyDetector",
]

# Shapes detect-secrets 1.5 does not cover, or covers too loosely (Artifactory).
_EXTRA_PATTERNS: dict[str, re.Pattern[str]] = {
    "Anthropic API key": re.compile(r"\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_\-]{20,}"),
    "OpenAI API key": re.compile(r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}"),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    "Google OAuth client secret": re.compile(r"\bGOCSPX-[A-Za-z0-9_\-]{28}\b"),
    "Hugging Face token": re.compile(r"\bhf_[A-Za-z0-9]{34,}\b"),
    "Private key block": re.compile(r"-----BEGIN[A-Z ]*PRIVATE KEY( BLOCK)?-----"),
    # detect-secrets only knows the classic ghp_/gho_/ghu_/ghs_/ghr_ tokens.
    "GitHub fine-grained token": re.compile(r"\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b"),
    # detect-secrets knows xoxa/xoxb/xoxp/xoxo/xoxs/xoxr tokens and webhooks, not app-level tokens.
    "Slack app token": re.compile(r"\bxapp-\d-A[A-Z0-9]{6,}-\d{6,}-[a-f0-9]{32,}\b"),
    # detect-secrets only finds npm tokens inside an .npmrc "//registry/:_authToken=" line.
    "npm token": re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"),
    # detect-secrets only finds an AWS secret key in quotes; ~/.aws/credentials and .env files have none.
    "AWS secret access key": re.compile(
        r"\baws[_-]?secret[_-]?access[_-]?key[\"']?[ \t]*[:=][ \t]*[\"']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])",
        re.IGNORECASE,
    ),
    # A URL with a password and no user name (redis://:password@host); the basic-auth plugin
    # needs a user name before the colon.
    "Password in URL": re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]*://:[^\s:/?#\[\]@]+@"),
    # Artifactory (in place of detect-secrets' ArtifactoryDetector, see above). API keys start with
    # AKC; encrypted passwords with AP and a hex digit, and are random mixed-case letters and digits,
    # so a lower-case letter and a digit are required to tell them from upper-case reference numbers.
    "Artifactory API key": re.compile(r"\bAKC[A-Za-z0-9]{10,}\b"),
    "Artifactory password": re.compile(r"\bAP[0-9A-F](?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[0-9])[A-Za-z0-9]{8,}\b"),
}


@cache
def _plugins() -> list[object]:
    from django.utils.module_loading import import_string

    return [import_string(path)() for path in _DETECT_SECRETS_PLUGINS]


def _findings(text: str) -> Iterator[str]:
    for name, pattern in _EXTRA_PATTERNS.items():
        if pattern.search(text):
            yield name
    for plugin in _plugins():
        for line in text.splitlines() or [text]:
            if any(True for _ in plugin.analyze_string(line)):  # type: ignore[attr-defined]
                yield plugin.secret_type  # type: ignore[attr-defined]
                break


def find_secret(text: str) -> str | None:
    """The kind of the first credential-shaped string in ``text``, or None if there is none."""
    return next(_findings(text), None)
