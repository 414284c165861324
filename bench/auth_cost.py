"""What authenticating an API token costs a request, in process (no network, no gunicorn).

Against an embedded PostgreSQL in its own folder, with the settings ``make run`` uses (the token
cache on), it times, median of ``--requests`` each:

- ``authenticate``: the configured authentication class alone, on a request carrying the token;
- ``whoami``, ``keyword_search``, ``search``: whole requests through Django's stack (the last is
  the search hot path, query embedding included; keyword search is that path without it).

With the access version (``core.authentication``) each request is timed in alternating blocks of
50 with the version read on (as served) and off (the cache trusted as before it existed), so that
a busy machine's changing load falls on both alike: the difference is what the read adds. The
same script also runs on an older checkout (DRF's authtoken, ``rest_framework.authtoken``):

    .venv/bin/python bench/auth_cost.py [--requests 1000] [--memories 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BLOCK = 50


def make_key(user) -> str:
    try:
        from core.tokens import issue_token
    except ImportError:  # an older checkout: DRF's clear-text tokens
        from rest_framework.authtoken.models import Token

        return Token.objects.get_or_create(user=user)[0].key
    return issue_token(user=user, name="bench").key


def us(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1e6, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--memories", type=int, default=200)
    args = parser.parse_args()
    from bench.standalone import setup_django

    setup_django("mnemo-auth-cost-", DJANGO_DEBUG="false", DJANGO_ALLOWED_HOSTS="testserver")
    from django.conf import settings
    from django.test import Client, RequestFactory
    from rest_framework.request import Request
    from rest_framework.settings import api_settings

    import memories.embedding as embedding
    from core import authentication
    from memories.models import Memory
    from memories.permissions import ensure_user_namespace
    from tests.factories import UserFactory

    user = UserFactory()
    key = make_key(user)
    namespace = ensure_user_namespace(user)
    texts = [f"Fact {i} about the harbour, the boat and the mooring number {i}." for i in range(args.memories)]
    vectors = embedding.embed_texts(texts)
    Memory.objects.bulk_create(
        [
            Memory(namespace=namespace, text=t, embedding=v, embedding_model="minilm", status="ready")
            for t, v in zip(texts, vectors, strict=True)
        ]
    )
    auth_class = api_settings.DEFAULT_AUTHENTICATION_CLASSES[0]
    header = f"Token {key}"
    factory = RequestFactory()
    client = Client(HTTP_AUTHORIZATION=header)

    def authenticate() -> None:
        result = auth_class().authenticate(Request(factory.get("/api/v1/whoami", HTTP_AUTHORIZATION=header)))
        assert result is not None and result[0].pk == user.pk

    def call(path: str, body: dict | None = None) -> Callable[[], None]:
        def run() -> None:
            response = client.get(path) if body is None else client.post(path, body, content_type="application/json")
            assert response.status_code == 200, response.content

        return run

    work = {
        "authenticate": authenticate,
        "whoami": call("/api/v1/whoami"),
        "keyword_search": call("/api/v1/memories/search", {"query": "harbour boat 42", "mode": "keyword"}),
        "search": call("/api/v1/memories/search", {"query": "where is the boat moored"}),
    }
    versioned = hasattr(authentication, "_current_version")
    read_version = getattr(authentication, "_current_version", None)

    def skip_version() -> int:  # the cache trusted as it was before the access version
        return authentication._seen_version or 0

    modes = {"as served": None, "without the version read": skip_version} if versioned else {"as served": None}
    result: dict = {
        "code": auth_class.__module__ + "." + auth_class.__name__,
        "token_cache_seconds": settings.MNEMO_TOKEN_CACHE_SECONDS,
        "requests": args.requests,
    }
    for name, fn in work.items():
        for _ in range(100):  # warm: connections, caches, first-use imports
            fn()
        samples: dict[str, list[float]] = {mode: [] for mode in modes}
        for _ in range(max(1, args.requests // BLOCK)):
            for mode, replacement in modes.items():
                if versioned:
                    authentication._current_version = replacement or read_version
                for _ in range(BLOCK):
                    started = time.perf_counter()
                    fn()
                    samples[mode].append(time.perf_counter() - started)
        if versioned:
            authentication._current_version = read_version
        result[name] = {mode: us(values) for mode, values in samples.items()}
        if versioned:
            result[name]["added_us"] = round(result[name]["as served"] - result[name]["without the version read"], 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
